"""Deal and redeal, effects on the next player, reshuffling, the end of a round and the race."""

from __future__ import annotations

import pytest

from bot.cards import MONTH_MASKS, ids_in
from bot.games.base import IllegalAction, NotYourTurn
from bot.games.shedding import Rules, effect_of, hand_size, new_match, new_round
from bot.games.shedding.moves import BRIGHT, POETRY, SKIP, index

from .helpers import ids, position

FIELD = ["crane", "plum_chaff_1", "cuckoo", "bridge"]


# -- deal --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, size", [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_deal_sizes_field_and_dealer_first(players, size):
    for seed in range(20):
        dealer = seed % players
        r = new_round(players, Rules(), seed=seed, dealer=dealer)
        assert hand_size(players) == size
        assert [h.bit_count() for h in r.hands] == [size] * players
        assert r.field.bit_count() == 4 and r.discard == []
        assert len(r.draw) == 48 - 4 - size * players
        assert r.current == dealer and r.phase == "play"
        assert r.start_events[-1]["type"] == "deal"


def test_three_of_a_month_on_the_field_forfeits_the_deal():
    redealt = [s for s in range(300)
               if any(e["type"] == "redeal" for e in new_round(2, seed=s).start_events)]
    assert redealt, "some seed among 300 redeals"
    for seed in redealt[:10]:
        r = new_round(2, seed=seed)
        for e in r.start_events[:-1]:
            months = [sum(1 for c in e["field"] if index(c) // 4 == m) for m in range(12)]
            assert max(months) >= 3
        assert max((r.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)) < 3


def test_the_same_seed_deals_the_same_cards():
    assert new_round(4, seed=99).to_dict() == new_round(4, seed=99).to_dict()
    assert new_round(4, seed=99).to_dict() != new_round(4, seed=100).to_dict()


def test_the_first_dealer_comes_from_the_seed_and_the_winner_deals_next():
    dealers = {new_match(5, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3, 4}
    match = new_match(2, seed=3)
    winner = _play_match_round(match)
    assert match.dealer == winner
    rotating = new_match(2, Rules(next_dealer="rotate"), seed=3)
    first = rotating.dealer
    _play_match_round(rotating)
    assert rotating.dealer == 1 - first


def _play_match_round(match) -> int:
    from bot.games.rng import Rng
    rng = Rng(1)
    while True:
        legal = match.legal_actions()
        for e in match.apply(legal[rng.below(len(legal))]):
            if e["type"] == "round_over":
                return e["winner"]


# -- effects -----------------------------------------------------------------------------------
@pytest.mark.parametrize("card, expected", [
    ("crane", BRIGHT), ("curtain", BRIGHT), ("moon", BRIGHT), ("rainman", BRIGHT),
    ("phoenix", BRIGHT), ("poetry_ribbon_jan", POETRY), ("poetry_ribbon_feb", POETRY),
    ("poetry_ribbon_mar", POETRY), ("blue_ribbon_jun", SKIP), ("blue_ribbon_sep", SKIP),
    ("blue_ribbon_oct", SKIP), ("plain_ribbon_apr", None), ("plain_ribbon_willow", None),
    ("deer", None), ("lightning", None), ("paulownia_chaff_yellow", None),
])
def test_effect_of_each_kind_of_card(card, expected):
    assert effect_of(index(card), Rules()) == expected


def test_purple_ribbon_option():
    plain = index("plain_ribbon_may")
    blue = index("blue_ribbon_oct")
    assert effect_of(plain, Rules(purple_ribbon="non_poetry")) == SKIP
    assert effect_of(blue, Rules(purple_ribbon="non_poetry")) == SKIP
    assert effect_of(index("poetry_ribbon_jan"), Rules(purple_ribbon="non_poetry")) == POETRY
    assert effect_of(blue, Rules(purple_ribbon="none")) is None


def _three_seats(top_pair: str, rules: Rules | None = None):
    """Seat 0 holds a chaff and ``top_pair``'s chaff partner; it discards the pair."""
    return position(
        [["maple_chaff_1", "maple_chaff_2", "pine_chaff_1"], ["boar", "swallow"],
         ["iris_chaff_1", "clover_chaff_1"]],
        FIELD, draw=["wisteria_chaff_1", "geese"], rules=rules)


def test_bright_on_top_the_next_player_draws_and_loses_the_turn():
    r = position([["crane", "pine_chaff_1", "deer"], ["boar", "swallow"], ["iris_chaff_1"]],
                 FIELD, draw=["wisteria_chaff_1", "geese"])
    events = r.apply("pair:crane>pine_chaff_1")
    assert ids_in(r.hands[1]) == ["boar", "geese", "swallow"]
    assert {"type": "effect", "effect": "bright", "player": 1, "drew": True,
            "card": "crane"} in events
    assert r.current == 2
    # the draw went to a hand: no card id in the events, which everyone sees
    assert all("geese" not in str(e) for e in events)


def test_poetry_ribbon_on_top_the_next_player_draws_and_plays():
    r = position([["poetry_ribbon_feb", "plum_chaff_2", "deer"], ["boar"], ["iris_chaff_1"]],
                 ["crane", "curtain", "cuckoo", "bridge"], draw=["geese"])
    r.apply("pair:poetry_ribbon_feb>plum_chaff_2")
    assert ids_in(r.hands[1]) == ["boar", "geese"] and r.current == 1


def test_blue_ribbon_on_top_the_next_player_loses_the_turn():
    r = position([["blue_ribbon_sep", "sake_cup", "deer"], ["boar"], ["iris_chaff_1"]],
                 FIELD, draw=["geese"])
    events = r.apply("pair:blue_ribbon_sep>sake_cup")
    assert ids_in(r.hands[1]) == ["boar"] and r.current == 2
    assert {"type": "effect", "effect": "skip", "player": 1, "card": "blue_ribbon_sep"} in events


def test_with_two_players_a_skip_gives_the_mover_another_turn():
    r = position([["blue_ribbon_sep", "sake_cup", "deer"], ["boar"]], FIELD)
    r.apply("pair:blue_ribbon_sep>sake_cup")
    assert r.current == 0


def test_the_order_of_a_pair_decides_the_effect():
    r = position([["blue_ribbon_sep", "sake_cup", "deer"], ["boar"], ["iris_chaff_1"]], FIELD)
    r.apply("pair:sake_cup>blue_ribbon_sep")  # the animal on top: no effect
    assert r.current == 1


def test_a_plain_red_ribbon_on_top_has_no_effect_by_default():
    r = position([["plain_ribbon_may", "iris_chaff_2", "deer"], ["boar"], ["lightning"]], FIELD)
    r.apply("pair:plain_ribbon_may>iris_chaff_2")
    assert r.current == 1
    r = position([["plain_ribbon_may", "iris_chaff_2", "deer"], ["boar"], ["lightning"]], FIELD,
                 rules=Rules(purple_ribbon="non_poetry"))
    r.apply("pair:plain_ribbon_may>iris_chaff_2")
    assert r.current == 2


def test_an_effect_is_not_passed_on_to_the_player_after():
    r = position([["crane", "pine_chaff_1", "deer"], ["boar", "swallow"], ["iris_chaff_1", "moon"]],
                 FIELD, draw=["wisteria_chaff_1", "geese", "lightning"])
    r.apply("pair:crane>pine_chaff_1")
    assert r.current == 2
    r.apply("struggle")  # seat 2 keeps a card; the crane is still on top of the discard
    assert r.current == 0 and ids_in(r.hands[0]) == ["deer"]


def test_an_effect_with_nothing_left_to_draw_still_skips():
    r = position([["crane", "pine_chaff_1", "deer"], ["boar"], ["iris_chaff_1"]], FIELD)
    r.discard = []
    events = r.apply("pair:crane>pine_chaff_1")
    # the pair itself is the whole discard pile: it is reshuffled and drawn from
    assert {"type": "reshuffle", "cards": 2} in events
    assert r.hands[1].bit_count() == 2 and r.current == 2


# -- reshuffle -----------------------------------------------------------------------------------
def test_an_empty_draw_pile_is_replaced_by_the_shuffled_discard_pile():
    discard = ["deer", "blue_ribbon_oct", "boar", "swallow", "geese"]
    r = position([["pine_chaff_1", "maple_chaff_1"], ["iris_chaff_1"]], FIELD, draw=[],
                 discard=discard)
    events = r.apply("match:pine_chaff_1>crane")
    assert {"type": "reshuffle", "cards": 7} in events
    assert r.discard == [] and len(r.draw) == 6
    refill = [e["card"] for e in events if e["type"] == "field"]
    assert len(refill) == 1 and r.field.bit_count() == 4
    assert sorted([*ids(r.draw), *refill]) == sorted([*discard, "crane", "pine_chaff_1"])


def test_the_reshuffle_is_reproducible():
    def run():
        r = position([["pine_chaff_1", "maple_chaff_1"], ["iris_chaff_1"]], FIELD,
                     discard=["deer", "boar", "swallow", "geese", "moon"], seed=4)
        r.apply("match:pine_chaff_1>crane")
        return r.to_dict()
    assert run() == run()


def test_with_no_card_anywhere_the_field_waits_for_cards():
    r = position([["pine_chaff_1", "maple_chaff_1"], ["iris_chaff_1"]], FIELD)
    r.discard = []
    r.apply("match:pine_chaff_1>crane")
    # the pair just discarded is reshuffled and refills the field
    assert r.field.bit_count() == 4 and len(r.draw) == 1


# -- end of the round ---------------------------------------------------------------------------
def test_two_players_the_winner_is_paid_at_once():
    r = position([["pine_chaff_1"], ["moon", "boar", "swallow"]], FIELD, draw=["geese"])
    events = r.apply("match:pine_chaff_1>crane")
    assert r.is_over and r.winner == 0
    assert {"type": "first", "player": 0} in events
    result = r.result()
    assert result.points == [7, -7] and result.winner == 0 and result.reason == "shed"
    assert result.detail["hands"][1] == ["boar", "moon", "swallow"]


def test_emptying_the_hand_with_field_field_wins():
    r = position([["deer"], ["boar"]], ["curtain", "cherry_chaff_1", "cuckoo", "bridge"],
                 draw=["geese"])
    r.apply("field_pair:deer>curtain+cherry_chaff_1")
    assert r.result().points == [1, -1]


def _race_position(rules: Rules | None = None):
    r = position([["pine_chaff_1"], ["moon", "boar"], ["swallow"], ["deer", "geese", "lightning"]],
                 FIELD, draw=["iris_chaff_1"], rules=rules)
    events = r.apply("match:pine_chaff_1>crane")
    assert {"type": "race", "winner": 0, "seats": [1, 2, 3]} in events
    return r


def test_the_race_first_slapper_pays_nothing_and_the_rest_pay():
    r = _race_position()
    assert r.phase == "race" and r.current == 0 and r.result() is None
    assert [str(a) for a in r.legal_actions()] == ["slap:1", "slap:2", "slap:3", "race_end"]
    assert r.observation(2)["race_seats"] == [1, 2, 3]
    r.apply("slap:3", 3)  # the slapping seat sends its own slap
    assert r.observation(2)["race_seats"] == [1, 2] and r.observation(2)["slaps"] == [3]
    with pytest.raises(IllegalAction):
        r.apply("slap:3", 3)
    with pytest.raises(NotYourTurn):
        r.apply("slap:2", 1)
    r.apply("slap:1")
    assert not r.is_over
    events = r.apply("slap:2", 2)
    assert r.is_over and events[-1]["type"] == "round_end"
    result = r.result()
    assert result.points == [7, -6, -1, 0]
    assert result.detail["exempt"] == 3 and result.detail["slap_order"] == [3, 1, 2]


def test_the_race_window_closes_and_late_seats_pay():
    r = _race_position()
    r.apply("slap:2", 2)
    r.apply("race_end")
    assert r.result().points == [9, -6, 0, -3]


def test_the_race_with_the_batsu_variant():
    r = _race_position(Rules.preset("seed002_batsu"))
    for seat in (2, 3, 1):
        r.apply(f"slap:{seat}", seat)
    assert r.result().points == [14, -11, 0, -3]
    assert r.result().detail["batsu"] == [1]


def test_a_turn_limit_ends_the_round_without_payment():
    r = position([["deer", "boar"], ["swallow", "geese"]], FIELD, rules=Rules(turn_limit=3))
    for _ in range(3):
        r.apply("pass")
    assert r.is_over and r.result().winner is None and r.result().points == [0, 0]
    assert r.result().reason == "turn_limit"
