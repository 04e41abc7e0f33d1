"""The search AI: determinized Monte Carlo search from the observation only (see :mod:`.player`).

``LEVELS`` gives the budgets of the ``hard`` and ``expert`` levels: rollouts per decision and a
wall-clock cap that keeps every answer within 1 s (hard) or 3 s (expert) on a small machine.
Koi-Koi rollouts run on a fast dedicated loop (:mod:`.koikoi_rollout`), so Koi-Koi affords about
four times the rollouts of the games whose rollouts go through the engine and observations.
"""

from __future__ import annotations

from .koikoi_rollout import koikoi_rollout
from .player import SearchPlayer, greedy_policy, rollout
from .worlds import Sampler, fast_clone, sample

LEVELS: dict[str, dict[str, float]] = {
    "hard": {"iterations": 400, "engine_iterations": 100, "seconds": 0.8},
    "expert": {"iterations": 2000, "engine_iterations": 500, "seconds": 2.5},
}
FAST_ROLLOUTS = {"koikoi"}
# With the ~100 engine rollouts of the other games the search is noisy: it keeps the greedy move
# unless its best is better by a standard error (arena without this: hard lost to greedy in
# Go-Stop, 44.4% over 80 paired 3-round deals, and was level in Mushi).
ENGINE_PRIOR = 1.0
# Go-Stop: searching the card plays lost points against greedy (-13.8 points per round over 80
# paired single rounds) while searching go/stop gained (+6.6), so only go/stop is searched there
# until the cause is found.
PHASES = {"gostop": frozenset({"decide"})}


def search_player(level: str, game: str) -> SearchPlayer:
    """The search player of ``level`` ('hard' or 'expert') for ``game``."""
    budget = LEVELS[level]
    iterations = budget["iterations"] if game in FAST_ROLLOUTS else budget["engine_iterations"]
    return SearchPlayer(game, iterations=int(iterations), seconds=budget["seconds"], name=level,
                        prior=0.0 if game in FAST_ROLLOUTS else ENGINE_PRIOR,
                        phases=PHASES.get(game))


__all__ = ["LEVELS", "SearchPlayer", "Sampler", "search_player", "sample", "rollout",
           "koikoi_rollout", "fast_clone", "greedy_policy"]
