"""Servers that removed the bot: marked when it leaves, cleared when it is added back, and every
row of theirs purged after a grace period (or at once: ``python -m bot db purge-guild ID``).

A purge deletes the server's rows from every table in one transaction. The ledger, the game log,
the results and the seasons refuse deletes (triggers that keep them append-only); for the purge
alone those triggers are set aside inside the same transaction and are back at its commit, so
nothing else ever deletes there. Other servers' rows are untouched: every server's ledger is
closed on itself (a transfer never crosses servers), so it stays balanced.
"""

from __future__ import annotations

from typing import Any

from . import guards

__all__ = ["PURGE_PLAN", "NOT_SERVER_DATA", "mark_departed", "clear_departed", "departed_before",
           "purge_guild"]

_OF_GAMES = "game_id IN (SELECT game_id FROM games WHERE guild_id = ?)"
#: Every table holding a server's data and which of its rows are that server's, children before
#: parents (foreign keys hold after each delete). A new table joins this plan or NOT_SERVER_DATA.
_OF_TOURNAMENTS = "tournament_id IN (SELECT tournament_id FROM tournaments WHERE guild_id = ?)"
PURGE_PLAN: tuple[tuple[str, str], ...] = (
    ("achievements", "guild_id = ?"),
    ("lobbies", "guild_id = ?"),
    ("tournament_pairings", _OF_TOURNAMENTS),
    ("tournament_rounds", _OF_TOURNAMENTS),
    ("tournament_entrants", _OF_TOURNAMENTS),
    ("tournaments", "guild_id = ?"),
    ("tournament_schedules", "guild_id = ?"),
    ("daily_entries", "guild_id = ?"),
    ("daily_deals", "guild_id = ?"),
    ("daily_posts", "guild_id = ?"),
    ("daily_reminders", "guild_id = ?"),
    ("relayed_presses", _OF_GAMES),
    ("surface_notes", _OF_GAMES),
    ("game_deals", _OF_GAMES),
    ("game_events", _OF_GAMES),
    ("results", "guild_id = ?"),
    ("entries", "account_id IN (SELECT account_id FROM accounts WHERE guild_id = ?)"),
    ("transfers", "guild_id = ?"),
    ("accounts", "guild_id = ?"),
    ("games", "guild_id = ?"),
    ("ratings", "guild_id = ?"),
    ("season_schedules", "guild_id = ?"),
    ("seasons", "guild_id = ?"),
    ("guild_settings", "guild_id = ?"),
    ("pending_reviews", "guild_id = ?"),
    ("departed_guilds", "guild_id = ?"),
)
#: Tables that belong to no one server, and why they stay.
NOT_SERVER_DATA = {
    "user_languages": "a member's language, the same on every server",
    "hf_schema": "PostgreSQL's migration level",
    "guest_scopes": "which channels are guest places (an id, its kind, its server's id, a time; "
                    "no one's data); "
                    "a server's id is never one",

    "activity_addresses": "where each process serves the Activity, for every server",
    "rest_windows": "when Discord's rate-limit windows the bot spent end, by route and channel: "
                    "seconds of life, no one's data",
}


async def mark_departed(conn: Any, guild_id: int, now: int) -> None:
    """The bot left ``guild_id`` at ``now`` (a second departure keeps the first time)."""
    await conn.execute("INSERT INTO departed_guilds (guild_id, departed_at) VALUES (?, ?) "
                       "ON CONFLICT (guild_id) DO NOTHING", (guild_id, now))


async def clear_departed(conn: Any, guild_id: int) -> bool:
    """The bot is back in ``guild_id``: nothing of it will be purged. Whether it was marked."""
    cursor = await conn.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))
    return cursor.rowcount > 0


async def departed_before(conn: Any, cutoff: int) -> list[int]:
    """The servers the bot left before ``cutoff`` (ms), oldest first."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id FROM departed_guilds WHERE departed_at < ? ORDER BY departed_at, guild_id",
        (cutoff,))
    return [row[0] for row in rows]


async def purge_guild(conn: Any, guild_id: int) -> dict[str, int]:
    """Delete every row of ``guild_id`` (inside the caller's write transaction); the rows
    deleted per table."""
    tables = [table for table, _ in PURGE_PLAN]
    restore = await guards.set_aside(conn, tables, "DELETE")
    deleted = {}
    for table, where in PURGE_PLAN:
        cursor = await conn.execute(f"DELETE FROM {table} WHERE {where}", (guild_id,))
        deleted[table] = max(cursor.rowcount, 0)
    await restore()
    return deleted
