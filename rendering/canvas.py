"""Shared drawing helpers for the images: felt background, text, chips, card placement, PNG."""

from __future__ import annotations

import io
import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from .art.palette import FELT, FELT_DARK, HIGHLIGHT, INK, TEXT
from .fonts import latin, latin_safe
from .sprites import back_sprite, card_height, card_sprite

MARGIN = 16


@lru_cache(maxsize=16)
def felt(width: int, height: int) -> Image.Image:
    """A dark-green felt with a soft vignette and a faint, fixed grain (cached per size; copy it)."""
    glow = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    base = Image.composite(Image.new("RGB", (width, height), FELT_DARK),
                           Image.new("RGB", (width, height), FELT), glow.point(lambda v: v * 3 // 4))
    size = (max(1, width // 3), max(1, height // 3))
    grain = random.Random(f"felt-{width}x{height}").randbytes(size[0] * size[1])
    noise = Image.frombytes("L", size, grain).resize((width, height), Image.Resampling.BILINEAR)
    tone = Image.merge("RGB", (noise, noise, noise))
    return Image.blend(base, tone, 0.05)


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
    """PNG bytes, quantised to 256 colours (fast octree; no visible loss on these flat images)."""
    quantised = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
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
