"""The one store the bot uses: settings, chip ledger, games, results, ratings, leaderboards.

Every method validates its input before touching the database, then runs as one transaction:
writes under the writer lock with ``BEGIN IMMEDIATE``, reads on the read connection (the last
committed state). Failures raise a :class:`~bot.store.errors.StoreError` subclass that carries the
refusal's data (each surface phrases it: :func:`bot.refusal_text.sentence`), and
leave the database unchanged.

The calls are grouped by concern in the mixins of :mod:`bot.store.facade`; this module
assembles them around what they share: the database, its life cycle and the settings cache.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from pathlib import Path
from types import TracebackType

from .db import Clock, Database, database_target
from .errors import StoreUnavailable
from .facade.carryover import CarryOver
from .facade.daily import DealOfTheDay
from .facade.games import Games
from .facade.ledger import ChipLedger
from .facade.lobbies import Lobbies
from .facade.privacy import Privacy
from .facade.records import Records
from .facade.relay import Relay
from .facade.seasons import Seasons
from .facade.settings import Settings
from .facade.tournaments import Tournaments
from .postgres import PostgresDatabase, is_postgres_url
from .settings import GuildSettings, load_all_settings

__all__ = ["Store"]


class Store(Settings, Relay, ChipLedger, Games, Records, Seasons, DealOfTheDay, Tournaments,
            CarryOver, Privacy, Lobbies):
    """Open with ``await Store.open(path)`` (or ``async with await Store.open(path)``)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        # Every command reads its server's settings, and only this store writes them (a sharded
        # bot's other processes serve other servers): they are kept once read, so a command can
        # answer without waiting for the database. Only while the database works: a failing one
        # is asked again, and refuses as it should.
        self._settings: dict[int, GuildSettings] = {}
        self._settings_writes = 0  # a read that a write overtook must not keep its older answer
        # Settings writes one at a time, so that the cache takes each one's answer in the order
        # they were committed (two answers can come back in either order).
        self._settings_turn = asyncio.Lock()
        self._all_settings = False  # every stored row is in _settings: a missing one is the defaults
        self.origin = secrets.token_hex(8)  # names this store's announcements (bot.store.relay)

    # -- life cycle ------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, migrations_dir: Path | None = None,
        clock: Clock = time.time, synchronous: str = "NORMAL", busy_timeout_ms: int = 10_000,
    ) -> Store:
        """Open (creating and migrating) the database: a ``postgresql://`` URL, or an SQLite
        file; ``None``: ``$DATABASE_URL`` if set, else :func:`default_db_path`; ``":memory:"``:
        a private temporary SQLite file removed on close."""
        target = database_target(path)
        if is_postgres_url(target):
            db: Database | PostgresDatabase = await PostgresDatabase.open(
                target, migrations_dir=migrations_dir, clock=clock)
        else:
            db = await Database.open(target, migrations_dir=migrations_dir, clock=clock,
                                     synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)
        store = cls(db)
        await store._load_settings()
        return store

    async def _load_settings(self) -> None:
        """Keep every server's settings from the start: a busy server's first commands then
        answer without queueing for the database. A damaged settings table does not stop the
        bot: its commands ask the database, and are refused, as they come."""
        try:
            async with self._db.snapshot() as conn:
                stored = await load_all_settings(conn)
        except StoreUnavailable:
            return
        self._settings = {settings.guild_id: settings for settings in stored}
        self._all_settings = True

    async def close(self) -> None:
        """Close both connections (waits for a running write transaction)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The database: its file, or its URL without the password."""
        return self._db.path

    @property
    def healthy(self) -> bool:
        """Whether the database serves every kind of request now (for the health check)."""
        return self._db.health.ok

    @property
    def dialect(self) -> str:
        """"sqlite" or "postgresql"."""
        return self._db.dialect
