"""A round nobody watches (``narrated = False``, the search's sampled worlds) plays exactly as a
narrated one: the same positions, legal actions and outcome, only without the capture events."""

from __future__ import annotations

import pytest

from bot.games import ENGINES, game_module
from bot.games.rng import Rng

# What the shared capture moves stop telling; Go-Stop's own turn (its plays, its stock cards and
# its captures; a ppeok, a steal or a score is still told); the shedding game's sheds, the field
# cards turned up after them and whose turn is next (a pass, a struggle, an effect or a win is
# still told). Seotda's bets are always told.
_SILENCED = {"play", "draw", "drew"}
_SILENCED_BY = {
    "gostop": {"play", "draw", "capture"},
    "shedding": {"match", "field_pair", "pair", "field_hiki", "hand_hiki", "field", "turn"},
}
_OWN_MOVES = ("seotda",)


def _position(state) -> dict:
    data = state.to_dict()
    data.pop("last_move", None)  # what a watcher is shown of the last move
    return data


def _play_both(module, rules, players: int, seed: int, untold: set[str]) -> int:
    """Play one round told and untold side by side; how many events the untold one left out."""
    told = module.new_round(num_players=players, rules=rules, seed=seed)
    quiet = module.new_round(num_players=players, rules=rules, seed=seed)
    quiet.narrated = False
    rng = Rng(seed)
    silenced = 0
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
    return silenced


@pytest.mark.parametrize("game", ENGINES)
def test_a_round_nobody_watches_plays_the_same(game):
    module = game_module(game)
    untold = set() if game in _OWN_MOVES else _SILENCED_BY.get(game, _SILENCED)
    silenced = 0
    for preset in module.Rules.PRESETS:
        for seed in range(4):
            rules = module.Rules.preset(preset, rounds=1, target_score=0)
            silenced += _play_both(module, rules, module.PLAYERS[0], seed, untold)
    assert silenced > 100 if game not in _OWN_MOVES else silenced == 0


# Go-Stop's turns that neither preset reaches often: jokers turned from the stock and played from
# the hand, stealing jokers, bombs that draw, small bombs, ppeok and triplet steals, three seats.
_GOSTOP_OPTIONS = [
    {"jokers": 3, "joker_power": "steal"},
    {"jokers": 2, "bomb_mode": "draw_three", "small_bomb": "bomb", "steal_triplets": "any"},
    {"bomb_mode": "draw_two", "steal_four_of_month": 1, "steal_three_triplets": 2,
     "steal_first_turn_kinds": 1, "three_ppeok": "win", "mission": "month"},
]


@pytest.mark.parametrize("options", _GOSTOP_OPTIONS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("players", [2, 3])
def test_a_gostop_round_nobody_watches_plays_the_same_under_its_options(options, players):
    module = game_module("gostop")
    rules = module.Rules.preset("korean", rounds=1, target_score=0, **options)
    silenced = sum(_play_both(module, rules, players, seed, _SILENCED_BY["gostop"])
                   for seed in range(12))
    assert silenced > 100
