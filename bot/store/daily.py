"""The deal of the day: one deal per server, game and UTC day that every member plays against
the AI, and the day's board of how far each came out ahead. A place where the app is a guest
(:mod:`bot.store.guests`) has deals of its own under its scope, as it has games.

The day's deal is a secret server seed (:mod:`bot.fairness`) drawn at the day's first look, with
the rules the day is played by fixed beside it, so that every member meets the same cards under
the same rules whatever staff change meanwhile. Its SHA-256 is shown all day; the seed itself,
and every record that would give the cards away (a game's own deal, its replay), stay sealed
until the day has ended, for a member who finished could otherwise hand the cards to one who has
not played yet.

A member's entry is claimed before its game starts, under the start key that game is created
with (``games.start_key``): a start retried after a crash finds both, and a member has one game
of each game's deal a day. The game's finish scores the entry in the transaction that stores the
result: the member's points less the best of the AI's, if it finished within its day (a game
left running past midnight still finishes, but no longer counts).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

import aiosqlite

from bot.fairness import FairDeal, commitment_of, new_server_seed

from .errors import InvalidInput
from .ledger import scoped_key
from .models import DailyPlace

__all__ = ["DAY_MS", "DailyDeal", "DailyEntry", "DailyPlace", "Board", "day_of", "day_end",
           "deal_of", "claim", "entry_of", "board", "settle", "place_of_game", "share", "unshare",
           "sealed_until", "start_key", "DailyPost", "set_post", "post_of", "due_posts", "posted",
           "podiums", "streak_of_game", "DailyRecord", "record", "guest_record", "run_until",
           "ENTRIES_OF_DAY", "entries_of_day"]

DAY_MS = 86_400_000
STREAK_LIMIT = 1000
"""Days a streak is counted back (a read of at most that many rows)."""


def day_of(now_ms: int) -> str:
    """The UTC day of ``now_ms`` as YYYY-MM-DD."""
    return datetime.fromtimestamp(now_ms / 1000, UTC).date().isoformat()


def day_end(day: str) -> int:
    """The ms the UTC day ``day`` ends (the next day's midnight)."""
    start = datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)
    return int((start + timedelta(days=1)).timestamp() * 1000)


