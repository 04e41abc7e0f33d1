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
    fitted_text,
    new_canvas,
    outline_card,
    place_card,
    text,
    text_width,
    wrap_text,
)
from .encode import encode_png
from .fonts import caption_font, latin_safe, month_caption
from .sprites import card_height
from .view import HandView

TITLE_H = 44
RAISE = 12  # playable cards sit a little higher
LEGEND_H = 30
TITLE_SMALL = 16  # a title in two lines
LEGEND_SIZE = 15
CAPTION_SIZE = 17
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


def _legend(draw, view: HandView, marked: frozenset[str], y: float, width: float) -> None:
    """The line under the cards: the decision's choices, else what the marked cards mean."""
    if view.decision:
        lead = t("Decide: ")
        chips_w = sum(text_width(c, LEGEND_SIZE) + LEGEND_SIZE + 8 for c in view.decision)
        if text_width(lead, LEGEND_SIZE, True) + chips_w <= width:
            x = MARGIN + text(draw, (MARGIN, y), lead, LEGEND_SIZE, fill=HIGHLIGHT, anchor="lm", bold=True)
            for choice in view.decision:
                x = chip(draw, x, y - 12, choice, LEGEND_SIZE, bg=HIGHLIGHT, height=24) + 8
        else:
            fitted_text(draw, (MARGIN, y), lead + t(" or ").join(view.decision), LEGEND_SIZE, width,
                        fill=HIGHLIGHT, anchor="lm", bold=True)
        return
    legend = view.legend or t(CAPTURES if marked else NO_CAPTURE)
    fitted_text(draw, (MARGIN, y), legend, LEGEND_SIZE, width, fill=TEXT, anchor="lm")


def _title(draw, title: str, width: float) -> None:
    """The title on one line, smaller if need be; a long prompt on narrow hands takes two."""
    shown, px = fit_line(title, 22, width, bold=True)
    if not shown.endswith(ELLIPSIS) or shown == latin_safe(title):
        text(draw, (MARGIN, TITLE_H // 2 + 2), shown, px, anchor="lm", bold=True)
        return
    lines = wrap_text(title, TITLE_SMALL, width - 2, max_lines=2)  # bold draws a pixel wider a side
    for i, line in enumerate(lines):
        y = TITLE_H // 2 + 2 + (i - (len(lines) - 1) / 2) * (TITLE_SMALL + 3)
        text(draw, (MARGIN, y), line, TITLE_SMALL, anchor="lm", bold=True)


def hand_image(view: HandView, cjk_font: str | None = None) -> Image.Image:
    """Compose the hand (RGB). Month captions use kanji only when a CJK font is available."""
    n = len(view.cards)
    w = _card_width(n)
    gap = 12 if n <= 8 else 10
    ch = card_height(w)
    width = max(460, 2 * MARGIN + n * w + max(0, n - 1) * gap)
    lines = bool(view.caption) + has_legend(view)
    height = TITLE_H + RAISE + ch + 8 + 34 + 22 + lines * LEGEND_H + 8
    image, draw = new_canvas(width, height)
    _title(draw, view.title or t("Your hand"), width - 2 * MARGIN)
    playable = marked_cards(view)
    top = TITLE_H + RAISE
    for i, cid in enumerate(view.cards):
        x = MARGIN + i * (w + gap)
        is_marked = cid in playable
        y = top - RAISE if is_marked else top
        place_card(image, cid, x, y, w, view.korean_months, with_shadow=True)
        if is_marked:
            outline_card(draw, x, y, w, colour=PLAYABLE, thickness=4)
        cx, cy = x + w / 2, top + ch + 8 + 15
        disc = PLAYABLE if is_marked else (224, 218, 200)
        draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=disc, outline=INK, width=2)
        text(draw, (cx, cy + 1), str(i + 1), 18, fill=INK, anchor="mm", bold=True)
        if cid in JOKER_PI:
            caption, is_cjk = t("joker {pi} pi", pi=JOKER_PI[cid]), False
        else:
            caption, is_cjk = month_caption(card(cid).month, cjk_font, view.korean_months)
        if is_cjk:
            draw.text((cx, cy + 30), caption, font=caption_font(13, True, cjk_font), fill=MUTED, anchor="mm")
        else:
            shown, px = fit_line(caption, 13, w + gap - 2, min_size=11)
            if shown != caption:  # "Sep chrysanthemum": the plant alone, the month is in the corner
                shown, px = fit_line(caption.split(" ", 1)[-1], 13, w + gap - 2, min_size=11)
            text(draw, (cx, cy + 30), shown, px, fill=MUTED, anchor="mm")
    bottom = height - LEGEND_H // 2 - 6
    if view.caption:  # right under the cards, the choices of the turn below it
        y = bottom - LEGEND_H if has_legend(view) else bottom
        fitted_text(draw, (MARGIN, y), view.caption, CAPTION_SIZE, width - 2 * MARGIN, fill=GOLD,
                    anchor="lm", bold=True)
    if has_legend(view):
        _legend(draw, view, playable, bottom, width - 2 * MARGIN)
    return image


def render_hand(view: HandView, cjk_font: str | None = None) -> bytes:
    """PNG bytes of the hand image for ``view``, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(hand_image(view, cjk_font))
