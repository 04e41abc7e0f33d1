"""The translation functions: languages, counted texts, numbers, fall-backs, contexts."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import LANGUAGES, current, language_of, number, speaking, t, tn, tp
from bot.i18n.catalogs import translations

SPEAK = "I will speak {language} with you."


@pytest.mark.parametrize("locale, language", [
    ("ja", "ja"), ("ko", "ko"), ("en-US", "en"), ("en-GB", "en"), ("fr", "en"), ("zh-TW", "en"),
    (None, "en"), ("", "en"),
])
def test_discord_locales_map_to_the_bots_languages(locale, language):
    assert language_of(locale) == language


def test_discord_locale_objects_are_understood():
    import discord
    assert language_of(discord.Locale.japanese) == "ja"
    assert language_of(discord.Locale.korean) == "ko"
    assert language_of(discord.Locale.american_english) == "en"


def test_a_text_is_said_in_the_language_of_the_block():
    assert t(SPEAK, language="English") == "I will speak English with you."
    with speaking("ja"):
        assert current() == "ja"
        assert t(SPEAK, language="日本語") == "これから日本語でお話しします。"
        with speaking("ko"):
            assert t(SPEAK, language="한국어") == "이제 한국어로 말할게요."
        assert current() == "ja"
    assert current() == "en"


def test_an_unknown_language_is_english():
    with speaking("fr"):
        assert current() == "en"


def test_a_text_no_catalog_has_is_said_in_english_not_blank():
    with speaking("ja"):
        assert t("A text nobody has translated, {n}.", n=3) == "A text nobody has translated, 3."
        assert tp("yaku", "Not a yaku at all") == "Not a yaku at all"


def test_counted_texts_follow_each_languages_plural_rules():
    assert tn("{n} point", "{n} points", 1) == "1 point"
    assert tn("{n} point", "{n} points", 0) == "0 points"
    assert tn("{n} point", "{n} points", 1200) == "1,200 points"
    # Japanese and Korean have one form for every count: their catalogs say so in their header.
    for language in ("ja", "ko"):
        assert translations(language).plural(1) == translations(language).plural(5) == 0


def test_numbers_are_grouped_as_the_language_groups_them():
    for language in LANGUAGES:
        with speaking(language):
            assert number(1234567) == "1,234,567"
            assert number(-1200) == "-1,200"
            assert number(40, signed=True) == "+40"
            assert number(0, signed=True) == "0"


async def test_each_task_speaks_its_own_language():
    async def answer(language: str) -> str:
        with speaking(language):
            await asyncio.sleep(0)  # the other task runs here, in its own language
            return t(SPEAK, language="-")

    said = await asyncio.gather(answer("ja"), answer("ko"), answer("en"))
    assert said == ["これから-でお話しします。", "이제 -로 말할게요.", "I will speak - with you."]
