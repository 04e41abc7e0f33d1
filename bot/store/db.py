"""Connections, transactions and schema migrations.

One writer connection guarded by an asyncio lock, and every write transaction opened with
``BEGIN IMMEDIATE``: the write lock is taken before the first read, so a read-then-write can never
act on a balance another writer (another task, or another process on the same file) is changing.
Reads use a second connection; under WAL they see the last committed state and never wait for the
writer. Migrations are numbered SQL files applied in order, each in its own transaction together
with ``PRAGMA user_version``, so a crash mid-migration leaves the previous version intact.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite
import psycopg

from .dialects import DIALECTS, statements_for
from .errors import MigrationError
from .health import Health, unavailable
from .ratings import recompute as recompute_ratings
from .steps import Step, run_sqlite
from .surfaces import from_state as surface_notes_from_state
from .target import check_sqlite_path, parse_target

__all__ = [
    "Database",
    "IntegrityError",
    "CheckFailed",
    "dialect_of",
    "Migration",
    "PROJECT_ROOT",
    "apply_migrations",
    "database_target",
    "default_db_path",
    "default_migrations_dir",
    "load_migrations",
]

#: A constraint the database refused (a CHECK, a unique key, an append-only trigger), whichever
#: the database: catch this, not one driver's class.
IntegrityError = (sqlite3.IntegrityError, psycopg.IntegrityError)
#: A CHECK constraint refused a row (SQLite tells no integrity error from another; on PostgreSQL
#: a unique key's violation stays apart, for the concurrent writers' retry).
CheckFailed = (sqlite3.IntegrityError, psycopg.errors.CheckViolation)


class Overtaken(Exception):
    """A concurrent writer committed what this transaction found missing after it had begun to
    write: roll back and run it again (only PostgreSQL runs writers side by side)."""


def dialect_of(conn: Any) -> str:
    """"sqlite" or "postgresql": which SQL a connection of the store speaks, for the few queries
    written twice (see :mod:`bot.store.dialects`)."""
    return getattr(conn, "dialect", "sqlite")


#: The project root: ``data/`` sits next to ``bot/`` (also in an editable install).
PROJECT_ROOT = Path(__file__).resolve().parents[2]
MIN_SQLITE = (3, 37, 0)  # STRICT tables; RETURNING needs 3.35
_MIGRATION_NAME = re.compile(r"^(\d+)_[\w.-]+\.sql$")

Clock = Callable[[], float]
T = TypeVar("T")


def default_db_path() -> Path:
    """``$HANAFUDA_DB_PATH`` if set, else ``data/hanafuda.sqlite3`` at the project root."""
    env = os.environ.get("HANAFUDA_DB_PATH")
    return Path(env) if env else PROJECT_ROOT / "data" / "hanafuda.sqlite3"


def database_target(path: str | os.PathLike[str] | None = None) -> str:
    """What to open: ``path`` if given, else ``$DATABASE_URL``, else the SQLite file of
    :func:`default_db_path`, read by :func:`~bot.store.target.parse_target`: an SQLite file's
    path or a ``postgresql://`` URL (:class:`~bot.store.target.TargetError` for anything else)."""
    if path is not None:
        return parse_target(path).location
    if url := os.environ.get("DATABASE_URL"):
        return parse_target(url, "DATABASE_URL").location
    return os.fspath(default_db_path())


