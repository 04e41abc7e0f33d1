"""A match deals every round the way it was started with, and keeps that way through its stored
state: a game stored before shuffle 2 existed (no ``shuffle`` in its state) resumes and replays
with shuffle 1, a new game deals with the newest."""

from __future__ import annotations

import pytest

from bot.games import ENGINES, game_module
from bot.games.rng import NEWEST_SHUFFLE, SHUFFLES, Rng


def _play(match, rng: Rng, moves: int) -> None:
    for _ in range(moves):
        if match.is_over:
            return
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))])


def _rules(module):
    return module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=3, target_score=0)


@pytest.mark.parametrize("shuffle", SHUFFLES)
@pytest.mark.parametrize("game", list(ENGINES))
def test_a_restored_match_deals_its_next_rounds_as_it_was_started(game, shuffle):
    module = game_module(game)
    players = module.PLAYERS[1]  # most seats: the shedding game reshuffles more often
    whole = module.new_match(players, _rules(module), 5, shuffle)
    split = module.new_match(players, _rules(module), 5, shuffle)
    a, b = Rng(1), Rng(1)
    _play(whole, a, 15)
    _play(split, b, 15)
    stored = split.to_dict()
    assert ("shuffle" in stored) == (shuffle != 1)  # a state without it is from before shuffle 2
    split = module.match_from_dict(stored)
    _play(whole, a, 10_000)
    _play(split, b, 10_000)
    assert whole.is_over and whole.round_number > 1  # the later rounds were dealt after the restore
    assert split.to_dict() == whole.to_dict()


@pytest.mark.parametrize("game", list(ENGINES))
def test_new_games_deal_with_the_newest_shuffle_and_the_ways_differ(game):
    module = game_module(game)
    players = module.PLAYERS[0]
    new = module.new_match(players, None, 11)
    assert new.shuffle == NEWEST_SHUFFLE
    assert new.to_dict()["round"] == module.new_match(players, None, 11, NEWEST_SHUFFLE).to_dict()["round"]
    deals = {repr(module.new_match(players, None, 11, s).to_dict()["round"]) for s in SHUFFLES}
    assert len(deals) == len(SHUFFLES)


def test_a_stored_state_with_an_unknown_shuffle_is_refused():
    module = game_module("koikoi")
    stored = module.new_match(2, None, 3).to_dict()
    stored["shuffle"] = 9
    with pytest.raises(ValueError, match="unknown shuffle"):
        module.match_from_dict(stored)
