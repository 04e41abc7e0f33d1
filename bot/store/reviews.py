"""The /review requests being worked on (migration 021): noted before the request is
acknowledged, taken off once its answer went out, so that a review a stop cut short is made
again at the next start. One row per server, game and player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["PendingReview", "note", "done", "pending"]


@dataclass(frozen=True, slots=True)
class PendingReview:
    guild_id: int
    game_id: int
    user_id: int
    language: str  # the language the player asked in, which the answer speaks
    asked_at: int  # ms


async def note(conn: Any, guild_id: int, game_id: int, user_id: int, language: str, now: int
               ) -> bool:
    """Note a request; False when the same one is already being worked on."""
    cursor = await conn.execute(
        "INSERT INTO pending_reviews (guild_id, game_id, user_id, language, asked_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, game_id, user_id) DO NOTHING",
        (guild_id, game_id, user_id, language, now))
    return cursor.rowcount == 1


async def done(conn: Any, guild_id: int, game_id: int, user_id: int) -> None:
    await conn.execute("DELETE FROM pending_reviews WHERE guild_id = ? AND game_id = ? "
                       "AND user_id = ?", (guild_id, game_id, user_id))


async def pending(conn: Any) -> list[PendingReview]:
    """Every request being worked on, oldest first."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id, game_id, user_id, language, asked_at FROM pending_reviews "
        "ORDER BY asked_at, guild_id, game_id, user_id")
    return [PendingReview(*row) for row in rows]