def default_migrations_dir() -> Path:
    """``$HANAFUDA_MIGRATIONS_DIR`` if set, else ``data/migrations`` at the project root."""
    env = os.environ.get("HANAFUDA_MIGRATIONS_DIR")
    return Path(env) if env else PROJECT_ROOT / "data" / "migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step of the schema: its statements for SQLite and for PostgreSQL (see
    :mod:`bot.store.dialects`), with any Python :class:`~bot.store.steps.Step` among them."""

    version: int
    name: str
    statements: tuple[str | Step, ...]
    postgresql: tuple[str | Step, ...] = ()


_STEP = re.compile(r"^--\s*step:\s*(\w+)\s*$", re.MULTILINE)

MIGRATION_STEPS = {"openskill_ratings": recompute_ratings, "surface_notes": surface_notes_from_state}
"""The Python steps a migration may name (``-- step: NAME``), by name."""


def step_named(name: str) -> Step:
    """The step a migration names; an unknown name is a broken migration."""
    if name not in MIGRATION_STEPS:
        raise MigrationError(f"unknown migration step {name!r}")
    return Step(name, MIGRATION_STEPS[name])


def _statements(script: str, dialect: str) -> tuple[str | Step, ...]:
    """A migration's statements for ``dialect``, with the steps its ``-- step:`` lines name."""
    parts = _STEP.split(script)  # SQL, step name, SQL, ...
    out: list[str | Step] = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(step_named(part))
        else:
            out += statements_for(part, dialect)
    return tuple(out)


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """Read ``NNN_name.sql`` files; versions must be 1, 2, 3, ... without gaps or repeats."""
    directory = Path(directory) if directory is not None else default_migrations_dir()
    if not directory.is_dir():
        raise MigrationError(f"migrations directory not found: {directory}")
    found: list[Migration] = []
    for path in sorted(directory.iterdir()):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            script = path.read_text(encoding="utf-8")
            try:  # split without executescript, which would COMMIT the migration's transaction
                sqlite, postgresql = (_statements(script, d) for d in DIALECTS)
            except ValueError as exc:
                raise MigrationError(f"{path.name}: {exc}") from None
            found.append(Migration(int(match.group(1)), path.name, sqlite, postgresql))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def apply_migrations(
    conn: sqlite3.Connection, migrations: Iterable[Migration], upto: int | None = None
) -> int:
    """Bring ``conn`` (autocommit mode) to the last migration (or ``upto``); return the version.

    Each step re-reads ``user_version`` after taking the write lock, so two processes opening the
    same file at once apply every migration exactly once.
    """
    migrations = list(migrations)
    latest = migrations[-1].version if migrations else 0
    target = latest if upto is None else upto
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > latest:
        raise MigrationError(
            f"the database is at schema version {current}, newer than this code ({latest}); "
            "upgrade the bot instead of running an older one on it"
        )
    for migration in migrations:
        if migration.version > target:
            break
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current >= migration.version:
                conn.execute("ROLLBACK")
                continue
            if current != migration.version - 1:
                raise MigrationError(f"cannot apply {migration.name} on version {current}")
            for statement in migration.statements:
                if isinstance(statement, Step):
                    run_sqlite(conn, statement)
                else:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {migration.version:d}")
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
            raise
    return conn.execute("PRAGMA user_version").fetchone()[0]


