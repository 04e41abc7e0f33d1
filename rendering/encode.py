"""PNG encoding in 256 colours with one fixed palette, and the tool that builds that palette.

Every image the bot draws is made of the same things: the felt, the 48 card faces and the back at
a few sizes, panels and text in a handful of colours. So one palette, trained once on sample
images of every kind, serves them all: encoding then maps each pixel to it once (no per-image
colour search, which cost more than drawing the image) and the same view always gives the same
bytes. The felt's own colours are kept exact so its vignette never bands.

The palette ships in ``art/render_palette.txt``; ``python -m rendering.palette_build`` rebuilds it
after the card art or the table colours change (a test fails while it is stale).
"""

from __future__ import annotations

import io
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image

PALETTE_FILE = Path(__file__).parent / "art" / "render_palette.txt"
ZLIB_LEVEL = 4
"""Deflate effort: level 6 (Pillow's default) costs twice the time for 10-15% fewer bytes."""


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    """The shipped palette as a 1x1 "P" image (the form ``Image.quantize`` takes)."""
    colours = read_palette(PALETTE_FILE.read_text())
    image = Image.new("P", (1, 1))
    image.putpalette([c for colour in colours for c in colour])
    return image


def read_palette(text: str) -> list[tuple[int, int, int]]:
    colours = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            value = int(line, 16)
            colours.append((value >> 16, (value >> 8) & 255, value & 255))
    if len(colours) != 256:
        raise ValueError(f"{PALETTE_FILE.name} must hold 256 colours, found {len(colours)}")
    return colours


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image`` in the 256 colours of the shipped palette (no dithering)."""
    indexed = image.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=ZLIB_LEVEL,
                 compress_type=zlib.Z_DEFAULT_STRATEGY)
    return buffer.getvalue()
