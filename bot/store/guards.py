"""The append-only guards (triggers that refuse an UPDATE or DELETE), set aside for one
transaction: for the few writes the bot itself makes to rows that are otherwise never changed,
such as replacing a forgotten member's id with their pseudonym (:mod:`bot.store.privacy`).

SQLite drops the triggers and creates them again from their stored SQL; PostgreSQL disables and
enables them. Both happen inside the caller's write transaction, so the guards are back at its
commit (or never gone, on a rollback), and no other writer ever sees them missing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

from .db import dialect_of

__all__ = ["set_aside"]

#: PostgreSQL's pg_trigger.tgtype bit of each event.
_PG_EVENT_BIT = {"UPDATE": 16, "DELETE": 8}


async def set_aside(conn: Any, tables: Sequence[str], event: Literal["UPDATE", "DELETE"]
                    ) -> Callable[[], Awaitable[None]]:
    """Take away the guards refusing ``event`` on ``tables`` for this transaction; returns the
    coroutine function that puts them back (call it before the transaction commits)."""
    marks = ", ".join("?" * len(tables))
    if dialect_of(conn) == "postgresql":
        rows = await conn.execute_fetchall(
            "SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            f"WHERE NOT t.tgisinternal AND (t.tgtype & {_PG_EVENT_BIT[event]}) <> 0 "
            "AND c.relnamespace = current_schema()::regnamespace "
            f"AND c.relname IN ({marks}) AND t.tgfoid = 'hf_forbid'::regproc", list(tables))
        guards = [(row[0], row[1]) for row in rows]
        for name, table in guards:
            await conn.execute(f'ALTER TABLE {table} DISABLE TRIGGER "{name}"')

        async def enable() -> None:
            for name, table in guards:
                await conn.execute(f'ALTER TABLE {table} ENABLE TRIGGER "{name}"')
        return enable
    rows = await conn.execute_fetchall(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN "
        f"({marks}) AND upper(sql) LIKE ? AND upper(sql) LIKE '%RAISE(ABORT%'",
        [*tables, f"%BEFORE {event}%"])
    guards = [(row[0], row[1]) for row in rows]
    for name, _ in guards:
        await conn.execute(f'DROP TRIGGER "{name}"')

    async def recreate() -> None:
        for _, sql in guards:
            await conn.execute(sql)
    return recreate
