"""Where a database is, read one way everywhere, and what to tell an operator who cannot open it.

The bot's settings (DATABASE_URL, DATABASE_PATH), every ``python -m bot db`` command, the store
and the benches read a database's location with :func:`parse_target`, so each accepts the same
forms: ``postgresql://`` (or ``postgres://``) URLs, ``sqlite:///relative/path``,
``sqlite:////absolute/path`` and a plain path of an SQLite file. Anything else (``mysql://...``)
is refused with one sentence rather than taken for a file name.

:func:`operating_on` turns an error about reaching or reading a database (no server, a file that
is not an SQLite database, a full disk) into :class:`DatabaseUnusable`, whose message is one
sentence that says what is wrong and what to do, for the operator's commands.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

from .errors import InvalidInput, StoreError, StoreUnavailable
from .health import classify, postgres_unavailable

__all__ = ["FORMS", "DatabaseUnusable", "Target", "TargetError", "display_url", "operating_on",
           "parse_target", "check_sqlite_path", "unusable_message"]

POSTGRES_SCHEMES = ("postgresql", "postgres")
FORMS = ("a postgresql://user:password@host/database URL, sqlite:///relative/path, "
         "sqlite:////absolute/path or the path of an SQLite file")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_SQLITE_FORMS = "write sqlite:///relative/path or sqlite:////absolute/path"
RESTORE_HINT = ("restore a backup into a new file with `python -m bot db restore BACKUP "
                "--database-url NEW_FILE`")


class TargetError(InvalidInput):
    """A database URL or path the bot cannot use; the message names the forms it takes."""


class DatabaseUnusable(StoreError):
    """An operator's command cannot reach or read its database; the message is one sentence
    saying why and what to do."""


def display_url(url: str) -> str:
    """``url`` without its password (for logs and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


@dataclass(frozen=True, slots=True)
class Target:
    """A database: ``kind`` "sqlite" (``location`` is the file's path, or ``:memory:``) or
    "postgresql" (``location`` is the URL, password included)."""

    kind: str
    location: str

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgresql"

    @property
    def shown(self) -> str:
        """The location fit for a message: a URL without its password."""
        return display_url(self.location) if self.is_postgres else self.location


def parse_target(raw: str | os.PathLike[str], source: str = "the database") -> Target:
    """Read a database URL or path; ``source`` (an option or setting's name) begins any refusal.

    A normalised location reads back as itself, so parsing twice is harmless."""
    if isinstance(raw, os.PathLike):
        return Target("sqlite", os.fspath(raw))
    text = raw.strip()
    if not text:
        raise TargetError(f"{source} is empty: give {FORMS}")
    scheme = _SCHEME.match(text)
    if scheme is None:
        return Target("sqlite", os.path.expanduser(text))
    name = scheme.group(1).lower()
    if name in POSTGRES_SCHEMES:
        return _postgres(name + text[len(name):], source)
    if name == "sqlite":
        return Target("sqlite", _sqlite_path(text, source))
    raise TargetError(f"{source} is a {name}:// URL, a database the bot cannot use: give {FORMS}")


def _sqlite_path(url: str, source: str) -> str:
    parts = urlsplit(url)
    if parts.netloc:
        raise TargetError(f"{source} names a host ({parts.netloc}) where an sqlite:// URL has "
                          f"none: {_SQLITE_FORMS}")
    if parts.query or parts.fragment:
        raise TargetError(f"{source} has options after the file's name ('?' or '#'), which an "
                          "sqlite:/// URL does not take: give the file's path alone")
    path = unquote(parts.path[1:])  # the slash that ends "sqlite://" is not part of the path
    if not path:
        raise TargetError(f"{source} names no file: {_SQLITE_FORMS}")
    return path


def _postgres(url: str, source: str) -> Target:
    from psycopg.conninfo import conninfo_to_dict

    try:
        conninfo_to_dict(url)
    except Exception:  # libpq's own reading; its message may quote the password
        raise TargetError(f"{source} is not a PostgreSQL URL libpq can read: write "
                          "postgresql://user:password@host:port/database") from None
    return Target("postgresql", url)


def check_sqlite_path(path: str) -> None:
    """Refuse an SQLite location that is a folder, or lies under a file: SQLite and the folder's
    creation would only say they cannot open or make it."""
    if path == ":memory:":
        return
    if os.path.isdir(path):
        raise DatabaseUnusable(f"{path} is a folder, not an SQLite file: give the path of a file "
                               f"in it, such as {os.path.join(path, 'hanafuda.sqlite3')}")
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise DatabaseUnusable(f"{path} lies under {folder}, which is a file, not a folder: give a "
                               "path in a folder")


# What to do about each problem :func:`bot.store.health.classify` names, on an SQLite file.
_SQLITE_ADVICE = {
    "read-only": "is read-only ({detail}): make the file and its folder writable, then run this again",
    "full": "cannot be written: the disk is full ({detail}); free disk space, then run this again",
    "locked": "is locked by another process ({detail}): stop that process or wait for it, then run "
              "this again",
    "I/O error": "cannot be read or written ({detail}): check the disk, or " + RESTORE_HINT,
    "cannot open": "cannot be opened ({detail}): check the path, and that its folder exists and "
                   "may be written",
    "permission": "may not be opened ({detail}): check the file's permissions",
    "out of memory": "cannot be opened: SQLite ran out of memory ({detail}); free memory, then run "
                     "this again",
    "corrupt": "is a damaged SQLite database ({detail}): " + RESTORE_HINT,
}
_POSTGRES_ADVICE = {
    "unreachable": "cannot connect to the PostgreSQL database {where} ({detail}): check that the "
                   "server runs and the URL's host, port, user, password and database name",
    "full": "the PostgreSQL database {where} is out of space ({detail}): free space on its server, "
            "then run this again",
    "read-only": "the PostgreSQL database {where} is read-only ({detail}): connect to the primary "
                 "server, or grant the role write access",
    "corrupt": "the PostgreSQL database {where} reports damaged data ({detail}): restore a backup "
               "into a new, empty database with `python -m bot db restore`",
    "permission": "the PostgreSQL role may not do this in {where} ({detail}): grant it the "
                  "rights on the database (or connect as its owner)",
}


def _reason(text: str) -> str:
    """The gist of a driver's message: its first line, after the last place it names."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first.rsplit(": ", 1)[-1].strip().rstrip(".") if ": " in first else first.rstrip(".")


def unusable_message(exc: BaseException, location: str) -> str | None:
    """One sentence for an operator about an error reaching or reading the database at
    ``location``; None for an error that is not about the database itself (a bug)."""
    target = parse_target(location)
    if isinstance(exc, DatabaseUnusable):
        return str(exc)
    if isinstance(exc, StoreUnavailable):
        problem, detail = exc.problem, exc.detail
    elif target.is_postgres and _is_postgres_failure(exc):
        found = postgres_unavailable(exc)
        problem, detail = (found.problem, found.detail) if found else (None, "")
        detail = detail or "no answer in time"
    elif isinstance(exc, sqlite3.Error):
        problem, detail = classify(exc), str(exc)
    elif isinstance(exc, OSError) and exc.strerror:
        return (f"{exc.filename or target.shown}: {exc.strerror.lower()}; check the path, and that "
                "its folder exists and may be written")
    else:
        return None
    if problem is None:
        return None
    if target.is_postgres:
        advice = _POSTGRES_ADVICE.get(problem, "the PostgreSQL database {where} failed ({detail}): "
                                               "check the server's log")
        return advice.format(where=target.shown, detail=_reason(detail))
    if problem == "corrupt" and "not a database" in detail:
        return (f"{target.shown} is not an SQLite database (SQLite: {detail}): give the path of "
                f"the bot's database file, or {RESTORE_HINT}")
    return f"{target.shown} " + _SQLITE_ADVICE[problem].format(detail=_reason(detail))


def _is_postgres_failure(exc: BaseException) -> bool:
    import psycopg

    return isinstance(exc, psycopg.Error | TimeoutError) or type(exc).__name__ == "PoolTimeout"


@contextlib.contextmanager
def operating_on(location: str) -> Iterator[None]:
    """Errors about reaching or reading the database at ``location`` leave as
    :class:`DatabaseUnusable` (one sentence); any other error leaves unchanged."""
    try:
        yield
    except Exception as exc:
        message = unusable_message(exc, location)
        if message is None or isinstance(exc, DatabaseUnusable):
            raise
        raise DatabaseUnusable(message) from exc
