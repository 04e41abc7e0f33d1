"""AI players. They choose from an observation and the legal actions only (never the state).

``make_player(level, game)``: ``random`` (easy) for every game; ``greedy`` (normal) is the
per-game heuristic ``bot.ai.<game>.GreedyPlayer``; ``hard`` and ``expert`` are the determinized
search of :mod:`bot.ai.search` at two budgets (answers within 1 s and 3 s).
"""

from __future__ import annotations

import importlib

from .base import Player, RandomPlayer

LEVELS = ("random", "greedy", "hard", "expert")


def make_player(level: str, game: str) -> Player:
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        module = importlib.import_module(f"bot.ai.{game}")
        return module.GreedyPlayer()
    if level in ("hard", "expert"):
        own = getattr(importlib.import_module(f"bot.ai.{game}"), "search_player", None)
        if own is not None:  # a game with its own strong player (Seotda: equity, not search)
            return own(level)
        from .search import search_player

        return search_player(level, game)
    raise KeyError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player"]
