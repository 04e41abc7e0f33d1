"""Engine-contract properties of Hana-Awase over random seeds, player counts and options."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.hana_awase import HanaAwaseRound, Rules, new_round
from bot.games.rng import Rng

from ..mushi.contract import (
    check_cards_accounted,
    check_illegal_rejected,
    check_json_round_trip,
    check_observations_hide_cards,
    check_reproducible,
    random_playout,
)

seeds = st.integers(min_value=0, max_value=2**63)
players = st.sampled_from([2, 3, 4])
rules = st.sampled_from([
    Rules(),
    Rules.preset("fudawiki"),
    Rules(teyaku=True, wild_lightning=True, two_player_hand=10),
    Rules(teyaku=True, play_out_stock=False, fuke=True, compensation=True, chaff_value=0),
    Rules.preset("fudawiki", teyaku=True, wild_lightning=True, willow_row="owner_only"),
])
FEW = settings(max_examples=25, deadline=None)


@FEW
@given(seeds, players, rules)
def test_all_48_cards_accounted_for_after_every_action(seed, n, r):
    check_cards_accounted(new_round(n, r, seed=seed), seed, 48)


@FEW
@given(seeds, players, rules)
def test_illegal_and_out_of_turn_actions_change_nothing(seed, n, r):
    check_illegal_rejected(new_round(n, r, seed=seed), seed)


@FEW
@given(seeds, players, rules)
def test_observations_never_show_a_hidden_card(seed, n, r):
    check_observations_hide_cards(new_round(n, r, seed=seed), seed)


@FEW
@given(seeds, players, rules, st.integers(min_value=0, max_value=30))
def test_json_round_trip_mid_round_continues_identically(seed, n, r, cut):
    check_json_round_trip(new_round(n, r, seed=seed), seed, cut, HanaAwaseRound)


@FEW
@given(seeds, players, rules)
def test_same_seed_and_actions_give_the_same_events(seed, n, r):
    check_reproducible(lambda s: new_round(n, r, seed=s, dealer=s % n), seed)


@FEW
@given(seeds, players)
def test_zero_sum_rounds_sum_to_zero(seed, n):
    state = new_round(n, Rules.preset("fudawiki", teyaku=True, compensation=True), seed=seed)
    random_playout(state, Rng(seed))
    assert sum(state.result().points) == 0
    assert sum(state.result().detail["card_points"]) == 264
