"""Go-Stop's bonus cards (jokers): our own face, drawn in the style of the 48 cards.

The jokers are outside the deck of :mod:`bot.cards`: ``joker_1`` and ``joker_2`` count 2 pi,
``joker_3`` counts 3 pi. The face is a deep indigo sky with a gold frame, a blossom crest, the word
BONUS and one old brass coin (yeopjeon, round with a square hole) per pi it is worth.
"""

from __future__ import annotations

import math

from ..fonts import latin
from .palette import CHRYSANTHEMUM, GOLD, INK, NIGHT, RED, WHITE
from .pen import CARD_H, CARD_W, Pen

JOKER_PI: dict[str, int] = {"joker_1": 2, "joker_2": 2, "joker_3": 3}
"""Joker id -> its pi value (Go-Stop option ``jokers``)."""

INDIGO = (52, 40, 96)
BRASS = (214, 168, 62)
BRASS_DARK = (150, 108, 38)


def is_joker(card_id: str | None) -> bool:
    return card_id in JOKER_PI


def _coin(pen: Pen, cx: float, cy: float, r: float) -> None:
    pen.ellipse(cx + 1.2, cy + 1.6, r, fill=(0, 0, 0, 90))
    pen.ellipse(cx, cy, r, fill=BRASS, outline=BRASS_DARK, width=1.4)
    pen.ellipse(cx, cy, r * 0.78, fill=None, outline=BRASS_DARK, width=0.7)
    h = r * 0.28
    pen.rect(cx - h, cy - h, cx + h, cy + h, fill=INDIGO, outline=BRASS_DARK, width=0.8)


def draw_joker_face(pen: Pen, card_id: str) -> None:
    """Paint the face of joker ``card_id`` (card units, on a blank canvas)."""
    pi = JOKER_PI[card_id]
    pen.rect(0, 0, CARD_W, CARD_H, fill=INDIGO)
    pen.rect(0, CARD_H * 0.62, CARD_W, CARD_H, fill=NIGHT)
    # a scatter of small stars in the sky (fixed, so every joker of a kind looks the same)
    for i in range(14):
        x = 12 + (i * 37) % 80
        y = 14 + (i * 23) % 52
        pen.star(x, y, 2.2, 0.9, 4, WHITE + (200,))
    pen.rect(6, 6, CARD_W - 6, CARD_H - 6, fill=None, outline=GOLD, width=1.4, radius=4)
    # the crest: a red disc with a gold blossom, like the card back's, higher up
    pen.ellipse(50, 44, 19, fill=RED, outline=GOLD, width=1.4)
    pen.blossom(50, 44, 15, 5, GOLD, RED, petal_scale=0.5)
    for k in range(8):
        a = math.radians(k * 45 + 22.5)
        pen.line([(50 + math.cos(a) * 22, 44 + math.sin(a) * 22),
                  (50 + math.cos(a) * 28, 44 + math.sin(a) * 28)], GOLD, 1.6)
    # BONUS across the middle
    size = round(15 * pen.k)
    pen.draw.text((50 * pen.k, 86 * pen.k), "BONUS", font=latin(size), fill=CHRYSANTHEMUM,
                  anchor="mm", stroke_width=max(1, size // 14), stroke_fill=INK)
    # one coin per pi
    spots = {2: ((34, 124), (66, 124)), 3: ((50, 108 + 2), (30, 132), (70, 132))}[pi]
    for x, y in spots:
        _coin(pen, x, y, 13)
