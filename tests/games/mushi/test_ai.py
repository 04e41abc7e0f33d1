"""The greedy Mushi player: legal, observation-only, and clearly stronger than random."""

from __future__ import annotations

from bot.ai import RandomPlayer, make_player
from bot.games.base import Action
from bot.games.mushi import new_round
from bot.games.rng import Rng

from .contract import play_with


def test_greedy_beats_random_over_forty_rounds():
    margin, won = 0, 0
    for seed in range(40):
        greedy = seed % 2
        players = {greedy: make_player("greedy", "mushi"), 1 - greedy: RandomPlayer()}
        points = play_with(new_round(seed=seed, dealer=seed % 2), players, Rng(seed))
        margin += points[greedy] - points[1 - greedy]
        won += points[greedy] > points[1 - greedy]
    assert won >= 30
    assert margin > 40 * 20


def test_greedy_takes_the_bright_with_the_lightning():
    obs = {"seat": 0, "captured": [[], []], "field": ["moon", "pine_chaff_1", "swallow"],
           "rules": {}, "lightning_wild": True}
    legal = [Action("play", "lightning", "moon"), Action("play", "lightning", "pine_chaff_1"),
             Action("play", "iris_chaff_1")]
    assert make_player("greedy", "mushi").choose(obs, legal, Rng(0)) == legal[0]
