"""The greedy Hana-Awase player: legal, observation-only, and clearly stronger than random."""

from __future__ import annotations

import pytest

from bot.ai import RandomPlayer, make_player
from bot.games.base import Action
from bot.games.hana_awase import Rules, new_round
from bot.games.rng import Rng

from ..mushi.contract import play_with


@pytest.mark.parametrize("preset", ["leaflet", "fudawiki"])
def test_greedy_beats_random_at_three_players(preset):
    margin, won = 0, 0
    for seed in range(60):
        greedy = seed % 3
        players = {p: make_player("greedy", "hana_awase") if p == greedy else RandomPlayer() for p in range(3)}
        points = play_with(new_round(3, Rules.preset(preset), seed=seed, dealer=seed % 3), players, Rng(seed))
        others = [points[p] for p in range(3) if p != greedy]
        won += points[greedy] > max(others)
        margin += points[greedy] - sum(others) / 2
    assert won >= 27  # a random seat would win about 20 of 60 (measured: about 34)
    assert margin > 60 * 10


def test_greedy_completes_a_yaku_over_a_richer_capture():
    obs = {"seat": 0, "num_players": 3, "rules": Rules.preset("fudawiki").to_dict(),
           "captured": [["poetry_ribbon_jan", "poetry_ribbon_feb"], [], []],
           "field": ["poetry_ribbon_mar", "cherry_chaff_1", "moon"], "lightning_wild": False}
    legal = [Action("play", "curtain", "cherry_chaff_1"), Action("play", "curtain", "poetry_ribbon_mar"),
             Action("play", "geese")]
    assert make_player("greedy", "hana_awase").choose(obs, legal, Rng(0)) == legal[1]
