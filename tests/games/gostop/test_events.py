"""Each Go-Stop event on a hand-built position: ppeok and taking it back, jjok, ttadak, sseul,
bombs, shaking, jokers, chongtong, nagari, go/stop and the dual card's reading."""

import pytest

from bot.games.base import IllegalAction
from bot.games.gostop import CHONGTONG, DECIDE, PLAY, READING, Rules, new_round
from tests.games.gostop.helpers import legal, of_type, pile, rnd, types


# -- ppeok --------------------------------------------------------------------------------------
def ppeok_position(**options):
    return rnd(
        hands=[["pine_chaff_1", "plum_chaff_1"], ["pine_chaff_2", "cherry_chaff_1"]],
        field=["crane", "iris_chaff_1"],
        stock=["poetry_ribbon_jan", "susuki_chaff_1", "maple_chaff_1", "clover_chaff_1"],
        captured=[["wisteria_chaff_1"], ["peony_chaff_1"]],
        **options,
    )


def test_ppeok_leaves_the_three_cards_on_the_field():
    s = ppeok_position()
    ev = s.apply("play:pine_chaff_1")
    assert "ppeok" in types(ev)
    assert {"crane", "pine_chaff_1", "poetry_ribbon_jan"} <= set(s.observation(0)["field"])
    assert pile(s, 0) == {"wisteria_chaff_1"}  # nothing captured
    assert s.ppeoks == [1, 0]
    stacks = s.observation(1)["stacks"]
    assert stacks == [{"korean_month": 1, "cards": ["crane", "poetry_ribbon_jan", "pine_chaff_1"],
                       "maker": 0}]


