"""Tournaments in the store: sign-up with the entry fee, rounds of pairings linked to the games
the bot opens, results, prizes, refunds (migration 011).

Entry fees go from the entrant to the house, which holds the pot for the tournament
(``tournaments.pot``, each entrant's ``paid``) until the prizes are paid or the fees refunded.
Every transfer's idempotency key names the tournament, the entrant and their sign-up, so a retried
press moves no chip twice, and fees in always equal refunds plus prizes out (an AI entrant signs
up free; a prize it wins stays with the house, which holds it already). All functions run inside a
write or read transaction opened by the caller; every state change checks the status it expects,
so of two presses at once the second is refused (or, for results, changes nothing).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import aiosqlite

from bot.tournaments import pairing as fmt
from bot.tournaments.prizes import prize_shares

from . import achievements, revisions
from .errors import StoreError
from .ledger import house_account, move, open_account, scoped_key, user_account
from .scope import EVERY_SERVER, Scope, scope_of

__all__ = ["Entrant", "PairingRow", "Tournament", "TournamentError", "MAX_ENTRANTS", "Weekly"]

MAX_ENTRANTS = {"swiss": 25, "single_elimination": 25, "round_robin": fmt.ROUND_ROBIN_MAX}
"""At most 25: the staff's menu to drop a player lists every entrant (Discord's limit)."""


class TournamentError(StoreError):
    """A refused tournament operation, named by its ``code`` (the Discord side phrases it for the
    presser); the Discord side also raises it with a sentence of its own as the message."""


@dataclass(frozen=True)
class Entrant:
    entrant: int
    user_id: int | None
    ai_level: str | None
    name: str
    status: str  # in, left, dropped
    seed: int | None
    paid: int
    place: int | None
    prize: int


@dataclass(frozen=True)
class PairingRow:
    round: int
    board: int
    a: int
    b: int | None
    game_id: int | None
    status: str  # pending, done
    winner: int | None


@dataclass(frozen=True)
class Tournament:
    tournament_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    created_by: int
    game: str
    format: str
    rules: dict[str, Any]
    fee: int
    pot: int
    status: str  # open, running, finished, cancelled
    round: int
    rounds: int
    entrants: tuple[Entrant, ...]
    pairings: tuple[PairingRow, ...]
    round_status: dict[int, tuple[str, bool]]  # round -> (playing | done, standings announced)
    # Counts the changes its message shows: the Discord side notes the revision it drew.
    revision: int = 0
    # When sign-up closes and the bot starts it by itself (ms since the epoch); None: staff do.
    starts_at: int | None = None

    @property
    def signed_up(self) -> list[Entrant]:
        return [e for e in self.entrants if e.status == "in"]

    @property
    def seeded(self) -> list[Entrant]:
        """Everyone who started, by seed."""
        return sorted((e for e in self.entrants if e.seed is not None), key=lambda e: e.seed)

    def by_seed(self, seed: int) -> Entrant:
        return next(e for e in self.entrants if e.seed == seed)

    @property
    def active_seeds(self) -> list[int]:
        return [e.seed for e in self.seeded if e.status == "in"]

    @property
    def dropped_seeds(self) -> list[int]:
        return [e.seed for e in self.seeded if e.status == "dropped"]

    def games(self) -> list[fmt.Game]:
        """Every result so far, as the pairing module reads them."""
        return [fmt.Game(p.round, p.a, p.b, p.winner) for p in self.pairings if p.status == "done"]

    def round_pairings(self, round_no: int) -> list[PairingRow]:
        return [p for p in self.pairings if p.round == round_no]


_COLUMNS = ("tournament_id, guild_id, channel_id, message_id, created_by, game, format, rules, "
            "fee, pot, status, round, rounds, revision, starts_at")


async def _one(conn: aiosqlite.Connection, sql: str, params: Any = ()) -> sqlite3.Row | None:
    rows = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def load(conn: aiosqlite.Connection, tournament_id: int, scope: Scope | int
               ) -> Tournament:
    """The tournament if ``scope`` (or the server id given) may read it: its own server, or
    from a direct message one of its entrants; any other is as unknown as a missing one."""
    scope = scope_of(scope)
    row = await _one(conn, f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = ?",
                     (tournament_id,))
    entrants = () if row is None else tuple(
        Entrant(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])
        for r in await conn.execute_fetchall(
            "SELECT entrant, user_id, ai_level, name, status, seed, paid, place, prize "
            "FROM tournament_entrants WHERE tournament_id = ? ORDER BY entrant", (tournament_id,)))
    if row is None or not scope.admits(row["guild_id"], (e.user_id for e in entrants)):
        raise TournamentError(code="tournament_elsewhere" if scope.guild_id is not None or scope.every_server
                              else "tournament_not_entered", tournament_id=tournament_id)
    pairings = tuple(
        PairingRow(*r) for r in await conn.execute_fetchall(
            "SELECT round, board, a, b, game_id, status, winner FROM tournament_pairings "
            "WHERE tournament_id = ? ORDER BY round, board", (tournament_id,)))
    rounds = {r[0]: (r[1], bool(r[2])) for r in await conn.execute_fetchall(
        "SELECT round, status, announced FROM tournament_rounds WHERE tournament_id = ?",
        (tournament_id,))}
    return Tournament(row["tournament_id"], row["guild_id"], row["channel_id"], row["message_id"],
                      row["created_by"], row["game"], row["format"], json.loads(row["rules"]),
                      row["fee"], row["pot"], row["status"], row["round"], row["rounds"],
                      entrants, pairings, rounds, row["revision"], row["starts_at"])


async def live(conn: aiosqlite.Connection) -> list[tuple[int, int]]:
    """(tournament, guild) of every tournament signing up or running."""
    return [(r[0], r[1]) for r in await conn.execute_fetchall(
        "SELECT tournament_id, guild_id FROM tournaments WHERE status IN ('open', 'running') "
        "ORDER BY tournament_id")]


async def of_game(conn: aiosqlite.Connection, game_id: int) -> tuple[int, int, int] | None:
    """(tournament, round, board) of the pairing played as ``game_id``, if any."""
    row = await _one(conn, "SELECT tournament_id, round, board FROM tournament_pairings "
                     "WHERE game_id = ?", (game_id,))
    return None if row is None else (row[0], row[1], row[2])


async def create(conn: aiosqlite.Connection, *, guild_id: int, channel_id: int, created_by: int,
                 game: str, format: str, rules: dict[str, Any], fee: int, key: str, now: int,
                 starts_at: int | None = None) -> Tournament:
    """A new tournament open for sign-up; a retried create (same key) returns the first one.
    ``starts_at``: when the bot closes sign-up and starts it by itself (None: staff do)."""
    idem = scoped_key(guild_id, "tournament", key)
    row = await _one(conn, "SELECT tournament_id FROM tournaments WHERE idem_key = ?", (idem,))
    if row is None:
        row = await _one(
            conn, "INSERT INTO tournaments (guild_id, channel_id, created_by, game, format, rules, "
            "fee, idem_key, created_at, updated_at, starts_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING tournament_id",
            (guild_id, channel_id, created_by, game, format, json.dumps(rules, sort_keys=True),
             fee, idem, now, now, starts_at))
    return await load(conn, row[0], EVERY_SERVER)


async def timed(conn: aiosqlite.Connection) -> list[tuple[int, int, int]]:
    """(tournament, guild, starts_at) of every tournament open for sign-up that starts by
    itself, the soonest first."""
    return [(r[0], r[1], r[2]) for r in await conn.execute_fetchall(
        "SELECT tournament_id, guild_id, starts_at FROM tournaments WHERE status = 'open' "
        "AND starts_at IS NOT NULL ORDER BY starts_at, tournament_id")]


async def set_message(conn: aiosqlite.Connection, tournament_id: int, message_id: int, now: int,
                      shown: int = 0) -> None:
    """``shown``: the revision the message was sent with."""
    await revisions.set_message(conn, "tournaments", tournament_id, message_id, now, shown)


async def _changed(conn: aiosqlite.Connection, tournament_id: int, now: int) -> None:
    """A change the tournament's message shows (its entrants, pot, round or outcome)."""
    await conn.execute("UPDATE tournaments SET revision = revision + 1, updated_at = ? "
                       "WHERE tournament_id = ?", (now, tournament_id))


