"""One spelling of the game's name, "Go-Stop", in everything a player reads: command descriptions,
rules text, presenter lines, image texts and the README. Internal keys (``gostop``) are not text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import presenter, rules_text
from bot.games import game_module
from bot.games.rng import Rng
from rendering.view import GAME_NAMES

ROOT = Path(__file__).resolve().parent.parent
SPELLINGS = re.compile(r"(?i)\bgo[\s\-/_.]?stop\b")
KEY = re.compile(r"^[a-z0-9_.:/>#{}-]*$")  # a code, a custom id or a module path, not a sentence
USER_FACING = ("cogs", "bot/presenters", "bot/presenter.py", "bot/rules_text.py", "bot/replay.py",
               "bot/settlement.py", "bot/tables/", "rendering")


def wrong_spellings(text: str) -> list[str]:
    """Every way of writing the name but "Go-Stop" (and the lower-case key ``gostop``, a code)."""
    return [m.group(0) for m in SPELLINGS.finditer(text) if m.group(0) not in ("Go-Stop", "gostop")]


def literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, without its docstrings (those are for developers),
    except in the cogs, where a command's docstring is its description in Discord."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree) if "cogs" not in path.parts else ():
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and not KEY.match(node.value)]


def test_every_user_facing_string_spells_go_stop_one_way():
    files = []
    for part in USER_FACING:
        path = ROOT / part
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    bad = [f"{f.relative_to(ROOT)}:{line}: {s!r}" for f in files for line, s in literals(f) if wrong_spellings(s)]
    assert not bad, "\n".join(bad)


def test_the_readme_and_rules_text_spell_it_one_way():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not wrong_spellings(readme)
    assert GAME_NAMES["gostop"] == "Go-Stop"
    for game in GAME_NAMES:
        for text in rules_texts(game):
            assert not wrong_spellings(text), text


def rules_texts(game: str) -> list[str]:
    texts = [rules_text.title(game), rules_text.how_to_play(game), rules_text.chips_text(game),
             rules_text.rules_summary(game, {})]
    texts += [rules_text.option_help(game, name) for name in rules_text.editable_options(game)]
    return texts


def test_a_whole_go_stop_match_reads_go_stop():
    module = game_module("gostop")
    match = module.new_match(2, module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=2), 11)
    rng = Rng(11)
    names = ["Ana", "Bo"]
    said: list[str] = []
    while not match.is_over:
        obs = match.observation(match.current_player)
        view = presenter.table_view(obs, names)
        said += [view.title, view.footer, presenter.hand_view(obs).title]
        said += [presenter.action_label("gostop", a) for _, a in presenter.hand_actions(obs)]
        said += [f"{n} {v}" for n, v in presenter.hand_fields(obs)]
        legal = match.legal_actions()
        for event in match.apply(legal[rng.below(len(legal))]):
            said.append(presenter.describe_event("gostop", event, names) or "")
            if event["type"] == "round_over":
                said += presenter.summary_view("gostop", event, names).result_lines
    assert not [s for s in said if wrong_spellings(s)]
