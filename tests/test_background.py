"""A cog's background tasks end before the bot's store closes, and none starts after."""

from __future__ import annotations

import asyncio
import warnings

import pytest

from bot.discord_ui.background import Background

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
