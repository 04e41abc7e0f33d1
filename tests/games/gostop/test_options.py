"""Every Go-Stop option: documented, validated, serialisable, and changing what it says; the
presets; the deal; the match (dealer rotation, nagari carried to the next round)."""

import dataclasses
import pathlib

import pytest

from bot.games import game_module
from bot.games.base import InvalidRules
from bot.games.capture import deal_from
from bot.games.gostop import (
    OPTIONS,
    Rules,
    draw_for_dealer,
    match_from_dict,
    new_match,
    new_round,
)
from bot.games.gostop.scoring import to_mask
from bot.games.rng import Rng
from tests.games.gostop.helpers import legal, of_type, pile, rnd


def test_every_field_is_documented_with_a_source():
    fields = {f.name for f in dataclasses.fields(Rules)} - {"preset_name"}
    assert fields == set(OPTIONS)
    for name, (allowed, source, meaning) in OPTIONS.items():
        assert source and meaning
        default = getattr(Rules(), name)
        if allowed is not None:
            assert default == allowed[0], f"{name}: the default is listed first"
        assert name in Rules.describe(name)


def test_every_option_is_exercised_by_some_test():
    here = pathlib.Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py"))
    missing = [name for name in OPTIONS if name not in text]
    assert not missing, f"options without a test: {missing}"


def test_presets_and_validation():
    assert Rules() == Rules.preset("korean")
    seed = Rules.preset("seed")
    assert seed.preset_name == "seed" and seed.stop_minimum(2) == 3
    assert Rules.from_dict(seed.to_dict()) == seed
    with pytest.raises(InvalidRules):
        Rules.preset("nope")
    with pytest.raises(InvalidRules):
        Rules(go_scheme="fast")
    with pytest.raises(InvalidRules):
        Rules(stop_minimum_2p=0)
    with pytest.raises(InvalidRules):
        Rules(bomb_turns=True)
    with pytest.raises(InvalidRules):
        Rules(rounds=0, target_score=0)
    with pytest.raises(InvalidRules):
        Rules.from_dict({"no_such_option": 1})


def test_the_game_is_registered():
    module = game_module("gostop")
    assert module.PLAYERS == (2, 3) and module.Rules is Rules


# -- the deal -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n, option, value, hand, field, stock", [
    (2, "deal_2p", "10+8", 10, 8, 20),
    (2, "deal_2p", "8+10", 8, 10, 22),
    (2, "deal_2p", "10+6", 10, 6, 22),
    (3, "deal_3p", "7+6", 7, 6, 21),
    (3, "deal_3p", "7+8", 7, 8, 19),
])
def test_deal_sizes(n, option, value, hand, field, stock):
    for seed in range(20):
        s = new_round(n, Rules(**{option: value}, chongtong="off"), seed=seed)
        if s.is_over:
            continue
        assert s.observation(0)["hand_sizes"] == [hand] * n
        assert len(s.observation(0)["field"]) == field and len(s.stock) == stock


@pytest.mark.parametrize("n, deal_option", [(2, {"deal_2p": "10+8"}), (2, {"deal_2p": "8+10"}),
                                             (2, {"deal_2p": "10+6"}), (3, {"deal_3p": "7+6"}),
                                             (3, {"deal_3p": "7+8"})])
def test_the_deal_deals_the_shuffled_deck_field_first_the_dealer_last(n, deal_option):
    # The round reads its piles from the deck by positions worked out once per layout; held here
    # to the shared dealing itself, packet by packet, for every dealer, shuffle and joker count.
    for jokers in (0, 3):
        rules = Rules(**deal_option, jokers=jokers, chongtong="off", field_four="nagari")
        hand, field = rules.deal_sizes(n)
        for dealer in range(n):
            for shuffle in (1, 2):
                for seed in range(6):
                    s = new_round(n, rules, seed=seed, dealer=dealer, shuffle=shuffle)
                    if of_type(s.start_events, "joker_to_dealer"):
                        continue  # the field's jokers were replaced from the stock
                    deck = list(range(48 + jokers))
                    Rng(seed).shuffle(deck, shuffle)
                    seats = [(dealer + k) % n for k in range(1, n + 1)]
                    piles, stock = deal_from(deck, [("field", field)] + [(q, hand) for q in seats],
                                             4 if n == 2 else 3)
                    assert s.field == to_mask(piles["field"]) and s.stock == stock
                    assert s.hands == [to_mask(piles[q]) for q in range(n)]


def test_jokers_enlarge_the_stock():
    s = new_round(2, Rules(jokers=3, chongtong="off"), seed=5)
    total = sum(h.bit_count() for h in s.hands) + s.field.bit_count() + len(s.stock)
    total += sum(c.bit_count() for c in s.captured)
    assert total == 51


