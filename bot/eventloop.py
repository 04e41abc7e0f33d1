"""The event loop the bot runs on: uvloop where it is installed (Linux and macOS), else asyncio's.

The loop only routes: it wakes for every Discord event, every database reply and every worker's
result, and uvloop spends less CPU on each wake-up than asyncio's selector loop (a PostgreSQL
transfer is several of them). ``EVENT_LOOP=asyncio`` keeps asyncio's own loop, e.g. to debug.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["LOOPS", "available", "default", "factory", "run"]

T = TypeVar("T")
LOOPS = ("uvloop", "asyncio")


def available(name: str) -> bool:
    return name == "asyncio" or importlib.util.find_spec(name) is not None


def default() -> str:
    """uvloop when it is installed, else asyncio."""
    return "uvloop" if available("uvloop") else "asyncio"


def factory(name: str | None = None) -> Callable[[], asyncio.AbstractEventLoop]:
    """A maker of ``name``'s loops (None: :func:`default`)."""
    name = name or default()
    if name not in LOOPS:
        raise ValueError(f"unknown event loop {name!r}: one of {', '.join(LOOPS)}")
    if name == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    return asyncio.new_event_loop


def run(main: Coroutine[Any, Any, T], *, loop: str | None = None) -> T:
    """``main`` to its end on a new loop of ``loop``'s kind, as ``asyncio.run`` does."""
    with asyncio.Runner(loop_factory=factory(loop)) as runner:
        return runner.run(main)
