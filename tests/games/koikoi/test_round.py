"""Koi-Koi rounds and matches: deal checks, captures, koi-koi sequences, draws, options."""

import pytest

from bot.cards import MONTH_MASKS, ids_in
from bot.games.base import Action, GameOver, IllegalAction, NotYourTurn
from bot.games.koikoi import DECIDE, KoiKoiRound, Rules, new_match, new_round
from bot.games.koikoi.game import CHOOSE_DRAW, draw_for_dealer

FILLER0 = ["iris_chaff_1", "iris_chaff_2"]
STOCK = ["maple_chaff_1", "maple_chaff_2", "geese", "deer", "swallow", "lightning"]


def play(state, text, player=None):
    return state.apply(Action.parse(text), player)


def koikoi_position(rules=None):
    """Seat 0 is one poetry ribbon from akatan, seat 1 one sake cup from hanami-zake."""
    return KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar", "plain_ribbon_may"], ["sake_cup", "peony_chaff_1"]],
        field=["cherry_chaff_1", "chrysanthemum_chaff_1", "pine_chaff_1", "boar"],
        stock=STOCK,
        captured=[["poetry_ribbon_jan", "poetry_ribbon_feb"], ["curtain"]],
        rules=rules,
    )


def test_capture_one_match_and_discard():
    s = koikoi_position()
    ev = play(s, "play:plain_ribbon_may")  # no iris on the field: stays there
    assert ev[0] == {"type": "play", "player": 0, "card": "plain_ribbon_may", "captured": []}
    assert "plain_ribbon_may" in ids_in(s.field)
    assert ev[1]["type"] == "draw" and ev[1]["card"] == "maple_chaff_1"
    assert s.current_player == 1


def test_triplet_on_field_is_taken_whole():
    s = KoiKoiRound.from_cards(
        hands=[["pine_chaff_2", "iris_chaff_1"], ["plum_chaff_1", "plum_chaff_2"]],
        field=["crane", "poetry_ribbon_jan", "pine_chaff_1", "boar"],
        stock=STOCK)
    assert Action("play", "pine_chaff_2") in s.legal_actions()  # no choice with three matches
    ev = play(s, "play:pine_chaff_2")
    assert sorted(ev[0]["captured"]) == sorted(ids_in(MONTH_MASKS[1]))
    assert s.captured[0] & MONTH_MASKS[1] == MONTH_MASKS[1]


def test_two_matches_require_a_choice_for_hand_and_stock_card():
    s = KoiKoiRound.from_cards(
        hands=[["crane", "iris_chaff_1"], ["plum_chaff_1", "bridge"]],
        field=["pine_chaff_1", "pine_chaff_2", "maple_chaff_1", "maple_chaff_2"],
        stock=["deer", "geese", "swallow"])
    legal = s.legal_actions()
    assert Action("play", "crane", "pine_chaff_1") in legal
    assert Action("play", "crane") not in legal
    before = s.to_dict()
    with pytest.raises(IllegalAction):
        play(s, "play:crane")
    assert s.to_dict() == before
    play(s, "play:crane>pine_chaff_2")
    # the drawn deer matches both maple chaff: the player chooses
    assert s.phase == CHOOSE_DRAW and s.current_player == 0
    assert s.observation(1)["drawn"] == "deer"
    assert s.legal_actions() == [Action("choose", "deer", "maple_chaff_1"), Action("choose", "deer", "maple_chaff_2")]
    play(s, "choose:deer>maple_chaff_2")
    assert ids_in(s.captured[0]) == ["crane", "pine_chaff_2", "deer", "maple_chaff_2"]
    assert s.current_player == 1


def test_koikoi_then_opponent_stops_doubled():
    s = koikoi_position()
    ev = play(s, "play:poetry_ribbon_mar")
    assert {"type": "yaku", "player": 0, "points": 5, "yaku": [["akatan", 5]]} in ev
    assert s.phase == DECIDE
    assert s.legal_actions() == [Action("koikoi"), Action("stop")]
    with pytest.raises(NotYourTurn):
        play(s, "stop", player=1)
    play(s, "koikoi", player=0)
    assert s.current_player == 1 and s.observation(1)["koikoi_calls"] == [1, 0]
    ev = play(s, "play:sake_cup", player=1)
    assert any(e["type"] == "yaku" and e["player"] == 1 for e in ev)
    play(s, "stop", player=1)
    res = s.result()
    assert res.winner == 1 and res.points == [0, 10]  # hanami 5, x2: the opponent called koi-koi
    assert res.detail["multipliers"] == [["koikoi", 2]]
    with pytest.raises(GameOver):
        play(s, "play:plain_ribbon_may")


