"""A player's private hand: cards numbered 1..n like the buttons, capturing cards marked."""

from __future__ import annotations

from PIL import Image

from bot.cards import card

from .art.jokers import JOKER_PI
from .art.palette import INK, MUTED, PLAYABLE, TEXT
from .canvas import (
    MARGIN,
    fit_text,
    new_canvas,
    outline_card,
    place_card,
    text,
    text_width,
)
from .encode import encode_png
from .fonts import caption_font, month_caption
from .sprites import card_height
from .view import HandView

TITLE_H = 44
RAISE = 12  # capturing cards sit a little higher
LEGEND_H = 30


def _card_width(n: int) -> int:
    return 96 if n <= 8 else 86


def hand_image(view: HandView, cjk_font: str | None = None) -> Image.Image:
    """Compose the hand (RGB). Month captions use kanji only when a CJK font is available."""
    n = len(view.cards)
    w = _card_width(n)
    gap = 12 if n <= 8 else 10
    ch = card_height(w)
    width = max(460, 2 * MARGIN + n * w + max(0, n - 1) * gap)
    height = TITLE_H + RAISE + ch + 8 + 34 + 22 + LEGEND_H + 8
    image, draw = new_canvas(width, height)
    text(draw, (MARGIN, TITLE_H // 2 + 2), fit_text(view.title or "Your hand", 22, width - 40), 22,
         anchor="lm", bold=True)
    playable = set(view.playable)
    top = TITLE_H + RAISE
    for i, cid in enumerate(view.cards):
        x = MARGIN + i * (w + gap)
        can_capture = cid in playable
        y = top - RAISE if can_capture else top
        place_card(image, cid, x, y, w, view.korean_months, with_shadow=True)
        if can_capture:
            outline_card(draw, x, y, w, colour=PLAYABLE, thickness=4)
        cx, cy = x + w / 2, top + ch + 8 + 15
        disc = PLAYABLE if can_capture else (224, 218, 200)
        draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=disc, outline=INK, width=2)
        text(draw, (cx, cy + 1), str(i + 1), 18, fill=INK, anchor="mm", bold=True)
        if cid in JOKER_PI:
            caption, is_cjk = f"joker {JOKER_PI[cid]} pi", False
        else:
            caption, is_cjk = month_caption(card(cid).month, cjk_font, view.korean_months)
        font = caption_font(13, is_cjk, cjk_font)
        draw.text((cx, cy + 30), caption if is_cjk else fit_text(caption, 13, w + gap - 2),
                  font=font, fill=MUTED, anchor="mm")
    if playable:
        legend = "Raised with a green frame and green number: captures a field card now."
    else:
        legend = "No card captures now: any card you play stays on the field."
    if text_width(legend, 15) > width - 2 * MARGIN:
        legend = "Green: captures now." if playable else "No capture possible now."
    text(draw, (MARGIN, height - LEGEND_H // 2 - 6), legend, 15, fill=TEXT, anchor="lm")
    return image


def render_hand(view: HandView, cjk_font: str | None = None) -> bytes:
    """PNG bytes of the hand image for ``view``."""
    return encode_png(hand_image(view, cjk_font))
