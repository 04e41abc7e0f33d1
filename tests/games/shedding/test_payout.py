"""The payout of seed 002: 5 per bright, 1 per other card; the slap race and the batsu variant."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import DECK
from bot.games.shedding import Rules, hand_value, score_yaku, settle, settlement

SEED = Rules()
BATSU = Rules.preset("seed002_batsu")
EVERYONE_PAYS = Rules(race_exempt_first=False)


def test_score_yaku_bills_brights_at_5_and_other_cards_at_1():
    bill = score_yaku(["crane", "rainman", "deer", "lightning", "poetry_ribbon_jan"])
    assert [(y.slug, y.points, y.cards) for y in bill] == [
        ("brights", 10, ("crane", "rainman")),
        ("other_cards", 3, ("poetry_ribbon_jan", "deer", "lightning")),
    ]
    assert score_yaku([]) == []
    assert hand_value(range(48)) == 5 * 5 + 43


def test_two_players_the_loser_pays_the_whole_hand():
    assert settle([[], ["moon", "pine_chaff_1"]], 0, [], SEED) == [6, -6]
    assert settle([["phoenix"], []], 1, [], SEED) == [-5, 5]


def test_two_players_have_no_race_and_no_batsu():
    assert settle([[], ["moon"]], 0, [1], SEED) == [5, -5]
    assert settle([[], ["moon"]], 0, [1], BATSU) == [5, -5]
    assert settle([[], ["moon"]], 0, [], BATSU) == [5, -5]


def test_the_first_to_slap_is_excused():
    hands = [["deer"], [], ["crane", "curtain"], ["geese", "boar"]]
    assert settle(hands, 1, [2, 0, 3], SEED) == [-1, 3, 0, -2]
    assert settle(hands, 1, [0, 3, 2], SEED) == [0, 12, -10, -2]


def test_seats_that_never_slap_pay_in_full():
    hands = [["deer"], [], ["crane", "curtain"], ["geese", "boar"]]
    assert settle(hands, 1, [3], SEED) == [-1, 11, -10, 0]
    assert settle(hands, 1, [], SEED) == [-1, 13, -10, -2]


def test_without_the_exemption_everyone_pays():
    hands = [["deer"], [], ["crane", "curtain"]]
    assert settle(hands, 1, [0, 2], EVERYONE_PAYS) == [-1, 11, -10]


def test_batsu_the_last_to_slap_pays_the_penalty_too():
    hands = [["deer"], [], ["crane", "curtain"], ["geese", "boar"]]
    detail = settlement(hands, 1, [2, 0, 3], BATSU)
    assert detail["points"] == [-1, 8, 0, -7]
    assert detail["batsu"] == [3] and detail["exempt"] == 2
    assert detail["paid"] == [1, 0, 0, 7] and detail["hand_points"] == [1, 0, 10, 2]


def test_batsu_falls_on_every_seat_that_never_slapped():
    hands = [["deer"], [], ["crane"], ["geese"], ["boar"]]
    detail = settlement(hands, 1, [3], BATSU)
    assert detail["batsu"] == [0, 2, 4]
    assert detail["points"] == [-6, 22, -10, 0, -6]


def test_batsu_points_and_the_exemption_combine_as_options():
    hands = [["deer"], [], ["crane"]]
    rules = Rules(batsu=True, batsu_points=10, race_exempt_first=False)
    assert settle(hands, 1, [0, 2], rules) == [-1, 16, -15]


def test_the_first_slapper_who_is_also_last_is_excused_but_takes_the_batsu():
    # three players, one slap, the other seat never slaps: that seat is the last
    assert settle([[], ["deer"], ["moon"]], 0, [1], BATSU) == [10, 0, -10]


@pytest.mark.parametrize("order", [[0], [1, 1], [5], [-1]])
def test_a_bad_slap_order_is_rejected(order):
    with pytest.raises(ValueError):
        settle([[], ["deer"], ["moon"]], 0, order, SEED)


def test_a_bad_winner_is_rejected():
    with pytest.raises(ValueError):
        settle([[], ["deer"]], 2, [], SEED)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_settle_is_zero_sum_and_losers_never_gain(data):
    n = data.draw(st.integers(2, 5))
    cards = data.draw(st.permutations(range(48)))
    sizes = data.draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    winner = data.draw(st.integers(0, n - 1))
    hands, pos = [], 0
    for s in range(n):
        size = 0 if s == winner else sizes[s]
        hands.append([DECK[c].id for c in cards[pos:pos + size]])
        pos += size
    others = [s for s in range(n) if s != winner]
    order = data.draw(st.permutations(others))[: data.draw(st.integers(0, len(others)))]
    rules = Rules(race_exempt_first=data.draw(st.booleans()), batsu=data.draw(st.booleans()),
                  batsu_points=data.draw(st.integers(0, 100)))
    points = settle(hands, winner, order, rules)
    assert sum(points) == 0
    assert points[winner] >= 0 and all(points[s] <= 0 for s in others)
    for s in others:
        if not (n > 2 and rules.race_exempt_first and order and order[0] == s):
            assert -points[s] >= hand_value(hands[s])
