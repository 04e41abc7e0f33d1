"""Pools of worker processes for CPU-heavy work (images, AI search), awaited from the event loop.

Pixels and search run in other processes so they never hold the event loop's GIL. Each worker is
a one-process executor of its own: a worker that dies (killed, out of memory, a crash in C code)
breaks only itself, is replaced by a fresh, warmed-up one, and the call it was running is tried
once more there, so the table that asked loses nothing. Callers queue first come, first served
for the next idle worker.

Workers are started with the ``spawn`` method (no copy of the bot's memory, sockets or threads)
and run ``initializer`` before their first job, so the first image does not pay for warm-up.
They may run at a lower CPU priority (``niceness``): when the machine is full, the event loop
that acknowledges clicks and answers the gateway's heartbeats comes before pixels and search.
This module imports nothing of Discord or of the renderers: the caller passes the initializer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


class WorkerCrashed(RuntimeError):
    """A job killed its worker twice in a row (on the first worker and on its replacement)."""


class PoolClosed(RuntimeError):
    """The pool is not running: not started yet, or closed."""


@dataclass(slots=True)
class _Worker:
    executor: ProcessPoolExecutor
    pid: int


def _exit_with_parent() -> None:
    """A worker whose bot died (SIGKILL, out of memory) ends with it, instead of living on as an
    orphan holding its memory and the bot's inherited files: a thread waits for the parent's
    sentinel, which becomes readable when the parent is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def _start_worker(niceness: int, initializer: Callable[[], object] | None) -> None:
    """Runs first in every worker process: end with the bot, lower its priority, warm it up."""
    _exit_with_parent()
    if niceness:
        try:
            os.nice(niceness)
        except OSError:  # not permitted here (a sandbox): run at the normal priority
            log.warning("worker %d could not lower its CPU priority", os.getpid())
    if initializer is not None:
        initializer()


def _ready() -> int:
    """The first job of every worker: it runs after the initializer, so its answer means warm."""
    return os.getpid()


class WorkerPool:
    """``processes`` warm worker processes running picklable top-level functions.

    >>> pool = WorkerPool("images", 2, initializer=build_sprites)   # doctest: +SKIP
    >>> await pool.start(); png = await pool.run(render_table, view)  # doctest: +SKIP
    """

    def __init__(self, name: str, processes: int,
                 initializer: Callable[[], object] | None = None, *, niceness: int = 0) -> None:
        if processes < 1:
            raise ValueError(f"a worker pool needs at least one process, got {processes}")
        if not 0 <= niceness <= 19:
            raise ValueError(f"niceness is 0 (the bot's own priority) to 19, got {niceness}")
        self.name = name
        self.processes = processes
        self.initializer = initializer
        self.niceness = niceness
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker | None] | None = None  # None: the pool closed
        self._running = False
        self.completed = 0
        """Calls answered by a worker (a job's own exception counts: the worker ran it)."""
        self.waiting = 0
        """Calls waiting for a worker now (every worker is busy)."""

    # -- life cycle -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Spawn every worker and return once each has run the initializer."""
        if self._running:
            return
        self._idle = asyncio.Queue()
        self._running = True
        try:
            workers = await asyncio.gather(*(self._spawn() for _ in range(self.processes)))
        except BaseException:
            await self.close()
            raise
        for worker in workers:
            self._idle.put_nowait(worker)
        log.info("%s pool: %d worker(s) ready, pids %s", self.name, len(workers), self.pids())

    async def _spawn(self) -> _Worker:
        executor = ProcessPoolExecutor(1, mp_context=self._context, initializer=functools.partial(
            _start_worker, self.niceness, self.initializer))
        try:
            pid = await asyncio.wrap_future(executor.submit(_ready))
        except BaseException as exc:
            executor.shutdown(wait=False, cancel_futures=True)
            if isinstance(exc, BrokenProcessPool):
                raise RuntimeError(f"{self.name} pool: a worker failed to start (its "
                                   f"initializer raised or it died while warming up)") from exc
            raise
        worker = _Worker(executor, pid)
        self._workers.append(worker)
        return worker

    def pids(self) -> list[int]:
        """Process ids of the live workers (to measure their memory, or in tests)."""
        return [w.pid for w in self._workers]

    async def close(self) -> None:
        """Stop every worker and wait for them to exit: no orphan process is left behind."""
        self._running = False
        if self._idle is not None:
            self._idle.put_nowait(None)  # wakes the calls waiting for a worker: they fail
        workers, self._workers = self._workers, []
        # Joining the processes blocks, so it happens in threads, never on the loop. A job
        # still running is let finish (its caller gets the answer); queued ones are dropped.
        await asyncio.gather(*(asyncio.to_thread(w.executor.shutdown, wait=True,
                                                 cancel_futures=True) for w in workers))

    # -- jobs -----------------------------------------------------------------------------------
    async def run(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        """``fn(*args)`` in a worker process; its result or its exception comes back here.

        ``fn`` and ``args`` must pickle (a top-level function, plain data). If the worker dies
        during the call, it is replaced and the call runs once more on the replacement; if that
        one dies too, :class:`WorkerCrashed` is raised.
        """
        if not self._running or self._idle is None:
            raise PoolClosed(f"{self.name} pool is not running")
        self.waiting += 1
        try:
            worker = await self._idle.get()
        finally:
            self.waiting -= 1
        if worker is None:
            self._idle.put_nowait(None)  # for the next waiting call
            raise PoolClosed(f"{self.name} pool closed while the call waited for a worker")
        for attempt in (1, 2):
            try:
                return await self._call(worker, fn, args)
            except BrokenProcessPool:
                if not self._running:
                    raise PoolClosed(f"{self.name} pool closed during the call") from None
                log.warning("%s pool: worker %d died running %s (attempt %d); replacing it",
                            self.name, worker.pid, _name(fn), attempt)
                worker = await self._replace(worker)
                if attempt == 2:
                    self._release(worker)
                    raise WorkerCrashed(f"{self.name} pool: {_name(fn)} killed two workers in "
                                        f"a row; giving up on this call") from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def _call(self, worker: _Worker, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Run one job on ``worker``, which goes back to the idle queue once the job is over."""
        future: Future[Any] = worker.executor.submit(fn, *args)  # raises if already broken
        try:
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            raise  # the caller replaces the worker; it is not idle
        except asyncio.CancelledError:
            # The process may still be busy with it: the worker is idle again only when done.
            loop = asyncio.get_running_loop()
            future.add_done_callback(
                lambda _: loop.call_soon_threadsafe(self._release_after, worker, future))
            raise
        except BaseException:
            self.completed += 1
            self._release(worker)
            raise
        self.completed += 1
        self._release(worker)
        return result

    def _release_after(self, worker: _Worker, future: Future[Any]) -> None:
        if future.cancelled() or not isinstance(future.exception(), BrokenProcessPool):
            self._release(worker)
        elif self._running:  # it died after its caller gave up: replace it all the same
            task = asyncio.get_running_loop().create_task(self._replace(worker))
            task.add_done_callback(lambda t: None if t.cancelled() or t.exception()
                                   else self._release(t.result()))

    def _release(self, worker: _Worker) -> None:
        if self._running and self._idle is not None and worker in self._workers:
            self._idle.put_nowait(worker)
        else:
            worker.executor.shutdown(wait=False, cancel_futures=True)

    async def _replace(self, dead: _Worker) -> _Worker:
        if dead in self._workers:
            self._workers.remove(dead)
        await asyncio.to_thread(dead.executor.shutdown, wait=True)
        return await self._spawn()


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)