async def mark_shown(conn: aiosqlite.Connection, tournament_id: int, revision: int) -> int:
    """Note the message shows ``revision``; the tournament's revision now (newer when it changed
    while that edit was on its way: two edits crossed)."""
    await revisions.mark_shown(conn, "tournaments", tournament_id, revision)
    row = await _one(conn, "SELECT revision FROM tournaments WHERE tournament_id = ?",
                     (tournament_id,))
    return revision if row is None else row[0]


async def unshown(conn: aiosqlite.Connection) -> list[tuple[int, int]]:
    """(tournament, guild) of each tournament whose message is behind the stored state."""
    return [(r[0], r[1]) for r in await conn.execute_fetchall(
        "SELECT tournament_id, guild_id FROM tournaments WHERE shown < revision "
        "AND message_id IS NOT NULL ORDER BY tournament_id")]


async def _open(conn: aiosqlite.Connection, tournament_id: int, guild_id: int) -> Tournament:
    tour = await load(conn, tournament_id, guild_id)
    if tour.status != "open":
        raise TournamentError(code="signup_closed")
    return tour


def _check_room(tour: Tournament) -> None:
    most = MAX_ENTRANTS[tour.format]
    if len(tour.signed_up) >= most:
        raise TournamentError(code="tournament_full", most=most)


