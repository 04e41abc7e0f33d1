"""How much one decision of a searching level gains over the greedy move, in the true deal.

``python -m bot.ai onestep sakura --level hard --deals 300 --seed 1 --workers 2``

Greedy plays the first round of each deal against itself. At every decision with a choice, the
measured level chooses too (from the observation only); when its move differs from greedy's,
both moves are played out in the *true* deal with greedy for every seat afterwards, and the point
difference (acting seat minus the best other seat) is averaged over a few rollout seeds. The
report is the mean gain per decision (equal moves count as zero) with its standard error.

This isolates the search's policy improvement from the luck of a whole match, so a budget or
width can be judged in minutes instead of the arena's hours. A gain here is necessary for the
arena, not sufficient: gains at successive decisions do not simply add up.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bot.ai import make_player
from bot.cliargs import at_least_one
from bot.games import game_module
from bot.games.cli import BadInput, checked, refuse
from bot.games.rng import Rng

from .search.player import _step, greedy_policy, rollout
from .search.worlds import fast_clone

REPEATS = 4  # rollout seeds per compared move (the greedy players break some ties at random)


@dataclass
class OneStep:
    gains: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def line(self, game: str, level: str) -> str:
        n = len(self.gains)
        mean = statistics.fmean(self.gains) if n else 0.0
        se = statistics.stdev(self.gains) / n ** 0.5 if n > 1 else 0.0
        differ = sum(1 for g in self.gains if g)
        return (f"{game}: {level} over greedy, one-step gain {mean:+.3f} +- {se:.3f} points per"
                f" decision over {n} decisions ({differ} differ),"
                f" {1000 * self.seconds / max(n, 1):.0f} ms per decision")


def _deal(job: tuple[str, str, int, int, dict[str, Any]]) -> OneStep:
    game, level, seed, deal, overrides = job
    module = game_module(game)
    greedy, measured = make_player("greedy", game), make_player(level, game)
    for name, value in overrides.items():
        setattr(measured, name, value)
    policy = greedy_policy(game)
    match = module.new_match(2, module.Rules(), seed * 1_000_003 + deal)
    rng = Rng(seed).fork(deal)
    out = OneStep()
    while match.round_number == 1 and not match.is_over:
        seat = match.current_player
        obs, legal = match.observation(seat), match.legal_actions()
        usual = greedy.choose(obs, legal, rng.fork(1))
        if len(legal) > 1:
            start = time.perf_counter()
            mine = measured.choose(obs, legal, rng.fork(2))
            out.seconds += time.perf_counter() - start
            out.gains.append(0.0 if mine == usual else
                             _value(match.round, mine, seat, policy, deal) -
                             _value(match.round, usual, seat, policy, deal))
        match.apply(usual, seat)
    return out


def _value(state, action, seat: int, policy, deal: int) -> float:
    total = 0.0
    for k in range(REPEATS):
        world = fast_clone(state)
        _step(world, action)
        points = rollout(world, policy, Rng(deal * 31 + k))
        total += points[seat] - max(p for s, p in enumerate(points) if s != seat)
    return total / REPEATS


def onestep(game: str, level: str, deals: int, seed: int = 1, workers: int = 1,
            overrides: dict[str, Any] | None = None) -> OneStep:
    """The one-step gain of ``level`` over greedy; ``overrides`` sets search player attributes
    (``iterations``, ``width``, ``prior``, ``seconds``) to try a budget before it is a level."""
    jobs = [(game, level, seed, d, overrides or {}) for d in range(deals)]
    total = OneStep()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = list(pool.imap_unordered(_deal, jobs))
    else:
        parts = [_deal(j) for j in jobs]
    for part in parts:
        total.gains.extend(part.gains)
        total.seconds += part.seconds
    return total


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai onestep",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--deals", type=at_least_one, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=at_least_one, default=1)
    parser.add_argument("--iterations", type=at_least_one, help="rollouts per decision instead of the level's")
    parser.add_argument("--width", type=int,
                        help="search only greedy's best WIDTH moves (0: every legal move)")
    parser.add_argument("--prior", type=float, help="standard errors needed to leave greedy's move")
    parser.add_argument("--seconds", type=float, help="time cap per decision (0: none)")
    args = parser.parse_args(argv)
    try:
        checked(args.game, (args.level, "greedy"))
    except BadInput as exc:
        return refuse(exc)
    overrides: dict[str, Any] = {}
    if args.iterations is not None:
        overrides["iterations"] = args.iterations
    if args.width is not None:
        overrides["width"] = args.width or None
    if args.prior is not None:
        overrides["prior"] = args.prior
    if args.seconds is not None:
        overrides["seconds"] = args.seconds or None
    label = args.level + "".join(f" {k}={v}" for k, v in overrides.items())
    print(onestep(args.game, args.level, args.deals, args.seed, args.workers, overrides)
          .line(args.game, label))
    return 0