def test_taking_a_ppeok_back_takes_four_and_steals_a_pi():
    s = ppeok_position()
    s.apply("play:pine_chaff_1")
    ev = s.apply("play:pine_chaff_2")
    assert of_type(ev, "ppeok_taken")[0]["maker"] == 0
    steal = of_type(ev, "steal")[0]
    assert steal == {"type": "steal", "player": 1, "from": 0, "owed": 1,
                     "cards": ["wisteria_chaff_1"], "reasons": ["ppeok_capture"]}
    assert {"crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "wisteria_chaff_1"} <= pile(s, 1)
    assert pile(s, 0) == set()
    assert s.observation(0)["stacks"] == []


def self_ppeok(**options):
    s = rnd(
        hands=[["pine_chaff_1", "pine_chaff_2", "plum_chaff_1"],
               ["cherry_chaff_1", "iris_chaff_2", "wisteria_chaff_2"]],
        field=["crane"],
        stock=["poetry_ribbon_jan", "susuki_chaff_1", "susuki_chaff_2", "maple_chaff_1",
               "maple_chaff_2", "clover_chaff_1"],
        captured=[[], ["peony_chaff_1", "peony_chaff_2"]],
        **options,
    )
    s.apply("play:pine_chaff_1")  # ppeok
    s.apply("play:cherry_chaff_1")
    return s, s.apply("play:pine_chaff_2")  # takes back its own ppeok


def test_own_ppeok_taken_back_steals_one_pi_by_default():
    _, ev = self_ppeok()
    assert of_type(ev, "steal")[0]["cards"] == ["peony_chaff_1"]


def test_own_ppeok_two_pi_in_the_two_player_option():
    _, ev = self_ppeok(self_ppeok_2p=2)
    assert of_type(ev, "steal")[0]["cards"] == ["peony_chaff_1", "peony_chaff_2"]


def test_no_steal_for_ppeok_when_switched_off():
    _, ev = self_ppeok(steal_ppeok=0)
    assert of_type(ev, "steal") == []


def test_dealt_triplet_is_stacked_and_steals_only_with_steal_triplets_any():
    def play(**options):
        s = rnd(hands=[["pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1", "iris_chaff_1"]],
                field=["crane", "poetry_ribbon_jan", "pine_chaff_1"],
                stock=["..."], captured=[[], ["peony_chaff_1"]], **options)
        assert s.observation(0)["stacks"][0]["maker"] is None
        assert "play:pine_chaff_2" in legal(s)  # one action: the stack is taken whole
        ev = s.apply("play:pine_chaff_2")
        assert {"crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"} <= pile(s, 0)
        return of_type(ev, "steal")

    assert play() == []
    assert play(steal_triplets="any")[0]["cards"] == ["peony_chaff_1"]


def test_three_ppeok_wins_at_once_with_the_option():
    s = ppeok_position(three_ppeok="win")
    s.ppeoks[0] = 2
    ev = s.apply("play:pine_chaff_1")
    assert s.is_over and s.outcome["kind"] == "three_ppeok"
    assert s.result().points == [7, -7]
    assert ev[-1]["type"] == "round_end"
    s = ppeok_position()
    s.ppeoks[0] = 2
    s.apply("play:pine_chaff_1")
    assert not s.is_over


# -- jjok, ttadak, sseul ------------------------------------------------------------------------
def jjok_position(p1_hand=("cherry_chaff_1", "iris_chaff_1"), **options):
    return rnd(hands=[["crane", "plum_chaff_1"], list(p1_hand)], field=["wisteria_chaff_1"],
               stock=["pine_chaff_1", "..."], captured=[[], ["peony_chaff_1"]], **options)


def test_jjok_the_stock_card_takes_the_lone_hand_card():
    s = jjok_position()
    ev = s.apply("play:crane")
    assert "jjok" in types(ev)
    assert pile(s, 0) == {"crane", "pine_chaff_1", "peony_chaff_1"}
    assert of_type(ev, "steal")[0]["reasons"] == ["jjok"]


def test_jjok_does_not_steal_on_the_final_turn():
    s = rnd(hands=[["crane"], []], field=["wisteria_chaff_1"], stock=["pine_chaff_1"],
            captured=[[], ["peony_chaff_1"]])
    ev = s.apply("play:crane")
    assert of_type(ev, "final_turn")[0]["not_counted"] == ["jjok"]
    assert of_type(ev, "steal") == []
    assert s.is_over and s.outcome["kind"] == "nagari"


def test_final_turn_steals_with_final_turn_exempt_none():
    s = rnd(hands=[["crane"], []], field=["wisteria_chaff_1"], stock=["pine_chaff_1"],
            captured=[[], ["peony_chaff_1"]], final_turn_exempt="none")
    ev = s.apply("play:crane")
    assert of_type(ev, "steal")[0]["cards"] == ["peony_chaff_1"]


def test_final_turn_fw_gs_list_keeps_jjok():
    s = rnd(hands=[["crane"], []], field=["wisteria_chaff_1"], stock=["pine_chaff_1"],
            captured=[[], ["peony_chaff_1"]], final_turn_exempt="ppeok_sseul_ttadak")
    ev = s.apply("play:crane")
    assert of_type(ev, "steal")[0]["reasons"] == ["jjok"]


def ttadak_position(**options):
    return rnd(hands=[["crane", "plum_chaff_1"], ["cherry_chaff_1", "iris_chaff_1"]],
               field=["pine_chaff_1", "pine_chaff_2", "wisteria_chaff_1"],
               stock=["poetry_ribbon_jan", "..."], captured=[[], ["peony_chaff_1", "lightning"]],
               **options)


def test_ttadak_both_cards_take_one_of_the_pair():
    s = ttadak_position()
    assert {"play:crane>pine_chaff_1", "play:crane>pine_chaff_2"} <= legal(s)
    ev = s.apply("play:crane>pine_chaff_2")
    assert "ttadak" in types(ev)
    assert {"crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"} <= pile(s, 0)
    # the giver hands over the single pi, keeping the lightning (a double pi)
    assert of_type(ev, "steal")[0]["cards"] == ["peony_chaff_1"]


def test_seed_four_of_a_month_gives_a_pi_for_ttadak():
    s = ttadak_position(steal_ttadak=0, steal_four_of_month=1)
    ev = s.apply("play:crane>pine_chaff_1")
    assert of_type(ev, "steal")[0]["reasons"] == ["four_of_month"]


def test_sseul_empties_the_field_and_steals():
    s = rnd(hands=[["crane", "plum_chaff_1"], ["iris_chaff_1", "wisteria_chaff_1"]],
            field=["pine_chaff_1", "cherry_chaff_1"], stock=["curtain", "..."],
            captured=[[], ["peony_chaff_1"]])
    ev = s.apply("play:crane")
    assert "sseul" in types(ev) and s.field == 0
    assert of_type(ev, "steal")[0]["reasons"] == ["sseul"]


def test_jjok_and_sseul_on_an_empty_field_steal_twice_single_pi_first():
    s = rnd(hands=[["crane", "plum_chaff_1"], ["iris_chaff_1", "wisteria_chaff_1"]], field=[],
            stock=["pine_chaff_1", "..."], captured=[[], ["lightning", "peony_chaff_1"]])
    ev = s.apply("play:crane")
    steal = of_type(ev, "steal")[0]
    assert steal["reasons"] == ["jjok", "sseul"] and steal["owed"] == 2
    assert steal["cards"] == ["peony_chaff_1", "lightning"]  # in the order given
    assert pile(s, 1) == set()


def test_a_giver_without_pi_gives_nothing():
    s = rnd(hands=[["crane", "plum_chaff_1"], ["iris_chaff_1", "wisteria_chaff_1"]], field=[],
            stock=["pine_chaff_1", "..."], captured=[[], ["sake_cup", "deer"]])
    ev = s.apply("play:crane")
    assert of_type(ev, "steal")[0]["cards"] == []  # the sake cup is never handed over
    assert pile(s, 1) == {"sake_cup", "deer"}


# -- bombs --------------------------------------------------------------------------------------
def bomb_position(**options):
    return rnd(hands=[["crane", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1"],
                      ["cherry_chaff_1", "iris_chaff_1", "wisteria_chaff_1", "peony_chaff_2"]],
               field=["poetry_ribbon_jan", "iris_chaff_2"], stock=["..."],
               captured=[[], ["peony_chaff_1"]], **options)


def test_bomb_takes_four_steals_and_gives_draw_only_turns():
    s = bomb_position()
    assert "bomb:crane" in legal(s)
    ev = s.apply("bomb:crane")
    assert of_type(ev, "bomb")[0]["cards"] == ["crane", "pine_chaff_1", "pine_chaff_2"]
    assert {"crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "peony_chaff_1"} <= pile(s, 0)
    assert s.bombs == [1, 0] and s.bomb_turns == [2, 0]
    assert len(of_type(ev, "draw")) == 1
    s.apply("play:cherry_chaff_1")
    assert {"draw", "play:plum_chaff_1"} == legal(s)
    ev = s.apply("draw")
    assert types(ev)[:2] == ["bomb_turn", "draw"] and s.bomb_turns == [1, 0]
    assert s.hands[0].bit_count() == 1  # the hand card is kept


def test_bomb_draw_two_turns_two_stock_cards_and_no_draw_turns():
    s = bomb_position(bomb_mode="draw_two")
    ev = s.apply("bomb:crane")
    assert len(of_type(ev, "draw")) == 2 and s.bomb_turns == [0, 0]


def test_bomb_after_shake_option():
    def position(**options):
        s = rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1"],
                       ["cherry_chaff_1", "iris_chaff_1", "wisteria_chaff_1"]],
                field=["peony_chaff_1"], stock=["..."], chongtong="off", **options)
        s.apply("shake:pine_chaff_2")  # four in hand: reveal, play one to the empty month
        s.apply("play:cherry_chaff_1")
        return s

    assert "bomb:crane" in legal(position())
    assert "bomb:crane" not in legal(position(bomb_after_shake=False))


def test_small_bomb_options():
    def position(mode):
        return rnd(hands=[["pine_chaff_1", "pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1"]],
                   field=["crane", "poetry_ribbon_jan"], stock=["..."],
                   captured=[[], ["peony_chaff_1"]], small_bomb=mode)

    assert not any(a.startswith("bomb") for a in legal(position("off")))
    for mode, bombs, steals in (("move", 0, 0), ("steal", 0, 1), ("bomb", 1, 1)):
        s = position(mode)
        ev = s.apply("bomb:pine_chaff_1")
        assert len(pile(s, 0) & {"crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"}) == 4
        assert s.bombs[0] == bombs and s.bomb_turns[0] == 1
        assert len(of_type(ev, "steal")) == steals


# -- shaking ------------------------------------------------------------------------------------
def shake_position(**options):
    return rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "plum_chaff_1"],
                      ["cherry_chaff_1", "iris_chaff_1"]],
               field=["wisteria_chaff_1", "iris_chaff_2"], stock=["..."], **options)


