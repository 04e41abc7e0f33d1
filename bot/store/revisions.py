"""Which revision of a row its Discord message shows: lobbies and tournaments (migration 020).

Each change of such a row that its message shows counts ``revision`` up, in the change's own
transaction; each edit of the message notes in ``shown`` the revision it drew, once it went
out. A row with ``shown < revision`` is one a stop left ahead of its message.
"""

from __future__ import annotations

from typing import Any

__all__ = ["set_message", "mark_shown"]

_KEYS = {"lobbies": "lobby_id", "tournaments": "tournament_id"}


async def set_message(conn: Any, table: str, row_id: Any, message_id: int, now: int,
                      shown: int = 0) -> None:
    """Remember the row's message, sent showing revision ``shown``."""
    await conn.execute(f"UPDATE {table} SET message_id = ?, updated_at = ?, "
                       f"shown = CASE WHEN shown < ? THEN ? ELSE shown END WHERE {_KEYS[table]} = ?",
                       (message_id, now, shown, shown, row_id))


async def mark_shown(conn: Any, table: str, row_id: Any, revision: int) -> None:
    """The row's message now shows ``revision`` (an edit of an older one notes nothing)."""
    await conn.execute(f"UPDATE {table} SET shown = ? WHERE {_KEYS[table]} = ? AND shown < ?",
                       (revision, row_id, revision))
