"""The twelve month plants, each drawn over the whole card face.

A plant function draws sky, ground and plant; subject cards (brights, animals, ribbons) add their
subject on top. ``sky`` is the background colour chosen by the card.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .palette import (
    BARK,
    CHRYSANTHEMUM,
    CLOVER,
    CREAM,
    DARK_BARK,
    DARK_GREEN,
    DEEP_PINK,
    GREEN,
    HILL,
    INK,
    IRIS,
    LEAF,
    LILAC,
    MAPLE,
    ORANGE,
    PAULOWNIA,
    PEONY,
    PEONY_LIGHT,
    PINK,
    PLUM,
    RED,
    WHITE,
    WILLOW,
    WISTERIA,
)
from .pen import CARD_H, CARD_W, Pen

PlantFn = Callable[[Pen], None]


def fill_sky(pen: Pen, sky, lower=None, split: float = 0.55) -> None:
    """Fill the face with ``sky``; optionally a ``lower`` colour below ``split`` of the height."""
    pen.rect(0, 0, CARD_W, CARD_H, fill=sky)
    if lower is not None:
        pen.rect(0, CARD_H * split, CARD_W, CARD_H, fill=lower)


def pine(pen: Pen) -> None:
    pen.curve((70, 168), (40, 120), (58, 80), BARK, 9)
    pen.curve((56, 96), (30, 80), (16, 88), BARK, 5)
    pen.curve((58, 84), (76, 60), (92, 66), BARK, 5)
    for cx, cy, r in ((22, 84, 17), (86, 62, 18), (52, 66, 20), (74, 118, 14), (30, 128, 15)):
        needles(pen, cx, cy, r)


def needles(pen: Pen, cx: float, cy: float, r: float) -> None:
    """A fan-shaped pine needle cluster."""
    pen.pie(cx, cy + r * 0.35, r, 180, 360, DARK_GREEN)
    pen.pie(cx, cy + r * 0.35, r * 0.78, 180, 360, GREEN)
    for i in range(9):
        a = math.radians(190 + i * 20)
        pen.line([(cx, cy + r * 0.35), (cx + math.cos(a) * r * 0.95,
                                        cy + r * 0.35 + math.sin(a) * r * 0.95)], DARK_GREEN, 0.9)


def plum(pen: Pen) -> None:
    pen.curve((-4, 150), (40, 120), (60, 60), DARK_BARK, 7)
    pen.curve((60, 60), (70, 40), (96, 30), DARK_BARK, 4)
    pen.curve((44, 110), (70, 110), (98, 96), DARK_BARK, 4)
    pen.curve((52, 80), (30, 60), (18, 44), DARK_BARK, 3)
    for x, y, r in ((60, 58, 9), (86, 33, 8), (20, 46, 8), (72, 104, 9), (36, 124, 8),
                    (92, 96, 7), (48, 88, 7)):
        pen.blossom(x, y, r, 5, PLUM, CHRYSANTHEMUM)
    for x, y in ((74, 44), (32, 56), (84, 100), (54, 100)):
        pen.ellipse(x, y, 3, fill=PLUM)


def cherry(pen: Pen) -> None:
    pen.curve((100, 40), (60, 46), (30, 30), DARK_BARK, 4)
    for x, y, r in ((20, 52, 11), (42, 40, 12), (66, 48, 11), (86, 34, 10), (54, 66, 11),
                    (30, 74, 10), (80, 70, 10), (12, 30, 9), (62, 24, 9)):
        pen.blossom(x, y, r, 5, PINK, DEEP_PINK, petal_scale=0.6)
        pen.ellipse(x, y, r * 0.15, fill=RED)


def wisteria(pen: Pen) -> None:
    pen.curve((-2, 18), (50, 6), (102, 22), DARK_BARK, 4)
    for x, length in ((14, 92), (36, 118), (58, 84), (80, 108)):
        for i in range(14):
            t = i / 13
            y = 22 + t * length
            r = 6.5 * (1 - t * 0.7)
            colour = WISTERIA if i % 2 else LILAC
            pen.ellipse(x + math.sin(i * 1.3) * 2.5 - 2, y, r, r * 0.8, fill=colour)
    for x in (26, 48, 70, 92):
        pen.leaf(x - 4, 20, 16, 6, 70, LEAF)


def iris(pen: Pen) -> None:
    for x0, lean in ((10, 8), (24, -4), (40, 10), (60, -10), (78, 6), (92, -8)):
        pen.leaf(x0, 168, 110, 8, -90 + lean, GREEN, DARK_GREEN)
    for x, y in ((30, 52), (70, 40), (52, 84)):
        iris_flower(pen, x, y)


def iris_flower(pen: Pen, x: float, y: float) -> None:
    pen.leaf(x, y, 16, 9, -90, IRIS)
    pen.leaf(x, y, 16, 8, 150, IRIS)
    pen.leaf(x, y, 16, 8, 30, IRIS)
    pen.leaf(x, y + 2, 10, 4, 110, WHITE)
    pen.ellipse(x, y + 2, 3, fill=CHRYSANTHEMUM)


def peony(pen: Pen) -> None:
    for x, y, a in ((10, 130, -60), (90, 120, -120), (30, 150, -80), (70, 150, -100),
                    (50, 120, -90), (16, 96, -30), (84, 90, -150)):
        pen.leaf(x, y, 30, 14, a, DARK_GREEN, GREEN)
    for x, y, a in ((60, 40, -40), (20, 50, -130), (84, 60, -60)):
        pen.leaf(x, y + 30, 26, 12, a, DARK_GREEN, GREEN)
    peony_flower(pen, 34, 96, 20)
    peony_flower(pen, 70, 116, 17)
    peony_flower(pen, 66, 62, 13)


def peony_flower(pen: Pen, x: float, y: float, r: float) -> None:
    for i in range(8):
        a = math.radians(i * 45)
        pen.ellipse(x + math.cos(a) * r * 0.55, y + math.sin(a) * r * 0.5, r * 0.5,
                    fill=PEONY)
    for i in range(6):
        a = math.radians(i * 60 + 30)
        pen.ellipse(x + math.cos(a) * r * 0.3, y + math.sin(a) * r * 0.28, r * 0.36,
                    fill=PEONY_LIGHT)
    pen.ellipse(x, y, r * 0.22, fill=CHRYSANTHEMUM)


def clover(pen: Pen) -> None:
    for start, bend, end in (((100, 10), (40, 20), (20, 120)), ((100, 40), (60, 60), (50, 150)),
                             ((100, 80), (80, 100), (86, 160)), ((60, 0), (10, 20), (2, 70))):
        pts = pen.curve(start, bend, end, DARK_BARK, 1.6)
        for i, (x, y) in enumerate(pts[2::2]):
            side = 1 if i % 2 else -1
            pen.leaf(x, y, 9, 5, 90 + side * 50, CLOVER if i % 3 else GREEN)
            pen.ellipse(x + side * 4, y + 6, 1.8, fill=RED)


def susuki(pen: Pen) -> None:
    pen.chord(50, 190, 90, 96, 180, 360, HILL)
    for i in range(9):
        x = 6 + i * 11
        pen.curve((x, 120), (x + 6, 100), (x - 4 + (i % 3) * 6, 80), HILL, 1.4)


def chrysanthemum(pen: Pen) -> None:
    for x0, x1, y1 in ((24, 30, 74), (64, 72, 98), (50, 58, 56), (86, 84, 44), (12, 14, 36)):
        pen.curve((x0, 166), (x0 + 10, 120), (x1, y1), DARK_GREEN, 1.6)
    for x, y, a in ((20, 150, -70), (80, 146, -110), (50, 136, -90), (10, 110, -20),
                    (90, 108, -160), (36, 110, -40), (68, 124, -140)):
        pen.leaf(x, y, 26, 12, a, DARK_GREEN, GREEN)
    for x, y, r in ((30, 74, 16), (72, 98, 14), (58, 56, 10), (86, 44, 9), (14, 36, 8)):
        chrysanthemum_flower(pen, x, y, r)


def chrysanthemum_flower(pen: Pen, x: float, y: float, r: float) -> None:
    for i in range(16):
        pen.leaf(x, y, r, r * 0.32, i * 22.5, ORANGE)
    for i in range(12):
        pen.leaf(x, y, r * 0.75, r * 0.3, i * 30 + 15, CHRYSANTHEMUM)
    pen.ellipse(x, y, r * 0.2, fill=ORANGE)


def maple(pen: Pen) -> None:
    pen.curve((100, 14), (60, 10), (20, 40), DARK_BARK, 3)
    pen.curve((62, 16), (58, 40), (40, 60), DARK_BARK, 2)
    for x, y, r, c in ((20, 40, 13, MAPLE), (44, 62, 12, ORANGE), (70, 26, 12, MAPLE),
                       (88, 46, 11, RED), (36, 22, 10, ORANGE), (62, 84, 10, MAPLE),
                       (16, 78, 10, RED)):
        maple_leaf(pen, x, y, r, c)


def maple_leaf(pen: Pen, x: float, y: float, r: float, colour) -> None:
    pen.star(x, y, r, r * 0.45, 7, colour, turn=-90)
    pen.line([(x, y), (x, y + r * 1.1)], DARK_BARK, 0.9)


def willow(pen: Pen) -> None:
    pen.curve((50, -4), (40, 30), (20, 44), DARK_BARK, 3)
    for i in range(10):
        x = 4 + i * 10.5
        sway = (i % 3 - 1) * 10
        pts = pen.curve((x, -2), (x + sway, 60), (x - sway / 2, 150 - (i % 4) * 14),
                        WILLOW, 1.4)
        for j, (px, py) in enumerate(pts[3::2]):
            pen.leaf(px, py, 7, 3, 80 + (j % 2) * 30, LEAF if i % 2 else GREEN)


def paulownia(pen: Pen) -> None:
    for x, y, a, size in ((8, 166, -50, 52), (92, 166, -130, 52), (50, 170, -90, 58)):
        pen.leaf(x, y, size, size * 0.95, a, GREEN, DARK_GREEN)
        rad = math.radians(a)
        for side in (-1, 1):
            for t in (0.35, 0.6):
                bx, by = x + math.cos(rad) * size * t, y + math.sin(rad) * size * t
                pen.line([(bx, by), (bx + math.cos(rad + side * 0.9) * size * 0.3,
                                     by + math.sin(rad + side * 0.9) * size * 0.3)],
                         DARK_GREEN, 0.8)
    for x, top, height in ((24, 34, 52), (50, 22, 58), (76, 34, 52)):
        pen.line([(x, top + height + 10), (x, top)], DARK_GREEN, 1.6)
        for i in range(7):
            t = i / 6
            y = top + t * height
            spread = 3 + t * 9
            for j in (-1, 0, 1):
                pen.ellipse(x + j * spread, y - abs(j) * 2, 4.2, 3.4,
                            fill=PAULOWNIA if (i + j) % 2 else LILAC, outline=DARK_BARK,
                            width=0.4)


PLANTS: dict[int, PlantFn] = {
    1: pine, 2: plum, 3: cherry, 4: wisteria, 5: iris, 6: peony,
    7: clover, 8: susuki, 9: chrysanthemum, 10: maple, 11: willow, 12: paulownia,
}
"""The plant drawing of each month (1..12)."""

CHAFF_SKY = {
    1: CREAM, 2: CREAM, 3: CREAM, 4: CREAM, 5: CREAM, 6: CREAM, 7: CREAM, 8: RED,
    9: CREAM, 10: CREAM, 11: (92, 100, 120), 12: CREAM,
}
"""Background of each month's plain (chaff) cards."""

__all__ = ["PLANTS", "CHAFF_SKY", "fill_sky", "INK"]