def _fee_key(tour: Tournament, user_id: int, joins: int, kind: str) -> str:
    return scoped_key(tour.guild_id, kind, f"tournament {tour.tournament_id}:{user_id}:{joins}")


async def join(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, user_id: int,
               name: str, now: int) -> Tournament:
    """Sign ``user_id`` up, the entry fee moved into the pot in the same transaction."""
    tour = await _open(conn, tournament_id, guild_id)
    mine = next((e for e in tour.entrants if e.user_id == user_id), None)
    if mine is not None and mine.status == "in":
        raise TournamentError(code="already_signed_up")
    _check_room(tour)
    if mine is None:
        entrant = max((e.entrant for e in tour.entrants), default=0) + 1
        joins = 1
        await conn.execute(
            "INSERT INTO tournament_entrants (tournament_id, entrant, user_id, name, joined_at) "
            "VALUES (?, ?, ?, ?, ?)", (tournament_id, entrant, user_id, name[:64], now))
    else:  # signed up again after leaving: a new sign-up, so a new fee under a new key
        joins = (await _one(conn, "UPDATE tournament_entrants SET status = 'in', joins = joins + 1, "
                            "name = ? WHERE tournament_id = ? AND entrant = ? RETURNING joins",
                            (name[:64], tournament_id, mine.entrant)))[0]
    if tour.fee:
        await open_account(conn, guild_id, user_id, user_id, now)
        await move(conn, guild_id=guild_id, key=_fee_key(tour, user_id, joins, "stake"),
                   kind="stake", src=await user_account(conn, guild_id, user_id),
                   dst=await house_account(conn, guild_id, now), amount=tour.fee, actor=user_id,
                   reason=f"entry fee of tournament #{tournament_id}", now=now)
        await conn.execute("UPDATE tournament_entrants SET paid = ? WHERE tournament_id = ? "
                           "AND user_id = ?", (tour.fee, tournament_id, user_id))
        await conn.execute("UPDATE tournaments SET pot = pot + ?, updated_at = ? "
                           "WHERE tournament_id = ?", (tour.fee, now, tournament_id))
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def _refund(conn: aiosqlite.Connection, tour: Tournament, entrant: Entrant, actor: int,
                  now: int) -> None:
    if not entrant.paid or entrant.user_id is None:
        return
    joins = (await _one(conn, "SELECT joins FROM tournament_entrants WHERE tournament_id = ? "
                        "AND entrant = ?", (tour.tournament_id, entrant.entrant)))[0]
    await move(conn, guild_id=tour.guild_id, key=_fee_key(tour, entrant.user_id, joins, "refund"),
               kind="refund", src=await house_account(conn, tour.guild_id, now),
               dst=await user_account(conn, tour.guild_id, entrant.user_id), amount=entrant.paid,
               actor=actor, reason=f"entry fee of tournament #{tour.tournament_id} refunded",
               now=now)
    await conn.execute("UPDATE tournament_entrants SET paid = 0 WHERE tournament_id = ? "
                       "AND entrant = ?", (tour.tournament_id, entrant.entrant))
    await conn.execute("UPDATE tournaments SET pot = pot - ?, updated_at = ? WHERE tournament_id = ?",
                       (entrant.paid, now, tour.tournament_id))


