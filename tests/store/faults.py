"""Real database trouble for tests: read-only, full, corrupt and locked files.

Each helper brings an open :class:`Store` into the state SQLite itself reports (no mocked errors):
the writer reopened read-only, the file pinned at its size with every free page used, a table's
pages overwritten with garbage, another connection holding the write lock.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

import aiosqlite

from bot.store import Store

__all__ = ["corrupt_table", "fill_up", "hold_write_lock", "make_read_only", "make_writable",
           "STORE_LOGGER", "problem_lines"]

STORE_LOGGER = "bot.store"


def problem_lines(records) -> list[str]:
    """The store's log lines about the database's health (captured by ``caplog``)."""
    return [r.getMessage() for r in records if r.name == STORE_LOGGER]


async def _reopen_writer(store: Store, uri: str) -> None:
    db = store._db
    async with db._write_lock:
        await db._writer.close()
        conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA busy_timeout = 10000")
        await conn.execute("PRAGMA foreign_keys = ON")
        db._writer = conn


async def make_read_only(store: Store) -> None:
    """The writer sees the file as a read-only one would be (``mode=ro``)."""
    await _reopen_writer(store, f"file:{store.path}?mode=ro")


async def make_writable(store: Store) -> None:
    await _reopen_writer(store, f"file:{store.path}?mode=rw")


async def fill_up(store: Store, spare_pages: int = 4) -> None:
    """Pin the writer's file at its size plus a few pages, then fill every page it may still add,
    so the next write that needs a new page fails with SQLITE_FULL."""
    db = store._db
    async with db._write_lock:
        conn = db._writer
        (pages,), = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {pages + spare_pages:d}")
        await conn.execute("CREATE TABLE IF NOT EXISTS ballast (junk BLOB)")
        for size in (2000, 500, 100, 10):
            while True:
                try:
                    await conn.execute("INSERT INTO ballast VALUES (zeroblob(?))", (size,))
                except sqlite3.OperationalError as exc:
                    assert "full" in str(exc), exc
                    break
        (free,), = await conn.execute_fetchall("PRAGMA freelist_count")
        assert free == 0


async def corrupt_table(store: Store, table: str) -> None:
    """Overwrite the root page of ``table`` in the file with garbage (after moving everything
    from the WAL into the file) and make both connections forget their cached pages."""
    db = store._db
    async with db._write_lock, db._read_lock:
        await db._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,), = await db._writer.execute_fetchall(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        (size,), = await db._writer.execute_fetchall("PRAGMA page_size")
        with open(store.path, "r+b") as file:
            file.seek((root - 1) * size)
            file.write(bytes((i * 37 + 11) % 256 for i in range(size)))
            file.flush()
            os.fsync(file.fileno())
        for conn in (db._writer, db._reader):
            await conn.execute("PRAGMA shrink_memory")


def hold_write_lock(path: str) -> sqlite3.Connection:
    """Another connection in the middle of a write transaction; close it to let go."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def counts(path: str) -> tuple[int, ...]:
    """Rows of the ledger and game tables, read by a connection of its own."""
    with closing(sqlite3.connect(path)) as conn:
        return tuple(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                     for t in ("accounts", "transfers", "entries", "games", "game_events"))
