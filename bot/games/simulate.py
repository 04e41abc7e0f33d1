"""Play many AI-vs-AI matches of any game and report win rates, points, yaku and draws.

``python -m bot.games simulate koikoi --games 1000 --players greedy,random --seed 1``

Seats rotate from match to match so no player keeps the first-dealer advantage. Win rates come
with 95% Wilson intervals; a shared first place counts as a draw.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.ai import make_player
from bot.cliargs import at_least_one
from bot.games import game_module
from bot.games.cli import BadInput, checked, refuse
from bot.games.events import round_yaku
from bot.games.rng import Rng


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    name: str
    wins: int = 0
    draws: int = 0
    points: int = 0
    rounds_won: int = 0
    yaku: Counter = field(default_factory=Counter)


@dataclass
class Report:
    game: str
    games: int
    tallies: list[Tally]
    rounds: int
    drawn_rounds: int
    seconds: float
    reasons: Counter

    def lines(self) -> list[str]:
        out = [f"{self.game}: {self.games} matches, {self.rounds} rounds, {self.seconds:.1f} s"]
        for t in self.tallies:
            lo, hi = wilson(t.wins, self.games)
            out.append(
                f"  {t.name:<12} wins {t.wins / self.games:6.1%} [95% CI {lo:.1%}-{hi:.1%}]"
                f"  draws {t.draws / self.games:5.1%}  points/match {t.points / self.games:+7.2f}"
                f"  rounds won {t.rounds_won}"
            )
        out.append(f"  drawn rounds: {self.drawn_rounds / max(1, self.rounds):.1%}"
                   f"  round endings: {dict(self.reasons.most_common())}")
        yaku = Counter()
        for t in self.tallies:
            yaku.update(t.yaku)
        if yaku:
            freq = ", ".join(f"{slug} {n / max(1, self.rounds):.1%}" for slug, n in yaku.most_common())
            out.append(f"  yaku per round: {freq}")
        return out


def simulate(game: str, levels: list[str], games: int, seed: int, rules: Any = None) -> Report:
    module = game_module(game)
    n = len(levels)
    players = [make_player(level, game) for level in levels]
    tallies = [Tally(f"{lvl}#{i}" if levels.count(lvl) > 1 else lvl) for i, lvl in enumerate(levels)]
    rng = Rng(seed)
    rounds = drawn = 0
    reasons: Counter = Counter()
    start = time.perf_counter()
    for g in range(games):
        # seat s is played by player order[s]; rotate so everyone deals first equally often
        order = [(s + g) % n for s in range(n)]
        match = module.new_match(n, rules, seed * 1_000_003 + g)
        events = list(match.intro_events)  # a first round the deal decides ended in these
        while True:
            for ev in events:
                if ev["type"] != "round_over":
                    continue
                rounds += 1
                reasons[ev.get("reason", "")] += 1
                if ev.get("winner") is None:
                    drawn += 1
                else:
                    tallies[order[ev["winner"]]].rounds_won += 1
                for s, yaku in round_yaku(ev).items():
                    tallies[order[s]].yaku.update(y[0] for y in yaku)
            if match.is_over:
                break
            seat = match.current_player
            action = players[order[seat]].choose(match.observation(seat), match.legal_actions(), rng)
            events = match.apply(action, seat)
        best = max(match.scores)
        top = [s for s, v in enumerate(match.scores) if v == best]
        for s, score in enumerate(match.scores):
            tallies[order[s]].points += score
        if len(top) == 1:
            tallies[order[top[0]]].wins += 1
        else:
            for s in top:
                tallies[order[s]].draws += 1
    return Report(game, games, tallies, rounds, drawn, time.perf_counter() - start, reasons)


def main(argv: list[str]) -> int:
    """Run the simulation; a bad game, level, option or seat count is one sentence on stderr
    and exit code 2, before any match is played."""
    parser = argparse.ArgumentParser(prog="python -m bot.games simulate")
    parser.add_argument("game")
    parser.add_argument("--games", type=at_least_one, default=1000)
    parser.add_argument("--players", default="greedy,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    args = parser.parse_args(argv)
    levels = args.players.split(",")
    try:
        _, rules = checked(args.game, levels, args.preset, args.set, players=len(levels))
    except BadInput as exc:
        return refuse(exc)
    report = simulate(args.game, levels, args.games, args.seed, rules)
    print("\n".join(report.lines()))
    return 0
