"""A final table whose stock ran out shows no empty stock panel (issue 45, item 3): the field
takes the room the piles had."""

from __future__ import annotations

from dataclasses import replace

from bot import presenter
from bot.games import game_module
from bot.games.rng import Rng
from bot.presenters.base import final_table
from rendering.table import MARGIN, SIDE_W, _side_w, table_image


def finished_view(game: str, players: int):
    module = game_module(game)
    match = module.new_match(players, None, 4)
    rng = Rng(4)
    while not match.is_over:
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))], match.current_player)
    return presenter.table_view(match.observation(0), [f"P{i}" for i in range(players)])


def test_a_stock_run_out_leaves_no_panel_and_the_field_takes_its_room():
    view = replace(finished_view("gostop", 3), stock_count=0)
    final = final_table(view, "P1 wins")
    assert final.stock_count is None
    assert _side_w(final) == MARGIN < SIDE_W
    image = table_image(final)
    assert image.width > 0 and image.height > 0


def test_a_stock_left_and_a_discard_pile_keep_their_panel():
    view = replace(finished_view("gostop", 3), stock_count=5)
    assert final_table(view, "P1 wins").stock_count == 5
    assert _side_w(final_table(view, "P1 wins")) == SIDE_W
