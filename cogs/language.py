"""Answering each interaction in the presser's language, and ``/language`` to choose one.

Every slash command passes :class:`SpeakingTree`'s check and every button or menu of the bot
mixes in :class:`Speaks`: both run in the interaction's own task before its callback, so all
that callback says (refusals, ephemeral answers, its followups) is in the presser's language.
Public messages set the server's language themselves (see :mod:`bot.languages`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import logcontext
from bot.discord_ui.answer import answers, send, watch
from bot.i18n import LANGUAGE_NAMES, language_of, set_language, speaking, t

__all__ = ["Speaks", "SpeakingTree", "enter", "in_public", "server_language"]

NO_PINGS = discord.AllowedMentions.none()


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


class LanguageCog(commands.Cog):
    """``/language``: a member's own choice, over what their Discord client shows."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @answers(private=True)
    @app_commands.command(name="language", description="The language the bot uses with you")
    @app_commands.describe(language="Your choice; 'automatic' follows your Discord language")
    @app_commands.choices(language=language_choices("Automatic (your Discord language)"))
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        chosen = "" if language == "auto" else language
        await self.bot.languages.choose(interaction.user.id, chosen)
        spoken = self.bot.languages.enter(interaction)
        with speaking(spoken):
            text = (t("I will follow your Discord language ({language}).", language=LANGUAGE_NAMES[spoken])
                    if not chosen else t("I will speak {language} with you.", language=LANGUAGE_NAMES[spoken]))
        await send(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LanguageCog(bot))
