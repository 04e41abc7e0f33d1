"""Members' data on request: what the bot keeps about a member on one server, its export, and
forgetting them there.

Forgetting replaces the member's Discord id on that server, in every row that holds it, with one
pseudonym: a negative number drawn at random for that member and server (Discord ids are
positive and the bot acts as 0, so it can never collide with anyone). Their name goes wherever it
is stored (the names and the move log saved with each game, a cancel's reason that names them, the
reason of a gift they sent), their ratings and achievements are deleted and their results stay
under the pseudonym,
so every game still replays and the other players' records are unchanged. Their account and its
entries stay too, owned by the pseudonym, so every server's ledger still balances; the chips in it
are out of play for good. Nothing of any other server is read or written.

The ledger, the results, the game log and the seasons refuse changes (append-only triggers); the
forget transaction sets those guards aside for itself alone (:mod:`bot.store.guards`) and
changes only the ids, keys and names above.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import guards, surfaces
from .db import dialect_of
from .errors import StoreError
from .languages import UserLanguage, load_user_language
from .ledger import history as ledger_history
from .ledger import scoped_key
from .models import ms_to_datetime
from .records import GUEST_PLACES, holds_user

__all__ = ["FORMER_NAME", "LatestGame", "MemberData", "Forgotten", "MemberBusy", "member_data",
           "export", "forget", "guest_places_of", "guest_member_data", "export_guest",
           "forget_in_guest_places"]

#: The name a forgotten member's seat keeps in stored games (shown translated: see
#: :func:`bot.store.models.former_member`).
FORMER_NAME = "a former member"
#: Pseudonyms are drawn from -1 down to -(2**53): exact in every JSON reader too.
PSEUDONYM_RANGE = 2**53
#: The tables whose update guards a forget sets aside.
GUARDED = ("accounts", "transfers", "results", "game_events", "seasons")
_CANCELLED_BY = re.compile(r"cancelled by (?P<name>.*?)(?P<tail> from /games)?", re.S)


class MemberBusy(StoreError):
    """The member plays a running game, sits in an open lobby or is entered in a tournament that
    has not ended: nothing is forgotten."""

    def __init__(self, running: list[int], lobbies: int, tournaments: int = 0) -> None:
        self.running, self.lobbies, self.tournaments = running, lobbies, tournaments
        super().__init__(f"the member is busy: running games {running}, {lobbies} open lobbies, "
                         f"{tournaments} tournaments")


@dataclass(frozen=True, slots=True)
class LatestGame:
    game_id: int
    game: str
    status: str
    at: datetime  # when it ended, or began while it runs


@dataclass(frozen=True, slots=True)
class MemberData:
    """What the bot keeps about one member on one server (their language is kept for every
    server alike)."""

    guild_id: int
    user_id: int
    games: dict[str, int] = field(default_factory=dict)  # status -> how many
    latest_game: LatestGame | None = None
    balance: int | None = None  # None: no account here
    ledger_entries: int = 0
    results: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    ratings: list[tuple[str, int, float, int]] = field(default_factory=list)  # game, season, rating, games
    achievements: int = 0
    lobbies: int = 0
    seasons_started: int = 0
    transfers_caused: int = 0  # chips they moved on others' accounts (staff grants, stakes of a game they started)
    language: UserLanguage | None = None
    tournaments: int = 0  # tournaments they entered here
    deals_of_the_day: int = 0  # their entries of the place's deals of the day
    reminded: bool = False  # they asked to be reminded of the server's deal of the day
    running_games: list[int] = field(default_factory=list)  # these keep them from being forgotten
    open_lobbies: int = 0  # and so do these
    live_tournaments: int = 0  # and the tournaments they are still in

    def busy(self) -> MemberBusy | None:
        """Why they cannot be forgotten now (None: they can)."""
        if self.running_games or self.open_lobbies or self.live_tournaments:
            return MemberBusy(self.running_games, self.open_lobbies, self.live_tournaments)
        return None

    @property
    def stored_here(self) -> bool:
        """Whether anything of this server identifies them."""
        return bool(sum(self.games.values()) or self.balance is not None or self.results
                    or self.ratings or self.achievements or self.lobbies or self.seasons_started or self.transfers_caused
                    or self.tournaments or self.deals_of_the_day or self.reminded)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What a forget changed: the pseudonym now standing for the member on that server."""

    pseudonym: int
    games: int
    results: int
    ratings: int
    balance: int | None  # left with the pseudonym's account (None: they had none)
    ledger_entries: int