class Database:
    """The two connections, the writer lock and the clock; shared by the store's modules."""

    dialect = "sqlite"

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 clock: Clock, path: str, temp_dir: str | None) -> None:
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._trips: list[tuple[Callable[[Any], Awaitable[Any]], asyncio.Future[Any]]] = []
        self._tripping: asyncio.Task[None] | None = None
        self._temp_dir = temp_dir
        self.clock = clock
        self.path = path
        self.health = Health(path)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        clock: Clock = time.time,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 10_000,
    ) -> Database:
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise MigrationError(
                f"SQLite {sqlite3.sqlite_version} is too old; {'.'.join(map(str, MIN_SQLITE))}+ needed"
            )
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        path = os.fspath(path)
        migrations = load_migrations(migrations_dir)
        temp_dir = None
        if path == ":memory:":
            # A private temporary file instead: WAL and a separate reader need a real file.
            temp_dir = tempfile.mkdtemp(prefix="hanafuda-store-")
            path = os.path.join(temp_dir, "store.sqlite3")
        else:
            check_sqlite_path(path)
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            await asyncio.to_thread(migrate_file, path, migrations, busy_timeout_ms)
            writer = await _connect(path, busy_timeout_ms, synchronous)
            try:
                reader = await _connect(path, busy_timeout_ms, synchronous)
                await reader.execute("PRAGMA query_only = ON")
            except BaseException:
                await writer.close()
                raise
        except BaseException as exc:
            if temp_dir:
                shutil.rmtree(temp_dir, ignore_errors=True)
            error = unavailable(exc.__cause__ if isinstance(exc, MigrationError) else exc)
            if error is not None:
                Health(path).failed("open", error)
                raise error from exc
            raise
        return cls(writer, reader, clock, path, temp_dir)

    async def close(self) -> None:
        while self._tripping is not None and not self._tripping.done():  # writes already asked for
            await asyncio.shield(self._tripping)
        async with self._write_lock:
            await self._reader.close()
            await self._writer.close()
        if self._temp_dir:
            shutil.rmtree(self._temp_dir, ignore_errors=True)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: the lock, ``BEGIN IMMEDIATE``, then COMMIT or ROLLBACK.

        COMMIT and ROLLBACK are shielded: a cancelled caller cannot leave the connection inside
        a transaction, and the worker thread runs them before any later BEGIN (FIFO queue). A
        failed COMMIT (disk full, I/O error) is rolled back too, so nothing of it stays. SQLite
        errors that mean the database is unusable leave as :class:`StoreUnavailable`.
        """
        async with self._write_lock:
            conn = self._writer
            try:  # BEGIN inside: a cancelled BEGIN still runs in the worker, so roll it back
                await conn.execute("BEGIN IMMEDIATE")
                yield conn
                await asyncio.shield(conn.execute("COMMIT"))
            except BaseException as exc:
                await asyncio.shield(_rollback(conn))
                self._raise_unavailable("write", exc)
                raise
            self.health.succeeded("write")

    async def transact(self, work: Callable[[aiosqlite.Connection], Awaitable[T]], *,
                       concurrent: bool = False, one_trip: bool = False) -> T:
        """``work`` in one write transaction (see :meth:`write`); the store's writes all come
        this way, which PostgreSQL's backend retries when a concurrent writer conflicts.
        ``concurrent`` marks work that is correct beside other such work (PostgreSQL runs it
        so); SQLite's one writer runs everything one at a time.

        ``one_trip``: the whole transaction runs in the writer's thread at once, for work that
        awaits nothing but its connection (a move, a game's start and end: the hot writes).
        Each statement of the usual way is a trip to that thread and back through the event
        loop, under the write lock: on a busy loop the trips, not SQLite, were what writers
        queued behind. One-trip writes that come while one is running go together in the next
        trip, each still its own transaction, committed before its caller goes on."""
        if not one_trip:
            async with self.write() as conn:
                return await work(conn)
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        done.add_done_callback(lambda f: f.cancelled() or f.exception())  # read, if no one waits
        self._trips.append((work, done))
        if self._tripping is None or self._tripping.done():
            self._tripping = asyncio.create_task(self._trip(), name="one-trip writes")
        try:  # a cancelled caller leaves the transaction to finish (or undo) in the thread
            result = await asyncio.shield(done)
        except BaseException as exc:
            self._raise_unavailable("write", exc)
            raise
        self.health.succeeded("write")
        return result

    async def _trip(self) -> None:
        """Run the one-trip writes waiting, as many as are there, in one call to the writer's
        thread under the write lock; again while more came meanwhile."""
        while self._trips:
            batch, self._trips = self._trips, []
            raw = self._writer._connection  # aiosqlite's own: used only in its thread, below
            try:
                async with self._write_lock:
                    outcomes = await self._writer._execute(_run_each, raw, [work for work, _ in batch])
            except BaseException as exc:  # the thread itself could not be reached (closed)
                outcomes = [(False, exc)] * len(batch)
            for (_, done), (ok, value) in zip(batch, outcomes, strict=True):
                if not done.done():
                    done.set_result(value) if ok else done.set_exception(value)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """Several reads that must agree with each other (one read transaction)."""
        async with self._read_lock:
            conn = self._reader
            try:
                await conn.execute("BEGIN")
                yield conn
            except Exception as exc:
                self._raise_unavailable("read", exc)
                raise
            finally:
                await asyncio.shield(_rollback(conn))
            self.health.succeeded("read")

    async def fetchall(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        async with self._read_lock:
            try:
                rows = list(await self._reader.execute_fetchall(sql, params))
            except Exception as exc:
                self._raise_unavailable("read", exc)
                raise
        self.health.succeeded("read")
        return rows

    async def fetchone(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    def _raise_unavailable(self, kind: str, exc: BaseException) -> None:
        """Raise :class:`StoreUnavailable` in place of an error about the database itself."""
        error = unavailable(exc)
        if error is not None:
            self.health.failed(kind, error)
            raise error from exc


def migrate_file(path: str, migrations: list[Migration], busy_timeout_ms: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
    try:
        # WAL first (it persists in the file): switching needs a lock SQLite does not wait for
        # through the busy timeout, so several openers at once retry until the deadline.
        deadline = time.monotonic() + busy_timeout_ms / 1000
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        apply_migrations(conn, migrations)
    finally:
        conn.close()


class _InThread:
    """A connection shaped as aiosqlite's whose calls run at once on the raw connection: work
    written for the store's async connections, run inside the writer's thread
    (:meth:`Database.transact` with ``one_trip``)."""

    dialect = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    @property
    def in_transaction(self) -> bool:
        return self._raw.in_transaction

    async def execute(self, sql: str, parameters: Any = ()) -> _CursorInThread:
        return _CursorInThread(self._raw.execute(sql, parameters))

    async def executemany(self, sql: str, parameters: Any) -> _CursorInThread:
        return _CursorInThread(self._raw.executemany(sql, parameters))

    async def execute_fetchall(self, sql: str, parameters: Any = ()) -> list[sqlite3.Row]:
        return self._raw.execute(sql, parameters).fetchall()


class _CursorInThread:
    """aiosqlite's cursor, as :class:`_InThread` hands it out."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    async def fetchone(self) -> sqlite3.Row | None:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[sqlite3.Row]:
        return self._cursor.fetchall()


def _run_each(raw: sqlite3.Connection, works: list[Callable[[Any], Awaitable[Any]]]) -> list[tuple[bool, Any]]:
    """Each of ``works`` in a transaction of its own, in the writer's thread: (True, its
    result) once committed, or (False, the error) once undone."""
    outcomes: list[tuple[bool, Any]] = []
    for work in works:
        try:
            raw.execute("BEGIN IMMEDIATE")
            result = _at_once(work(cast(aiosqlite.Connection, _InThread(raw))))
            raw.execute("COMMIT")
            outcomes.append((True, result))
        except BaseException as exc:  # this one's error: the others' outcomes stand
            if raw.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    raw.execute("ROLLBACK")
            outcomes.append((False, exc))
    return outcomes


def _at_once(work: Awaitable[T]) -> T:
    """The result of ``work``, which must finish without waiting (its connection is
    :class:`_InThread`): driven by hand, as no event loop runs in the writer's thread."""
    step = work.__await__()
    try:
        next(step)
    except StopIteration as done:
        return done.value
    step.close()
    raise RuntimeError("work run in one trip waited for something other than its connection")


async def _rollback(conn: aiosqlite.Connection) -> None:
    # No transaction may be open (BEGIN itself failed, or SQLite already rolled back), and a
    # broken database may refuse even this, or a closed one (aiosqlite's ValueError): the error
    # that led here is the one to report.
    with contextlib.suppress(sqlite3.Error, ValueError):
        await conn.execute("ROLLBACK")


async def _connect(path: str, busy_timeout_ms: int, synchronous: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await conn.close()
        raise
    return conn
