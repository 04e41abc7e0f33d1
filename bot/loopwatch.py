"""Event-loop lag: how late the loop wakes a task that asked to sleep a short interval.

A coroutine that holds the loop without awaiting (CPU work, a blocking call) delays every other
task, so the acknowledgement of a click waits behind it. :class:`LoopWatch` sleeps ``interval``
seconds in a loop and measures how much later than asked it woke: the lag is the time the loop
was held by someone else. It keeps the maximum, and logs a warning for each block longer than
``threshold``, so a slow path shows up in the log with its size.

    watch = LoopWatch()
    watch.start()            # in a running loop, e.g. the bot's setup_hook
    ...
    watch.take_window_max()  # the worst lag since the last call (seconds), for periodic reports
    watch.stop()
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class LoopWatch:
    """Measures event-loop lag in the loop it is started in.

    ``clock`` is monotonic seconds (injectable so a test can decide how long the loop "was
    held"); ``on_sample`` is called with every measured lag, after the figures are updated.
    """

    def __init__(self, interval: float = 0.05, threshold: float = 0.1, *,
                 clock: Callable[[], float] = time.monotonic,
                 on_sample: Callable[[float], None] | None = None) -> None:
        if interval < 0 or threshold <= 0:
            raise ValueError("interval must be >= 0 and threshold > 0")
        self.interval = interval
        self.threshold = threshold
        self.max_lag = 0.0  # seconds, since start
        self.samples = 0
        self.blocks = 0  # samples over the threshold
        self._window_max = 0.0
        self._clock = clock
        self._on_sample = on_sample
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        """Start measuring in the running loop (once; a second call returns the same task)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loopwatch")
        return self._task

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def take_window_max(self) -> float:
        """The largest lag since the previous call (seconds), and start a new window."""
        worst, self._window_max = self._window_max, 0.0
        return worst

    def observe(self, lag: float) -> None:
        """Record one lag measurement (seconds)."""
        lag = max(0.0, lag)
        self.samples += 1
        self.max_lag = max(self.max_lag, lag)
        self._window_max = max(self._window_max, lag)
        if lag > self.threshold:
            self.blocks += 1
            log.warning("event loop blocked for %.0f ms (threshold %.0f ms)",
                        lag * 1000, self.threshold * 1000)
        if self._on_sample is not None:
            self._on_sample(lag)

    async def _run(self) -> None:
        while True:
            asked = self._clock()
            await asyncio.sleep(self.interval)
            self.observe(self._clock() - asked - self.interval)
