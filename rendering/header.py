"""The header every table image shares: the title, the game's name, and the last move (or, on
the final table, who won)."""

from __future__ import annotations

from PIL import ImageDraw

from .art.palette import GOLD, HIGHLIGHT, MUTED, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, SMALL, fit_text, fitted_text, text
from .view import GAME_NAMES, TableView

WIDTH = IMAGE_WIDTH
LINE_Y = 60  # the last move's line, under the title
HEADER_H = 80  # the title and that line


def draw_header(draw: ImageDraw.ImageDraw, view: TableView) -> None:
    game = GAME_NAMES.get(view.game, view.game)
    right = WIDTH - MARGIN
    game_w = text(draw, (right, 26), game, SMALL, fill=MUTED, anchor="rm")
    fitted_text(draw, (MARGIN, 26), view.title or game, 26, WIDTH - 3 * MARGIN - game_w, min_size=SMALL,
                anchor="lm", bold=True)
    if view.result:  # the final table: who won replaces the last move
        fitted_text(draw, (MARGIN, LINE_Y), view.result.replace("**", ""), 22, WIDTH - 2 * MARGIN,
                    min_size=SMALL, fill=GOLD, anchor="lm", bold=True)
    elif view.last_move:
        draw.rounded_rectangle((MARGIN, LINE_Y - 8, MARGIN + 10, LINE_Y + 8), radius=3, fill=HIGHLIGHT)
        line = view.last_move.replace("**", "")  # a log line's Markdown bold
        text(draw, (MARGIN + 18, LINE_Y), fit_text(line, SMALL, WIDTH - 4 * MARGIN), SMALL,
             fill=TEXT, anchor="lm")
