"""The player interface every AI implements.

A player sees only what a seat may see: the observation dict of that seat and the list of legal
actions (which the observation implies). It never receives the engine state, so it cannot cheat.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.games.base import Action
from bot.games.rng import Rng


class Player(Protocol):
    """Chooses one of ``legal`` from ``observation``; ``rng`` is the only source of chance."""

    name: str

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action: ...


class RandomPlayer:
    """Uniformly random legal moves: the weakest baseline (the 'easy' level)."""

    name = "random"

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]