def test_shake_reveals_the_triplet_to_everyone_and_plays_one_card():
    s = shake_position()
    assert {"shake:crane", "shake:poetry_ribbon_jan", "shake:pine_chaff_1"} <= legal(s)
    assert "shake:plum_chaff_1" not in legal(s)
    ev = s.apply("shake:pine_chaff_1")
    assert ev[0] == {"type": "shake", "player": 0, "cards": ["crane", "poetry_ribbon_jan", "pine_chaff_1"],
                     "korean_month": 1, "shakes": 1}
    assert ev[1]["type"] == "play" and ev[1]["card"] == "pine_chaff_1"
    assert s.shakes == [1, 0]
    assert s.observation(1)["revealed"] == [["crane", "poetry_ribbon_jan"], []]
    s.apply("play:cherry_chaff_1")
    assert not any(a.startswith("shake") for a in legal(s))


def test_shake_only_in_the_first_turn_with_the_seed_option():
    s = rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "plum_chaff_1", "cherry_chaff_2"],
                   ["cherry_chaff_1", "iris_chaff_1"]],
            field=["wisteria_chaff_1"], stock=["..."], shake_timing="first_turn")
    s.apply("play:plum_chaff_1")
    s.apply("play:iris_chaff_1")
    assert not any(a.startswith("shake") for a in legal(s))
    s = rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "plum_chaff_1", "cherry_chaff_2"],
                   ["cherry_chaff_1", "iris_chaff_1"]],
            field=["wisteria_chaff_1"], stock=["..."])
    s.apply("play:plum_chaff_1")
    s.apply("play:iris_chaff_1")
    assert "shake:crane" in legal(s)


