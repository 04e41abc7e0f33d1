"""A page of a leaderboard as an image: rank, name, the value ranked by (on rating boards with
its uncertainty as a bar and whisker), games, and each player's trend; the asker's row marked."""

from __future__ import annotations

from PIL import Image

from bot.i18n import speaking, t

from .art.palette import GOLD, HIGHLIGHT, MUTED, PANEL, PANEL_TURN, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, SMALL, fitted_text, new_canvas, panel, text, wrap_text
from .charts import form_dots, rating_scale, sparkline, whisker
from .encode import encode_png
from .view import BoardView

WIDTH = IMAGE_WIDTH
HEADER_H = 98  # title, subtitle and the column headings
ROW_H = 50
ROW_GAP = 4
NAME_SIZE = 22
VALUE_SIZE = 22
NOTE_H = 26  # a line of the note under the rows
# Columns: (left, right) in pixels.
RANK_COL = (MARGIN + 12, MARGIN + 78)
NAME_COL = (MARGIN + 86, 420)
VALUE_COL_RATED = (430, 588)  # right-aligned; the whisker follows
BAR_COL = (604, 790)
VALUE_COL = (430, 790)
GAMES_COL = (800, 880)
TREND_COL = (896, WIDTH - MARGIN - 12)
TOP_THREE = (GOLD, (214, 214, 206), (205, 140, 72))  # gold, silver, bronze


def row_top(index: int) -> int:
    """Where row ``index`` of the page starts."""
    return HEADER_H + index * (ROW_H + ROW_GAP)


def board_height(view: BoardView) -> int:
    return row_top(max(1, len(view.rows))) + 12 + (2 * NOTE_H + 8 if view.note else 0) + MARGIN


def board_image(view: BoardView) -> Image.Image:
    """Compose the page (RGB)."""
    image, draw = new_canvas(WIDTH, board_height(view))
    fitted_text(draw, (MARGIN, 28), view.title, 26, WIDTH - 2 * MARGIN, anchor="lm", bold=True)
    fitted_text(draw, (MARGIN, 58), view.subtitle, SMALL, WIDTH - 2 * MARGIN, min_size=SMALL, fill=MUTED,
                anchor="lm")
    rated = view.rated
    value_col = VALUE_COL_RATED if rated else VALUE_COL
    heading_y = HEADER_H - 14
    text(draw, (RANK_COL[0], heading_y), "#", SMALL, fill=MUTED, anchor="lm")
    fitted_text(draw, (NAME_COL[0], heading_y), t("Player"), SMALL, NAME_COL[1] - NAME_COL[0],
                min_size=SMALL, fill=MUTED, anchor="lm")
    fitted_text(draw, (value_col[1], heading_y), view.value_header, SMALL,
                value_col[1] - value_col[0], min_size=SMALL, fill=MUTED, anchor="rm")
    if rated:
        fitted_text(draw, (BAR_COL[0], heading_y), t("Likely range"), SMALL,
                    BAR_COL[1] - BAR_COL[0], min_size=SMALL, fill=MUTED, anchor="lm")
    if any(row.games for row in view.rows):  # a board that counts no games (chips) has no column
        fitted_text(draw, (GAMES_COL[1], heading_y), view.count_header or t("Games"), SMALL,
                    GAMES_COL[1] - GAMES_COL[0], min_size=SMALL, fill=MUTED, anchor="rm")
    if rated or any(row.form for row in view.rows):  # a board of one game each has no form
        fitted_text(draw, (TREND_COL[0], heading_y), t("Trend") if rated else t("Form"), SMALL,
                    TREND_COL[1] - TREND_COL[0], min_size=SMALL, fill=MUTED, anchor="lm")
    scale = rating_scale([(r.rating, r.spread or 0.0) for r in view.rows if r.rating is not None])
    for i, row in enumerate(view.rows):
        top = row_top(i)
        mid = top + ROW_H / 2
        box = (MARGIN, top, WIDTH - MARGIN, top + ROW_H)
        if row.highlight:
            panel(draw, box, 10, PANEL_TURN + (235,), outline=HIGHLIGHT, width=3)
        else:
            panel(draw, box, 10, PANEL + (190 if i % 2 == 0 else 120,))
        colour = TOP_THREE[row.rank - 1] if row.rank <= 3 else TEXT
        fitted_text(draw, (RANK_COL[0], mid), f"#{row.rank}", 22, RANK_COL[1] - RANK_COL[0],
                    fill=colour, anchor="lm", bold=True)
        fitted_text(draw, (NAME_COL[0], mid), row.name, NAME_SIZE, NAME_COL[1] - NAME_COL[0],
                    min_size=SMALL, anchor="lm", bold=row.highlight)
        fitted_text(draw, (value_col[1], mid), row.value, VALUE_SIZE,
                    value_col[1] - value_col[0], min_size=SMALL, fill=GOLD, anchor="rm", bold=True)
        if row.rating is not None:
            whisker(draw, (BAR_COL[0], mid - 7, BAR_COL[1], mid + 7), row.rating,
                    row.spread or 0.0, scale)
        fitted_text(draw, (GAMES_COL[1], mid), row.games, SMALL, GAMES_COL[1] - GAMES_COL[0],
                    min_size=SMALL, fill=MUTED, anchor="rm")
        trend_box = (TREND_COL[0], mid - 13, TREND_COL[1], mid + 13)
        if row.trend:
            sparkline(draw, trend_box, row.trend)
        elif row.form:
            form_dots(draw, trend_box, row.form)
    y = row_top(max(1, len(view.rows))) + 12
    for line in wrap_text(view.note, SMALL, WIDTH - 2 * MARGIN, max_lines=2) if view.note else ():
        text(draw, (MARGIN, y + 14), line, SMALL, fill=MUTED, anchor="lm")
        y += NOTE_H
    return image


def render_board(view: BoardView) -> bytes:
    """PNG bytes of a leaderboard page, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(board_image(view))
