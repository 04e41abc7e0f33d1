"""The store on PostgreSQL (psycopg 3 and its connection pool), behind the same interface as
SQLite's :class:`~bot.store.db.Database`.

The store's queries are written once, with ``?`` placeholders and a few SQLite functions; a thin
connection wrapper passes them to psycopg (``?`` becomes ``%s``), and ``COMPAT`` below gives
PostgreSQL those functions (``json_valid``, ``json_extract``, ``SUM`` of a comparison...), so the
SQL the store sends is the same on both.

Write transactions take one transaction-scoped advisory lock first. They run in psycopg's
pipeline mode, so ``BEGIN`` and the lock travel with the work's first statement and the
transaction costs one round trip per statement and one for ``COMMIT``; each statement is still
answered (and its error raised) where it is sent. Most take the lock alone, so they run one at
a time across every process sharing the database, exactly as SQLite's single writer does: the
store's read-then-write steps (a seat checked, then taken; a lobby checked, then started) keep
the invariants they were written for.
The ledger's own moves (transfers, grants, revokes, daily claims) take it shared and run side by
side, which their conditional debits and unique idempotency keys make safe (see ``transact``);
their commits then overlap. (SERIALIZABLE with retries was measured too: on the ledger's shared
rows, the house account above all, it aborted and retried so often that it was slower, and
starved under the concurrency storm.) Reads never wait for the lock. A deadlock or serialization
failure, should one still happen, is retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import psycopg.sql
from psycopg import errors as pg_errors
from psycopg_pool import AsyncConnectionPool

from .db import Overtaken
from .dialects import split_statements
from .errors import MigrationError
from .health import Health, postgres_unavailable
from .steps import Step, run_postgresql
from .target import display_url

__all__ = ["COMPAT", "PgConnection", "PostgresDatabase", "is_postgres_url", "display_url"]

log = logging.getLogger("bot.store")

T = TypeVar("T")
Clock = Callable[[], float]

#: Serialization failures and deadlocks are retried this many times before giving up, waiting a
#: random time that doubles with each try (from about 1 ms up to BACKOFF_CAP seconds).
MAX_ATTEMPTS = 60
BACKOFF_CAP = 0.05
_MIGRATION_LOCK = 0x48616E61  # pg_advisory_lock key of migrations: one migrating process at a time
_WRITE_LOCK = 0x48616E62  # pg_advisory_xact_lock key of the store's write transactions
_EXCLUSIVE_LOCK = f"SELECT pg_advisory_xact_lock({_WRITE_LOCK})"
_SHARED_LOCK = f"SELECT pg_advisory_xact_lock_shared({_WRITE_LOCK})"
_RETRIED = (pg_errors.SerializationFailure, pg_errors.DeadlockDetected)
_RETRIED_CONCURRENT = (*_RETRIED, pg_errors.UniqueViolation, Overtaken)

#: SQLite's functions that the schema and the store's queries use, as PostgreSQL functions over
#: the same JSON text; created (or replaced) before migrating. ``hf_forbid`` is what the
#: append-only triggers call (see :func:`bot.store.dialects.to_postgresql`).
COMPAT = r"""
CREATE OR REPLACE FUNCTION json_valid(value text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM value::jsonb;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END $$;
CREATE OR REPLACE FUNCTION json_type(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_typeof(value::jsonb) $$;
CREATE OR REPLACE FUNCTION json_array_length(value text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_array_length(value::jsonb) $$;
CREATE OR REPLACE FUNCTION json(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT value::jsonb::text $$;
CREATE OR REPLACE FUNCTION hf_json_path(path text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN path = '$' THEN '{}'::text[] ELSE string_to_array(substr(path, 3), '.') END
$$;
CREATE OR REPLACE FUNCTION json_extract(value text, path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT value::jsonb #>> hf_json_path(path) $$;
CREATE OR REPLACE FUNCTION json_set(value text, path text, new_value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_set(value::jsonb, hf_json_path(path), new_value::jsonb)::text
$$;
CREATE OR REPLACE FUNCTION typeof(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value ~ '^-?[0-9]+$' THEN 'integer' ELSE 'text' END
$$;
CREATE OR REPLACE FUNCTION hf_count_true(total bigint, value boolean) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value IS NULL THEN total
                ELSE coalesce(total, 0) + CASE WHEN value THEN 1 ELSE 0 END END
$$;
CREATE OR REPLACE AGGREGATE sum(boolean) (SFUNC = hf_count_true, STYPE = bigint);
CREATE OR REPLACE FUNCTION hf_concat(joined text, value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value IS NULL THEN joined WHEN joined IS NULL THEN value
                ELSE joined || ',' || value END
$$;
CREATE OR REPLACE AGGREGATE group_concat(text) (SFUNC = hf_concat, STYPE = text);
CREATE OR REPLACE FUNCTION hf_forbid() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
END $$;
"""


def is_postgres_url(target: Any) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


_NUMBERED = re.compile(r"\?(\d+)")


@functools.lru_cache(maxsize=1024)
def _placeholders(sql: str) -> tuple[str, bool]:
    """The store's ``?`` placeholders as psycopg's ``%s``, and SQLite's numbered ``?1`` as
    ``%(p1)s`` (a literal ``%`` doubled); true when the parameters must then be named."""
    sql = sql.replace("%", "%%")
    if _NUMBERED.search(sql):
        return _NUMBERED.sub(r"%(p\1)s", sql), True
    return sql.replace("?", "%s"), False


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=256)
def _named(sql: str) -> str:
    """SQLite's ``:name`` placeholders as psycopg's ``%(name)s`` (``::`` casts left alone)."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))


def _bound(sql: str, params: Any) -> tuple[str, Any]:
    if isinstance(params, Mapping):
        return _named(sql), params
    text, numbered = _placeholders(sql)
    return text, ({f"p{i}": value for i, value in enumerate(params, 1)} if numbered else tuple(params))


class Row(tuple):
    """A result row read by position or by column name, as :class:`sqlite3.Row` is."""

    def __new__(cls, values: Iterable[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


def _plain(value: Any) -> Any:
    """PostgreSQL's SUM of integers is numeric: a whole Decimal comes back as the int SQLite gives."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    index = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row((_plain(v) for v in values), index)


class PgConnection:
    """A PostgreSQL connection with the part of aiosqlite's interface the store uses.

    In a pipeline (a write transaction), every statement is synced as it is sent: what went
    before it in the pipeline (``BEGIN`` and the lock) goes out in the same round trip, and its
    result and error come back where the store's code awaits it, as without a pipeline."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.AsyncConnection,
                 pipeline: psycopg.AsyncPipeline | None = None) -> None:
        self._conn = conn
        self._pipeline = pipeline

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.AsyncCursor:
        cursor = self._conn.cursor()
        if params:
            await cursor.execute(*_bound(sql, params))
        else:
            await cursor.execute(sql)
        await self._synced()
        return cursor

    async def _synced(self) -> None:
        if self._pipeline is not None:
            await self._pipeline.sync()

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = await self.execute(sql, params)
        return list(await cursor.fetchall()) if cursor.description else []

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        rows = [_bound(sql, p) for p in params]
        if rows:
            await self._conn.cursor().executemany(rows[0][0], [bound for _, bound in rows])
            await self._synced()


class PostgresDatabase:
    """A connection pool, the clock and the database's health; shared by the store's modules."""

    dialect = "postgresql"

    def __init__(self, pool: AsyncConnectionPool, clock: Clock, url: str) -> None:
        self._pool = pool
        self.clock = clock
        self.path = display_url(url)
        self._url = url  # for the listening connection, apart from the pool
        self.health = Health(self.path)
        self.retries = 0  # serialization failures and deadlocks retried (for the metrics)

    @classmethod
    async def open(cls, url: str, *, migrations_dir: Path | None = None, clock: Clock = time.time,
                   pool_size: int = 10, timeout: float = 10.0) -> PostgresDatabase:
        from .db import load_migrations

        migrations = load_migrations(migrations_dir)
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True,
                                                             connect_timeout=int(timeout)) as conn:
                await migrate(conn, migrations)
            # Each connection is checked before it is handed out: after a server restart every
            # pooled connection is broken, and without the check each would fail one step first.
            pool = AsyncConnectionPool(url, min_size=1, max_size=pool_size, timeout=timeout,
                                       kwargs={"row_factory": _row_factory, "autocommit": True},
                                       check=AsyncConnectionPool.check_connection, open=False)
            await pool.open(wait=True, timeout=timeout)
        except MigrationError:
            raise
        except Exception as exc:
            error = postgres_unavailable(exc)
            if error is not None:
                Health(display_url(url)).failed("open", error)
                raise error from exc
            raise
        return cls(pool, clock, url)

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def listening(self, channel: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """NOTIFY's messages on ``channel`` (JSON objects), on a connection of their own: the
        pool's connections come and go, a listener must stay. Listening has begun on entry."""
        try:
            conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
        except Exception as exc:
            self._raise_unavailable("read", exc)
            raise
        try:
            await conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel)))
            yield _messages(conn)
        finally:
            await conn.close()

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def transact(self, work: Callable[[PgConnection], Awaitable[T]], *,
                       concurrent: bool = False, one_trip: bool = False) -> T:
        """``work`` in one write transaction, after the writers before it (the write lock).
        (``one_trip`` is SQLite's; the pipeline below sends a transaction's work at once anyway.)

        ``concurrent`` work shares the lock with other concurrent work and runs beside it (never
        beside the others): it must be correct under row locks alone. It is run again from the
        start should a concurrent twin commit the same unique row first (its check then sees
        the row, as it would have one at a time). Any work is run again after a deadlock or a
        serialization failure."""
        lock = _SHARED_LOCK if concurrent else _EXCLUSIVE_LOCK
        retried = _RETRIED_CONCURRENT if concurrent else _RETRIED
        for attempt in range(MAX_ATTEMPTS):
            try:
                async with self._pool.connection() as conn:
                    try:
                        async with conn.pipeline() as pipeline:
                            await conn.execute("BEGIN")  # sent with the work's first statement
                            await conn.execute(lock)
                            result = await work(PgConnection(conn, pipeline))
                            await conn.execute("COMMIT")  # sent and answered as the pipeline ends
                    except Exception:
                        await _rolled_back(conn)
                        raise
                    except BaseException:  # cancelled (a timeout, a shutdown) mid-pipeline
                        await _closed(conn)
                        raise
            except retried:
                if attempt == MAX_ATTEMPTS - 1:
                    raise
                self.retries += 1
                await asyncio.sleep(random.uniform(0, min(BACKOFF_CAP, 0.001 * 2 ** attempt)))
                continue
            except Exception as exc:
                self._raise_unavailable("write", exc)
                raise
            self.health.succeeded("write")
            return result
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PgConnection]:
        """Several reads that must agree with each other (one read-only transaction)."""
        try:
            async with self._pool.connection() as conn, conn.transaction():
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield PgConnection(conn)
        except Exception as exc:
            self._raise_unavailable("read", exc)
            raise
        self.health.succeeded("read")

    async def fetchall(self, sql: str, params: Any = ()) -> list[Row]:
        async with self.snapshot() as conn:
            return await conn.execute_fetchall(sql, params)

    async def fetchone(self, sql: str, params: Any = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    def _raise_unavailable(self, kind: str, exc: BaseException) -> None:
        error = postgres_unavailable(exc)
        if error is not None:
            self.health.failed(kind, error)
            raise error from exc


async def _rolled_back(conn: psycopg.AsyncConnection) -> None:
    """End a failed write transaction; a connection too broken for that leaves the pool."""
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        with contextlib.suppress(psycopg.Error):
            await asyncio.shield(conn.execute("ROLLBACK"))


async def _closed(conn: psycopg.AsyncConnection) -> None:
    """Close a connection whose pipeline was interrupted: what it had sent but not yet read back
    (a statement psycopg counts as prepared, say) no longer matches the server's session, so the
    pool must not hand it out again (it drops a closed connection). The transaction dies with it."""
    with contextlib.suppress(psycopg.Error):
        await asyncio.shield(conn.close())


async def _messages(conn: psycopg.AsyncConnection) -> AsyncIterator[dict[str, Any]]:
    async for note in conn.notifies():
        try:
            message = json.loads(note.payload)
        except ValueError:
            log.warning("ignored a malformed message on %s", note.channel)
            continue
        if isinstance(message, dict):
            yield message


async def schema_version(conn: psycopg.AsyncConnection) -> int:
    """The migration level of the database (0: none yet)."""
    found = await (await conn.execute("SELECT to_regclass('hf_schema') IS NOT NULL")).fetchone()
    if not found[0]:
        return 0
    row = await (await conn.execute("SELECT version FROM hf_schema")).fetchone()
    return 0 if row is None else int(row[0])


async def migrate(conn: psycopg.AsyncConnection, migrations: list, upto: int | None = None) -> int:
    """Bring the database of ``conn`` (autocommit) to the last migration (or ``upto``), each in
    its own transaction with the version it reaches; several processes opening at once wait for
    one another on an advisory lock, so every migration runs exactly once."""
    latest = migrations[-1].version if migrations else 0
    target = latest if upto is None else upto
    await conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
    try:
        current = await schema_version(conn)
        if current > latest:
            raise MigrationError(
                f"the database is at schema version {current}, newer than this code ({latest}); "
                "upgrade the bot instead of running an older one on it")
        async with conn.transaction():
            for statement in split_statements(COMPAT, "postgresql"):
                await conn.execute(statement)
            await conn.execute("CREATE TABLE IF NOT EXISTS hf_schema (version integer NOT NULL)")
            if (await (await conn.execute("SELECT count(*) FROM hf_schema")).fetchone())[0] == 0:
                await conn.execute("INSERT INTO hf_schema (version) VALUES (0)")
        for migration in migrations:
            if migration.version <= current or migration.version > target:
                continue
            try:
                async with conn.transaction():
                    for statement in migration.postgresql:
                        if isinstance(statement, Step):
                            await run_postgresql(conn, statement, _bound)
                        else:
                            await conn.execute(statement)
                    await conn.execute("UPDATE hf_schema SET version = %s", (migration.version,))
            except psycopg.Error as exc:
                raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
            current = migration.version
        return current
    finally:
        with contextlib.suppress(psycopg.Error):
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))

