"""AI players. They choose from an observation and the legal actions only (never the state).

``make_player(level, game)``: ``random`` for every game; ``greedy`` is the per-game heuristic
``bot.ai.<game>.GreedyPlayer``.
"""

from __future__ import annotations

import importlib

from .base import Player, RandomPlayer


def make_player(level: str, game: str) -> Player:
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        module = importlib.import_module(f"bot.ai.{game}")
        return module.GreedyPlayer()
    raise KeyError(f"unknown AI level {level!r}")


__all__ = ["Player", "RandomPlayer", "make_player"]
