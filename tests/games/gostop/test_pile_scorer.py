"""The table scorer a round scores its piles with (PileScorer) agrees with points_with, the yaku
rules it is built from, on random piles under every option that changes a pile's points."""

from __future__ import annotations

import random

import pytest

from bot.games.gostop import Rules
from bot.games.gostop.scoring import base_score, dual_card, pile_scorer, points_with

VARIANTS = [
    {},
    {"sake_cup": "both"}, {"sake_cup": "animal"}, {"sake_cup": "bridge"},
    {"jokers": 3, "four_brights_with_rain": 3, "godori_points": 3},
    {"chodan": False, "willow_ribbon": "excluded", "inoshikacho_points": 5},
]


@pytest.mark.parametrize("changes", VARIANTS)
def test_table_scores_match_the_yaku_rules(changes):
    rules = Rules(**changes)
    scorer = pile_scorer(rules)
    rng = random.Random(23)
    for _ in range(2000):
        pile = rng.getrandbits(51) & rng.getrandbits(51)  # about a quarter of the cards
        if not rules.jokers:
            pile &= (1 << 48) - 1
        readings = ("animal", "pi") if pile & dual_card(rules) else ("animal",)
        expected = max(points_with(pile, rules, r) for r in readings)
        assert scorer(pile) == expected == base_score(pile, rules)
