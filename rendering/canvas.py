"""Shared drawing helpers for the images: felt background, text, chips, card placement, PNG."""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .art.palette import FELT, FELT_DARK, HIGHLIGHT, INK, TEXT
from .fonts import drawable, face, needs_cjk
from .sprites import back_sprite, card_height, card_sprite, index_text, index_width

MARGIN = 16
IMAGE_WIDTH = 1000
"""Width of the table, summary and sheet images: crisp at Discord's display size."""

PHONE_WIDTH = 400
"""The width a phone shows a picture at: Discord fits it to the message column, about 400 px."""
PHONE_EM = 8
"""The smallest text a player reads at :data:`PHONE_WIDTH`: the pixel size of a font (its em),
once the picture is scaled to that width. See docs/images.md, "Readable on a phone"."""


def readable(width: int) -> int:
    """The smallest font size a picture ``width`` pixels wide may use: :data:`PHONE_EM` once it
    is shown :data:`PHONE_WIDTH` wide (a narrower picture is not enlarged)."""
    return math.ceil(PHONE_EM * max(width, PHONE_WIDTH) / PHONE_WIDTH)


SMALL = readable(IMAGE_WIDTH)
"""The smallest font size of a picture :data:`IMAGE_WIDTH` wide (20 px)."""

Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass(frozen=True, slots=True)
class DrawnText:
    """A text as a picture drew it: the characters, the font size and the box its glyphs
    cover (a card's month number is one too, drawn on the card's sprite)."""

    text: str
    size: int
    box: Box
    order: int


@dataclass(frozen=True, slots=True)
class DrawnPanel:
    """A filled shape that holds texts or cards (a player's panel, a row, a chip)."""

    box: Box
    order: int


@dataclass(frozen=True, slots=True)
class DrawnCard:
    box: Box
    order: int


@dataclass
class Layout:
    """What a picture drew and where, in drawing order: the tests of its geometry read this."""

    texts: list[DrawnText] = field(default_factory=list)
    panels: list[DrawnPanel] = field(default_factory=list)
    cards: list[DrawnCard] = field(default_factory=list)
    count: int = 0

    def _next(self) -> int:
        self.count += 1
        return self.count


_layout: contextvars.ContextVar[Layout | None] = contextvars.ContextVar("layout", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Layout]:
    """Record the texts, panels and cards every picture drawn inside the block puts down."""
    layout = Layout()
    token = _layout.set(layout)
    try:
        yield layout
    finally:
        _layout.reset(token)


def _record_text(s: str, size: int, box: Box) -> None:
    layout = _layout.get()
    if layout is not None and s.strip():
        layout.texts.append(DrawnText(s, size, box, layout._next()))


def panel(draw: ImageDraw.ImageDraw, box: Box, radius: int, fill, outline=None, width: int = 0,
          disc: bool = False) -> None:
    """A rounded panel (or a ``disc``) that holds texts or cards, recorded as one."""
    if disc:
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    else:
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
    layout = _layout.get()
    if layout is not None:
        layout.panels.append(DrawnPanel(tuple(box), layout._next()))


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
"""Colours kept exact in the palette of :func:`encode_png` so the felt's vignette never bands."""


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


def _stroke(size: int, bold: bool) -> int:
    return 1 if bold and size >= 14 else 0


