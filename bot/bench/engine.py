"""``python -m bot.bench engine``: the engines' and the search's speed on one core.

For each game (or ``--game``): complete random-play rounds per second (deal, every legal-action
generation, apply with its legality check, scoring after every turn), legal-action generations
per second, and the search AI's rollouts per second (a sampled world from a mid-round
observation, a candidate action, the rest of the round by the greedy policy: what the hard and
expert levels spend their time on; a game whose hard player is not the search shows none).
Medians of several runs. Random play deals as a new game does (the newest shuffle); the positions
the other two are timed on are dealt alike on every checkout (see ``_same_deals``).
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import time

from bot.ai.search.worlds import BUILDERS
from bot.cliargs import at_least_one
from bot.games import GAMES, game_module
from bot.games.rng import Rng

# Wall time by default; ``--clock cpu`` reads this process's CPU time instead, which a machine
# busy with other work disturbs far less (the bench is one process on one core either way).
_clock = time.perf_counter


def _players(game: str) -> int:
    return game_module(game).PLAYERS[0]


def rounds_per_second(game: str, rounds: int, seed: int) -> float:
    module = game_module(game)
    # The bench's own picks come from C (random.Random's floats; the bias of int(x * n) is
    # under 2**-45 here), so that what is timed is the engine: the game's own generator costs a
    # few microseconds a pick in Python, as much as a tenth of a round. Which moves are picked
    # does not matter, only that they are random and the same for every checkout.
    pick = random.Random(seed).random
    players = _players(game)
    start = _clock()
    for i in range(rounds):
        state = module.new_round(num_players=players, rules=None, seed=seed + i)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[int(pick() * len(legal))])
    return rounds / (_clock() - start)


def _same_deals(new_round) -> dict:
    """Deal the positions with shuffle 1 where the engine has a choice, so that every checkout
    (an older one knows no other) times its legal actions and rollouts on the very same
    positions: twenty positions make too small a sample to let the deals differ."""
    return {"shuffle": 1} if "shuffle" in inspect.signature(new_round).parameters else {}


def _positions(game: str, count: int, seed: int) -> list:
    """A spread of mid-round positions (rounds after a few random moves)."""
    module = game_module(game)
    same = _same_deals(module.new_round)
    rng = Rng(seed)
    states = []
    i = 0
    while len(states) < count:
        state = module.new_round(num_players=_players(game), rules=None, seed=seed + i, **same)
        i += 1
        for _ in range(rng.below(12)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        if not state.is_over:
            states.append(state)
    return states


def legal_actions_per_second(game: str, positions: int, seed: int) -> float:
    """Generations on positions that change every call (no generation answered from a cache)."""
    states = _positions(game, 200, seed)
    clean = [s.to_dict() for s in states]
    rebuilt = [type(s).from_dict(d) for s, d in zip(states, clean, strict=True)]
    start = _clock()
    for k in range(positions):
        state = rebuilt[k % len(rebuilt)]
        state._legal = None  # as if it were a new position
        state.legal_actions()
    return positions / (_clock() - start)


def rollouts_per_second(game: str, rollouts: int, seed: int) -> float:
    """The search's rollouts: sampled world, candidate, greedy to the round's end."""
    from bot.ai.search import Sampler, SearchPlayer

    module = game_module(game)
    player = SearchPlayer(game)
    rng = Rng(seed)
    jobs = []
    for state in _positions(game, 20, seed):
        match = module.new_match(_players(game), module.Rules().replace(rounds=1), seed)
        match.round = state
        obs = match.observation(state.current_player)
        sampler = Sampler(obs)
        if sampler.ok:
            jobs.append((sampler, state.legal_actions()))
    start = _clock()
    done = 0
    while done < rollouts:
        sampler, legal = jobs[done % len(jobs)]
        world = sampler.world(rng)
        player.play_out(world, legal[done % len(legal)], Rng(done))
        done += 1
    return rollouts / (_clock() - start)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, help="one game (default: every game)")
    parser.add_argument("--rounds", type=int, default=1000, help="random-play rounds per run")
    parser.add_argument("--rollouts", type=int, default=1000, help="search rollouts per run")
    parser.add_argument("--runs", type=at_least_one, default=3)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time by the wall clock (default) or by this process's CPU time")
    args = parser.parse_args(argv)
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter
    games = [args.game] if args.game else list(GAMES)
    print(f"engines on one core, median of {args.runs} runs ({args.clock} clock)")
    print(f"  {'game':<11} {'rounds/s':>10} {'legal gens/s':>13} {'rollouts/s':>11}")
    for game in games:
        rps = [rounds_per_second(game, args.rounds, 1000 * r) for r in range(args.runs)]
        lps = [legal_actions_per_second(game, 50_000, r) for r in range(args.runs)]
        if game in BUILDERS:
            ros = [rollouts_per_second(game, args.rollouts, r) for r in range(args.runs)]
            rollouts = f"{statistics.median(ros):11,.0f}"
        else:  # its hard player is not the search (Seotda's weighs sampled equity)
            rollouts = f"{'-':>11}"
        print(f"  {game:<11} {statistics.median(rps):10,.0f} {statistics.median(lps):13,.0f} "
              f"{rollouts}", flush=True)
