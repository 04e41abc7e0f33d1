"""``/language``: a member's own choice of the bot's language, over what their Discord client
shows. Answering every interaction in the presser's language is :mod:`bot.discord_ui.speaking`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answers, send
from bot.discord_ui.cog import anywhere
from bot.discord_ui.speaking import language_choices
from bot.discord_ui.text import NO_PINGS
from bot.i18n import LANGUAGE_NAMES, speaking, t


class LanguageCog(commands.Cog):
    """``/language``: a member's own choice, over what their Discord client shows."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @answers(private=True)
    @anywhere
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