def start_key(guild_id: int, game: str, day: str) -> str:
    """A new start key for a member's game of the day, scoped as the games' are (the entry keeps
    it so, to meet its game's row): random, so that no key holds a member's id."""
    return scoped_key(guild_id, "start", f"daily:{game}:{day}:{secrets.token_hex(8)}")


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A server's deal of ``game`` on ``day``: its commitment, the rules every game of it plays,
    and its server seed where it may be known (by the bot that deals; by everyone after the day)."""

    guild_id: int
    game: str
    day: str
    commitment: str
    rules: dict[str, Any]
    server_seed: str | None

    @property
    def ends_at(self) -> int:
        return day_end(self.day)

    def fair_deal(self) -> FairDeal:
        """The deal every member's game of the day is dealt from: the day's seed, no input,
        revealed when the day ends."""
        if self.server_seed is None:
            raise ValueError("the day's seed is sealed")
        return replace(FairDeal.of(self.server_seed, ()), reveal_at=self.ends_at)


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """A member's game of a day's deal: ``game_id`` once started; ``margin`` once it finished
    within its day (their points less the AI's best)."""

    user_id: int
    game_id: int | None
    margin: int | None
    finished_at: int | None
    key: str = ""  # the start key its game is created under, as a start takes it (unscoped)


@dataclass(frozen=True, slots=True)
class Board:
    """A day's board: the finished entries best first (ties: who finished first), how many
    members started one, and the day's deal (its seed only once the day has ended)."""

    deal: DailyDeal
    rows: list[DailyEntry]
    started: int
    finished: int


def _deal(row: Any, now: int) -> DailyDeal:
    day = row["day"]
    return DailyDeal(guild_id=row["guild_id"], game=row["game"], day=day,
                     commitment=row["commitment"], rules=json.loads(row["rules"]),
                     server_seed=row["server_seed"] if now >= day_end(day) else None)


async def _deal_row(conn: aiosqlite.Connection, guild_id: int, game: str, day: str) -> Any:
    rows = list(await conn.execute_fetchall(
        "SELECT guild_id, game, day, server_seed, commitment, rules FROM daily_deals "
        "WHERE guild_id = ? AND game = ? AND day = ?", (guild_id, game, day)))
    return rows[0] if rows else None


async def deal_of(conn: aiosqlite.Connection, guild_id: int, game: str, day: str, now: int, *,
                  rules: dict[str, Any] | None = None, dealing: bool = False) -> DailyDeal | None:
    """The server's deal of ``game`` on ``day``. ``rules``: the day's rules, to draw the deal
    if the day has none yet (today only; a past day without one stays without). ``dealing``:
    with its seed, for the bot that deals it today."""
    row = await _deal_row(conn, guild_id, game, day)
    if row is None and rules is not None and day == day_of(now):
        seed = new_server_seed()
        await conn.execute(
            "INSERT INTO daily_deals (guild_id, game, day, server_seed, commitment, rules, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, day) DO NOTHING",
            (guild_id, game, day, seed, commitment_of(seed), json.dumps(rules, sort_keys=True), now))
        row = await _deal_row(conn, guild_id, game, day)
    if row is None:
        return None
    deal = _deal(row, now)
    if dealing:
        deal = DailyDeal(deal.guild_id, deal.game, deal.day, deal.commitment, deal.rules,
                         row["server_seed"])
    return deal


async def entry_of(conn: aiosqlite.Connection, guild_id: int, game: str, day: str,
                   user_id: int) -> DailyEntry | None:
    rows = list(await conn.execute_fetchall(
        "SELECT e.user_id, g.game_id, e.margin, e.finished_at, e.start_key FROM daily_entries e "
        "LEFT JOIN games g ON g.start_key = e.start_key "
        "WHERE e.guild_id = ? AND e.game = ? AND e.day = ? AND e.user_id = ?",
        (guild_id, game, day, user_id)))
    return _entry(rows[0]) if rows else None


ENTRIES_OF_DAY = (
    "SELECT e.game, e.margin, g.status FROM daily_entries e "
    "LEFT JOIN games g ON g.start_key = e.start_key "
    "WHERE e.guild_id = ? AND e.day = ? AND e.user_id = ?")
"""A member's entries of a day's deals at a place (its id, the day, the member's): one read,
which :func:`entries_of_day` reads the rows of."""


def entries_of_day(rows: Any) -> dict[str, tuple[int | None, str | None]]:
    """The member's entries of the day by game (rows of :data:`ENTRIES_OF_DAY`): the margin once
    scored, and the status of the game started for it (None: none was)."""
    return {game: (margin, status) for game, margin, status in rows}


def _entry(row: Any) -> DailyEntry:
    key = row[4].split(":start:", 1)[1] if len(row) > 4 else ""
    return DailyEntry(user_id=row[0], game_id=row[1], margin=row[2], finished_at=row[3], key=key)


async def claim(conn: aiosqlite.Connection, guild_id: int, game: str, day: str, user_id: int,
                now: int) -> DailyEntry:
    """The member's entry of the day's deal, claimed now if they had none (the deal must be
    drawn). Claiming again returns the same entry: its game, if it started."""
    if await _deal_row(conn, guild_id, game, day) is None:
        raise InvalidInput("The day's deal is drawn before a member claims it.")  # the caller's slip
    await conn.execute(
        "INSERT INTO daily_entries (guild_id, game, day, user_id, start_key, claimed_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, day, user_id) DO NOTHING",
        (guild_id, game, day, user_id, start_key(guild_id, game, day), now))
    entry = await entry_of(conn, guild_id, game, day, user_id)
    assert entry is not None
    return entry


_OF_GAME = "FROM daily_entries e JOIN games g ON g.start_key = e.start_key WHERE g.game_id = ?"
"""The entry whose game is ``game_id`` (both keyed by the game's start key)."""
_KEY_OF_GAME = "(SELECT start_key FROM games WHERE game_id = ?)"


async def settle(conn: aiosqlite.Connection, game_id: int, players: list[Any],
                 points: dict[int, int], now: int) -> bool:
    """Score the entry ``game_id`` is the game of, if any, as it finishes (in its transaction):
    the member's points less the AI's best, if the game finished within its day. Whether the
    game is one of a day's deal (the finish reads its place then, and nothing for another)."""
    rows = list(await conn.execute_fetchall(f"SELECT e.day, e.user_id, e.finished_at {_OF_GAME}",
                                            (game_id,)))
    if not rows:
        return False
    day, user, finished_at = rows[0]
    mine = [p for seat, p in points.items() if players[seat] == user]
    others = [p for seat, p in points.items() if players[seat] != user]
    if finished_at is None and now < day_end(day) and mine and others:
        await conn.execute(f"UPDATE daily_entries SET margin = ?, finished_at = ? WHERE start_key = "
                           f"{_KEY_OF_GAME}", (mine[0] - max(others), now, game_id))
    return True


async def place_of_game(conn: aiosqlite.Connection, game_id: int) -> DailyPlace | None:
    """Where the finished game ``game_id`` stands on its day's board (None: not a game of the
    day). Read as it finishes, and again after a restart shows its end."""
    rows = list(await conn.execute_fetchall(
        f"SELECT e.guild_id, e.game, e.day, e.margin, e.user_id {_OF_GAME}", (game_id,)))
    if not rows:
        return None
    guild_id, game, day, margin, user_id = rows[0]
    (finished, better), = await conn.execute_fetchall(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN margin > ? THEN 1 ELSE 0 END), 0) "
        "FROM daily_entries WHERE guild_id = ? AND game = ? AND day = ? AND margin IS NOT NULL",
        (margin if margin is not None else 0, guild_id, game, day))
    return DailyPlace(game=game, day=day, margin=margin,
                      place=None if margin is None else int(better) + 1, finished=int(finished),
                      streak=0 if margin is None else await run_until(conn, guild_id, user_id, day))