async def leave(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, user_id: int,
                now: int) -> Tournament:
    """Withdraw before the start: the fee comes back."""
    tour = await _open(conn, tournament_id, guild_id)
    mine = next((e for e in tour.signed_up if e.user_id == user_id), None)
    if mine is None:
        raise TournamentError(code="not_signed_up")
    await conn.execute("UPDATE tournament_entrants SET status = 'left' WHERE tournament_id = ? "
                       "AND entrant = ?", (tournament_id, mine.entrant))
    await _refund(conn, tour, mine, user_id, now)
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def withdraw(conn: aiosqlite.Connection, tournament_id: int, scope: Scope, user_id: int,
                   now: int) -> tuple[Tournament, Entrant]:
    """A member takes themself out, from wherever they ask (``scope``: their press, admitted
    from the tournament's server or, from a direct message, as one of its entrants): before the
    start as leaving, the fee refunded; while it runs as a staff drop, no further pairings and
    the fee staying in the pot the prizes are paid from (the caller forfeits a running game)."""
    tour = await load(conn, tournament_id, scope)
    if tour.status not in ("open", "running"):
        raise TournamentError(code="tournament_over")
    mine = next((e for e in tour.entrants if e.user_id == user_id and e.status == "in"), None)
    if mine is None:
        raise TournamentError(code="not_signed_up")
    return await drop(conn, tournament_id, tour.guild_id, mine.entrant, user_id, now)


async def signed_up(conn: aiosqlite.Connection, scope: Scope) -> list[tuple[int, int, str, str]]:
    """(tournament, server, game, status) of the live tournaments ``scope``'s member is signed
    up for: of its server, or from a direct message of every server."""
    where, params = "e.user_id = ? AND e.status = 'in' AND t.status IN ('open', 'running')", \
        [scope.user_id]
    if scope.guild_id is not None:
        where += " AND t.guild_id = ?"
        params.append(scope.guild_id)
    return [(r[0], r[1], r[2], r[3]) for r in await conn.execute_fetchall(
        "SELECT t.tournament_id, t.guild_id, t.game, t.status FROM tournaments t "
        "JOIN tournament_entrants e ON e.tournament_id = t.tournament_id "
        f"WHERE {where} ORDER BY t.tournament_id", params)]


async def add_ai(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, level: str,
                 name: str, now: int) -> Tournament:
    tour = await _open(conn, tournament_id, guild_id)
    _check_room(tour)
    entrant = max((e.entrant for e in tour.entrants), default=0) + 1
    await conn.execute(
        "INSERT INTO tournament_entrants (tournament_id, entrant, ai_level, name, joined_at) "
        "VALUES (?, ?, ?, ?, ?)", (tournament_id, entrant, level, name[:64], now))
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


def planned_rounds(format: str, entrants: int) -> int:
    if format == "swiss":
        return fmt.swiss_rounds(entrants)
    if format == "round_robin":
        return fmt.round_robin_rounds(entrants)
    return fmt.elimination_rounds(entrants)


