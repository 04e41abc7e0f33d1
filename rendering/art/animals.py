"""The nine animal cards: warbler, cuckoo, bridge, butterflies, boar, geese, sake cup, deer,
swallow."""

from __future__ import annotations

from .palette import (
    BARK,
    BLUE,
    CREAM,
    DARK_BARK,
    GOLD,
    INK,
    ORANGE,
    PAPER,
    RED,
    SKY_RED,
    WHITE,
    YELLOW,
)
from .pen import CARD_W, Pen
from .plants import (
    chrysanthemum,
    chrysanthemum_flower,
    clover,
    fill_sky,
    iris,
    maple,
    peony,
    plum,
    susuki,
    willow,
    wisteria,
)

OLIVE = (122, 140, 46)
PALE_OLIVE = (190, 196, 110)


def bush_warbler(pen: Pen) -> None:
    fill_sky(pen, SKY_RED, CREAM, 0.45)
    plum(pen)
    pen.curve((10, 124), (50, 118), (90, 128), DARK_BARK, 4)
    # a small olive bird perched on the low branch
    pen.leaf(40, 108, 26, 10, 160, OLIVE, INK)
    pen.ellipse(50, 108, 14, 10, fill=OLIVE, outline=INK, width=0.8)
    pen.ellipse(52, 112, 9, 5, fill=PALE_OLIVE)
    pen.ellipse(62, 100, 7, fill=OLIVE, outline=INK, width=0.8)
    pen.ellipse(64, 99, 1.4, fill=INK)
    pen.ellipse(64, 99, 2.8, outline=WHITE, width=0.6)
    pen.poly([(68, 99), (75, 101), (68, 103)], fill=INK)
    pen.leaf(46, 104, 14, 8, 170, (92, 110, 30))


def cuckoo(pen: Pen) -> None:
    fill_sky(pen, SKY_RED)
    pen.chord(70, 38, 16, 16, 300, 120, (250, 230, 170))
    wisteria(pen)
    # a dark bird flying up to the left across the red sky
    pen.leaf(58, 86, 44, 16, -150, INK)
    pen.leaf(58, 86, 40, 12, -110, (60, 50, 60))
    pen.ellipse(56, 88, 12, 7, fill=INK)
    pen.leaf(64, 92, 22, 8, 40, INK)
    pen.ellipse(46, 84, 6, fill=INK)
    pen.poly([(40, 82), (33, 82), (40, 86)], fill=YELLOW)
    pen.ellipse(45, 83, 1.3, fill=WHITE)


