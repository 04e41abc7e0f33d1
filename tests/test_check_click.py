"""A press at a table whose match is over but whose end is still being stored (a settlement
the database refused, tried again) is told the game is over, not that it waits for "nobody"."""

from __future__ import annotations

import pytest

from bot.games import game_module
from bot.games.rng import Rng
from bot.tables import Table, TableError, TableManager


def over_table() -> Table:
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules.preset("nintendo", rounds=1), 5)
    rng = Rng(5)
    while not match.is_over:
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))], match.current_player)
    return Table(game_id=1, guild_id=2, channel_id=3, game="koikoi", players=[10, 11],
                 names=["Aki", "Ben"], host_id=10, stake=0, match=match, timeouts=[0, 0])


def test_a_press_while_the_end_is_stored_is_told_the_game_is_over():
    table = over_table()
    assert not table.finished and table.match.current_player is None
    with pytest.raises(TableError, match="This game is over."):
        TableManager(store=None, publisher=None).check_click(table, 10, table.seq)
