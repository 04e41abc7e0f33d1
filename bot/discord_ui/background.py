"""A cog's own background tasks (challenge expiries, tournament rounds): kept until each ends,
and at unload cancelled and waited for, with none started after. The bot closes its store once
the cogs are unloaded, so a task still running then, or one a command started while the bot was
closing, would read a closed database."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from typing import Any


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
