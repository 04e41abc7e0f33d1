"""Wording shared by every message, control and image: counted nouns and text shortened at a word.

Kept to a few plain functions so that one place decides how a count or a cut reads, in every
language the bot speaks.
"""

from __future__ import annotations

from datetime import date

from babel.dates import format_skeleton

from bot.i18n import N_, NN_, NP_, counted, current, number, t, tp

__all__ = ["ELLIPSIS", "NAME", "NOUNS", "RATING_NOTE", "SETTLING_SIGMA", "amount", "capitalized",
           "currency_noun", "day_text", "plural", "rating", "shorten"]

ELLIPSIS = "…"
NAME = 64
"""Characters of a member's, server's or currency's name that a message shows."""

# Every noun the bot counts, with its English forms: the catalogs give each language's own
# (Japanese and Korean have one form for any number; "{n}" is the number as that language
# writes it). A noun missing here is an error the tests catch (see test_words).
NOUNS: dict[str, tuple[str, str]] = {
    "point": NN_("{n} point", "{n} points"),
    "pt": NN_("{n} pt", "{n} pts"),
    "card point": NN_("{n} card point", "{n} card points"),
    "card pt": NN_("{n} card pt", "{n} card pts"),
    "player": NN_("{n} player", "{n} players"),
    "person": NN_("{n} person", "{n} people"),
    "card": NN_("{n} card", "{n} cards"),
    "bright": NN_("{n} bright", "{n} brights"),
    "game": NN_("{n} game", "{n} games"),
    "rated game": NN_("{n} rated game", "{n} rated games"),
    "match": NN_("{n} match", "{n} matches"),
    "round": NN_("{n} round", "{n} rounds"),
    "deal": NN_("{n} deal", "{n} deals"),
    "hand": NN_("{n} hand", "{n} hands"),  # a betting game's round, as its table names it
    "turn": NN_("{n} turn", "{n} turns"),
    "bomb turn": NN_("{n} bomb turn", "{n} bomb turns"),
    "move": NN_("{n} move", "{n} moves"),
    "victory": NN_("{n} victory", "{n} victories"),
    "win": NN_("{n} win", "{n} wins"),
    "loss": NN_("{n} loss", "{n} losses"),
    "entry": NN_("{n} entry", "{n} entries"),
    "time": NN_("{n} time", "{n} times"),
    "pass": NN_("{n} pass", "{n} passes"),
    "bonus": NN_("{n} bonus", "{n} bonuses"),
    "ppeok": NN_("{n} ppeok", "{n} ppeok"),
    "pi": NN_("{n} pi", "{n} pi"),
    "yaku": NN_("{n} yaku", "{n} yaku"),
    "teyaku": NN_("{n} teyaku", "{n} teyaku"),
    "batsu": NN_("{n} batsu", "{n} batsu"),
    "chip": NN_("{n} chip", "{n} chips"),
    "second": NN_("{n} second", "{n} seconds"),
    "minute": NN_("{n} minute", "{n} minutes"),
    "hour": NN_("{n} hour", "{n} hours"),
    "day": NN_("{n} day", "{n} days"),
    "command": NN_("{n} command", "{n} commands"),
    "character": NN_("{n} character", "{n} characters"),
    "dot-separated part": NN_("{n} dot-separated part", "{n} dot-separated parts"),
}
DEFAULT_CURRENCY = "chips"


def plural(n: int, noun: str, many: str | None = None, *, signed: bool = False, bold: bool = False) -> str:
    """``n`` and ``noun`` in the current language: "1 point", "0 points", "2 games"; in
    Japanese "2点"... ``noun`` is one of :data:`NOUNS` (``many``, an English plural of an
    unknown noun, is kept for text that is never translated). Thousands are grouped ("1,200
    chips"); a negative count keeps its sign, and ``signed`` shows a plus on a gain too.
    ``bold`` sets the number in Markdown bold ("**2** chips").
    """
    shown = number(n, signed=signed)
    if bold:
        shown = f"**{shown}**"
    forms = NOUNS.get(noun)
    if forms is None:
        if not many:
            raise KeyError(f"plural(): {noun!r} is not a known noun (add it to bot.words.NOUNS)")
        return f"{shown} {noun if abs(n) == 1 else many}"
    return counted(forms, n, shown)


def amount(n: int, currency: str, *, signed: bool = False, bold: bool = False) -> str:
    """``n`` of a server's currency: the default ("chips") is counted in the current language
    ("1 chip", "1,000チップ"); a name the server chose is its own text, never translated, and
    written as the server wrote it ("12 gold coins", "5 yen")."""
    if currency == DEFAULT_CURRENCY:
        return plural(n, "chip", signed=signed, bold=bold)
    shown = number(n, signed=signed)
    name = _singular(currency) if abs(n) == 1 and current() == "en" else currency
    return f"**{shown}** {name}" if bold else f"{shown} {name}"


def currency_noun(currency: str) -> str:
    """A server's currency as a plain noun ("chips", "チップ"; a chosen name as written)."""
    return tp("currency", NP_("currency", "chips")) if currency == DEFAULT_CURRENCY else currency


def capitalized(text: str) -> str:
    """``text`` with its first letter in capitals (scripts without case are left as they are)."""
    return text[:1].upper() + text[1:]


def _singular(name: str) -> str:
    """The English singular of a currency named in the plural ("gold coins", "pennies")."""
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


SETTLING_SIGMA = 400.0
"""An uncertainty above which a rating reads "still settling": a newcomer starts at 500, and
about eight games between equals bring it under."""
RATING_NOTE = N_("Ratings are cautious estimates: the bot's idea of a player's skill less what it "
                 "is still unsure of (±), so they start near 0, may go below it, and settle as "
                 "games are played.")


def rating(value: float, sigma: float | None) -> str:
    """A conservative rating (mu - 3 sigma) with its uncertainty as players read it:
    "1,123 (± 236)", or "206 (still settling)" while the bot knows little of the player."""
    shown = number(round(value))
    if sigma is None:
        return shown
    if sigma >= SETTLING_SIGMA:
        return t("{rating} (still settling)", rating=shown)
    return t("{rating} (± {spread})", rating=shown, spread=number(round(sigma)))


def day_text(day: str) -> str:
    """A day (ISO, as the deal of the day names one) as the language spoken writes it
    ("Nov 30, 2026", 「2026年11月30日」)."""
    return format_skeleton("yMMMd", date.fromisoformat(day), locale=current())
