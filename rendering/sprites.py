"""Card sprites: the master faces scaled to the sizes used, with a crisp corner index, cached.

The corner index (month number over a kind symbol, at the top left) is drawn at the target size so
it stays legible on small cards and visible when cards overlap to the right. The kind is shown by
the symbol's shape, not only its colour: star = bright, diamond = animal, bar = ribbon,
ring = chaff (two rings: Go-Stop double pi). Go-Stop's jokers (``joker_1`` .. ``joker_3``, outside the
deck) show "J" over one ring per pi they count.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.cards import DECK, Card, Kind, Ribbon, Role, card

from .art import BORDER, MASTER_H, MASTER_W, draw_back, draw_card, draw_joker
from .art.jokers import JOKER_PI, is_joker
from .art.palette import BLUE, BROWN, GOLD, GREEN, INK, RED, WHITE
from .art.pen import CARD_W
from .fonts import latin

RATIO = MASTER_H / MASTER_W
RENDERED_WIDTHS: tuple[int, ...] = (52, 72, 86, 96)
"""Every card width the images use: captured piles, sheets and summaries, the field, hands of
nine or more, hands of eight or fewer. :func:`build_sprites` builds them all."""
INDEX_SIZE = 20
"""The month number's font size: a picture 1000 px wide shown 400 px wide on a phone still
draws it 8 px tall (rendering.canvas.SMALL), so even the smallest card needs this much."""
SIZES = RENDERED_WIDTHS

_masters: dict[str, Image.Image] = {}
_lock = threading.Lock()


def card_height(width: int) -> int:
    return round(width * RATIO)


def _master(key: str) -> Image.Image:
    image = _masters.get(key)
    if image is None:
        with _lock:
            image = _masters.get(key)
            if image is None:
                if key == "back":
                    image = draw_back()
                elif is_joker(key):
                    image = draw_joker(key)
                else:
                    image = draw_card(key)
                _masters[key] = image
    return image


def index_width(width: int) -> int:
    """Width in pixels of the corner index of a card ``width`` wide: the visible strip a pile
    must leave uncovered."""
    return _index_metrics(width)[0] + round(BORDER * width / CARD_W) + 2


@lru_cache(maxsize=32)
def _index_metrics(width: int) -> tuple[int, int, int]:
    """(badge width, badge height, font size) for a card ``width`` pixels wide."""
    size = max(INDEX_SIZE, round(width * 0.18))
    number_w = latin(size).getbbox("12")[2]
    badge_w = number_w + max(4, size // 5)
    badge_h = round(size * 2.05)
    return badge_w, badge_h, size


def index_text(card_id: str, width: int, korean: bool = False
               ) -> tuple[str, int, tuple[float, float, float, float]]:
    """The corner index's number of a card ``width`` wide (its month, or "J" on a joker), its
    font size and the box its glyphs cover on the card, as :func:`_draw_index` draws it."""
    badge_w, _, size = _index_metrics(width)
    inset = round(BORDER * width / CARD_W)
    label = "J" if is_joker(card_id) else str(card(card_id).korean_month if korean else card(card_id).month)
    x, y = inset + badge_w / 2 + 0.5, inset + size * 0.62
    left, top, right, bottom = latin(size).getbbox(label, anchor="mm")
    return label, size, (x + left, y + top, x + right, y + bottom)


def _double_pi(c: Card, korean: bool) -> bool:
    return korean and c.role in (Role.LIGHTNING, Role.YELLOW_PAULOWNIA)


def kind_symbol(draw: ImageDraw.ImageDraw, c: Card, cx: float, cy: float, r: float,
                korean: bool = False) -> None:
    """Draw the kind symbol of ``c`` centred at (cx, cy) with radius ``r``."""
    line = max(1, round(r / 4))
    if c.kind is Kind.BRIGHT:
        pts = []
        for i in range(10):
            rad = r * 1.15 if i % 2 == 0 else r * 0.5
            a = -1.5708 + i * 0.6283
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        draw.polygon(pts, fill=GOLD, outline=INK)
    elif c.kind is Kind.ANIMAL:
        draw.polygon([(cx, cy - r), (cx + r * 0.85, cy), (cx, cy + r), (cx - r * 0.85, cy)],
                     fill=BROWN, outline=INK)
    elif c.kind is Kind.RIBBON:
        colour = BLUE if c.ribbon is Ribbon.BLUE else RED
        draw.rectangle((cx - r * 0.42, cy - r, cx + r * 0.42, cy + r), fill=colour, outline=INK)
        if c.ribbon is Ribbon.POETRY:
            draw.line((cx, cy - r * 0.5, cx, cy + r * 0.5), fill=INK, width=max(1, line - 1))
    else:
        rings = (-0.55, 0.55) if _double_pi(c, korean) else (0.0,)
        rr = r * (0.62 if len(rings) == 2 else 0.8)
        for dx in rings:
            x = cx + dx * r
            draw.ellipse((x - rr, cy - rr, x + rr, cy + rr), outline=GREEN, width=line + 1)


def _draw_index(sprite: Image.Image, c: Card, korean: bool) -> None:
    badge_w, badge_h, size = _index_metrics(sprite.width)
    inset = round(BORDER * sprite.width / CARD_W)
    draw = ImageDraw.Draw(sprite)
    box = (inset, inset, inset + badge_w, inset + badge_h)
    draw.rounded_rectangle(box, radius=max(2, size // 4), fill=WHITE, outline=INK)
    month = c.korean_month if korean else c.month
    cx = inset + badge_w / 2
    draw.text((cx + 0.5, inset + size * 0.62), str(month), font=latin(size), fill=INK,
              anchor="mm")
    kind_symbol(draw, c, cx, inset + size * 1.45, size * 0.36, korean)


def pi_rings(draw: ImageDraw.ImageDraw, count: int, cx: float, cy: float, r: float) -> None:
    """``count`` small chaff rings side by side centred at (cx, cy): a joker's pi value."""
    line = max(1, round(r / 4))
    rr = r * (0.62 if count == 2 else 0.48)
    step = rr * 1.55
    for k in range(count):
        x = cx + (k - (count - 1) / 2) * step
        draw.ellipse((x - rr, cy - rr, x + rr, cy + rr), outline=GREEN, width=line + 1)