async def streak_of_game(conn: aiosqlite.Connection, game_id: int) -> int:
    """The member's streak that the finished game ``game_id`` scored (0: it is no game of the
    day's deal, or finished past its day)."""
    rows = list(await conn.execute_fetchall(
        f"SELECT e.guild_id, e.user_id, e.day {_OF_GAME} AND e.margin IS NOT NULL", (game_id,)))
    return await run_until(conn, *rows[0]) if rows else 0


async def run_until(conn: aiosqlite.Connection, guild_id: int, user_id: int, day: str) -> int:
    """The days in a row, ``day`` the last, on which the member finished a deal of the day of
    the server in its day (any game)."""
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT day FROM daily_entries WHERE guild_id = ? AND user_id = ? AND day <= ? "
        "AND margin IS NOT NULL ORDER BY day DESC LIMIT ?", (guild_id, user_id, day, STREAK_LIMIT))
    streak, expected = 0, date.fromisoformat(day)
    for (played,) in rows:
        if date.fromisoformat(played) != expected:
            break
        streak, expected = streak + 1, expected - timedelta(days=1)
    return streak


@dataclass(frozen=True, slots=True)
class DailyRecord:
    """A member's deals of the day on one server (or in every guest place), every game and day
    together: the days they finished one in its day, the deals so finished, how often they
    topped a day's board, their best place (the best of ties: the fullest board, then the
    latest), and their runs of days (``run`` the one still alive: up to today, or up to
    yesterday while today is still open)."""

    days: int = 0
    deals: int = 0
    firsts: int = 0
    best: DailyPlace | None = None
    run: int = 0
    best_run: int = 0


# A member's finished entries (the ones ``{where}`` picks), each with how many finished ahead of
# it on its day's board and how many finished that board.
_PLACES = (
    "SELECT e.game, e.day, e.margin, (SELECT COUNT(*) FROM daily_entries o WHERE "
    "o.guild_id = e.guild_id AND o.game = e.game AND o.day = e.day AND o.margin > e.margin), "
    "(SELECT COUNT(*) FROM daily_entries o WHERE o.guild_id = e.guild_id AND "
    "o.game = e.game AND o.day = e.day AND o.margin IS NOT NULL) FROM daily_entries e "
    "WHERE {where} AND e.margin IS NOT NULL ORDER BY e.day, e.game, e.guild_id")