def test_stop_scores_only_the_stopper_and_zero_sum_option():
    s = koikoi_position(Rules(zero_sum=True))
    play(s, "play:poetry_ribbon_mar")
    play(s, "stop")
    assert s.result().points == [5, -5]
    assert s.result().next_dealer is None  # the winner deals next (the match applies it)


def test_improvement_offers_the_choice_again_and_new_only_does_not():
    def after_koikoi(rules):
        s = KoiKoiRound.from_cards(
            hands=[["poetry_ribbon_mar", "plain_ribbon_may", "iris_chaff_1"], ["peony_chaff_1", "peony_chaff_2", "bush_warbler"]],
            field=["cherry_chaff_1", "iris_chaff_2", "pine_chaff_1", "clover_chaff_1"],
            stock=STOCK, captured=[["poetry_ribbon_jan", "poetry_ribbon_feb"], []], rules=rules)
        play(s, "play:poetry_ribbon_mar")
        play(s, "koikoi")
        play(s, "play:peony_chaff_1", 1)
        return s
    s = after_koikoi(Rules())
    ev = play(s, "play:plain_ribbon_may", 0)  # a fourth ribbon: akatan 5 -> 6
    assert any(e["type"] == "yaku" and e["points"] == 6 for e in ev) and s.phase == DECIDE
    s = after_koikoi(Rules(improvement="new_only"))
    play(s, "play:plain_ribbon_may", 0)
    assert s.phase != DECIDE and s.current_player == 1


def test_koikoi_limit_once_and_min3_and_last_card_force_the_stop():
    s = koikoi_position(Rules(koikoi_limit="min3", custom_points=(("akatan", 2),)))
    ev = play(s, "play:poetry_ribbon_mar")  # 2 points < 3: no koi-koi allowed, the round ends
    assert {"type": "stop", "player": 0, "forced": True} in ev and s.is_over
    s = KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar"], ["sake_cup"]],
        field=["cherry_chaff_1", "pine_chaff_1"], stock=STOCK,
        captured=[["poetry_ribbon_jan", "poetry_ribbon_feb"], []])
    play(s, "play:poetry_ribbon_mar")  # the last card: nothing left to koi-koi with
    assert s.is_over and s.result().points == [5, 0]


def test_exhaustive_draw_results():
    def drawn(rules):
        s = KoiKoiRound.from_cards(
            hands=[["pine_chaff_1"], ["plum_chaff_1"]],
            field=["cherry_chaff_1", "iris_chaff_1"], stock=["maple_chaff_1", "wisteria_chaff_1"],
            rules=rules, dealer=1)
        play(s, "play:plum_chaff_1")
        play(s, "play:pine_chaff_1")
        assert s.is_over
        return s.result()
    r = drawn(Rules())
    assert r.winner is None and r.points == [0, 0] and r.next_dealer == 1
    r = drawn(Rules(draw_result="oya_ken"))
    assert r.winner == 1 and r.points == [0, 6]
    r = drawn(Rules(draw_result="oya_ken", oya_ken_points=1))
    assert r.points == [0, 1]
    r = drawn(Rules(draw_result="dealer_passes"))
    assert r.winner is None and r.next_dealer == 0


def test_last_improver_scores_an_exhaustive_draw():
    s = KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar", "pine_chaff_2"], ["plum_chaff_1", "plum_chaff_2"]],
        field=["cherry_chaff_1", "iris_chaff_1", "clover_chaff_1", "peony_chaff_1"],
        stock=["maple_chaff_1", "wisteria_chaff_1", "susuki_chaff_1", "deer"],
        captured=[["poetry_ribbon_jan", "poetry_ribbon_feb"], []], rules=Rules(draw_result="last_improver"))
    play(s, "play:poetry_ribbon_mar")
    play(s, "koikoi")
    play(s, "play:plum_chaff_1")
    play(s, "play:pine_chaff_2")
    play(s, "play:plum_chaff_2")
    assert s.is_over and s.result().winner == 0 and s.result().points == [5, 0]


