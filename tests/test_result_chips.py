"""A staked game's result names each member's chips net of their stake (issue 45, item 12):
a winner paid back their own stake and the loser's is "+20", not "+40"."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord_ui.publisher import TablePublisher
from bot.games import game_module
from bot.store.models import GameOutcome
from bot.tables import Table


def test_the_result_gives_each_members_net_chips():
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules.preset("nintendo", rounds=1), 3)
    table = Table(game_id=1, guild_id=2, channel_id=3, game="koikoi", players=[10, 11],
                  names=["alice", "bob"], host_id=10, stake=1, match=match, timeouts=[0, 0])
    escrow = table.escrow
    assert escrow > 0
    match.scores = [-5, 5]
    closing = {"winners": [1], "outcome": GameOutcome(game_id=1, status="finished", results=[],
                                                      payouts={1: 2 * escrow})}
    publisher = TablePublisher(SimpleNamespace())
    text = publisher._result_text(table, closing)
    assert f"Chips: alice −{escrow}, bob +{escrow}" in text.replace("-", "−"), text
