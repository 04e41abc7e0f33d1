"""Images for the Hanafuda bot: card art drawn by code and the table, hand, summary and rules
images as PNG bytes. Pure functions of view-models (:mod:`rendering.view`); no Discord import.

Public API::

    render_table(view: TableView) -> bytes
    render_hand(view: HandView, cjk_font: str | None = None) -> bytes
    render_summary(view: SummaryView) -> bytes
    render_yaku_sheet(game: str) -> bytes
    card_sprite(card_id: str, width: int, korean: bool = False) -> PIL.Image.Image
    build_sprites(widths: tuple[int, ...] = SIZES) -> None

The renderers are thread-safe enough to run in a worker thread (sprites are built under a lock).

>>> from rendering import render_table, samples
>>> render_table(samples.sample_table("koikoi", 2))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from .hand import render_hand
from .sheet import render_yaku_sheet
from .sprites import build_sprites, card_sprite
from .summary import render_summary
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
    "render_hand",
    "render_summary",
    "render_table",
    "render_yaku_sheet",
]
