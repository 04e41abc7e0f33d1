"""The stall recorder names what held the loop: tests block the loop on purpose, in a function of
a known name, and release it only once the watchdog has seen the stall (events, not timing)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time

import pytest

from bot.stallwatch import Stall, StallRecorder, _parse

THRESHOLD = 0.05


class Released:
    """Releases the blocked loop from the watchdog thread once the stall is past the threshold
    and sampled at least twice, and hands the finished stall to the test's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.release = threading.Event()
        self.loop = loop
        self.stall: asyncio.Future[Stall] = loop.create_future()
        self.lates = 0

    def on_late(self, late: float) -> None:
        self.lates += 1
        if late > THRESHOLD * 1.5 and self.lates >= 2:
            self.release.set()

    def on_stall(self, stall: Stall) -> None:
        def deliver() -> None:
            if not self.stall.done():
                self.stall.set_result(stall)
        self.loop.call_soon_threadsafe(deliver)


def hold_the_loop_waiting(release: threading.Event) -> None:
    release.wait()


def hold_the_loop_spinning(release: threading.Event) -> None:
    while not release.is_set():
        sum(range(200))


def hold_the_loop_collecting(release: threading.Event) -> None:
    gc.collect()
    release.wait()


async def blocked_by(function, *, keep: int = 20) -> tuple[StallRecorder, Stall]:
    loop = asyncio.get_running_loop()
    hooks = Released(loop)
    recorder = StallRecorder(THRESHOLD, on_stall=hooks.on_stall, on_late=hooks.on_late, keep=keep)
    recorder.start()
    try:
        await asyncio.sleep(0)  # the first heartbeat is scheduled
        loop.call_soon(function, hooks.release)
        stall = await asyncio.wait_for(hooks.stall, 60)
    finally:
        hooks.release.set()
        recorder.stop()
    return recorder, stall


def functions_in(described: dict) -> list[str]:
    return [frame for stack in described["stacks"] for frame in stack["frames"]]


async def test_a_blocked_loop_is_reported_with_the_function_that_held_it():
    recorder, stall = await blocked_by(hold_the_loop_waiting)
    assert stall.lag > THRESHOLD
    described = stall.describe()
    assert described["samples"] >= 2
    assert any("hold_the_loop_waiting" in f for f in functions_in(described))
    assert described["own_frame"].startswith("tests/test_stallwatch.py:")
    # waiting on an event is neither our CPU nor the machine's: the thread was blocked
    assert stall.loop_cpu < stall.wall
    report = recorder.report()
    assert report["count"] >= 1
    assert any("hold_the_loop_waiting" in f for f in functions_in(report["worst"][0]))


async def test_a_spinning_loop_is_reported_as_its_own_cpu():
    recorder, stall = await blocked_by(hold_the_loop_spinning)
    assert any("hold_the_loop_spinning" in f for f in functions_in(stall.describe()))
    assert stall.loop_cpu > 0
    # the loop thread's totals since the start hold the stall's CPU
    totals = recorder.report()["loop_thread"]
    assert totals["cpu_ms"] >= round(stall.loop_cpu * 1000, 1) - 0.1
    assert totals["wall_ms"] >= round(stall.wall * 1000, 1) - 0.1


async def test_a_collection_during_the_stall_is_reported_with_its_generation():
    recorder, stall = await blocked_by(hold_the_loop_collecting)
    assert 2 in [gen for gen, _, _, _ in stall.gc]
    assert stall.describe()["gc"][0]["gen"] == 2
    assert recorder.report()["gc"]["2"]["count"] >= 1


async def test_stalls_are_task_named_and_only_the_longest_are_kept():
    loop = asyncio.get_running_loop()
    hooks = Released(loop)
    recorder = StallRecorder(THRESHOLD, on_stall=hooks.on_stall, on_late=hooks.on_late, keep=1)
    recorder.start()

    async def a_task_that_blocks() -> None:
        hold_the_loop_waiting(hooks.release)

    try:
        for _ in range(2):
            hooks.release.clear()
            hooks.lates = 0
            hooks.stall = loop.create_future()
            await asyncio.create_task(a_task_that_blocks(), name="blocker")
            stall = await asyncio.wait_for(hooks.stall, 60)
            assert stall.describe()["task"].startswith("blocker: ")
    finally:
        hooks.release.set()
        recorder.stop()
    assert recorder.count >= 2 and len(recorder.worst) == 1
    assert recorder.report()["worst"][0]["ms"] == max(round(s.lag * 1000, 1) for s in recorder.worst)


