"""Shared drawing helpers for the images: felt background, text, chips, card placement, PNG."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from .art.palette import FELT, FELT_DARK, HIGHLIGHT, INK, TEXT
from .fonts import latin, latin_safe
from .sprites import back_sprite, card_height, card_sprite

MARGIN = 16
IMAGE_WIDTH = 1000
"""Width of the table, summary and sheet images: crisp at Discord's display size."""


FELT_LEVELS = 40  # vignette steps, fine enough to look smooth
WELL_SHADE = 40  # alpha of the black wash that marks the field area


def _felt_colours(shade: int = 0) -> list[tuple[int, int, int]]:
    """The felt's exact colours, optionally under a black wash of alpha ``shade``."""
    out = []
    for level in range(FELT_LEVELS):
        t = level / (FELT_LEVELS - 1)
        colour = [a + (b - a) * t * 0.85 for a, b in zip(FELT, FELT_DARK, strict=True)]
        out.append(tuple(round(c * (255 - shade) / 255) for c in colour))
    return out


FELT_PALETTE: tuple[tuple[int, int, int], ...] = tuple(
    dict.fromkeys(_felt_colours() + _felt_colours(WELL_SHADE)))
"""Colours kept exact by :func:`encode_png` so the felt's vignette never bands."""


@lru_cache(maxsize=16)
def felt(width: int, height: int) -> Image.Image:
    """A dark-green felt with a soft vignette (cached per size; copy it).

    Built from the exact colours of :data:`FELT_PALETTE`, so 256-colour output keeps it smooth.
    """
    levels = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    index = levels.point(lambda v: min(FELT_LEVELS - 1, v * FELT_LEVELS // 230)).convert("P")
    index.putpalette([c for colour in _felt_colours() for c in colour])
    return index.convert("RGB")


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = felt(width, height).copy()
    return image, ImageDraw.Draw(image, "RGBA")


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int,
         fill=TEXT, anchor: str = "la", bold: bool = False) -> float:
    """Draw Latin text; returns its width. Characters the font lacks are replaced, never boxed."""
    s = latin_safe(s)
    font = latin(size)
    stroke = 1 if bold and size >= 14 else 0
    draw.text(xy, s, font=font, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)
    return font.getlength(s) + 2 * stroke


def text_width(s: str, size: int, bold: bool = False) -> float:
    return latin(size).getlength(latin_safe(s)) + (2 if bold and size >= 14 else 0)


def fit_text(s: str, size: int, width: float) -> str:
    """``s`` shortened with '...' to fit ``width`` pixels."""
    s = latin_safe(s)
    if text_width(s, size) <= width:
        return s
    while s and text_width(s + "...", size) > width:
        s = s[:-1]
    return s + "..."


def chip(draw: ImageDraw.ImageDraw, x: float, y: float, label: str, size: int, fg=INK,
         bg=(236, 230, 212), height: int | None = None) -> float:
    """A rounded label with its top-left at (x, y); returns its right edge."""
    h = height or round(size * 1.5)
    w = text_width(label, size) + size
    draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=bg)
    text(draw, (x + w / 2, y + h / 2), label, size, fill=fg, anchor="mm")
    return x + w


@lru_cache(maxsize=16)
def shadow(width: int) -> Image.Image:
    """A soft drop shadow for a card ``width`` wide (RGBA)."""
    pad = max(4, width // 10)
    h = card_height(width)
    mask = Image.new("L", (width + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad, pad + width, pad + h), radius=width // 14,
                                           fill=110)
    mask = mask.filter(ImageFilter.GaussianBlur(pad / 2))
    out = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    out.putalpha(mask)
    return out


def place_card(image: Image.Image, card_id: str | None, x: int, y: int, width: int,
               korean: bool = False, highlight: bool = False, with_shadow: bool = False) -> None:
    """Paste a card face (or the back for ``None``) with its top-left at (x, y)."""
    sprite = back_sprite(width) if card_id is None else card_sprite(card_id, width, korean)
    if with_shadow:
        sh = shadow(width)
        pad = (sh.width - width) // 2
        image.paste(sh, (x - pad + 2, y - pad + 3), sh)
    image.paste(sprite, (x, y), sprite)
    if highlight:
        outline_card(ImageDraw.Draw(image), x, y, width)


def outline_card(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, colour=HIGHLIGHT,
                 thickness: int = 3) -> None:
    h = card_height(width)
    draw.rounded_rectangle((x - thickness, y - thickness, x + width + thickness - 1,
                            y + h + thickness - 1), radius=width // 12 + thickness,
                           outline=colour, width=thickness)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes in 256 colours: the felt's colours exact, the rest by a fast octree.

    Cards and text are flat-coloured, so the octree shows no visible loss; reserving the felt's
    colours keeps its vignette free of bands.
    """
    rgb = image.convert("RGB")
    free = 256 - len(FELT_PALETTE)
    octree = rgb.quantize(colors=free, method=Image.Quantize.FASTOCTREE)
    palette = octree.getpalette()[: 3 * free]
    palette += [c for colour in FELT_PALETTE for c in colour]
    palette_image = Image.new("P", (1, 1))
    palette_image.putpalette(palette)
    quantised = rgb.quantize(palette=palette_image, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantised.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def card_strip(image: Image.Image, cards: tuple[str, ...], x: int, y: int, width: int,
               max_width: int, korean: bool = False) -> int:
    """Cards side by side, overlapping (down to the corner index) when space is short; returns
    the width used."""
    if not cards:
        return 0
    n = len(cards)
    step = width + 4
    if n > 1 and width + (n - 1) * step > max_width:
        step = max(8, (max_width - width) // (n - 1))
    for i, cid in enumerate(cards):
        place_card(image, cid, x + i * step, y, width, korean)
    return width + (n - 1) * step


def wrap_text(s: str, size: int, width: float, max_lines: int = 2) -> list[str]:
    """Split ``s`` into at most ``max_lines`` lines of ``width`` pixels (the last shortened)."""
    words, lines, current = latin_safe(s).split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if text_width(trial, size) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    lines.append(current)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    return [fit_text(line, size, width) for line in lines]
