"""The search AI: determinized Monte Carlo search from the observation only (see :mod:`.player`).

``LEVELS`` gives the budgets of the ``hard`` and ``expert`` levels: rollouts per decision and a
wall-clock cap that keeps every answer within 1 s (hard) or 3 s (expert) on a small machine.
"""

from __future__ import annotations

from .player import SearchPlayer, fast_clone, greedy_policy, rollout
from .worlds import sample

LEVELS: dict[str, dict[str, float]] = {
    "hard": {"iterations": 160, "seconds": 0.8},
    "expert": {"iterations": 1200, "seconds": 2.5},
}


def search_player(level: str, game: str) -> SearchPlayer:
    budget = LEVELS[level]
    return SearchPlayer(game, iterations=int(budget["iterations"]), seconds=budget["seconds"],
                        name=level)


__all__ = ["LEVELS", "SearchPlayer", "search_player", "sample", "rollout", "fast_clone",
           "greedy_policy"]
