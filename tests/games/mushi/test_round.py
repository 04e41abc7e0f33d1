"""Mushi's special rules turn by turn: the wild lightning in all its cases, the handover of the
leftovers, misdeals, the deal, settlement and the 12-round match (docs/rules/mushi.md; FW-MU,
seed 000)."""

from __future__ import annotations

import pytest

from bot.cards import DECK, ids_in, mask
from bot.games.base import Action
from bot.games.capture import CHOOSE_DRAW, deal_from
from bot.games.mushi import MUSHI_DECK, MushiRound, Rules, new_match, new_round
from bot.games.rng import NEWEST_SHUFFLE, Rng

from .contract import play_match


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def pile(state, seat) -> set[str]:
    return set(ids_in(state.captured[seat]))


def test_lightning_from_hand_takes_any_one_non_willow_field_card():
    s = MushiRound.from_cards([["lightning"], ["cherry_chaff_1"]], ["moon", "swallow", "plum_chaff_1"],
                              ["maple_chaff_1", "maple_chaff_2"])
    assert legal(s) == {"play:lightning>moon", "play:lightning>plum_chaff_1"}
    s.apply("play:lightning>moon")
    assert pile(s, 0) == {"lightning", "moon"}
    assert DECK[s.lightning_victim].id == "moon"


def test_lightning_from_hand_with_only_willows_on_the_field_is_laid_down():
    s = MushiRound.from_cards([["lightning"], ["cherry_chaff_1"]], ["swallow"],
                              ["maple_chaff_1", "iris_chaff_1"])
    assert legal(s) == {"play:lightning"}
    s.apply("play:lightning")
    # the stock card (non-willow) must then take the lightning lying on the field
    assert pile(s, 0) == {"maple_chaff_1", "lightning"}
    assert DECK[s.lightning_victim].id == "maple_chaff_1"


def test_lightning_on_the_field_is_taken_by_the_first_non_willow_stock_card_only():
    s = MushiRound.from_cards([["plain_ribbon_willow", "iris_chaff_1"], ["susuki_chaff_1", "iris_chaff_2"]],
                              ["lightning", "moon", "crane"], ["rainman", "pine_chaff_1", "cherry_chaff_1", "bridge"])
    # a willow from the hand cannot take the lightning: it is simply laid down
    assert "play:plain_ribbon_willow" in legal(s)
    s.apply("play:plain_ribbon_willow")
    # a willow turned from the stock takes the willow, never the lightning
    assert pile(s, 0) == {"rainman", "plain_ribbon_willow"}
    assert "lightning" in ids_in(s.field)
    # the hand card matching by month takes its month mate; the pine from the stock must take
    # the lightning rather than the crane of its own month
    s.apply("play:susuki_chaff_1")
    assert pile(s, 1) == {"susuki_chaff_1", "moon", "pine_chaff_1", "lightning"}
    assert "crane" in ids_in(s.field)


def test_lightning_turned_from_the_stock_takes_a_chosen_non_willow_card():
    s = MushiRound.from_cards([["pine_chaff_1"], ["iris_chaff_1"]], ["moon", "deer", "swallow"],
                              ["lightning", "maple_chaff_1"])
    events = s.apply("play:pine_chaff_1")
    assert s.phase == CHOOSE_DRAW
    assert set(events[-1]["choose"]) == {"moon", "deer", "pine_chaff_1"}
    assert legal(s) == {"choose:lightning>moon", "choose:lightning>deer", "choose:lightning>pine_chaff_1"}
    s.apply("choose:lightning>deer")
    assert pile(s, 0) == {"lightning", "deer"}
    assert DECK[s.lightning_victim].id == "deer"


def test_lightning_turned_from_the_stock_with_one_target_takes_it_and_with_none_stays():
    one = MushiRound.from_cards([["crane"], ["iris_chaff_1"]], ["pine_chaff_1", "moon", "swallow"],
                                ["lightning", "maple_chaff_1"])
    one.apply("play:crane")
    assert pile(one, 0) == {"crane", "pine_chaff_1", "lightning", "moon"}
    none = MushiRound.from_cards([["crane"], ["iris_chaff_1"]], ["pine_chaff_1", "swallow"],
                                 ["lightning", "maple_chaff_1"])
    none.apply("play:crane")
    assert set(ids_in(none.field)) == {"swallow", "lightning"}
    assert none.lightning_victim is None


def test_lightning_as_the_last_stock_card_sweeps_the_field():
    hands = [["crane"], ["iris_chaff_1"]]
    field = ["pine_chaff_1", "moon", "swallow", "deer"]
    s = MushiRound.from_cards(hands, field, ["cherry_chaff_1", "lightning"])
    s.apply("play:crane")
    s.apply("play:iris_chaff_1")
    assert s.is_over
    assert pile(s, 1) == {"lightning", "moon", "swallow", "deer", "iris_chaff_1", "cherry_chaff_1"}
    assert s.field == 0
    off = MushiRound.from_cards(hands, field, ["cherry_chaff_1", "lightning"],
                                rules=Rules(last_lightning_sweeps=False))
    off.apply("play:crane")
    off.apply("play:iris_chaff_1")
    assert legal(off) == {"choose:lightning>moon", "choose:lightning>deer",
                          "choose:lightning>cherry_chaff_1", "choose:lightning>iris_chaff_1"}


