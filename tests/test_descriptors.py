"""One descriptor per game, and every registry reads it (issue 44).

The registries derive their per-game tables from :func:`bot.games.descriptor.descriptors`; a scan
of the source makes sure no module keeps a table of game slugs of its own again, and that the
search imports no game package by name.
"""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import bot.games
from bot.games.descriptor import BETTING, PER_POINT, POT, GameDescriptor, descriptor, descriptors

ROOT = Path(__file__).resolve().parent.parent
ORDER = ("koikoi", "gostop", "mushi", "sakura", "hana_awase", "shedding", "seotda")
SLUGS = frozenset(ORDER)


def test_every_game_package_has_exactly_one_descriptor():
    packages = [m.name for m in pkgutil.iter_modules(bot.games.__path__) if m.ispkg]
    assert sorted(packages) == sorted(d.slug for d in descriptors())
    assert tuple(d.slug for d in descriptors()) == ORDER
    assert len({d.position for d in descriptors()}) == len(ORDER)
    for d in descriptors():
        assert isinstance(d, GameDescriptor)
        module = __import__(f"bot.games.{d.slug}", fromlist=["DESCRIPTOR"])
        assert module.DESCRIPTOR is d is descriptor(d.slug)
        assert d.stake in (POT, PER_POINT, BETTING)
        assert 2 <= d.seats[0] <= d.seats[1]
    with pytest.raises(KeyError):
        descriptor("chess")


def test_a_game_registers_once():
    from bot.games.descriptor import register

    with pytest.raises(ValueError):
        register(descriptor("koikoi"))


def test_the_engines_agree_with_their_descriptors():
    from bot.games import ENGINES, GAMES, game_module

    assert tuple(GAMES) == tuple(ENGINES) == ORDER
    for d in descriptors():
        module = game_module(d.slug)
        assert GAMES[d.slug] == d.engine == module.__name__
        assert d.slug == module.GAME
        assert tuple(module.PLAYERS) == d.seats
        assert set(d.presets) == set(module.Rules.PRESETS)


def test_every_registry_reads_the_descriptors():
    from bot import rules_text, settlement
    from bot.ai.search import player, worlds
    from bot.presenter import for_game
    from cogs.play import DESCRIPTIONS, GAME_COMMANDS
    from rendering import samples, sheet_data, table, view

    assert view.GAMES == ORDER
    assert dict(view.GAME_NAMES._names) == {d.slug: d.name for d in descriptors()}
    assert {d.slug: d.command for d in descriptors()} == GAME_COMMANDS
    assert {d.slug: d.command_description for d in descriptors()} == DESCRIPTIONS
    assert {d.slug for d in descriptors() if d.stake == PER_POINT} == settlement.PER_POINT_GAMES
    assert settlement.BETTING_GAMES == table.BETTING_GAMES == {d.slug for d in descriptors()
                                                               if d.stake == BETTING}
    assert {d.slug: d.presets for d in descriptors()} == rules_text.PRESET_LABELS
    assert {d.slug: d.how_to_play for d in descriptors()} == rules_text.HOW_TO_PLAY_PARAGRAPHS
    assert set(rules_text.CHIPS) == SLUGS
    assert {d.slug: getattr(sheet_data, d.sheet) for d in descriptors() if d.sheet} == sheet_data.SHEETS
    assert {d.slug: tuple(range(d.seats[0], d.seats[1] + 1)) for d in descriptors()} == samples.PLAYER_COUNTS
    for d in descriptors():
        assert for_game(d.slug).game == d.slug
        assert type(for_game(d.slug)).__module__ == d.presenter
        profile = d.search
        assert player.SPREAD.get(d.slug) == profile.spread
        assert (d.slug in worlds.BUILDERS) == (profile.worlds is not None)
        assert (d.slug in player._FAST) == (profile.greedy_reader is not None)


def test_the_descriptors_import_no_engine():
    code = ("import sys, rendering.view, rendering.sheet_data, bot.rules_text, bot.settlement\n"
            "from bot.games.descriptor import descriptors\n"
            "assert len(descriptors()) == 7\n"
            "print(sorted(m for m in sys.modules if m.startswith('bot.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    loaded = set(eval(out))  # a list of module names
    light = {"bot.games.descriptor", "bot.games.shedding.text",  # the First Bloom page's paragraphs
             "bot.games.events"}  # the feats read the rounds' events with it
    light |= {name for d in descriptors() for name in (d.engine, f"{d.engine}.descriptor")}
    assert loaded <= light, sorted(loaded - light)


def _source_files() -> list[Path]:
    files = []
    for top in ("bot", "cogs", "rendering"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).parts
            if relative[:2] == ("bot", "games") and len(relative) > 3 and relative[2] in SLUGS:
                continue  # a game's own package says what it likes about itself
            if relative == ("bot", "games", "descriptor.py"):
                continue
            files.append(path)
    return files


def _slug_table(node: ast.AST) -> bool:
    if isinstance(node, ast.Dict):
        items = node.keys
    elif isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        items = node.elts
    else:
        return False
    slugs = {i.value for i in items if isinstance(i, ast.Constant) and i.value in SLUGS}
    return len(slugs) >= 3


def test_no_module_keeps_a_table_of_games():
    found = []
    for path in _source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree) if _slug_table(node)]
    assert not found, f"per-game tables outside the descriptors: {found}"


def test_the_scan_sees_a_table():
    assert _slug_table(ast.parse('{"koikoi": 1, "gostop": 2, "seotda": 3}', mode="eval").body)
    assert _slug_table(ast.parse('("mushi", "sakura", "shedding")', mode="eval").body)
    assert not _slug_table(ast.parse('("koikoi", "gostop")', mode="eval").body)


def test_the_search_imports_no_game():
    for path in sorted((ROOT / "bot" / "ai" / "search").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                assert not (parts[:2] == ["bot", "games"] and len(parts) > 2 and parts[2] in SLUGS), \
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
                assert not (parts[:2] == ["bot", "ai"] and len(parts) > 2 and parts[2] in SLUGS), \
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not any(node.value.startswith(f"bot.games.{slug}") for slug in SLUGS), \
                    f"{path.relative_to(ROOT)}:{node.lineno} names {node.value}"