def _draw_joker_index(sprite: Image.Image, card_id: str) -> None:
    badge_w, badge_h, size = _index_metrics(sprite.width)
    inset = round(BORDER * sprite.width / CARD_W)
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((inset, inset, inset + badge_w, inset + badge_h),
                           radius=max(2, size // 4), fill=WHITE, outline=INK)
    cx = inset + badge_w / 2
    draw.text((cx + 0.5, inset + size * 0.62), "J", font=latin(size), fill=INK, anchor="mm")
    pi_rings(draw, JOKER_PI[card_id], cx, inset + size * 1.45, size * 0.36)


def _scaled(key: str, width: int) -> Image.Image:
    """A master scaled to ``width``, before its corner index (shared by both numberings)."""
    return _master(key).resize((width, card_height(width)), Image.Resampling.LANCZOS,
                               reducing_gap=2.0)


def _same_for_korean(card_id: str) -> bool:
    if is_joker(card_id):
        return True
    c = card(card_id)
    return c.korean_month == c.month and not _double_pi(c, True)


@lru_cache(maxsize=1024)
def card_sprite(card_id: str, width: int, korean: bool = False) -> Image.Image:
    """A card face ``width`` pixels wide (RGBA) with its corner index; built once, then cached.

    ``korean`` shows the Go-Stop month numbering and double-pi marks. Treat the result as
    read-only: it is shared. Go-Stop's jokers (``joker_1`` .. ``joker_3``) are drawn too.
    """
    if korean and _same_for_korean(card_id):
        return card_sprite(card_id, width, False)  # only willow and paulownia differ
    if is_joker(card_id):
        sprite = _scaled(card_id, width).copy()
        _draw_joker_index(sprite, card_id)
        return sprite
    c = card(card_id)
    sprite = _scaled(c.id, width).copy()
    _draw_index(sprite, c, korean)
    return sprite


@lru_cache(maxsize=64)
def back_sprite(width: int) -> Image.Image:
    """The card back ``width`` pixels wide (RGBA, shared: read-only)."""
    return _master("back").resize((width, card_height(width)), Image.Resampling.LANCZOS,
                                reducing_gap=2.0)


def build_sprites(widths: tuple[int, ...] = RENDERED_WIDTHS) -> None:
    """Draw every master and pre-build the faces (both month numberings), jokers and backs at
    ``widths``, so no image pays for a sprite."""
    for c in DECK:
        _master(c.id)
    _master("back")
    for w in widths:
        back_sprite(w)
        for cid in (*(c.id for c in DECK), *JOKER_PI):
            for korean in (False, True):
                card_sprite(cid, w, korean)  # called as the renderers call it: the same key
