"""Store benchmark: durable transfers per second and the time to settle a 4-player staked game,
on SQLite (WAL, synchronous=NORMAL) or on PostgreSQL (``--database-url``: a server the bench may
create databases on; each run gets a fresh database, dropped afterwards). Medians over the runs.

    python -m bot.bench store [--runs 5] [--transfers 2000] [--tasks 8] [--synchronous NORMAL]
                              [--database-url postgresql://user@host/postgres]
                              [--loop uvloop|asyncio]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from bot import eventloop
from bot.cliargs import at_least_one
from bot.store import SeatResult, Store
from bot.store.postgres import display_url
from bot.store.target import operating_on, parse_target

GUILD = 1
USERS = list(range(1000, 1050))


async def _transfers(path: str, count: int, tasks: int, synchronous: str) -> float:
    """Random user-to-user transfers from ``tasks`` concurrent tasks; returns transfers/s."""
    async with await Store.open(path, synchronous=synchronous) as store:
        for user in USERS:
            await store.open_account(GUILD, user)
        rng = random.Random(7)
        plan = [(rng.sample(USERS, 2), rng.randint(1, 5)) for _ in range(count)]

        async def worker(part: int) -> None:
            for i in range(part, count, tasks):
                (a, b), amount = plan[i]
                await store.transfer(GUILD, a, b, amount, key=f"bench-{i}", reason="bench")

        start = time.perf_counter()
        await asyncio.gather(*(worker(p) for p in range(tasks)))
        elapsed = time.perf_counter() - start
        report = await store.audit()
        if not report.ok:
            raise SystemExit(f"ledger invariant broken: {report.problems}")
        return count / elapsed


async def _settlements(path: str, games: int, synchronous: str) -> list[float]:
    """Seconds for each finish_game of a 4-player game with a stake (results, ratings, payouts)."""
    times = []
    async with await Store.open(path, synchronous=synchronous) as store:
        players = USERS[:4]
        for user in players:
            await store.open_account(GUILD, user)
        for n in range(games):
            game = await store.create_game(
                GUILD, 2, "hana_awase", rules={}, players=players, seed=n, state_json="{}",
                state_version=1, stake=10,
            )
            results = [SeatResult(s, 10 - s, "won" if s == n % 4 else "lost") for s in range(4)]
            deltas = {s: (30 if s == n % 4 else -10) for s in range(4)}
            start = time.perf_counter()
            await store.finish_game(game.game_id, results, chip_deltas=deltas)
            times.append(time.perf_counter() - start)
    return times


@contextlib.contextmanager
def _databases(server_url: str | None, folder: Path) -> Iterator[Callable[[], str]]:
    """A maker of fresh databases: SQLite files in ``folder``, or PostgreSQL databases created
    on ``server_url`` (all dropped at the end)."""
    made: list[str] = []

    def fresh() -> str:
        name = f"hanafuda_bench_{os.getpid()}_{len(made)}"
        if server_url is None:
            made.append(name)
            return str(folder / f"{name}.sqlite3")
        with operating_on(server_url), psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        made.append(name)  # only what was created is dropped at the end
        parts = urlsplit(server_url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    try:
        yield fresh
    finally:
        if server_url is not None and made:  # a server never reached is not asked again
            with psycopg.connect(server_url, autocommit=True) as conn:
                for name in made:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench store", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=at_least_one, default=5, help="runs of each measurement (5)")
    parser.add_argument("--transfers", type=int, default=2000, help="transfers per run (2000)")
    parser.add_argument("--tasks", type=int, default=8, help="concurrent tasks sending transfers")
    parser.add_argument("--games", type=at_least_one, default=20, help="settlements timed per run")
    parser.add_argument("--synchronous", default="NORMAL", choices=["NORMAL", "FULL"],
                        help="SQLite's durability (PostgreSQL commits durably as configured)")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server to measure instead of SQLite; the bench creates "
                             "(and drops) a database per run, so the role needs CREATEDB")
    parser.add_argument("--loop", choices=eventloop.LOOPS, default=eventloop.default(),
                        help="the event loop (default: the bot's, uvloop where installed)")
    args = parser.parse_args(argv)
    if args.database_url is not None:
        server = parse_target(args.database_url, "--database-url")
        if not server.is_postgres:
            parser.error("--database-url must be a postgresql:// URL of a server the bench may "
                         "create databases on; without it the bench measures SQLite")
        args.database_url = server.location
    run = functools.partial(eventloop.run, loop=args.loop)

    serial, concurrent, settle = [], [], []
    with tempfile.TemporaryDirectory(prefix="hanafuda-bench-") as tmp, \
            _databases(args.database_url, Path(tmp)) as fresh:
        for _run in range(args.runs):
            serial.append(run(_transfers(fresh(), args.transfers, 1, args.synchronous)))
            concurrent.append(run(_transfers(fresh(), args.transfers, args.tasks,
                                             args.synchronous)))
            settle.append(statistics.median(
                run(_settlements(fresh(), args.games, args.synchronous))))
    where = (f"PostgreSQL ({display_url(args.database_url)})" if args.database_url
             else f"SQLite, WAL, synchronous={args.synchronous}")
    print(f"store benchmark: {where}, {args.loop} loop, {args.runs} runs, "
          f"{args.transfers} transfers per run")
    print(f"  transfers/s, 1 task:          median {statistics.median(serial):8.0f}  "
          f"(min {min(serial):.0f}, max {max(serial):.0f})")
    print(f"  transfers/s, {args.tasks} tasks:         median {statistics.median(concurrent):8.0f}  "
          f"(min {min(concurrent):.0f}, max {max(concurrent):.0f})")
    print(f"  settle 4-player staked game:  median {statistics.median(settle) * 1000:8.2f} ms  "
          f"(min {min(settle) * 1000:.2f}, max {max(settle) * 1000:.2f})")
