"""Messages between the processes of a sharded bot, through the database they share.

Discord sends every direct message to shard 0, the presses on the hands among them, while a game
is driven by the process of its guild's shard. Such a press is queued in ``relayed_presses`` and
announced; the process of that shard takes it from the queue, at once when the announcement
reaches it or when it starts again, so a press made while its process restarts is not lost.
A member's language, remembered by one process, is announced to the others the same way.

Announcements are PostgreSQL's NOTIFY on :data:`CHANNEL`, sent with the transaction that stores
what they announce (a rolled-back write announces nothing). SQLite serves one process only: the
queue exists there but is never needed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

__all__ = ["CHANNEL", "announce", "drop_press", "queue_press", "queued_presses"]

CHANNEL = "hanafuda_relay"


async def announce(conn: aiosqlite.Connection, dialect: str, message: Mapping[str, Any]) -> None:
    """Tell every listening process ``message`` when this transaction commits (PostgreSQL)."""
    if dialect == "postgresql":
        await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(message)))


async def queue_press(conn: aiosqlite.Connection, shard: int, game_id: int,
                      press: Mapping[str, Any], now_ms: int) -> None:
    await conn.execute(
        "INSERT INTO relayed_presses (shard, game_id, press, created_at) VALUES (?, ?, ?, ?)",
        (shard, game_id, json.dumps(press), now_ms))


async def queued_presses(conn: aiosqlite.Connection, shards: Sequence[int]) -> list[dict[str, Any]]:
    """The presses queued for ``shards``, oldest first, each with its ``press_id``. A press stays
    queued until it is played (removed with its move, in the move's transaction) or refused
    (:func:`drop_press`): a process that dies while playing it finds it again when it starts."""
    if not shards:
        return []
    marks = ", ".join("?" * len(shards))
    rows = await conn.execute_fetchall(
        f"SELECT press_id, press FROM relayed_presses WHERE shard IN ({marks}) ORDER BY press_id",
        tuple(shards))
    return [{**json.loads(row[1]), "press_id": row[0]} for row in rows]


async def drop_press(conn: aiosqlite.Connection, press_id: int) -> None:
    await conn.execute("DELETE FROM relayed_presses WHERE press_id = ?", (press_id,))
