"""The layers of docs/design.md, held by the imports: the rules, the store and the pictures know
no Discord; nothing under bot/ reaches into an extension; the extensions share through the
Discord package, never through each other; a table's state has one owner; and no module reaches
itself through the modules it imports, not even for a type."""

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
    """An extension is a module of cogs/, or a package there (its setup() in its __init__.py,
    its own modules reaching each other by relative imports)."""
    cogs = [p for p in (ROOT / "cogs").glob("*.py") if p.name != "__init__.py"]
    cogs += (ROOT / "cogs").glob("*/__init__.py")
    assert len(cogs) >= 10
    for path in cogs:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        setups = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.name == "setup"]
        assert setups, f"{path.relative_to(ROOT)} is not an extension (no setup())"
    for path in sources("cogs"):
        found = {m for m in imports(path) if m.startswith("cogs")}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_the_table_service_knows_no_place_a_table_is_shown():
    """Below the surfaces: it tells them through the port, and passes a store's refusal on for
    them to phrase (bot.tables.Refused) rather than writing Discord's sentence itself."""
    for path in sources("bot/tables"):
        found = {m for m in imports(path) if m.split(".")[0] in ("discord", "cogs")
                 or m.startswith(("bot.discord_ui", "bot.activity"))}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_the_surfaces_know_each_other_by_the_port_alone():
    """The Activity and the Discord package are two surfaces of the same tables, side by side:
    neither imports the other. The Activity reaches Discord only through its own REST client
    (bot.activity.discord_api); the client starts the Activity's server, which bot.assembly
    puts the bot together with, through bot.discord_ui.app.ActivityShows."""
    for path in sources("bot/activity"):
        found = {m for m in imports(path) if m.startswith(("bot.discord_ui", "cogs"))}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"
    for folder in ("bot/discord_ui", "cogs"):
        for path in sources(folder):
            found = {m for m in imports(path) if m.startswith("bot.activity")}
            assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_where_a_table_refusal_is_shown_it_is_phrased_by_told():
    """A TableError may carry a store refusal whose ``str()`` is a line for the logs: the
    layers that show refusals phrase every caught one with ``told``, never ``str``."""
    offenders = []
    for folder in ("bot/discord_ui", "bot/activity", "cogs"):
        for path in sources(folder):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ExceptHandler) or node.name is None or node.type is None:
                    continue
                if "TableError" not in ast.unparse(node.type):
                    continue
                for inner in (n for statement in node.body for n in ast.walk(statement)):
                    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and \
                            inner.func.id == "str" and ast.unparse(inner.args) == node.name:
                        offenders.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert not offenders, offenders


def test_a_table_holds_the_game_and_no_surface_state():
    """Where a table is shown (messages, alerts, private hands) is its surface's own: the Table
    and the state stored from it carry none of it."""
    fields = set(inspect.signature(Table).parameters)
    for surface_field in ("message_id", "hand_messages", "dm_failed", "turn_alert"):
        assert surface_field not in fields
    source = inspect.getsource(Table.state_json)
    for key in ("hand_messages", "dm_failed", "turn_alert", "message_id"):
        assert key not in source


def module_names() -> dict[str, Path]:
    """Every module of the project's code by its dotted name (a package by its own)."""
    out = {}
    for folder in ("bot", "cogs", "rendering"):
        for path in sources(folder):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def module_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports anywhere in it, type-only imports included;
    ``from package import module`` counts as importing that module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in out if m in known and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (strongly connected, more than one)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in graph[node]:
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_no_module_reaches_itself_through_its_imports():
    """A circle of imports, even of types only, means two modules each need the other: the one
    that should not know the other takes its narrow part as a protocol instead (bot.tables.surface
    names the table, not its service; bot.discord_ui.app names what the controls ask of the
    surfaces, not the surfaces, which are built from the controls)."""
    known = module_names()
    graph = {name: module_imports(name, path, known) for name, path in known.items()}
    assert graph["bot.tables.manager"] >= {"bot.tables.surface", "bot.tables.table"}  # the walk sees both kinds
    assert "bot.store.db" in graph["bot.store.ledger"]  # and relative imports
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles(graph) == []
