"""Mushi yaku one by one, every scoring option, and the FW-MU worked example
(docs/rules/mushi.md §6-§8)."""

from __future__ import annotations

import pytest

from bot.cards import DECK, MONTH_MASKS, card, ids_in, mask
from bot.games.base import InvalidRules
from bot.games.mushi import MUSHI_DECK, OPTIONS, Rules, card_points, score_yaku, settle


def slugs(cards, rules=None) -> dict[str, int]:
    return {y.slug: y.points for y in score_yaku(cards, rules)}


def test_the_deck_has_forty_cards_worth_230_without_peony_and_bush_clover():
    assert len(MUSHI_DECK) == 40
    assert {DECK[i].month for i in MUSHI_DECK} == set(range(1, 13)) - {6, 7}
    assert card_points(mask(MUSHI_DECK)) == 230


def test_card_values_are_20_10_5_1():
    assert card_points(mask(["crane", "bush_warbler", "poetry_ribbon_jan", "pine_chaff_1"])) == 36


def test_goko_is_the_five_brights_for_30():
    brights = ["crane", "curtain", "moon", "rainman", "phoenix"]
    assert slugs(brights) == {"goko": 30}
    assert slugs(brights[:4]) == {}


def test_sanko_mushi_is_crane_warbler_curtain_for_25():
    assert slugs(["crane", "bush_warbler", "curtain"]) == {"sanko_mushi": 25}
    assert slugs(["crane", "moon", "curtain"]) == {}


def test_fujishima_and_kirishima_are_full_rows_for_10():
    assert slugs(ids_in(MONTH_MASKS[4])) == {"fujishima": 10}
    assert slugs(ids_in(MONTH_MASKS[12])) == {"kirishima": 10}
    assert slugs(ids_in(MONTH_MASKS[12])[:3]) == {}
    assert slugs(ids_in(MONTH_MASKS[11])) == {}


def test_every_yaku_stacks():
    pile = ["crane", "curtain", "moon", "rainman", "bush_warbler", *ids_in(MONTH_MASKS[4] | MONTH_MASKS[12])]
    assert slugs(pile) == {"goko": 30, "sanko_mushi": 25, "fujishima": 10, "kirishima": 10}
    assert sum(slugs(pile).values()) == 75


def test_score_yaku_accepts_cards_indices_and_a_bit_set():
    ids = ["crane", "bush_warbler", "curtain"]
    expected = score_yaku(ids)
    assert score_yaku([card(c) for c in ids]) == expected
    assert score_yaku([card(c).index for c in ids]) == expected
    assert score_yaku(mask(ids)) == expected
    assert expected[0].cards == ("crane", "bush_warbler", "curtain")


def test_three_yaku_version_drops_five_brights():
    rules = Rules(yaku_set="three")
    pile = ["crane", "curtain", "moon", "rainman", "phoenix", "bush_warbler"]
    assert slugs(pile, rules) == {"sanko_mushi": 25}
    assert slugs(pile) == {"goko": 30, "sanko_mushi": 25}


def worked_example_piles() -> tuple[int, int]:
    """FW-MU: A has 2 brights, 3 animals, 3 ribbons, 10 chaff incl. three brights; B the rest
    with the wisteria row (A holds a paulownia, so B has no kirishima)."""
    a = mask(["crane", "curtain", "bush_warbler", "bridge", "geese",
              "poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar",
              "pine_chaff_1", "pine_chaff_2", "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1",
              "cherry_chaff_2", "iris_chaff_1", "iris_chaff_2", "susuki_chaff_1", "paulownia_chaff_1"])
    b = mask(MUSHI_DECK) & ~a
    return a, b


def test_fw_mu_worked_example_a_minus_5_b_plus_5():
    a, b = worked_example_piles()
    assert card_points(a) == 95
    assert slugs(a) == {"sanko_mushi": 25}
    assert slugs(b) == {"fujishima": 10}
    scores, points, _ = settle([a, b], Rules())
    assert points == [95, 135]
    assert scores == [-5, 5]


def test_par_option_of_seed_000_subtracts_15():
    a, b = worked_example_piles()
    scores, _, _ = settle([a, b], Rules.preset("seed"))
    assert scores == [95 - 15 + 25 - 10, 135 - 15 + 10 - 25]


def test_zero_sum_with_the_standard_par():
    a, b = worked_example_piles()
    scores, _, _ = settle([b, a], Rules(yaku_set="three"))
    assert sum(scores) == 0


def test_presets_and_options():
    assert Rules() == Rules.preset("fudawiki").replace(preset_name="fudawiki")
    seed = Rules.preset("seed")
    assert (seed.par, seed.last_lightning_sweeps, seed.mate_to_lightning_user) == (15, False, False)
    assert seed.rounds == 12
    for name, (allowed, source, meaning) in OPTIONS.items():
        assert source and meaning
        for value in allowed:
            assert getattr(Rules(**{name: value}), name) == value
        assert name in Rules.describe(name)
    with pytest.raises(InvalidRules):
        Rules(par=100)
    with pytest.raises(InvalidRules):
        Rules.preset("nintendo")
    with pytest.raises(InvalidRules):
        Rules(rounds=0)
    assert Rules.from_dict(Rules.preset("seed").to_dict()) == Rules.preset("seed")
