"""The koi-koi limit for both players together, the three-of-a-month misdeal, and the KoiKoi-Japan
rule set (KKJ): points per own call, viewings worth more after a call, both ribbon sets a
further 10, four of a month in a hand redealt, 8 rounds from 30 points each."""

import pytest

from bot.cards import MONTH_MASKS
from bot.games.base import Action, GameOver, IllegalAction, InvalidRules
from bot.games.koikoi import DECIDE, KoiKoiRound, Rules, new_match, new_round, score_yaku
from bot.games.koikoi.scoring import round_score
from bot.games.rng import Rng
from tests.games.refusals import refused_rules

KKJ = Rules.preset("koikoi_japan")
POETRY = ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"]
BLUE = ["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"]
# stock cards of months that are on no field below and pair with nothing among themselves
STOCK = ["wisteria_chaff_1", "geese", "swallow", "paulownia_chaff_1", "bridge", "butterflies"]


def play(state, text, player=None):
    return state.apply(Action.parse(text), player)


def points(cards, rules, **kw):
    return {y.slug: y.points for y in score_yaku(cards, rules, **kw)}


def both_near_a_yaku(rules, *more_ribbons):
    """Seat 0 is one poetry ribbon from akatan (holding ``more_ribbons`` too), seat 1 one sake
    cup from hanami-zake."""
    return KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar", "plain_ribbon_may", "iris_chaff_1"],
               ["sake_cup", "peony_chaff_1", "peony_chaff_2"]],
        field=["cherry_chaff_1", "chrysanthemum_chaff_1", "iris_chaff_2", "clover_chaff_1"],
        stock=STOCK, captured=[["poetry_ribbon_jan", "poetry_ribbon_feb", *more_ribbons], ["curtain"]],
        rules=rules)


# -- koikoi_limit=once_total ----------------------------------------------------------------------
def test_once_total_one_call_ends_the_choice_for_both_players():
    s = both_near_a_yaku(Rules(koikoi_limit="once_total"))
    play(s, "play:poetry_ribbon_mar")
    assert s.legal_actions() == [Action("koikoi"), Action("stop")]  # nobody has called yet
    play(s, "koikoi")
    events = play(s, "play:sake_cup", 1)  # hanami-zake: the call is spent, the round ends
    assert {"type": "stop", "player": 1, "forced": True} in events
    assert s.is_over and s.result().points == [0, 10]  # 5, x2: the opponent had called
    per_player = both_near_a_yaku(Rules(koikoi_limit="once"))
    play(per_player, "play:poetry_ribbon_mar")
    play(per_player, "koikoi")
    play(per_player, "play:sake_cup", 1)
    assert per_player.phase == DECIDE and Action("koikoi") in per_player.legal_actions()


def test_once_total_refuses_a_second_call_by_the_caller():
    s = both_near_a_yaku(Rules(koikoi_limit="once_total"))
    play(s, "play:poetry_ribbon_mar")
    play(s, "koikoi")
    play(s, "play:peony_chaff_1", 1)
    play(s, "play:plain_ribbon_may")  # a fourth ribbon improves akatan: the caller must stop
    assert s.is_over and s.result().winner == 0
    with pytest.raises(GameOver):
        play(s, "koikoi")


# -- field_misdeal=three --------------------------------------------------------------------------
def test_three_of_a_month_on_the_field_is_redealt():
    seen = 0
    for seed in range(300):
        s = new_round(rules=Rules(field_misdeal="three"), seed=seed)
        seen += sum(e["reason"] == "three_of_a_month" for e in s.start_events if e["type"] == "misdeal")
        assert max((s.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)) <= 2
    assert seen > 0
    kept = [new_round(rules=Rules(), seed=seed) for seed in range(300)]  # four: three may stay
    assert any(max((s.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)) == 3 for s in kept)


# -- teyaku=teshi_misdeal -------------------------------------------------------------------------
def test_four_of_a_month_in_a_hand_is_redealt_and_four_pairs_play_on():
    redealt = pairs_played = 0
    for seed in range(3000):
        s = new_round(rules=KKJ, seed=seed)
        redealt += sum(e["reason"] == "four_in_a_hand" for e in s.start_events if e["type"] == "misdeal")
        assert not any("teshi" in s._teyaku(p) for p in (0, 1))
        if any(s._teyaku(p) == ["kuttsuki"] for p in (0, 1)):
            assert not s.is_over  # four pairs neither win nor redeal here
            pairs_played += 1
        if redealt and pairs_played:
            return
    pytest.fail(f"redealt {redealt}, four pairs played {pairs_played} in 3000 deals")


