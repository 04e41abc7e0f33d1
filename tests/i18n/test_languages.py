"""Who is spoken to in which language: the presser's client, their own choice, the server's."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import discord
import pytest

from bot.discord_ui.client import EXTENSIONS
from bot.discord_ui.speaking import Speaks
from bot.i18n import current
from bot.languages import Languages
from bot.store import InvalidInput, Store

GUILD, ALICE, BOB = 900, 11, 12


def pressed(user: int, locale: str) -> SimpleNamespace:
    return SimpleNamespace(user=SimpleNamespace(id=user), locale=discord.Locale(locale))


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "languages.sqlite3")
    yield s
    await s.close()


async def test_the_presser_is_answered_in_their_clients_language_and_remembered(store):
    languages = Languages(store)
    await languages.load()
    assert languages.of_user(ALICE) == "en"  # never seen: English
    assert languages.of_interaction(pressed(ALICE, "ja")) == "ja"
    assert languages.of_user(ALICE) == "ja"  # a DM later speaks what her client last showed
    assert languages.of_interaction(pressed(BOB, "en-US")) == "en"
    await languages.flush()
    again = Languages(store)
    await again.load()
    assert (again.of_user(ALICE), again.of_user(BOB)) == ("ja", "en")


async def test_a_chosen_language_wins_over_the_client_until_set_back_to_automatic(store):
    languages = Languages(store)
    await languages.load()
    await languages.choose(ALICE, "ko")
    assert languages.of_interaction(pressed(ALICE, "ja")) == "ko"
    assert languages.of_user(ALICE) == "ko"
    await languages.flush()
    restarted = Languages(store)
    await restarted.load()
    assert restarted.of_interaction(pressed(ALICE, "ja")) == "ko"
    await restarted.choose(ALICE, "")
    assert restarted.of_interaction(pressed(ALICE, "ja")) == "ja"
    await restarted.flush()


async def test_a_language_the_bot_does_not_speak_is_refused_and_nothing_changes(store):
    languages = Languages(store)
    await languages.load()
    with pytest.raises(InvalidInput):
        await languages.choose(ALICE, "fr")
    assert languages.chosen(ALICE) == ""


async def test_public_messages_speak_the_servers_language(store):
    languages = Languages(store)
    assert await languages.of_guild(GUILD, discord.Locale.korean) == "ko"  # the server's own locale
    assert await languages.of_guild(GUILD, None) == "en"
    await store.update_settings(GUILD, language="ja")  # staff chose: that wins
    assert await languages.of_guild(GUILD, discord.Locale.korean) == "ja"


async def test_entering_an_interaction_sets_the_language_of_its_task_only(store):
    languages = Languages(store)
    await languages.load()
    assert languages.enter(pressed(ALICE, "ko")) == "ko" and current() == "ko"
    await languages.flush()


def test_every_button_and_menu_of_the_bot_answers_in_the_pressers_language():
    for name in EXTENSIONS:
        importlib.import_module(name)
    items, todo = [], list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith(("cogs.", "bot.discord_ui.")):
            items.append(cls)
    assert len(items) >= 19
    # By name: loading the bot's extensions executes their modules again, so a class may come from
    # another execution of cogs.language than the one imported here.
    speaks = [(Speaks.__module__, Speaks.__qualname__)]
    assert [cls.__name__ for cls in items
            if not any([(b.__module__, b.__qualname__)] == speaks for b in cls.__mro__)] == []
