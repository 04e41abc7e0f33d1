"""Which rating system ranks players of known strength correctly with the fewest games?

``python -m bot.ai ratings koikoi --games-per-pair 40 --rounds 3 --trials 300 --seed 1``

The AI levels are players whose order is known (random < greedy < hard < expert). First a pool
of real matches is played for every pair of levels (seats alternating, seeded). Then each trial
replays a random stream of those results (a random pair of levels, one of its matches drawn with
replacement) through each rating system from scratch. At checkpoints along the stream the report
gives, per system, the share of trials whose order of the four levels is right there, and the
games a system needs: the first checkpoint from which at least half the trials are right.
(Neither system stops moving, so "right from some game on, for good" is not a fair measure: an
Elo with a fixed K keeps swapping close neighbours, and so does OpenSkill, more slowly.)

Systems: the pairwise Elo the bot kept before (K = 32, from 1500), and OpenSkill's models:
Plackett-Luce (ranked by its conservative display rating mu - 3 sigma, and by mu alone),
Thurstone-Mosteller with partial pairing and Bradley-Terry with full pairing (by mu - 3 sigma).
For two players Bradley-Terry and Plackett-Luce make the same update; the store rates with
Bradley-Terry, which also keeps tied players equal in games of three or more
(:mod:`bot.store.ratings` says why).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerPart

from bot.ai import make_player
from bot.cliargs import at_least_one, file_to_write
from bot.games import game_module
from bot.games.cli import BadInput, checked, refuse
from bot.games.rng import Rng

LEVELS = ("random", "greedy", "hard", "expert")  # weakest first: the order to find


@dataclass(frozen=True)
class Result:
    """One match between two levels: their placing (0 first; equal on a draw)."""

    levels: tuple[str, str]
    places: tuple[int, int]


def play_pool(game: str, games_per_pair: int, rounds: int, seed: int,
              levels: Sequence[str] = LEVELS, report: Callable[[str], None] = print
              ) -> list[Result]:
    """``games_per_pair`` matches of ``rounds`` rounds for every pair of levels."""
    module = game_module(game)
    rules = module.Rules().replace(rounds=rounds)
    players = {level: make_player(level, game) for level in levels}
    pool = []
    for a, b in itertools.combinations(levels, 2):
        for n in range(games_per_pair):
            seats = (a, b) if n % 2 == 0 else (b, a)  # each deals first and moves first as often
            match_seed = seed * 1_000_003 + len(pool)
            rng = Rng(match_seed)
            match = module.new_match(2, rules, match_seed)
            while not match.is_over:
                seat = match.current_player
                action = players[seats[seat]].choose(match.observation(seat),
                                                     match.legal_actions(), rng)
                match.apply(action, seat)
            s0, s1 = match.scores
            places = (0, 0) if s0 == s1 else (0, 1) if s0 > s1 else (1, 0)
            pool.append(Result(seats, places))
        report(f"  played {a} vs {b}: {games_per_pair} matches")
    return pool


class Elo:
    """The pairwise Elo the store kept before OpenSkill (K 32, from 1500); for two players it
    is plain Elo."""

    name = "Elo (pairwise, K 32)"
    K = 32.0

    def __init__(self, levels: Sequence[str]) -> None:
        self.ratings = dict.fromkeys(levels, 1500.0)

    def play(self, result: Result) -> None:
        (a, b), (pa, pb) = result.levels, result.places
        actual = 0.5 if pa == pb else 1.0 if pa < pb else 0.0
        expected = 1.0 / (1.0 + 10.0 ** ((self.ratings[b] - self.ratings[a]) / 400.0))
        change = self.K * (actual - expected)
        self.ratings[a] += change
        self.ratings[b] -= change

    def order(self) -> list[str]:
        return sorted(self.ratings, key=lambda level: self.ratings[level])


class OpenSkill:
    def __init__(self, levels: Sequence[str], by_mu: bool = False,
                 model: type = PlackettLuce) -> None:
        self.model = model()
        self.ratings = {level: self.model.rating(name=level) for level in levels}
        self.by_mu = by_mu
        kind = {PlackettLuce: "Plackett-Luce", ThurstoneMostellerPart: "Thurstone-Mosteller",
                BradleyTerryFull: "Bradley-Terry"}[model]
        self.name = f"OpenSkill {kind}, by mu" if by_mu else f"OpenSkill {kind}, by mu - 3 sigma"

    def play(self, result: Result) -> None:
        (a, b), places = result.levels, result.places
        [[ra], [rb]] = self.model.rate([[self.ratings[a]], [self.ratings[b]]], ranks=list(places))
        self.ratings[a], self.ratings[b] = ra, rb

    def order(self) -> list[str]:
        value = (lambda r: r.mu) if self.by_mu else (lambda r: r.ordinal())
        return sorted(self.ratings, key=lambda level: value(self.ratings[level]))


SYSTEMS: tuple[Callable[[Sequence[str]], object], ...] = (
    Elo, OpenSkill, lambda levels: OpenSkill(levels, by_mu=True),
    lambda levels: OpenSkill(levels, model=ThurstoneMostellerPart),
    lambda levels: OpenSkill(levels, model=BradleyTerryFull))


CHECKPOINTS = (25, 50, 100, 200, 400, 800, 1600, 3200)
GOAL = 0.5  # the share of trials that must have the order right


def right_at(system, stream: Sequence[Result], truth: list[str], checkpoints: Sequence[int]
             ) -> list[bool]:
    """Whether ``system``'s order is ``truth`` after each checkpoint's number of games."""
    marks = set(checkpoints)
    right = []
    for n, result in enumerate(stream, 1):
        system.play(result)
        if n in marks:
            right.append(system.order() == truth)
    return right


def study(pool: Sequence[Result], trials: int, games: int, seed: int,
          levels: Sequence[str] = LEVELS) -> dict[str, list[float]]:
    """Per system, the share of trials with the order right at each checkpoint up to
    ``games``."""
    checkpoints = [c for c in CHECKPOINTS if c <= games]
    by_pair: dict[tuple[str, str], list[Result]] = {}
    for result in pool:
        by_pair.setdefault(tuple(sorted(result.levels)), []).append(result)
    pairs = sorted(by_pair)
    right: dict[str, list[int]] = {}
    rng = Rng(seed)
    for _ in range(trials):
        stream = []
        for _ in range(checkpoints[-1]):
            matches = by_pair[pairs[rng.below(len(pairs))]]
            stream.append(matches[rng.below(len(matches))])
        for make in SYSTEMS:
            system = make(levels)
            marks = right_at(system, stream, list(levels), checkpoints)
            tally = right.setdefault(system.name, [0] * len(checkpoints))
            for i, ok in enumerate(marks):
                tally[i] += ok
    return {name: [n / trials for n in tally] for name, tally in right.items()}


def games_needed(shares: Sequence[float], games: int) -> int | None:
    """The first checkpoint from which at least GOAL of the trials are right (None: none)."""
    checkpoints = [c for c in CHECKPOINTS if c <= games]
    for i, checkpoint in enumerate(checkpoints):
        if all(share >= GOAL for share in shares[i:]):
            return checkpoint
    return None


def summary(shares: dict[str, list[float]], games: int) -> list[str]:
    checkpoints = [c for c in CHECKPOINTS if c <= games]
    width = max(map(len, shares))
    lines = ["  " + " " * width + "".join(f"{c:>7}" for c in checkpoints) + "   needed"]
    for name, row in shares.items():
        needed = games_needed(row, games)
        lines.append(f"  {name:<{width}}" + "".join(f"{share:>7.0%}" for share in row)
                     + f"   {needed if needed is not None else f'> {checkpoints[-1]}'}")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai ratings", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games-per-pair", type=at_least_one, default=40)
    parser.add_argument("--rounds", type=at_least_one, default=3, help="rounds per match")
    parser.add_argument("--trials", type=at_least_one, default=300)
    parser.add_argument("--games", type=at_least_one, default=1600,
                        help="games in each trial's stream (checkpoints up to it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=lambda text: text if os.path.isfile(text) else file_to_write(text),
                        help="a JSON file: the pool is read from it if it exists, "
                             "else played and written there")
    args = parser.parse_args(argv)
    try:
        checked(args.game, LEVELS, rounds=args.rounds, players=2)
    except BadInput as exc:
        return refuse(exc)
    if args.pool and os.path.exists(args.pool):
        with open(args.pool, encoding="utf-8") as file:
            pool = [Result(tuple(r["levels"]), tuple(r["places"])) for r in json.load(file)]
        print(f"{args.game}: the pool of {len(pool)} matches in {args.pool}")
    else:
        print(f"{args.game}: a pool of {args.games_per_pair} matches of {args.rounds} rounds per "
              f"pair of {', '.join(LEVELS)}", flush=True)
        pool = play_pool(args.game, args.games_per_pair, args.rounds, args.seed,
                         report=lambda line: print(line, flush=True))
        if args.pool:
            with open(args.pool, "w", encoding="utf-8") as file:
                json.dump([{"levels": r.levels, "places": r.places} for r in pool], file)
    wins = {}
    for result in pool:
        key = tuple(sorted(result.levels, key=LEVELS.index))
        won = result.levels[result.places.index(0)] if result.places[0] != result.places[1] else None
        wins.setdefault(key, [0, 0])[0] += (won == key[1]) + 0.5 * (won is None)
        wins[key][1] += 1
    for (weak, strong), (won, total) in wins.items():
        print(f"  {strong} beat {weak} in {won / total:.0%} of {total}")
    shares = study(pool, args.trials, args.games, args.seed)
    print(f"share of {args.trials} trials with the order {' < '.join(LEVELS)} right after so many "
          f"games (a random pair each game); needed: {GOAL:.0%} right from there on")
    for line in summary(shares, args.games):
        print(line)
    return 0
