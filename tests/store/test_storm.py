"""Concurrency storm and crash safety: afterwards every ledger invariant must hold."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import EVERY_SERVER, Store

from ._storm import FakeClock, Tally, check_invariants, open_all, plain_connection, storm_task

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow(seconds=45)
async def test_concurrency_storm_keeps_every_invariant(database):
    path = str(database)
    clock = FakeClock()
    # Two stores on one database: tasks race inside each process-like store and across them.
    first = await Store.open(path, clock=clock)
    second = await Store.open(path, clock=clock)
    try:
        await open_all(first)
        tally = Tally()
        await asyncio.gather(*(
            storm_task(first if i % 2 else second, random.Random(i), 80, tally, clock)
            for i in range(36)
        ))
        report = await first.audit()
        assert report.ok, report.problems
        assert report.total == 0
        assert len(tally.committed) > 1000
        assert tally.refused.get("InsufficientFunds", 0) > 0  # the storm did push balances to 0
        assert len(tally.games) > 100
    finally:
        await first.close()
        await second.close()
    counts = check_invariants(path)
    # every committed transfer id is distinct and present
    assert len({t for t, _ in tally.committed}) == len(tally.committed)
    assert counts["transfers"] >= len(tally.committed)


def _run_child(path: str, seed: int, kill_after: int) -> list[str]:
    """Start a writer process storming ``path``; SIGKILL it after ``kill_after`` committed ops."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store._storm", str(path), str(seed), "100000", "12"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ERROR"):
                raise AssertionError(line)
            if line[0] in "TG":
                lines.append(line.split())
                if len(lines) >= kill_after:
                    break
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL, "the writer ended before it was killed"
    return lines


async def test_sigkilled_writer_leaves_a_sound_ledger(database):
    path = str(database)
    rng = random.Random(2024)
    for round_no in range(3):
        committed = _run_child(path, seed=round_no, kill_after=rng.randint(150, 400))
        check_invariants(path)
        ids = {int(t): int(a) for kind, t, a in committed if kind == "T"}
        with plain_connection(path) as q:
            rows = q(f"SELECT transfer_id, amount FROM transfers WHERE transfer_id IN "
                     f"({','.join(map(str, ids))})")
        assert dict(rows) == ids, "a transfer reported as committed was lost"
        async with await Store.open(path) as store:  # reopening recovers the WAL (SQLite)
            report = await store.audit()
            assert report.ok, report.problems
            for kind, game_id, status in committed:
                if kind == "G":
                    assert (await store.load_game(int(game_id), scope=EVERY_SERVER)).status == status


async def test_cancelled_requests_leave_no_half_transfer(database):
    """Discord handlers get cancelled (timeouts, shutdown): a cancelled call commits wholly or
    not at all, and the store keeps working."""
    async with await Store.open(database, clock=FakeClock()) as store:
        await open_all(store)
        rng = random.Random(5)
        for round_no in range(30):
            tally = Tally()
            tasks = [asyncio.create_task(storm_task(store, random.Random(round_no * 50 + i), 20,
                                                    tally, None)) for i in range(8)]
            await asyncio.sleep(rng.uniform(0, 0.02))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        report = await store.audit()
        assert report.ok, report.problems
        t = await store.grant(111, 5001, 1, key="after-cancel", actor=1, reason="still usable")
        assert not t.replayed
    check_invariants(str(database))