# -- koikoi_multiplier=own_calls_bonus --------------------------------------------------------------
@pytest.mark.parametrize("calls, total", [(0, 6), (1, 7), (2, 8), (3, 9), (4, 12), (5, 18), (6, 24)])
def test_own_calls_add_a_point_each_then_multiply_from_the_fourth(calls, total):
    score = round_score(KKJ, 6, calls, 0, 0)
    assert score.total == total
    assert round_score(KKJ, 6, calls, 3, 0).total == total  # the opponent's calls change nothing
    assert (score.bonuses, score.multipliers) == (
        ([("koikoi_calls", calls)] if 1 <= calls <= 3 else []),
        ([("koikoi", calls - 2)] if calls >= 4 else []))


def test_a_stop_after_one_call_scores_the_bonus_in_the_round():
    s = both_near_a_yaku(KKJ, "plain_ribbon_apr")
    play(s, "play:poetry_ribbon_mar")
    play(s, "koikoi")
    play(s, "play:peony_chaff_1", 1)
    play(s, "play:plain_ribbon_may")  # a fifth ribbon: akatan 5 and tanzaku 1
    play(s, "stop")
    result = s.result()
    assert result.points == [7, -7]  # 6 + 1 for the call; zero-sum
    assert result.detail["bonus"] == [["koikoi_calls", 1]] and result.detail["multipliers"] == []
    s = both_near_a_yaku(Rules())
    play(s, "play:poetry_ribbon_mar")
    play(s, "stop")
    assert "bonus" not in s.result().detail  # other rules: outcomes as before


# -- viewing_points=1, viewing_points_after_koikoi=3 ------------------------------------------------
def test_viewings_are_worth_one_or_three_after_a_call():
    assert points(["curtain", "sake_cup", "moon"], KKJ) == {"hanami_zake": 1, "tsukimi_zake": 1}
    assert points(["curtain", "sake_cup", "moon"], KKJ, called=True) == {"hanami_zake": 3, "tsukimi_zake": 3}
    assert points(["curtain", "sake_cup"], Rules(), called=True) == {"hanami_zake": 5}


def test_a_viewing_formed_after_a_call_scores_three_in_the_round():
    s = KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar", "sake_cup", "iris_chaff_1"], ["peony_chaff_1", "peony_chaff_2", "boar"]],
        field=["cherry_chaff_1", "chrysanthemum_chaff_1", "pine_chaff_1", "clover_chaff_1"],
        stock=STOCK, captured=[["poetry_ribbon_jan", "poetry_ribbon_feb", "curtain"], []], rules=KKJ)
    play(s, "play:poetry_ribbon_mar")  # akatan 5
    play(s, "koikoi")
    play(s, "play:peony_chaff_1", 1)
    events = play(s, "play:sake_cup")  # hanami-zake after the call: 3
    assert {"type": "yaku", "player": 0, "points": 8, "yaku": [["akatan", 5], ["hanami_zake", 3]]} in events
    play(s, "stop")
    assert s.result().points == [9, -9]  # 8 + 1 for the call


