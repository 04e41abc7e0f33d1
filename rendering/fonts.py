"""Fonts: Pillow's built-in scalable font for Latin text, Noto Sans CJK for everything else.

Noto Sans CJK JP (SIL Open Font License) comes from the package registry with the bot (the
``noto-cjk-sans-jp-regular`` package), so kana, kanji and Hangul are drawn on any machine, with no
system font and nothing to configure. A text the built-in font can draw whole is drawn with it
(the look of the tables stays as it was); any other text is drawn with Noto, which also has Latin.
A character neither font has (an emoji, a rare script) is written out in ASCII (``anyascii``),
so no image ever shows the empty "missing glyph" box.

Another CJK font can be chosen: the ``cjk_font`` argument, then the ``HANAFUDA_CJK_FONT``
environment variable; it is used only when it really has the glyphs.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import noto_cjk_sans_jp_regular
from anyascii import anyascii
from PIL import Image, ImageDraw, ImageFont

from bot.cards import MONTHS, PLANT_KOREAN
from bot.i18n import current

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


def bundled_cjk_font() -> str:
    """The Noto Sans CJK file installed with the bot."""
    return str(noto_cjk_sans_jp_regular.FONT_PATH)


@lru_cache(maxsize=8)
def find_cjk_font(cjk_font: str | None = None) -> str | None:
    """Path of a usable CJK font: the argument, the env var, the bundled Noto, then the system
    (``None`` only if even the bundled file is gone)."""
    explicit = cjk_font or os.environ.get(CJK_ENV_VAR)
    if explicit and _has_glyphs(explicit, _PROBE_TEXT):
        return explicit
    for path in (bundled_cjk_font(), *_system_cjk_candidates()):
        if _has_glyphs(path, _PROBE_TEXT):
            return path
    return None


@lru_cache(maxsize=32)
def cjk(size: int, path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def month_caption(month: int, cjk_font: str | None = None, korean: bool = False) -> tuple[str, bool]:
    """Caption for a month (Japanese number 1..12) in the current language, and whether it needs
    the CJK font: English ``("Jan pine", False)``, Japanese ``("一月 松", True)``, Korean
    ``("1월 송학", True)``. ``korean`` numbers the months as Go-Stop does (willow is 12):
    ``("12 willow", False)``, ``("12 柳", True)``, ``("12월 비", True)``. Without any CJK font the
    English caption is drawn whatever the language.
    """
    m = MONTHS[month - 1]
    language = current() if find_cjk_font(cjk_font) is not None else "en"
    if language == "ko":
        return f"{m.korean_number if korean else month}월 {PLANT_KOREAN[month - 1]}", True
    if language == "ja":
        return (f"{m.korean_number} {m.plant_kanji}" if korean else f"{m.month_kanji} {m.plant_kanji}"), True
    return (f"{m.korean_number} {m.plant}" if korean else f"{MONTH_ABBR[month - 1]} {m.plant}"), False


def caption_font(size: int, is_cjk: bool, cjk_font: str | None = None) -> ImageFont.FreeTypeFont:
    """The font for a caption returned by :func:`month_caption`."""
    path = find_cjk_font(cjk_font) if is_cjk else None
    return cjk(size, path) if path else latin(size)


_REPLACEMENTS = {"×": "x", "–": "-", "—": "-", "−": "-", "→": "->", "…": "...", "✓": "ok", "★": "*"}


@lru_cache(maxsize=8192)
def _latin_ok(ch: str) -> bool:
    return ch.isspace() or has_glyphs(latin(24), ch)


@lru_cache(maxsize=8192)
def _cjk_ok(ch: str) -> bool:
    path = find_cjk_font()
    return path is not None and (ch.isspace() or has_glyphs(cjk(24, path), ch))


@lru_cache(maxsize=4096)
def latin_safe(text: str) -> str:
    """``text`` with characters the built-in font lacks replaced (``×`` -> ``x``) or dropped,
    for the few labels that must stay in the built-in font (card numbers)."""
    out = []
    for ch in text:
        if ord(ch) < 127 or _latin_ok(ch):
            out.append(ch)
        else:
            out.append(_REPLACEMENTS.get(ch, ""))
    return "".join(out)


@lru_cache(maxsize=8192)
def drawable(text: str) -> str:
    """``text`` as it can be drawn: every character one of the fonts has is kept; any other is
    written out in ASCII ("😀" -> ":grinning:"), or left out when it has no such spelling."""
    out = []
    for ch in text:
        if ord(ch) < 127 or _latin_ok(ch) or _cjk_ok(ch):
            out.append(ch)
        elif ch in _REPLACEMENTS:
            out.append(_REPLACEMENTS[ch])
        else:
            out.append(anyascii(ch))
    return "".join(out)


@lru_cache(maxsize=8192)
def needs_cjk(text: str) -> bool:
    """Whether ``text`` (already :func:`drawable`) has characters the built-in font lacks."""
    return not all(ord(ch) < 127 or _latin_ok(ch) for ch in text)


def face(text: str, size: int) -> ImageFont.FreeTypeFont:
    """The font that draws ``text`` (already :func:`drawable`) whole at ``size`` pixels."""
    path = find_cjk_font() if needs_cjk(text) else None
    return cjk(size, path) if path else latin(size)
