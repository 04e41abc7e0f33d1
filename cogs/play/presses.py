"""What a press on a lobby or a challenge does: Join, Leave, Add AI, Start and Cancel of a lobby,
Accept and Decline of a challenge, each checked against the stored lobby; and the buttons that
carry them, which hold the lobby's random id and nothing else."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import metrics
from bot.discord_ui.answer import press_defer, press_update
from bot.discord_ui.app import app
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.lobby_messages import note_shown, show_lobby
from bot.discord_ui.places import place_of
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.starting import (
    CHALLENGE_CLOSED,
    LOBBY_CLOSED,
    NO_MENTIONS,
    expired_embed,
    launch,
    lobby_lock,
    pressed,
)
from bot.discord_ui.text import refuse
from bot.i18n import N_, t, tp
from bot.store import StoreError
from bot.store.lobbies import Lobby, LobbyError, LobbyExpired, LobbyNotOpen, LobbyRefused
from bot.tables import AI_LEVELS, TableError

from .messages import is_open, lobby_card

log = logging.getLogger(__name__)


async def lobby_press(interaction: discord.Interaction, op: str, lobby_id: str, level: str | None = None) -> None:
    """Join, Leave, Cancel, Add AI or Start, checked against the stored lobby."""
    store = app(interaction).store
    user = interaction.user.id
    try:
        lobby = await pressed(interaction, lobby_id, "lobby")
        if op == "start":
            await start_lobby(interaction, lobby)
            return
        async with lobby_lock(lobby.lobby_id):
            if op == "join":
                lobby = await store.join_lobby(lobby.lobby_id, user, press=interaction.id)
            elif op == "leave":
                lobby = await store.leave_lobby(lobby.lobby_id, user)
            elif op == "ai":
                if level not in AI_LEVELS:
                    raise LobbyRefused(t("Choose an AI level: {levels}.", levels=", ".join(AI_LEVELS)))
                lobby = await store.add_lobby_ai(lobby.lobby_id, user, level)
            elif op == "cancel":
                lobby = await store.close_lobby(lobby.lobby_id, user)
            else:
                raise LobbyNotOpen(t(LOBBY_CLOSED))
            settings = await store.get_settings(lobby.guild_id)
            with in_public(interaction):
                embed, view = lobby_face(lobby, settings)
            await shown_through(interaction, lobby, press_update(
                interaction, embed=embed, view=view, allowed_mentions=NO_MENTIONS))
    except (LobbyError, TableError) as exc:
        await refuse(interaction, told(exc))


async def start_lobby(interaction: discord.Interaction, lobby: Lobby) -> None:
    store = app(interaction).store
    if interaction.user.id != lobby.host_id:
        raise LobbyRefused(t("Only the host can start the game."))
    guest = place_of(interaction).guest
    # A guest answers the press as an update of the lobby, which then becomes the table.
    await press_defer(interaction, ephemeral=True, thinking=not guest)
    metrics.acknowledged(interaction)
    try:
        lobby = await store.begin_lobby_start(lobby.lobby_id, interaction.user.id)
    except LobbyError as exc:
        await refuse(interaction, sentence(exc))
        return
    if await launch(interaction, lobby) is None or guest:
        return
    if interaction.message is not None:
        await show_started(interaction, lobby.lobby_id, interaction.message.edit)
    await interaction.followup.send(t("The game is on: look for the table below."), ephemeral=True,
                                    allowed_mentions=NO_MENTIONS)


async def challenge_press(interaction: discord.Interaction, op: str, lobby_id: str) -> None:
    """Accept or Decline: only the challenged member, before the stored expiry."""
    store = app(interaction).store
    try:
        lobby = await pressed(interaction, lobby_id, "challenge")
        if op not in ("accept", "decline"):
            raise LobbyNotOpen(t(CHALLENGE_CLOSED))
        if interaction.user.id != lobby.opponent_id:
            raise LobbyRefused(t("This challenge is not for you."))
        if op == "decline":
            lobby = await store.close_lobby(lobby.lobby_id, interaction.user.id)
            settings = await store.get_settings(lobby.guild_id)
            with in_public(interaction):
                declined, _ = lobby_face(lobby, settings)
            await shown_through(interaction, lobby, press_update(
                interaction, embed=declined, view=None, allowed_mentions=NO_MENTIONS))
            return
        await press_defer(interaction)
        metrics.acknowledged(interaction)
        lobby = await store.begin_lobby_start(lobby.lobby_id, interaction.user.id)
    except LobbyExpired:
        expired = await store.expire_lobby(lobby_id)
        if expired is None:
            await refuse(interaction, t(CHALLENGE_CLOSED))
            return
        with in_public(interaction):
            gone = expired_embed(expired)
        await shown_through(interaction, expired, press_update(interaction, embed=gone, view=None,
                                                               allowed_mentions=NO_MENTIONS))
        return
    except LobbyError as exc:
        await refuse(interaction, sentence(exc))
        return
    if await launch(interaction, lobby) is None or place_of(interaction).guest:
        return  # a guest's challenge message became the table
    await show_started(interaction, lobby.lobby_id, interaction.edit_original_response)


async def show_started(interaction: discord.Interaction, lobby_id: str,
                       edit: Callable[..., Awaitable[Any]]) -> None:
    """Show the lobby or challenge this press started as started, through ``edit`` (its message's
    or the press's own), and note it shown."""
    store = app(interaction).store
    try:
        lobby = await store.get_lobby(lobby_id)
        if lobby is None:
            return
        settings = await store.get_settings(lobby.guild_id)
    except StoreError:  # the game runs all the same; the next start draws its message
        log.info("lobby %s: its message could not show the start", lobby_id, exc_info=True)
        return
    with in_public(interaction):
        embed, view = lobby_face(lobby, settings)
    await shown_through(interaction, lobby, edit(embed=embed, view=view, allowed_mentions=NO_MENTIONS))


async def shown_through(interaction: discord.Interaction, lobby: Lobby, edit: Awaitable[Any]) -> None:
    """Show ``lobby`` through the press's own ``edit`` and note it shown. Should Discord fail
    the edit, the bot draws the message itself, tried again until Discord takes it, so a change
    stored is never left unshown; a place where the app is a guest has no message the bot may
    edit, and its lobby's next press or answer shows it."""
    try:
        await edit
    except UNDELIVERED:
        log.info("lobby %s: the press could not show it; the bot draws it", lobby.lobby_id, exc_info=True)
        play = app(interaction).get_cog("PlayCog")
        if play is not None and not place_of(interaction).guest:
            play.beside(show_lobby(interaction.client, lobby.lobby_id))
        return
    await note_shown(interaction.client, lobby)


# -- components: they carry the lobby id and nothing else ------------------------------------------
LOBBY_BUTTONS = {"join": (N_("Join"), discord.ButtonStyle.success),
                 "leave": (N_("Leave"), discord.ButtonStyle.secondary),
                 "start": (N_("Start"), discord.ButtonStyle.primary),
                 "cancel": (N_("Cancel"), discord.ButtonStyle.danger)}


class LobbyButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hf:lb:(?P<op>[a-z]{1,16}):(?P<lobby>[\s\S]*)"):
    """Join, Leave, Start and Cancel of an open lobby. The template takes any id, so a forged
    or stale one is answered (refused) rather than left to fail."""

    def __init__(self, op: str, lobby_id: str) -> None:
        label, style = LOBBY_BUTTONS.get(op, (op, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=t(label) if op in LOBBY_BUTTONS else label, style=style, custom_id=f"hf:lb:{op}:{lobby_id}"))
        self.op, self.lobby_id = op, lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], match["lobby"])

    def late_answer(self, interaction: discord.Interaction) -> str | None:
        # a start answers privately, but a guest's as an update: the lobby becomes the table
        return "private" if self.op == "start" and not place_of(interaction).guest else "update"

    async def callback(self, interaction: discord.Interaction) -> None:
        await lobby_press(interaction, self.op, self.lobby_id)


