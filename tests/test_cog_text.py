"""Showing user text: escaped, clipped with an ellipsis, embeds within Discord's limits."""

from __future__ import annotations

import discord
import pytest

from bot.discord_ui.text import (
    CHOICE,
    DESCRIPTION,
    EMBED_TOTAL,
    FIELD_VALUE,
    TITLE,
    BadOption,
    Text,
    choice,
    clip,
    fit_embed,
    shown,
)


def test_clip_keeps_short_text_and_ends_long_text_with_an_ellipsis():
    assert clip("short", 10) == "short"
    assert clip("x" * 10, 10) == "x" * 10
    assert clip("x" * 11, 10) == "x" * 9 + "…"
    assert len(clip("y" * 6000, 2000)) == 2000


def test_shown_defuses_mentions_and_markdown():
    role = "<@&123456789012345678>"
    assert "@everyone" not in shown("@everyone") and "@here" not in shown("@here")
    assert role not in shown(role)
    assert shown("**bold** _it_ `code`") == r"\*\*bold\*\* \_it\_ \`code\`"
    assert len(shown("@everyone " * 1000, 100)) == 100


def test_choice_offers_only_values_that_fit():
    assert choice("n" * 300, "v").name == "n" * (CHOICE - 1) + "…"
    assert choice("name", "v" * CHOICE).value == "v" * CHOICE
    assert choice("name", "v" * (CHOICE + 1)) is None
    assert choice("name", "") is None


def test_fit_embed_clips_every_part_and_the_total():
    embed = discord.Embed(title="t" * 500, description="d" * 5000)
    for i in range(8):
        embed.add_field(name=f"f{i}", value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    fit_embed(embed)
    assert len(embed.title) == TITLE and len(embed.description) <= DESCRIPTION
    assert all(len(f.value) <= FIELD_VALUE for f in embed.fields)
    assert len(embed) <= EMBED_TOTAL and embed.description.endswith("…")


@pytest.mark.asyncio
async def test_text_option_declares_and_checks_its_length():
    reason = Text(200, "The reason")
    assert (reason.type, reason.min_value, reason.max_value) == (
        discord.AppCommandOptionType.string, 1, 200)
    assert await reason.transform(None, "  prize  ") == "prize"
    for bad, sent in (("x" * 6000, "6,000"), ("   ", "0")):
        with pytest.raises(BadOption, match=f"must have 1 to 200 characters \\(you sent {sent}\\)"):
            await reason.transform(None, bad)