def test_first_dealer_night_and_day():
    for seed in range(50):
        dealer, draws = draw_for_dealer(seed, 2, "night")
        if len(draws) == 1:
            break
    from bot.cards import card
    months = {int(s): card(c).korean_month for s, c in draws[0].items()}
    if months[0] != months[1]:
        assert dealer == min(months, key=months.get)
        assert draw_for_dealer(seed, 2, "day")[0] == max(months, key=months.get)
    for seed in range(30):
        dealer, draws = draw_for_dealer(seed, 3)
        assert 0 <= dealer < 3 and all(len(d) >= 1 for d in draws)
    assert new_match(3, Rules(first_dealer="day"), seed=4).dealer == draw_for_dealer(4, 3, "day")[0]


def test_deal_is_fixed_by_the_seed():
    a, b = new_round(3, Rules(), seed=99), new_round(3, Rules(), seed=99)
    assert a.to_dict() == b.to_dict()
    assert new_round(3, Rules(), seed=98).to_dict() != a.to_dict()


# -- options not covered by the event and settlement tests --------------------------------------------
def test_stop_minimum_3p():
    def position(**options):
        return rnd(hands=[["maple_chaff_1", "plum_chaff_1"], ["crane"], ["moon"]],
                   field=["blue_ribbon_oct"], stock=["..."],
                   captured=[["blue_ribbon_jun", "blue_ribbon_sep"], [], []], **options)

    s = position()
    s.apply("play:maple_chaff_1")  # cheongdan 3 >= 3 with three players
    assert s.phase == "decide"
    s = position(stop_minimum_3p=4)
    s.apply("play:maple_chaff_1")
    assert s.phase == "play"


def test_pibak_max_options():
    from bot.games.gostop import settle
    from bot.games.gostop.scoring import to_mask
    winner = to_mask(["pine_chaff_1", "pine_chaff_2", "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1",
                      "cherry_chaff_2", "wisteria_chaff_1", "wisteria_chaff_2", "iris_chaff_1",
                      "iris_chaff_2"])
    loser = to_mask(["peony_chaff_1", "peony_chaff_2", "clover_chaff_1", "clover_chaff_2", "lightning"])
    # 6 pi: pi-bak with two players (<= 7), not with pibak_max_2p = 5
    assert settle(Rules(), 0, [winner, loser])["points"] == [2, -2]
    assert settle(Rules(pibak_max_2p=5), 0, [winner, loser])["points"] == [1, -1]
    assert settle(Rules(pibak_max_3p=6), 0, [winner, loser, loser & 0])["points"][1] == -2


def test_inoshikacho_points_option():
    from bot.games.gostop import score_yaku
    assert [y.slug for y in score_yaku(["boar", "deer", "butterflies"], Rules(inoshikacho_points=5))] == [
        "inoshikacho"]


@pytest.mark.parametrize("option, value, owed", [
    ("steal_bomb", 0, None), ("steal_bomb", 2, 2), ("steal_sseul", 0, 1), ("steal_jjok", 2, 3)])
