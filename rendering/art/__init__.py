"""Card art drawn by code: one master image per card, drawn large and scaled down.

:func:`draw_card` returns the master face (RGBA, rounded corners, no corner index) of a card;
:func:`draw_back` the back; :func:`draw_joker` a Go-Stop joker (outside the 48-card deck). Sizes and the corner index are handled by :mod:`rendering.sprites`.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageOps

from bot.cards import Card, Kind, card

from .animals import SUBJECTS as ANIMALS
from .brights import SUBJECTS as BRIGHTS
from .jokers import draw_joker_face, is_joker
from .palette import GOLD, INK, MONTH_ACCENT, RED
from .pen import CARD_H, CARD_W, Pen
from .plants import CHAFF_SKY, PLANTS, fill_sky
from .ribbons import SPECIALS, ribbon_card

MASTER_W = 240
MASTER_H = round(MASTER_W * CARD_H / CARD_W)
SUPERSAMPLE = 2
CORNER = 6.0  # corner radius, card units
BORDER = 2.6  # dark rim, card units

_SUBJECTS = {**BRIGHTS, **ANIMALS, **SPECIALS}


def _paint(c: Card, pen: Pen) -> None:
    if c.id in _SUBJECTS:
        _SUBJECTS[c.id](pen)
    elif c.kind is Kind.RIBBON:
        ribbon_card(pen, c)
    else:
        fill_sky(pen, CHAFF_SKY[c.month])
        second = c.id.endswith("_2")
        if second:
            _mist(pen, CHAFF_SKY[c.month], MONTH_ACCENT[c.month - 1], ((-10, 22, 66), (40, 36, 110)))
        PLANTS[c.month](pen)
        if second:
            _mist(pen, CHAFF_SKY[c.month], MONTH_ACCENT[c.month - 1], ((-10, 100, 62), (44, 140, 110)))


def _mist(pen: Pen, sky, accent, bands) -> None:
    """Bands of mist (kasumi) that tell the second plain card of a month from the first."""
    light = sum(sky) > 500
    tint = tuple(round(s * 0.65 + a * 0.35) if light else round(s * 0.45 + 255 * 0.55)
                 for s, a in zip(sky, accent, strict=True))
    for x0, y0, x1 in bands:
        pen.rect(x0, y0, x1, y0 + 12, fill=tint + (235,), radius=6)


def _finish(art: Image.Image) -> Image.Image:
    """Rim and rounded corners at supersampled size, then scale down to the master size."""
    k = art.width / CARD_W
    draw = ImageDraw.Draw(art)
    box = (0, 0, art.width - 1, art.height - 1)
    draw.rounded_rectangle(box, radius=CORNER * k, outline=INK, width=round(BORDER * k))
    mask = Image.new("L", art.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(box, radius=CORNER * k, fill=255)
    art.putalpha(mask)
    return art.reduce(SUPERSAMPLE)


def _canvas() -> Image.Image:
    return Image.new("RGB", (MASTER_W * SUPERSAMPLE, MASTER_H * SUPERSAMPLE), (0, 0, 0))


def draw_card(ref: Card | str | int) -> Image.Image:
    """The master face of a card (RGBA, ``MASTER_W`` x ``MASTER_H``)."""
    c = card(ref)
    art = _canvas()
    _paint(c, Pen(art))
    if c.kind is Kind.CHAFF and c.id.endswith("_2"):
        art = ImageOps.mirror(art)  # the second plain card of a month is the mirrored design
    return _finish(art)


def draw_joker(card_id: str) -> Image.Image:
    """The master face of a Go-Stop joker (``joker_1`` .. ``joker_3``; see :mod:`.jokers`)."""
    if not is_joker(card_id):
        raise KeyError(f"unknown joker {card_id!r}")
    art = _canvas()
    draw_joker_face(Pen(art), card_id)
    return _finish(art)


def draw_back() -> Image.Image:
    """The card back: a dark red lacquer with a lattice and a round crest."""
    art = _canvas()
    pen = Pen(art)
    lacquer = (112, 28, 30)
    pen.rect(0, 0, CARD_W, CARD_H, fill=lacquer)
    pen.rect(7, 7, CARD_W - 7, CARD_H - 7, fill=None, outline=GOLD, width=1.2, radius=3)
    for i in range(-12, 20):
        x = i * 10
        pen.line([(x, 9), (x + 82, CARD_H - 9)], (132, 40, 40), 0.8)
        pen.line([(x + 82, 9), (x, CARD_H - 9)], (132, 40, 40), 0.8)
    pen.rect(0, 0, 7, CARD_H, fill=lacquer)
    pen.rect(CARD_W - 7, 0, CARD_W, CARD_H, fill=lacquer)
    pen.rect(0, 0, CARD_W, 7, fill=lacquer)
    pen.rect(0, CARD_H - 7, CARD_W, CARD_H, fill=lacquer)
    pen.ellipse(50, 82, 22, fill=INK, outline=GOLD, width=1.5)
    pen.blossom(50, 82, 18, 5, RED, GOLD, petal_scale=0.5)
    return _finish(art)