def spin_in_another_thread(release: threading.Event, sampled: Released, spun: threading.Event,
                           leave: threading.Event) -> None:
    started = None
    while not release.is_set():
        if started is None and sampled.lates:
            started = time.thread_time()  # the watchdog has taken the threads' CPU by now
        elif started is not None and time.thread_time() - started > 0.005:
            spun.set()
    leave.wait()  # a thread that is gone has no CPU time left to read


async def test_another_thread_busy_during_the_stall_is_named_with_its_cpu():
    loop = asyncio.get_running_loop()
    hooks = Released(loop)
    spun, leave = threading.Event(), threading.Event()
    hooks.on_late = _count_then(hooks, spun)
    spinner = threading.Thread(target=spin_in_another_thread, name="spinner",
                               args=(hooks.release, hooks, spun, leave))
    recorder = StallRecorder(THRESHOLD, on_stall=hooks.on_stall, on_late=hooks.on_late)
    recorder.start()
    try:
        await asyncio.sleep(0)
        spinner.start()
        loop.call_soon(hold_the_loop_waiting, hooks.release)
        stall = await asyncio.wait_for(hooks.stall, 60)
    finally:
        hooks.release.set()
        recorder.stop()
        leave.set()
        spinner.join()
    threads = stall.describe()["threads"]
    assert threads and threads[0]["name"] == "spinner" and threads[0]["cpu_ms"] >= 5
    assert threads[0]["frame"] is not None  # where it was when last sampled


def _count_then(hooks: Released, spun: threading.Event):
    """The watchdog's hook: count the samples, and release the loop only once the spinner has
    used CPU since the first one (besides the usual conditions)."""
    def on_late(late: float) -> None:
        hooks.lates += 1
        if late > THRESHOLD * 1.5 and hooks.lates >= 2 and spun.is_set():
            hooks.release.set()
    return on_late


def test_kind_is_what_most_of_the_time_went_to():
    def stall(cpu: float, queued: float | None, gc_s: float = 0.0) -> Stall:
        s = Stall(0.0, 0.2, 0.19, cpu, queued, 0.0)
        if gc_s:
            s.gc = [(2, gc_s, gc_s, 10)]
        return s

    assert stall(0.18, 0.01).kind == "cpu"
    assert stall(0.02, 0.17).kind == "runqueue"
    assert stall(0.01, 0.01).kind == "blocked"
    assert stall(0.18, 0.0, gc_s=0.15).kind == "gc"
    assert stall(0.01, None).kind == "blocked"


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        StallRecorder(0)
    with pytest.raises(ValueError):
        StallRecorder(0.05, interval=0)


def test_a_dump_is_split_into_the_loop_thread_and_the_busy_others():
    dump = (
        'Thread 0x00000000000000aa (most recent call first):\n'
        '  File "/x/threading.py", line 327 in wait\n'
        '  File "/x/worker.py", line 5 in run\n'
        '\n'
        'Thread 0x00000000000000bb (most recent call first):\n'
        '  File "/x/pickle_it.py", line 9 in dumps\n'
        '  File "/x/worker.py", line 7 in feed\n'
        '\n'
        'Current thread 0x00000000000000cc (most recent call first):\n'
        '  File "/x/app.py", line 3 in inner\n'
        '  File "/x/app.py", line 8 in outer\n'
    )
    mine, others = _parse(dump, 0xCC)
    assert mine == (("/x/app.py", 3, "inner"), ("/x/app.py", 8, "outer"))
    assert others == {0xAA: ("/x/threading.py", 327, "wait"), 0xBB: ("/x/pickle_it.py", 9, "dumps")}
    assert _parse(dump, 0xDD)[1][0xCC] == ("/x/app.py", 3, "inner")
