"""A player's card as an image: their totals, and per game their record, best yaku, rating and
rating history (a small line chart)."""

from __future__ import annotations

from PIL import Image

from bot.i18n import number, speaking, t

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import (
    IMAGE_WIDTH,
    MARGIN,
    SMALL,
    fitted_text,
    new_canvas,
    panel,
    text,
    text_width,
    wrap_text,
)
from .charts import sparkline
from .encode import encode_png
from .view import CardView

WIDTH = IMAGE_WIDTH
HEADER_H = 90
TILE_H = 78
TILE_GAP = 10
PANEL_H = 118
PANEL_GAP = 8
TEXT_COL = (MARGIN + 16, 560)  # the game's words
CHART_COL = (600, WIDTH - MARGIN - 86)  # its rating history, the highest and lowest to the right
NOTE_H = 26  # a line of the note at the bottom
NAME_SIZE = 30


TILE_PAD = 14  # the text's margin inside a tile, each side
VALUE_SIZE = 26


def tile_width(count: int) -> float:
    """The width of each tile in a row of ``count``."""
    return (WIDTH - 2 * MARGIN - (count - 1) * TILE_GAP) / count


def _fit(tiles: tuple[tuple[str, str], ...]) -> bool:
    """Whether every label and value of a row of ``tiles`` is drawn whole at the smallest
    readable size (a label is never made smaller, nor cut short: "Achieveme...")."""
    inner = tile_width(len(tiles)) - 2 * TILE_PAD
    return all(text_width(label, SMALL) <= inner and text_width(value, SMALL, bold=True) <= inner
               for label, value in tiles)


def tile_rows(view: CardView) -> list[tuple[tuple[str, str], ...]]:
    """The totals' tiles by row: one row when every label and value fits in it (in the language
    it is drawn in), else two as even as they come."""
    totals = view.totals
    if not totals or _fit(totals):
        return [totals] if totals else []
    half = -(-len(totals) // 2)
    return [totals[:half], totals[half:]]


def _tiles_h(view: CardView) -> int:
    return len(tile_rows(view)) * (TILE_H + 16)


def card_height(view: CardView) -> int:
    panels = len(view.games) * (PANEL_H + PANEL_GAP)
    return HEADER_H + _tiles_h(view) + panels + (2 * NOTE_H + 8 if view.note else 0) + MARGIN


def panel_top(view: CardView, index: int) -> int:
    """Where the panel of game ``index`` starts."""
    return HEADER_H + _tiles_h(view) + index * (PANEL_H + PANEL_GAP)


def card_image(view: CardView) -> Image.Image:
    """Compose the card (RGB)."""
    image, draw = new_canvas(WIDTH, card_height(view))
    fitted_text(draw, (MARGIN, 32), view.name, NAME_SIZE, WIDTH - 2 * MARGIN, anchor="lm",
                bold=True)
    fitted_text(draw, (MARGIN, 68), view.subtitle, SMALL, WIDTH - 2 * MARGIN, min_size=SMALL, fill=MUTED,
                anchor="lm")
    for row, tiles in enumerate(tile_rows(view)):
        top, tile_w = HEADER_H + row * (TILE_H + 16), tile_width(len(tiles))
        for i, (label, value) in enumerate(tiles):
            x = MARGIN + i * (tile_w + TILE_GAP)
            panel(draw, (x, top, x + tile_w, top + TILE_H), 10, PANEL + (200,))
            fitted_text(draw, (x + TILE_PAD, top + 26), value, VALUE_SIZE, tile_w - 2 * TILE_PAD,
                        min_size=SMALL, anchor="lm", bold=True)
            fitted_text(draw, (x + TILE_PAD, top + 58), label, SMALL, tile_w - 2 * TILE_PAD,
                        min_size=SMALL, fill=MUTED, anchor="lm")
    text_w = TEXT_COL[1] - TEXT_COL[0]
    for i, game in enumerate(view.games):
        top = panel_top(view, i)
        panel(draw, (MARGIN, top, WIDTH - MARGIN, top + PANEL_H), 12,
              PANEL + (190 if i % 2 == 0 else 130,))
        x = TEXT_COL[0]
        fitted_text(draw, (x, top + 20), game.title, 22, text_w, min_size=SMALL, anchor="lm", bold=True)
        fitted_text(draw, (x, top + 46), game.record, SMALL, text_w, min_size=SMALL, anchor="lm")
        if game.best_yaku:
            fitted_text(draw, (x, top + 70), t("Best yaku: {yaku}", yaku=game.best_yaku), SMALL,
                        text_w, min_size=SMALL, fill=MUTED, anchor="lm")
        if game.rating:
            fitted_text(draw, (x, top + 95), t("Rating {rating}", rating=game.rating), SMALL, text_w,
                        min_size=SMALL, fill=GOLD, anchor="lm", bold=True)
        chart = (CHART_COL[0], top + 34, CHART_COL[1], top + PANEL_H - 18)
        fitted_text(draw, (CHART_COL[0], top + 18), t("Rating after each game"), SMALL,
                    CHART_COL[1] - CHART_COL[0], min_size=SMALL, fill=MUTED, anchor="lm")
        if game.history:
            draw.line((chart[0], chart[3], chart[2], chart[3]), fill=MUTED + (90,), width=1)
            sparkline(draw, chart, game.history, width=3)
            low, high = min(game.history), max(game.history)
            text(draw, (CHART_COL[1] + 12, chart[1]), number(round(high)), SMALL, fill=MUTED,
                 anchor="lm")
            if high > low:
                text(draw, (CHART_COL[1] + 12, chart[3]), number(round(low)), SMALL, fill=MUTED,
                     anchor="lm")
        else:
            fitted_text(draw, ((chart[0] + chart[2]) / 2, (chart[1] + chart[3]) / 2),
                        t("No rated games yet"), SMALL, chart[2] - chart[0], min_size=SMALL, fill=MUTED,
                        anchor="mm")
    y = panel_top(view, len(view.games)) + 4
    for line in wrap_text(view.note, SMALL, WIDTH - 2 * MARGIN, max_lines=2) if view.note else ():
        text(draw, (MARGIN, y + 14), line, SMALL, fill=MUTED if view.games else TEXT, anchor="lm")
        y += NOTE_H
    return image


def render_card(view: CardView) -> bytes:
    """PNG bytes of a player's card, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(card_image(view))
