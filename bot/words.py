"""Wording shared by every message, control and image: counted nouns and text shortened at a word.

Kept to a few plain functions so that one place decides how a count or a cut reads (and one
place changes when the texts move to translation catalogs).
"""

from __future__ import annotations

__all__ = ["ELLIPSIS", "amount", "plural", "shorten"]

ELLIPSIS = "…"

# Nouns whose plural is not the noun plus "s".
_IRREGULAR = {"match": "matches", "pass": "passes", "entry": "entries", "bonus": "bonuses",
              "ppeok": "ppeok", "pi": "pi", "yaku": "yaku", "teyaku": "teyaku", "batsu": "batsu",
              "person": "people", "loss": "losses"}


def plural(n: int, noun: str, many: str | None = None, *, signed: bool = False, bold: bool = False) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is one: "1 point", "0 points", "2 games".

    ``many`` spells an irregular plural the table above does not know. Thousands are grouped
    ("1,200 chips"); a negative count keeps its sign, and ``signed`` shows a plus on a gain too.
    ``bold`` sets the number in Markdown bold ("**2** chips").
    """
    word = noun if abs(n) == 1 else (many or _IRREGULAR.get(noun) or noun + "s")
    number = f"{n:+,}" if signed and n else f"{n:,}"
    return f"**{number}** {word}" if bold else f"{number} {word}"


def amount(n: int, currency: str, *, signed: bool = False, bold: bool = False) -> str:
    """``n`` of a server's currency, whose name is chosen in the plural ("chips", "gold coins",
    "yen"): one is named in the singular when the name is a regular plural ("1 chip")."""
    return plural(n, _singular(currency), currency, signed=signed, bold=bold)


def _singular(name: str) -> str:
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith(("ss", "us", "is")):
        return name[:-1]
    return name


def shorten(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else as many whole words as fit with an
    ellipsis after them; a single word longer than the limit is cut inside (there is no other
    way to fit it). Punctuation left dangling before the ellipsis is dropped."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    room = text[: limit - 1]
    cut = room.rfind(" ")
    if cut > 0 and not text[limit - 1].isspace():
        room = room[:cut]
    room = room.rstrip(" ,;:·-–—(+→&/")
    return (room or text[: limit - 1]) + ELLIPSIS