async def start(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, now: int
                ) -> Tournament:
    """Close sign-up: seeds in sign-up order, the number of rounds fixed. Once only."""
    tour = await load(conn, tournament_id, guild_id)
    if tour.status != "open":
        raise TournamentError(code="tournament_started" if tour.status == "running"
                              else "tournament_over")
    entrants = tour.signed_up
    if len(entrants) < 2:
        raise TournamentError(code="too_few_entrants", least=2)
    for seed, e in enumerate(entrants, start=1):
        await conn.execute("UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? "
                           "AND entrant = ?", (seed, tournament_id, e.entrant))
    await conn.execute("UPDATE tournaments SET status = 'running', rounds = ?, updated_at = ? "
                       "WHERE tournament_id = ?",
                       (planned_rounds(tour.format, len(entrants)), now, tournament_id))
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def begin_round(conn: aiosqlite.Connection, tournament_id: int, round_no: int,
                      pairs: list[tuple[int, int]], byes: list[int], now: int) -> Tournament:
    """Store round ``round_no``'s pairings (byes are played at once: a win); a round already
    stored is kept as it was, so a retried start of a round pairs nobody twice."""
    tour = await load(conn, tournament_id, EVERY_SERVER)
    if tour.status != "running":
        raise TournamentError(code="tournament_not_running")
    if round_no not in tour.round_status:
        await conn.execute("INSERT INTO tournament_rounds (tournament_id, round, started_at) "
                           "VALUES (?, ?, ?)", (tournament_id, round_no, now))
        board = 0
        for a, b in pairs:
            board += 1
            await conn.execute("INSERT INTO tournament_pairings (tournament_id, round, board, a, b) "
                               "VALUES (?, ?, ?, ?, ?)", (tournament_id, round_no, board, a, b))
        for bye in byes:
            board += 1
            await conn.execute(
                "INSERT INTO tournament_pairings (tournament_id, round, board, a, status, winner) "
                "VALUES (?, ?, ?, ?, 'done', ?)", (tournament_id, round_no, board, bye, bye))
        await conn.execute("UPDATE tournaments SET round = ?, updated_at = ? WHERE tournament_id = ?",
                           (round_no, now, tournament_id))
        await _close_round_if_done(conn, tournament_id, round_no, now)
        await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def link_game(conn: aiosqlite.Connection, tournament_id: int, round_no: int, board: int,
                    game_id: int) -> None:
    await conn.execute("UPDATE tournament_pairings SET game_id = ? WHERE tournament_id = ? "
                       "AND round = ? AND board = ? AND game_id IS NULL",
                       (game_id, tournament_id, round_no, board))


async def _close_round_if_done(conn: aiosqlite.Connection, tournament_id: int, round_no: int,
                               now: int) -> None:
    await conn.execute(
        "UPDATE tournament_rounds SET status = 'done', ended_at = ? WHERE tournament_id = ? "
        "AND round = ? AND status = 'playing' AND NOT EXISTS (SELECT 1 FROM tournament_pairings "
        "WHERE tournament_id = ? AND round = ? AND status = 'pending')",
        (now, tournament_id, round_no, tournament_id, round_no))


async def record(conn: aiosqlite.Connection, tournament_id: int, round_no: int, board: int,
                 winner: int | None, now: int) -> Tournament:
    """A pairing's result (``winner`` a seed, None a draw); a recorded result stays as it was."""
    await conn.execute("UPDATE tournament_pairings SET status = 'done', winner = ? "
                       "WHERE tournament_id = ? AND round = ? AND board = ? AND status = 'pending'",
                       (winner, tournament_id, round_no, board))
    await _close_round_if_done(conn, tournament_id, round_no, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def mark_announced(conn: aiosqlite.Connection, tournament_id: int, round_no: int) -> bool:
    """Note that a finished round's standings were posted; False if they already were."""
    cur = await conn.execute("UPDATE tournament_rounds SET announced = 1 WHERE tournament_id = ? "
                             "AND round = ? AND status = 'done' AND announced = 0",
                             (tournament_id, round_no))
    return cur.rowcount == 1


async def drop(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, entrant: int,
               actor: int, now: int) -> tuple[Tournament, Entrant]:
    """Staff take an entrant out: before the start as if they left (fee refunded), after it
    with no further pairings (their current game is forfeited by the caller)."""
    tour = await load(conn, tournament_id, guild_id)
    mine = next((e for e in tour.entrants if e.entrant == entrant and e.status == "in"), None)
    if mine is None or tour.status not in ("open", "running"):
        raise TournamentError(code="entrant_gone", entrant=entrant)
    status = "left" if tour.status == "open" else "dropped"
    await conn.execute("UPDATE tournament_entrants SET status = ? WHERE tournament_id = ? "
                       "AND entrant = ?", (status, tournament_id, entrant))
    if tour.status == "open":
        await _refund(conn, tour, mine, actor, now)
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER), mine


