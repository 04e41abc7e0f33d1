"""The showdown of a betting game (Seotda): every hand shown face up with its name, what it did
(caught a gwang-ttaeng, called a redeal), the chips each took and its net, then who took which
pot; a redeal is announced in a band across the top."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import t

from .art.palette import GOLD, HIGHLIGHT, INK, MUTED, PANEL, TEXT
from .canvas import (
    IMAGE_WIDTH,
    MARGIN,
    SMALL,
    chip,
    fit_text,
    fitted_text,
    new_canvas,
    panel,
    place_card,
    text,
    text_width,
)
from .sprites import card_height
from .view import ShownHand, SummaryView

WIDTH = IMAGE_WIDTH
TITLE_H = 56
BANNER_H = 44
CARD_W = 72
GAP = 12
PAD = 10
LINE_H = 30
RESULT_H = 32
WORDS_H = 124  # the five lines beside a hand's cards
LOSS = (236, 140, 120)


def _panel_height() -> int:
    return PAD + max(card_height(CARD_W), WORDS_H) + PAD


def _signed(chips: int) -> str:
    return f"+{chips:,}" if chips > 0 else f"{chips:,}"


def _draw_hand(image: Image.Image, draw: ImageDraw.ImageDraw, hand: ShownHand, x: int, y: int,
               width: int) -> None:
    height = _panel_height()
    panel(draw, (x, y, x + width, y + height), 12, PANEL + (215,),
          outline=HIGHLIGHT if hand.winner else None, width=3 if hand.winner else 0)
    cx = x + PAD + 4
    for i, cid in enumerate(hand.cards):
        place_card(image, cid, cx + i * (CARD_W + 6), y + PAD, CARD_W, with_shadow=True)
    tx = cx + len(hand.cards) * (CARD_W + 6) + 8
    right = x + width - PAD - 4
    net = _signed(hand.net) if hand.net or hand.won else ""
    net_w = text_width(net, 26, True) + 8 if net else 0
    room = right - tx
    top = y + PAD
    name_room = room - net_w
    if hand.winner:
        label = t("Winner")
        name_room -= text_width(label, SMALL) + SMALL + 8
        chip(draw, right - net_w - text_width(label, SMALL) - SMALL, top, label, SMALL, fg=INK, bg=GOLD, height=28)
    text(draw, (tx, top + 14), fit_text(hand.player, SMALL, name_room), SMALL, fill=MUTED, anchor="lm")
    fitted_text(draw, (tx, top + 42), hand.name, 24, room, min_size=SMALL, anchor="lm", bold=True)
    if hand.detail:
        text(draw, (tx, top + 68), fit_text(hand.detail, SMALL, room), SMALL, fill=MUTED, anchor="lm")
    if hand.note:
        text(draw, (tx, top + 94), fit_text(hand.note, SMALL, room), SMALL, fill=GOLD, anchor="lm")
    if hand.won:
        text(draw, (tx, top + 120), fit_text(t("took {chips}", chips=f"{hand.won:,}"), SMALL, room - net_w),
             SMALL, fill=TEXT, anchor="lm")
    if net:
        text(draw, (right, top + 14), net, 26, fill=GOLD if hand.net > 0 else LOSS if hand.net < 0 else TEXT,
             anchor="rm", bold=True)


def showdown_image(view: SummaryView) -> Image.Image:
    """Compose the showdown (RGB)."""
    columns = 1 if len(view.hands) <= 1 else 2
    panel_w = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns
    rows = -(-len(view.hands) // columns)
    banner_h = BANNER_H + GAP if view.banner else 0
    hands_h = rows * (_panel_height() + GAP)
    pots_h = LINE_H * len(view.pots) + (8 if view.pots else 0)
    height = TITLE_H + banner_h + hands_h + pots_h + RESULT_H * len(view.result_lines) + MARGIN
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (MARGIN, TITLE_H // 2), view.title, 26, WIDTH - 2 * MARGIN, anchor="lm", bold=True)
    y = TITLE_H
    if view.banner:
        panel(draw, (MARGIN, y, WIDTH - MARGIN, y + BANNER_H), 10, GOLD)
        fitted_text(draw, (MARGIN + 14, y + BANNER_H // 2), view.banner, 22, WIDTH - 2 * MARGIN - 28,
                    min_size=SMALL, fill=INK, anchor="lm", bold=True)
        y += banner_h
    for i, hand in enumerate(view.hands):
        row, col = divmod(i, columns)
        _draw_hand(image, draw, hand, MARGIN + col * (panel_w + GAP), y + row * (_panel_height() + GAP), panel_w)
    y += hands_h
    for line in view.pots:
        text(draw, (MARGIN + 4, y + LINE_H // 2), fit_text(line, SMALL, WIDTH - 2 * MARGIN - 8), SMALL, fill=TEXT,
             anchor="lm")
        y += LINE_H
    y += 8 if view.pots else 0
    for line in view.result_lines:
        fitted_text(draw, (MARGIN, y + RESULT_H // 2), line, 22, WIDTH - 2 * MARGIN, min_size=SMALL,
                    fill=TEXT, anchor="lm", bold=True)
        y += RESULT_H
    return image
