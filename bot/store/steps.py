"""Python steps inside a migration, for work SQL cannot do (rating every stored game again).

A migration file names a step on a line of its own, ``-- step: NAME``, between its statements;
the step runs there, in the migration's transaction. A step is a generator of requests, so one
step serves both databases: it yields a :class:`Fetch` and receives its rows, or yields an
:class:`ExecuteMany`; the SQLite and the PostgreSQL runner each carry the requests out. The SQL
of a request is written as the store writes it (SQLite's dialect, ``?`` placeholders).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ExecuteMany", "Fetch", "Step", "StepRequest"]


@dataclass(frozen=True, slots=True)
class Fetch:
    """Run ``sql`` and send its rows (tuples) back to the step."""

    sql: str
    params: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class ExecuteMany:
    """Run ``sql`` once for each parameter tuple in ``rows``."""

    sql: str
    rows: Sequence[tuple[Any, ...]] = field(default_factory=lambda: [()])


StepRequest = Fetch | ExecuteMany


@dataclass(frozen=True, slots=True)
class Step:
    """A named step of a migration; ``run()`` starts its generator of requests."""

    name: str
    run: Callable[[], Generator[StepRequest, Any, None]]


def run_sqlite(conn: Any, step: Step) -> None:
    """Carry ``step`` out on a :class:`sqlite3.Connection` (inside the migration's transaction)."""
    work = step.run()
    reply = None
    while True:
        try:
            request = work.send(reply)
        except StopIteration:
            return
        if isinstance(request, Fetch):
            reply = [tuple(row) for row in conn.execute(request.sql, request.params).fetchall()]
        else:
            conn.executemany(request.sql, request.rows)
            reply = None


async def run_postgresql(conn: Any, step: Step, bound: Callable[[str, Any], tuple[str, Any]]) -> None:
    """Carry ``step`` out on a psycopg connection; ``bound`` turns the store's placeholders into
    psycopg's."""
    work = step.run()
    reply = None
    while True:
        try:
            request = work.send(reply)
        except StopIteration:
            return
        async with conn.cursor() as cur:
            if isinstance(request, Fetch):
                await cur.execute(*bound(request.sql, request.params))
                reply = [tuple(row) for row in await cur.fetchall()]
            else:
                sql = bound(request.sql, request.rows[0] if request.rows else ())[0]
                await cur.executemany(sql, [bound(request.sql, row)[1] for row in request.rows])
                reply = None
