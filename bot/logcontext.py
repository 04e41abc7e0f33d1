"""Which shard and game a log line belongs to: ``[shard 3 game 42]`` before its message.

Set per task: an interaction's task gets its shard when it enters the bot, a table's work (a
press, an AI turn, a timer) gets the game and the game's shard; tasks started from there inherit
both (asyncio copies the context into each new task). :class:`Where` puts them on every record
its handler formats, as ``%(where)s`` (empty outside any shard or game).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from typing import Any

__all__ = ["Where", "at_interaction", "at_table", "install", "set_shard_of", "table_context"]

_shard: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_shard", default=None)
_game: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_game", default=None)
_shard_of: Callable[[int | None], int] | None = None


def install(handler: logging.Handler) -> None:
    """Give ``handler``'s records ``where`` (for a format with ``%(where)s``)."""
    if not any(isinstance(f, Where) for f in handler.filters):
        handler.addFilter(Where())


def set_shard_of(shard_of: Callable[[int | None], int]) -> None:
    """How a table's shard key names its shard (the bot's :meth:`bot.shards.ShardPlan.shard_of`)."""
    global _shard_of
    _shard_of = shard_of


def at_interaction(interaction: Any) -> None:
    """The rest of this interaction's task logs its shard."""
    guild = getattr(interaction, "guild", None)
    _shard.set(getattr(guild, "shard_id", None) if guild is not None else 0)


def at_table(table: Any) -> None:
    """The rest of this task logs the table's game and shard."""
    _game.set(table.game_id)
    if _shard_of is not None:
        _shard.set(_shard_of(table.shard_key))


def table_context(table: Any) -> contextvars.Context:
    """A context for a task of the table (``asyncio.create_task(..., context=...)``)."""
    context = contextvars.copy_context()
    context.run(at_table, table)
    return context


class Where(logging.Filter):
    """Sets ``record.where``: ``"[shard 3 game 42] "``, or ``""``."""

    def filter(self, record: logging.LogRecord) -> bool:
        parts = []
        shard, game = _shard.get(), _game.get()
        if shard is not None:
            parts.append(f"shard {shard}")
        if game is not None:
            parts.append(f"game {game}")
        record.where = f"[{' '.join(parts)}] " if parts else ""
        return True
