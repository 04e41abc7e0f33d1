"""Seasons per server: staff start one by name, and from then on every finished game belongs to
it (season 0 holds the games finished before a server's first season). Leaderboards and records
read one season (the current one unless asked) or all of them; ratings start afresh in each.
Seasons are never changed or deleted.

A server may also have them start by themselves: a schedule (weekly or monthly, UTC) starts the
next season at the first pass after a period begins, unless a season already began in it, and
owes its channel the announcement until it is posted. A season staff start whose answer Discord
refused is owed the same way, to the channel the command was used in (:func:`owe`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import aiosqlite

from .errors import InvalidInput
from .models import CURRENT_SEASON, Season, SeasonChoice, SeasonSchedule, ms_to_datetime

__all__ = ["CADENCES", "NAME_LIMIT", "announced", "current", "due", "next_start", "owe", "owed",
           "period_start", "resolve", "schedule", "seasons", "set_schedule", "start",
           "start_scheduled"]

NAME_LIMIT = 64
CADENCES = ("weekly", "monthly")


def _season(row: Any) -> Season:
    return Season(guild_id=row["guild_id"], season=row["season"], name=row["name"],
                  started_at=ms_to_datetime(row["started_at"]), started_by=row["started_by"])


async def current(conn: aiosqlite.Connection, guild_id: int) -> int:
    """The number of the server's current season (0 before its first)."""
    (number,), = await conn.execute_fetchall(
        "SELECT COALESCE(MAX(season), 0) FROM seasons WHERE guild_id = ?", (guild_id,))
    return int(number)


async def resolve(conn: aiosqlite.Connection, guild_id: int, choice: SeasonChoice) -> int | None:
    """A season choice as a season number (None: every season). A season the server has not
    reached is refused."""
    if choice is None:
        return None
    if type(choice) is not int or choice < CURRENT_SEASON:
        raise InvalidInput(code="not_a_season", season=choice)
    now = await current(conn, guild_id)
    if choice == CURRENT_SEASON:
        return now
    if choice > now:
        raise InvalidInput(code="no_such_season", season=choice)
    return choice


async def seasons(conn: aiosqlite.Connection, guild_id: int) -> list[Season]:
    """The server's seasons, the newest first."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id, season, name, started_at, started_by FROM seasons WHERE guild_id = ? "
        "ORDER BY season DESC", (guild_id,))
    return [_season(r) for r in rows]


async def start(conn: aiosqlite.Connection, guild_id: int, name: str, actor: int, key: str,
                now: int) -> Season:
    """Start the server's next season. The same ``key`` again returns the season it started
    (a retried command starts one season)."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id, season, name, started_at, started_by FROM seasons WHERE idem_key = ?",
        (key,))
    if rows:
        done = _season(rows[0])
        if done.guild_id != guild_id or done.name != name:
            raise InvalidInput(code="season_key_reused")
        return done
    number = await current(conn, guild_id) + 1
    await conn.execute(
        "INSERT INTO seasons (guild_id, season, name, started_at, started_by, idem_key) "
        "VALUES (?, ?, ?, ?, ?, ?)", (guild_id, number, name, now, actor, key))
    return Season(guild_id=guild_id, season=number, name=name, started_at=ms_to_datetime(now),
                  started_by=actor)


# -- schedules -------------------------------------------------------------------------------------
def period_start(cadence: str, now_ms: int) -> int:
    """The start (ms, UTC) of the period of ``cadence`` that holds ``now_ms``: Monday 00:00 for
    a week (ISO weeks), the 1st at 00:00 for a month."""
    day = datetime.fromtimestamp(now_ms / 1000, tz=UTC).replace(hour=0, minute=0, second=0,
                                                                   microsecond=0)
    if cadence == "weekly":
        day -= timedelta(days=day.weekday())
    elif cadence == "monthly":
        day = day.replace(day=1)
    else:
        raise InvalidInput(code="not_a_cadence", cadence=cadence)
    return int(day.timestamp() * 1000)


def next_start(cadence: str, now_ms: int) -> int:
    """The start (ms, UTC) of the period of ``cadence`` after the one that holds ``now_ms``."""
    start = datetime.fromtimestamp(period_start(cadence, now_ms) / 1000, tz=UTC)
    if cadence == "weekly":
        start += timedelta(days=7)
    else:
        start = (start + timedelta(days=32)).replace(day=1)
    return int(start.timestamp() * 1000)


def _schedule(row: Any) -> SeasonSchedule:
    return SeasonSchedule(guild_id=row["guild_id"], cadence=row["cadence"],
                          channel_id=row["channel_id"], set_at=ms_to_datetime(row["set_at"]),
                          owed=row["owed"], undelivered=row["undelivered"], owed_in=row["owed_in"])