@lru_cache(maxsize=4096)
def _glyphs(s: str, size: int, stroke: int, anchor: str, fx: float, fy: float
            ) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask of a text and its offset from the anchor point, rasterised once.

    The same labels ("Stock", names, scores) come back on every image; rasterising is most of
    the cost of drawing a table. The mask also depends on the anchor's sub-pixel position.
    """
    core, offset = face(s, size).getmask2(s, "L", stroke_width=stroke, anchor=anchor,
                                        start=(fx, fy), stroke_filled=True)
    return Image.Image()._new(core), offset


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int,
         fill=TEXT, anchor: str = "la", bold: bool = False,
         font: ImageFont.FreeTypeFont | None = None) -> float:
    """Draw text in any script; returns its width. Characters no font has are spelled out,
    never drawn as empty boxes.

    Pixel for pixel what ``draw.text`` draws (stroked in its own colour when bold), from a
    cache of rasterised labels; ``font`` (``size`` pixels) draws it in a font the caller chose.
    """
    if font is not None:
        draw.text(xy, s, font=font, fill=fill, anchor=anchor)
        left, top, right, bottom = font.getbbox(s, anchor=anchor)
        _record_text(s, size, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom))
        return font.getlength(s)
    s = drawable(s)
    stroke = _stroke(size, bold)
    if s:
        x, y = xy
        mask, (ox, oy) = _glyphs(s, size, stroke, anchor, math.modf(x)[0], math.modf(y)[0])
        draw.bitmap((int(x) + ox, int(y) + oy), mask, fill=fill)
        if _layout.get() is not None:
            left, top, right, bottom = face(s, size).getbbox(s, anchor=anchor, stroke_width=stroke)
            _record_text(s, size, (x + left, y + top, x + right, y + bottom))
    return _length(s, size) + 2 * stroke


@lru_cache(maxsize=8192)
def _length(s: str, size: int) -> float:
    return face(s, size).getlength(s)


def text_width(s: str, size: int, bold: bool = False) -> float:
    return _length(drawable(s), size) + 2 * _stroke(size, bold)


ELLIPSIS = "..."  # the built-in font has no "…"
_DANGLING = " ,;:·-+(&/"


def fit_text(s: str, size: int, width: float, bold: bool = False) -> str:
    """``s`` if it fits ``width`` pixels, else as many whole words as fit and '...'; a first word
    too long on its own is cut inside (the only way left to fit it)."""
    s = drawable(s)
    if text_width(s, size, bold) <= width:
        return s
    words = s.split(" ")
    while len(words) > 1:
        words.pop()
        head = " ".join(words).rstrip(_DANGLING)
        if head and text_width(head + ELLIPSIS, size, bold) <= width:
            return head + ELLIPSIS
    head = words[0]
    while head and text_width(head + ELLIPSIS, size, bold) > width:
        head = head[:-1]
    if head:
        return head + ELLIPSIS
    return ELLIPSIS if text_width(ELLIPSIS, size, bold) <= width else ""


def fit_line(s: str, size: int, width: float, min_size: int | None = None,
             bold: bool = False) -> tuple[str, int]:
    """The text and size to draw ``s`` within ``width`` pixels: the size lowered a pixel at a
    time down to ``min_size`` (three quarters of ``size`` by default, never under 11), then the
    text shortened at a word at that size."""
    s = drawable(s)
    low = min(size, min_size or max(11, round(size * 0.75)))
    for px in range(size, low - 1, -1):
        if text_width(s, px, bold) <= width:
            return s, px
    return fit_text(s, low, width, bold), low


def fitted_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, width: float,
                min_size: int | None = None, fill=TEXT, anchor: str = "la", bold: bool = False) -> float:
    """Draw ``s`` fitted into a box ``width`` pixels wide (see :func:`fit_line`); returns its width."""
    shown, px = fit_line(s, size, width, min_size, bold)
    return text(draw, xy, shown, px, fill=fill, anchor=anchor, bold=bold)


def chip(draw: ImageDraw.ImageDraw, x: float, y: float, label: str, size: int, fg=INK,
         bg=(236, 230, 212), height: int | None = None) -> float:
    """A rounded label with its top-left at (x, y); returns its right edge."""
    h = height or round(size * 1.5)
    w = text_width(label, size) + size
    panel(draw, (x, y, x + w, y + h), h // 2, bg)
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
    layout = _layout.get()
    if layout is not None:
        layout.cards.append(DrawnCard((x, y, x + width, y + sprite.height), layout._next()))
        if card_id is not None:
            number, size, (left, top, right, bottom) = index_text(card_id, width, korean)
            _record_text(number, size, (x + left, y + top, x + right, y + bottom))
    if highlight:
        outline_card(ImageDraw.Draw(image), x, y, width)


def outline_card(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, colour=HIGHLIGHT,
                 thickness: int = 3) -> None:
    h = card_height(width)
    draw.rounded_rectangle((x - thickness, y - thickness, x + width + thickness - 1,
                            y + h + thickness - 1), radius=width // 12 + thickness,
                           outline=colour, width=thickness)


def card_strip(image: Image.Image, cards: tuple[str, ...], x: int, y: int, width: int,
               max_width: int, korean: bool = False) -> int:
    """Cards side by side, overlapping down to the corner index when space is short; returns the
    width used. Cards that would hide a neighbour's month number are not drawn: the strip ends
    with how many more there are ("+6"), ``SMALL`` pixels tall."""
    if not cards:
        return 0
    n = len(cards)
    step = width + 4
    if n > 1 and width + (n - 1) * step > max_width:
        step = max(index_width(width), (max_width - width) // (n - 1))
    shown = n
    while shown > 1 and width + (shown - 1) * step + (_more_width(n - shown) if shown < n else 0) > max_width:
        shown -= 1
    for i, cid in enumerate(cards[:shown]):
        place_card(image, cid, x + i * step, y, width, korean)
    used = width + (shown - 1) * step
    if shown < n:
        more = f"+{n - shown}"
        draw = ImageDraw.Draw(image, "RGBA")
        text(draw, (x + used + 6, y + card_height(width) / 2), more, SMALL, fill=TEXT, anchor="lm", bold=True)
        used += _more_width(n - shown)
    return used


def _more_width(hidden: int) -> int:
    """The room "+n" takes after a strip of cards, with its gap."""
    return 6 + math.ceil(text_width(f"+{hidden}", SMALL, True))


# Where Japanese, written without spaces, may break: after these marks a line breaks best.
_STOPS = frozenset("、。，．！？：；・")
_CLOSING = frozenset("）」』】〕〉》")
# Kinsoku: what may not begin a line (closing marks, small kana, the long vowel mark) or end one.
_NO_START = _STOPS | _CLOSING | frozenset("ー～ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?:;)]}")
_NO_END = frozenset("（「『【〔〈《([{")
FULL_ENOUGH = 0.75  # the share of its width a line ended early, at punctuation, keeps


def _hiragana(ch: str) -> bool:
    return "\u3041" <= ch <= "\u309f"


def _phrases(word: str) -> list[tuple[str, bool]]:
    """A word with CJK characters cut where a line may break, each piece with whether the break
    before it is a good one: after punctuation (good), and where a run of hiragana (a particle,
    an inflection) or a closing mark gives way to a new word in kanji, katakana or digits (fair).
    Hangul words are written with spaces between them and stay whole."""
    pieces, start = [(word, True)], 0
    for i in range(1, len(word)):
        before, ch = word[i - 1], word[i]
        if ch in _NO_START or before in _NO_END:
            continue
        good = before in _STOPS
        if good or ((_hiragana(before) or before in _CLOSING) and not _hiragana(ch)):
            pieces[-1] = (word[start:i], pieces[-1][1])
            pieces.append((word[i:], good))
            start = i
    return pieces


def _characters(piece: str, good: bool) -> list[tuple[str, bool]]:
    """A CJK piece too long for a line, in characters that may begin one: a closing mark or small
    kana stays with the character before it, an opening mark with the one after."""
    out: list[tuple[str, bool]] = []
    for ch in piece:
        if out and (out[-1][0].isspace() or ch in _NO_START or out[-1][0][-1] in _NO_END):
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, good if not out else False))
    return out


def _pieces(s: str, size: int, width: float, loose: bool = False) -> list[tuple[str, bool]]:
    """What a line may break between, each with whether the break before it is a good one:
    words (a space before a piece is kept with it), Japanese phrases (:func:`_phrases`), and the
    characters of a CJK phrase wider than a line, or of every CJK phrase when ``loose``; a Latin
    word too long stays whole, to be shortened."""
    pieces: list[tuple[str, bool]] = []
    for i, word in enumerate(s.split()):
        lead = " " if i else ""
        parts = _phrases(word) if needs_cjk(word) else [(word, True)]
        for j, (part, good) in enumerate(parts):
            part = lead + part if j == 0 else part
            if needs_cjk(part) and (loose or text_width(part.strip(), size) > width):
                pieces.extend(_characters(part, good))
            else:
                pieces.append((part, good))
    return pieces


def _joined(pieces: list[tuple[str, bool]]) -> str:
    return "".join(p for p, _ in pieces).lstrip()


def _line_end(line: list[tuple[str, bool]], after: tuple[str, bool], size: int, width: float,
              early: bool) -> int:
    """How many pieces of ``line`` stay on it when ``after`` does not fit: all of them, or (when
    ``early``) those before its last good break when the break before ``after`` is only a fair
    one and the line stays well filled (Japanese breaks at punctuation rather than between the
    words of a phrase)."""
    if after[1] or not early:
        return len(line)
    for k in range(len(line) - 1, 0, -1):
        if line[k][1]:
            return k if text_width(_joined(line[:k]), size) >= FULL_ENOUGH * width else len(line)
    return len(line)


def _wrap(pieces: list[tuple[str, bool]], size: int, width: float,
          early: bool = True) -> list[list[tuple[str, bool]]]:
    """The pieces in lines of ``width`` pixels (see :func:`_line_end` for ``early``), no stray
    character or two left alone on the last."""
    lines: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    for piece in pieces:
        while current and text_width(_joined([*current, piece]), size) > width:
            cut = _line_end(current, piece, size, width, early)
            lines.append(current[:cut])
            current = current[cut:]
        current.append(piece)
    lines.append(current)
    last = _joined(lines[-1])
    if len(lines) > 1 and len(lines[-2]) > 1 and needs_cjk(last) and len(last.replace(" ", "")) <= 2:
        moved = lines[-2][-1:] + lines[-1]  # a stray character or two takes the phrase before along
        if text_width(_joined(moved), size) <= width:
            lines[-2:] = [lines[-2][:-1], moved]
    return lines


def wrap_text(s: str, size: int, width: float, max_lines: int = 2) -> list[str]:
    """Split ``s`` into at most ``max_lines`` lines of ``width`` pixels (the last shortened),
    never inside a word: Japanese at punctuation where it can, else between phrases, and never
    leaving a last line of one or two characters. CJK text breaks between any two characters
    only when that is what keeps it whole within ``max_lines``."""
    s = drawable(s)
    lines = _wrap(_pieces(s, size, width), size, width)
    if len(lines) > max_lines and needs_cjk(s):
        loose = _wrap(_pieces(s, size, width, loose=True), size, width, early=False)
        lines = loose if len(loose) <= max_lines else lines
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], [p for line in lines[max_lines - 1:] for p in line]]
    return [fit_text(_joined(line), size, width) for line in lines]
