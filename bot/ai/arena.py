"""Measure one AI level against another on paired deals.

``python -m bot.ai arena koikoi --a hard --b greedy --games 1000 --seed 1 --workers 2``

Each deal (a match seed) is played once per seat of A with the same seed, so both players get
exactly the same cards: the luck of the deal cancels out, and each player deals first equally
often (the first dealer is drawn from the seed, and the seats swap). A match is won by the single
highest score; a shared first place is a draw and counts as half a win in the win rate, whose 95%
interval is the Wilson score interval. Points per game are A's match score minus the mean score
of the B seats. A's decision times are measured around ``choose`` alone.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from bot.ai import make_player
from bot.cliargs import at_least_one
from bot.games import game_module
from bot.games.cli import BadInput, checked, refuse
from bot.games.rng import Rng
from bot.games.simulate import wilson


@dataclass
class ArenaResult:
    """Everything counted over the matches played; :meth:`lines` formats the report."""

    game: str
    a: str
    b: str
    deals: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0
    times: list[float] = field(default_factory=list)
    seconds: float = 0.0
    rounds: int = 0
    workers: int = 1

    def add(self, other: ArenaResult) -> None:
        self.deals += other.deals
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.points += other.points
        self.times.extend(other.times)

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.draws, self.games)

    def lines(self) -> list[str]:
        lo, hi = self.interval()
        t = sorted(self.times)
        med = _quantile(t, 0.5) * 1000
        p95 = _quantile(t, 0.95) * 1000
        top = (t[-1] if t else 0.0) * 1000
        losses = self.games - self.wins - self.draws
        return [
            f"{self.game}: {self.a} vs {self.b}, {self.deals} deals x {self.games // max(1, self.deals)}"
            f" seats = {self.games} matches ({self.rounds} rounds each), {self.workers} worker(s),"
            f" {self.seconds:.1f} s, {self.games / max(self.seconds, 1e-9):.2f} games/s",
            f"  {self.a} wins {self.wins}, draws {self.draws}, losses {losses}: win rate"
            f" {self.win_rate:.1%} [95% CI {lo:.1%}-{hi:.1%}] (a draw counts as half a win)",
            f"  points per game ({self.a} - {self.b}): {self.points / max(1, self.games):+.2f}",
            f"  {self.a} decision time: median {med:.0f} ms, p95 {p95:.0f} ms, max {top:.0f} ms"
            f" ({len(t)} decisions)",
        ]


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


_JOB: dict[str, Any] = {}


def _setup(game: str, a: str, b: str, rules: Any, num_players: int, seed: int) -> None:
    _JOB.update(game=game, a=make_player(a, game), b=make_player(b, game), rules=rules,
                n=num_players, seed=seed, module=game_module(game), names=(a, b))


def play_deal(deal: int) -> ArenaResult:
    """Play deal number ``deal`` once with A in each seat (the worker's players and rules)."""
    job = _JOB
    module, n = job["module"], job["n"]
    out = ArenaResult(job["game"], *job["names"], deals=1)
    match_seed = job["seed"] * 1_000_003 + deal
    for a_seat in range(n):
        rng = Rng(match_seed).fork(a_seat + 1)
        match = module.new_match(n, job["rules"], match_seed)
        while not match.is_over:
            seat = match.current_player
            obs = match.observation(seat)
            legal = match.legal_actions()
            if seat == a_seat:
                start = time.perf_counter()
                action = job["a"].choose(obs, legal, rng)
                out.times.append(time.perf_counter() - start)
            else:
                action = job["b"].choose(obs, legal, rng)
            match.apply(action, seat)
        scores = match.scores
        mine = scores[a_seat]
        others = [s for i, s in enumerate(scores) if i != a_seat]
        out.games += 1
        out.points += mine - sum(others) / len(others)
        if mine > max(others):
            out.wins += 1
        elif mine == max(others):
            out.draws += 1
    return out


def arena(game: str, a: str, b: str, deals: int, seed: int = 1, rules: Any = None,
          num_players: int | None = None, workers: int = 1, progress: bool = False
          ) -> ArenaResult:
    """Play ``deals`` paired deals of ``game`` between levels ``a`` and ``b``."""
    module = game_module(game)
    n = num_players or module.PLAYERS[0]
    rules = rules or module.Rules()
    total = ArenaResult(game, a, b, rounds=getattr(rules, "rounds", 0), workers=workers)
    start = time.perf_counter()
    args = (game, a, b, rules, n, seed)
    if workers > 1:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers, initializer=_setup, initargs=args) as pool:
            for done, part in enumerate(pool.imap_unordered(play_deal, range(deals)), 1):
                total.add(part)
                _report_progress(progress, done, total, start)
    else:
        _setup(*args)
        for done, deal in enumerate(range(deals), 1):
            total.add(play_deal(deal))
            _report_progress(progress, done, total, start)
    total.seconds = time.perf_counter() - start
    return total


def _report_progress(on: bool, done: int, total: ArenaResult, start: float) -> None:
    if on and done % 10 == 0:
        lo, hi = total.interval()
        print(f"  ... {done} deals, win rate {total.win_rate:.1%} [{lo:.1%}-{hi:.1%}],"
              f" {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai arena", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--a", default="hard", help="level measured (default hard)")
    parser.add_argument("--b", default="greedy", help="level it plays against (default greedy)")
    parser.add_argument("--games", type=at_least_one, default=1000, help="paired deals to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    parser.add_argument("--rounds", type=int, help="rounds per match (default: the rules')")
    parser.add_argument("--players", type=at_least_one, help="seats (default: the game's minimum)")
    parser.add_argument("--workers", type=at_least_one, default=1, help="processes (at most 2 here)")
    parser.add_argument("--progress", action="store_true", help="print the running win rate")
    args = parser.parse_args(argv)
    try:
        _, rules = checked(args.game, (args.a, args.b), args.preset, args.set, args.rounds,
                           args.players)
    except BadInput as exc:
        return refuse(exc)
    result = arena(args.game, args.a, args.b, args.games, args.seed, rules, args.players,
                   args.workers, args.progress)
    print("\n".join(result.lines()))
    return 0
