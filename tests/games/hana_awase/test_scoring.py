"""Hana-Awase yaku one by one for both point tables, exclusivity, and every scoring option
(docs/rules/hana-awase.md §6-§8; seed 004's leaflet and FW-HA)."""

from __future__ import annotations

import random

import pytest

from bot.cards import ALL_MASK, CHAFF, MONTH_MASKS, RIBBONS, card, ids_in, mask
from bot.games.base import InvalidRules
from bot.games.hana_awase import (
    OPTIONS,
    POINT_TABLES,
    YAKU_SLUGS,
    Rules,
    card_points,
    score_yaku,
    settle,
    table_yaku,
)
from bot.games.hana_awase.scoring import table_totals

FW = Rules.preset("fudawiki")
LEAFLET = Rules()


def slugs(cards, rules=FW) -> dict[str, int]:
    return {y.slug: y.points for y in score_yaku(cards, rules)}


# (slug, a pile that holds exactly that yaku, fudawiki points, leaflet points or None)
CASES = [
    ("goko", ["crane", "curtain", "moon", "rainman", "phoenix"], 100, 75),
    ("shiko", ["crane", "curtain", "moon", "phoenix"], 60, 50),
    ("omote_sugawara", ["crane", "bush_warbler", "curtain"], 30, None),
    ("matsu_kiri_bozu", ["crane", "phoenix", "moon"], 20, 35),
    # seven ribbons always hold a colour trio: here the poetry ribbons (checked apart below)
    ("nanatan", ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "plain_ribbon_apr",
                 "plain_ribbon_may", "blue_ribbon_jun", "blue_ribbon_sep", "plain_ribbon_willow"], 40, 50),
    ("rokutan", ["poetry_ribbon_jan", "poetry_ribbon_feb", "plain_ribbon_apr", "plain_ribbon_may",
                 "blue_ribbon_jun", "blue_ribbon_sep", "plain_ribbon_willow"], 30, None),
    ("akatan", ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"], 40, 35),
    ("aotan", ["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"], 40, 35),
    ("kusatan", ["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul"], 20, None),
    ("inoshikacho", ["boar", "deer", "butterflies"], 20, 35),
    ("nomi", ["sake_cup", "curtain", "moon"], 40, None),
    ("hanami", ["sake_cup", "curtain"], 20, 30),
    ("tsukimi", ["sake_cup", "moon"], 20, 20),
    ("yanagishima", ids_in(MONTH_MASKS[11]), 10, None),
    ("fujishima", ids_in(MONTH_MASKS[4]), 10, None),
    ("kirishima", ids_in(MONTH_MASKS[12]), 10, None),
]


@pytest.mark.parametrize("slug,pile,fw,leaflet", CASES, ids=[c[0] for c in CASES])
def test_each_yaku_in_both_point_tables(slug, pile, fw, leaflet):
    also_fw, also_leaflet = ALSO.get(slug, ({}, {}))
    assert slugs(pile) == {slug: fw, **also_fw}
    assert slugs(pile, LEAFLET) == ({} if leaflet is None else {slug: leaflet}) | also_leaflet
    short = slugs(pile[1:])
    assert slug not in short  # one card short (the rows, the ribbons and the sets alike)


# yaku that the piles above necessarily hold besides the one tested: (fudawiki, leaflet)
ALSO = {
    "nanatan": ({"akatan": 40}, {"akatan": 35}),
    "nomi": ({}, {"hanami": 30}),  # the leaflet has no nomi: its best viewing counts
}


def test_every_slug_is_tested_and_the_tables_match_the_sources():
    assert {c[0] for c in CASES} == set(YAKU_SLUGS)
    assert POINT_TABLES["leaflet"] == {c[0]: c[3] for c in CASES if c[3] is not None}
    assert len(POINT_TABLES["fudawiki"]) == 16 and len(POINT_TABLES["leaflet"]) == 9


def test_shiko_needs_four_brights_without_the_rain_man():
    assert slugs(["crane", "curtain", "moon", "rainman"]) == {}


