"""A player's card as an image: their totals, and per game their record, best yaku, rating and
rating history (a small line chart)."""

from __future__ import annotations

from PIL import Image

from bot.i18n import number, speaking, t

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, fitted_text, new_canvas, text, wrap_text
from .charts import sparkline
from .encode import encode_png
from .view import CardView

WIDTH = IMAGE_WIDTH
HEADER_H = 84
TILE_H = 72
TILE_GAP = 10
PANEL_H = 118
PANEL_GAP = 8
TEXT_COL = (MARGIN + 16, 560)  # the game's words
CHART_COL = (600, WIDTH - MARGIN - 70)  # its rating history, the latest value to the right
NAME_SIZE = 30


def card_height(view: CardView) -> int:
    panels = len(view.games) * (PANEL_H + PANEL_GAP)
    tiles = TILE_H + 16 if view.totals else 0
    return HEADER_H + tiles + panels + (56 if view.note else 0) + MARGIN


def panel_top(view: CardView, index: int) -> int:
    """Where the panel of game ``index`` starts."""
    return HEADER_H + (TILE_H + 16 if view.totals else 0) + index * (PANEL_H + PANEL_GAP)


def card_image(view: CardView) -> Image.Image:
    """Compose the card (RGB)."""
    image, draw = new_canvas(WIDTH, card_height(view))
    fitted_text(draw, (MARGIN, 32), view.name, NAME_SIZE, WIDTH - 2 * MARGIN, anchor="lm",
                bold=True)
    fitted_text(draw, (MARGIN, 66), view.subtitle, 16, WIDTH - 2 * MARGIN, fill=MUTED,
                anchor="lm")
    if view.totals:
        count = len(view.totals)
        tile_w = (WIDTH - 2 * MARGIN - (count - 1) * TILE_GAP) / count
        for i, (label, value) in enumerate(view.totals):
            x = MARGIN + i * (tile_w + TILE_GAP)
            draw.rounded_rectangle((x, HEADER_H, x + tile_w, HEADER_H + TILE_H), radius=10,
                                   fill=PANEL + (200,))
            fitted_text(draw, (x + 14, HEADER_H + 26), value, 26, tile_w - 28, anchor="lm",
                        bold=True)
            fitted_text(draw, (x + 14, HEADER_H + 55), label, 15, tile_w - 28, fill=MUTED,
                        anchor="lm")
    text_w = TEXT_COL[1] - TEXT_COL[0]
    for i, game in enumerate(view.games):
        top = panel_top(view, i)
        draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + PANEL_H), radius=12,
                               fill=PANEL + (190 if i % 2 == 0 else 130,))
        x = TEXT_COL[0]
        fitted_text(draw, (x, top + 20), game.title, 22, text_w, anchor="lm", bold=True)
        fitted_text(draw, (x, top + 48), game.record, 17, text_w, anchor="lm")
        if game.best_yaku:
            fitted_text(draw, (x, top + 72), t("Best yaku: {yaku}", yaku=game.best_yaku), 16,
                        text_w, fill=MUTED, anchor="lm")
        if game.rating:
            fitted_text(draw, (x, top + 96), t("Rating {rating}", rating=game.rating), 17, text_w,
                        fill=GOLD, anchor="lm", bold=True)
        chart = (CHART_COL[0], top + 30, CHART_COL[1], top + PANEL_H - 18)
        fitted_text(draw, (CHART_COL[0], top + 16), t("Rating after each game"), 14,
                    CHART_COL[1] - CHART_COL[0], fill=MUTED, anchor="lm")
        if game.history:
            draw.line((chart[0], chart[3], chart[2], chart[3]), fill=MUTED + (90,), width=1)
            sparkline(draw, chart, game.history, width=3)
            low, high = min(game.history), max(game.history)
            text(draw, (CHART_COL[1] + 12, chart[1]), number(round(high)), 14, fill=MUTED,
                 anchor="lm")
            if high > low:
                text(draw, (CHART_COL[1] + 12, chart[3]), number(round(low)), 14, fill=MUTED,
                     anchor="lm")
        else:
            fitted_text(draw, ((chart[0] + chart[2]) / 2, (chart[1] + chart[3]) / 2),
                        t("No rated games yet"), 16, chart[2] - chart[0], fill=MUTED,
                        anchor="mm")
    y = panel_top(view, len(view.games)) + 4
    for line in wrap_text(view.note, 16, WIDTH - 2 * MARGIN, max_lines=2) if view.note else ():
        text(draw, (MARGIN, y + 12), line, 16, fill=MUTED if view.games else TEXT, anchor="lm")
        y += 24
    return image


def render_card(view: CardView) -> bytes:
    """PNG bytes of a player's card, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(card_image(view))
