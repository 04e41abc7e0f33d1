"""The five brights: crane with the sun, cherry curtain, full moon, rain man, phoenix."""

from __future__ import annotations

import math

from .palette import (
    BLUE,
    CHRYSANTHEMUM,
    CREAM,
    DEEP_PINK,
    GOLD,
    GREEN,
    INK,
    LEAF,
    NIGHT,
    ORANGE,
    PINK,
    RED,
    SKY_RED,
    WHITE,
    WILLOW,
    YELLOW,
)
from .pen import CARD_W, Pen
from .plants import cherry, fill_sky, paulownia, pine, susuki, willow


def crane(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    pen.ellipse(64, 46, 30, fill=SKY_RED)
    pine(pen)
    # the crane, standing, head raised towards the sun
    pen.line([(40, 112), (36, 150)], INK, 1.6)
    pen.line([(48, 112), (50, 150)], INK, 1.6)
    pen.poly([(22, 92), (10, 118), (30, 108)], fill=INK)
    pen.ellipse(38, 100, 20, 14, fill=WHITE, outline=INK, width=1)
    pen.leaf(28, 96, 26, 12, 160, (228, 226, 220))
    pen.curve((52, 92), (62, 74), (56, 56), INK, 5)
    pen.ellipse(56, 54, 5.5, fill=WHITE, outline=INK, width=1)
    pen.ellipse(56, 50, 3, fill=RED)
    pen.poly([(60, 53), (74, 50), (60, 57)], fill=(210, 170, 60))
    pen.ellipse(57, 53, 1, fill=INK)


def curtain(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    cherry(pen)
    top, bottom = 86, 150
    pen.rect(-2, top - 4, CARD_W + 2, top + 2, fill=(120, 80, 50))
    stripes = (RED, WHITE, RED, WHITE, RED)
    width = CARD_W / len(stripes)
    for i, colour in enumerate(stripes):
        x0 = i * width
        pts = [(x0, top), (x0 + width, top)]
        for j in range(7):
            t = j / 6
            pts.append((x0 + width * (1 - t), bottom + math.sin(t * math.pi) * 6))
        pen.poly(pts, fill=colour)
    for x in (20, 60):
        crest(pen, x + 10, top + 28, 9)
    for x in range(4, 100, 12):
        pen.ellipse(x, top - 1, 2.2, fill=GOLD)


def crest(pen: Pen, x: float, y: float, r: float) -> None:
    """A round family crest: a white disc holding a five-petal flower."""
    pen.ellipse(x, y, r, fill=WHITE, outline=INK, width=1)
    pen.blossom(x, y, r * 0.9, 5, DEEP_PINK, GOLD, petal_scale=0.45)


def moon(pen: Pen) -> None:
    fill_sky(pen, SKY_RED)
    pen.ellipse(50, 62, 34, fill=(255, 246, 220))
    pen.ellipse(50, 62, 34, outline=(236, 200, 120), width=1.5)
    susuki(pen)


def rainman(pen: Pen) -> None:
    fill_sky(pen, NIGHT)
    willow(pen)
    for i in range(14):
        x = 6 + i * 7
        pen.line([(x, 10 + (i % 3) * 20), (x - 5, 40 + (i % 3) * 20)], (150, 160, 190), 0.7)
    # stream at the bottom
    pen.rect(-2, 138, CARD_W + 2, 170, fill=BLUE)
    for y in (146, 156):
        for x in range(0, 100, 16):
            pen.arc(x + 8, y, 8, 4, 180, 360, WHITE, 1.2)
    # the man with a yellow umbrella
    pen.poly([(40, 100), (66, 100), (74, 138), (32, 138)], fill=RED)
    pen.poly([(44, 104), (62, 104), (66, 136), (40, 136)], fill=(150, 30, 40))
    pen.ellipse(53, 92, 7, fill=(244, 214, 180), outline=INK, width=0.8)
    pen.rect(47, 82, 59, 88, fill=INK, radius=2)
    pen.line([(60, 56), (64, 118)], INK, 1.2)
    pen.chord(60, 70, 30, 18, 180, 360, YELLOW)
    for x in (38, 50, 60, 70, 82):
        pen.line([(60, 54), (x, 70)], ORANGE, 0.8)
    # a frog leaping at the willow
    pen.ellipse(18, 130, 7, 5, fill=GREEN, outline=INK, width=0.8)
    pen.ellipse(15, 126, 1.6, fill=WHITE)
    pen.line([(22, 134), (28, 140)], GREEN, 2)


def phoenix(pen: Pen) -> None:
    fill_sky(pen, SKY_RED)
    pen.ellipse(50, 30, 22, fill=(252, 180, 60))
    paulownia(pen)
    # tail plumes
    for i, colour in enumerate((GREEN, BLUE, GOLD, RED, WILLOW, ORANGE)):
        a = 120 + i * 16
        rad = math.radians(a)
        pen.leaf(60, 84, 54, 10, a, colour, INK)
        pen.ellipse(60 + math.cos(rad) * 44, 84 + math.sin(rad) * 44, 3, fill=WHITE)
    # body, wings and head
    pen.ellipse(62, 82, 14, 10, fill=GOLD, outline=INK, width=0.8)
    pen.leaf(62, 78, 30, 14, -60, LEAF, INK)
    pen.leaf(62, 78, 26, 10, -35, PINK)
    pen.curve((70, 76), (80, 64), (76, 52), GOLD, 4)
    pen.ellipse(76, 50, 5, fill=RED, outline=INK, width=0.8)
    pen.poly([(80, 49), (88, 52), (80, 53)], fill=CHRYSANTHEMUM)
    pen.ellipse(76, 49, 1, fill=INK)
    for dx in (-3, 0, 3):
        pen.line([(76, 46), (74 + dx * 1.5, 38)], GREEN, 1)


SUBJECTS = {"crane": crane, "curtain": curtain, "moon": moon, "rainman": rainman,
            "phoenix": phoenix}