def test_the_willow_ribbon_never_counts_toward_six_or_seven_ribbons():
    six_with_willow = ["poetry_ribbon_jan", "poetry_ribbon_feb", "plain_ribbon_apr", "plain_ribbon_may",
                       "blue_ribbon_jun", "plain_ribbon_willow"]
    assert slugs(six_with_willow) == {}


def test_bright_yaku_are_exclusive_and_the_best_counts():
    all_brights = ["crane", "curtain", "moon", "rainman", "phoenix", "bush_warbler"]
    assert slugs(all_brights) == {"goko": 100}
    assert slugs(all_brights, LEAFLET) == {"goko": 75}
    assert slugs(["crane", "phoenix", "moon", "bush_warbler", "curtain"]) == {"shiko": 60}


def test_seven_and_six_ribbons_are_exclusive_but_stack_with_colour_sets():
    ribbons = ids_in(RIBBONS)
    assert slugs(ribbons) == {"nanatan": 40, "akatan": 40, "aotan": 40, "kusatan": 20}
    assert slugs(ribbons, LEAFLET) == {"nanatan": 50, "akatan": 35, "aotan": 35}


def test_viewing_yaku_are_exclusive():
    assert slugs(["sake_cup", "curtain", "moon"]) == {"nomi": 40}
    assert slugs(["sake_cup", "curtain", "moon"], LEAFLET) == {"hanami": 30}


def test_without_exclusivity_every_yaku_adds():
    rules = FW.replace(exclusive_yaku=False)
    assert slugs(["sake_cup", "curtain", "moon"], rules) == {"nomi": 40, "hanami": 20, "tsukimi": 20}
    brights = ["crane", "curtain", "moon", "rainman", "phoenix", "bush_warbler"]
    assert slugs(brights, rules) == {"goko": 100, "shiko": 60, "omote_sugawara": 30, "matsu_kiri_bozu": 20}


def test_rain_man_voids_viewings_by_option():
    rules = FW.replace(rain_voids_viewings=True)
    assert slugs(["sake_cup", "moon", "rainman"], rules) == {}
    assert slugs(["sake_cup", "moon", "rainman"]) == {"tsukimi": 20}
    assert slugs(["sake_cup", "moon"], rules) == {"tsukimi": 20}


def test_score_yaku_accepts_cards_indices_and_bit_sets():
    ids = ["boar", "deer", "butterflies"]
    assert score_yaku([card(c) for c in ids]) == score_yaku(ids) == score_yaku(mask(ids))
    assert score_yaku(mask(ids), FW)[0].cards == ("butterflies", "boar", "deer")


def test_card_values_and_chaff_worth_zero():
    assert card_points(ALL_MASK) == 264
    assert card_points(ALL_MASK, FW.replace(chaff_value=0)) == 240
    assert card_points(mask(["crane", "boar", "plain_ribbon_jul", "clover_chaff_1"])) == 36


