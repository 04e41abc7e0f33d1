"""Options, presets and the rules text shown in /rules."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.games import game_module
from bot.games.base import InvalidRules
from bot.games.shedding import GAME, NAME, OPTIONS, PLAYERS, RULES_TEXT, Rules, new_match
from tests.games.refusals import refused_rules


def test_the_module_is_registered_with_its_contract():
    module = game_module("shedding")
    assert module.GAME == GAME == "shedding" and PLAYERS == (2, 5)
    for name in ("Rules", "Round", "new_round", "new_match", "match_from_dict", "score_yaku"):
        assert hasattr(module, name)


def test_every_option_is_documented_with_a_source():
    fields = {f.name for f in dataclasses.fields(Rules)} - {"preset_name"}
    assert fields == set(OPTIONS)
    for name, (allowed, source, meaning) in OPTIONS.items():
        assert source and meaning
        assert getattr(Rules(), name) in allowed or not allowed
        assert name in Rules.describe(name)


def test_presets():
    assert Rules() == Rules.preset("seed002")
    batsu = Rules.preset("seed002_batsu")
    assert batsu.batsu and batsu.preset_name == "seed002_batsu" and batsu.race_exempt_first
    assert Rules.preset("seed002", purple_ribbon="none").purple_ribbon == "none"
    with refused_rules("unknown preset"):
        Rules.preset("uno")


@pytest.mark.parametrize("change", [
    {"purple_ribbon": "purple"}, {"struggle": "never"}, {"batsu_points": -1},
    {"batsu_points": 101}, {"turn_limit": True}, {"rounds": 0, "target_score": 0},
    {"next_dealer": "loser"}, {"preset_name": "house"},
])
def test_bad_values_are_rejected(change):
    with pytest.raises(InvalidRules):
        Rules(**change)


def test_rules_round_trip_through_json():
    rules = Rules(purple_ribbon="non_poetry", batsu=True, batsu_points=3, rounds=0,
                  target_score=50)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with refused_rules("unknown option"):
        Rules.from_dict({"colour": "red"})


def test_the_rules_text_names_the_game_and_every_reading_without_design_notes():
    assert NAME in RULES_TEXT and "seed" not in RULES_TEXT.lower()
    assert len(RULES_TEXT) <= 4096  # one Discord embed description
    for option in ("purple_ribbon", "struggle", "struggle_keep_match", "race_exempt_first",
                   "next_dealer"):
        assert f"`{option}`" in RULES_TEXT


def test_a_match_ends_after_its_rounds():
    from bot.games.rng import Rng
    rng = Rng(3)
    match = new_match(3, Rules(rounds=2), seed=5)
    events = []
    while not match.is_over:
        legal = match.legal_actions()
        events.extend(match.apply(legal[rng.below(len(legal))]))
    assert [e["round"] for e in events if e["type"] == "round_over"] == [1, 2]
    assert events[-1]["type"] == "match_over" and sum(match.scores) == 0
