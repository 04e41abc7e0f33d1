"""Table, hand, summary and yaku sheet images: sizes, every game and player count, limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rendering import (
    GAMES,
    HandView,
    PlayerView,
    SummaryView,
    TableView,
    YakuRow,
    render_hand,
    render_summary,
    render_table,
    render_yaku_sheet,
)
from rendering.hand import hand_image
from rendering.samples import sample_hand, sample_showdown, sample_summary, sample_table
from rendering.table import WIDTH

from .conftest import open_png


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", range(2, 8))
def test_every_game_and_player_count_renders(game, players):
    image = open_png(render_table(sample_table(game, players)))
    assert image.width == WIDTH
    assert 400 < image.height < 1400


def test_two_player_table_is_small_and_quantised():
    data = render_table(sample_table("koikoi", 2, captured_per_player=20))
    assert len(data) < 400 * 1024
    assert open_png(data).mode == "P"


def test_more_players_make_a_taller_table():
    heights = [open_png(render_table(sample_table("sakura", n))).height for n in (2, 4, 7)]
    assert heights == sorted(heights) and heights[0] < heights[-1]


def test_table_with_everything_captured_and_every_option():
    from bot.cards import DECK

    ids = tuple(c.id for c in DECK)
    view = TableView(
        game="gostop", title="A very long title " * 8, field=ids[:20], stock_count=0,
        players=(
            PlayerView("P" * 80, ids[20:48], 999, True, True, 10, ("Go 5", "Shake x2", "Bomb"),
                       ("Godori 2/3", "Hongdan 2/3", "Pi 9/10"), 31, 1),
            PlayerView("Empty", (), None, False, False, None),
        ),
        highlight=ids[:3], last_move="x" * 300, discard_top=None, discard_count=None,
        drawn_card="lightning", korean_months=True, footer="f" * 300,
    )
    assert open_png(render_table(view)).width == WIDTH


def test_highlight_is_drawn():
    plain = sample_table("koikoi", 2)
    marked = TableView(**{**{f: getattr(plain, f) for f in plain.__dataclass_fields__},
                          "highlight": plain.field[:2]})
    unmarked = TableView(**{**{f: getattr(plain, f) for f in plain.__dataclass_fields__},
                            "highlight": ()})
    assert render_table(marked) != render_table(unmarked)


def test_rendering_is_deterministic():
    view = sample_table("hana_awase", 3)
    assert render_table(view) == render_table(view)


def test_shedding_table_shows_the_discard_pile():
    view = sample_table("shedding", 3)
    assert view.discard_top and view.discard_count
    without = TableView(**{**{f: getattr(view, f) for f in view.__dataclass_fields__},
                           "discard_top": None, "discard_count": None})
    assert render_table(view) != render_table(without)


@pytest.mark.parametrize("n", range(1, 11))
def test_hand_with_1_to_10_cards(n):
    view = sample_hand(n)
    image = open_png(render_hand(view))
    card_w = 96 if n <= 8 else 86
    assert image.width >= n * card_w
    assert image.width <= 1100
    assert image.height == hand_image(view).height


def test_hand_marks_playable_cards():
    cards = ("crane", "moon", "boar")
    assert render_hand(HandView(cards, playable=("moon",))) != render_hand(HandView(cards))


def test_summary_with_many_yaku_grows():
    few = open_png(render_summary(sample_summary(2)))
    many = open_png(render_summary(sample_summary(16)))
    assert few.width == many.width == 1000
    assert many.height > few.height + 14 * 60


@pytest.mark.parametrize("redeal", [False, True])
def test_seotda_showdown_shows_every_hand(redeal):
    view = sample_showdown(redeal)
    assert len(view.hands) == 3 and bool(view.banner) == redeal
    without = replace(view, hands=view.hands[:2])
    assert open_png(render_summary(view)).height > open_png(render_summary(without)).height


def test_seotda_table_marks_the_seat_to_act_and_the_dead():
    view = sample_table("seotda", 5)
    assert [p.status for p in view.players] == ["Bbing", "Half", "Died", "All in", "To act"]
    assert view.players[2].out and view.pots == (("Main pot", 12), ("Side pot 1", 1))
    everyone_in = replace(view, players=tuple(replace(p, out=False) for p in view.players))
    assert render_table(view) != render_table(everyone_in)


def test_summary_without_rows():
    view = SummaryView("Draw", rows=(), multipliers=(), result_lines=("Nobody scores",))
    assert open_png(render_summary(view)).width == 1000


def test_summary_row_with_many_cards():
    from bot.cards import DECK

    row = YakuRow("Hanako", "Kasu", tuple(c.id for c in DECK), 15)
    assert open_png(render_summary(SummaryView("t", rows=(row,)))).width == 1000


@pytest.mark.parametrize("game", GAMES)
def test_yaku_sheet_for_every_game(game):
    image = open_png(render_yaku_sheet(game))
    assert image.width == 1000 and image.height > 300


def test_yaku_sheet_rejects_unknown_game():
    with pytest.raises(ValueError):
        render_yaku_sheet("poker")
