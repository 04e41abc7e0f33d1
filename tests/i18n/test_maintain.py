"""The catalog check finds each kind of problem (so a clean check means something)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.i18n import catalogs
from bot.i18n.maintain import Text, check, update


@pytest.fixture
def locales(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "LOCALES_DIR", tmp_path)
    import bot.i18n.maintain as maintain
    monkeypatch.setattr(maintain, "LOCALES_DIR", tmp_path)
    return tmp_path


def write(path: Path, entries: list[tuple]) -> None:
    catalog = Catalog(locale=path.parent.name)
    for english, translated, *context in entries:
        catalog.add(english, translated, context=context[0] if context else None)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog)


def texts(*entries: tuple) -> dict:
    found = {}
    for english, context, place in entries:
        text = Text(context, english, [place])
        found[text.key] = text
    return found


def test_each_kind_of_problem_is_reported(locales):
    said = texts(("Hello {name}.", None, "cogs/play.py:1"), ("Gone", None, "cogs/play.py:2"),
                 (("{n} card", "{n} cards"), None, "bot/words.py:3"), ("pine", "card", "bot/cards.py:4"),
                 ("Never translated", None, "cogs/play.py:5"))
    write(locales / "ja" / "tables.po", [("Hello {name}.", "こんにちは{name}。"), ("Old text", "古い"),
                                         ("Never translated", "")])
    write(locales / "ja" / "games.po", [(("{n} card", "{n} cards"), ("{n}枚",)), ("pine", "松", "card"),
                                        ("Hello {name}.", "やあ{nom}")])
    # games.po is read first: its "Hello" has the wrong field, the one in tables.po is the duplicate
    kinds = {(p.kind, p.key[1]) for p in check(said, ["ja"])}
    assert kinds == {("placeholders", "Hello {name}."), ("unused", "Old text"), ("missing", "Gone"),
                     ("duplicate", "Hello {name}."), ("untranslated", "Never translated")}


def test_update_adds_new_texts_to_their_area_and_drops_old_ones(locales):
    write(locales / "ko" / "tables.po", [("Kept", "유지"), ("Dropped", "삭제")])
    said = texts(("Kept", None, "cogs/play.py:1"), ("New table text", None, "cogs/publisher.py:9"),
                 (("{n} card", "{n} cards"), None, "bot/words.py:3"))
    assert update(said, ["ko"]) == {"ko": 2}
    tables = catalogs.read_catalog(locales / "ko" / "tables.po")
    games = catalogs.read_catalog(locales / "ko" / "games.po")
    assert tables.get("Kept").string == "유지" and tables.get("Dropped") is None
    assert tables.get("New table text").string == ""
    assert games.get("{n} card").string == ("",)  # Korean counts have one form
