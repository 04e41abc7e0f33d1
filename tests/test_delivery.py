"""Delivery mechanics of table updates: latest state wins per message, order per table, and a
client-side share of Discord's global rate limit."""

from __future__ import annotations

import asyncio

import pytest

from cogs.delivery import Coalescer, RestBudget, Sequencer

pytestmark = pytest.mark.asyncio


async def test_marks_during_a_running_job_run_the_latest_job_once_more():
    coalescer = Coalescer()
    release = asyncio.Event()
    started = asyncio.Event()
    ran: list[str] = []

    def job(name: str):
        async def run() -> None:
            ran.append(name)
            started.set()
            if name == "first":
                await release.wait()
        return run

    coalescer.mark("table", job("first"))
    await started.wait()
    for name in ("second", "third", "fourth"):  # three states while the first edit is in flight
        coalescer.mark("table", job(name))
    release.set()
    await coalescer.drain()
    assert ran == ["first", "fourth"]  # one more edit, with the latest state


async def test_a_failing_job_does_not_stop_later_updates():
    coalescer = Coalescer()
    ran: list[int] = []

    async def boom() -> None:
        raise RuntimeError("Discord said no")

    async def fine() -> None:
        ran.append(1)

    coalescer.mark("hand", boom)
    await coalescer.drain()
    coalescer.mark("hand", fine)
    await coalescer.drain()
    assert ran == [1]


async def test_posts_of_a_table_keep_their_order():
    sequencer = Sequencer()
    gates = [asyncio.Event() for _ in range(3)]
    done: list[int] = []

    def post(i: int):
        async def run() -> None:
            await gates[i].wait()
            done.append(i)
        return run

    for i in range(3):
        sequencer.queue("table", post(i))
    for gate in reversed(gates):  # released in reverse, delivered in order all the same
        gate.set()
    await sequencer.drain()
    assert done == [0, 1, 2]


async def test_the_budget_spreads_requests_at_its_rate():
    now = [0.0]
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:  # a controllable clock: no wall-clock waiting
        slept.append(seconds)
        now[0] += seconds

    budget = RestBudget(rate=50.0, burst=50, clock=lambda: now[0], sleep=fake_sleep)
    for _ in range(150):
        await budget.acquire()
    # 50 at once (the burst), then one every 1/50 s: 100 more take two seconds.
    assert now[0] == pytest.approx(2.0)
    assert budget.waited == 100
    assert max(slept) <= 1 / 50 + 1e-9
