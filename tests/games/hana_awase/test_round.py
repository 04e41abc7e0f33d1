"""Hana-Awase rounds: deals by player count, playing out the stock, teyaku shown and captured from
the hand, the wild lightning option, misdeals, the next dealer and the match
(docs/rules/hana-awase.md)."""

from __future__ import annotations

import pytest

from bot.cards import ids_in, mask
from bot.games.hana_awase import HanaAwaseRound, Rules, new_match, new_round
from bot.games.rng import Rng

from ..mushi.contract import play_match, random_playout

FW = Rules.preset("fudawiki")


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


@pytest.mark.parametrize("players,hand,field,stock", [(2, 8, 8, 24), (3, 7, 6, 21), (4, 5, 8, 20)])
def test_deal_by_player_count(players, hand, field, stock):
    for seed in range(20):
        s = new_round(players, seed=seed, dealer=seed % players)
        assert [h.bit_count() for h in s.hands] == [hand] * players
        assert s.field.bit_count() == field and len(s.stock) == stock
        assert s.current_player == seed % players
        assert s._misdeal() is None


def test_ten_card_hands_for_two_players_empty_the_stock_with_the_hands():
    s = new_round(2, Rules(two_player_hand=10), seed=3)
    assert [h.bit_count() for h in s.hands] == [10, 10] and len(s.stock) == 20
    random_playout(s, Rng(3))
    assert s.result().detail["stock_left"] == 0


def test_two_players_turn_the_rest_of_the_stock_after_their_hands():
    s = new_round(2, FW, seed=4)
    rng = Rng(4)
    while any(s.hands):
        s.apply(s.legal_actions()[rng.below(len(s.legal_actions()))])
    assert len(s.stock) == 8 and legal(s) == {"draw"}
    draws = 0
    while not s.is_over:
        events = s.apply("draw")
        assert events[0]["type"] in ("draw", "drew")
        if events[0]["type"] == "drew":
            s.apply(s.legal_actions()[0])
        draws += 1
    assert draws == 8 and s.field == 0 and sum(s.result().points) == 0


def test_two_players_may_leave_the_stock_with_additive_scoring():
    s = new_round(2, Rules(play_out_stock=False), seed=4)
    random_playout(s, Rng(4))
    assert s.result().detail["stock_left"] == 8


def test_the_turn_passes_to_the_next_seat():
    s = new_round(4, seed=9, dealer=2)
    seen = []
    rng = Rng(9)
    for _ in range(8):
        seen.append(s.current_player)
        legal_now = s.legal_actions()
        s.apply(legal_now[rng.below(len(legal_now))])
        while s.phase == "choose_draw":
            s.apply(s.legal_actions()[0])
    assert seen == [2, 3, 0, 1, 2, 3, 0, 1]


def teyaku_round() -> HanaAwaseRound:
    chaff = ["pine_chaff_1", "plum_chaff_1", "cherry_chaff_1", "iris_chaff_1", "susuki_chaff_1",
             "maple_chaff_1"]
    return HanaAwaseRound.from_cards(
        [["plum_chaff_2", "crane"], [*chaff, "deer"]], ["moon"], ["geese", "boar", "curtain", "phoenix"],
        rules=Rules(teyaku=True))


def test_teyaku_chaff_are_shown_and_paid_and_others_capture_them_from_the_hand():
    s = teyaku_round()
    assert s.teyaku == [0, 20]
    obs = s.observation(0)
    assert set(obs["exposed"][1]) == {"pine_chaff_1", "plum_chaff_1", "cherry_chaff_1", "iris_chaff_1",
                                      "susuki_chaff_1", "maple_chaff_1"}
    assert "deer" not in str(obs)
    # seat 0's plum takes the shown plum chaff out of seat 1's hand
    assert "play:plum_chaff_2" in legal(s) and "play:crane" in legal(s)
    events = s.apply("play:plum_chaff_2")
    assert {"type": "taken_from_hand", "player": 0, "from": 1, "cards": ["plum_chaff_1"]} in events
    assert "plum_chaff_1" not in ids_in(s.hands[1]) and "plum_chaff_1" in ids_in(s.captured[0])
    # the stock's geese may take the moon or the shown pampas chaff from the hand
    assert legal(s) == {"choose:geese>moon", "choose:geese>susuki_chaff_1"}
    s.apply("choose:geese>moon")
    # a seat cannot capture its own shown cards; playing one takes it out of the show
    s.apply("play:pine_chaff_1")
    assert "pine_chaff_1" not in ids_in(s.exposed[1])


