"""Ribbon cards (poetry, plain red, blue) and the two special chaff: lightning, yellow paulownia."""

from __future__ import annotations

import math

from bot.cards import Card, Ribbon

from .palette import BLUE, CREAM, GOLD, INK, NIGHT, RED, WHITE, YELLOW
from .pen import CARD_H, CARD_W, Pen
from .plants import CHAFF_SKY, PLANTS, fill_sky, paulownia, willow

RIBBON_COLOURS = {Ribbon.POETRY: RED, Ribbon.RED: RED, Ribbon.BLUE: BLUE}


def ribbon_card(pen: Pen, card: Card) -> None:
    fill_sky(pen, CHAFF_SKY[card.month])
    PLANTS[card.month](pen)
    ribbon(pen, RIBBON_COLOURS[card.ribbon], writing=card.ribbon is Ribbon.POETRY)


def ribbon(pen: Pen, colour, writing: bool) -> None:
    """A slanted paper strip hanging from a knot, with brush writing on poetry ribbons."""
    angle = math.radians(-12)
    cx, top, length, half = 54, 30, 104, 10
    ux, uy = math.sin(-angle), math.cos(angle)  # down the strip
    vx, vy = math.cos(angle), math.sin(angle)  # across it

    def at(t: float, s: float) -> tuple[float, float]:
        return (cx + ux * t + vx * s, top + uy * t + vy * s)

    shadow = [(x + 2, y + 2) for x, y in (at(0, -half), at(0, half), at(length, half),
                                          at(length - 8, 0), at(length, -half))]
    pen.poly(shadow, fill=(0, 0, 0, 90))
    outline = [at(0, -half), at(0, half), at(length, half), at(length - 8, 0), at(length, -half)]
    pen.poly(outline, fill=colour, outline=INK, width=1)
    edge = tuple(min(255, c + 50) for c in colour)
    pen.line([at(3, -half + 2.5), at(length - 6, -half + 2.5)], edge, 1.2)
    kx, ky = at(-2, 0)
    pen.ellipse(kx, ky, 5, 4, fill=colour, outline=INK, width=0.8)
    pen.line([at(-2, 0), at(-12, -8)], colour, 2)
    pen.line([at(-2, 0), at(-12, 8)], colour, 2)
    if writing:
        for i, t in enumerate((14, 26, 38, 50, 62, 74, 84)):
            x, y = at(t, 0)
            if i % 3 == 0:
                pen.line([at(t - 4, -4), at(t + 3, 3)], INK, 2.2)
                pen.ellipse(*at(t + 6, -3), 1.4, fill=INK)
            elif i % 3 == 1:
                pen.curve(at(t - 5, 3), (x + 5, y - 2), at(t + 5, -3), INK, 1.8)
            else:
                pen.line([at(t - 4, 0), at(t + 4, 0)], INK, 2.4)
                pen.line([at(t, -4), at(t, 4)], INK, 1.2)


def lightning(pen: Pen) -> None:
    """The willow chaff: a storm card, dark with red clouds, thunder drums and a bolt."""
    fill_sky(pen, NIGHT)
    willow(pen)
    pen.rect(-2, 100, CARD_W + 2, CARD_H + 2, fill=INK)
    for x, y, r in ((20, 112, 16), (50, 106, 18), (80, 114, 16), (34, 136, 14), (68, 140, 15)):
        pen.ellipse(x, y, r, r * 0.7, fill=RED)
    for i in range(8):
        a = math.radians(-170 + i * 22)
        x, y = 50 + math.cos(a) * 34, 64 + math.sin(a) * 34
        pen.ellipse(x, y, 5, fill=GOLD, outline=INK, width=1)
        pen.ellipse(x, y, 2, fill=RED)
    pen.poly([(58, 30), (40, 74), (54, 72), (36, 120), (70, 62), (54, 64), (70, 30)],
             fill=YELLOW, outline=INK, width=1.2)


def yellow_paulownia(pen: Pen) -> None:
    """The paulownia chaff with the yellow base (Go-Stop double pi, 10 in Sakura)."""
    fill_sky(pen, CREAM)
    pen.rect(-2, 112, CARD_W + 2, CARD_H + 2, fill=YELLOW)
    paulownia(pen)
    pen.rect(-2, 148, CARD_W + 2, CARD_H + 2, fill=YELLOW)
    for x in range(8, 100, 14):
        pen.ellipse(x, 156, 2, fill=WHITE)


SPECIALS = {"lightning": lightning, "paulownia_chaff_yellow": yellow_paulownia}
