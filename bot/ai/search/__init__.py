"""The search AI: determinized Monte Carlo search from the observation only (see :mod:`.player`).

``LEVELS`` gives the budgets of the ``hard`` and ``expert`` levels: rollouts per decision and a
wall-clock cap that keeps every answer within 1 s (hard) or 3 s (expert) on a small machine.
Koi-Koi rollouts run on a fast dedicated loop (:mod:`bot.ai.koikoi_rollout`); the other games'
run the engine with a greedy player that reads the round state directly. The search knows no
game: each game's descriptor gives it a search profile (:class:`bot.games.descriptor.SearchProfile`)
naming its world builder, its greedy reader and its budget. Koi-Koi, Mushi, Hana-Awase and
Sakura afford ``iterations`` rollouts; Go-Stop and the shedding game keep the smaller
``engine_iterations`` they were measured with in the arena (their rollouts were then twice as
slow, building an observation at every move; a larger budget for them waits for arena runs).
"""

from __future__ import annotations

from bot.games.descriptor import descriptor

from .player import SearchPlayer, greedy_policy, rollout
from .worlds import Sampler, fast_clone, sample

LEVELS: dict[str, dict[str, float]] = {
    "hard": {"iterations": 400, "engine_iterations": 100, "seconds": 0.8},
    "expert": {"iterations": 2000, "engine_iterations": 500, "seconds": 2.5},
}
# A game's search profile (``GameDescriptor.search``) holds the rest: ``full_budget`` for the games
# whose rollouts read the greedy position straight from the round state or run a dedicated
# loop, which afford the ``iterations`` budget within the same time cap, and need it (the
# one-step gain over greedy at a decision, search's move then greedy against greedy's move then
# greedy, in the true deal, 150-300 deals: Sakura -0.08 +- 0.50 points at 100 rollouts and +1.35
# +- 0.45 at 400; Mushi +1.9 +- 0.5 at 100 and +2.5 +- 0.4 at 400 (width 3); Hana-Awase +0.23 +-
# 0.56 at 100, +0.76 +- 0.47 at 400 searching greedy's best three, and +1.23 +- 0.34 at 400
# searching every move; +1.30 +- 0.35 at 800: more rollouts no longer pay). ``width``: Mushi and
# Sakura search only the greedy player's best three moves, so the budget goes to the close calls;
# in Hana-Awase the best move is often outside greedy's three, so it searches all. ``phases``:
# in Go-Stop searching the card plays lost points against greedy (-13.8 points per round over 80
# paired single rounds) while searching go/stop gained (+6.6), so only go/stop is searched there.
# The cause is noise, not a wrong world: over 30 deals at 30 worlds per card play, the search's
# expected gain where it left greedy's card was +6.7 points and the gain in the true deal -0.03
# +- 2.1, though over all moves estimate and truth agreed on average (-5.01 both); Go-Stop's
# multiplied scores make one world's value so spread (estimate-truth correlation 0.10, against
# 0.30 in Hana-Awase) that the best-looking card is mostly the luckiest.
#
# With the ~100 engine rollouts of the other games the search is noisy: it keeps the greedy move
# unless its best is better by a standard error (arena without this: hard lost to greedy in
# Go-Stop, 44.4% over 80 paired 3-round deals, and was level in Mushi).
ENGINE_PRIOR = 1.0


def search_player(level: str, game: str) -> SearchPlayer:
    """The search player of ``level`` ('hard' or 'expert') for ``game``."""
    budget = LEVELS[level]
    profile = descriptor(game).search
    many = profile.full_budget
    iterations = budget["iterations"] if many else budget["engine_iterations"]
    return SearchPlayer(game, iterations=int(iterations), seconds=budget["seconds"], name=level,
                        prior=0.0 if many else ENGINE_PRIOR, phases=profile.phases,
                        width=profile.width)


__all__ = ["LEVELS", "SearchPlayer", "Sampler", "search_player", "sample", "rollout",
           "fast_clone", "greedy_policy"]
