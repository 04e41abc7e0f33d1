"""Every word a player reads, in their language: English, Japanese or Korean.

The English text in the code is the key (gettext style), so the code reads as it always did;
``bot/i18n/locales/<language>/<area>.po`` hold the translations, read with Babel. Mark text
where it is written, translate it where it is shown::

    t("Your turn in {channel}.", channel=mention)          # a sentence
    tn("{n} point", "{n} points", total)                    # a count: the language's plural rules
    tp("yaku", "Inoshikacho")                               # a word whose meaning needs a context
    CLOSED = N_("This lobby is closed.")  ...  t(CLOSED)    # kept now, translated when shown

Which language: :func:`speaking` sets it for a block of work (the presser's language for an
ephemeral answer, the server's for a public table); :func:`current` reads it. The English
catalog is the code itself: a text missing from a catalog is shown in English, never blank.

Placeholders are ``str.format`` fields by name; a literal brace in a text with fields is doubled.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from typing import Any

from babel.numbers import format_decimal

from .catalogs import translations
from .korean import particles

__all__ = ["DEFAULT", "LANGUAGES", "LANGUAGE_NAMES", "NN_", "NP_", "N_", "Names", "counted", "current", "language_of", "number",
           "speaking", "t", "tn", "tp"]

LANGUAGES = ("en", "ja", "ko")
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "ko": "한국어"}

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=DEFAULT)


def language_of(locale: Any) -> str:
    """The language this bot speaks to a Discord locale (``discord.Locale`` or its value, such
    as ``"ja"``, ``"ko"``, ``"en-US"``): Japanese, Korean, else English."""
    value = str(getattr(locale, "value", locale) or "").lower()
    code = value.split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT


def current() -> str:
    """The language of the work under way (English unless :func:`speaking` said otherwise)."""
    return _language.get()


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` inside the block (an unknown or empty one: English)."""
    chosen = language if language in LANGUAGES else DEFAULT
    token = _language.set(chosen)
    try:
        yield chosen
    finally:
        _language.reset(token)


def set_language(language: str | None) -> str:
    """Speak ``language`` from now on in this task (the entry of an interaction: the task is the
    interaction's own, so nothing else hears it). Returns the language set."""
    chosen = language if language in LANGUAGES else DEFAULT
    _language.set(chosen)
    return chosen


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (module constants: translate
    with :func:`t` where they are shown)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` with its ``context`` for the catalogs without translating it (tables of
    names: translate with :func:`tp` and the same context where they are shown)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted text's English forms for the catalogs (a table of counted nouns: say them
    with :func:`counted`)."""
    return singular, plural


def counted(forms: tuple[str, str], n: int, shown: str | None = None) -> str:
    """A counted text marked with :func:`NN_`, in the current language, for ``n``; ``{n}`` is
    ``shown`` (default: the number as the language writes it)."""
    text = translations(_language.get()).ngettext(forms[0], forms[1], abs(n))  # "-1 point"
    return text.format(n=number(n) if shown is None else shown)


class Names(Mapping[str, str]):
    """A table of names marked with :func:`NP_` whose values are read in the current language:
    ``GAME_NAMES["koikoi"]`` is "Koi-Koi", "こいこい" or "고이고이" as the work under way speaks."""

    def __init__(self, context: str, names: Mapping[str, str]) -> None:
        self.context = context
        self._names = dict(names)

    def __getitem__(self, key: str) -> str:
        return tp(self.context, self._names[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def english(self, key: str) -> str:
        """The name in English whatever the language (file names, logs)."""
        return self._names[key]


def t(message: str, /, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled in."""
    language = _language.get()
    text = translations(language).gettext(message)
    text = text.format(**fields) if fields else text
    return particles(text) if language == "ko" else text


def tn(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """A counted text: the form the current language uses for ``n`` (``{n}`` is the number,
    thousands grouped as that language groups them)."""
    language = _language.get()
    text = translations(language).ngettext(singular, plural, n).format(n=number(n), **fields)
    return particles(text) if language == "ko" else text


def tp(context: str, message: str, /, **fields: Any) -> str:
    """``message`` in the current language, told apart from the same English in another
    ``context`` ("yaku", "card", "command name", ...)."""
    language = _language.get()
    text = translations(language).pgettext(context, message)
    text = text.format(**fields) if fields else text
    return particles(text) if language == "ko" else text


def number(n: int | float, *, signed: bool = False) -> str:
    """``n`` as the current language writes it ("1,200"); ``signed`` shows a plus on a gain."""
    text = format_decimal(n, locale=_language.get())
    return "+" + text if signed and n > 0 else text


def warm() -> None:
    """Read every language's catalog and number formats now, not at the first sentence that
    needs them: a long-lived process freezes what it read at start out of the garbage
    collector's passes (``HanafudaBot.freeze_heap``), and Babel's locale data is thousands of
    objects."""
    for language in LANGUAGES:
        translations(language)
        format_decimal(1234.5, locale=language)
