"""The translation catalogs: ``locales/<language>/<area>.po``, read once per process with Babel.

The ``.po`` files are the source (readable, reviewable, merged in Git); they are compiled in
memory when a language is first spoken, so there is no build step and no binary in the tree.
Each area (``commands``, ``tables``, ``community``, ``games``, ...) is one file, so that people
translating different parts of the bot never edit the same file. A text has one area: the one
:func:`area_of` gives its first place in the code.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

__all__ = ["LOCALES_DIR", "AREAS", "area_of", "catalog_files", "read_catalog", "translations"]

LOCALES_DIR = Path(__file__).with_name("locales")

# Source path prefixes -> area, first match wins; the slash commands' own words (names,
# descriptions, choices) come from the command tree and are the "commands" area.
AREAS: tuple[tuple[str, str], ...] = (
    ("cogs/play/", "tables"),
    ("bot/discord_ui/controls.py", "tables"),
    ("bot/discord_ui/publisher.py", "tables"),
    ("bot/discord_ui/hands.py", "tables"),
    ("bot/discord_ui/alerts.py", "tables"),
    ("bot/discord_ui/posts.py", "tables"),
    ("bot/discord_ui/delivery.py", "tables"),
    ("cogs/rematch.py", "tables"),
    ("cogs/running.py", "tables"),
    ("bot/discord_ui/game_settings.py", "tables"),
    ("bot/tables/", "tables"),
    ("bot/activity/", "activity"),
    ("cogs/", "community"),
    ("bot/store/", "community"),
    ("bot/settlement.py", "community"),
    ("bot/presenters/", "games"),
    ("bot/games/shedding/text.py", "rules"),
    ("bot/games/", "games"),
    ("bot/cards.py", "games"),
    ("bot/words.py", "games"),
    ("bot/replay.py", "games"),
    ("bot/rules_text.py", "rules"),
    ("rendering/sheet_data.py", "rules"),
    ("rendering/", "images"),
    ("bot/", "community"),
)


def area_of(path: str) -> str:
    """The catalog file (area) a text first written in ``path`` (relative, with ``/``) goes to."""
    for prefix, area in AREAS:
        if path.startswith(prefix):
            return area
    return "community"


def catalog_files(language: str) -> list[Path]:
    """The ``.po`` files of ``language``, in a stable order."""
    return sorted((LOCALES_DIR / language).glob("*.po"))


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=path.parent.name)


@functools.cache
def translations(language: str) -> NullTranslations:
    """Every catalog of ``language`` as one gettext translations object (English: none, the code
    is the English text). Fuzzy entries are left out: they are guesses awaiting review."""
    files = catalog_files(language) if language != "en" else []
    if not files:
        return NullTranslations()
    merged = Catalog(locale=language)
    for path in files:
        for message in read_catalog(path):
            if message.id and message.string and not message.fuzzy:
                merged.add(message.id, message.string, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    return Translations(buffer)
