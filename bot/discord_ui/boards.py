"""The names Discord already gave this bot, for the boards it draws as pictures
(:func:`bot.names.board_names` finds the rest without a request to Discord).
"""

from __future__ import annotations

import discord

from bot.names import Known

__all__ = ["known_names"]


def known_names(interaction: discord.Interaction) -> Known:
    """A lookup of the names Discord has already given this bot without a request: the asker's
    own, and members in the cache (the bot has no members intent, so mostly those who spoke to
    it lately). Others are named from their latest game here, see
    :func:`bot.names.board_names`."""
    guild, asker = interaction.guild, interaction.user

    def name(user_id: int) -> str | None:
        if user_id == asker.id:
            return asker.display_name
        member = guild.get_member(user_id) if guild is not None else None
        return member.display_name if member is not None else None

    return name
