"""`.env.example` is the operator's list of settings: it names every setting the bot reads and
nothing it does not (a stale `OWNER_IDS` once sat there, read by nothing), and the package says
which games it plays."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from bot.config import load_settings
from bot.games.descriptor import descriptors

ROOT = Path(__file__).resolve().parents[1]


def read_names() -> set[str]:
    """The names ``load_settings`` and the helpers it calls look up in the environment."""
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+|[A-Z]{4,}", node.value):
            names.add(node.value)
    return names - {"CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"}


def test_the_example_names_every_setting_the_bot_reads_and_no_other():
    example = {line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text().splitlines()
               if re.match(r"^[A-Z][A-Z0-9_]*=", line)}
    assert example == read_names()
    settings = load_settings(env={k: "" for k in example} | {"DISCORD_TOKEN": ""}, dotenv=None,
                             require_token=False)
    assert settings.log_level == "INFO"  # every name empty, as copied, still loads


def test_the_package_description_names_every_game():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for descriptor in descriptors():  # "Sakura (Higo-Bana)": either of its names
        names = [n for n in re.split(r" \(|\)", descriptor.name) if n]
        assert any(n in project["description"] for n in names), descriptor.name
