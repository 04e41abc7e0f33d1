"""``python -m bot.bench coach``: what the coach costs on one core.

- **Review**: a default match (Koi-Koi: 12 rounds; Go-Stop: 10 rounds, two players) played by the
  greedy player at both seats, then every decision of seat 0 priced as ``/review`` prices it
  (:func:`bot.ai.coach.price` at ``--review-rollouts`` per move, a third of it where the
  rollouts run the engine). The figure is the CPU seconds
  of this one process, which is what one AI worker spends on the review; the decisions and the
  candidate moves are printed with it, since they vary from match to match.
- **Hint**: positions where the player to act has a choice, taken along greedy matches of every
  game with a search AI, each priced as the Hint button prices it (``--hint-rollouts``); the
  median and the slowest answer in wall-clock milliseconds (what the player waits for, on top of
  Discord's round trip).

Medians over ``--matches`` matches; every run deals the same matches from ``--seed``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.ai import make_player
from bot.ai.coach import HINT_ROLLOUTS, REVIEW_ROLLOUTS, budget, decisions, price, searchable
from bot.games import GAMES, game_module
from bot.games.rng import Rng

REVIEWED = ("koikoi", "gostop")


def _match_log(game: str, seed: int):
    """A default two-player match of greedy players: its dealer and its stored-like log."""
    module = game_module(game)
    rules = module.Rules()

    def new():
        return module.new_match(2, rules, seed)

    match = new()
    players = [make_player("greedy", game), make_player("greedy", game)]
    rng = Rng(seed)
    log = []
    while not match.is_over:
        seat = match.current_player
        action = players[seat].choose(match.observation(seat), match.legal_actions(), rng)
        log.append((len(log) + 1, str(action), seat))
        match.apply(action, seat)
    return new, log, match.round_number


def review_cost(game: str, seed: int, rollouts: int) -> tuple[float, int, int, int]:
    """(CPU seconds, decisions, candidate moves, rounds) of reviewing seat 0 of one match."""
    new, log, rounds = _match_log(game, seed)
    start = time.process_time()
    found = decisions(game, new, log, 0, 0, seed)
    moves = 0
    for d in found:
        moves += len(price(*d.job(game, rollouts)))
    return time.process_time() - start, len(found), moves, rounds


def hint_times(game: str, seed: int, rollouts: int, positions: int) -> list[tuple[float, float]]:
    """(wall-clock, CPU) seconds of pricing ``positions`` decisions of greedy matches of
    ``game`` at ``rollouts`` per move."""
    module = game_module(game)
    greedy = make_player("greedy", game)
    rng = Rng(seed)
    times: list[tuple[float, float]] = []
    index = 0
    while len(times) < positions:
        match = module.new_match(module.PLAYERS[0], module.Rules(), Rng(seed).fork(index).next64())
        index += 1
        step = 0
        while not match.is_over and len(times) < positions:
            seat = match.current_player
            obs, legal = match.observation(seat), match.legal_actions()
            step += 1
            if len(legal) > 1 and step % 3 == 0:  # every third choice: a spread of positions
                start, cpu = time.perf_counter(), time.process_time()
                priced = price(game, obs, [str(a) for a in legal], rng.next64(), rollouts)
                if priced:
                    times.append((time.perf_counter() - start, time.process_time() - cpu))
            match.apply(greedy.choose(obs, legal, rng), seat)
    return times


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench coach", description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3, help="matches reviewed per game")
    parser.add_argument("--positions", type=int, default=40, help="hint positions per game")
    parser.add_argument("--review-rollouts", type=int, default=REVIEW_ROLLOUTS)
    parser.add_argument("--hint-rollouts", type=int, default=HINT_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeat for several)")
    parser.add_argument("--no-review", action="store_true", help="time the hints only")
    args = parser.parse_args(argv)
    if min(args.matches, args.positions, args.review_rollouts, args.hint_rollouts) < 1:
        parser.error("--matches, --positions and the rollouts must be at least 1")
    games = args.game or [g for g in GAMES if searchable(g)]
    unknown = [g for g in games if not searchable(g)]
    if unknown:
        parser.error(f"no search AI for {', '.join(unknown)}; choose from "
                     f"{', '.join(g for g in GAMES if searchable(g))}")
    if args.no_review:
        games_reviewed = []
    else:
        games_reviewed = [g for g in REVIEWED if g in games]
        print(f"review at {args.review_rollouts} rollouts per move (CPU seconds of one process):")
    for game in games_reviewed:
        rollouts = budget(game, args.review_rollouts)
        runs = [review_cost(game, args.seed + m, rollouts) for m in range(args.matches)]
        cpu = statistics.median(r[0] for r in runs)
        found = statistics.median(r[1] for r in runs)
        moves = statistics.median(r[2] for r in runs)
        rounds = statistics.median(r[3] for r in runs)
        print(f"  {game} ({rollouts} per move): {cpu:.1f} s for a {rounds:.0f}-round match ({found:.0f} decisions,"
              f" {moves:.0f} moves priced; median of {len(runs)}; slowest {max(r[0] for r in runs):.1f} s)")
    print(f"hint at {args.hint_rollouts} rollouts per move where the game has a dedicated rollout"
          f" loop, a third of it elsewhere (wall-clock and CPU ms):")
    for game in games:
        rollouts = budget(game, args.hint_rollouts)
        times = hint_times(game, args.seed, rollouts, args.positions)
        wall, cpu = [t[0] for t in times], [t[1] for t in times]
        print(f"  {game} ({rollouts} per move): median {1000 * statistics.median(wall):.0f} ms,"
              f" slowest {1000 * max(wall):.0f} ms; CPU median {1000 * statistics.median(cpu):.0f}"
              f" ms, slowest {1000 * max(cpu):.0f} ms; over {len(times)} positions")
