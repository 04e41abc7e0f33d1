"""The catalog check finds each kind of problem (so a clean check means something)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.i18n import catalogs
from bot.i18n.maintain import ROOT, SKIPPED, SOURCE_DIRS, Text, check, code_texts, update


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
    said = texts(("Hello {name}.", None, "cogs/play/cog.py:1"), ("Gone", None, "cogs/play/cog.py:2"),
                 (("{n} card", "{n} cards"), None, "bot/words.py:3"), ("pine", "card", "bot/cards.py:4"),
                 ("Never translated", None, "cogs/play/cog.py:5"))
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
    said = texts(("Kept", None, "cogs/play/cog.py:1"), ("New table text", None, "bot/discord_ui/publisher.py:9"),
                 (("{n} card", "{n} cards"), None, "bot/words.py:3"))
    assert update(said, ["ko"]) == {"ko": 2}
    tables = catalogs.read_catalog(locales / "ko" / "tables.po")
    games = catalogs.read_catalog(locales / "ko" / "games.po")
    assert tables.get("Kept").string == "유지" and tables.get("Dropped") is None
    assert tables.get("New table text").string == ""
    assert games.get("{n} card").string == ("",)  # Korean counts have one form


MARKERS = {"t": 0, "tn": 0, "N_": 0, "NN_": 0, "tp": 1, "NP_": 1}  # name -> index of the English


def literal_texts(path: Path) -> list[tuple[int, str | None, str]]:
    """(line, context, English) of every translation call in ``path`` whose text is a literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS):
            continue
        index = MARKERS[node.func.id]
        if len(node.args) <= index or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                              for a in node.args[:index + 1]):
            continue
        context = node.args[0].value if index else None
        found.append((node.lineno, context, node.args[index].value))
    return found


def test_the_extractor_finds_every_text_the_code_translates():
    """Babel's extractor silently skips a text in some nestings (a marked call inside a plain call
    inside ``t``); the catalogs could then look complete while a sentence stays English."""
    extracted = set(code_texts())
    skipped = []
    for top in SOURCE_DIRS:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(SKIPPED):
                continue
            skipped += [f"{rel}:{line} {english!r}" for line, context, english in literal_texts(path)
                        if (context, english) not in extracted]
    assert skipped == []
