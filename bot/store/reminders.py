"""Reminders of the deal of the day: a member who asks on a server is sent a DM each day at the
hour they chose (UTC; :data:`DEFAULT_HOUR` unless they chose), while they have not played that
server's deal of the day yet (any game).

Each day's reminder is noted once Discord took it, or refused it for good (the member shares no
server with the bot any more, or closed their DMs), which stops them until the member asks again:
so a day's reminder goes out once across restarts, and a member who cannot be reached is not
asked after every day. A reminder is asked for from the next day on (the member who asks is
here today). Its DM's Stop button names it by a random key, never by the member's or the
server's id; only the member it is for can press it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import aiosqlite

from .daily import DAY_MS, day_of, run_until

__all__ = ["DEFAULT_HOUR", "HOUR_MS", "Reminder", "set_reminder", "reminder_of", "due", "reminded",
           "stop"]

DEFAULT_HOUR = 20
"""The UTC hour a reminder comes at unless its member chose another: four hours before the end."""
HOUR_MS = 3_600_000


@dataclass(frozen=True, slots=True)
class Reminder:
    """A member's reminder on a server: ``key`` names it on its DM's Stop button; ``hour`` the UTC
    hour it comes at; ``reminded_day`` the last day done; ``refused_day`` the day Discord refused one for good
    (none is sent after it); ``run``, when due, the member's days in a row up to yesterday."""

    guild_id: int
    user_id: int
    key: str
    hour: int
    reminded_day: str
    refused_day: str | None = None
    run: int = 0


_COLUMNS = "guild_id, user_id, stop_key, hour, reminded_day, refused_day"


def _reminder(row: Any, run: int = 0) -> Reminder:
    return Reminder(guild_id=row[0], user_id=row[1], key=row[2], hour=row[3], reminded_day=row[4],
                    refused_day=row[5], run=run)


async def set_reminder(conn: aiosqlite.Connection, guild_id: int, user_id: int, on: bool,
                       now: int, hour: int = DEFAULT_HOUR) -> Reminder | None:
    """Remind the member from tomorrow on at ``hour`` UTC (``on``), or no more. Asking again keeps
    its key, takes the new hour and clears a refusal: the member says they can be reached."""
    if not on:
        await conn.execute("DELETE FROM daily_reminders WHERE guild_id = ? AND user_id = ?",
                           (guild_id, user_id))
        return None
    await conn.execute(
        "INSERT INTO daily_reminders (guild_id, user_id, stop_key, hour, set_at, reminded_day) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        "hour = excluded.hour, set_at = excluded.set_at, reminded_day = excluded.reminded_day, "
        "refused_day = NULL", (guild_id, user_id, secrets.token_hex(8), hour, now, day_of(now)))
    return await reminder_of(conn, guild_id, user_id)


async def reminder_of(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> Reminder | None:
    rows = list(await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM daily_reminders WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id)))
    return _reminder(rows[0]) if rows else None


async def due(conn: aiosqlite.Connection, now: int) -> list[Reminder]:
    """The reminders of every server to send now: those whose hour has come today, not done
    today, whose member has not started any of the server's deals of today; each with the
    member's run."""
    today = day_of(now)
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM daily_reminders r WHERE r.reminded_day < ? AND r.hour <= ? AND "
        "r.refused_day IS NULL AND NOT EXISTS (SELECT 1 FROM daily_entries e WHERE "
        "e.guild_id = r.guild_id AND e.user_id = r.user_id AND e.day = ?) "
        "ORDER BY r.guild_id, r.user_id", (today, now % DAY_MS // HOUR_MS, today))
    yesterday = (date.fromisoformat(today) - timedelta(days=1)).isoformat()
    return [_reminder(row, await run_until(conn, row[0], row[1], yesterday)) for row in rows]


async def reminded(conn: aiosqlite.Connection, guild_id: int, user_id: int, day: str,
                   delivered: bool) -> None:
    """``day``'s reminder is done: sent, or refused for good (no more until asked again)."""
    if delivered:
        await conn.execute("UPDATE daily_reminders SET reminded_day = ? WHERE guild_id = ? AND "
                           "user_id = ? AND reminded_day < ?", (day, guild_id, user_id, day))
    else:
        await conn.execute("UPDATE daily_reminders SET reminded_day = ?, refused_day = ? WHERE "
                           "guild_id = ? AND user_id = ? AND reminded_day < ?",
                           (day, day, guild_id, user_id, day))


async def stop(conn: aiosqlite.Connection, key: str, user_id: int) -> bool:
    """The member pressed Stop on a reminder: it is gone, if it was theirs."""
    cursor = await conn.execute("DELETE FROM daily_reminders WHERE stop_key = ? AND user_id = ?",
                                (key, user_id))
    return cursor.rowcount == 1
