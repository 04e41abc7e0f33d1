"""Top-level jobs for the worker-pool tests (they must pickle, so they live in a module)."""

from __future__ import annotations

import os
import signal

WARMED: list[int] = []
"""Filled by :func:`warm_up` in each worker: the proof that the initializer ran there."""


def warm_up() -> None:
    WARMED.append(os.getpid())


def warmed_pid() -> list[int]:
    """The pids recorded by the initializer in this process, and this process's pid."""
    return [*WARMED, os.getpid()]


def pid() -> int:
    return os.getpid()


def add(a: int, b: int) -> int:
    return a + b


def fail(message: str) -> None:
    raise ValueError(message)


def die() -> None:
    """Kill the worker running this job, as a segfault or the OOM killer would."""
    os.kill(os.getpid(), signal.SIGKILL)


def hang_the_first_time(started, release) -> int:
    """The first call signals ``started`` and waits (the test kills its worker meanwhile);
    the retry finds ``started`` set and answers with its pid."""
    if not started.is_set():
        started.set()
        release.wait()
    return os.getpid()


def broken_initializer() -> None:
    raise RuntimeError("cannot warm up")


def wait_then_pid(started, release) -> int:
    started.set()
    release.wait()
    return os.getpid()


def niceness() -> int:
    """This process's CPU niceness (os.nice(0) reads it without changing it)."""
    return os.nice(0)


async def _hold_a_pool() -> None:
    """A stand-in for the bot: a warm pool of two workers, their pids printed, then waiting."""
    import asyncio

    from bot.workers import WorkerPool

    pool = WorkerPool("orphan test", 2, initializer=warm_up)
    await pool.start()
    print(*pool.pids(), flush=True)
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    import asyncio

    asyncio.run(_hold_a_pool())
