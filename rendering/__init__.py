"""Images for the Hanafuda bot: card art drawn by code and the table, hand, summary and rules
images as PNG bytes. Pure functions of view-models (:mod:`rendering.view`); no Discord import.

Public API::

    render_table(view: TableView) -> bytes
    render_hand(view: HandView, cjk_font: str | None = None) -> bytes
    render_summary(view: SummaryView) -> bytes
    render_yaku_sheet(game: str) -> bytes
    render_deck_sheet(game: str) -> bytes          # the cards a game is played with, by month
    render_board(view: BoardView) -> bytes        # a page of a leaderboard
    render_card(view: CardView) -> bytes          # a player's card (/stats)
    card_sprite(card_id: str, width: int, korean: bool = False) -> PIL.Image.Image
    build_sprites(widths: tuple[int, ...] = RENDERED_WIDTHS) -> None
    warm_up() -> None

The bot runs them in worker processes (``bot.workers.WorkerPool`` with ``warm_up`` as the
initializer); the view-models pickle. The same view always gives the same bytes, so a caller can
skip sending an image equal to the one already shown.

>>> from rendering import render_table, samples
>>> render_table(samples.sample_table("koikoi", 2))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from .board import render_board
from .canvas import shadow
from .card import render_card
from .deck import render_deck_sheet
from .encode import palette_image
from .fonts import find_cjk_font
from .hand import render_hand
from .sheet import render_yaku_sheet
from .sprites import RENDERED_WIDTHS, build_sprites, card_sprite
from .summary import render_summary
from .table import render_table
from .view import (
    GAMES,
    BoardRow,
    BoardView,
    CardGame,
    CardView,
    HandView,
    PlayerView,
    ShownHand,
    SummaryView,
    TableView,
    YakuRow,
)

__all__ = [
    "GAMES",
    "BoardRow",
    "BoardView",
    "CardGame",
    "CardView",
    "HandView",
    "PlayerView",
    "ShownHand",
    "SummaryView",
    "TableView",
    "YakuRow",
    "build_sprites",
    "card_sprite",
    "render_board",
    "render_card",
    "render_deck_sheet",
    "render_hand",
    "render_summary",
    "render_table",
    "render_yaku_sheet",
    "warm_up",
]


def warm_up() -> None:
    """Build everything an image reuses (card sprites at every size, their shadows, the palette),
    so a worker's first image costs no more than the next ones."""
    build_sprites()
    find_cjk_font()  # open the bundled CJK font once, not at the first name in kana or Hangul
    for width in RENDERED_WIDTHS:
        shadow(width)
    palette_image()
