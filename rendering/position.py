"""A position as the coach shows it: the table above, the hand of the player below, one PNG."""

from __future__ import annotations

from PIL import Image

from bot.i18n import speaking

from .encode import encode_png
from .hand import hand_image
from .table import table_image
from .view import HandView, TableView


def render_position(table: TableView, hand: HandView, cjk_font: str | None = None) -> bytes:
    """PNG bytes of ``table`` with ``hand`` under it (a reviewed decision: what the player saw)."""
    with speaking(table.language):
        top = table_image(table)
    with speaking(hand.language):
        bottom = hand_image(hand, cjk_font)
    width = max(top.width, bottom.width)
    image = Image.new("RGB", (width, top.height + bottom.height), top.getpixel((0, 0)))
    image.paste(top, ((width - top.width) // 2, 0))
    image.paste(bottom, ((width - bottom.width) // 2, top.height))
    return encode_png(image)