async def record(conn: aiosqlite.Connection, guild_id: int, user_id: int, today: str
                 ) -> DailyRecord:
    """The member's :class:`DailyRecord` on the server, as of ``today`` (today's places so far)."""
    rows = await conn.execute_fetchall(
        _PLACES.format(where="e.guild_id = ? AND e.user_id = ?"), (guild_id, user_id))
    return _record_of(rows, today)


async def guest_record(conn: aiosqlite.Connection, user_id: int, today: str) -> DailyRecord:
    """The member's :class:`DailyRecord` in every place where the app is a guest (a DM, a group
    DM, a server without the bot: :mod:`bot.store.guests`), together and of no server, as of
    ``today``. Each place keeps its own boards; a day played in two of them is one day, two
    deals."""
    rows = await conn.execute_fetchall(
        _PLACES.format(where="e.user_id = ? AND e.guild_id IN (SELECT scope_id FROM guest_scopes)"),
        (user_id,))
    return _record_of(rows, today)


def _record_of(rows: Any, today: str) -> DailyRecord:
    """The record of a member's finished entries (rows of :data:`_PLACES`), as of ``today``."""
    places = [DailyPlace(game=game, day=day, margin=margin, place=int(better) + 1,
                         finished=int(finished)) for game, day, margin, better, finished in rows]
    if not places:
        return DailyRecord()
    days = sorted({date.fromisoformat(p.day) for p in places})
    run = best_run = 0
    for i, day in enumerate(days):
        run = run + 1 if i and days[i - 1] == day - timedelta(days=1) else 1
        best_run = max(best_run, run)
    if days[-1] < date.fromisoformat(today) - timedelta(days=1):
        run = 0  # a day was missed since: the run is over
    best = min(places, key=lambda p: (p.place, -p.finished, _days_ago(p.day, today)))
    return DailyRecord(days=len(days), deals=len(places), best=best, run=run, best_run=best_run,
                       firsts=sum(1 for p in places if p.place == 1))


def _days_ago(day: str, today: str) -> int:
    return (date.fromisoformat(today) - date.fromisoformat(day)).days


async def share(conn: aiosqlite.Connection, guild_id: int, game_id: int, user_id: int, now: int
                ) -> tuple[DailyPlace | None, bool]:
    """Note that the member shares the result of their game of the day ``game_id`` with the
    channel: its place, and whether this is its first share (a second is refused, so a result is
    posted once). (None, False): no scored entry of theirs has that game."""
    place = await place_of_game(conn, game_id)
    if place is None or place.margin is None:
        return None, False
    cursor = await conn.execute(
        "UPDATE daily_entries SET shared_at = ? WHERE guild_id = ? AND user_id = ? AND "
        f"shared_at IS NULL AND start_key = {_KEY_OF_GAME}", (now, guild_id, user_id, game_id))
    if cursor.rowcount == 1:
        return place, True
    mine = list(await conn.execute_fetchall(
        f"SELECT 1 {_OF_GAME} AND e.guild_id = ? AND e.user_id = ?", (game_id, guild_id, user_id)))
    return (place, False) if mine else (None, False)


