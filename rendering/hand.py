"""A player's private hand: cards numbered 1..n like the buttons, playable cards marked, or the
choices of a decision when the turn plays no hand card; a ranked hand (Seotda) with its rank."""

from __future__ import annotations

from PIL import Image

from bot.cards import card
from bot.i18n import N_, speaking, t

from .art.jokers import JOKER_PI
from .art.palette import GOLD, HIGHLIGHT, INK, MUTED, PLAYABLE, TEXT
from .canvas import (
    ELLIPSIS,
    MARGIN,
    chip,
    fit_line,
    fit_text,
    fitted_text,
    new_canvas,
    outline_card,
    place_card,
    readable,
    text,
    text_width,
    wrap_text,
)
from .encode import encode_png
from .fonts import caption_font, latin_safe, month_caption
from .sprites import card_height
from .view import HandView

TITLE_H = 50
RAISE = 12  # playable cards sit a little higher
LEGEND_H = 34
TITLE_SIZE = 22
TITLE_SMALL = 16  # a title in two lines
LEGEND_SIZE = 15
CAPTION_SIZE = 17
MONTH_SIZE = 13  # the month under each card
NUMBER_SIZE = 20  # the card's number, as its button has it
CAPTURES = N_("Raised with a green frame and green number: captures a field card now.")
NO_CAPTURE = N_("No card captures now: any card you play stays on the field.")


def _card_width(n: int) -> int:
    return 96 if n <= 8 else 86


def marked_cards(view: HandView) -> frozenset[str]:
    """The cards raised and framed: none while the player decides something else."""
    return frozenset() if view.decision else frozenset(view.playable) & frozenset(view.cards)


def has_legend(view: HandView) -> bool:
    """Whether the line of choices or of what the marked cards mean is drawn: a hand with a
    caption belongs to a game without a field, so the capture wording never stands in for it."""
    return bool(view.decision or view.legend or not view.caption)


def _legend(draw, view: HandView, marked: frozenset[str], y: float, width: float, small: int) -> None:
    """The line under the cards: the decision's choices, else what the marked cards mean."""
    size = max(LEGEND_SIZE, small)
    if view.decision:
        lead = t("Decide: ")
        chips_w = sum(text_width(c, size) + size + 8 for c in view.decision)
        if text_width(lead, size, True) + chips_w <= width:
            x = MARGIN + text(draw, (MARGIN, y), lead, size, fill=HIGHLIGHT, anchor="lm", bold=True)
            for choice in view.decision:
                x = chip(draw, x, y - size * 3 // 4, choice, size, bg=HIGHLIGHT, height=size * 3 // 2) + 8
        else:
            fitted_text(draw, (MARGIN, y), lead + t(" or ").join(view.decision), size, width,
                        min_size=size, fill=HIGHLIGHT, anchor="lm", bold=True)
        return
    legend = view.legend or t(CAPTURES if marked else NO_CAPTURE)
    fitted_text(draw, (MARGIN, y), legend, size, width, min_size=size, fill=TEXT, anchor="lm")


def _title(draw, title: str, width: float, small: int) -> None:
    """The title on one line, smaller if need be; a long prompt on narrow hands takes two."""
    lowest = max(small, round(TITLE_SIZE * 0.75))
    shown, px = fit_line(title, TITLE_SIZE, width, min_size=lowest, bold=True)
    if not shown.endswith(ELLIPSIS) or shown == latin_safe(title):
        text(draw, (MARGIN, TITLE_H // 2 + 2), shown, px, anchor="lm", bold=True)
        return
    size = max(TITLE_SMALL, small)
    lines = wrap_text(title, size, width - 2, max_lines=2)  # bold draws a pixel wider a side
    for i, line in enumerate(lines):
        y = TITLE_H // 2 + 2 + (i - (len(lines) - 1) / 2) * (size + 3)
        text(draw, (MARGIN, y), line, size, anchor="lm", bold=True)


def _month(cid: str, korean: bool, room: float, size: int, cjk_font: str | None) -> tuple[str, bool]:
    """The caption under a card and whether it needs the CJK font: its month and plant, else
    the plant alone, else the month alone (the plant is on the card) when the line is short."""
    if cid in JOKER_PI:
        return t("joker {pi} pi", pi=JOKER_PI[cid]), False
    caption, is_cjk = month_caption(card(cid).month, cjk_font, korean)
    if is_cjk:
        return caption, True
    month, plant = caption.split(" ", 1)
    return next((c for c in (caption, plant) if text_width(c, size) <= room), month), False


def hand_image(view: HandView, cjk_font: str | None = None) -> Image.Image:
    """Compose the hand (RGB). Month captions use kanji only when a CJK font is available."""
    n = len(view.cards)
    w = _card_width(n)
    gap = 12 if n <= 8 else 10
    ch = card_height(w)
    width = max(460, 2 * MARGIN + n * w + max(0, n - 1) * gap)
    small = readable(width)
    month_size = max(MONTH_SIZE, small)
    lines = bool(view.caption) + has_legend(view)
    height = TITLE_H + RAISE + ch + 8 + 36 + month_size + 8 + lines * LEGEND_H + 8
    image, draw = new_canvas(width, height)
    _title(draw, view.title or t("Your hand"), width - 2 * MARGIN, small)
    playable = marked_cards(view)
    top = TITLE_H + RAISE
    for i, cid in enumerate(view.cards):
        x = MARGIN + i * (w + gap)
        is_marked = cid in playable
        y = top - RAISE if is_marked else top
        place_card(image, cid, x, y, w, view.korean_months, with_shadow=True)
        if is_marked:
            outline_card(draw, x, y, w, colour=PLAYABLE, thickness=4)
        cx, cy = x + w / 2, top + ch + 8 + 16
        disc = PLAYABLE if is_marked else (224, 218, 200)
        draw.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), fill=disc, outline=INK, width=2)
        text(draw, (cx, cy + 1), str(i + 1), NUMBER_SIZE, fill=INK, anchor="mm", bold=True)
        caption, is_cjk = _month(cid, view.korean_months, w + gap - 4, month_size, cjk_font)
        font = caption_font(month_size, True, cjk_font) if is_cjk else None
        text(draw, (cx, cy + 22 + month_size // 2), fit_text(caption, month_size, w + gap - 4), month_size,
             fill=MUTED, anchor="mm", font=font)
    bottom = height - LEGEND_H // 2 - 6
    if view.caption:  # right under the cards, the choices of the turn below it
        y = bottom - LEGEND_H if has_legend(view) else bottom
        size = max(CAPTION_SIZE, small)
        fitted_text(draw, (MARGIN, y), view.caption, size, width - 2 * MARGIN, min_size=size, fill=GOLD,
                    anchor="lm", bold=True)
    if has_legend(view):
        _legend(draw, view, playable, bottom, width - 2 * MARGIN, small)
    return image


def render_hand(view: HandView, cjk_font: str | None = None) -> bytes:
    """PNG bytes of the hand image for ``view``, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(hand_image(view, cjk_font))
