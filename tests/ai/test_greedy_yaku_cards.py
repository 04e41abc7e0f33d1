"""The Mushi and Hana-Awase greedy players value a pile's yaku by its yaku cards alone (their
memo is keyed by that part): the yaku scoring must read no other card, under every option."""

from __future__ import annotations

import random

import pytest

from bot.cards import mask
from bot.games import hana_awase, mushi
from bot.games.hana_awase.scoring import YAKU_CARDS as HANA_YAKU_CARDS
from bot.games.hana_awase.scoring import table_totals
from bot.games.mushi.scoring import YAKU_CARDS as MUSHI_YAKU_CARDS
from bot.games.mushi.scoring import yaku_points

HANA = [hana_awase.Rules.preset(name) for name in hana_awase.Rules.PRESETS] + [
    hana_awase.Rules.preset("fudawiki", willow_row="cancels_all"),
    hana_awase.Rules.preset("fudawiki", willow_row="owner_only", rain_voids_viewings=True,
                            exclusive_yaku=False)]
MUSHI = [mushi.Rules.preset(name) for name in mushi.Rules.PRESETS]


def _piles(seed: int):
    rng = random.Random(seed)
    for _ in range(600):
        yield mask(rng.sample(range(48), rng.randrange(2, 30)))


@pytest.mark.parametrize("rules", HANA)
def test_hana_awase_yaku_read_only_the_yaku_cards(rules):
    scored = 0
    for pile in _piles(3):
        total = table_totals([pile], rules)
        assert table_totals([pile & HANA_YAKU_CARDS], rules) == total
        scored += total[0] > 0
    assert scored > 50  # the random piles do score yaku


@pytest.mark.parametrize("rules", MUSHI)
def test_mushi_yaku_read_only_the_yaku_cards(rules):
    scored = 0
    for pile in _piles(5):
        points = yaku_points(pile, rules)
        assert yaku_points(pile & MUSHI_YAKU_CARDS, rules) == points
        scored += points > 0
    assert scored > 50