def _in_lobby(dialect: str) -> str:
    return f"(l.host_id = ? OR l.opponent_id = ? OR {holds_user('l.humans', dialect)})"


def _actor_param(conn: Any, user_id: int) -> int | str:
    """The game log's actor as stored: PostgreSQL keeps ids and labels alike as text."""
    return str(user_id) if dialect_of(conn) == "postgresql" else user_id


async def _one(conn: Any, sql: str, params: Any) -> Any:
    rows = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def _account(conn: Any, guild_id: int, user_id: int) -> Any:
    return await _one(conn, "SELECT account_id, balance, created_at FROM accounts "
                      "WHERE guild_id = ? AND kind = 'user' AND user_id = ?", (guild_id, user_id))


async def member_data(conn: Any, guild_id: int, user_id: int) -> MemberData:
    """The summary ``/privacy`` shows (one read snapshot)."""
    dialect = dialect_of(conn)
    sat_in = holds_user("g.players", dialect)
    games = {row[0]: row[1] for row in await conn.execute_fetchall(
        f"SELECT status, COUNT(*) FROM games g WHERE g.guild_id = ? AND {sat_in} GROUP BY status",
        (guild_id, user_id))}
    latest = await _one(conn, "SELECT game_id, game, status, created_at, ended_at FROM games g "
                        f"WHERE g.guild_id = ? AND {sat_in} ORDER BY g.game_id DESC LIMIT 1",
                        (guild_id, user_id))
    account = await _account(conn, guild_id, user_id)
    entries = 0
    if account is not None:
        entries = (await _one(conn, "SELECT COUNT(*) FROM entries WHERE account_id = ?",
                              (account[0],)))[0]
    results = await _one(conn, "SELECT COUNT(*), SUM(outcome = 'won'), SUM(outcome = 'draw'), "
                         "SUM(outcome = 'lost') FROM results WHERE guild_id = ? AND user_id = ?",
                         (guild_id, user_id))
    ratings = [(row[0], row[1], row[2], row[3]) for row in await conn.execute_fetchall(
        "SELECT game, season, rating, games FROM ratings WHERE guild_id = ? AND user_id = ? "
        "ORDER BY game, season", (guild_id, user_id))]
    lobbies = (await _one(conn, f"SELECT COUNT(*) FROM lobbies l WHERE l.guild_id = ? AND "
                          f"{_in_lobby(dialect)}", (guild_id, user_id, user_id, user_id)))[0]
    achieved = (await _one(conn, "SELECT COUNT(*) FROM achievements WHERE guild_id = ? AND user_id = ?",
                           (guild_id, user_id)))[0]
    seasons = (await _one(conn, "SELECT COUNT(*) FROM seasons WHERE guild_id = ? AND started_by = ?",
                          (guild_id, user_id)))[0]
    daily = (await _one(conn, "SELECT COUNT(*) FROM daily_entries WHERE guild_id = ? AND user_id = ?",
                        (guild_id, user_id)))[0]
    reminded = (await _one(conn, "SELECT COUNT(*) FROM daily_reminders WHERE guild_id = ? AND "
                           "user_id = ?", (guild_id, user_id)))[0]
    running, open_lobbies = await _busy(conn, guild_id, user_id)
    entered, live = await _tournaments(conn, guild_id, user_id)
    own = account[0] if account is not None else 0
    caused = (await _one(conn, "SELECT COUNT(*) FROM transfers WHERE guild_id = ? AND actor = ? "
                         "AND from_account <> ? AND to_account <> ?",
                         (guild_id, user_id, own, own)))[0]
    return MemberData(
        guild_id=guild_id, user_id=user_id, games=games,
        latest_game=None if latest is None else LatestGame(
            latest[0], latest[1], latest[2], ms_to_datetime(latest[4] or latest[3])),
        balance=None if account is None else account[1], ledger_entries=entries,
        results=results[0], wins=results[1] or 0, draws=results[2] or 0, losses=results[3] or 0,
        ratings=ratings, achievements=achieved, lobbies=lobbies, seasons_started=seasons,
        transfers_caused=caused,
        language=await load_user_language(conn, user_id), running_games=running,
        open_lobbies=open_lobbies, tournaments=entered, live_tournaments=live,
        deals_of_the_day=daily, reminded=bool(reminded),
    )


