"""``python -m bot.bench engine``: Koi-Koi engine speed on one core.

Prints complete random-play rounds per second (deal, every legal-action generation, apply with
its legality check, scoring after every turn) and legal-action generations per second, as the
median of several runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.games import game_module
from bot.games.rng import Rng


def rounds_per_second(game: str, rounds: int, seed: int) -> float:
    module = game_module(game)
    rng = Rng(seed)
    start = time.perf_counter()
    for i in range(rounds):
        state = module.new_round(num_players=module.PLAYERS[0], rules=None, seed=seed + i)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return rounds / (time.perf_counter() - start)


def legal_actions_per_second(game: str, positions: int, seed: int) -> float:
    module = game_module(game)
    rng = Rng(seed)
    states = []
    i = 0
    while len(states) < 200:  # a spread of mid-round positions
        state = module.new_round(num_players=module.PLAYERS[0], rules=None, seed=seed + i)
        i += 1
        for _ in range(rng.below(12)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        if not state.is_over:
            states.append(state)
    start = time.perf_counter()
    for k in range(positions):
        states[k % len(states)].legal_actions()
    return positions / (time.perf_counter() - start)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench engine")
    parser.add_argument("--game", default="koikoi")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    rps = [rounds_per_second(args.game, args.rounds, 1000 * r) for r in range(args.runs)]
    lps = [legal_actions_per_second(args.game, 100_000, r) for r in range(args.runs)]
    print(f"{args.game} engine, one core, median of {args.runs} runs")
    print(f"  random-play rounds/s:       {statistics.median(rps):10,.0f}  (runs: "
          + ", ".join(f"{v:,.0f}" for v in rps) + ")")
    print(f"  legal-action generations/s: {statistics.median(lps):10,.0f}  (runs: "
          + ", ".join(f"{v:,.0f}" for v in lps) + ")")
