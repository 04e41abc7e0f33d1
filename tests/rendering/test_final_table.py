"""The final table: nobody's turn is marked any more and the picture says who won, by how much."""

from __future__ import annotations

from bot import presenter
from bot.games import game_module
from bot.presenters.base import final_table, forfeit_result, score_line
from rendering import render_table
from rendering.art.palette import HIGHLIGHT
from rendering.table import table_image

from .conftest import open_png

NAMES = ["Alice", "Bob"]


def live_table():
    match = game_module("koikoi").new_match(2, game_module("koikoi").Rules(), seed=3)
    return presenter.table_view(match.observation(0), NAMES, last_move="Alice played Crane")


def highlight_pixels(view) -> int:
    colours = table_image(view).convert("RGB").getcolors(maxcolors=1 << 24)
    return sum(count for count, colour in colours if colour == HIGHLIGHT)


def test_final_table_has_no_turn_marker_and_names_the_winner():
    live = live_table()
    assert any(p.is_turn for p in live.players)
    final = final_table(live, "Alice wins the match! · 7 to 3", winners=[0])
    assert not any(p.is_turn for p in final.players)
    assert final.result == "Alice wins the match! · 7 to 3" and final.last_move == ""
    assert "Winner" in final.players[0].badges and "Winner" not in final.players[1].badges
    assert final.title.endswith("final")
    # the turn marker (arrow and outline) and the last move's marker are drawn in HIGHLIGHT
    assert highlight_pixels(live) > 0 and highlight_pixels(final) == 0
    assert open_png(render_table(final)).width == open_png(render_table(live)).width


def test_the_result_line_is_drawn():
    final = final_table(live_table(), "Alice wins the match! · 7 to 3", winners=[0])
    unnamed = final_table(live_table(), "", winners=[0])
    assert render_table(final) != render_table(unnamed)


def test_score_and_forfeit_wording():
    assert score_line([3, 7], NAMES) == "7 to 3"
    assert score_line([3, 7, 5], ["A", "B", "C"]) == "B 7, C 5, A 3"
    closing = {"forfeit": 1, "reason": "forfeited", "winners": [0]}
    assert forfeit_result(closing, NAMES) == "Bob forfeited; Alice wins"
    timed_out = {"forfeit": 0, "reason": "3 turns timed out in a row", "winners": [1, 2]}
    assert forfeit_result(timed_out, ["A", "B", "C"]) == \
        "A forfeited (3 turns timed out in a row); B and C win"
    team = {"forfeit": 0, "reason": "forfeited", "winners": [1, 3], "team": [1, 3]}
    assert forfeit_result(team, ["A", "B", "C", "D"]) == "A forfeited; Team B & D wins"
