"""Every game's round keeps its attributes where CPython reads them fastest.

CPython (3.11 to 3.13) lets the instances of a class share one table of attribute names, up to
30 names. Past that, each instance gets a dict of its own, and every read of an attribute becomes
a look-up in that dict: hinted, but slower. A round's moves read its attributes hundreds of times
a round; Go-Stop's round, with 44 of them, ran a tenth slower for it until it kept them in slots
(``GoStopRound.__slots__``). A new attribute must not cross the line unnoticed.
"""

from __future__ import annotations

import pytest

from bot.games import GAMES, game_module
from bot.games.rng import Rng

SHARED_NAMES = 30


@pytest.mark.parametrize("game", GAMES)
def test_a_round_keeps_its_dict_within_the_shared_name_table(game):
    module = game_module(game)
    most = 0
    for preset in module.Rules.PRESETS:
        rules = module.Rules.preset(preset)
        for seats in sorted(set(module.PLAYERS)):  # the fewest and the most seats
            for seed in range(4):
                state = module.new_round(num_players=seats, rules=rules, seed=seed)
                rng = Rng(seed)
                while not state.is_over:
                    most = max(most, len(vars(state)))
                    legal = state.legal_actions()
                    state.apply(legal[rng.below(len(legal))])
                most = max(most, len(vars(state)))
                restored = type(state).from_dict(state.to_dict())
                most = max(most, len(vars(restored)))
    assert 0 < most <= SHARED_NAMES
