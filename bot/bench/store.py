"""Store benchmark: transfers per second with durability on (WAL, synchronous=NORMAL) and the time
to settle a 4-player staked game. Each run uses a fresh database file; medians over the runs.

    python -m bot.bench store [--runs 5] [--transfers 2000] [--tasks 8] [--synchronous NORMAL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import SeatResult, Store

GUILD = 1
USERS = list(range(1000, 1050))


async def _transfers(path: Path, count: int, tasks: int, synchronous: str) -> float:
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


async def _settlements(path: Path, games: int, synchronous: str) -> list[float]:
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


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench store", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--transfers", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=8, help="concurrent tasks sending transfers")
    parser.add_argument("--games", type=int, default=20, help="settlements timed per run")
    parser.add_argument("--synchronous", default="NORMAL", choices=["NORMAL", "FULL"])
    args = parser.parse_args(argv)

    serial, concurrent, settle = [], [], []
    with tempfile.TemporaryDirectory(prefix="hanafuda-bench-") as tmp:
        for run in range(args.runs):
            base = Path(tmp) / f"run{run}"
            serial.append(asyncio.run(_transfers(base.with_suffix(".s.db"), args.transfers, 1,
                                                 args.synchronous)))
            concurrent.append(asyncio.run(_transfers(base.with_suffix(".c.db"), args.transfers,
                                                     args.tasks, args.synchronous)))
            settle.append(statistics.median(
                asyncio.run(_settlements(base.with_suffix(".g.db"), args.games, args.synchronous))
            ))
    print(f"store benchmark: WAL, synchronous={args.synchronous}, {args.runs} runs, "
          f"{args.transfers} transfers per run")
    print(f"  transfers/s, 1 task:          median {statistics.median(serial):8.0f}  "
          f"(min {min(serial):.0f}, max {max(serial):.0f})")
    print(f"  transfers/s, {args.tasks} tasks:         median {statistics.median(concurrent):8.0f}  "
          f"(min {min(concurrent):.0f}, max {max(concurrent):.0f})")
    print(f"  settle 4-player staked game:  median {statistics.median(settle) * 1000:8.2f} ms  "
          f"(min {min(settle) * 1000:.2f}, max {max(settle) * 1000:.2f})")