class LobbyAISelect(Speaks, discord.ui.DynamicItem[discord.ui.Select], template=r"hf:lbai:(?P<lobby>[\s\S]*)"):
    """The host adds an AI player at the chosen level."""

    def __init__(self, lobby_id: str) -> None:
        options = [discord.SelectOption(label=t("Add AI ({level})", level=tp("choice", level)), value=level)
                   for level in AI_LEVELS]
        super().__init__(discord.ui.Select(placeholder=t("Add an AI player…"), options=options,
                                           custom_id=f"hf:lbai:{lobby_id}"))
        self.lobby_id = lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        level = self.item.values[0] if self.item.values else None
        await lobby_press(interaction, "ai", self.lobby_id, level)


class ChallengeButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"hf:ch:(?P<op>[a-z]{1,16}):(?P<lobby>[\s\S]*)"):
    """Accept or Decline of a challenge."""

    def __init__(self, op: str, lobby_id: str) -> None:
        label, style = ((t("Accept"), discord.ButtonStyle.success) if op == "accept"
                        else (t("Decline"), discord.ButtonStyle.danger))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hf:ch:{op}:{lobby_id}"))
        self.op, self.lobby_id = op, lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await challenge_press(interaction, self.op, self.lobby_id)


# -- a lobby's message: what it says and, while it is open, its controls ---------------------------
def lobby_face(lobby: Lobby, settings: Any) -> tuple[discord.Embed, discord.ui.View | None]:
    """What a lobby's or challenge's message shows in its state, with its controls while it is
    open."""
    if not is_open(lobby):
        return lobby_card(lobby, settings), None
    view = challenge_view if lobby.kind == "challenge" else lobby_view
    return lobby_card(lobby, settings), view(lobby.lobby_id)


async def lobby_message(client: Any, lobby: Lobby, settings: Any) -> tuple[discord.Embed, discord.ui.View | None]:
    """:func:`lobby_face` as a start's redraw asks for it (bot.discord_ui.lobby_messages)."""
    return lobby_face(lobby, settings)


def lobby_view(lobby_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_BUTTONS:
        view.add_item(LobbyButton(op, lobby_id))
    view.add_item(LobbyAISelect(lobby_id))
    return view


def challenge_view(lobby_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("accept", lobby_id))
    view.add_item(ChallengeButton("decline", lobby_id))
    return view


