"""The card faces the page shows, drawn by the same code as every picture (rendering.sprites)
and encoded once per process: one PNG per card and numbering, and the back."""

from __future__ import annotations

import io

from bot.cards import DECK
from rendering.art.jokers import JOKER_PI
from rendering.sprites import back_sprite, card_sprite

WIDTH = 150
"""Pixels across a card image: sharp at three device pixels per CSS pixel on a phone."""
BACK = "back"
NAMES = frozenset({*(c.id for c in DECK), *JOKER_PI, BACK})
"""The images there are: every card of the deck, Go-Stop's jokers and the back."""


def card_png(name: str, korean: bool = False) -> bytes:
    """One card face (or the back) as PNG bytes; run in a render worker, it draws pixels."""
    image = back_sprite(WIDTH) if name == BACK else card_sprite(name, WIDTH, korean)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