@pytest.mark.parametrize("hand, name", [
    (["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "deer", "geese", "swallow", "bridge"], "teshi"),
    (["crane", "pine_chaff_1", "deer", "maple_chaff_1", "geese", "moon", "swallow", "rainman"], "kuttsuki"),
])
def test_teyaku_wins_at_once(hand, name):
    other = ["plum_chaff_1", "cherry_chaff_1", "wisteria_chaff_1", "iris_chaff_1", "peony_chaff_1",
             "clover_chaff_1", "chrysanthemum_chaff_1", "phoenix"]
    s = KoiKoiRound.from_cards(hands=[other, hand], field=["plum_chaff_2"], stock=["paulownia_chaff_1"])
    assert s.is_over
    r = s.result()
    assert r.winner == 1 and r.points == [0, 6] and r.detail["teyaku"] == [name]
    assert sorted(r.detail["revealed"]) == sorted(hand)
    s = KoiKoiRound.from_cards(hands=[other, hand], field=["plum_chaff_2"], stock=["paulownia_chaff_1"],
                               rules=Rules(teyaku="off"))
    assert not s.is_over


def test_teyaku_both_players_is_a_draw_and_double_scores_twelve():
    teshi = ["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "deer", "maple_chaff_1", "geese", "moon"]
    pairs = ["bush_warbler", "plum_chaff_1", "curtain", "cherry_chaff_1", "cuckoo", "wisteria_chaff_1", "bridge", "iris_chaff_1"]
    s = KoiKoiRound.from_cards(hands=[teshi, pairs], field=[], stock=["paulownia_chaff_1"])
    assert s.result().winner is None and s.result().reason == "teyaku_draw"
    junk = ["bush_warbler", "cherry_chaff_1", "cuckoo", "bridge", "butterflies", "boar", "sake_cup", "phoenix"]
    s = KoiKoiRound.from_cards(hands=[teshi, junk], field=[], stock=["paulownia_chaff_1"], rules=Rules(teyaku_both="double"))
    assert s.result().detail["teyaku"] == ["teshi", "kuttsuki"] and s.result().points == [12, 0]


def test_misdeals_are_redealt_until_the_field_is_clean():
    seen = {"four_of_a_month": 0, "four_pairs": 0}
    for seed in range(4000):
        s = new_round(rules=Rules(field_misdeal="four_or_pairs"), seed=seed)
        for e in s.start_events:
            if e["type"] == "misdeal":
                seen[e["reason"]] += 1
        counts = [(s.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)]
        assert 4 not in counts and sum(1 for c in counts if c == 2) != 4
        if all(seen.values()):
            break
    assert all(seen.values())


def test_dealer_wins_with_four_on_the_field():
    for seed in range(20000):
        s = new_round(rules=Rules(field_misdeal="dealer_wins"), seed=seed)
        if s.is_over and s.result().reason == "teyaku" and s.result().detail["teyaku"] == ["field_four"]:
            assert s.result().winner == s.dealer and s.result().points[s.dealer] == 6
            return
    pytest.fail("no four-of-a-month field in 20000 deals")


def test_hand_swap_offer():
    rules = Rules.preset("seed")
    s = new_round(rules=rules, seed=5, dealer=0)
    assert s.current_player == 1 and s.legal_actions() == [Action("keep"), Action("swap")]
    h0, h1 = s.hands
    play(s, "swap", 1)
    assert s.hands == [h1, h0] and (s.is_over or s.current_player == 0)


def test_wild_lightning_captures_any_field_card():
    s = KoiKoiRound.from_cards(
        hands=[["lightning", "pine_chaff_1"], ["plum_chaff_1", "bridge"]],
        field=["crane", "deer", "cherry_chaff_1"], stock=STOCK[:3], rules=Rules(lightning_wild="on"))
    assert {str(a) for a in s.legal_actions()} >= {"play:lightning>crane", "play:lightning>deer"}
    play(s, "play:lightning>crane")
    assert {"crane", "lightning"} <= set(ids_in(s.captured[0])) and "crane" not in ids_in(s.field)
    s = KoiKoiRound.from_cards(
        hands=[["lightning", "pine_chaff_1"], ["plum_chaff_1", "bridge"]],
        field=["crane", "deer", "cherry_chaff_1"], stock=STOCK[:3], rules=Rules(lightning_wild="susuki_on_field"))
    assert Action("play", "lightning") in s.legal_actions()  # no pampas dealt: not wild


def test_dealer_draw_picks_the_earliest_month():
    for seed in range(50):
        dealer, cards = draw_for_dealer(seed)
        from bot.cards import card
        a, b = (card(c) for c in cards)
        assert dealer == (0 if a.index < b.index else 1)


def test_match_length_target_score_and_winner_deals():
    from bot.games.rng import Rng
    for rules, check in [
        (Rules(rounds=3), lambda m: len(m.history) == 3),
        (Rules(rounds=0, target_score=12), lambda m: max(m.scores) >= 12),
    ]:
        m = new_match(rules=rules, seed=11)
        rng = Rng(1)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
        assert check(m)
        for prev, nxt in zip(m.history, m.history[1:], strict=False):
            if prev["winner"] is not None and prev["next_dealer"] is None:
                assert nxt["dealer"] == prev["winner"]
            elif prev["next_dealer"] is not None:
                assert nxt["dealer"] == prev["next_dealer"]
        assert sum(h["points"][0] for h in m.history) == m.scores[0]
