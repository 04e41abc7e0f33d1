"""The card chart of a game: the cards it is played with, month by month, with each month's
flower and a legend of the kind symbols in the cards' corners, for ``/rules`` and the Activity's
How to play (a newcomer's first question is which cards belong together)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.cards import DECK, MONTHS, card
from bot.games.descriptor import descriptor
from bot.i18n import N_, speaking, t

from .art.palette import MUTED, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, SMALL, new_canvas, place_card, text, text_width, wrap_text
from .encode import encode_png
from .fonts import caption_font, month_caption
from .sprites import card_height, kind_symbol
from .view import GAME_NAMES, GAMES

CARD_W = 72  # a width the workers draw sprites at: three months of four cards fill 1,000 px
GAP, LABEL_H, COLUMN_GAP, ROW_GAP = 8, 30, 16, 20
HEADER_H = 78
DECK_IDS = frozenset(c.id for c in DECK)  # the bonus cards are none of the 48: no kind, no legend
LEGEND = (("crane", N_("bright")), ("boar", N_("animal")), ("poetry_ribbon_jan", N_("poetry ribbon")),
          ("plain_ribbon_apr", N_("red ribbon")), ("blue_ribbon_jun", N_("blue ribbon")),
          ("pine_chaff_1", N_("chaff")))


def game_cards(game: str | None) -> tuple[list[tuple[int, list[str]]], tuple[str, ...]]:
    """The cards ``game`` is played with (all 48 for None) as (month, card ids) in the order
    its players number the months, and the bonus cards its house rules may add."""
    found = descriptor(game) if game is not None else None
    ids = (found.cards if found is not None and found.cards else None) or tuple(c.id for c in DECK)
    by_month: dict[int, list[str]] = {}
    for cid in ids:
        by_month.setdefault(card(cid).month, []).append(cid)
    korean = found is not None and found.korean_months
    order = sorted(by_month, key=lambda m: MONTHS[m - 1].korean_number if korean else m)
    return [(m, by_month[m]) for m in order], (found.bonus_cards if found is not None else ())


def deck_image(game: str | None = None, card_w: int = CARD_W, cjk_font: str | None = None,
               column_gap: int = COLUMN_GAP) -> Image.Image:
    """The chart of ``game``'s cards (RGB); for None all 48 without a heading (the docs' chart)."""
    if game is not None and game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    months, bonus = game_cards(game)
    korean = game is not None and descriptor(game).korean_months
    # (caption, its font: None lets the text pick one for its script, cards)
    groups: list[tuple[str, Any, list[str]]] = []
    for month, ids in months:
        caption, is_cjk = month_caption(month, cjk_font, korean)
        # the corner's number before a caption that has none ("1  Jan pine"; "1월 송학" has)
        groups.append((caption if caption[:1].isdigit() else f"{month}  {caption}",
                       caption_font(18, is_cjk, cjk_font), ids))
    if bonus:
        groups.append((t("Bonus cards (house rules)"), None, list(bonus)))
    widest = max(len(ids) for _, _, ids in groups)
    # a month is as wide as its cards, or its caption where that is wider (Seotda's two cards)
    captions = max(font.getlength(c) if font is not None else text_width(c, 18) for c, font, _ in groups)
    group_w = max(widest * card_w + (widest - 1) * GAP, int(captions) + 12)
    cols = 3 if widest >= 3 else max(1, (IMAGE_WIDTH - 2 * MARGIN + column_gap) // (group_w + column_gap))
    rows = -(-len(groups) // cols)
    ch = card_height(card_w)
    kinds = {(card(cid).kind, card(cid).ribbon) for _, _, ids in groups for cid in ids if cid in DECK_IDS}
    legend = [(cid, label) for cid, label in LEGEND if (card(cid).kind, card(cid).ribbon) in kinds]
    # as wide as its months, and never narrower than its legend (Seotda's are narrow)
    width = max(2 * MARGIN + cols * group_w + (cols - 1) * column_gap,
                2 * MARGIN + int(_legend(None, 0, 0, legend, korean)))
    note = descriptor(game).cards_note if game is not None else None
    note_lines = wrap_text(t(note), SMALL, width - 2 * MARGIN, max_lines=3) if note else []
    top = MARGIN if game is None else HEADER_H + 24 * len(note_lines)
    height = top + rows * (LABEL_H + ch + ROW_GAP) + 40
    image, draw = new_canvas(width, height)
    if game is not None:
        text(draw, (MARGIN, 26), t("The cards of {game}", game=GAME_NAMES[game]), 26, anchor="lm",
             bold=True)
        text(draw, (MARGIN, 58), t("Each month has its flower; a card's corner gives its month and "
                                   "kind."), SMALL, fill=MUTED, anchor="lm")
        for i, line in enumerate(note_lines):
            text(draw, (MARGIN, 82 + 24 * i), line, SMALL, fill=MUTED, anchor="lm")
    for i, (caption, font, ids) in enumerate(groups):
        col, row = i % cols, i // cols
        x = MARGIN + col * (group_w + column_gap)
        y = top + row * (LABEL_H + ch + ROW_GAP)
        text(draw, (x, y + 12), caption, 18, fill=TEXT, anchor="lm", font=font)
        for j, cid in enumerate(ids):
            place_card(image, cid, x + j * (card_w + GAP), y + LABEL_H, card_w, korean, with_shadow=True)
    _legend(draw, MARGIN, height - 26, legend, korean)
    return image


def _legend(draw: ImageDraw.ImageDraw | None, x: int, y: int, items: list[tuple[str, str]],
            korean: bool = False) -> float:
    """The kind symbols of the cards shown, each with its name; where it ends. Without a
    ``draw``, only measured."""
    start = x
    said = t("Corner index: month number over the kind:")
    x += (text(draw, (x, y), said, 16, fill=MUTED, anchor="lm") if draw else text_width(said, 16)) + 10
    for cid, label in items:
        if draw is not None:
            draw.ellipse((x - 2, y - 13, x + 24, y + 13), fill=(236, 230, 212))
            kind_symbol(draw, card(cid), x + 11, y, 8, korean)
            x += 30 + text(draw, (x + 30, y), t(label), 16, fill=TEXT, anchor="lm") + 10
        else:
            x += 30 + text_width(t(label), 16) + 10
    return x - start


@lru_cache(maxsize=3 * len(GAMES))  # a chart per game and language
def render_deck_sheet(game: str, language: str = "en") -> bytes:
    """PNG bytes of the card chart of ``game`` in ``language`` (cached: the charts never change)."""
    with speaking(language):
        return encode_png(deck_image(game))
