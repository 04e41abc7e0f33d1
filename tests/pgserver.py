"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary directory,
reached only through a Unix socket there, stopped at the end of the session.

Found through ``pg_ctl`` on the PATH or Debian's ``/usr/lib/postgresql/*/bin``. Without them the
PostgreSQL tests are skipped and say so; with ``HANAFUDA_REQUIRE_POSTGRES=1`` (CI) a missing
server is a failure. PostgreSQL refuses to run as root: as root, the cluster belongs to the
``postgres`` system user (which Debian's package creates) and is run as that user.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest

REQUIRE_ENV = "HANAFUDA_REQUIRE_POSTGRES"
SUPERUSER = "hanafuda"
_names = itertools.count(1)


def bin_dir() -> Path | None:
    """The directory of PostgreSQL's server programs, or None."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    return next((c for c in candidates if (c / "initdb").exists() and (c / "postgres").exists()), None)


def unavailable(why: str) -> None:
    """Skip (locally) or fail (CI) a test that needs PostgreSQL."""
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV}=1) but {why}")
    pytest.skip(f"PostgreSQL tests skipped: {why} (install the server, e.g. Debian's postgresql)")


class Server:
    """One running cluster; :meth:`new_database` gives each test its own database."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="hf-pg-"))
        self.data = self.root / "data"
        self.user = None
        self._template: str | None = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "--no-sync",
                  "-E", "UTF8", "--locale=C.UTF-8")
        self._start()

    def _start(self) -> None:
        # No fsync: a server killed or stopped at once (as the tests do) still keeps every commit
        # it acknowledged, which the kernel holds; only a machine crash would lose them.
        options = (f"-k {self.root} -c listen_addresses='' -p 5432 -c max_connections=200"
                   " -c fsync=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.root / "log"), "-o", options,
                  "start")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user.pw_name, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.root)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}&port=5432"

    def new_database(self, *, migrated: bool = False) -> str:
        """A new database: empty, or ``migrated`` (a copy of one the project's migrations were
        applied to once, which is what a store's first open makes of an empty one)."""
        name = f"hf_{os.getpid()}_{next(_names)}"
        template = f' TEMPLATE "{self._migrated()}"' if migrated else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{template} STRATEGY FILE_COPY')
        return name

    def _migrated(self) -> str:
        if self._template is None:
            from bot.store.db import load_migrations
            from bot.store.postgres import migrate

            name = "hf_migrated"
            with psycopg.connect(self.url(), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')

            async def apply() -> None:
                async with await psycopg.AsyncConnection.connect(self.url(name), autocommit=True) as conn:
                    await migrate(conn, load_migrations())

            # A thread of its own: a fixture may be set up while a test's event loop runs.
            with concurrent.futures.ThreadPoolExecutor(1) as thread:
                thread.submit(asyncio.run, apply()).result()
            self._template = name
        return self._template

    def drop_database(self, name: str) -> None:
        with contextlib.suppress(psycopg.Error), psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def restart(self) -> None:
        """Stop the server at once (every connection is cut, as in a crash) and start it again."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        self._start()

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


_server: Server | None = None
_failure: str | None = None


def server() -> Server:
    """The session's server, started on first use (skips or fails the test without one)."""
    global _server, _failure
    if _server is None and _failure is None:
        bindir = bin_dir()
        if bindir is None:
            _failure = "no PostgreSQL server programs were found (pg_ctl, initdb)"
        else:
            try:
                _server = Server(bindir)
            except (OSError, KeyError, subprocess.CalledProcessError) as exc:
                detail = getattr(exc, "stderr", b"") or b""
                _failure = f"the test server did not start: {exc} {detail.decode(errors='replace')[-300:]}"
    if _server is None:
        unavailable(_failure or "it did not start")
    return _server


def stop() -> None:
    if _server is not None:
        _server.stop()
