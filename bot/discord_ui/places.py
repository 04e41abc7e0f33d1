"""Where an interaction comes from, as the games see it.

A server that added the bot is a *member* place: the bot posts, edits and sends DMs there, and
the server's records are kept under its id. Everywhere else the app is a *guest*, reached through
a user's own install: its DM with the bot, a group DM, or a server that never added it. There
Discord lets the app only answer interactions, publicly only where the channel allows external
apps, and a game's records are kept under the channel's id, apart from any server's.
"""

from __future__ import annotations

import discord

from bot.tables.starting import Place

__all__ = ["place_of", "scope_of"]


def place_of(interaction: discord.Interaction) -> Place:
    """The place of ``interaction``. A server is a member place only when the bot is in it (its
    gateway told this process of it); an app added to a server without its bot is a guest."""
    channel_id = interaction.channel_id or 0
    guild_id = interaction.guild_id
    if guild_id is not None and interaction.client.get_guild(guild_id) is not None:
        return Place(guild_id, channel_id, guest=False, public=True, guild_id=guild_id)
    context = interaction.context
    # In the DM with the bot only the player and the bot read anything; elsewhere Use External
    # Apps decides whether an answer may be public.
    public = bool(context.dm_channel) or interaction.app_permissions.use_external_apps
    return Place(channel_id, channel_id, guest=True, public=public, kind=_guest_kind(interaction),
                 guild_id=guild_id)


def _guest_kind(interaction: discord.Interaction) -> str:
    """Whether a guest place is a server's channel, a group DM or a DM (with the bot, or between
    two users, where the channel's type tells it from a group DM)."""
    if interaction.guild_id is not None:
        return "server"
    channel_type = getattr(interaction.channel, "type", None)
    return "group_dm" if channel_type == discord.ChannelType.group else "dm"


def scope_of(interaction: discord.Interaction) -> int | None:
    """The id the interaction's records are kept under (None: a place with no records)."""
    if interaction.channel_id is None and interaction.guild_id is None:
        return None
    return place_of(interaction).scope


def can_post(permissions: discord.Permissions) -> bool:
    """Whether the bot may post its messages (embeds) where it holds ``permissions``: a post
    set up without them would fail every time it comes due."""
    return permissions.send_messages and permissions.embed_links
