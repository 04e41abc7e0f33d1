"""Seotda betting sequences, side pots, redeals, ties, three-card play and privacy."""

from __future__ import annotations

import json

import pytest

from bot.games.base import GameOver, IllegalAction, InvalidRules, NotYourTurn
from bot.games.seotda import Rules, SeotdaRound, match_from_dict, new_match

JANG_TTAENG = ["deer", "blue_ribbon_oct"]
ALI = ["crane", "bush_warbler"]
GABO = ["geese", "crane"]
GABO_TOO = ["poetry_ribbon_jan", "moon"]
GUSA = ["cuckoo", "blue_ribbon_sep"]
KKEUT_8 = ["bridge", "curtain"]
MANGTONG = ["poetry_ribbon_feb", "geese"]


def rigged(hands, rules=None, stacks=None, dealer=0, deck_seed=1):
    """A hand with the given cards dealt (the rest of the deck stays in the stock)."""
    r = SeotdaRound(len(hands), rules or Rules(), deck_seed, dealer=dealer, stacks=stacks)
    dealt = {c for h in hands for c in h}
    r.stock = [c for c in r.stock + [c for h in r.hands for c in h] if c not in dealt]
    r.hands = [list(h) for h in hands]
    return r


def play(r, *actions):
    events = []
    for a in actions:
        events += r.apply(a, r.current_player)
    return events


def test_ante_then_bbing_half_ddadang_call():
    r = rigged([JANG_TTAENG, ALI])
    assert (r.pot, r.stacks, r.current_player) == (2, [99, 99], 0)  # the dealer opens
    assert r.costs(0) == {"check": 0, "bbing": 1, "die": 0}
    play(r, "bbing")
    assert r.costs(1) == {"call": 1, "half": 1 + 2, "ddadang": 2, "die": 0}  # half of 4 after calling
    play(r, "half")  # seat 1 to 3
    assert r.costs(0) == {"call": 2, "half": 2 + 4, "ddadang": 5, "die": 0}  # pot 6 +2 = 8
    play(r, "ddadang")  # seat 0 to 6
    events = play(r, "call")  # seat 1 calls 3
    assert [e["type"] for e in events] == ["bet", "showdown", "pot"]
    assert events[1]["hands"]["0"]["hand"] == "ttaeng_10"
    assert r.is_over and r.result().points == [7, -7] and r.result().winner == 0
    assert r.stacks == [107, 93] and r.pot == 0


def test_checks_go_to_the_showdown_and_a_die_shows_nothing():
    r = rigged([ALI, JANG_TTAENG])
    play(r, "check", "check")
    assert r.result().points == [-1, 1]
    r = rigged([ALI, JANG_TTAENG, GABO])
    events = play(r, "bbing", "die", "die")
    assert r.result().points == [2, -1, -1]
    assert all(e["type"] != "showdown" for e in events) and r.result().detail["hands"] == {}


def test_illegal_moves_change_nothing():
    r = rigged([ALI, JANG_TTAENG])
    before = r.to_dict()
    with pytest.raises(NotYourTurn):
        r.apply("check", 1)
    with pytest.raises(IllegalAction):
        r.apply("call", 0)  # nothing to call
    assert r.to_dict() == before
    play(r, "bbing", "call")
    with pytest.raises(GameOver):
        r.apply("check", 0)


def test_a_caller_may_only_call_or_die_and_raises_are_limited():
    r = rigged([ALI, JANG_TTAENG, GABO], rules=Rules(max_raises=2))
    play(r, "bbing", "call")  # seat 1 called
    play(r, "ddadang")  # seat 2 raises to 2: raise 2 of 2
    assert r.current_player == 0 and set(r.costs(0)) == {"call", "die"}  # limit reached
    play(r, "call")
    assert set(r.costs(1)) == {"call", "die"}


def test_all_in_and_side_pot():
    # seat 0 has 5 chips and the best hand; seats 1 and 2 bet on
    r = rigged([JANG_TTAENG, GABO, KKEUT_8], stacks=[5, 50, 50])
    play(r, "bbing", "ddadang")  # seat 1 to 2
    play(r, "half")  # seat 2: call 2, then half of the pot of 8 after the call
    assert r.round_bets == [1, 2, 2 + 4]
    assert r.costs(0) == {"allin": 3, "die": 0}  # 3 behind, 5 to call
    play(r, "allin", "call")
    assert r.is_over and r.in_pot == [5, 7, 7]
    # main pot: 5 from each = 15 to seat 0; side pot: 2 more from seats 1 and 2 -> seat 1
    assert r.result().detail["pots"] == [{"chips": 15, "winners": [0]}, {"chips": 4, "winners": [1]}]
    assert r.result().points == [10, -3, -7]


def test_short_stack_die_rule():
    r = rigged([JANG_TTAENG, GABO], rules=Rules(short_stack="die", ante=2), stacks=[3, 50])
    play(r, "check", "bbing")
    assert r.costs(0) == {"die": 0}


