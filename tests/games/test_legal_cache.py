"""The legal actions kept per position are always those a fresh generation gives, however the
position was reached: through ``apply``, or through ``_apply`` directly as the search's rollouts
do (which leaves the kept list in place: its key must tell the position has moved)."""

from __future__ import annotations

import pytest

from bot.games import ENGINES, game_module
from bot.games.rng import Rng

DEALS = {"seotda": 40}  # a Seotda hand is a few bets: more deals for as many positions


@pytest.mark.parametrize("game", ENGINES)
@pytest.mark.parametrize("direct", [False, True], ids=["apply", "_apply"])
def test_kept_legal_actions_are_always_fresh(game, direct):
    module = game_module(game)
    checked = 0
    for preset in module.Rules.PRESETS:
        for seed in range(DEALS.get(game, 6)):
            rules = module.Rules.preset(preset, rounds=1, target_score=0)
            state = module.new_round(num_players=module.PLAYERS[0], rules=rules, seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                kept = state.legal_actions()
                assert kept == state._legal_actions()
                action = kept[rng.below(len(kept))]
                assert state.check(action) is action  # found by identity among the kept ones
                if direct:
                    state._apply(action)
                else:
                    state.apply(action)
                checked += 1
    assert checked > 100
