"""The fast Koi-Koi rollout is the engine played by the greedy player, step for step."""

from __future__ import annotations

import importlib

import pytest

from bot.ai.base import RandomPlayer
from bot.ai.koikoi import GreedyPlayer
from bot.ai.koikoi_rollout import greedy_reader, koikoi_rollout
from bot.ai.search.player import fast_clone, greedy_policy, rollout
from bot.cards import mask
from bot.games import koikoi
from bot.games.rng import Rng

RULES = [
    *(koikoi.Rules.preset(name) for name in koikoi.Rules.PRESETS),
    koikoi.Rules(lightning_wild="on", koikoi_limit="min3", improvement="new_only",
                 draw_result="last_improver", zero_sum=True, hand_size=10),
    koikoi.Rules(koikoi_limit="once", draw_result="oya_ken", viewings="weather_on_field",
                 sake_cup_as_chaff="either", seven_plus_doubles=False),
    koikoi.Rules(koikoi_limit="once_total", field_misdeal="three", akatan_aotan="adds"),
    koikoi.Rules.preset("koikoi_japan", koikoi_limit="once_total", improvement="new_only"),
]


def _positions(rules, seeds):
    walker = RandomPlayer()
    for seed in seeds:
        rng = Rng(seed)
        match = koikoi.new_match(2, rules.replace(rounds=1), seed)
        while not match.is_over:
            yield match
            seat = match.current_player
            match.apply(walker.choose(match.observation(seat), match.legal_actions(), rng), seat)


@pytest.mark.parametrize("rules", RULES)
def test_fast_rollout_scores_exactly_as_the_engine(rules):
    policy = greedy_policy("koikoi")
    n = 0
    for i, match in enumerate(_positions(rules, range(12))):
        state = match.round
        if state.phase == "swap_offer":
            continue
        before = state.to_dict()
        fast = koikoi_rollout(state, Rng(i))
        assert state.to_dict() == before  # the round itself is left alone
        assert fast == rollout(fast_clone(state), policy, Rng(i))
        for action in match.legal_actions()[:3]:  # a first action given, as the search does
            after = fast_clone(state)
            after.apply(action)
            assert koikoi_rollout(state, Rng(i), action) == rollout(after, policy, Rng(i))
        n += 1
    assert n > 100


def test_fast_card_choice_is_a_best_greedy_choice():
    greedy = GreedyPlayer()
    rng = Rng(4)
    for match in _positions(koikoi.Rules(), range(10)):
        state, legal = match.round, match.legal_actions()
        if state.phase not in ("play", "choose_draw") or len(legal) < 2:
            continue
        obs = match.observation(state.current)
        seat = obs["seat"]
        mine, theirs = mask(obs["captured"][seat]), mask(obs["captured"][1 - seat])
        field, hand = mask(obs["field"]), mask(obs["hand"])
        scores = {a: greedy._score(a, field, hand, mine, theirs, mine | theirs | field | hand)
                  for a in legal}
        assert scores[greedy_reader(greedy, state, legal, rng)] >= max(scores.values()) - 1e-9


def test_a_capture_outscores_every_discard():
    """The rollout's card choice weighs discards only when no card takes anything: sound while
    every worth is at least the least base worth and ``DISCARDS_TRAIL`` holds."""
    fast = importlib.import_module("bot.ai.koikoi_rollout")  # the package names the function
    assert fast.DISCARDS_TRAIL
    rng = Rng(7)
    for _ in range(300):
        mine, theirs = rng.next64() & rng.next64() & (1 << 48) - 1, rng.next64() & rng.next64()
        theirs &= ~mine & (1 << 48) - 1
        assert min(fast.worth(i, mine, theirs) for i in range(48)) >= fast._LEAST_WORTH
