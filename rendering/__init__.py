"""Images for the Hanafuda bot: card art drawn by code and the table, hand, summary and rules
images as PNG bytes. Pure functions of view-models (:mod:`rendering.view`); no Discord import.

>>> from rendering import render_table, samples
>>> render_table(samples.sample_table("koikoi", 2))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from .sprites import build_sprites, card_sprite
from .table import render_table
from .view import GAMES, HandView, PlayerView, SummaryView, TableView, YakuRow

__all__ = [
    "GAMES",
    "HandView",
    "PlayerView",
    "SummaryView",
    "TableView",
    "YakuRow",
    "build_sprites",
    "card_sprite",
    "render_table",
]