def bridge(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    pen.rect(-2, 100, CARD_W + 2, 170, fill=(170, 200, 220))
    iris(pen)
    # the eight-plank bridge zig-zagging across
    for x0, y0, x1, y1 in ((-4, 106, 54, 126), (46, 126, 104, 146)):
        pen.poly([(x0, y0), (x1, y0 + 10), (x1, y1), (x0, y1 - 10)], fill=BARK, outline=DARK_BARK,
                 width=1)
        for i in range(1, 4):
            x = x0 + (x1 - x0) * i / 4
            t = (x - x0) / (x1 - x0)
            pen.line([(x, y0 + 10 * t), (x, y1 - 10 + 10 * t)], DARK_BARK, 0.8)
        for x in (x0 + 6, x1 - 6):
            t = (x - x0) / (x1 - x0)
            pen.rect(x - 2, y1 - 10 + 10 * t, x + 2, y1 + 6 + 10 * t, fill=DARK_BARK)


def butterflies(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    peony(pen)
    butterfly(pen, 34, 40, 1.0, BLUE, YELLOW)
    butterfly(pen, 72, 58, 0.8, (230, 110, 40), (60, 40, 120))


def butterfly(pen: Pen, x: float, y: float, s: float, wing, spot) -> None:
    pen.leaf(x, y, 24 * s, 18 * s, -130, wing, INK)
    pen.leaf(x, y, 24 * s, 18 * s, -50, wing, INK)
    pen.leaf(x, y, 16 * s, 12 * s, 140, wing)
    pen.leaf(x, y, 16 * s, 12 * s, 40, wing)
    pen.ellipse(x - 9 * s, y - 10 * s, 3 * s, fill=spot)
    pen.ellipse(x + 9 * s, y - 10 * s, 3 * s, fill=spot)
    pen.ellipse(x, y + 2 * s, 2 * s, 9 * s, fill=INK)
    pen.line([(x, y - 6 * s), (x - 5 * s, y - 16 * s)], INK, 0.6)
    pen.line([(x, y - 6 * s), (x + 5 * s, y - 16 * s)], INK, 0.6)


def boar(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    clover(pen)
    body = (110, 70, 46)
    for x in (30, 40, 62, 72):
        pen.line([(x, 124), (x + 2, 144)], body, 5)
    pen.ellipse(50, 114, 30, 17, fill=body, outline=INK, width=1)
    pen.ellipse(50, 106, 22, 6, fill=(140, 96, 66))
    pen.poly([(74, 104), (94, 114), (92, 124), (72, 126)], fill=body, outline=INK, width=1)
    pen.ellipse(93, 119, 3, 5, fill=(200, 140, 130), outline=INK, width=0.6)
    pen.poly([(86, 122), (90, 128), (84, 125)], fill=WHITE)
    pen.ellipse(80, 111, 1.6, fill=INK)
    pen.poly([(74, 100), (78, 92), (80, 104)], fill=body, outline=INK, width=0.8)
    pen.line([(20, 110), (14, 104)], body, 2)


def geese(pen: Pen) -> None:
    fill_sky(pen, SKY_RED)
    susuki(pen)
    for x, y, s in ((30, 40, 1.0), (62, 58, 0.85), (44, 80, 0.75)):
        goose(pen, x, y, s)


def goose(pen: Pen, x: float, y: float, s: float) -> None:
    """A wild goose flying right, neck stretched, wings raised."""
    pen.leaf(x - 2 * s, y, 26 * s, 10 * s, -120, INK)
    pen.leaf(x + 2 * s, y, 24 * s, 9 * s, -75, (58, 52, 58))
    pen.ellipse(x, y + 2 * s, 12 * s, 4.5 * s, fill=INK)
    pen.leaf(x - 10 * s, y + 2 * s, 8 * s, 5 * s, 180, INK)
    pen.line([(x + 10 * s, y + 1 * s), (x + 20 * s, y - 3 * s)], INK, 2 * s)
    pen.ellipse(x + 21 * s, y - 3.5 * s, 2.8 * s, 2.2 * s, fill=INK)
    pen.poly([(x + 23 * s, y - 4.5 * s), (x + 28 * s, y - 3 * s), (x + 23 * s, y - 2 * s)],
             fill=ORANGE)


def sake_cup(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    chrysanthemum(pen)
    pen.ellipse(50, 118, 26, 7, fill=(150, 20, 26))
    pen.chord(50, 104, 36, 26, 0, 180, RED)
    pen.ellipse(50, 104, 36, 9, fill=GOLD, outline=INK, width=0.8)
    pen.ellipse(50, 104, 32, 7, fill=RED)
    pen.rect(40, 124, 60, 130, fill=(150, 20, 26), radius=2)
    chrysanthemum_flower(pen, 50, 118, 7)
    for x in (26, 74):
        pen.ellipse(x, 112, 1.5, fill=GOLD)


def deer(pen: Pen) -> None:
    fill_sky(pen, CREAM)
    maple(pen)
    coat = (184, 120, 64)
    for x in (34, 40, 64, 70):
        pen.line([(x, 118), (x + (1 if x < 50 else -1) * 2, 150)], coat, 3.2)
    pen.ellipse(52, 110, 24, 12, fill=coat, outline=INK, width=0.8)
    for x, y in ((42, 106), (52, 104), (60, 108), (48, 112)):
        pen.ellipse(x, y, 1.8, fill=CREAM)
    pen.line([(32, 104), (26, 94)], coat, 7)
    pen.ellipse(24, 90, 7, 6, fill=coat, outline=INK, width=0.8)
    pen.ellipse(17, 93, 3, 2.4, fill=DARK_BARK)
    pen.ellipse(23, 88, 1.3, fill=INK)
    pen.curve((26, 84), (30, 66), (22, 58), DARK_BARK, 1.4)
    pen.curve((28, 74), (38, 70), (40, 62), DARK_BARK, 1.2)
    pen.curve((22, 84), (14, 70), (8, 66), DARK_BARK, 1.2)
    pen.leaf(76, 104, 8, 4, -40, coat)


def swallow(pen: Pen) -> None:
    fill_sky(pen, (150, 160, 184))
    willow(pen)
    for i in range(12):
        x = 8 + i * 8
        pen.line([(x, 60 + (i % 3) * 18), (x - 6, 96 + (i % 3) * 18)], (214, 220, 236), 0.7)
    # a swallow diving with a forked tail
    blue_black = (26, 30, 70)
    pen.leaf(50, 92, 46, 13, -35, blue_black, INK)
    pen.leaf(50, 92, 46, 13, -145, blue_black, INK)
    pen.ellipse(50, 94, 12, 6, fill=blue_black)
    pen.ellipse(55, 97, 6, 3, fill=PAPER)
    pen.leaf(40, 94, 24, 4, 160, blue_black)
    pen.leaf(40, 94, 24, 4, 190, blue_black)
    pen.ellipse(62, 92, 5.5, fill=blue_black)
    pen.ellipse(65, 95, 3, 2, fill=RED)
    pen.poly([(67, 90), (72, 91), (67, 93)], fill=INK)
    pen.ellipse(63, 90, 1, fill=WHITE)


SUBJECTS = {
    "bush_warbler": bush_warbler, "cuckoo": cuckoo, "bridge": bridge, "butterflies": butterflies,
    "boar": boar, "geese": geese, "sake_cup": sake_cup, "deer": deer, "swallow": swallow,
}
