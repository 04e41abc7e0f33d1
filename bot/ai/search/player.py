"""Determinized Monte Carlo search (perfect-information Monte Carlo) over the engine contract.

Each iteration samples a world from the observation (:mod:`.worlds`: the hidden cards dealt out
at random, consistently with what this seat has seen), then plays every candidate action in that
same world and finishes the round with the greedy player for every seat. Using the same world and
the same rollout seed for every candidate (common random numbers) makes their comparison far less
noisy than independent samples. The budget is spent in stages, and after each stage the worse half
of the candidates is dropped (sequential halving), so most rollouts go to the close calls. The
action with the best mean value is chosen. Koi-koi/stop and go/stop are ordinary candidates, so
they are searched, not thresholds.

A rollout is valued by the round's points for this seat minus the best other seat, turned into
the chance of winning the match when the match has a fixed number of rounds: the match scores, the
rounds left and a per-game spread of round results say how much a point is worth now.

The budget is ``iterations`` rollouts, cut short by ``seconds`` of wall clock when given; with no
time cap the same observation and seed always give the same action.
"""

from __future__ import annotations

import functools
import importlib
import math
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from bot.games.base import Action, RoundState
from bot.games.capture import FishingRound
from bot.games.descriptor import SearchProfile, descriptor, descriptors, resolve
from bot.games.rng import Rng

from .worlds import Sampler, fast_clone


@functools.cache
def _resolved(path: str) -> Any:
    return resolve(path)


def _profile(game: str) -> SearchProfile:
    """What the search knows of ``game``: its descriptor's search profile."""
    try:
        return descriptor(game).search
    except KeyError:
        return SearchProfile()

# Standard deviation of one round's point difference between two greedy players, per game
# (measured in greedy self play, 20 default matches per game): the search profiles' ``spread``.
SPREAD = {d.slug: d.search.spread for d in descriptors() if d.search.spread is not None}

Policy = Callable[[RoundState, list[Action], Rng], Action]


def greedy_policy(game: str) -> Policy:
    """The game's greedy player, fed the observation of the seat to act in the sampled world."""
    player = importlib.import_module(f"bot.ai.{game}").GreedyPlayer()
    fast = _FAST.get(game)  # None: the greedy player reads the observation

    def policy(state: RoundState, legal: list[Action], rng: Rng) -> Action:
        if fast is not None:
            action = fast(player, state, legal, rng)
            if action is not None:
                return action
        return player.choose(state.observation(state.current_player), legal, rng)
    return policy


class _Readers(Mapping[str, Callable[..., Action | None]]):
    """Game -> the greedy choice read straight from a round state (its search profile's
    ``greedy_reader``), imported when first asked for."""

    def __getitem__(self, game: str) -> Callable[..., Action | None]:
        path = _profile(game).greedy_reader
        if path is None:
            raise KeyError(game)
        return _resolved(path)

    def __iter__(self) -> Iterator[str]:
        return (d.slug for d in descriptors() if d.search.greedy_reader)

    def __len__(self) -> int:
        return sum(1 for _ in self)


_FAST = _Readers()


# The apply methods that only check an action before making it (the contract's, and the fishing
# rounds' direct check of a play): an action a rollout took from the round's own legal actions
# skips them and is made by _apply at once.
_CHECKING_APPLIES = frozenset({RoundState.apply, FishingRound.apply})


def checks_only(state: RoundState) -> bool:
    """Whether ``state.apply`` does nothing but check the action and make it with ``_apply``."""
    return type(state).apply in _CHECKING_APPLIES


def _step(state: RoundState, action: Action) -> None:
    """Apply an action known to be legal (skipping the legality check where that is safe: the
    legal actions a round keeps are told stale by their key)."""
    if checks_only(state):
        state._apply(action)
    else:
        state.apply(action)


def rollout(state: RoundState, policy: Policy, rng: Rng) -> list[int]:
    """Play ``state`` to the end of the round with ``policy``; the round's points per seat."""
    direct = checks_only(state)
    while state.current_player is not None:
        if direct:  # every step is a new position: generate, with no cache to key or copy
            legal = state._legal_actions()
            state._apply(legal[0] if len(legal) == 1 else policy(state, legal, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) == 1 else policy(state, legal, rng))
    return state.result().points


