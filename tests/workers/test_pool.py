"""The worker pool: jobs in other, warm processes; a dead worker replaced; a clean close."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal

import pytest

from bot.workers import PoolClosed, WorkerCrashed, WorkerPool

from . import jobs


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
async def pool():
    pool = WorkerPool("test", 2, initializer=jobs.warm_up)
    await pool.start()
    yield pool
    await pool.close()


async def test_jobs_run_in_other_processes_that_were_warmed_up(pool):
    pids = pool.pids()
    assert len(pids) == 2 and os.getpid() not in pids
    answers = await asyncio.gather(*(pool.run(jobs.warmed_pid) for _ in range(6)))
    for warmed, worker in answers:
        assert warmed == worker and worker in pids  # the initializer ran in that very worker
    assert await pool.run(jobs.add, 2, 3) == 5
    assert pool.completed == 7


async def test_a_job_exception_comes_back_and_the_worker_stays(pool):
    before = pool.pids()
    with pytest.raises(ValueError, match="bad view"):
        await pool.run(jobs.fail, "bad view")
    assert pool.pids() == before
    assert await pool.run(jobs.add, 1, 1) == 2


async def test_a_worker_killed_while_idle_is_replaced_and_the_call_answers():
    pool = WorkerPool("test", 1, initializer=jobs.warm_up)
    await pool.start()
    try:
        (old,) = pool.pids()
        os.kill(old, signal.SIGKILL)
        warmed, worker = await pool.run(jobs.warmed_pid)
        assert worker != old and warmed == worker and pool.pids() == [worker]
        assert not alive(old)
    finally:
        await pool.close()


async def test_a_worker_killed_during_a_call_is_replaced_and_the_call_is_retried():
    pool = WorkerPool("test", 1, initializer=jobs.warm_up)
    await pool.start()
    with multiprocessing.Manager() as manager:
        started, release = manager.Event(), manager.Event()
        try:
            (old,) = pool.pids()
            call = asyncio.create_task(pool.run(jobs.hang_the_first_time, started, release))
            await asyncio.to_thread(started.wait)  # the job is running in the worker now
            os.kill(old, signal.SIGKILL)
            answer = await call
            assert answer != old and pool.pids() == [answer]
        finally:
            release.set()
            await pool.close()


async def test_a_job_that_kills_two_workers_raises_and_the_pool_recovers(pool):
    with pytest.raises(WorkerCrashed, match="die killed two workers"):
        await pool.run(jobs.die)
    assert len(pool.pids()) == 2
    assert await asyncio.gather(pool.run(jobs.add, 1, 2), pool.run(jobs.add, 3, 4)) == [3, 7]


async def test_close_leaves_no_child_process():
    pool = WorkerPool("test", 2, initializer=jobs.warm_up)
    await pool.start()
    pids = pool.pids()
    assert all(alive(p) for p in pids)
    await pool.run(jobs.pid)
    await pool.close()
    assert not any(alive(p) for p in pids)
    assert not {c.pid for c in multiprocessing.active_children()} & set(pids)
    with pytest.raises(PoolClosed):
        await pool.run(jobs.pid)


async def test_a_failing_initializer_fails_start_clearly():
    pool = WorkerPool("test", 1, initializer=jobs.broken_initializer)
    with pytest.raises(RuntimeError, match="failed to start"):
        await pool.start()
    assert pool.pids() == []


def test_a_pool_needs_a_process():
    with pytest.raises(ValueError):
        WorkerPool("test", 0)


@contextlib.asynccontextmanager
async def one_busy_worker():
    """A pool of one worker, busy with a call whose job waits for ``release``: the pool, that
    call and ``release``."""
    pool = WorkerPool("test", 1)
    await pool.start()
    with multiprocessing.Manager() as manager:
        started, release = manager.Event(), manager.Event()
        try:
            call = asyncio.create_task(pool.run(jobs.wait_then_pid, started, release))
            await asyncio.to_thread(started.wait)
            yield pool, call, release
        finally:
            release.set()
            await pool.close()


async def until(condition) -> None:
    while not condition():
        await asyncio.sleep(0)  # one turn of the loop for the calls to reach their wait, no pause


async def test_a_cancelled_call_frees_its_worker_once_the_job_is_over():
    async with one_busy_worker() as (pool, call, release):
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        following = asyncio.create_task(pool.run(jobs.pid))  # queues for the busy worker
        release.set()
        assert await following == pool.pids()[0]


async def test_the_pool_counts_the_calls_waiting_for_a_worker():
    async with one_busy_worker() as (pool, running, release):
        assert pool.waiting == 0  # the call under way has its worker
        queued = [asyncio.create_task(pool.run(jobs.pid)) for _ in range(3)]
        await until(lambda: pool.waiting == 3)
        queued[0].cancel()  # a call given up no longer waits
        await until(lambda: pool.waiting == 2)
        release.set()
        await running
        assert await asyncio.gather(*queued[1:]) == pool.pids() * 2
        assert pool.waiting == 0


async def test_calls_waiting_for_a_worker_fail_clearly_when_the_pool_closes():
    async with one_busy_worker() as (pool, running, release):
        waiting = [asyncio.create_task(pool.run(jobs.pid)) for _ in range(2)]
        closing = asyncio.create_task(pool.close())
        for call in waiting:
            with pytest.raises(PoolClosed, match="closed while the call waited"):
                await call
        release.set()
        assert await running > 0  # the job under way still answers
        await closing


async def test_workers_run_at_a_lower_cpu_priority_than_the_bot():
    pool = WorkerPool("test", 1, initializer=jobs.warm_up, niceness=5)
    await pool.start()
    try:
        assert await pool.run(jobs.niceness) == min(19, os.nice(0) + 5)
        warmed, worker = await pool.run(jobs.warmed_pid)
        assert warmed == worker  # the initializer still ran there
    finally:
        await pool.close()


def test_niceness_is_within_unix_bounds():
    with pytest.raises(ValueError, match="niceness is 0"):
        WorkerPool("test", 1, niceness=20)


def test_workers_end_with_a_bot_that_was_killed(tmp_path):
    """SIGKILL gives the bot no chance to close its pool: the workers notice and end on their own
    (orphans would hold memory, and the bot's inherited files, for ever)."""
    import select
    import subprocess
    import sys

    bot = subprocess.Popen([sys.executable, "-m", "tests.workers.jobs"], stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in bot.stdout.readline().split()]  # printed once the pool is warm
        assert len(pids) == 2 and all(alive(p) for p in pids)
        watches = [os.pidfd_open(p) for p in pids]  # readable once that process has ended
    finally:
        bot.kill()
        bot.wait()
    try:
        for watch in watches:
            ended, _, _ = select.select([watch], [], [], 60)
            assert ended, "a worker outlived its killed bot"
    finally:
        for watch in watches:
            os.close(watch)
