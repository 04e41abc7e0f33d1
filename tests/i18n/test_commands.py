"""The slash commands as Discord receives them: localized into Japanese and Korean, valid names."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bot.__main__ import command_payload
from bot.i18n import speaking, tp
from bot.i18n.commands import NAME_PATTERN

LANGS = ("ja", "ko")


@pytest.fixture(scope="module")
def payload():
    import asyncio
    return asyncio.run(command_payload(entry_point=True))


def _names_and_texts(payload):
    """(kind, english, localizations, level key) of every name and description in the payload."""
    def walk(items, level):
        for item in items:
            yield "name", item["name"], item.get("name_localizations") or {}, level
            if "description" in item:
                yield "description", item["description"], item.get("description_localizations") or {}, level
            for choice in item.get("choices") or []:
                yield "choice", choice["name"], choice.get("name_localizations") or {}, None
            yield from walk(item.get("options") or [], (*level, item["name"]))
    yield from walk(payload, ())


def _expected(kind: str, english: str, language: str) -> str:
    context = {"name": None, "description": "command description", "choice": "choice"}[kind]
    with speaking(language):
        if kind == "name":  # a command, group or option: whichever context translates it
            return next((t for c in ("command name", "option name") if (t := tp(c, english)) != english), english)
        return tp(context, english)


def test_every_name_description_and_choice_is_localized(payload):
    missing = []
    for kind, english, localized, _level in _names_and_texts(payload):
        for language in LANGS:
            wanted = _expected(kind, english, language)
            if kind == "description" and wanted == english:
                with speaking(language):
                    wanted = tp("option description", english)
            if wanted == english:  # the same in every language (numbers, language names)
                assert language not in localized, (english, localized)
                continue
            if localized.get(language) != wanted:
                missing.append((kind, english, language, localized.get(language)))
    assert not missing, missing[:20]


def test_localized_names_are_valid_discord_names_and_unique_at_their_level(payload):
    seen: dict[tuple, set[str]] = {}
    for kind, english, localized, level in _names_and_texts(payload):
        if kind != "name":
            continue
        for language in LANGS:
            name = localized.get(language, english)
            assert NAME_PATTERN.fullmatch(name) and name == name.lower(), (english, language, name)
            names = seen.setdefault((level, language), set())
            assert name not in names, f"two {language} names {name!r} under /{' '.join(level)}"
            names.add(name)


def test_descriptions_and_choices_fit_discords_limits(payload):
    for kind, english, localized, _level in _names_and_texts(payload):
        if kind in ("description", "choice"):
            for text in (english, *localized.values()):
                assert 1 <= len(text) <= 100, (english, text)


def dry_run(tmp_path, **settings: str) -> subprocess.CompletedProcess:
    """``python -m bot sync --dry-run`` with no token, in a folder with no .env, and ``settings``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "ACTIVITY_PORT", "DISCORD_CLIENT_SECRET")}
    env.update(DISCORD_TOKEN="", PYTHONPATH=os.pathsep.join(sys.path), **settings)
    return subprocess.run([sys.executable, "-m", "bot", "sync", "--dry-run"], capture_output=True,
                          text=True, env=env, timeout=120, check=False, cwd=tmp_path)


def test_the_dry_run_prints_the_payload_without_a_token_or_network(tmp_path):
    done = dry_run(tmp_path)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    koikoi = next(c for c in printed if c["name"] == "koikoi")
    assert koikoi["name_localizations"] == {"ja": "こいこい", "ko": "고이고이"}
    assert {c["name"] for c in printed} >= {"koikoi", "gostop", "settings", "language"}
    assert all(c.get("type", 1) == 1 for c in printed)  # no Entry Point while the Activity is off


def test_the_dry_run_carries_the_entry_point_while_the_activity_is_on(tmp_path):
    done = dry_run(tmp_path, ACTIVITY_PORT="8780", DISCORD_CLIENT_SECRET="secret")
    assert done.returncode == 0, done.stderr
    [entry] = [c for c in json.loads(done.stdout) if c.get("type", 1) != 1]
    # PRIMARY_ENTRY_POINT, answered by the bot (APP_HANDLER) with LAUNCH_ACTIVITY
    assert entry["type"] == 4 and entry["handler"] == 1 and entry["name"] == "launch"
    assert entry["name_localizations"] == {"ja": "起動", "ko": "실행"}
    assert entry["contexts"] == [0, 1, 2] and entry["integration_types"] == [0, 1]
    refused = dry_run(tmp_path, ACTIVITY_PORT="8780")
    assert refused.returncode == 2 and "DISCORD_CLIENT_SECRET" in refused.stderr