class Valuer:
    """Turns a round's points into what this seat wants: match wins, else a point lead."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.seat = obs["seat"]
        match = obs.get("match") or {}
        scores = match.get("scores")
        rounds = match.get("rounds") or 0
        self.lead = None
        if scores and rounds and len(scores) == 2:
            self.lead = scores[self.seat] - scores[1 - self.seat]
            left = max(0, rounds - match.get("round", rounds))
            self.scale = SPREAD.get(obs["game"], 10.0) * math.sqrt(left)
            self.unit = SPREAD.get(obs["game"], 10.0)

    def __call__(self, points: list[int]) -> float:
        me = points[self.seat]
        diff = me - max(p for s, p in enumerate(points) if s != self.seat)
        if self.lead is None:
            return float(diff)
        final = self.lead + diff
        if self.scale == 0:
            win = 1.0 if final > 0 else 0.5 if final == 0 else 0.0
        else:
            win = 0.5 * (1.0 + math.erf(final / (self.scale * math.sqrt(2.0))))
        # In points-like units; a small share of the raw difference still breaks ties.
        return 4.0 * self.unit * win + 0.05 * diff


class SearchPlayer:
    """Determinized Monte Carlo search with the greedy player as rollout policy.

    ``iterations`` is the number of rollouts per decision; ``seconds`` (optional) caps the wall
    clock of one decision. ``policy`` overrides the rollout policy (``state, legal, rng ->
    action``). ``prior`` > 0 keeps the greedy player's move unless the search's best beats it by
    more than ``prior`` standard errors of their paired difference: with few, noisy rollouts the
    search would otherwise trade a good heuristic move for a lucky-looking one. ``phases``, when
    given, limits the search to those observation phases (the greedy player moves in the others).
    """

    def __init__(self, game: str, iterations: int = 200, seconds: float | None = None,
                 name: str = "search", policy: Policy | None = None, prior: float = 0.0,
                 phases: frozenset[str] | None = None, width: int | None = None) -> None:
        self.game = game
        self.width = width
        self.phases = phases
        self.prior = prior
        self.iterations = iterations
        self.seconds = seconds
        self.name = name
        self.policy = policy or greedy_policy(game)
        dedicated = _profile(game).rollout  # a loop of the game's own that plays the greedy player
        self.fast = policy is None and dedicated is not None
        self.dedicated = _resolved(dedicated) if self.fast else None
        self.fallback = importlib.import_module(f"bot.ai.{game}").GreedyPlayer()

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        if observation.get("phase") == "race":  # First Bloom: slap at once
            mine = Action("slap", str(observation["seat"]))
            return mine if mine in legal else legal[0]
        searched = self.phases is None or observation.get("phase") in self.phases
        means = self.evaluate(observation, legal, rng) if searched else {}
        if not means:
            return self.fallback.choose(observation, legal, rng)
        best = max(means.values())
        choice = next(a for a in legal if means.get(a) == best)
        if self.prior > 0:
            heuristic = self.fallback.choose(observation, legal, rng)
            if heuristic in means and heuristic != choice:
                mine, theirs = self.samples[choice], self.samples[heuristic]
                diffs = [v - theirs[w] for w, v in mine.items() if w in theirs]
                n = len(diffs)
                if n < 2:
                    return heuristic
                mean = sum(diffs) / n
                var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
                if mean <= self.prior * math.sqrt(var / n):
                    return heuristic
        return choice

    def play_out(self, world: RoundState, action: Action, rng: Rng) -> list[int]:
        """The round's points after ``action`` in ``world`` (left unchanged), then the policy."""
        if self.fast and world.phase in ("play", "choose_draw", "decide"):
            return self.dedicated(world, rng, action)
        state = fast_clone(world)
        _step(state, action)
        return rollout(state, self.policy, rng)

    def evaluate(self, observation: dict[str, Any], legal: list[Action], rng: Rng
                 ) -> dict[Action, float]:
        """Mean value of each candidate still in the race (empty: the phase is not searched).

        Sequential halving: the budget is split into stages; after each stage the worse half of
        the candidates is dropped, so most rollouts go to the close calls at the top.
        """
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        sampler = Sampler(observation)
        if not sampler.ok:
            return {}
        value = Valuer(observation)
        active = list(legal)
        if self.width is not None and len(active) > self.width and hasattr(self.fallback, "ranked"):
            active = self.fallback.ranked(observation, legal, rng)[:self.width]
        totals = {a: 0.0 for a in active}
        counts = {a: 0 for a in active}
        self.samples: dict[Action, dict[int, float]] = {a: {} for a in active}
        stages = max(1, math.ceil(math.log2(len(active))))
        per_stage = self.iterations / stages
        spent = 0
        for stage in range(stages):
            goal = min(self.iterations, round(per_stage * (stage + 1)))
            while spent < goal or not counts[active[0]]:
                world = sampler.world(rng)
                seed = rng.next64()
                for a in active:
                    v = value(self.play_out(world, a, Rng(seed)))
                    self.samples[a][seed] = v
                    totals[a] += v
                    counts[a] += 1
                    spent += 1
                if deadline is not None and time.perf_counter() > deadline:
                    return {a: totals[a] / counts[a] for a in active}
            if len(active) > 2:
                active.sort(key=lambda a: totals[a] / counts[a], reverse=True)
                active = active[:max(2, (len(active) + 1) // 2)]
        return {a: totals[a] / counts[a] for a in active}
