"""The end-of-round summary: each yaku with its cards and points, multipliers and the result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import speaking, t

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import (
    IMAGE_WIDTH,
    MARGIN,
    SMALL,
    card_strip,
    chip,
    fit_line,
    fitted_text,
    new_canvas,
    panel,
    text,
    text_width,
)
from .encode import encode_png
from .showdown import showdown_image
from .sprites import card_height, index_width
from .view import SummaryView, YakuRow

WIDTH = IMAGE_WIDTH
CARD_W = 52
TITLE_H = 56
ROW_GAP = 8
RESULT_H = 32
PLAYER_COL = 150
NAME_COL = 210  # the narrowest the yaku name column gets
POINTS_COL = 90
NAME_X = MARGIN + PLAYER_COL
CARDS_END = WIDTH - MARGIN - POINTS_COL - 10  # the cards stop short of the points
NAME_SIZE = 22
NAME_MIN_SIZE = SMALL
NAME_GAP = 10  # between a name and its cards
TIGHT_STEP = index_width(CARD_W)  # a long name may squeeze its cards, each corner index in view


@dataclass(frozen=True, slots=True)
class RowBox:
    """Where a yaku row's name and cards go: the name as drawn (``shown`` at ``size`` pixels, bold,
    its left edge at ``NAME_X``) and the strip of cards from ``cards_x``, ``cards_w`` wide."""

    shown: str
    size: int
    cards_x: int
    cards_w: int


def _tight_strip(cards: int) -> int:
    """The width of a row's cards squeezed as far as a name may push them."""
    return CARD_W + max(0, cards - 1) * TIGHT_STEP


def row_boxes(rows: Sequence[YakuRow]) -> list[RowBox]:
    """Lay out the yaku names and their cards: the name column is as wide as the longest name at
    full size needs (at least ``NAME_COL``) while every row's cards keep their corner indices in
    view, so the cards stay in one column; a name longer than that column takes the room its own
    row's cards leave, and only a name that fits nowhere is drawn smaller, then shortened."""
    if not rows:
        return []
    needed = [text_width(r.name, NAME_SIZE, True) + NAME_GAP for r in rows]
    room = [CARDS_END - NAME_X - _tight_strip(len(r.cards)) for r in rows]
    column = max(NAME_COL, min(max(needed), min(room)))
    boxes = []
    for row, need, free in zip(rows, needed, room, strict=True):
        name_w = max(column, min(need, free))
        shown, size = fit_line(row.name, NAME_SIZE, name_w - NAME_GAP, min_size=NAME_MIN_SIZE, bold=True)
        cards_x = round(NAME_X + name_w)
        boxes.append(RowBox(shown, size, cards_x, CARDS_END - cards_x))
    return boxes


def summary_image(view: SummaryView) -> Image.Image:
    """Compose the summary (RGB); a showdown's (hands shown, pots) by :mod:`rendering.showdown`."""
    if view.hands or view.pots or view.banner:
        return showdown_image(view)
    row_h = card_height(CARD_W) + 2 * ROW_GAP
    rows_h = max(1, len(view.rows)) * (row_h + 4)
    mult_h = 42 if view.multipliers else 0
    result_h = 12 + RESULT_H * len(view.result_lines)
    height = TITLE_H + rows_h + 12 + mult_h + result_h + MARGIN
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (MARGIN, TITLE_H // 2), view.title, 26, WIDTH - 2 * MARGIN, anchor="lm", bold=True)
    y = TITLE_H
    if not view.rows:
        text(draw, (MARGIN + 8, y + row_h // 2), t("No yaku this round."), SMALL, fill=MUTED,
             anchor="lm")
        y += row_h + 4  # the row it said so in: what follows goes below it
    for i, (row, box) in enumerate(zip(view.rows, row_boxes(view.rows), strict=True)):
        panel(draw, (MARGIN, y, WIDTH - MARGIN, y + row_h), 10, PANEL + (190 if i % 2 == 0 else 120,))
        mid = y + row_h // 2
        fitted_text(draw, (MARGIN + 12, mid), row.player, SMALL, PLAYER_COL - 16, min_size=SMALL, fill=MUTED,
                    anchor="lm")
        text(draw, (NAME_X, mid), box.shown, box.size, anchor="lm", bold=True)
        card_strip(image, row.cards, box.cards_x, y + ROW_GAP, CARD_W, box.cards_w, view.korean_months)
        text(draw, (WIDTH - MARGIN - 14, mid), f"{row.points}", 24, fill=GOLD, anchor="rm",
             bold=True)
        y += row_h + 4
    y += 12
    if view.multipliers:
        x = MARGIN
        for label in view.multipliers:  # as many as fit the width, in order of importance
            if x + text_width(label, SMALL) + SMALL > WIDTH - MARGIN:
                break
            x = chip(draw, x, y, label, SMALL, bg=GOLD, height=30) + 8
        y += mult_h
    for line in view.result_lines:
        fitted_text(draw, (MARGIN, y + RESULT_H // 2), line, 22, WIDTH - 2 * MARGIN, min_size=SMALL, fill=TEXT,
                    anchor="lm", bold=True)
        y += RESULT_H
    return image


def render_summary(view: SummaryView) -> bytes:
    """PNG bytes of the round summary for ``view``, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(summary_image(view))