# -- akatan_aotan=adds ------------------------------------------------------------------------------
def test_both_ribbon_sets_score_a_further_ten():
    # six ribbons are five and more: tanzaku scores beside the sets
    assert points(POETRY + BLUE, KKJ) == {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 2}
    assert points(POETRY + BLUE + ["plain_ribbon_may"], KKJ) == {
        "akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 3}
    assert points(POETRY + BLUE, Rules()) == {"akatan_aotan": 10}  # replaces: 10 in all
    absorbed = points(POETRY + BLUE + ["plain_ribbon_may"], Rules(akatan_aotan="adds"))
    assert absorbed == {"akatan": 5, "aotan": 5, "akatan_aotan": 11}  # +1 a ribbon


# -- extras_mode=stack: flat 5s with tane and tanzaku beside them ------------------------------------
ANIMAL_FIVE = ["boar", "deer", "butterflies", "swallow", "cuckoo"]
EVERY_ANIMAL = ANIMAL_FIVE + ["bush_warbler", "bridge", "geese", "sake_cup"]
EVERY_RIBBON = POETRY + BLUE + ["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul", "plain_ribbon_willow"]


@pytest.mark.parametrize("pile, stacked, absorbed", [
    (ANIMAL_FIVE[:3], {"inoshikacho": 5}, {"inoshikacho": 5}),
    (ANIMAL_FIVE[:4], {"inoshikacho": 5}, {"inoshikacho": 6}),
    (ANIMAL_FIVE, {"inoshikacho": 5, "tane": 1}, {"inoshikacho": 7}),
    (EVERY_ANIMAL, {"inoshikacho": 5, "tane": 5}, {"inoshikacho": 11}),
    (POETRY + ["plain_ribbon_apr"], {"akatan": 5}, {"akatan": 6}),
    (BLUE + ["plain_ribbon_apr", "plain_ribbon_may"], {"aotan": 5, "tanzaku": 1}, {"aotan": 7}),
    (EVERY_RIBBON, {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 6},
     {"akatan": 5, "aotan": 5, "akatan_aotan": 14}),
])
def test_kkj_scores_the_sets_flat_and_counts_tane_and_tanzaku_on_their_own(pile, stacked, absorbed):
    assert points(pile, KKJ) == stacked
    assert points(pile, KKJ.replace(extras_mode="absorb")) == absorbed  # the preset's old figures


def _fifth_card_round(rules, captured, played, field_card):
    """Seat 0 holds four cards of a yaku's kind in its pile and plays the card that makes it with a
    fifth of that kind, then stops."""
    s = KoiKoiRound.from_cards(
        hands=[[played, "iris_chaff_1"], ["peony_chaff_2", "clover_chaff_1"]],
        field=[field_card, "chrysanthemum_chaff_1", "pine_chaff_1", "maple_chaff_1"],
        stock=["wisteria_chaff_1", "paulownia_chaff_1", "susuki_chaff_1", "plum_chaff_1"],
        captured=[captured, []], rules=rules)
    events = play(s, f"play:{played}")
    play(s, "stop")
    return next(e for e in events if e["type"] == "yaku")["yaku"], s.result().points


@pytest.mark.parametrize("captured, played, field_card, stacked, absorbed", [
    # inoshikacho with the swallow and the cuckoo: 5 + tane 1, where absorbing gave 5 + 2
    (["boar", "deer", "swallow", "cuckoo"], "butterflies", "peony_chaff_1",
     [["inoshikacho", 5], ["tane", 1]], [["inoshikacho", 7]]),
    # akatan with two plain ribbons: 5 + tanzaku 1, where absorbing gave 5 + 2
    (["poetry_ribbon_jan", "poetry_ribbon_feb", "plain_ribbon_apr", "plain_ribbon_jul"],
     "poetry_ribbon_mar", "cherry_chaff_1", [["akatan", 5], ["tanzaku", 1]], [["akatan", 7]]),
])
def test_a_kkj_round_scores_the_stacked_figures(captured, played, field_card, stacked, absorbed):
    yaku, result = _fifth_card_round(KKJ, captured, played, field_card)
    assert (yaku, result) == (stacked, [6, -6])
    yaku, result = _fifth_card_round(KKJ.replace(extras_mode="absorb"), captured, played, field_card)
    assert (yaku, result) == (absorbed, [7, -7])


# -- the match: 8 rounds from 30 points each --------------------------------------------------------
def test_kkj_matches_end_after_eight_rounds_or_when_a_player_has_lost_thirty():
    ended_early = 0
    for seed in range(100):  # random play loses a bankroll in fewer than 8 rounds now and then
        m = new_match(rules=KKJ, seed=seed)
        rng = Rng(seed)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
        assert sum(m.scores) == 0 and len(m.history) <= 8
        if len(m.history) < 8:
            assert min(m.scores) <= -30
            ended_early += 1
        assert all(min(sum(h["points"][p] for h in m.history[:i]) for p in (0, 1)) > -30
                   for i in range(1, len(m.history)))  # no earlier round had emptied a bankroll
        assert m.observation(0)["match"]["bankroll"] == 30
    assert ended_early > 0


def test_kkj_dealer_scores_one_when_the_cards_run_out():
    s = KoiKoiRound.from_cards(hands=[["pine_chaff_1"], ["plum_chaff_1"]],
                               field=["cherry_chaff_1", "iris_chaff_1"],
                               stock=["maple_chaff_1", "wisteria_chaff_1"], rules=KKJ, dealer=1)
    play(s, "play:plum_chaff_1")
    play(s, "play:pine_chaff_1")
    assert s.result().points == [-1, 1]


def test_a_bankroll_needs_zero_sum_scores():
    with refused_rules("bankroll needs zero_sum"):
        Rules(bankroll=30)
    with pytest.raises(InvalidRules):
        Rules(zero_sum=True, bankroll=31)


def test_illegal_koikoi_is_refused_with_the_state_unchanged():
    s = both_near_a_yaku(Rules(koikoi_limit="once_total"))
    play(s, "play:poetry_ribbon_mar")
    play(s, "koikoi")
    before = s.to_dict()
    with pytest.raises(IllegalAction):
        play(s, "koikoi", 1)
    assert s.to_dict() == before
