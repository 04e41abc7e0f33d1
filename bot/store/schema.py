"""Where a database stands against the migrations, and bringing it up to date, for operators:
``python -m bot db status`` and ``python -m bot db migrate`` (SQLite file or PostgreSQL URL)."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import psycopg

from . import postgres
from .db import Migration, database_target, load_migrations, migrate_file
from .errors import MigrationError
from .target import check_sqlite_path, operating_on

__all__ = ["SchemaStatus", "migrate_database", "schema_status"]


@dataclass(frozen=True)
class SchemaStatus:
    """A database's migration level and the migrations this code knows."""

    database: str
    version: int
    migrations: tuple[Migration, ...]

    @property
    def latest(self) -> int:
        return self.migrations[-1].version if self.migrations else 0

    def report(self) -> str:
        state = ("up to date" if self.version == self.latest else
                 f"{self.latest - self.version} to apply" if self.version < self.latest else
                 "newer than this code: upgrade the bot")
        lines = [f"database: {self.database}",
                 f"schema version {self.version} of {self.latest} ({state})"]
        for m in self.migrations:
            lines.append(f"  {m.version:3d} {m.name:32s} {'applied' if m.version <= self.version else 'pending'}")
        return "\n".join(lines)


async def schema_status(target: str | None = None, migrations_dir: Path | None = None) -> SchemaStatus:
    """The migration level of the database at ``target`` (default: ``$DATABASE_URL`` or the
    SQLite file), changing nothing; a missing SQLite file is at level 0."""
    target = database_target(target)
    migrations = tuple(load_migrations(migrations_dir))
    with operating_on(target):
        if postgres.is_postgres_url(target):
            async with await psycopg.AsyncConnection.connect(target, autocommit=True) as conn:
                version = await postgres.schema_version(conn)
            return SchemaStatus(postgres.display_url(target), version, migrations)
        check_sqlite_path(target)
        if not Path(target).exists():
            return SchemaStatus(target, 0, migrations)
        conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    return SchemaStatus(target, version, migrations)


async def migrate_database(target: str | None = None, migrations_dir: Path | None = None) -> tuple[int, int]:
    """Apply every pending migration (each in its own transaction); (version before, after)."""
    before = (await schema_status(target, migrations_dir)).version
    target = database_target(target)
    migrations = load_migrations(migrations_dir)
    with operating_on(target):
        if postgres.is_postgres_url(target):
            async with await psycopg.AsyncConnection.connect(target, autocommit=True) as conn:
                after = await postgres.migrate(conn, migrations)
        else:
            check_sqlite_path(target)
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(migrate_file, target, migrations, 10_000)
            after = (await schema_status(target, migrations_dir)).version
    if after < (migrations[-1].version if migrations else 0):
        raise MigrationError(f"the database stopped at version {after}")
    return before, after
