"""Seotda's AI: legal moves at every level and preset, the threshold policy's thresholds, and an
equity player that reads only its own observation."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, make_player
from bot.ai.seotda import EquityPlayer, GreedyPlayer, strength
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.seotda import Rules, SeotdaRound, new_match


@pytest.mark.parametrize("preset", list(Rules.PRESETS))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves(preset, level):
    player = make_player(level, "seotda")
    if isinstance(player, EquityPlayer):
        player.samples = 20
    rng = Rng(5)
    match = new_match(3, Rules.preset(preset, rounds=3), 5)
    while not match.is_over:
        seat = match.current_player
        legal = match.legal_actions()
        action = player.choose(match.observation(seat), legal, rng)
        assert action in legal
        match.apply(action, seat)


def test_strength_orders_the_hands():
    assert strength(["curtain", "moon"]) == 1.0  # 38 gwang-ttaeng beats everything
    assert strength(["deer", "blue_ribbon_oct"]) > strength(["crane", "bush_warbler"]) > \
        strength(["geese", "crane"]) > strength(["poetry_ribbon_feb", "geese"])
    assert strength(["poetry_ribbon_feb", "geese", "deer"]) == strength(["geese", "deer"])


def dealt(hands, rules=None):
    r = SeotdaRound(len(hands), rules or Rules(), 1)
    r.hands = [list(h) for h in hands]
    r.stock = [c for c in r.stock + [c for h in r.hands for c in h] if all(c not in h for h in hands)]
    return r


def test_the_threshold_policy():
    greedy = GreedyPlayer()
    strong = dealt([["deer", "blue_ribbon_oct"], ["geese", "crane"]])
    assert greedy.choose(strong.observation(0), strong.legal_actions(), Rng(0)) == Action("bbing")
    weak = dealt([["poetry_ribbon_feb", "geese"], ["deer", "blue_ribbon_oct"]])
    assert greedy.choose(weak.observation(0), weak.legal_actions(), Rng(0)) == Action("check")
    weak.apply("bbing", 0)
    weak.apply("half", 1)
    assert greedy.choose(weak.observation(0), weak.legal_actions(), Rng(0)) == Action("die")


def test_equity_reads_only_its_own_observation():
    """Two deals that look the same to seat 0 (its cards, the bets) get the same answer."""
    a = dealt([["geese", "crane"], ["deer", "blue_ribbon_oct"]])
    b = dealt([["geese", "crane"], ["poetry_ribbon_feb", "bridge"]])
    obs_a, obs_b = a.observation(0), b.observation(0)
    assert obs_a == obs_b
    hard = EquityPlayer(samples=50)
    assert hard.choose(obs_a, a.legal_actions(), Rng(3)) == hard.choose(obs_b, b.legal_actions(), Rng(3))


def test_equity_reads_a_raise_as_strength():
    hard = EquityPlayer(samples=400)
    r = dealt([["geese", "crane"], ["deer", "blue_ribbon_oct"]])
    before = hard.worlds(r.observation(0), Rng(1), 0.4)[0]
    r.apply("check", 0)
    r.apply("bbing", 1)
    after = hard.worlds(r.observation(0), Rng(1), 0.4)[0]
    assert after < before
