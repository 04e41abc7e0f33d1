"""Each of the six moves of seed 002, with the exact card movements."""

from __future__ import annotations

import pytest

from bot.cards import ids_in, mask
from bot.games.base import IllegalAction
from bot.games.shedding import Rules

from .helpers import ids, position

FIELD = ["crane", "plum_chaff_1", "cuckoo", "bridge"]


def test_hand_field_discards_both_with_the_hand_card_on_top_and_refills():
    r = position([["pine_chaff_1", "deer", "iris_chaff_1"], ["boar", "swallow"]], FIELD,
                 draw=["maple_chaff_2", "geese"])
    assert "match:pine_chaff_1>crane" in map(str, r.legal_actions())
    events = r.apply("match:pine_chaff_1>crane", 0)
    assert ids(r.discard) == ["crane", "pine_chaff_1"]  # the played card ends on top
    assert ids_in(r.hands[0]) == ["iris_chaff_1", "deer"]
    assert ids_in(r.field) == ["plum_chaff_1", "cuckoo", "bridge", "geese"]  # top of the draw
    assert ids(r.draw) == ["maple_chaff_2"]
    assert r.current == 1
    assert events[0] == {"type": "match", "player": 0, "cards": ["crane", "pine_chaff_1"],
                         "top": "pine_chaff_1"}
    assert {"type": "field", "card": "geese"} in events


def test_hand_field_with_two_matching_field_cards_names_the_target():
    r = position([["pine_chaff_1", "deer"], ["boar"]],
                 ["crane", "pine_chaff_2", "cuckoo", "bridge"], draw=["geese"])
    legal = {str(a) for a in r.legal_actions()}
    assert {"match:pine_chaff_1>crane", "match:pine_chaff_1>pine_chaff_2"} <= legal
    r.apply("match:pine_chaff_1>pine_chaff_2")
    assert "crane" in ids_in(r.field) and ids(r.discard) == ["pine_chaff_2", "pine_chaff_1"]


