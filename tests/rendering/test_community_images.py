"""The leaderboard page and the player card as images: their size, every row and chart drawn,
the asker's row marked, and long or Japanese and Korean names kept inside their column."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.i18n import speaking
from rendering import board, canvas, card, render_board, render_card
from rendering.art.palette import HIGHLIGHT, TEXT
from rendering.canvas import text_width
from rendering.samples import sample_board, sample_card
from rendering.view import BoardRow

from .conftest import open_png

LONG_NAMES = ("Bartholomew Cornelius Fitzgerald the Third of Hanafuda",
              "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "北のサーバーで永遠にこいこいを宣言する愛子さん",
              "북쪽 서버의 영원한 고스톱 챔피언 지우와 친구들", "🌸🌸 Sakura 🌸🌸 桜 벚꽃 🌸🌸")


@pytest.fixture
def drawn(monkeypatch):
    """(x, y, text, size, anchor, bold) of every text the community images draw."""
    calls: list[tuple[float, float, str, int, str, bool]] = []
    original = canvas.text

    def recording(draw, xy, s, size, fill=canvas.TEXT, anchor="la", bold=False):
        calls.append((xy[0], xy[1], s, size, anchor, bold))
        return original(draw, xy, s, size, fill=fill, anchor=anchor, bold=bold)

    for module in (canvas, board, card):
        monkeypatch.setattr(module, "text", recording)
    return calls


def extent(call) -> tuple[float, float]:
    """The left and right edge of a drawn text."""
    x, _, s, size, anchor, bold = call
    width = text_width(s, size, bold)
    return (x - width, x) if anchor[0] == "r" else (x - width / 2, x + width / 2) \
        if anchor[0] == "m" else (x, x + width)


def busy(image, box) -> int:
    """How many colours a region of the image shows (the bare felt shows a few shades)."""
    return len(image.crop(box).getcolors(1 << 16) or ())


def count(image, box, colour, tolerance=40) -> int:
    return sum(n for n, px in image.crop(box).getcolors(1 << 16)
               if all(abs(a - b) <= tolerance for a, b in zip(px, colour, strict=True)))


@pytest.mark.parametrize("rated", [True, False])
def test_the_board_draws_every_row_its_trend_and_marks_the_asker(rated):
    view = sample_board(rated=rated, asker=4)
    png = render_board(view)
    assert open_png(png).size == (board.WIDTH, board.board_height(view))
    assert render_board(view) == png  # the same page, the same bytes
    image = board.board_image(view)
    for i, row in enumerate(view.rows):
        top = board.row_top(i)
        assert busy(image, (board.NAME_COL[0], top, board.NAME_COL[1], top + board.ROW_H)) > 8
        trend = (board.TREND_COL[0], top + 4, board.TREND_COL[1], top + board.ROW_H - 4)
        assert count(image, trend, TEXT if rated else (110, 232, 120), 30) + \
            count(image, trend, (204, 42, 40), 30) + count(image, trend, TEXT, 30) > 10, i
        if rated:  # the bar and whisker of the rating
            bar = (board.BAR_COL[0], top + 4, board.BAR_COL[1], top + board.ROW_H - 4)
            assert busy(image, bar) > 4
        marked = count(image, (board.MARGIN, top, board.WIDTH - board.MARGIN, top + 4), HIGHLIGHT)
        assert (marked > 100) == row.highlight, i


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_long_and_cjk_names_stay_in_their_column(drawn, language):
    with speaking(language):
        view = sample_board()
    rows = tuple(replace(row, name=LONG_NAMES[i % len(LONG_NAMES)]) for i, row in
                 enumerate(view.rows))
    board.board_image(replace(view, rows=rows))
    names = [c for c in drawn if c[0] == board.NAME_COL[0] and c[1] > board.HEADER_H]
    assert len(names) == len(rows)
    for call in names:
        left, right = extent(call)
        assert board.NAME_COL[0] <= left and right <= board.NAME_COL[1], call
    for call in drawn:  # nothing is drawn past the image's edges
        left, right = extent(call)
        assert left >= 0 and right <= board.WIDTH, call


def test_an_empty_board_says_so():
    view = replace(sample_board(), rows=(), note="Nobody is on this board yet.")
    image = open_png(render_board(view))
    assert image.size == (board.WIDTH, board.board_height(view))


def test_a_rating_far_below_zero_and_a_lone_game_still_draw():
    row = BoardRow(rank=1, name="Low", value="-900 (still settling)", games="1 game",
                   rating=-900.0, spread=480.0, trend=(-900.0,))
    image = board.board_image(replace(sample_board(), rows=(row,)))
    top = board.row_top(0)
    assert busy(image, (board.BAR_COL[0], top, board.BAR_COL[1], top + board.ROW_H)) > 4
    assert count(image, (board.TREND_COL[0], top, board.TREND_COL[1], top + board.ROW_H),
                 TEXT, 10) > 20  # a lone game is a dot


def test_the_card_draws_each_game_and_its_rating_history(drawn):
    view = sample_card()
    view = replace(view, name=LONG_NAMES[2] * 2)
    png = render_card(view)
    assert open_png(png).size == (card.WIDTH, card.card_height(view))
    image = card.card_image(view)
    for i, game in enumerate(view.games):
        top = card.panel_top(view, i)
        chart = (card.CHART_COL[0], top + 30, card.CHART_COL[1], top + card.PANEL_H - 18)
        assert count(image, chart, TEXT, 30) > 3 * len(game.history), game.title
    title = next(c for c in drawn if c[1] == 32)
    left, right = extent(title)
    assert left >= card.MARGIN and right <= card.WIDTH - card.MARGIN
    for call in drawn:
        left, right = extent(call)
        assert left >= 0 and right <= card.WIDTH, call


def test_a_card_without_games_shows_its_note():
    view = replace(sample_card(), games=(), totals=(), note="No finished games on this server yet.")
    image = open_png(render_card(view))
    assert image.size == (card.WIDTH, card.card_height(view))


def test_tiles_take_two_rows_when_one_would_cut_a_label(drawn):
    """A card's totals take one row when every label fits it whole at the smallest readable
    size, else two: in English six tiles would cut "Achievements" short ("Achievemen..."), in
    Japanese and Korean their labels are short enough for one row; a member with deals of the
    day holds seven, and another member's card eight (the games together too)."""
    seven = sample_card()
    six = replace(seven, totals=seven.totals[:6])
    eight = replace(seven, totals=seven.totals + (("vs Taro", "5–4"),))
    short = replace(six, totals=six.totals[:5])
    assert [len(row) for row in card.tile_rows(short)] == [5]
    assert [len(row) for row in card.tile_rows(six)] == [3, 3]
    assert [len(row) for row in card.tile_rows(seven)] == [4, 3]
    assert [len(row) for row in card.tile_rows(eight)] == [4, 4]
    assert card.card_height(six) == card.card_height(short) + card.TILE_H + 16
    assert card.panel_top(six, 0) == card.panel_top(short, 0) + card.TILE_H + 16
    for language in ("ja", "ko"):
        with speaking(language):
            assert [len(row) for row in card.tile_rows(replace(sample_card(), totals=sample_card(
                ).totals[:6]))] == [6], language
    for view in (six, seven, eight):
        drawn.clear()
        card.card_image(view)
        shown = {call[2] for call in drawn}
        for label, value in view.totals:
            assert label in shown and value in shown, (label, value)  # drawn whole, never "..."
