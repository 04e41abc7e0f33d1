"""Several players' latest results at once, and the names they last played under.

A board's page draws a small trend beside each of its rows (the rating after each of a player's
latest games, or whether they won them), and a player's card draws their rating history per
game: one query per page, not one per row. Each player's part is its own ``LIMIT``-ed
subquery, so the database reads at most ``limit`` results per player along the
``results_user`` index, however many games they played. Every subquery is scoped by the server
first: no answer mixes in another server's results or names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .models import Outcome

__all__ = ["TREND_LIMIT", "TrendKey", "TrendPoint", "latest_names", "recent_results"]

TREND_LIMIT = 50
"""The most results read per player (a trend of more would be too small to see)."""
NAME_LIMIT = 100  # characters of a stored name passed on (a display name has at most 32)


@dataclass(frozen=True, slots=True)
class TrendKey:
    """Whose results: a player's, in one game (None: every game) and season (None: every one)."""

    user_id: int
    game: str | None = None
    season: int | None = None


@dataclass(frozen=True, slots=True)
class TrendPoint:
    """One finished game of a player: how it went and their rating after it (None: unrated)."""

    outcome: Outcome
    points: int
    rating_after: float | None


def _season_range(season: int | None) -> tuple[int, int]:
    return (0, 2**62) if season is None else (season, season)


def trend_query(guild_id: int, keys: Sequence[TrendKey], limit: int, rated_only: bool
                ) -> tuple[str, list[Any]]:
    """The one SELECT of :func:`recent_results` for distinct ``keys``, with its parameters."""
    parts, params = [], []
    for index, key in enumerate(keys):
        # The season and game are written as expressions so that no index on them is chosen
        # (SQLite took the server's season index, reading the whole season): the player's
        # index gives their results newest first, and LIMIT stops after ``limit`` matches.
        where = "guild_id = ? AND user_id = ? AND season + 0 BETWEEN ? AND ?"
        params += [guild_id, key.user_id, *_season_range(key.season)]
        if key.game is not None:
            where += " AND game || '' = ?"
            params.append(key.game)
        if rated_only:
            where += " AND rated = 1"
        # The index is an integer of this loop, never input: safe in the SQL text.
        parts.append(f"SELECT * FROM (SELECT {index} AS k, outcome, points, rating_after, "
                     f"finished_at, game_id FROM results WHERE {where} "
                     f"ORDER BY finished_at DESC, game_id DESC LIMIT ?) AS part{index}")
        params.append(limit)
    return " UNION ALL ".join(parts), params


async def recent_results(conn: aiosqlite.Connection, guild_id: int, keys: Sequence[TrendKey],
                         limit: int, *, rated_only: bool = False
                         ) -> dict[TrendKey, list[TrendPoint]]:
    """Each key's latest ``limit`` results on this server, oldest first (``rated_only``: only
    the games that changed their rating). Keys without results map to an empty list."""
    found: dict[TrendKey, list[TrendPoint]] = {key: [] for key in keys}
    unique = list(found)
    if not unique or limit < 1:
        return found
    rows = await conn.execute_fetchall(*trend_query(guild_id, unique, limit, rated_only))
    for row in sorted(rows, key=lambda r: (r["k"], r["finished_at"], r["game_id"])):
        found[unique[row["k"]]].append(TrendPoint(outcome=row["outcome"], points=row["points"],
                                                  rating_after=row["rating_after"]))
    return found


async def latest_names(conn: aiosqlite.Connection, guild_id: int, user_ids: Sequence[int]
                       ) -> dict[int, str]:
    """The name each player had in their latest finished game on this server (as the table
    showed it); players without one (no games here, or none stored) are left out."""
    unique = list(dict.fromkeys(user_ids))
    if not unique:
        return {}
    parts, params = [], []
    for index, user_id in enumerate(unique):
        parts.append("SELECT * FROM (SELECT r.user_id, r.seat, json_extract(g.state, '$.names') "
                     "AS names FROM results r JOIN games g ON g.game_id = r.game_id "
                     "WHERE r.guild_id = ? AND r.user_id = ? AND g.guild_id = ? "
                     f"ORDER BY r.finished_at DESC, r.game_id DESC LIMIT 1) AS part{index}")
        params += [guild_id, user_id, guild_id]
    rows = await conn.execute_fetchall(" UNION ALL ".join(parts), params)
    names: dict[int, str] = {}
    for row in rows:
        name = _seat_name(row["names"], row["seat"])
        if name:
            names[row["user_id"]] = name
    return names


def _seat_name(raw: Any, seat: int) -> str | None:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return None
    if not isinstance(value, list) or not 0 <= seat < len(value):
        return None
    name = value[seat]
    return name.strip()[:NAME_LIMIT] or None if isinstance(name, str) else None
