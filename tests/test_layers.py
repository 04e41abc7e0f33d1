"""The layers of docs/design.md, held by the imports: the rules, the store and the pictures know
no Discord; nothing under bot/ reaches into an extension; the extensions share through the
Discord package, never through each other; a table's state has one owner."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from bot.tables import Table

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def test_rules_store_and_pictures_know_no_discord():
    for folder in ("bot/games", "bot/store", "rendering"):
        for path in sources(folder):
            found = {m for m in imports(path) if m == "discord" or m.startswith("discord.")}
            assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_nothing_under_bot_imports_an_extension():
    for path in sources("bot"):
        found = {m for m in imports(path) if m == "cogs" or m.startswith("cogs.")}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_every_extension_has_a_setup_and_imports_no_other():
    cogs = [p for p in sources("cogs") if p.name != "__init__.py"]
    assert len(cogs) >= 10
    for path in cogs:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        setups = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.name == "setup"]
        assert setups, f"{path.relative_to(ROOT)} is not an extension (no setup())"
        found = {m for m in imports(path) if m.startswith("cogs")}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_a_table_holds_the_game_and_no_surface_state():
    """Where a table is shown (messages, alerts, private hands) is its surface's own: the Table
    and the state stored from it carry none of it."""
    fields = set(inspect.signature(Table).parameters)
    for surface_field in ("message_id", "hand_messages", "dm_failed", "turn_alert"):
        assert surface_field not in fields
    source = inspect.getsource(Table.state_json)
    for key in ("hand_messages", "dm_failed", "turn_alert", "message_id"):
        assert key not in source
