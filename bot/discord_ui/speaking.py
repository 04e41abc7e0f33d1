"""Answering each interaction in the presser's language: the command tree and the mixin of
every control enter it before the callback runs (see :mod:`bot.languages`).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import logcontext
from bot.discord_ui.answer import watch
from bot.i18n import LANGUAGE_NAMES, language_of, set_language, speaking


def enter(interaction: discord.Interaction) -> str:
    """Speak the presser's language in this interaction's task (English before the bot's
    languages exist: the command-tree-only bot of ``sync``)."""
    logcontext.at_interaction(interaction)  # its log lines name the shard
    languages = getattr(interaction.client, "languages", None)
    if languages is None:
        return set_language(None)
    return languages.enter(interaction)


def server_language(interaction: discord.Interaction) -> str:
    """The language of the public messages of the interaction's server."""
    languages = getattr(interaction.client, "languages", None)
    if languages is None:
        return language_of(interaction.guild_locale)
    return languages.of_guild_now(interaction.guild_id, interaction.guild_locale)


def in_public(interaction: discord.Interaction):
    """Speak the server's language in the block: what it builds is for everyone in the channel."""
    return speaking(server_language(interaction))


def language_choices(automatic: str) -> list[app_commands.Choice[str]]:
    """The choices of a language option: ``automatic`` (value "auto"), then each language by its
    own name."""
    return [app_commands.Choice(name=automatic, value="auto"),
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items())]


class SpeakingTree(app_commands.CommandTree):
    """The bot's command tree: each command runs in its presser's language, and one that declared
    how it answers is acknowledged in Discord's time when it is slow (:mod:`bot.discord_ui.answer`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        enter(interaction)
        watch(interaction)  # a slow command is acknowledged in Discord's time
        return True


class Speaks:
    """Mixin of the bot's buttons and menus (before ``discord.ui.DynamicItem`` in the bases):
    their callbacks run in the presser's language."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        enter(interaction)
        return True
