"""Each user's language: the one their Discord client last showed, and the one they chose."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

__all__ = ["UserLanguage", "load_user_language", "load_user_languages", "save_user_language"]


@dataclass(frozen=True, slots=True)
class UserLanguage:
    user_id: int
    seen: str = ""  # the language of their last interaction ('' before the first)
    chosen: str = ""  # what they asked for with /language ('' : follow their client)


async def load_user_languages(conn: aiosqlite.Connection) -> list[UserLanguage]:
    rows = await conn.execute_fetchall("SELECT user_id, seen, chosen FROM user_languages")
    return [UserLanguage(row[0], row[1], row[2]) for row in rows]


async def load_user_language(conn: aiosqlite.Connection, user_id: int) -> UserLanguage | None:
    rows = list(await conn.execute_fetchall(
        "SELECT user_id, seen, chosen FROM user_languages WHERE user_id = ?", (user_id,)))
    return UserLanguage(rows[0][0], rows[0][1], rows[0][2]) if rows else None


async def save_user_language(conn: aiosqlite.Connection, language: UserLanguage, now_ms: int) -> None:
    await conn.execute(
        "INSERT INTO user_languages (user_id, seen, chosen, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen, chosen = excluded.chosen, "
        "updated_at = excluded.updated_at",
        (language.user_id, language.seen, language.chosen, now_ms))
