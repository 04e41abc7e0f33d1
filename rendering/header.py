"""The header every table image shares: the title, the game's name, and the last move (or, on
the final table, who won)."""

from __future__ import annotations

from PIL import ImageDraw

from .art.palette import GOLD, HIGHLIGHT, MUTED, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, fit_text, fitted_text, text
from .view import GAME_NAMES, TableView

WIDTH = IMAGE_WIDTH


def draw_header(draw: ImageDraw.ImageDraw, view: TableView) -> None:
    game = GAME_NAMES.get(view.game, view.game)
    right = WIDTH - MARGIN
    game_w = text(draw, (right, 26), game, 17, fill=MUTED, anchor="rm")
    fitted_text(draw, (MARGIN, 26), view.title or game, 26, WIDTH - 3 * MARGIN - game_w, anchor="lm", bold=True)
    if view.result:  # the final table: who won replaces the last move
        fitted_text(draw, (MARGIN, 57), view.result.replace("**", ""), 19, WIDTH - 2 * MARGIN,
                    fill=GOLD, anchor="lm", bold=True)
    elif view.last_move:
        draw.rounded_rectangle((MARGIN, 50, MARGIN + 10, 64), radius=3, fill=HIGHLIGHT)
        line = view.last_move.replace("**", "")  # a log line's Markdown bold
        text(draw, (MARGIN + 18, 57), fit_text(line, 17, WIDTH - 4 * MARGIN), 17,
             fill=TEXT, anchor="lm")
