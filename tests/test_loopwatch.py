"""The event-loop lag monitor, driven by a clock the test controls (no real timing)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.loopwatch import LoopWatch


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Samples:
    """Lets a test wait for the watch's next measurement."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self._event = asyncio.Event()

    def __call__(self, lag: float) -> None:
        self.values.append(lag)
        self._event.set()

    async def next(self) -> float:
        self._event.clear()
        await self._event.wait()
        return self.values[-1]


async def test_a_held_loop_is_measured_kept_as_max_and_logged(caplog):
    clock, samples = ManualClock(), Samples()
    watch = LoopWatch(interval=0.0, threshold=0.1, clock=clock, on_sample=samples)
    watch.start()
    try:
        assert await samples.next() == 0.0  # the clock did not move: no lag
        # The watch already read the clock for its next sleep; the loop is now "held" 0.3 s.
        clock.now += 0.3
        with caplog.at_level(logging.WARNING, logger="bot.loopwatch"):
            lag = await samples.next()
        assert lag == pytest.approx(0.3)
        assert watch.max_lag == pytest.approx(0.3) and watch.blocks == 1
        assert "blocked for 300 ms" in caplog.text
        clock.now += 0.05  # under the threshold: measured, not a block
        assert await samples.next() == pytest.approx(0.05)
        assert watch.max_lag == pytest.approx(0.3) and watch.blocks == 1
    finally:
        watch.stop()


async def test_window_max_resets_but_overall_max_stays():
    watch = LoopWatch(threshold=1.0)
    watch.observe(0.2)
    watch.observe(0.05)
    assert watch.take_window_max() == pytest.approx(0.2)
    assert watch.take_window_max() == 0.0
    watch.observe(0.07)
    assert watch.take_window_max() == pytest.approx(0.07)
    assert watch.max_lag == pytest.approx(0.2) and watch.samples == 3 and watch.blocks == 0


async def test_negative_lag_counts_as_none_and_start_is_idempotent():
    watch = LoopWatch(interval=0.0)
    watch.observe(-0.01)  # a clock read a hair early must not report negative lag
    assert watch.max_lag == 0.0
    task = watch.start()
    assert watch.start() is task and watch.running
    watch.stop()
    assert not watch.running
    with pytest.raises(asyncio.CancelledError):
        await task


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        LoopWatch(threshold=0)
    with pytest.raises(ValueError):
        LoopWatch(interval=-1)
