"""Keeping the catalogs and the code in step: what the code says, what the catalogs translate.

``python -m bot.i18n update`` adds every new text of the code to each language's catalog (empty,
for a translator) and drops the texts the code no longer says; ``python -m bot.i18n check``
lists what is missing, unused, duplicated or has other placeholders than its English. The tests
run the same check, so a text added without its translations fails the suite.

The texts are found the way Babel's ``pybabel extract`` finds them, with this bot's markers
(``t``, ``tn``, ``tp``, ``N_``), plus the slash commands' own words read from the command tree.
"""

from __future__ import annotations

import datetime
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

from .catalogs import LOCALES_DIR, area_of, catalog_files, read_catalog

__all__ = ["KEYWORDS", "Problem", "Text", "check", "code_texts", "command_texts", "update"]

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("bot", "cogs", "rendering")
SKIPPED = ("bot/bench/", "bot/i18n/")  # the load bench talks to no player; this package marks nothing
TRANSLATED = ("ja", "ko")  # English is the code itself
FIXED_DATE = datetime.datetime(2026, 11, 24, tzinfo=datetime.UTC)
KEYWORDS = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2), "N_": None, "NP_": ((1, "c"), 2), "NN_": (1, 2)}

Key = tuple[str | None, str]  # (context, English singular)


@dataclass
class Text:
    """One text to translate: its English (a pair for a counted text) and where it is said."""

    context: str | None
    english: str | tuple[str, str]
    places: list[str] = field(default_factory=list)

    @property
    def key(self) -> Key:
        return self.context, self.english if isinstance(self.english, str) else self.english[0]

    @property
    def area(self) -> str:
        return "commands" if self.places and self.places[0].startswith("<commands>") else area_of(self.places[0])


@dataclass(frozen=True)
class Problem:
    language: str
    kind: str  # missing | untranslated | unused | duplicate | placeholders
    key: Key
    detail: str = ""

    def __str__(self) -> str:
        context = f"[{self.key[0]}] " if self.key[0] else ""
        return f"{self.language}: {self.kind}: {context}{self.key[1]!r} {self.detail}".rstrip()


def code_texts(root: Path = ROOT) -> dict[Key, Text]:
    """Every marked text of the code, in the order the files and lines say it."""
    found: dict[Key, Text] = {}
    for top in SOURCE_DIRS:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith(SKIPPED):
                continue
            for lineno, message, _comments, context in extract_from_file(
                    "python", str(path), keywords=KEYWORDS, strip_comment_tags=True):
                english = message if isinstance(message, str) else (message[0], message[1])
                if not english or (isinstance(english, tuple) and not english[0]):
                    continue
                text = Text(context, english)
                found.setdefault(text.key, text).places.append(f"{rel}:{lineno}")
    return found


def command_texts(tree_texts: Iterable[tuple[str, str]]) -> dict[Key, Text]:
    """The slash commands' words as texts of the ``commands`` area (see
    :func:`bot.i18n.commands.tree_texts`)."""
    found: dict[Key, Text] = {}
    for context, english in tree_texts:
        text = Text(context, english)
        found.setdefault(text.key, text).places.append(f"<commands>:{context}")
    return found


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as exc:  # an unbalanced brace
        return {f"<bad format: {exc}>"}


def check(texts: dict[Key, Text], languages: Iterable[str] = TRANSLATED) -> list[Problem]:
    """What stands between the code and complete catalogs, per language."""
    problems: list[Problem] = []
    for language in languages:
        seen: dict[Key, str] = {}
        for path in catalog_files(language):
            for message in read_catalog(path):
                if not message.id:
                    continue
                key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
                if key in seen:
                    problems.append(Problem(language, "duplicate", key, f"in {seen[key]} and {path.name}"))
                    continue
                seen[key] = path.name
                text = texts.get(key)
                if text is None:
                    problems.append(Problem(language, "unused", key, f"in {path.name}"))
                    continue
                forms = [message.string] if isinstance(message.string, str) else list(message.string)
                if message.fuzzy or not all(forms):
                    problems.append(Problem(language, "untranslated", key, f"in {path.name}"))
                    continue
                english = [text.english] if isinstance(text.english, str) else list(text.english)
                wanted = set().union(*map(_fields, english))
                for form in forms:
                    if _fields(form) != wanted:
                        problems.append(Problem(language, "placeholders", key,
                                                f"{sorted(_fields(form))} instead of {sorted(wanted)}"))
        for key, text in texts.items():
            if key not in seen:
                problems.append(Problem(language, "missing", key, f"said at {text.places[0]}"))
    return problems


def new_catalog(language: str, area: str) -> Catalog:
    """An empty catalog whose header never changes by itself (no dates that churn the diffs)."""
    return Catalog(locale=language, domain=area, project="hanafuda-bot", version="1",
                   copyright_holder="the Hanafuda bot's authors", msgid_bugs_address="-",
                   creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False,
                   header_comment=f"# {area}: the bot's texts in this language. The key of each is "
                                  "the English in the code;\n# see bot/i18n/__init__.py.")


def update(texts: dict[Key, Text], languages: Iterable[str] = TRANSLATED) -> dict[str, int]:
    """Bring each language's catalogs in step with ``texts``: new texts are added empty to the
    file of their area, texts no longer said are dropped; translations are kept. Returns how
    many texts each language still needs translated."""
    todo: dict[str, int] = {}
    for language in languages:
        folder = LOCALES_DIR / language
        folder.mkdir(parents=True, exist_ok=True)
        catalogs = {path.stem: read_catalog(path) for path in catalog_files(language)}
        present: set[Key] = set()
        for catalog in catalogs.values():
            for message in list(catalog):
                if not message.id:
                    continue
                key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
                if key not in texts or key in present:
                    catalog.delete(message.id, message.context)
                    continue
                present.add(key)
                english = texts[key].english
                if message.id != english:  # a counted text's plural changed: keep the singular's work
                    string_ = message.string
                    catalog.delete(message.id, message.context)
                    catalog.add(english, string_, context=message.context)
        for key, text in texts.items():
            if key in present:
                continue
            catalog = catalogs.get(text.area)
            if catalog is None:
                catalog = catalogs[text.area] = new_catalog(language, text.area)
            empty = ("",) * catalog.num_plurals if isinstance(text.english, tuple) else ""
            catalog.add(text.english, empty, context=text.context)
        todo[language] = 0
        for area, catalog in catalogs.items():
            todo[language] += sum(1 for m in catalog if m.id and not all(
                [m.string] if isinstance(m.string, str) else m.string))
            with (folder / f"{area}.po").open("wb") as file:
                write_po(file, catalog, width=100, no_location=True, omit_header=False,
                         sort_output=False, include_previous=False)
    return todo
