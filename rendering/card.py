"""A player's card as an image: their totals, and per game their record, best yaku, rating and
rating history (a small line chart)."""

from __future__ import annotations

from PIL import Image

from bot.i18n import number, speaking, t

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, SMALL, fitted_text, new_canvas, panel, text, wrap_text
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


TILES_PER_ROW = 6  # more would cut their labels short: the tiles then take two rows


def tile_rows(view: CardView) -> list[tuple[tuple[str, str], ...]]:
    """The totals' tiles by row: one row of up to :data:`TILES_PER_ROW`, else two as even as
    they come."""
    totals = view.totals
    if len(totals) <= TILES_PER_ROW:
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
        count, top = len(tiles), HEADER_H + row * (TILE_H + 16)
        tile_w = (WIDTH - 2 * MARGIN - (count - 1) * TILE_GAP) / count
        for i, (label, value) in enumerate(tiles):
            x = MARGIN + i * (tile_w + TILE_GAP)
            panel(draw, (x, top, x + tile_w, top + TILE_H), 10, PANEL + (200,))
            fitted_text(draw, (x + 14, top + 26), value, 26, tile_w - 28, min_size=SMALL, anchor="lm",
                        bold=True)
            fitted_text(draw, (x + 14, top + 58), label, SMALL, tile_w - 28, min_size=SMALL, fill=MUTED,
                        anchor="lm")
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
