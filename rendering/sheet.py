"""Yaku reference sheets (one per game) for the rules command."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.i18n import speaking, t, tp

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import (
    IMAGE_WIDTH,
    MARGIN,
    SMALL,
    card_strip,
    fit_text,
    new_canvas,
    panel,
    text,
    text_width,
    wrap_text,
)
from .encode import encode_png
from .sheet_data import SHEETS
from .sprites import card_height
from .view import GAMES

WIDTH = IMAGE_WIDTH
CARD_W = 52
HEADER_H = 82
CARDS_COL = 200
LINE_H = 23  # a line of an entry's description
NOTE_H = 26
POINTS_COL = 54
COLUMN_GAP = 12


def sheet_image(game: str) -> Image.Image:
    """Compose the reference sheet of ``game`` (RGB); one or two columns of entries."""
    if game not in SHEETS:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    sheet = SHEETS[game]
    columns = 2 if len(sheet.entries) > 6 else 1
    col_w = (WIDTH - 2 * MARGIN - (columns - 1) * COLUMN_GAP) // columns
    row_h = max(card_height(CARD_W) + 14, 42 + 3 * LINE_H)  # the name and three lines beside the cards
    per_col = -(-len(sheet.entries) // columns)
    notes_h = 10 + NOTE_H * len(sheet.notes)
    height = HEADER_H + per_col * (row_h + 6) + notes_h + MARGIN
    image, draw = new_canvas(WIDTH, height)
    text(draw, (MARGIN, 26), t(sheet.title), 26, anchor="lm", bold=True)
    text(draw, (MARGIN, 60), fit_text(t(sheet.intro), SMALL, WIDTH - 2 * MARGIN), SMALL, fill=MUTED,
         anchor="lm")
    korean = game == "gostop"
    widest = max(len(e.cards) for e in sheet.entries)  # a sheet of pairs (Seotda) needs less room
    cards_col = min(CARDS_COL, 12 + CARD_W + (widest - 1) * (CARD_W + 4) + 24)
    points_w = max(POINTS_COL, *(int(text_width(tp("yaku points", e.points), 22, True)) + 20
                                  for e in sheet.entries))
    for i, entry in enumerate(sheet.entries):
        col, row = divmod(i, per_col)
        x = MARGIN + col * (col_w + COLUMN_GAP)
        y = HEADER_H + row * (row_h + 6)
        panel(draw, (x, y, x + col_w, y + row_h), 10, PANEL + (200 if row % 2 == 0 else 130,))
        card_strip(image, entry.cards, x + 8, y + 7, CARD_W, cards_col - 12, korean)
        tx = x + cards_col + 6
        text_w = col_w - cards_col - points_w - 12
        text(draw, (tx, y + 18), fit_text(tp("yaku sheet", entry.name), SMALL, text_w, True), SMALL, anchor="lm",
             bold=True)
        for j, line in enumerate(wrap_text(t(entry.description), SMALL, text_w, max_lines=3)):
            text(draw, (tx, y + 42 + j * LINE_H), line, SMALL, fill=TEXT, anchor="lm")
        text(draw, (x + col_w - 10, y + row_h // 2), tp("yaku points", entry.points), 22, fill=GOLD, anchor="rm",
             bold=True)
    y = HEADER_H + per_col * (row_h + 6) + 6
    for note in sheet.notes:
        text(draw, (MARGIN, y + 12), fit_text(t(note), SMALL, WIDTH - 2 * MARGIN), SMALL, fill=MUTED,
             anchor="lm")
        y += NOTE_H
    return image


@lru_cache(maxsize=3 * len(GAMES))  # a sheet per game and language
def render_yaku_sheet(game: str, language: str = "en") -> bytes:
    """PNG bytes of the yaku reference sheet of ``game`` in ``language`` (cached: the sheets
    never change)."""
    with speaking(language):
        return encode_png(sheet_image(game))