def test_a_seat_with_an_empty_hand_only_turns_the_stock():
    s = HanaAwaseRound.from_cards(
        [["plum_chaff_2", "crane"], ["plum_chaff_1"], ["iris_chaff_2", "curtain"]], ["moon"],
        ["geese", "boar", "deer", "maple_chaff_1", "maple_chaff_2", "iris_chaff_1"],
        rules=Rules(teyaku=True))
    s.exposed[1] = mask(["plum_chaff_1"])
    s.apply("play:plum_chaff_2")
    assert not s.hands[1] and s.current_player == 1
    assert legal(s) == {"draw"}
    s.apply("draw")
    assert s.current_player == 2 and "play:curtain" in legal(s)


def test_seven_chaff_are_paid_30():
    s = HanaAwaseRound.from_cards(
        [["pine_chaff_1", "plum_chaff_1", "cherry_chaff_1", "iris_chaff_1", "susuki_chaff_1",
          "maple_chaff_1", "lightning"], ["crane"]], [], [], rules=Rules(teyaku=True))
    assert s.teyaku == [30, 0]


def test_wild_lightning_option_uses_mushis_rules():
    s = HanaAwaseRound.from_cards([["lightning"], ["iris_chaff_1"]], ["moon", "swallow"],
                                  ["maple_chaff_1", "iris_chaff_2"], rules=Rules(wild_lightning=True))
    assert legal(s) == {"play:lightning>moon"}
    plain = HanaAwaseRound.from_cards([["lightning"], ["iris_chaff_1"]], ["moon", "swallow"],
                                      ["maple_chaff_1", "iris_chaff_2"])
    assert legal(plain) == {"play:lightning"}
    plain.apply("play:lightning")
    assert set(ids_in(plain.captured[0])) == {"lightning", "swallow"}


def test_wild_lightning_games_hand_over_the_leftovers_and_stay_zero_sum():
    for seed in range(20):
        s = new_round(3, FW.replace(wild_lightning=True), seed=seed)
        random_playout(s, Rng(seed))
        assert s.field == 0 and sum(s.result().points) == 0


def test_four_of_a_month_in_a_hand_is_a_misdeal_by_option():
    s = HanaAwaseRound.from_cards([["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"], []],
                                  [], [])
    assert s._misdeal() is None
    s.rules = Rules(hand_four_misdeal=True)
    assert s._misdeal() == "four_in_a_hand"
    redealt = [e for seed in range(200)
               for e in new_round(2, Rules(hand_four_misdeal=True), seed=seed).start_events
               if e.get("reason") == "four_in_a_hand"]
    assert redealt


def test_highest_score_deals_and_a_tie_goes_to_the_earliest_in_turn_order():
    s = HanaAwaseRound.from_cards([[], [], []], [], [], dealer=1)
    assert s._ranking([5, 9, 2]) == (1, 1)
    assert s._ranking([9, 5, 9]) == (None, 2)


def test_fuke_void_round_keeps_the_dealer():
    s = HanaAwaseRound.from_cards([["crane"], ["pine_chaff_1"]], [], [], rules=Rules(fuke=True), dealer=1)
    s.current = 1
    s.apply("play:pine_chaff_1")
    s.apply("play:crane")
    r = s.result()
    assert r.reason == "void" and r.points == [0, 0] and r.next_dealer == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_of_twelve_rounds(players):
    match = new_match(players, FW, seed=players)
    play_match(match, players)
    assert len(match.history) == 12 and sum(match.scores) == 0


def test_player_counts():
    with pytest.raises(ValueError):
        new_match(5)
    with pytest.raises(ValueError):
        new_round(1)
