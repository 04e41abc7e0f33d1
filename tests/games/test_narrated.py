"""A round nobody watches (``narrated = False``, the search's sampled worlds) plays exactly as a
narrated one: the same positions, legal actions and outcome, only without the capture events."""

from __future__ import annotations

import pytest

from bot.games import ENGINES, game_module
from bot.games.rng import Rng

# What the shared capture moves stop telling; Go-Stop's and the shedding game's moves are their
# own and always told, as are Seotda's bets.
_SILENCED = {"play", "draw", "drew"}
_OWN_MOVES = ("gostop", "shedding", "seotda")


def _position(state) -> dict:
    data = state.to_dict()
    data.pop("last_move", None)  # what a watcher is shown of the last move
    return data


@pytest.mark.parametrize("game", ENGINES)
def test_a_round_nobody_watches_plays_the_same(game):
    module = game_module(game)
    untold = set() if game in _OWN_MOVES else _SILENCED
    silenced = 0
    for preset in module.Rules.PRESETS:
        for seed in range(4):
            rules = module.Rules.preset(preset, rounds=1, target_score=0)
            told = module.new_round(num_players=module.PLAYERS[0], rules=rules, seed=seed)
            quiet = module.new_round(num_players=module.PLAYERS[0], rules=rules, seed=seed)
            quiet.narrated = False
            rng = Rng(seed)
            while not told.is_over:
                legal = told.legal_actions()
                assert quiet.legal_actions() == legal
                action = legal[rng.below(len(legal))]
                told_events = told.apply(action)
                quiet_events = quiet.apply(action)
                assert [e for e in told_events if e["type"] not in untold] == quiet_events
                silenced += len(told_events) - len(quiet_events)
                assert _position(quiet) == _position(told)
            assert quiet.is_over and quiet.result() == told.result()
    assert silenced > 100 if game not in _OWN_MOVES else silenced == 0
