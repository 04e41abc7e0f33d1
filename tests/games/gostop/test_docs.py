"""Docstring examples, action texts and the Korean month numbers shown to players."""

import doctest

import bot.games.gostop.game as game
import bot.games.gostop.scoring as scoring
from bot.games.gostop import Rules, new_round
from bot.games.rng import Rng
from tests.games.gostop.helpers import rnd


def test_docstring_examples():
    for module in (game, scoring):
        failed, _ = doctest.testmod(module)
        assert failed == 0


def test_action_texts_fit_a_discord_custom_id():
    rng = Rng(4)
    for n in (2, 3):
        for k in range(40):
            s = new_round(n, Rules(jokers=3, small_bomb="bomb"), seed=k)
            while not s.is_over:
                legal = s.legal_actions()
                assert all(len(str(a)) <= 80 for a in legal)
                s.apply(legal[rng.below(len(legal))])


def test_korean_months_in_the_observation():
    s = rnd(hands=[["lightning", "phoenix"], ["crane"]], field=["rainman", "paulownia_chaff_1"],
            stock=["..."])
    km = s.observation(0)["korean_month"]
    # willow is month 12 and paulownia month 11 in Korean numbering
    assert km["lightning"] == 12 and km["rainman"] == 12
    assert km["phoenix"] == 11 and km["paulownia_chaff_1"] == 11
    assert "crane" not in km  # seat 1's hand is hidden
    ev = s.apply("play:lightning")
    assert ev[0]["korean_month"] == 12


def test_every_event_type_is_documented():
    import re

    import bot.games.gostop as package
    documented = set(re.findall(r"``([a-z_]+)``", package.__doc__.split("Events")[1].split("The observation")[0]))
    seen = set()
    rng = Rng(9)
    for k in range(150):
        rules = Rules(jokers=3, small_bomb="bomb", chongtong=("optional", "forced")[k % 2],
                      field_four=("redeal", "nagari")[k % 2], three_ppeok="win")
        s = new_round(2 + k % 2, rules, seed=k)
        seen |= {e["type"] for e in s.start_events}
        while not s.is_over:
            legal = s.legal_actions()
            seen |= {e["type"] for e in s.apply(legal[rng.below(len(legal))])}
    assert seen <= documented, seen - documented
    assert {"play", "draw", "capture", "steal", "round_end", "ppeok", "go", "stop"} <= seen