async def finish(conn: aiosqlite.Connection, tournament_id: int, ranking: list[int], now: int
                 ) -> Tournament:
    """Place everyone (``ranking``: seeds, first place first) and pay the prizes from the pot."""
    tour = await load(conn, tournament_id, EVERY_SERVER)
    if tour.status == "finished":
        return tour
    if tour.status != "running":
        raise TournamentError(code="tournament_not_running")
    if sorted(ranking) != sorted(e.seed for e in tour.seeded):
        raise TournamentError("The final ranking must place every entrant once.")
    shares = prize_shares(tour.pot, tour.format, len(ranking))
    for place, seed in enumerate(ranking, start=1):
        entrant = tour.by_seed(seed)
        prize = shares[place - 1] if place <= len(shares) else 0
        await conn.execute("UPDATE tournament_entrants SET place = ?, prize = ?, paid = 0 "
                           "WHERE tournament_id = ? AND seed = ?", (place, prize, tournament_id, seed))
        if prize and entrant.user_id is not None:
            await open_account(conn, tour.guild_id, entrant.user_id, 0, now)
            await move(conn, guild_id=tour.guild_id,
                       key=scoped_key(tour.guild_id, "payout", f"tournament {tournament_id}:{place}"),
                       kind="payout", src=await house_account(conn, tour.guild_id, now),
                       dst=await user_account(conn, tour.guild_id, entrant.user_id), amount=prize,
                       actor=0, reason=f"prize for place {place} of tournament #{tournament_id}",
                       now=now)
    winner = tour.by_seed(ranking[0])
    if winner.user_id is not None:  # an AI that wins earns nothing
        await achievements.champion(conn, tour.guild_id, winner.user_id, tournament_id, now)
    await conn.execute("UPDATE tournaments SET status = 'finished', pot = 0, ended_at = ?, "
                       "updated_at = ? WHERE tournament_id = ?", (now, now, tournament_id))
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def cancel(conn: aiosqlite.Connection, tournament_id: int, guild_id: int, actor: int,
                 now: int) -> Tournament:
    """Call the tournament off: every fee in the pot is refunded (the caller cancels the running
    games)."""
    tour = await load(conn, tournament_id, guild_id)
    if tour.status not in ("open", "running"):
        raise TournamentError(code="tournament_over")
    for entrant in tour.entrants:
        await _refund(conn, tour, entrant, actor, now)
    await conn.execute("UPDATE tournaments SET status = 'cancelled', ended_at = ?, updated_at = ? "
                       "WHERE tournament_id = ?", (now, now, tournament_id))
    await _changed(conn, tournament_id, now)
    return await load(conn, tournament_id, EVERY_SERVER)


async def ledger_of(conn: aiosqlite.Connection, tournament_id: int) -> dict[str, int]:
    """Chips moved for the tournament by kind (fees in as 'stake', 'refund', 'payout' out)."""
    rows = await conn.execute_fetchall(
        "SELECT kind, SUM(amount) FROM transfers WHERE idem_key LIKE ? GROUP BY kind",
        (f"%:tournament {tournament_id}:%",))
    return {r[0]: r[1] for r in rows}