def thirds() -> list[int]:
    """Three piles of the whole deck: seat 0 akatan (40), seat 1 nothing, seat 2 the rest."""
    a = mask(["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "pine_chaff_1"])
    b = mask(["boar", "deer", "iris_chaff_1"])
    return [a, b, ALL_MASK & ~a & ~b]


def test_zero_sum_settlement_against_the_par():
    piles = thirds()
    detail = settle(piles, FW, [0, 1, 2])
    assert detail["par"] == 88
    assert detail["card_points"] == [16, 21, 227]
    y2 = sum(p for _, p, _ in detail["yaku_by_seat"]["2"])
    assert detail["points"] == [16 - 88 + 40 * 2 - y2, 21 - 88 - 40 - y2, 227 - 88 + y2 * 2 - 40]
    assert sum(detail["points"]) == 0


def test_additive_settlement_of_the_leaflet():
    piles = thirds()
    detail = settle(piles, LEAFLET, [0, 1, 2])
    y2 = sum(p for _, p, _ in detail["yaku_by_seat"]["2"])
    assert detail["points"] == [16 + 35, 21, 227 + y2]
    assert detail["par"] == 0


def test_par_is_the_deck_value_over_the_players():
    for n, par in ((2, 132), (3, 88), (4, 66)):
        piles = [ALL_MASK] + [0] * (n - 1)
        assert settle(piles, FW, list(range(n)))["par"] == par
    for n, par in ((2, 120), (3, 80), (4, 60)):
        piles = [ALL_MASK] + [0] * (n - 1)
        assert settle(piles, FW.replace(chaff_value=0), list(range(n)))["par"] == par


def test_willow_row_cancels_all_yaku_or_all_but_its_owners():
    a = MONTH_MASKS[11] | mask(["boar", "deer", "butterflies"])
    b = mask(["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"])
    c = ALL_MASK & ~a & ~b & CHAFF
    normal = settle([a, b, c], FW, [0, 1, 2])["yaku_by_seat"]
    assert [len(normal[s]) for s in "012"] == [2, 1, 0]
    cancelled = settle([a, b, c], FW.replace(willow_row="cancels_all"), [0, 1, 2])["yaku_by_seat"]
    assert cancelled == {"0": [], "1": [], "2": []}
    owner = settle([a, b, c], FW.replace(willow_row="owner_only"), [0, 1, 2])["yaku_by_seat"]
    assert [y[0] for y in owner["0"]] == ["inoshikacho", "yanagishima"] and owner["1"] == []


def test_fuke_voids_the_round_when_someone_has_20_points_or_fewer():
    piles = thirds()  # seat 0 has 16 card points
    detail = settle(piles, FW.replace(fuke=True), [0, 1, 2])
    assert detail["void"] and detail["points"] == [0, 0, 0]
    assert not settle(piles, FW, [0, 1, 2])["void"]


def test_compensation_for_few_captured_cards_with_three_players():
    piles = thirds()  # 4, 3 and 41 cards
    plain = settle(piles, FW, [0, 1, 2])["points"]
    detail = settle(piles, FW.replace(compensation=True), [2, 0, 1])
    # dealer 2, second 0 (4 cards <= 8), third 1 (3 cards <= 10)
    assert detail["compensated"] == [0, 1]
    assert detail["points"] == [plain[0] + 60 - 30, plain[1] + 60 - 30, plain[2] - 60]
    assert settle([piles[0], piles[2]], FW.replace(compensation=True), [0, 1])["compensated"] == []


def test_teyaku_payments_from_each_other_player():
    piles = thirds()
    plain = settle(piles, FW, [0, 1, 2])["points"]
    paid = settle(piles, FW, [0, 1, 2], teyaku=[0, 30, 0])["points"]
    assert paid == [plain[0] - 30, plain[1] + 60, plain[2] - 30]


def test_presets_and_options():
    assert (LEAFLET.point_table, LEAFLET.scoring) == ("leaflet", "additive")
    assert (FW.point_table, FW.scoring) == ("fudawiki", "zero_sum")
    for name, (allowed, source, meaning) in OPTIONS.items():
        assert source and meaning and name in Rules.describe(name)
        for value in allowed:
            if name == "play_out_stock" and value is False:
                assert Rules(play_out_stock=False).play_out_stock is False
                continue
            assert getattr(FW.replace(**{name: value}), name) == value
    with pytest.raises(InvalidRules):
        FW.replace(play_out_stock=False)
    with pytest.raises(InvalidRules):
        Rules(chaff_value=2)
    with pytest.raises(InvalidRules):
        Rules.preset("nintendo")
    assert Rules.from_dict(FW.to_dict()) == FW


@pytest.mark.parametrize("rules", [LEAFLET, FW, FW.replace(willow_row="cancels_all"),
                                   FW.replace(willow_row="owner_only", rain_voids_viewings=True,
                                              exclusive_yaku=False)])
def test_table_totals_are_the_points_of_table_yaku(rules):
    """The AI's fast totals agree with the full yaku on random tables of two or three piles."""
    rng = random.Random(7)
    scored = 0
    for _ in range(400):
        order = list(range(48))
        rng.shuffle(order)
        size = rng.choice((2, 3))
        cut = sorted(rng.sample(range(49), size))
        piles = [mask(order[a:b]) for a, b in zip(cut, cut[1:] + [48], strict=True)]
        expected = [sum(y.points for y in ys) for ys in table_yaku(piles, rules)]
        assert table_totals(piles, rules) == expected
        scored += any(expected)
    assert scored > 100  # the random tables do score yaku
