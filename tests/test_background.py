"""A cog's background tasks end before the bot's store closes, and none starts after."""

from __future__ import annotations

import asyncio
import contextlib
import warnings

import pytest

from bot.discord_ui.background import Background, Watch, until_utc

pytestmark = pytest.mark.asyncio


async def test_close_cancels_and_waits_for_each_task_to_end():
    background = Background()
    began, cancelled, cleaned = asyncio.Event(), asyncio.Event(), asyncio.Event()
    cleanup_may_end = asyncio.Event()

    async def work() -> None:
        began.set()
        try:
            await asyncio.Event().wait()
        finally:  # a task's own cleanup (a rollback) still awaits after its cancellation
            cancelled.set()
            await cleanup_may_end.wait()
            cleaned.set()

    task = background.start(work())
    await began.wait()
    closing = asyncio.ensure_future(background.close())
    await cancelled.wait()  # close() has cancelled the task and waits for it
    assert not closing.done() and not cleaned.is_set()
    cleanup_may_end.set()
    await closing
    assert cleaned.is_set() and task.cancelled() and len(background) == 0


async def test_nothing_starts_once_closed():
    background = Background()
    await background.close()

    async def work() -> None:
        raise AssertionError("ran after close")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine was never awaited" would be one
        assert background.start(work()) is None
    assert list(background) == []


async def test_a_finished_task_is_let_go_of():
    background = Background()
    task = background.start(asyncio.sleep(0))
    await task  # its done callbacks ran in order: the one letting it go first
    assert len(background) == 0


async def test_a_watch_looks_when_ready_when_woken_and_again_after_a_failed_look():
    looks = []
    ready = asyncio.Event()

    async def look():
        looks.append(len(looks))
        if len(looks) == 2:
            raise OSError("the database is away")  # the watch tries again after its retry
        return 3600.0  # next look in an hour unless woken

    watch = Watch(look, retry=0.01, what="a test's look")
    began = asyncio.Event()

    async def until_ready():
        began.set()
        await ready.wait()

    task = asyncio.create_task(watch.run(until_ready))
    await asyncio.wait_for(began.wait(), 10)
    assert looks == [] and not watch.looked.is_set()  # not before the bot is ready
    ready.set()
    await asyncio.wait_for(watch.looked.wait(), 10)
    assert looks == [0]
    watch.looked.clear()
    watch.wake()  # something changed: a look at once, which fails, then one after the retry
    while len(looks) < 3:
        await asyncio.wait_for(watch.looked.wait(), 10)
        watch.looked.clear()
    assert looks == [0, 1, 2] and not task.done()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def test_a_watch_of_the_days_looks_again_just_past_its_hour_or_within_the_hour():
    midnight = 1_796_083_200.0  # 2026-12-01 00:00 UTC
    assert until_utc(midnight - 600) == 601
    assert until_utc(midnight - 7200) == 3600  # an hour at most, should the clock jump
    assert until_utc(midnight) == 3600 and until_utc(midnight - 0.5) == 1.5
    eight_pm = 20 * 3600.0  # another time of the day: the reminders' 20:00
    assert until_utc(midnight + eight_pm - 60, eight_pm) == 61
    assert until_utc(midnight + eight_pm + 1, eight_pm) == 3600  # past it: tomorrow's, hourly
    assert until_utc(midnight - 300, eight_pm) == 3600