# -- jokers -------------------------------------------------------------------------------------
def test_joker_from_hand_is_captured_and_replaced():
    s = rnd(hands=[["joker_3", "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["wisteria_chaff_1", "..."], jokers=3)
    assert "joker:joker_3" in legal(s)
    ev = s.apply("joker:joker_3")
    assert ev == [{"type": "joker", "player": 0, "card": "joker_3", "replacement": True}]
    assert s.current_player == 0 and s.phase == PLAY
    assert s.observation(0)["hand"] == ["wisteria_chaff_1", "plum_chaff_1"] or \
        set(s.observation(0)["hand"]) == {"wisteria_chaff_1", "plum_chaff_1"}
    assert s.observation(0)["pi"][0] == 3
    assert s.observation(1)["hand_sizes"] == [2, 1]


def test_joker_turned_from_the_stock_is_captured_and_the_next_card_turned():
    s = rnd(hands=[["plum_chaff_1", "iris_chaff_2"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["joker_1", "joker_2", "susuki_chaff_1", "..."], jokers=2)
    ev = s.apply("play:plum_chaff_1")
    assert [e["card"] for e in of_type(ev, "draw")] == ["joker_1", "joker_2", "susuki_chaff_1"]
    assert {"joker_1", "joker_2"} <= pile(s, 0)


def test_jokers_dealt_to_the_field_go_to_the_dealer():
    for seed in range(300):
        s = new_round(2, Rules(jokers=3), seed=seed, dealer=1)
        moved = of_type(s.start_events, "joker_to_dealer")
        if moved:
            assert moved[0]["player"] == 1
            assert set(moved[0]["cards"]) <= pile(s, 1)
            assert not any(c.startswith("joker") for c in s.observation(0)["field"])
            break
    else:
        pytest.fail("no deal put a joker on the field")


# -- chongtong ----------------------------------------------------------------------------------
FOUR_PINE = ["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"]


def test_chongtong_optional_reveal_wins_the_stop_minimum():
    s = rnd(hands=[[*FOUR_PINE, "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."])
    assert s.phase == CHONGTONG and legal(s) == {"chongtong", "pass"}
    ev = s.apply("chongtong")
    assert of_type(ev, "chongtong")[0]["cards"] == FOUR_PINE
    assert s.outcome["kind"] == "chongtong" and s.result().points == [7, -7]
    assert s.result().next_dealer == 0


def test_chongtong_declined_plays_on():
    s = rnd(hands=[[*FOUR_PINE, "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."])
    s.apply("pass")
    assert s.phase == PLAY and s.current_player == 0
    assert "shake:crane" in legal(s)  # four in hand may still be shaken


def test_chongtong_forced_seed_points_and_nagari_doubling():
    s = rnd(hands=[["cherry_chaff_1"], [*FOUR_PINE, "plum_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."], chongtong="forced", chongtong_points=5, carry={"nagari": 1})
    assert s.is_over
    # 5 points from the loser, doubled by the nagari before: 5 x 2 = 10
    assert s.result().points == [-10, 10] and s.result().winner == 1
    seed = Rules.preset("seed")
    assert (seed.chongtong, seed.chongtong_points) == ("forced", 5)


FOUR_PAULOWNIA = ["phoenix", "paulownia_chaff_yellow", "paulownia_chaff_1", "paulownia_chaff_2"]


@pytest.mark.parametrize("ties, winner", [("dealer_order", 0), ("higher_month", 2), ("nagari", None)])
def test_chongtong_ties_in_three_players(ties, winner):
    s = rnd(hands=[FOUR_PINE, ["cherry_chaff_1"], FOUR_PAULOWNIA], field=["iris_chaff_1"],
            stock=["..."], chongtong="forced", chongtong_ties=ties)
    assert s.is_over and s.result().winner == winner
    if winner is not None:
        # the stop minimum with three players (3) from each of the two others
        assert s.result().points[winner] == 6


def test_everyone_holding_chongtong_is_a_nagari():
    s = rnd(hands=[FOUR_PINE, FOUR_PAULOWNIA], field=["iris_chaff_1"], stock=["..."],
            chongtong="forced", chongtong_ties="dealer_order")
    assert s.outcome["kind"] == "nagari"


def test_chongtong_off_is_an_ordinary_hand():
    s = rnd(hands=[[*FOUR_PINE, "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."], chongtong="off")
    assert s.phase == PLAY


# -- nagari -------------------------------------------------------------------------------------
def test_nagari_when_the_hands_run_out_same_dealer_and_carry():
    s = rnd(hands=[["crane"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["wisteria_chaff_1", "peony_chaff_1"], dealer=1, carry={"nagari": 1})
    s.apply("play:cherry_chaff_1")
    ev = s.apply("play:crane")
    res = s.result()
    assert ev[-1]["type"] == "round_end" and res.reason == "nagari"
    assert res.winner is None and res.points == [0, 0] and res.next_dealer == 1
    assert res.detail["carry"] == {"nagari": 2}


def test_field_four_options():
    for seed in range(2000):
        s = new_round(2, Rules(), seed=seed)
        if of_type(s.start_events, "misdeal"):
            assert not s.is_over and s.observation(0)["field"]
            break
    else:
        pytest.fail("no misdeal found")
    s = new_round(2, Rules(field_four="nagari"), seed=seed)
    assert s.outcome["kind"] == "nagari" and s.outcome["why"] == "field_four"
    s = new_round(2, Rules(field_four="dealer_wins"), seed=seed, dealer=1)
    assert s.outcome["kind"] == "chongtong" and s.outcome["winner"] == 1


# -- go / stop ----------------------------------------------------------------------------------
NINE_PI = ["pine_chaff_1", "pine_chaff_2", "wisteria_chaff_1", "wisteria_chaff_2", "iris_chaff_1",
           "iris_chaff_2", "peony_chaff_1", "peony_chaff_2", "paulownia_chaff_1"]
FIVE_RIBBONS = ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "blue_ribbon_jun",
                "blue_ribbon_sep"]


def go_position(**options):
    return rnd(hands=[["maple_chaff_1", "cherry_chaff_1", "plum_chaff_1"], ["crane", "moon", "rainman"]],
               field=["blue_ribbon_oct", "cherry_chaff_2"],
               stock=["clover_chaff_1", "clover_chaff_2", "susuki_chaff_2", "chrysanthemum_chaff_1",
                      "chrysanthemum_chaff_2", "lightning"],
               captured=[FIVE_RIBBONS + NINE_PI, []], **options)


def test_go_then_improve_then_stop_settles():
    s = go_position()
    # takes the last blue ribbon: hongdan 3 + cheongdan 3 + tti (6 ribbons) 2 + pi (10) 1 = 9
    ev = s.apply("play:maple_chaff_1")
    assert of_type(ev, "score")[0]["points"] == 9
    assert s.phase == DECIDE and legal(s) == {"go", "stop"}
    s.apply("go")
    assert s.goes == [1, 0] and s.claimed == [9, 0] and s.current_player == 1
    s.apply("play:crane")  # lone; the stock clover_chaff_2 takes clover_chaff_1
    ev = s.apply("play:cherry_chaff_1")  # 12 pi: pi 3, total 11 > 9: a new choice
    assert s.phase == DECIDE
    s.apply("stop")
    res = s.result()
    # base 11 + 1 go = 12; the loser holds 2 pi: pi-bak x2 -> 24 (he holds the crane, and the
    # winner has no bright yaku anyway, so no gwang-bak)
    assert res.detail["base"] == 11 and res.detail["score"] == 12
    assert res.detail["payments"][0]["penalties"] == [["pibak", 2]]
    assert res.points == [24, -24] and res.winner == 0 and res.next_dealer == 0


def test_no_new_choice_without_improvement():
    s = go_position()
    s.apply("play:maple_chaff_1")
    s.apply("go")
    s.apply("play:crane")
    s.apply("play:plum_chaff_1")  # takes nothing new: still 9
    assert s.phase == PLAY and s.current_player == 1


def test_losing_after_go_is_go_bak_in_two_players():
    s = rnd(hands=[["maple_chaff_1", "cherry_chaff_1", "plum_chaff_1"],
                   ["geese", "cherry_chaff_2", "plum_chaff_2"]],
            field=["blue_ribbon_oct", "susuki_chaff_1"],
            stock=["clover_chaff_1", "chrysanthemum_chaff_1", "clover_chaff_2", "maple_chaff_2"],
            captured=[FIVE_RIBBONS + NINE_PI, ["crane", "curtain", "phoenix", "bush_warbler", "cuckoo"]])
    s.apply("play:maple_chaff_1")
    s.apply("go")  # seat 0 goes with 9
    s.apply("play:geese")  # seat 1: samgwang 3 + godori 5 = 8
    assert s.phase == DECIDE and s.current_player == 1
    s.apply("stop")
    pay = s.result().detail["payments"][0]
    # 8 points; seat 0 has no bright (gwang-bak x2) and called go (go-bak x2): 8 x 2 x 2 = 32
    assert pay["penalties"] == [["gwangbak", 2], ["gobak", 2]]
    assert s.result().points == [-32, 32]


def test_forced_stop_when_no_turn_is_left():
    s = rnd(hands=[["maple_chaff_1"], ["crane"]], field=["blue_ribbon_oct"], stock=["..."],
            captured=[FIVE_RIBBONS, []])
    ev = s.apply("play:maple_chaff_1")
    assert {"type": "stop", "player": 0, "forced": True} in ev
    assert s.is_over and s.result().winner == 0


def test_stop_minimum_blocks_small_scores():
    s = rnd(hands=[["maple_chaff_1", "plum_chaff_1"], ["crane", "moon"]], field=["blue_ribbon_oct"],
            stock=["..."], captured=[["blue_ribbon_jun", "blue_ribbon_sep"], []])
    s.apply("play:maple_chaff_1")  # cheongdan 3 < 7
    assert s.phase == PLAY and s.current_player == 1
    s = rnd(hands=[["maple_chaff_1", "plum_chaff_1"], ["crane", "moon"]], field=["blue_ribbon_oct"],
            stock=["..."], captured=[["blue_ribbon_jun", "blue_ribbon_sep"], []], stop_minimum_2p=3)
    s.apply("play:maple_chaff_1")
    assert s.phase == DECIDE


# -- the dual card's reading --------------------------------------------------------------------
def reading_position(**options):
    # The loser (seat 1) holds the sake cup and 6 single pi: read as an animal he has 6 pi and is
    # pi-bak, read as a double pi he has 8 and is not.
    return rnd(hands=[["maple_chaff_1", "plum_chaff_1"], ["crane", "moon"]],
               field=["maple_chaff_2"], stock=["..."],
               captured=[NINE_PI + ["lightning", "blue_ribbon_jun"],
                         ["sake_cup", "cherry_chaff_1", "cherry_chaff_2", "chrysanthemum_chaff_1",
                          "chrysanthemum_chaff_2", "clover_chaff_1", "clover_chaff_2"]],
               stop_minimum_2p=3, **options)


def test_the_loser_declares_the_reading_that_avoids_pi_bak():
    s = reading_position()
    s.apply("play:maple_chaff_1")  # 9 + 2 + 2 = 13 pi: 4 points
    s.apply("stop")
    assert s.phase == READING and s.current_player == 1
    assert legal(s) == {"sake_animal", "sake_pi"}
    options = s.observation(1)["reading_options"]
    # score 4; read as an animal: 6 pi -> pi-bak x2 = 8; as pi: 8 pi -> 4
    assert options["animal"]["points"] == [8, -8] and options["pi"]["points"] == [4, -4]
    with pytest.raises(IllegalAction):
        s.apply("go")
    ev = s.apply("sake_pi")
    assert ev[0] == {"type": "reading", "player": 1, "reading": "pi"}
    assert s.result().points == [4, -4]
    assert s.result().detail["payments"][0]["reading"] == "pi"


def test_auto_reading_picks_the_best_for_the_holder():
    s = reading_position(sake_cup_reading="auto")
    s.apply("play:maple_chaff_1")
    s.apply("stop")
    assert s.is_over and s.result().points == [4, -4]


def test_no_reading_choice_when_it_changes_nothing():
    s = reading_position(pibak="off")
    s.apply("play:maple_chaff_1")
    s.apply("stop")
    assert s.is_over


# -- misc -----------------------------------------------------------------------------------------
def test_turn_order_in_three_players_starts_with_the_dealer():
    s = rnd(hands=[["crane"], ["cherry_chaff_1"], ["iris_chaff_1"]], field=["wisteria_chaff_1"],
            stock=["..."], dealer=2)
    assert s.current_player == 2
    s.apply("play:iris_chaff_1")
    assert s.current_player == 0
    s.apply("play:crane")
    assert s.current_player == 1


def test_choose_between_two_field_cards_for_the_stock_card():
    s = rnd(hands=[["crane", "plum_chaff_1"], ["cherry_chaff_1"]],
            field=["iris_chaff_1", "bridge", "wisteria_chaff_1"], stock=["iris_chaff_2", "..."])
    ev = s.apply("play:crane")
    assert ev[-1]["choose"] == ["bridge", "iris_chaff_1"]
    assert s.phase == "choose_draw" and legal(s) == {"choose:iris_chaff_2>bridge", "choose:iris_chaff_2>iris_chaff_1"}
    s.apply("choose:iris_chaff_2>bridge")
    assert pile(s, 0) == {"iris_chaff_2", "bridge"} and s.current_player == 1


def test_mission_month_is_drawn_and_announced():
    s = new_round(2, Rules(mission="month"), seed=3)
    ev = of_type(s.start_events, "deal")[0]
    assert 1 <= ev["mission_month"] <= 12
    assert s.observation(0)["mission_month"] == ev["mission_month"]
