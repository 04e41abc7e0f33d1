"""The controls of every running table (its message and the private hands), registered once so
that a press finds them after a restart too; they live in :mod:`bot.discord_ui.controls`."""

from __future__ import annotations

import discord

from bot.discord_ui.controls import CONTROLS


async def setup(bot: discord.Client) -> None:
    bot.add_dynamic_items(*CONTROLS)