def test_steal_amount_options(option, value, owed):
    if option == "steal_bomb":
        s = rnd(hands=[["crane", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1"]],
                field=["poetry_ribbon_jan", "iris_chaff_2"], stock=["..."],
                captured=[[], ["peony_chaff_1", "peony_chaff_2"]], **{option: value})
        ev = s.apply("bomb:crane")
    else:  # jjok and sseul on an empty field: 1 + 1 by default
        s = rnd(hands=[["crane", "plum_chaff_1"], ["cherry_chaff_1"]], field=[],
                stock=["pine_chaff_1", "..."],
                captured=[[], ["peony_chaff_1", "peony_chaff_2", "iris_chaff_1"]], **{option: value})
        ev = s.apply("play:crane")
    steals = of_type(ev, "steal")
    assert (steals[0]["owed"] if steals else None) == owed


def test_bomb_turns_and_draw_three():
    hands = [["crane", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1", "iris_chaff_1"]]
    s = rnd(hands=hands, field=["poetry_ribbon_jan"], stock=["..."], bomb_turns=1)
    s.apply("bomb:crane")
    assert s.bomb_turns == [1, 0]
    s = rnd(hands=hands, field=["poetry_ribbon_jan"], stock=["..."], bomb_mode="draw_three")
    ev = s.apply("bomb:crane")
    assert len(of_type(ev, "draw")) == 3 and s.bomb_turns == [0, 0]


# -- the match ----------------------------------------------------------------------------------
def play_until(match, rng, stop):
    while not match.is_over and not stop(match):
        legal_now = match.legal_actions()
        match.apply(legal_now[rng.below(len(legal_now))])


def first_nagari_seed(rules):
    for seed in range(400):
        match = new_match(3, rules, seed=seed)
        rng = Rng(seed)
        play_until(match, rng, lambda mt: mt.round_number > 1)
        if match.history and match.history[0]["winner"] is None:
            return seed
    pytest.fail("no nagari found")


def test_nagari_is_carried_to_the_next_round_with_the_same_dealer():
    rules = Rules(rounds=5)
    seed = first_nagari_seed(rules)
    match = new_match(3, rules, seed=seed)
    first_dealer = match.dealer
    play_until(match, Rng(seed), lambda mt: mt.round_number > 1)
    assert match.carry == {"nagari": 1} and match.dealer == first_dealer
    assert match.round.nagari == 1 and match.observation(0)["nagari_multiplier"] == 2
    play_until(match, Rng(seed + 1), lambda mt: mt.round_number > 2)
    last = match.history[-1]
    if last["winner"] is not None and last["reason"] == "stop":
        assert ["nagari", 2] in last["detail"]["multipliers"]
        assert match.dealer == last["winner"] and match.carry == {}


def test_nagari_limit_ends_the_match():
    rules = Rules(rounds=5, nagari_limit=1)
    seed = first_nagari_seed(rules)
    match = new_match(3, rules, seed=seed)
    play_until(match, Rng(seed), lambda mt: mt.round_number > 1)
    assert match.is_over and len(match.history) == 1 and match.legal_actions() == []


def test_match_rounds_and_target_score():
    match = new_match(2, Rules(rounds=2), seed=1)
    play_until(match, Rng(1), lambda mt: False)
    assert len(match.history) == 2 and sum(match.scores) == 0
    match = new_match(2, Rules(rounds=0, target_score=1), seed=1)
    play_until(match, Rng(1), lambda mt: False)
    assert max(match.scores) >= 1
    restored = match_from_dict(match.to_dict())
    assert restored.scores == match.scores and restored.is_over


def test_seed_preset_plays_through():
    for n in (2, 3):
        match = new_match(n, Rules.preset("seed", rounds=3), seed=n)
        play_until(match, Rng(n), lambda mt: False)
        assert match.is_over and sum(match.scores) == 0


def test_helpers_are_consistent():
    s = rnd(hands=[["crane"], ["cherry_chaff_1"]], field=["iris_chaff_1"], stock=["..."])
    assert legal(s) == {"play:crane"} and pile(s, 0) == set()


# -- the FW-GS variations of docs/rules/gostop.md §5.9 -------------------------------------------
def test_joker_power_steal():
    s = rnd(hands=[["joker_1", "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."], captured=[[], ["peony_chaff_1"]], jokers=1, joker_power="steal")
    ev = s.apply("joker:joker_1")
    assert of_type(ev, "steal")[0]["cards"] == ["peony_chaff_1"]


def test_joker_power_double_and_immunity():
    from bot.games.gostop import settle
    from bot.games.gostop.scoring import to_mask
    winner = to_mask(["crane", "curtain", "moon", "joker_1"])
    loser = to_mask(["deer", "joker_2"])
    # samgwang 3; the loser has no bright: gwang-bak x2 = 6
    assert settle(Rules(jokers=2), 0, [winner, loser])["points"] == [6, -6]
    # the winner's joker doubles: 3 x2 x2 = 12
    assert settle(Rules(jokers=2, joker_power="double"), 0, [winner, loser])["points"] == [12, -12]
    # the loser's joker protects from gwang-bak: 3
    assert settle(Rules(jokers=2, joker_power="immunity"), 0, [winner, loser])["points"] == [3, -3]


def test_steal_three_triplets():
    s = rnd(hands=[["pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1"]],
            field=["crane", "poetry_ribbon_jan", "pine_chaff_1"], stock=["..."],
            captured=[[], ["peony_chaff_1", "peony_chaff_2", "iris_chaff_1"]],
            steal_three_triplets=2)
    s.stack_takes[0] = 2
    ev = s.apply("play:pine_chaff_2")
    assert of_type(ev, "steal")[0]["cards"] == ["iris_chaff_1", "peony_chaff_1"]


def test_steal_first_turn_kinds():
    def first_turn(**options):
        s = rnd(hands=[["crane", "cherry_chaff_1"], ["iris_chaff_1"]],
                field=["poetry_ribbon_jan", "plum_chaff_1", "wisteria_chaff_1"],
                stock=["bush_warbler", "..."], captured=[[], ["peony_chaff_1"]], **options)
        return of_type(s.apply("play:crane"), "steal")

    assert first_turn() == []
    assert first_turn(steal_first_turn_kinds=1)[0]["reasons"] == ["first_turn_kinds"]


def test_boar_pot_paid_even_on_a_nagari():
    s = rnd(hands=[["crane"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["wisteria_chaff_1", "peony_chaff_1"], captured=[["boar"], []], boar_pot=2)
    s.apply("play:crane")
    s.apply("play:cherry_chaff_1")
    res = s.result()
    assert res.reason == "nagari" and res.points == [2, -2]
    assert res.detail["boar_pot"] == {"seat": 0, "each": 2}
