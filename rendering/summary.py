"""The end-of-round summary: each yaku with its cards and points, multipliers and the result."""

from __future__ import annotations

from PIL import Image

from bot.i18n import speaking, t

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, card_strip, chip, fitted_text, new_canvas, text, text_width
from .encode import encode_png
from .showdown import showdown_image
from .sprites import card_height
from .view import SummaryView

WIDTH = IMAGE_WIDTH
CARD_W = 44
TITLE_H = 56
ROW_GAP = 8
PLAYER_COL = 150
NAME_COL = 210
POINTS_COL = 90


def summary_image(view: SummaryView) -> Image.Image:
    """Compose the summary (RGB); a showdown's (hands shown, pots) by :mod:`rendering.showdown`."""
    if view.hands or view.pots or view.banner:
        return showdown_image(view)
    row_h = card_height(CARD_W) + 2 * ROW_GAP
    rows_h = max(1, len(view.rows)) * (row_h + 4)
    mult_h = 40 if view.multipliers else 0
    result_h = 12 + 30 * len(view.result_lines)
    height = TITLE_H + rows_h + 12 + mult_h + result_h + MARGIN
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (MARGIN, TITLE_H // 2), view.title, 26, WIDTH - 2 * MARGIN, anchor="lm", bold=True)
    y = TITLE_H
    if not view.rows:
        text(draw, (MARGIN + 8, y + row_h // 2), t("No yaku this round."), 18, fill=MUTED,
             anchor="lm")
        y += row_h + 4  # the row it said so in: what follows goes below it
    cards_x = MARGIN + PLAYER_COL + NAME_COL
    cards_w = WIDTH - MARGIN - POINTS_COL - cards_x - 10
    for i, row in enumerate(view.rows):
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h), radius=10,
                               fill=PANEL + (190 if i % 2 == 0 else 120,))
        mid = y + row_h // 2
        fitted_text(draw, (MARGIN + 12, mid), row.player, 17, PLAYER_COL - 16, fill=MUTED, anchor="lm")
        fitted_text(draw, (MARGIN + PLAYER_COL, mid), row.name, 20, NAME_COL - 10, min_size=14,
                    anchor="lm", bold=True)
        card_strip(image, row.cards, cards_x, y + ROW_GAP, CARD_W, cards_w, view.korean_months)
        text(draw, (WIDTH - MARGIN - 14, mid), f"{row.points}", 24, fill=GOLD, anchor="rm",
             bold=True)
        y += row_h + 4
    y += 12
    if view.multipliers:
        x = MARGIN
        for label in view.multipliers:  # as many as fit the width, in order of importance
            if x + text_width(label, 16) + 16 > WIDTH - MARGIN:
                break
            x = chip(draw, x, y, label, 16, bg=GOLD, height=28) + 8
        y += mult_h
    for line in view.result_lines:
        fitted_text(draw, (MARGIN, y + 14), line, 20, WIDTH - 2 * MARGIN, min_size=15, fill=TEXT,
                    anchor="lm", bold=True)
        y += 30
    return image


def render_summary(view: SummaryView) -> bytes:
    """PNG bytes of the round summary for ``view``, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(summary_image(view))
