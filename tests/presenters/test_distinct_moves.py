"""One control per distinct move: twins (either of two chaff of a month) are offered once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot import presenter
from bot.games.base import Action
from bot.tables import TableError, TableManager

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
    table = SimpleNamespace(match=SimpleNamespace(observation=lambda seat: TWINS))
    played = TableManager._offered(table, 0, "#1")
    assert played == "play:crane>pine_chaff_1"
    assert Action.parse(played).card == "crane"
    assert TableManager._offered(table, 0, "play:crane>pine_chaff_2") == "play:crane>pine_chaff_2"
    with pytest.raises(TableError):
        TableManager._offered(table, 0, "#9")


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
