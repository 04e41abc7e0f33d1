"""One control per distinct move: twins (either of two chaff of a month) are offered once."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot import presenter
from bot.discord_ui.controls import press_move
from bot.games.base import Action

TWINS = {
    "game": "koikoi", "seat": 0, "current_player": 0, "phase": "play",
    "hand": ["poetry_ribbon_jan", "crane", "maple_chaff_1"],
    "field": ["pine_chaff_1", "pine_chaff_2", "deer"],
    "legal_actions": ["play:poetry_ribbon_jan>pine_chaff_1", "play:poetry_ribbon_jan>pine_chaff_2",
                      "play:crane>pine_chaff_1", "play:crane>pine_chaff_2", "play:maple_chaff_1>deer"],
}


def test_twin_captures_are_one_move_each():
    moves = presenter.hand_actions(TWINS)
    assert [str(a) for _, a in moves] == ["play:poetry_ribbon_jan>pine_chaff_1", "play:crane>pine_chaff_1",
                                         "play:maple_chaff_1>deer"]
    labels = [presenter.action_label("koikoi", a) for _, a in moves]
    assert len(set(labels)) == len(labels)


def test_different_cards_of_a_month_stay_apart():
    obs = dict(TWINS, hand=["crane"], field=["poetry_ribbon_jan", "pine_chaff_1"],
               legal_actions=["play:crane>poetry_ribbon_jan", "play:crane>pine_chaff_1"])
    assert len(presenter.hand_actions(obs)) == 2


def test_a_numbered_control_maps_to_the_offered_move():
    """``#i`` names the i-th move offered (twins merged), so the press plays that very move."""
    played = []

    class Manager:
        tables: dict = {}

        def get(self, gid):
            return table

        def check_click(self, table, user, seq):
            return 0

        async def act(self, table, seat, action, user, seq):
            played.append(action)

    async def nothing(*args, **kwargs):
        return None

    table = SimpleNamespace(game_id=1, guild_id=9, match=SimpleNamespace(observation=lambda seat: TWINS))
    Manager.tables = {1: table}
    via = SimpleNamespace(answered=asyncio.Event(), withdrawn=False)
    client = SimpleNamespace(tables=Manager(), publisher=SimpleNamespace(hand_seen_via=lambda *a: via))
    interaction = SimpleNamespace(client=client, user=SimpleNamespace(id=5),
                                  response=SimpleNamespace(defer=nothing, is_done=lambda: True),
                                  followup=SimpleNamespace(send=nothing))
    asyncio.run(press_move(interaction, 1, 1, "#1"))
    assert played == ["play:crane>pine_chaff_1"]
    assert via.answered.is_set() and not via.withdrawn  # stored, so the hand is updated through the press
    assert Action.parse(played[0]).card == "crane"


def test_twins_are_merged_in_every_game_that_names_them_alike():
    obs = dict(TWINS, game="sakura", legal_actions=["play:poetry_ribbon_jan>pine_chaff_1",
                                                    "play:poetry_ribbon_jan>pine_chaff_2"])
    [(pos, action)] = presenter.hand_actions(obs)
    assert presenter.action_label("sakura", action) == "Pine Poetry Ribbon → Pine"


def test_moves_are_told_apart_by_their_cards_not_by_a_shortened_label():
    """Two long First Bloom moves that differ only past the 80th character stay two moves."""
    long_pair = "field_pair:chrysanthemum_chaff_1>blue_ribbon_sep+sake_cup"
    other = "field_pair:chrysanthemum_chaff_1>blue_ribbon_sep+chrysanthemum_chaff_2"
    obs = {"game": "shedding", "seat": 0, "current_player": 0, "phase": "play",
           "hand": ["chrysanthemum_chaff_1"], "legal_actions": [long_pair, other]}
    assert [str(a) for _, a in presenter.hand_actions(obs)] == [long_pair, other]
