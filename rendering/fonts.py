"""Fonts: Pillow's built-in scalable font for Latin text, and an optional CJK font for kanji.

A CJK font is used only when it really has the glyphs (checked against the font's own "missing
glyph" box), so kanji never render as empty boxes. Sources, in order: the ``cjk_font`` argument,
the ``HANAFUDA_CJK_FONT`` environment variable, then well-known font files under the usual
fontconfig directories.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.cards import MONTHS

CJK_ENV_VAR = "HANAFUDA_CJK_FONT"
FONT_DIRS: tuple[str, ...] = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
)
# Lower-case file name fragments of common CJK fonts, best first.
CJK_FILE_HINTS: tuple[str, ...] = (
    "notosanscjk",
    "notoserifcjk",
    "notosansjp",
    "droidsansfallback",
    "ipaexg",
    "ipag",
    "ipaexm",
    "ipam",
    "wqy-zenhei",
    "wqy-microhei",
)
_FONT_SUFFIXES = (".ttc", ".otf", ".ttf")
_PROBE_TEXT = "一二三四五六七八九十月松梅桜藤菖蒲牡丹萩芒菊紅葉柳桐"


@lru_cache(maxsize=64)
def latin(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


def _glyph_pixels(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    image = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(image).text((8, 8), ch, font=font, fill=255)
    return image.tobytes()


def has_glyphs(font: ImageFont.FreeTypeFont, text: str) -> bool:
    """True if ``font`` draws every character of ``text`` with a real glyph (no empty box)."""
    missing = _glyph_pixels(font, "\U0010fffd")
    return all(_glyph_pixels(font, ch) != missing for ch in text if not ch.isspace())


def _has_glyphs(path: str, text: str) -> bool:
    try:
        font = ImageFont.truetype(path, 24)
    except OSError:
        return False
    return has_glyphs(font, text)


def _system_cjk_candidates() -> list[str]:
    found: list[tuple[int, str]] = []
    for root in FONT_DIRS:
        base = Path(root).expanduser()
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            name = path.name.lower().replace(" ", "").replace("_", "")
            if not name.endswith(_FONT_SUFFIXES):
                continue
            for rank, hint in enumerate(CJK_FILE_HINTS):
                if hint in name:
                    found.append((rank, str(path)))
                    break
    return [p for _, p in sorted(found)]


@lru_cache(maxsize=8)
def find_cjk_font(cjk_font: str | None = None) -> str | None:
    """Path of a usable CJK font, or ``None``: argument, then env var, then the system."""
    explicit = cjk_font or os.environ.get(CJK_ENV_VAR)
    if explicit:
        return explicit if _has_glyphs(explicit, _PROBE_TEXT) else None
    for path in _system_cjk_candidates():
        if _has_glyphs(path, _PROBE_TEXT):
            return path
    return None


@lru_cache(maxsize=32)
def cjk(size: int, path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def month_caption(month: int, cjk_font: str | None = None, korean: bool = False) -> tuple[str, bool]:
    """Caption for a month (Japanese number 1..12) and whether it needs the CJK font.

    With a CJK font: ``("一月 松", True)``; without: ``("Jan pine", False)``. ``korean`` uses the
    Go-Stop number instead of the month name: ``("12 柳", True)`` / ``("12 willow", False)``.
    """
    m = MONTHS[month - 1]
    has_cjk = find_cjk_font(cjk_font) is not None
    if korean:
        return f"{m.korean_number} {m.plant_kanji if has_cjk else m.plant}", has_cjk
    if has_cjk:
        return f"{m.month_kanji} {m.plant_kanji}", True
    return f"{MONTH_ABBR[month - 1]} {m.plant}", False


def caption_font(size: int, is_cjk: bool, cjk_font: str | None = None) -> ImageFont.FreeTypeFont:
    """The font for a caption returned by :func:`month_caption`."""
    path = find_cjk_font(cjk_font) if is_cjk else None
    return cjk(size, path) if path else latin(size)


_REPLACEMENTS = {"×": "x", "–": "-", "—": "-", "−": "-", "→": "->", "…": "...", "✓": "ok", "★": "*"}


@lru_cache(maxsize=4096)
def _latin_ok(ch: str) -> bool:
    return ch.isspace() or has_glyphs(latin(24), ch)


@lru_cache(maxsize=4096)
def latin_safe(text: str) -> str:
    """``text`` with characters the built-in font lacks replaced (``×`` -> ``x``) or dropped,
    so no empty boxes are ever drawn."""
    out = []
    for ch in text:
        if ord(ch) < 127 or _latin_ok(ch):
            out.append(ch)
        else:
            out.append(_REPLACEMENTS.get(ch, ""))
    return "".join(out)