_SCHEDULE = ("SELECT guild_id, cadence, channel_id, set_at, owed, undelivered, owed_in "
             "FROM season_schedules")


async def schedule(conn: aiosqlite.Connection, guild_id: int) -> SeasonSchedule | None:
    """The server's schedule (None: it never had one; ``cadence`` None: turned off)."""
    rows = await conn.execute_fetchall(f"{_SCHEDULE} WHERE guild_id = ?", (guild_id,))
    return _schedule(rows[0]) if rows else None


async def set_schedule(conn: aiosqlite.Connection, guild_id: int, cadence: str | None,
                       channel_id: int, now: int) -> SeasonSchedule:
    """Start seasons every ``cadence`` from the next period on, announced in ``channel_id``
    (None: no more). An announcement still owed is kept and goes to the new channel."""
    if cadence is not None and cadence not in CADENCES:
        raise InvalidInput(code="not_a_cadence", cadence=cadence)
    await conn.execute(
        "INSERT INTO season_schedules (guild_id, cadence, channel_id, set_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET cadence = excluded.cadence, "
        "channel_id = excluded.channel_id, set_at = excluded.set_at, undelivered = NULL",
        (guild_id, cadence, channel_id, now))
    return await schedule(conn, guild_id)  # type: ignore[return-value]


async def due(conn: aiosqlite.Connection, now: int,
              guild_id: int | None = None) -> list[SeasonSchedule]:
    """The schedules (of every server, or of ``guild_id``) whose period began after they were
    set, with no season started since."""
    rows = await conn.execute_fetchall(
        "SELECT s.guild_id, s.cadence, s.channel_id, s.set_at, s.owed, s.undelivered, s.owed_in, "
        "(SELECT MAX(started_at) FROM seasons WHERE seasons.guild_id = s.guild_id) AS latest "
        "FROM season_schedules s WHERE s.cadence IS NOT NULL"
        + ("" if guild_id is None else " AND s.guild_id = ?"),
        () if guild_id is None else (guild_id,))
    out = []
    for row in rows:
        begun = period_start(row["cadence"], now)
        if row["set_at"] < begun and (row["latest"] is None or row["latest"] < begun):
            out.append(_schedule(row))
    return out


async def start_scheduled(conn: aiosqlite.Connection, guild_id: int, name: str,
                          now: int) -> Season | None:
    """Start the season a schedule owes ``guild_id`` now, and owe its channel the announcement;
    None when none is due (another process started it, or the schedule changed)."""
    plans = await due(conn, now, guild_id)
    if not plans:
        return None
    begun = period_start(plans[0].cadence, now)  # type: ignore[arg-type]
    season = await start(conn, guild_id, name, 0, f"schedule:{guild_id}:{begun}", now)
    await conn.execute("UPDATE season_schedules SET owed = ?, owed_in = NULL WHERE guild_id = ?",
                       (season.season, guild_id))
    return season


async def owed(conn: aiosqlite.Connection) -> list[SeasonSchedule]:
    """The schedules with an announcement still to post."""
    rows = await conn.execute_fetchall(f"{_SCHEDULE} WHERE owed IS NOT NULL", ())
    return [_schedule(r) for r in rows]


async def announced(conn: aiosqlite.Connection, guild_id: int, season: int,
                    delivered: bool) -> None:
    """The announcement of ``season`` went out (``delivered``), or Discord refused it for good;
    either way it is owed no more (a later season's, owed meanwhile, stays). Only a refusal in
    the schedule's own channel is kept for staff to see: one owed to where a command was used
    tells nothing about where the schedule announces."""
    await conn.execute(
        "UPDATE season_schedules SET owed = NULL, owed_in = NULL, undelivered = CASE "
        "WHEN owed_in IS NULL THEN ? ELSE undelivered END WHERE guild_id = ? AND owed = ?",
        (None if delivered else season, guild_id, season))


async def owe(conn: aiosqlite.Connection, guild_id: int, season: int, channel_id: int,
              now: int) -> bool:
    """Owe ``channel_id`` the announcement of ``season``, started by hand, whose answer Discord
    refused; False when it is not the server's latest season any more (the next one's
    announcement tells of it). It replaces an older season's owed announcement, which would be
    out of date."""
    if season != await current(conn, guild_id):
        return False
    await conn.execute(
        "INSERT INTO season_schedules (guild_id, cadence, channel_id, set_at, owed, owed_in) "
        "VALUES (?, NULL, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET owed = excluded.owed, "
        "owed_in = excluded.owed_in", (guild_id, channel_id, now, season, channel_id))
    return True
