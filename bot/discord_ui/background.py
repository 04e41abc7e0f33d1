"""A cog's own background tasks (challenge expiries, tournament rounds): kept until each ends,
and at unload cancelled and waited for, with none started after. The bot closes its store once
the cogs are unloaded, so a task still running then, or one a command started while the bot was
closing, would read a closed database."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

from bot.store import StoreUnavailable
from bot.tables import RETRY_DELAYS

log = logging.getLogger(__name__)

T = TypeVar("T")


async def through_outages(call: Callable[[], Awaitable[T]],
                          pauses: tuple[float, ...] = RETRY_DELAYS) -> T:
    """``call``'s answer once the database gives one, for a step a background task must not
    drop (a challenge's expiry): the database away is waited out at the table steps' pauses
    (0.5 s, growing to every 30 s; the store logs the trouble once), and a refusal is raised."""
    attempt = 0
    while True:
        try:
            return await call()
        except StoreUnavailable:
            await asyncio.sleep(pauses[min(attempt, len(pauses) - 1)])
            attempt += 1


class Background:
    """The tasks one cog runs beside its commands."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def start(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        """Run ``work`` as a task; None once closed (what it was for is in the store, and the
        next start takes it up from there)."""
        if self.closed:
            work.close()
            return None
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Start nothing more, cancel what runs, and return once every task has ended."""
        self.closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __iter__(self) -> Iterator[asyncio.Task[Any]]:
        return iter(list(self._tasks))

    def __len__(self) -> int:
        return len(self._tasks)


class Watch:
    """A cog's look at what it keeps by time (a season to start, a tournament to open): ``look``
    runs once the bot is ready, then again after the seconds it returns, or at once when
    :meth:`wake` is called (something changed). A look that fails is tried again after
    ``retry`` seconds: the watch outlives any one look. :attr:`looked` is set after each (tests
    wait on it)."""

    def __init__(self, look: Callable[[], Awaitable[float]], retry: float, what: str) -> None:
        self._look, self._retry, self._what = look, retry, what
        self._wake = asyncio.Event()
        self.looked = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def run(self, ready: Callable[[], Awaitable[Any]]) -> None:
        """Look until cancelled (at the cog's unload), from when ``ready()`` returns."""
        await ready()
        while True:
            self._wake.clear()
            try:
                wait = await self._look()
            except Exception:  # the next look tries again
                log.exception("%s could not be looked at; trying again in %g s", self._what,
                              self._retry)
                wait = self._retry
            self.looked.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)


def until_utc(now: float, at: float = 0.0, most: float = 3600.0) -> float:
    """Seconds from ``now`` (epoch seconds) until just past the next time ``at`` seconds into a
    UTC day (0: midnight), at most ``most``: a watch of the days looks again then, and at least
    hourly should the clock jump."""
    left = (at - now % 86400.0) % 86400.0 or 86400.0
    return min(most, left + 1)