async def unshare(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """The share of ``game_id`` did not reach the channel: the member may share it again."""
    await conn.execute(f"UPDATE daily_entries SET shared_at = NULL WHERE user_id = ? AND "
                       f"start_key = {_KEY_OF_GAME}", (user_id, game_id))


async def board(conn: aiosqlite.Connection, guild_id: int, game: str, day: str, now: int
                ) -> Board | None:
    """The day's board of ``game`` (None: nobody looked at that day's deal)."""
    row = await _deal_row(conn, guild_id, game, day)
    if row is None:
        return None
    rows = await conn.execute_fetchall(
        "SELECT e.user_id, g.game_id, e.margin, e.finished_at FROM daily_entries e "
        "LEFT JOIN games g ON g.start_key = e.start_key "
        "WHERE e.guild_id = ? AND e.game = ? AND e.day = ? AND e.margin IS NOT NULL "
        "ORDER BY e.margin DESC, e.finished_at, e.user_id", (guild_id, game, day))
    (started,), = await conn.execute_fetchall(
        "SELECT COUNT(*) FROM daily_entries e JOIN games g ON g.start_key = e.start_key "
        "WHERE e.guild_id = ? AND e.game = ? AND e.day = ?", (guild_id, game, day))
    entries = [_entry(r) for r in rows]
    return Board(deal=_deal(row, now), rows=entries, started=int(started), finished=len(entries))


@dataclass(frozen=True, slots=True)
class DailyPost:
    """Where a server's new deals are announced every day (:func:`set_post`): ``posted_day`` the
    last day whose post is done; ``refused_day`` the last one Discord refused for good."""

    guild_id: int
    channel_id: int
    posted_day: str
    refused_day: str | None = None


_POST = "SELECT guild_id, channel_id, posted_day, refused_day FROM daily_posts"


def _post(row: Any) -> DailyPost:
    return DailyPost(guild_id=row[0], channel_id=row[1], posted_day=row[2], refused_day=row[3])


async def set_post(conn: aiosqlite.Connection, guild_id: int, channel_id: int | None,
                   now: int) -> DailyPost | None:
    """Announce the server's new deals in ``channel_id`` every day from tomorrow on (None: no
    more)."""
    if channel_id is None:
        await conn.execute("DELETE FROM daily_posts WHERE guild_id = ?", (guild_id,))
        return None
    await conn.execute(
        "INSERT INTO daily_posts (guild_id, channel_id, set_at, posted_day) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
        "set_at = excluded.set_at, posted_day = excluded.posted_day, refused_day = NULL",
        (guild_id, channel_id, now, day_of(now)))
    return await post_of(conn, guild_id)


async def post_of(conn: aiosqlite.Connection, guild_id: int) -> DailyPost | None:
    rows = list(await conn.execute_fetchall(f"{_POST} WHERE guild_id = ?", (guild_id,)))
    return _post(rows[0]) if rows else None


async def due_posts(conn: aiosqlite.Connection, now: int) -> list[DailyPost]:
    """The servers whose post of today is still to be made, of every server."""
    rows = await conn.execute_fetchall(f"{_POST} WHERE posted_day < ? ORDER BY guild_id",
                                       (day_of(now),))
    return [_post(r) for r in rows]


async def posted(conn: aiosqlite.Connection, guild_id: int, day: str, delivered: bool) -> None:
    """``day``'s post of the server is done: delivered, or refused for good (noted, shown to
    staff, not tried again that day)."""
    if delivered:
        await conn.execute("UPDATE daily_posts SET posted_day = ? WHERE guild_id = ? AND "
                           "posted_day < ?", (day, guild_id, day))
    else:
        await conn.execute("UPDATE daily_posts SET posted_day = ?, refused_day = ? WHERE "
                           "guild_id = ? AND posted_day < ?", (day, day, guild_id, day))


async def podiums(conn: aiosqlite.Connection, guild_id: int, day: str, now: int,
                  top: int = 3) -> list[Board]:
    """Each game's board of ``day`` on the server that someone finished, its ``top`` rows."""
    games = [r[0] for r in await conn.execute_fetchall(
        "SELECT game FROM daily_deals WHERE guild_id = ? AND day = ? ORDER BY game",
        (guild_id, day))]
    out = []
    for game in games:
        found = await board(conn, guild_id, game, day, now)
        if found is not None and found.rows:
            out.append(Board(found.deal, found.rows[:top], found.started, found.finished))
    return out


async def sealed_until(conn: aiosqlite.Connection, game_id: int, now: int) -> int | None:
    """When the day of the day's game ``game_id`` ends, while it has not (None: not a game of
    the day, or its day is over): until then nothing may give its cards away."""
    rows = list(await conn.execute_fetchall(f"SELECT e.day {_OF_GAME}", (game_id,)))
    if not rows:
        return None
    end = day_end(rows[0][0])
    return end if now < end else None