def test_field_hiki_needs_three_in_hand_and_puts_the_chosen_card_last():
    hand = ["poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "deer"]
    r = position([hand, ["boar"]], FIELD, draw=["swallow", "geese"])
    hiki = sorted(str(a) for a in r.legal_actions() if a.kind == "field_hiki")
    assert hiki == ["field_hiki:pine_chaff_1", "field_hiki:pine_chaff_2",
                    "field_hiki:poetry_ribbon_jan"]
    events = r.apply("field_hiki:poetry_ribbon_jan")
    assert ids(r.discard) == ["crane", "pine_chaff_1", "pine_chaff_2", "poetry_ribbon_jan"]
    assert ids_in(r.hands[0]) == ["deer"]
    assert ids_in(r.field) == ["plum_chaff_1", "cuckoo", "bridge", "geese"]
    # the poetry ribbon on top: the next player draws a card, then plays
    assert {"type": "effect", "effect": "poetry", "player": 1, "drew": True,
            "card": "poetry_ribbon_jan"} in events
    assert ids_in(r.hands[1]) == ["boar", "swallow"] and r.current == 1


def test_field_hiki_is_not_offered_without_the_field_card():
    r = position([["poetry_ribbon_feb", "plum_chaff_2", "bush_warbler"], ["boar"]],
                 ["crane", "cherry_chaff_1", "cuckoo", "bridge"])
    assert not [a for a in r.legal_actions() if a.kind == "field_hiki"]


def test_hand_hand_discards_two_of_a_month_in_the_chosen_order():
    r = position([["curtain", "cherry_chaff_1", "deer"], ["boar", "swallow"]], FIELD,
                 draw=["geese"])
    pairs = sorted(str(a) for a in r.legal_actions() if a.kind == "pair")
    assert pairs == ["pair:cherry_chaff_1>curtain", "pair:curtain>cherry_chaff_1"]
    r.apply("pair:cherry_chaff_1>curtain")
    assert ids(r.discard) == ["curtain", "cherry_chaff_1"]
    assert ids_in(r.field) == ["crane", "plum_chaff_1", "cuckoo", "bridge"]  # untouched
    assert ids(r.draw) == ["geese"] and r.current == 1


def test_hand_hiki_discards_the_whole_month():
    month = ["moon", "geese", "susuki_chaff_1", "susuki_chaff_2"]
    r = position([[*month, "deer"], ["boar", "swallow"], ["lightning"]], FIELD, draw=["phoenix"])
    hiki = sorted(str(a) for a in r.legal_actions() if a.kind == "hand_hiki")
    assert hiki == [f"hand_hiki:{c}" for c in sorted(month)]
    events = r.apply("hand_hiki:moon")
    assert ids(r.discard) == ["geese", "susuki_chaff_1", "susuki_chaff_2", "moon"]
    assert ids_in(r.hands[0]) == ["deer"]
    # a bright on top: seat 1 draws one and loses the turn, seat 2 plays
    assert ids_in(r.hands[1]) == ["boar", "swallow", "phoenix"]
    assert events[-2]["effect"] == "bright" and r.current == 2


def test_field_field_discards_a_field_pair_and_puts_a_hand_card_on_the_field():
    r = position([["crane", "deer"], ["boar", "swallow"]],
                 ["curtain", "cherry_chaff_1", "cuckoo", "bridge"], draw=["geese"])
    legal = {str(a) for a in r.legal_actions() if a.kind == "field_pair"}
    assert legal == {"field_pair:crane>curtain+cherry_chaff_1",
                     "field_pair:deer>curtain+cherry_chaff_1"}
    events = r.apply("field_pair:crane>curtain+cherry_chaff_1")
    assert ids(r.discard) == ["curtain", "cherry_chaff_1"]
    assert ids_in(r.field) == ["crane", "cuckoo", "bridge", "geese"]
    assert ids_in(r.hands[0]) == ["deer"]
    # no effect after field-field, although a bright was moved
    assert not [e for e in events if e["type"] == "effect"] and r.current == 1
    assert ids_in(r.hands[1]) == ["boar", "swallow"]


def test_field_field_with_three_of_a_month_offers_each_pair():
    r = position([["deer"], ["boar"]], ["curtain", "cherry_chaff_1", "cherry_chaff_2", "bridge"])
    targets = sorted(a.target for a in r.legal_actions() if a.kind == "field_pair")
    assert targets == ["cherry_chaff_1+cherry_chaff_2", "curtain+cherry_chaff_1",
                       "curtain+cherry_chaff_2"]


def test_struggle_6a_discards_the_drawn_card_with_its_match_and_refills():
    r = position([["deer", "boar"], ["swallow"]], FIELD, draw=["geese", "pine_chaff_2"])
    events = r.apply("struggle")
    assert r.phase == "struggle" and r.current == 0
    assert events == [{"type": "struggle", "player": 0}]  # the drawn card stays private
    assert r.observation(0)["drawn"] == "pine_chaff_2"
    assert r.observation(1)["drawn"] is None
    assert [str(a) for a in r.legal_actions()] == ["struggle_match:pine_chaff_2>crane",
                                                   "keep:pine_chaff_2"]
    events = r.apply("struggle_match:pine_chaff_2>crane")
    assert ids(r.discard) == ["crane", "pine_chaff_2"]
    assert ids_in(r.field) == ["plum_chaff_1", "cuckoo", "bridge", "geese"]
    assert ids_in(r.hands[0]) == ["boar", "deer"] and r.current == 1
    assert not [e for e in events if e["type"] == "effect"]


def test_struggle_6b_keeps_a_matching_card_by_choice():
    r = position([["deer"], ["swallow"]], FIELD, draw=["geese", "pine_chaff_2"])
    r.apply("struggle")
    r.apply("keep:pine_chaff_2")
    assert ids_in(r.hands[0]) == ["pine_chaff_2", "deer"]
    assert ids_in(r.field) == FIELD and r.current == 1


def test_struggle_keeps_a_card_that_matches_nothing_at_once():
    r = position([["deer"], ["swallow"]], FIELD, draw=["geese", "moon"])
    events = r.apply("struggle")
    assert {"type": "keep", "player": 0, "forced": True} in events
    assert ids_in(r.hands[0]) == ["moon", "deer"] and r.current == 1 and r.phase == "play"
    # a bright kept in hand is no discard: the next player suffers nothing
    assert not [e for e in events if e["type"] == "effect"]


def test_struggle_keep_match_off_forces_6a():
    rules = Rules(struggle_keep_match=False)
    r = position([["deer"], ["swallow"]], FIELD, draw=["geese", "pine_chaff_2"], rules=rules)
    events = r.apply("struggle")
    assert {"type": "struggle_match", "player": 0, "cards": ["crane", "pine_chaff_2"],
            "forced": True} in events
    r2 = position([["deer"], ["swallow"]], ["crane", "pine_chaff_1", "cuckoo", "bridge"],
                  draw=["geese", "pine_chaff_2"], rules=rules)
    r2.apply("struggle")
    assert [a.kind for a in r2.legal_actions()] == ["struggle_match", "struggle_match"]


def test_struggle_any_time_or_only_if_stuck():
    hands = [["pine_chaff_1"], ["swallow"]]
    assert "struggle" in map(str, position(hands, FIELD, draw=["geese"]).legal_actions())
    stuck_rules = Rules(struggle="only_if_stuck")
    r = position(hands, FIELD, draw=["geese"], rules=stuck_rules)
    assert "struggle" not in map(str, r.legal_actions())
    r = position([["deer"], ["swallow"]], FIELD, draw=["geese"], rules=stuck_rules)
    assert [str(a) for a in r.legal_actions()] == ["struggle"]


def test_pass_only_when_nothing_is_possible():
    r = position([["deer"], ["swallow"]], FIELD)
    assert [str(a) for a in r.legal_actions()] == ["pass"]
    r.apply("pass")
    assert r.current == 1 and r.turn == 1


def test_an_illegal_move_names_the_problem_and_changes_nothing():
    r = position([["deer", "pine_chaff_1"], ["swallow"]], FIELD, draw=["geese"])
    before = r.to_dict()
    with pytest.raises(IllegalAction, match="match:deer>crane"):
        r.apply("match:deer>crane")
    assert r.to_dict() == before


def test_the_field_is_back_to_four_after_every_move_while_cards_remain():
    r = position([["pine_chaff_1", "crane", "deer"], ["boar"]],
                 ["pine_chaff_2", "curtain", "cherry_chaff_1", "bridge"],
                 draw=["geese", "moon", "swallow"])
    r.apply("field_pair:deer>curtain+cherry_chaff_1")
    assert r.field.bit_count() == 4
    assert mask(["deer", "swallow"]) & r.field == mask(["deer", "swallow"])
