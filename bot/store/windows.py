"""Discord's rate-limit windows the bot spent (migration 022), kept for its next start.

Discord says what is left of a window only in its answers to that window's requests: a bot that
starts again within a window its previous run spent cannot know it, and its first request there
draws a 429, which Discord counts against the bot. So a run notes each window it spent, by
route and major parameter (a channel or a server, never a token), with the moment it ends; the
next start waits those out (``bot.discord_ui.delivery.RouteTurns.hold``). Rows live seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["note", "open_at"]

Key = tuple[str, str]  # (the route, as "METHOD /path/{template}"; its major parameter)


async def note(conn: Any, windows: Mapping[Key, int], now: int) -> None:
    """Remember when each window of ``windows`` ends (ms; a later end wins), and forget every
    window that ended before ``now``."""
    await conn.execute("DELETE FROM rest_windows WHERE until_ms < ?", (now,))
    await conn.executemany(
        "INSERT INTO rest_windows (route, major, until_ms) VALUES (?, ?, ?) "
        "ON CONFLICT (route, major) DO UPDATE SET until_ms = CASE "
        "WHEN excluded.until_ms > rest_windows.until_ms THEN excluded.until_ms "
        "ELSE rest_windows.until_ms END",
        [(route, major, until) for (route, major), until in windows.items() if until >= now])


async def open_at(conn: Any, now: int) -> dict[Key, int]:
    """The windows that end after ``now``, with their ends (ms)."""
    rows = await conn.execute_fetchall(
        "SELECT route, major, until_ms FROM rest_windows WHERE until_ms > ?", (now,))
    return {(str(route), str(major)): int(until) for route, major, until in rows}