async def game_started_as(conn: aiosqlite.Connection, guild_id: int, key: str) -> int | None:
    """The game a start with ``key`` created (a table opened before a restart), if any."""
    row = await _one(conn, "SELECT game_id FROM games WHERE start_key = ?",
                     (scoped_key(guild_id, "start", key),))
    return None if row is None else row[0]


# -- weekly tournaments ----------------------------------------------------------------------------
WEEK_MS = 7 * 86_400_000


@dataclass(frozen=True, slots=True)
class Weekly:
    """A tournament a channel gets every week: its options, when it starts (``weekday``, 0 for
    Monday, and ``hour``, UTC) and how many minutes before that its sign-up opens."""

    channel_id: int
    guild_id: int
    game: str
    format: str
    rounds: int
    fee: int
    preset: str | None
    weekday: int
    hour: int
    signup_min: int

    def next_start(self, now_ms: int) -> int:
        """The first start (ms) after ``now_ms``."""
        now = datetime.fromtimestamp(now_ms / 1000, tz=UTC)
        start = now.replace(hour=self.hour, minute=0, second=0, microsecond=0) + timedelta(
            days=(self.weekday - now.weekday()) % 7)
        at = int(start.timestamp() * 1000)
        return at if at > now_ms else at + WEEK_MS

    def due(self, now_ms: int) -> int | None:
        """The start whose sign-up is open at ``now_ms`` (None: the next one's is still to
        open)."""
        start = self.next_start(now_ms)
        return start if start - self.signup_min * 60_000 <= now_ms else None


_WEEKLY = ("SELECT channel_id, guild_id, game, format, rounds, fee, preset, weekday, hour, "
           "signup_min FROM tournament_schedules")


def _weekly(row: Any) -> Weekly:
    return Weekly(*(row[i] for i in range(10)))


async def set_weekly(conn: aiosqlite.Connection, plan: Weekly, now: int) -> Weekly:
    """The channel's weekly tournament, replacing the one it had."""
    await conn.execute(
        "INSERT INTO tournament_schedules (channel_id, guild_id, game, format, rounds, fee, preset, "
        "weekday, hour, signup_min, set_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, game = excluded.game, "
        "format = excluded.format, rounds = excluded.rounds, fee = excluded.fee, "
        "preset = excluded.preset, weekday = excluded.weekday, hour = excluded.hour, "
        "signup_min = excluded.signup_min, set_at = excluded.set_at",
        (plan.channel_id, plan.guild_id, plan.game, plan.format, plan.rounds, plan.fee, plan.preset,
         plan.weekday, plan.hour, plan.signup_min, now))
    return plan


async def stop_weekly(conn: aiosqlite.Connection, guild_id: int, channel_id: int) -> Weekly | None:
    """The channel's weekly tournament, stopped (None: it had none). Tournaments it opened go on."""
    rows = await conn.execute_fetchall(f"{_WEEKLY} WHERE channel_id = ? AND guild_id = ?",
                                       (channel_id, guild_id))
    if not rows:
        return None
    await conn.execute("DELETE FROM tournament_schedules WHERE channel_id = ?", (channel_id,))
    return _weekly(rows[0])


async def weekly(conn: aiosqlite.Connection, guild_id: int | None = None) -> list[Weekly]:
    """The weekly tournaments of every server (or of ``guild_id``), by channel."""
    rows = await conn.execute_fetchall(
        f"{_WEEKLY}{'' if guild_id is None else ' WHERE guild_id = ?'} ORDER BY channel_id",
        () if guild_id is None else (guild_id,))
    return [_weekly(r) for r in rows]


async def unposted(conn: aiosqlite.Connection) -> list[int]:
    """The tournaments the bot opened by itself (a weekly one) whose sign-up message it has not
    noted posting: posted at the next look, after a stop too."""
    return [r[0] for r in await conn.execute_fetchall(
        "SELECT tournament_id FROM tournaments WHERE status = 'open' AND message_id IS NULL "
        "AND created_by = 0 ORDER BY tournament_id")]
