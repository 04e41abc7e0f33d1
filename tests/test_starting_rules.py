"""The rules a rematch plays again come from the stored game, in one place for both surfaces:
rules that no longer load are one sentence, never a traceback."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.games import game_module
from bot.tables import TableError
from bot.tables.starting import rules_of


def test_a_stored_games_rules_are_read_back_exactly():
    rules = game_module("koikoi").Rules(teyaku="off", rounds=3)
    record = SimpleNamespace(game_id=7, game="koikoi", rules=rules.to_dict())
    assert rules_of(record) == rules


@pytest.mark.parametrize("stored", [{"rounds": "many"}, {"point_table": "nonsense"}, "not a dict"])
def test_rules_that_no_longer_load_are_one_sentence(stored):
    record = SimpleNamespace(game_id=7, game="koikoi", rules=stored)
    with pytest.raises(TableError, match="^This game's settings can no longer be played again.$"):
        rules_of(record)
