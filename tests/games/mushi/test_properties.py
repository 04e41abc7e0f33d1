"""Engine-contract properties of Mushi over random seeds and random legal play."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.mushi import MushiRound, Rules, match_from_dict, new_match, new_round
from bot.games.rng import Rng

from .contract import (
    check_cards_accounted,
    check_illegal_rejected,
    check_json_round_trip,
    check_observations_hide_cards,
    check_reproducible,
    play_match,
    random_playout,
)

seeds = st.integers(min_value=0, max_value=2**63)
rules = st.sampled_from([Rules(), Rules.preset("seed"), Rules(yaku_set="three", field_misdeal="four_or_pairs")])
FEW = settings(max_examples=25, deadline=None)


@FEW
@given(seeds, rules)
def test_all_forty_cards_accounted_for_after_every_action(seed, r):
    check_cards_accounted(new_round(rules=r, seed=seed), seed, 40)


@FEW
@given(seeds)
def test_illegal_and_out_of_turn_actions_change_nothing(seed):
    check_illegal_rejected(new_round(seed=seed), seed)


@FEW
@given(seeds)
def test_observations_never_show_a_hidden_card(seed):
    check_observations_hide_cards(new_round(seed=seed), seed)


@FEW
@given(seeds, st.integers(min_value=0, max_value=20))
def test_json_round_trip_mid_round_continues_identically(seed, cut):
    check_json_round_trip(new_round(seed=seed), seed, cut, MushiRound)


@FEW
@given(seeds, rules)
def test_same_seed_and_actions_give_the_same_events(seed, r):
    check_reproducible(lambda s: new_round(rules=r, seed=s, dealer=s % 2), seed)


@FEW
@given(seeds)
def test_standard_rounds_are_zero_sum_with_every_card_claimed(seed):
    state = new_round(seed=seed)
    random_playout(state, Rng(seed))
    result = state.result()
    assert sum(result.points) == 0
    assert result.detail["unclaimed"] == []
    assert sum(result.detail["card_points"]) == 230


@settings(max_examples=5, deadline=None)
@given(seeds)
def test_a_match_survives_a_json_round_trip(seed):
    match = new_match(seed=seed)
    rng_events = play_match(match, seed)
    again = new_match(seed=seed)
    copy = match_from_dict(json.loads(json.dumps(again.to_dict())))
    assert play_match(copy, seed) == rng_events