def test_gusa_redeal_keeps_the_pot_and_deals_again():
    r = rigged([GUSA, ALI, GABO], deck_seed=3)
    events = play(r, "bbing", "call", "die")
    kinds = [e["type"] for e in events]
    assert kinds[3:] == ["showdown", "redeal", "deal"]
    assert events[3]["redeal"] == {"reason": "gusa", "caller": 0}
    assert not r.is_over and r.pot == 5 and r.live == [True, True, False]
    assert len(r.hands[0]) == len(r.hands[1]) == 2 and r.hands[2] == [] and r.redeals == 1
    assert r.current_player == 0 and r.costs(0)["bbing"] == 1  # betting starts again, no ante
    assert sum(r.stacks) + r.pot == 300


def test_tie_split_gives_the_odd_chip_after_the_dealer():
    r = rigged([GABO, GABO_TOO, MANGTONG], dealer=2)
    play(r, "bbing", "call", "call")  # seats 2, 0, 1
    assert r.result().detail["pots"] == [{"chips": 6, "winners": [0, 1]}]
    assert r.result().points == [1, 1, -2] and r.result().winner is None
    r = rigged([GABO, GABO_TOO, MANGTONG], dealer=2)
    play(r, "check", "bbing", "call", "die")  # seats 2, 0, 1, 2
    assert r.result().detail["won"] == [3, 2, 0]  # 5 chips: the odd one to seat 0, first after the dealer


def test_tie_replay():
    r = rigged([GABO, GABO_TOO, MANGTONG], rules=Rules(tie="replay"))
    events = play(r, "check", "check", "check")
    assert events[3]["redeal"]["reason"] == "tie" and r.live == [True, True, False] and r.pot == 3


def test_redeals_are_capped_then_split():
    r = rigged([GUSA, ALI], rules=Rules(max_redeals=0))
    events = play(r, "check", "check")
    assert events[2].get("split_after_redeals") and r.result().points == [0, 0]


def test_three_card_keep_and_second_round():
    r = rigged([["crane", "bush_warbler"], ["deer", "cuckoo"]], rules=Rules.preset("three_card"))
    play(r, "check", "check")
    assert r.phase == "keep" and len(r.hands[0]) == 3 and r.current_player == 0
    legal = [str(a) for a in r.legal_actions()]
    assert len(legal) == 3 and all(a.startswith("keep:") for a in legal)
    theirs = r.observation(1)
    assert theirs["hand_sizes"] == [3, 3] and "crane" not in str(theirs)
    play(r, legal[0])
    assert r.observation(1)["kept"] is None and "kept" not in str(r.observation(1)["history"])
    play(r, r.legal_actions()[0])
    assert r.phase == "bet" and r.street == 2
    play(r, "check", "check")
    assert r.is_over and set(r.result().detail["hands"]) == {"0", "1"}


def test_observation_hides_other_hands_until_the_showdown():
    r = rigged([JANG_TTAENG, ALI])
    obs = r.observation(1)
    assert obs["hand"] == ALI and "deer" not in str(obs) and obs["legal_actions"] == []
    assert r.observation(0)["costs"] == r.costs(0)
    play(r, "check", "check")
    assert r.observation(1)["shown"]["0"]["cards"] == JANG_TTAENG


def test_rules_presets_and_limits():
    assert Rules.preset("three_card").cards == 3
    for bad in ({"cards": 4}, {"ante": 0}, {"buy_in": 1}, {"tie": "coin"}, {"ante": 60}):
        with pytest.raises(InvalidRules):
            Rules.from_dict(bad)
    with pytest.raises(ValueError):
        new_match(7)


def test_a_timed_out_player_dies_or_keeps_the_best_two():
    r = rigged([JANG_TTAENG, ALI])
    assert str(r.timeout_action()) == "die"
    r = rigged([["crane", "bush_warbler"], ["deer", "cuckoo"]], rules=Rules.preset("three_card"))
    play(r, "check", "check")
    r.hands[0] = ["crane", "bush_warbler", "poetry_ribbon_jan"]
    r._legal = None
    assert str(r.timeout_action()) == "keep:crane>poetry_ribbon_jan"  # pping-ttaeng over ali
    play(r, str(r.timeout_action()), "keep:deer>cuckoo", "check", "check")
    assert r.timeout_action() is None


def test_restart_in_the_middle_of_a_betting_round():
    """The stored state of a half-played betting round continues exactly as the live one."""
    match = new_match(4, Rules.preset("three_card"), seed=21)
    while match.round.phase != "bet" or match.round.street != 2 or not match.round.history:
        legal = {str(a): a for a in match.legal_actions()}
        match.apply(next((legal[k] for k in ("call", "bbing", "check") if k in legal), [*legal.values()][-1]))
    stored = match.to_json()
    restored = match_from_dict(json.loads(stored))
    assert restored.observation(restored.current_player) == match.observation(match.current_player)
    while not match.is_over:
        action = match.legal_actions()[0]
        assert restored.legal_actions() == match.legal_actions()
        assert restored.apply(action) == match.apply(action)
    assert restored.scores == match.scores and restored.to_json() == match.to_json()
