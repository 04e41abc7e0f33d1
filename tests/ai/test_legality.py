"""Every AI level plans only with legal actions, under every rule set of every game.

Each level plays a match of each preset on every seat. The move it picks must be one of the legal
actions it was given, and inside the search every action a rollout applies to a sampled world
(after a candidate, by the greedy policy) must be legal there under the table's rules: the
engine would refuse an illegal one at the table, turning the planned move into another. Koi-Koi's
search runs the engine's rollouts here; its fast rollout loop, which plays what these would,
is held to them under every preset by test_koikoi_rollout.
The search runs a small fixed budget without a time cap, so the test does the same work on any
machine.
"""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, make_player
from bot.ai.search import player as search
from bot.games import GAMES, game_module
from bot.games.rng import Rng

CASES = [(game, preset, level) for game in GAMES for preset in game_module(game).Rules.PRESETS
         for level in LEVELS]


@pytest.fixture
def checked_rollouts(monkeypatch):
    """Every action the search applies to a world is checked against that world's legal ones."""
    applied = []
    unchecked = search._step

    def step(state, action):
        legal = state.legal_actions()
        assert action in legal, f"the search planned {action} where only {legal} are legal"
        applied.append(action)
        unchecked(state, action)

    monkeypatch.setattr(search, "_step", step)
    return applied


@pytest.mark.parametrize("game, preset, level", CASES)
def test_every_level_plans_only_legal_actions(game, preset, level, checked_rollouts):
    module = game_module(game)
    players = module.PLAYERS[0]
    rules = module.Rules.preset(preset, rounds=1, target_score=0)
    player = make_player(level, game)
    searches = isinstance(player, search.SearchPlayer)  # Seotda's hard and expert weigh equity instead
    if searches:
        player.iterations, player.seconds = (6 if level == "hard" else 10), None
        player.phases = None  # search every phase (Go-Stop searches only go/stop at the table)
        player.fast = False  # Koi-Koi through the engine here, under the check
    rng = Rng(11)
    match = module.new_match(players, rules, 11)
    decisions = 0
    while not match.is_over:
        seat = match.current_player
        legal = match.legal_actions()
        action = player.choose(match.observation(seat), legal, rng)
        assert action in legal, f"{level} chose {action}; legal: {legal}"
        match.apply(action, seat)
        decisions += 1
    assert decisions > 0 or match.history  # a round decided by the deal has no decision
    if searches and decisions:
        assert checked_rollouts  # the rollouts ran under the check
