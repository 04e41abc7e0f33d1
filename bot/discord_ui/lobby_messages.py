"""A lobby's message kept to what is stored: lobbies, challenges and rematches alike.

Each change of a lobby counts its revision up in the store, and each edit of its message notes
the revision it drew. A stop that falls between the two (the change stored, the edit not made)
leaves the message behind; the next start finds those lobbies and draws each again, as the bot.
What each kind of lobby shows is its cog's: it names its face here once, at load.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_ui.delivery import delivered
from bot.discord_ui.speaking import in_server
from bot.discord_ui.starting import NO_MENTIONS, lobby_lock
from bot.store import StoreError
from bot.store.lobbies import Lobby

log = logging.getLogger(__name__)

Face = Callable[[Any, Lobby, Any], Awaitable["tuple[discord.Embed, discord.ui.View | None] | None"]]
"""(client, lobby, server settings) -> the message's embed and controls (None: controls gone),
or None when the lobby shows nothing (a rematch whose game is gone)."""

_FACES: dict[str, Face] = {}


def face_of(kind: str, face: Face) -> None:
    """Name what a kind of lobby's message shows, in every state (each cog, for its kinds)."""
    _FACES[kind] = face


async def note_shown(client: Any, lobby: Lobby) -> None:
    """Note that the lobby's message now shows ``lobby``. Should the store refuse, the next start
    draws the message again, which changes nothing a player sees."""
    try:
        await client.store.lobby_shown(lobby.lobby_id, lobby.revision)
    except StoreError:
        log.info("lobby %s: could not note its message as shown", lobby.lobby_id, exc_info=True)


async def show_lobby(client: Any, lobby_id: str) -> None:
    """Bring the lobby's message to the stored state as the bot, and note the revision it shows.
    A passing failure (Discord's server errors, a failed connection) is tried again later with
    the state of then, the lobby's lock free meanwhile for its presses, until it goes through."""
    await delivered(lambda: _show(client, lobby_id), f"the message of lobby {lobby_id}")


async def _show(client: Any, lobby_id: str) -> None:
    """One try of :func:`show_lobby` (edits of one lobby never cross: the last one shows the
    latest state)."""
    store = client.store
    async with lobby_lock(lobby_id):
        lobby = await store.get_lobby(lobby_id)
        face = _FACES.get(lobby.kind) if lobby is not None else None
        if lobby is None or lobby.message_id is None or face is None:
            return
        try:
            settings = await store.get_settings(lobby.guild_id)
            with in_server(client, lobby.guild_id, settings):
                shown = await face(client, lobby, settings)
            if shown is not None:
                embed, view = shown
                channel = client.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
                await channel.get_partial_message(lobby.message_id).edit(
                    embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        except (discord.NotFound, discord.Forbidden):  # the message is gone or out of reach
            log.info("lobby %s: its message is gone", lobby_id)
        except StoreError:  # the next start draws it
            log.info("lobby %s: its message could not be drawn", lobby_id, exc_info=True)
            return
    await note_shown(client, lobby)


async def show_unshown(client: Any, lobbies: list[Lobby]) -> None:
    """At start: draw again each lobby's message that a stop left behind, once the bot knows its
    servers (one left meanwhile has nothing to show it in)."""
    await client.wait_until_ready()
    for lobby in lobbies:
        if client.get_guild(lobby.guild_id) is not None:
            await show_lobby(client, lobby.lobby_id)
