"""The dual card's better reading read from the pile scorer's tables (best_reading) agrees with
comparing points_with under both readings, on random piles under every option that changes a
pile's points."""

from __future__ import annotations

import random

import pytest

from bot.games.gostop import Rules
from bot.games.gostop.scoring import best_reading, dual_card, points_with

VARIANTS = [{}, {"sake_cup": "bridge"}, {"jokers": 3, "godori_points": 3},
            {"chodan": False, "willow_ribbon": "excluded", "inoshikacho_points": 5}]


@pytest.mark.parametrize("changes", VARIANTS)
def test_best_reading_matches_both_readings_scored(changes):
    rules = Rules(**changes)
    rng = random.Random(29)
    held = picked_pi = 0
    for _ in range(1500):
        pile = rng.getrandbits(51) & rng.getrandbits(51)
        if not rules.jokers:
            pile &= (1 << 48) - 1
        expected = "animal"
        if pile & dual_card(rules):
            held += 1
            if points_with(pile, rules, "pi") > points_with(pile, rules, "animal"):
                expected = "pi"
                picked_pi += 1
        assert best_reading(pile, rules) == expected
    assert held > 200 and picked_pi > 50
