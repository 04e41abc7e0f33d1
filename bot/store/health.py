"""What to make of the database's failures: which mean "the database is unusable now", and saying so once.

A read-only, full, corrupt, locked or failing database makes every request fail the same way. The
store turns those errors into :class:`~bot.store.errors.StoreUnavailable` (one sentence for users, which the surface writes)
and :class:`Health` logs one line when the trouble starts and one when it is over, instead of a
traceback per request. Any other error is a bug and propagates unchanged. PostgreSQL's failures are
read here too (:func:`postgres_unavailable`), so that an operator's command can name them
without opening the PostgreSQL store.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable

import psycopg
from psycopg import errors as pg_errors

from .errors import StoreUnavailable

__all__ = ["Health", "classify", "postgres_unavailable", "unavailable"]

log = logging.getLogger("bot.store")

# Primary result codes (the low byte of an extended code) and what they mean for the operator.
_PROBLEMS = {
    3: "permission",    # SQLITE_PERM
    5: "locked",        # SQLITE_BUSY: another writer held the lock past the busy timeout
    6: "locked",        # SQLITE_LOCKED
    7: "out of memory",  # SQLITE_NOMEM
    8: "read-only",     # SQLITE_READONLY
    10: "I/O error",    # SQLITE_IOERR
    11: "corrupt",      # SQLITE_CORRUPT
    13: "full",         # SQLITE_FULL
    14: "cannot open",  # SQLITE_CANTOPEN
    15: "locked",       # SQLITE_PROTOCOL
    26: "corrupt",      # SQLITE_NOTADB
}
# For errors raised without a result code (older Pythons, wrappers): SQLite's fixed messages.
_MESSAGES = (
    ("disk i/o error", "I/O error"),
    ("database or disk is full", "full"),
    ("readonly database", "read-only"),
    ("database is locked", "locked"),
    ("database table is locked", "locked"),
    ("file is not a database", "corrupt"),
    ("malformed", "corrupt"),
    ("unable to open database", "cannot open"),
)
_ADVICE = {
    "read-only": "make the file and its directory writable",
    "full": "free disk space",
    "corrupt": "restore the file from a backup and restart the bot",
    "locked": "another process holds the database; stop it",
    "I/O error": "check the disk",
    "cannot open": "check the path and its permissions",
    "permission": "check the file's permissions",
}


def classify(exc: BaseException) -> str | None:
    """The problem an SQLite error reports about the database itself, or None for other errors
    (constraint violations, SQL mistakes), which are the caller's to handle."""
    if not isinstance(exc, sqlite3.DatabaseError) or isinstance(
        exc, sqlite3.IntegrityError | sqlite3.ProgrammingError
    ):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _PROBLEMS:
        return _PROBLEMS[code & 0xFF]
    text = str(exc).lower()
    return next((problem for pattern, problem in _MESSAGES if pattern in text), None)


def unavailable(exc: BaseException) -> StoreUnavailable | None:
    """The :class:`StoreUnavailable` standing for ``exc`` (None if it is not about the database)."""
    problem = classify(exc)
    return None if problem is None else StoreUnavailable(problem, str(exc))


def postgres_unavailable(exc: BaseException) -> StoreUnavailable | None:
    """The :class:`StoreUnavailable` standing for a PostgreSQL failure of the database itself
    (unreachable, out of space, read-only, corrupt); None for a constraint or a bug."""
    if isinstance(exc, pg_errors.DiskFull | pg_errors.InsufficientResources):
        problem = "full"
    elif isinstance(exc, pg_errors.ReadOnlySqlTransaction):
        problem = "read-only"
    elif isinstance(exc, pg_errors.DataCorrupted | pg_errors.IndexCorrupted):
        problem = "corrupt"
    elif isinstance(exc, pg_errors.InsufficientPrivilege):
        problem = "permission"
    elif isinstance(exc, psycopg.OperationalError | pg_errors.AdminShutdown | pg_errors.CannotConnectNow
                    ) and not isinstance(exc, pg_errors.SerializationFailure | pg_errors.DeadlockDetected) or isinstance(exc, asyncio.TimeoutError | TimeoutError) or type(exc).__name__ == "PoolTimeout":
        problem = "unreachable"
    else:
        return None
    return StoreUnavailable(problem, str(exc).strip())


#: Called with (kind, problem) at every request the database could not serve (the metrics count
#: them; the log says it once per episode).
failure_listeners: list[Callable[[str, str], None]] = []


class Health:
    """Tracks which kinds of operation ("read", "write", "open") currently fail, and logs changes.

    One line when the database starts failing (or fails in a new way), one when every kind that
    failed works again; repeated failures in between are silent. Corruption never heals on its
    own while the bot runs, so a query that happens to avoid the damaged pages does not end it.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.failing: dict[str, str] = {}  # kind -> problem

    def failed(self, kind: str, error: StoreUnavailable) -> None:
        for listener in failure_listeners:
            listener(kind, error.problem)
        new = error.problem not in self.failing.values()
        self.failing[kind] = error.problem
        if new:
            advice = _ADVICE.get(error.problem, "check the database")
            log.error("the database %s is unusable (%s: %s); requests that need it are refused "
                      "until it works again: %s", self.path, error.problem, error.detail, advice)

    def succeeded(self, kind: str) -> None:
        problem = self.failing.get(kind)
        if problem is None or problem == "corrupt":
            return
        del self.failing[kind]
        if not self.failing:
            log.warning("the database %s works again (it was %s)", self.path, problem)

    @property
    def ok(self) -> bool:
        return not self.failing