def _when(ms: int | None) -> str | None:
    moment = ms_to_datetime(ms)
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def _seat(players: list[Any], user_id: int) -> int | None:
    return next((seat for seat, p in enumerate(players) if p == user_id and type(p) is int), None)


async def export(conn: Any, guild_id: int, user_id: int, now: int) -> dict[str, Any]:
    """Every row of this server that holds the member's id, as a JSON-ready dict (their own
    rows only: a game shows their seat and their own moves, never another player's hand)."""
    dialect = dialect_of(conn)
    account = await _account(conn, guild_id, user_id)
    ledger = []
    if account is not None:
        for line in await ledger_history(conn, guild_id, user_id, 0, 2**62):
            ledger.append({
                "transfer_id": line.transfer_id, "at": _when(int(line.created_at.timestamp() * 1000)),
                "kind": line.kind, "amount": line.amount, "balance_after": line.balance_after,
                "counterparty": (str(line.counterparty) if line.counterparty_kind == "user"
                                 else line.counterparty_kind),
                "game_id": line.game_id, "by_you": line.actor == user_id, "reason": line.reason,
            })
    moves: dict[int, list[list[Any]]] = {}
    for row in await conn.execute_fetchall(
            "SELECT e.game_id, e.seq, e.action, e.created_at FROM game_events e "
            "JOIN games g ON g.game_id = e.game_id WHERE g.guild_id = ? AND e.actor = ? "
            "ORDER BY e.game_id, e.seq", (guild_id, _actor_param(conn, user_id))):
        moves.setdefault(row[0], []).append([row[1], row[2], _when(row[3])])
    games = []
    for row in await conn.execute_fetchall(
            "SELECT game_id, game, status, players, stake, created_at, ended_at, end_reason "
            f"FROM games g WHERE g.guild_id = ? AND {holds_user('g.players', dialect)} "
            "ORDER BY game_id", (guild_id, user_id)):
        players = json.loads(row[3])
        games.append({
            "game_id": row[0], "game": row[1], "status": row[2], "your_seat": _seat(players, user_id),
            "seats": len(players), "stake": row[4], "started_at": _when(row[5]),
            "ended_at": _when(row[6]), "end_reason": row[7], "your_moves": moves.get(row[0], []),
        })
    results = [{
        "game_id": r[0], "game": r[1], "season": r[2], "seat": r[3], "points": r[4],
        "outcome": r[5], "rated": bool(r[6]), "rating_before": r[7], "rating_after": r[8],
        "finished_at": _when(r[9]),
    } for r in await conn.execute_fetchall(
        "SELECT game_id, game, season, seat, points, outcome, rated, rating_before, rating_after, "
        "finished_at FROM results WHERE guild_id = ? AND user_id = ? ORDER BY finished_at, game_id",
        (guild_id, user_id))]
    ratings = [{
        "game": r[0], "season": r[1], "rating": r[2], "mu": r[3], "sigma": r[4], "games": r[5],
        "wins": r[6], "losses": r[7], "draws": r[8], "updated_at": _when(r[9]),
    } for r in await conn.execute_fetchall(
        "SELECT game, season, rating, mu, sigma, games, wins, losses, draws, updated_at FROM ratings "
        "WHERE guild_id = ? AND user_id = ? ORDER BY game, season", (guild_id, user_id))]
    achieved = [{"achievement": r[0], "game_id": r[1], "tournament_id": r[3], "earned_at": _when(r[2])}
                for r in await conn.execute_fetchall(
                    "SELECT code, game_id, earned_at, tournament_id FROM achievements WHERE "
                    "guild_id = ? AND user_id = ? ORDER BY earned_at, code", (guild_id, user_id))]
    lobbies = []
    for r in await conn.execute_fetchall(
            "SELECT kind, game, status, stake, host_id, opponent_id, created_at, options FROM lobbies l "
            f"WHERE l.guild_id = ? AND {_in_lobby(dialect)} ORDER BY created_at",
            (guild_id, user_id, user_id, user_id)):
        role = "host" if r[4] == user_id else "challenged" if r[5] == user_id else "seated"
        lobbies.append({"kind": r[0], "game": r[1], "status": r[2], "stake": r[3], "role": role,
                        "created_at": _when(r[6]), "options": json.loads(r[7])})
    seasons = [{"season": r[0], "name": r[1], "started_at": _when(r[2])}
               for r in await conn.execute_fetchall(
                   "SELECT season, name, started_at FROM seasons WHERE guild_id = ? AND "
                   "started_by = ? ORDER BY season", (guild_id, user_id))]
    own = account[0] if account is not None else 0
    caused = [{"transfer_id": r[0], "kind": r[1], "amount": r[2], "game_id": r[3],
               "at": _when(r[4]), "reason": r[5]}
              for r in await conn.execute_fetchall(
                  "SELECT transfer_id, kind, amount, game_id, created_at, reason FROM transfers "
                  "WHERE guild_id = ? AND actor = ? AND from_account <> ? AND to_account <> ? "
                  "ORDER BY transfer_id", (guild_id, user_id, own, own))]
    tournaments = [{"tournament_id": r[0], "game": r[1], "format": r[2], "status": r[3],
                    "entry": r[4], "seed": r[5], "fee_paid": r[6], "place": r[7], "prize": r[8],
                    "joined_at": _when(r[9])}
                   for r in await conn.execute_fetchall(
                       "SELECT tt.tournament_id, tt.game, tt.format, tt.status, e.status, e.seed, "
                       f"e.paid, e.place, e.prize, e.joined_at {_ENTERED} ORDER BY tt.tournament_id",
                       (guild_id, user_id))]
    daily = [{"game": r[0], "day": r[1], "margin": r[2], "finished_at": _when(r[3]),
              "claimed_at": _when(r[4])}
             for r in await conn.execute_fetchall(
                 "SELECT game, day, margin, finished_at, claimed_at FROM daily_entries "
                 "WHERE guild_id = ? AND user_id = ? ORDER BY day, game", (guild_id, user_id))]
    reminder = await _one(conn, "SELECT set_at, reminded_day, refused_day, hour FROM daily_reminders "
                          "WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    language = await load_user_language(conn, user_id)
    return {
        "about": ("What the Hanafuda bot keeps about one member on one server: every stored row "
                  "that holds their Discord id there. Ids are strings; times are UTC. 'games' "
                  "lists the games they sat in with their own moves only; 'language' is kept "
                  "for every server alike."),
        "server_id": str(guild_id), "user_id": str(user_id), "exported_at": _when(now),
        "account": None if account is None else {"balance": account[1],
                                                 "opened_at": _when(account[2])},
        "ledger": ledger, "games": games, "results": results, "ratings": ratings,
        "achievements": achieved, "lobbies": lobbies, "tournaments": tournaments, "seasons_started": seasons, "chips_moved_for_others": caused,
        "deals_of_the_day": daily,
        "deal_reminder": None if reminder is None else {
            "asked_at": _when(reminder[0]), "hour_utc": reminder[3], "last_day": reminder[1],
            "refused_day": reminder[2]},
        "language": None if language is None else {"seen": language.seen or None,
                                                    "chosen": language.chosen or None},
    }


async def _busy(conn: Any, guild_id: int, user_id: int) -> tuple[list[int], int]:
    dialect = dialect_of(conn)
    running = [row[0] for row in await conn.execute_fetchall(
        "SELECT game_id FROM games g WHERE g.guild_id = ? AND g.status = 'running' AND "
        f"{holds_user('g.players', dialect)} ORDER BY game_id", (guild_id, user_id))]
    lobbies = (await _one(conn, "SELECT COUNT(*) FROM lobbies l WHERE l.guild_id = ? AND "
                          f"l.status IN ('open', 'starting') AND {_in_lobby(dialect)}",
                          (guild_id, user_id, user_id, user_id)))[0]
    return running, lobbies


_ENTERED = ("FROM tournament_entrants e JOIN tournaments tt ON tt.tournament_id = e.tournament_id "
            "WHERE tt.guild_id = ? AND e.user_id = ?")


async def _tournaments(conn: Any, guild_id: int, user_id: int) -> tuple[int, int]:
    """The tournaments they entered here, and those of them they are still in."""
    row = await _one(conn, "SELECT COUNT(*), SUM(e.status = 'in' AND tt.status IN ('open', "
                     f"'running')) {_ENTERED}", (guild_id, user_id))
    return row[0], row[1] or 0


async def _new_pseudonym(conn: Any, guild_id: int) -> int:
    """A negative id no row of this server uses yet."""
    while True:
        pseudonym = -1 - secrets.randbelow(PSEUDONYM_RANGE)
        taken = await _one(conn, "SELECT 1 FROM accounts WHERE guild_id = ? AND user_id = ? "
                           "UNION ALL SELECT 1 FROM results WHERE guild_id = ? AND user_id = ?",
                           (guild_id, pseudonym, guild_id, pseudonym))
        if taken is None:
            return pseudonym


def _anonymous_reason(reason: str | None, names: set[str]) -> str | None:
    """A cancel's reason that names the member ("cancelled by Ann from /games"), anonymous."""
    found = _CANCELLED_BY.fullmatch(reason or "")
    if found and found["name"] in names:
        return f"cancelled by {FORMER_NAME}{found['tail'] or ''}"
    return reason


def _anonymous_state(state_json: str, seat: int | None, user_id: int, pseudonym: int) -> str:
    """A stored game's state without the member: their seat's name, the table's move log
    (which names players), their hand's message and a turn alert of theirs."""
    try:
        state = json.loads(state_json)
    except ValueError:
        return state_json
    if not isinstance(state, dict):
        return state_json
    names = state.get("names")
    if seat is not None and isinstance(names, list) and seat < len(names):
        names[seat] = FORMER_NAME
    if state.get("host_id") == user_id:
        state["host_id"] = pseudonym
    if isinstance(state.get("log"), list):
        state["log"] = []
    if seat is not None and isinstance(state.get("hand_messages"), dict):
        state["hand_messages"].pop(str(seat), None)
    alert = state.get("turn_alert")
    if isinstance(alert, dict) and seat is not None and alert.get("seat") == seat:
        state["turn_alert"] = None
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


async def _forget_in_games(conn: Any, guild_id: int, user_id: int, pseudonym: int,
                           names: set[str], now: int) -> int:
    """Replace the member in every game of the server they sat in or cancelled; how many they
    sat in."""
    sat_in = holds_user("g.players", dialect_of(conn))
    played = list(await conn.execute_fetchall(
        f"SELECT game_id, players, state, end_reason FROM games g WHERE g.guild_id = ? AND {sat_in}",
        (guild_id, user_id)))
    for row in played:
        players = json.loads(row[1])
        seat = _seat(players, user_id)
        if seat is not None:
            state = json.loads(row[2]) if row[2] else {}
            stored = state.get("names") if isinstance(state, dict) else None
            if isinstance(stored, list) and seat < len(stored) and isinstance(stored[seat], str):
                names.add(stored[seat])  # the name the tables knew them by
    for row in played:
        players = json.loads(row[1])
        seat = _seat(players, user_id)
        players = [pseudonym if p == user_id and type(p) is int else p for p in players]
        await conn.execute(
            "UPDATE games SET players = ?, state = ?, end_reason = ?, updated_at = ? "
            "WHERE game_id = ?",
            (json.dumps(players), _anonymous_state(row[2], seat, user_id, pseudonym),
             _anonymous_reason(row[3], names), now, row[0]))
        if seat is not None:  # where a surface showed them their hand or called their turn
            await surfaces.forget_seat(conn, row[0], seat)
    # Games they cancelled without playing (staff, from /games): the reason and the log name them.
    for row in await conn.execute_fetchall(
            "SELECT game_id, state, end_reason FROM games WHERE guild_id = ? AND status = 'cancelled' "
            "AND end_reason LIKE 'cancelled by %'", (guild_id,)):
        reason = _anonymous_reason(row[2], names)
        if reason != row[2]:
            await conn.execute("UPDATE games SET state = ?, end_reason = ?, updated_at = ? "
                               "WHERE game_id = ?",
                               (_anonymous_state(row[1], None, user_id, pseudonym), reason, now,
                                row[0]))
    return len(played)


async def _forget_in_lobbies(conn: Any, guild_id: int, user_id: int, pseudonym: int, now: int) -> None:
    for row in await conn.execute_fetchall(
            "SELECT lobby_id, host_id, opponent_id, humans, seat_presses FROM lobbies l "
            f"WHERE l.guild_id = ? AND {_in_lobby(dialect_of(conn))}", (guild_id, user_id, user_id, user_id)):
        humans = [pseudonym if h == user_id and type(h) is int else h for h in json.loads(row[3])]
        # the presses that seated them keep their interaction ids, which name no one
        presses = [[pseudonym if u == user_id else u, p] for u, p in json.loads(row[4])]
        await conn.execute(
            "UPDATE lobbies SET host_id = ?, opponent_id = ?, humans = ?, seat_presses = ?, "
            "updated_at = ? WHERE lobby_id = ?",
            (pseudonym if row[1] == user_id else row[1],
             pseudonym if row[2] == user_id else row[2], json.dumps(humans), json.dumps(presses),
             now, row[0]))


async def _forget_in_ledger(conn: Any, guild_id: int, user_id: int, pseudonym: int) -> None:
    """The account changes owner; the transfers they made name the pseudonym, and so do the
    request keys made of their id (starting chips, daily claims), so a key never repeats."""
    account = await _account(conn, guild_id, user_id)
    if account is not None:
        await conn.execute("UPDATE accounts SET user_id = ? WHERE account_id = ?",
                           (pseudonym, account[0]))
        await conn.execute(
            "UPDATE transfers SET reason = ? WHERE from_account = ? AND kind = 'transfer' "
            "AND reason LIKE 'gift from %'", (f"gift from {FORMER_NAME}", account[0]))
    await conn.execute("UPDATE transfers SET actor = ? WHERE guild_id = ? AND actor = ?",
                       (pseudonym, guild_id, user_id))
    for kind in ("stake", "refund"):  # a tournament's entry fees: "tournament T:USER:JOINS"
        fee_key = re.compile(re.escape(scoped_key(guild_id, kind, "tournament ")) +
                             rf"(\d+):{user_id}:(\d+)")
        for transfer_id, key in await conn.execute_fetchall(
                "SELECT transfer_id, idem_key FROM transfers WHERE guild_id = ? AND idem_key LIKE ?",
                (guild_id, scoped_key(guild_id, kind, f"tournament %:{user_id}:%"))):
            if found := fee_key.fullmatch(key):
                new = scoped_key(guild_id, kind, f"tournament {found[1]}:{pseudonym}:{found[2]}")
                await conn.execute("UPDATE transfers SET idem_key = ? WHERE transfer_id = ?",
                                   (new, transfer_id))
    opened = scoped_key(guild_id, "open", str(user_id))
    daily = scoped_key(guild_id, "daily", f"{user_id}:")
    for transfer_id, key in await conn.execute_fetchall(
            "SELECT transfer_id, idem_key FROM transfers WHERE guild_id = ? AND "
            "(idem_key = ? OR idem_key LIKE ?)", (guild_id, opened, daily + "%")):
        new = (scoped_key(guild_id, "open", str(pseudonym)) if key == opened else
               scoped_key(guild_id, "daily", f"{pseudonym}:") + key[len(daily):])
        await conn.execute("UPDATE transfers SET idem_key = ? WHERE transfer_id = ?",
                           (new, transfer_id))


async def forget(conn: Any, guild_id: int, user_id: int, *, names: Iterable[str], now: int
                 ) -> Forgotten | None:
    """Forget the member on this server (inside the caller's write transaction): None if nothing
    here identifies them (already forgotten, or never played); :class:`MemberBusy` while they
    play a running game or sit in an open lobby. ``names``: the names Discord shows for them
    now, to find a cancel's reason that names them."""
    before = await member_data(conn, guild_id, user_id)
    if busy := before.busy():
        raise busy
    if not before.stored_here:
        return None
    pseudonym = await _new_pseudonym(conn, guild_id)
    restore = await guards.set_aside(conn, GUARDED, "UPDATE")
    games = await _forget_in_games(conn, guild_id, user_id, pseudonym,
                                   {n for n in names if n}, now)
    await _forget_in_lobbies(conn, guild_id, user_id, pseudonym, now)
    await _forget_in_ledger(conn, guild_id, user_id, pseudonym)
    await conn.execute(
        "UPDATE game_events SET actor = ? WHERE actor = ? AND game_id IN "
        "(SELECT game_id FROM games WHERE guild_id = ?)",
        (_actor_param(conn, pseudonym), _actor_param(conn, user_id), guild_id))
    await conn.execute("UPDATE results SET user_id = ? WHERE guild_id = ? AND user_id = ?",
                       (pseudonym, guild_id, user_id))
    await conn.execute("UPDATE seasons SET started_by = ? WHERE guild_id = ? AND started_by = ?",
                       (pseudonym, guild_id, user_id))
    await conn.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id))
    await conn.execute("DELETE FROM achievements WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id))
    await conn.execute("UPDATE daily_entries SET user_id = ? WHERE guild_id = ? AND user_id = ?",
                       (pseudonym, guild_id, user_id))  # the day's boards keep their places
    await conn.execute("DELETE FROM daily_reminders WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id))
    await conn.execute("DELETE FROM pending_reviews WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id))
    tournaments = "SELECT tournament_id FROM tournaments WHERE guild_id = ?"
    # Their tournaments' messages name them: each is drawn again (bot.store.revisions).
    await conn.execute(f"UPDATE tournaments SET revision = revision + 1, updated_at = ? "
                       f"WHERE tournament_id IN (SELECT tournament_id FROM tournament_entrants "
                       f"WHERE user_id = ? AND tournament_id IN ({tournaments}))",
                       (now, user_id, guild_id))
    await conn.execute(f"UPDATE tournament_entrants SET user_id = ?, name = ? WHERE user_id = ? "
                       f"AND tournament_id IN ({tournaments})",
                       (pseudonym, FORMER_NAME, user_id, guild_id))
    await conn.execute("UPDATE tournaments SET created_by = ? WHERE guild_id = ? AND created_by = ?",
                       (pseudonym, guild_id, user_id))
    for press_id, press in await conn.execute_fetchall(  # stale presses of theirs, if any
            "SELECT press_id, press FROM relayed_presses WHERE game_id IN "
            "(SELECT game_id FROM games WHERE guild_id = ?)", (guild_id,)):
        if json.loads(press).get("user") == user_id:
            await conn.execute("DELETE FROM relayed_presses WHERE press_id = ?", (press_id,))
    await restore()
    return Forgotten(pseudonym=pseudonym, games=games, results=before.results,
                     ratings=len(before.ratings), balance=before.balance,
                     ledger_entries=before.ledger_entries)


async def guest_places_of(conn: Any, user_id: int) -> list[int]:
    """The guest places (:mod:`bot.store.guests`) where anything identifies the member: a game
    they sat in, a result, a lobby, an entry of a deal of the day. No server's id is among them."""
    dialect = dialect_of(conn)
    rows = await conn.execute_fetchall(
        "SELECT s.scope_id FROM guest_scopes s WHERE "
        "EXISTS (SELECT 1 FROM results r WHERE r.guild_id = s.scope_id AND r.user_id = ?) OR "
        f"EXISTS (SELECT 1 FROM games g WHERE g.guild_id = s.scope_id AND {holds_user('g.players', dialect)}) OR "
        f"EXISTS (SELECT 1 FROM lobbies l WHERE l.guild_id = s.scope_id AND {_in_lobby(dialect)}) OR "
        "EXISTS (SELECT 1 FROM daily_entries d WHERE d.guild_id = s.scope_id AND d.user_id = ?) "
        "ORDER BY s.scope_id", (user_id, user_id, user_id, user_id, user_id, user_id))
    return [row[0] for row in rows]


async def guest_member_data(conn: Any, user_id: int) -> MemberData:
    """What the bot keeps about the member in every guest place, added up (``guild_id``
    :data:`~bot.store.records.GUEST_PLACES`; one read snapshot). No guest place has chips,
    seasons or tournaments."""
    places = [await member_data(conn, scope, user_id) for scope in await guest_places_of(conn, user_id)]
    games: dict[str, int] = {}
    for data in places:
        for status, count in data.games.items():
            games[status] = games.get(status, 0) + count
    latest = [data.latest_game for data in places if data.latest_game is not None]
    return MemberData(
        guild_id=GUEST_PLACES, user_id=user_id, games=games,
        latest_game=max(latest, key=lambda g: (g.at, g.game_id)) if latest else None,
        results=sum(d.results for d in places), wins=sum(d.wins for d in places),
        draws=sum(d.draws for d in places), losses=sum(d.losses for d in places),
        ratings=sorted(r for d in places for r in d.ratings),
        achievements=sum(d.achievements for d in places), lobbies=sum(d.lobbies for d in places), language=await load_user_language(conn, user_id),
        running_games=sorted(g for d in places for g in d.running_games),
        open_lobbies=sum(d.open_lobbies for d in places),
        deals_of_the_day=sum(d.deals_of_the_day for d in places))


async def export_guest(conn: Any, user_id: int, now: int) -> dict[str, Any]:
    """Every row of every guest place that holds the member's id, one export per place."""
    return {
        "about": ("What the Hanafuda bot keeps about one member in the places where it plays as "
                  "a guest (DMs, group DMs, servers without the bot): one export per place, "
                  "each under the id of its channel."),
        "user_id": str(user_id), "exported_at": _when(now),
        "places": [await export(conn, scope, user_id, now)
                   for scope in await guest_places_of(conn, user_id)],
    }


async def forget_in_guest_places(conn: Any, user_id: int, *, names: Iterable[str], now: int
                                 ) -> list[Forgotten]:
    """Forget the member in every guest place at once (inside the caller's write transaction):
    their own record there is theirs alone, so their request reaches all of it. Each place gets
    its own pseudonym, as each server does; :class:`MemberBusy` (nothing changed once the caller
    rolls back) while they play or wait in any of them."""
    names = list(names)
    done = []
    for scope in await guest_places_of(conn, user_id):
        forgotten = await forget(conn, scope, user_id, names=names, now=now)
        if forgotten is not None:
            done.append(forgotten)
    return done
