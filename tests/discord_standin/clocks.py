"""Clocks for the stand-in's deadlines: one that ignores the machine's load, one a test moves."""

from __future__ import annotations

import threading
import time
from pathlib import Path

__all__ = ["ManualClock", "RunningClock"]


class RunningClock:
    """Monotonic seconds minus the time this process's main thread spent waiting for a CPU.

    Discord's 3 s interaction window is real time, but a test that shares a busy machine may be
    kept off the CPU for seconds by other processes (a parallel test run, a build): neither the
    bot nor the stand-in could have answered then. Counting only the time the process could run
    keeps the deadline strict about the bot's own delays (a blocked loop, a slow await) and blind
    to the machine's load. Linux reports the wait in /proc (schedstat); elsewhere this is the
    plain monotonic clock.
    """

    def __init__(self) -> None:
        path = Path(f"/proc/self/task/{threading.main_thread().native_id}/schedstat")
        self._path = path if path.exists() else None

    def waited(self) -> float:
        """Seconds the main thread was runnable but waited for a CPU, since it started."""
        if self._path is None:
            return 0.0
        try:
            return int(self._path.read_text().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return 0.0

    def __call__(self) -> float:
        return time.monotonic() - self.waited()


class ManualClock:
    """A clock for `StandIn.clock` that moves only when a test advances it, so Discord's
    deadlines and rate-limit windows can be crossed at once, without waiting for them."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.monotonic() if start is None else start  # after what already happened

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