def handover_round(rules: Rules) -> MushiRound:
    s = MushiRound.from_cards([["lightning"], ["poetry_ribbon_jan"]],
                              ["crane", "pine_chaff_1", "pine_chaff_2", "plain_ribbon_willow"],
                              ["rainman", "swallow"], rules=rules)
    s.apply("play:lightning>crane")  # the stock's rain man then takes the willow ribbon
    s.apply("play:poetry_ribbon_jan>pine_chaff_1")  # the swallow from the stock is laid down
    assert s.is_over
    return s


def test_leftover_willow_and_the_victims_mate_are_handed_over():
    s = handover_round(Rules())
    assert pile(s, 0) == {"lightning", "crane", "rainman", "plain_ribbon_willow", "swallow", "pine_chaff_2"}
    assert s.field == 0
    r = s.result()
    assert r.detail["unclaimed"] == []
    assert r.detail["card_points"] == [20 + 20 + 10 + 5 + 1 + 1, 5 + 1]
    assert r.points == [57 - 115, 6 - 115]  # a partial deck: only the full one is zero-sum


def test_seed_000_hands_over_only_the_willow():
    s = handover_round(Rules.preset("seed"))
    assert "swallow" in pile(s, 0) and "pine_chaff_2" not in pile(s, 0)
    assert s.result().detail["unclaimed"] == ["pine_chaff_2"]


def test_misdeals():
    s = MushiRound.from_cards([[], []], [], [])
    s.field = mask(["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"])
    assert s._misdeal() == "four_of_a_month"
    s.field = mask(["rainman", "swallow", "plain_ribbon_willow", "crane"])
    assert s._misdeal() == "three_willows"
    s.field = mask(["crane", "pine_chaff_1", "curtain", "cherry_chaff_1", "moon", "geese",
                    "deer", "maple_chaff_1"])
    assert s._misdeal() is None
    pairs = MushiRound.from_cards([[], []], [], [], rules=Rules(field_misdeal="four_or_pairs"))
    pairs.field = s.field
    assert pairs._misdeal() == "four_pairs"


def test_seeded_deals_follow_fw_mu_and_redeal_misdeals():
    redeals = 0
    for seed in range(150):
        s = new_round(seed=seed, dealer=seed % 2)
        assert [h.bit_count() for h in s.hands] == [8, 8] and s.field.bit_count() == 8
        assert len(s.stock) == 16
        assert s._misdeal() is None
        redeals += sum(e["type"] == "misdeal" for e in s.start_events)
        all_cards = s.hands[0] | s.hands[1] | s.field | mask(s.stock)
        assert all_cards == mask(MUSHI_DECK)
    assert redeals > 0


def test_deal_gives_four_to_the_opponent_four_to_the_field_four_to_the_dealer_twice():
    s = new_round(seed=11, dealer=1, shuffle=NEWEST_SHUFFLE)
    if s.start_events[0]["type"] == "misdeal":
        pytest.skip("seed 11 misdealt")
    deck = list(MUSHI_DECK)
    Rng(11).shuffle(deck, NEWEST_SHUFFLE)
    assert s.hands[0] == mask(deck[0:4] + deck[12:16])
    assert s.field == mask(deck[4:8] + deck[16:20])
    assert s.hands[1] == mask(deck[8:12] + deck[20:24])
    piles, stock = deal_from(deck, [("hand0", 8), ("field", 8), ("hand1", 8)], 4)
    assert s.stock == stock and s.current_player == 1


def test_highest_score_deals_next_and_a_tie_keeps_the_dealer():
    s = MushiRound.from_cards([[], []], [], [], dealer=1)
    assert s._ranking([10, -10]) == (0, 0)
    assert s._ranking([0, 0]) == (None, 1)


def test_a_match_is_twelve_rounds_and_the_round_winner_deals():
    match = new_match(seed=5)
    events = play_match(match, 5)
    assert match.is_over and len(match.history) == 12
    assert sum(match.scores) == 0
    for before, after in zip(match.history, match.history[1:], strict=False):
        expected = before["winner"] if before["winner"] is not None else before["dealer"]
        assert after["dealer"] == expected
    overs = [e for e in events if e["type"] == "round_over"]
    assert all(set(e["detail"]["yaku_by_seat"]) == {"0", "1"} for e in overs)
    assert Action.parse("play:lightning>crane") == Action("play", "lightning", "crane")


def test_mushi_is_for_two():
    with pytest.raises(ValueError):
        new_match(3)
