"""Seasons per server: staff start one by name, and from then on every finished game belongs to
it (season 0 holds the games finished before a server's first season). Leaderboards and records
read one season (the current one unless asked) or all of them; ratings start afresh in each.
Seasons are never changed or deleted."""

from __future__ import annotations

from typing import Any

import aiosqlite

from .errors import InvalidInput
from .models import CURRENT_SEASON, Season, SeasonChoice, ms_to_datetime

__all__ = ["NAME_LIMIT", "current", "resolve", "seasons", "start"]

NAME_LIMIT = 64


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
