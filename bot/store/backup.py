"""Backups while the bot runs, and restoring one into an empty database.

SQLite: SQLite's own backup API copies the file page by page inside one read transaction, so the
copy is the database as of one moment; under WAL that reader never blocks the bot's writer, which
goes on committing meanwhile. The copy is written beside its destination and renamed into place
once complete and checked, so a backup file is never half-written. PostgreSQL: ``pg_dump`` in its
custom format (one consistent snapshot too), and ``pg_restore`` to bring it back.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from . import postgres
from .db import database_target, load_migrations
from .errors import StoreError
from .schema import migrate_database
from .target import operating_on, unusable_message

__all__ = ["BackupError", "Backup", "backup_database", "restore_database", "backup_sqlite",
           "scheduled_name", "prune_backups"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_PGDUMP_MAGIC = b"PGDMP"
SCHEDULED_PREFIX = "hanafuda-"


class BackupError(StoreError):
    """A backup or restore cannot be made; the message says what to do instead."""


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    kind: str  # "sqlite" or "pg_dump"

    def summary(self) -> str:
        what = "SQLite copy" if self.kind == "sqlite" else "pg_dump archive (custom format)"
        return f"backed up to {self.path} ({self.size:,} bytes, {what})"


def backup_sqlite(source: str, destination: Path) -> Backup:
    """Copy the SQLite database ``source`` to ``destination`` as of one moment (blocking: run
    it in a thread); ``destination`` must not exist."""
    if not Path(source).is_file():
        raise BackupError(f"there is no SQLite database at {source}: give the path of the bot's "
                          "database file")
    _check_destination(destination)
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        src.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        src.close()
        raise BackupError(unusable_message(exc, source) or str(exc)) from None
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # every page in one step: one read transaction, one moment
            problems = dst.execute("PRAGMA quick_check").fetchall()
            if problems != [("ok",)]:
                raise BackupError(f"the copy does not check out: {problems[:3]}")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, destination)
    return Backup(destination, destination.stat().st_size, "sqlite")


def _check_destination(destination: Path) -> None:
    """Refuse a backup file that exists, or whose folder does not: a mistyped folder is never
    created in passing (the scheduled backups create theirs)."""
    if destination.exists():
        raise BackupError(f"{destination} exists already; give a new file name")
    folder = destination.parent
    if folder.exists() and not folder.is_dir():
        raise BackupError(f"{folder} is a file, not a folder: give a backup path in an existing "
                          "folder")
    if not folder.is_dir():
        raise BackupError(f"the folder {folder} does not exist: create it, or give a backup path "
                          "in an existing folder")


def _pg_command(program: str, url: str) -> tuple[str, str, dict[str, str]]:
    """The program's path, the connection string without its password, and an environment
    carrying the password (kept off the command line, where other users could read it)."""
    found = shutil.which(program)
    if found is None:
        raise BackupError(
            f"{program} is not on the PATH: install PostgreSQL's client tools (the same major "
            f"version as the server) and run this again, or run `{program}` yourself where they are")
    params = conninfo_to_dict(url)
    env = dict(os.environ)
    password = params.pop("password", None)
    if password is not None:
        env["PGPASSWORD"] = str(password)
    return found, make_conninfo(**params), env


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-500:]}")


def _pg_dump(url: str, destination: Path) -> Backup:
    program, conninfo, env = _pg_command("pg_dump", url)
    _check_destination(destination)
    partial = destination.with_name(destination.name + ".partial")
    try:
        _run([program, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={conninfo}"], env)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, destination)
    return Backup(destination, destination.stat().st_size, "pg_dump")


async def backup_database(target: str | None, destination: str | os.PathLike[str]) -> Backup:
    """Back up the database at ``target`` (default: the bot's) into the file ``destination``."""
    target = database_target(target)
    destination = Path(destination)
    with operating_on(target):
        if postgres.is_postgres_url(target):
            return await asyncio.to_thread(_pg_dump, target, destination)
        return await asyncio.to_thread(backup_sqlite, target, destination)


def _kind_of(path: Path) -> str:
    if not path.is_file():
        raise BackupError(f"there is no backup at {path}: give the path of a file that "
                          "`python -m bot db backup` wrote")
    with path.open("rb") as file:
        head = file.read(16)
    if head.startswith(_SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(_PGDUMP_MAGIC):
        return "pg_dump"
    raise BackupError(f"{path} is neither an SQLite database nor a pg_dump archive: give the path "
                      "of a file that `python -m bot db backup` wrote")


def _sqlite_tables(path: str) -> int:
    if not Path(path).exists() or Path(path).stat().st_size == 0:
        return 0
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise BackupError(f"{path} is a file but not an SQLite database: restore into a new "
                          "file") from None


def _sqlite_version(path: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} cannot be read as an SQLite database: {exc}") from None


def _restore_sqlite(source: Path, target: str) -> None:
    if tables := _sqlite_tables(target):
        raise BackupError(f"the database at {target} is not empty ({tables} tables): restore "
                          "into a new file, never over a database")
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


async def _pg_tables(url: str) -> int:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        row = await (await conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
        )).fetchone()
        return int(row[0])


async def restore_database(source: str | os.PathLike[str], target: str | None) -> int:
    """Restore the backup file ``source`` into the empty database ``target`` (an SQLite file
    that does not exist yet or holds no table, or an empty PostgreSQL database), then bring it
    to the latest schema; the schema version it was backed up at."""
    source = Path(source)
    target = database_target(target)
    kind = _kind_of(source)
    latest = load_migrations()[-1].version
    with operating_on(target):
        version = await _restore_into(source, kind, target, latest)
    await migrate_database(target)
    return version


async def _restore_into(source: Path, kind: str, target: str, latest: int) -> int:
    """Restore ``source`` (``kind``: "sqlite" or "pg_dump") into ``target``; its schema version."""
    if postgres.is_postgres_url(target):
        if kind == "sqlite":
            raise BackupError("this backup is an SQLite file: move it to PostgreSQL with "
                              f"`python -m bot db copy --from {source} --to URL`")
        program, conninfo, env = _pg_command("pg_restore", target)
        if tables := await _pg_tables(target):
            raise BackupError(f"the database at {postgres.display_url(target)} is not empty "
                              f"({tables} tables): restore into a new, empty database")
        await asyncio.to_thread(_run, [program, "--no-owner", "--exit-on-error", "--single-transaction",
                                       f"--dbname={conninfo}", str(source)], env)
        async with await psycopg.AsyncConnection.connect(target, autocommit=True) as conn:
            version = await postgres.schema_version(conn)
    else:
        if kind == "pg_dump":
            raise BackupError("this backup is a pg_dump archive: restore it into an empty "
                              "PostgreSQL database (give its postgresql:// URL)")
        version = await asyncio.to_thread(_sqlite_version, source)
        if version < 1:
            raise BackupError(f"{source} is an SQLite database but not one of this bot (no "
                              "schema version)")
        if version > latest:
            raise BackupError(f"this backup is at schema version {version}, newer than this code "
                              f"({latest}): restore it with the newer bot")
        await asyncio.to_thread(_restore_sqlite, source, target)
    return version


def scheduled_name(now: datetime, target: str | None = None) -> str:
    """A scheduled backup's file name, sorting by time: ``hanafuda-20270101T030000Z.sqlite3``
    (``.dump`` for a pg_dump archive of the PostgreSQL database ``target``)."""
    suffix = ".dump" if postgres.is_postgres_url(target) else ".sqlite3"
    return f"{SCHEDULED_PREFIX}{now.astimezone(UTC):%Y%m%dT%H%M%SZ}{suffix}"


def prune_backups(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest scheduled backups of ``folder`` beyond the newest ``keep``; those removed."""
    found = sorted(p for p in folder.glob(f"{SCHEDULED_PREFIX}*") if p.is_file()
                   and p.suffix in (".sqlite3", ".dump"))
    old = found[:-keep] if keep > 0 else found
    for path in old:
        path.unlink(missing_ok=True)
    return old
