"""Rematch: the final table of a finished match offers the same game again, same players, same
settings (the stored rules of the first game, its stake, its AI seats and levels, its teams).

A rematch is a lobby of its own kind (:mod:`bot.store.lobbies`): the first player to press opens
it (a message asking the others, which expires like a challenge), each other human confirms, and
the confirmation that completes them moves it open -> starting in one transaction, so however many
presses arrive, one match starts. Against the AI alone there is nobody to ask: it starts at once.
The new game escrows its stakes through the same path as any start (``start_table``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.discord_ui.answer import CalledOff, posted_instead, press_defer, press_reply, send_private
from bot.discord_ui.app import app
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import told
from bot.discord_ui.fair import add_commitment
from bot.discord_ui.game_settings import add_settings
from bot.discord_ui.lobby_messages import face_of, show_lobby
from bot.discord_ui.parts import ACCENT, controls, rematch_face
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.starting import (
    CHALLENGE_SECONDS,
    NO_MENTIONS,
    REMATCH_CLOSED,
    check_stakes,
    display_name,
    expired_embed,
    launch,
    pressed,
)
from bot.discord_ui.text import fit_embed, refuse, safe_name
from bot.i18n import N_, t
from bot.store import Scope, StoreError
from bot.store.lobbies import Lobby, LobbyError, LobbyExpired
from bot.store.models import GameRecord
from bot.tables import Table, TableError, is_ai
from bot.tables.starting import UNPLAYABLE, rules_of
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

REMATCH_SECONDS = CHALLENGE_SECONDS
NOT_A_PLAYER = N_("Only the players of this match can ask for a rematch.")


@dataclass(frozen=True)
class Source:
    """The finished game a rematch repeats, with what the new table copies from it."""

    record: GameRecord
    rules: Any
    stake: int  # as the players chose it (chips per point in per-point games), not the escrow
    host_id: int
    names: list[str]

    @property
    def humans(self) -> list[int]:
        return [p for p in self.record.players if isinstance(p, int)]

    @property
    def ai_levels(self) -> list[str]:
        return [str(p).split(":", 1)[1] for p in self.record.players if is_ai(p)]


def source_of(record: GameRecord) -> Source:
    """What a rematch copies of ``record``; TableError when its rules no longer load."""
    state = record.state
    return Source(record, rules_of(record), int(state.get("stake", 0)), int(state["host_id"]),
                  list(state["names"]))


async def load_source(interaction: discord.Interaction, game_id: int) -> Source:
    """The finished game ``game_id`` of this server and channel, pressed by one of its players;
    TableError (a private refusal) otherwise."""
    store = app(interaction).store
    scope = Scope.press(interaction.guild_id, interaction.user.id)
    try:
        record = await store.load_game(game_id, scope=scope, with_events=False)
    except StoreError:
        raise TableError(t("That game is not one of this server's.")) from None
    if record.channel_id != interaction.channel_id:
        raise TableError(t("Press Rematch on the game's own table."))
    if interaction.user.id not in record.players:
        raise TableError(t(NOT_A_PLAYER))
    if record.status == "cancelled":
        raise TableError(t("This game was cancelled, so it has no rematch."))
    if record.status != "finished":
        raise TableError(t("Only a finished match can be played again."))
    try:
        return source_of(record)
    except (KeyError, TypeError, ValueError):  # its stored state (the rules say so themselves)
        log.warning("game %s: its stored settings do not load for a rematch", game_id, exc_info=True)
        raise TableError(t(UNPLAYABLE)) from None


# -- what the rematch message shows ----------------------------------------------------------------
def mentions(users: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"<@{u}>" for u in users) or t("nobody")


def rematch_embed(lobby: Lobby, source: Source, currency: str) -> discord.Embed:
    game = GAME_NAMES.get(lobby.game, lobby.game)
    if lobby.status == "expired":
        return expired_embed(lobby)
    if lobby.status == "closed":
        return discord.Embed(title=t("{game} rematch declined", game=game), colour=ACCENT,
                             description=t("A player declined; the rematch is off."))
    if lobby.status == "started":
        return discord.Embed(title=t("{game} rematch: started", game=game), colour=ACCENT,
                             description=t("{players}: the rematch is on; look for the new table below.",
                                           players=mentions(source.humans)))
    waiting = [u for u in source.humans if u not in lobby.humans]
    lines = [t("{host} asks for a rematch: same players, same settings.", host=f"<@{lobby.host_id}>"),
             t("Ready: {players}", players=mentions(lobby.humans))]
    if lobby.status == "starting":
        lines.append(t("Starting…"))
    else:
        lines.append(t("Waiting for: {players} (press Accept)", players=mentions(waiting)))
        if lobby.expires_at is not None:
            lines.append(t("The request expires {when}.", when=f"<t:{int(lobby.expires_at)}:R>"))
    ais = [safe_name(n) for p, n in zip(source.record.players, source.names, strict=False) if is_ai(p)]
    if ais:
        lines.append(t("Also at the table: {players}", players=", ".join(ais)))
    embed = discord.Embed(title=t("{game} rematch", game=game), colour=ACCENT, description="\n".join(lines))
    add_settings(embed, lobby.game, source.rules, source.stake, currency, seats=False)
    if lobby.status == "open":
        add_commitment(embed, lobby.commitment)
    return fit_embed(embed)


def answer_view(lobby_id: str) -> discord.ui.View:
    return controls(RematchAnswer("accept", lobby_id), RematchAnswer("decline", lobby_id))


async def rematch_message(client: Any, lobby: Lobby, settings: Any
                          ) -> tuple[discord.Embed, discord.ui.View | None] | None:
    """What a rematch's message shows in each state (its controls while it is open)."""
    if lobby.source_game_id is None:
        return None
    source = source_of(await client.store.load_game(lobby.source_game_id, scope=lobby.guild_id,
                                                    with_events=False))
    view = answer_view(lobby.lobby_id) if lobby.status == "open" else None
    return rematch_embed(lobby, source, settings.currency_name), view


# -- presses ---------------------------------------------------------------------------------------
def show_expired(interaction: discord.Interaction, lobby_id: str) -> None:
    """Show a rematch this press found expired as such, beside the press: the press is answered
    first, since the edit waits for the rematch's lock and the channel's rate limit."""
    play = app(interaction).get_cog("PlayCog")
    if play is not None:  # None only while the bot shuts down; the expiry is stored all the same
        play.beside(show_lobby(interaction.client, lobby_id))


async def may_stake(interaction: discord.Interaction, source: Source) -> bool:
    """Whether the presser may open a rematch with this stake (the server's stake policy)."""
    if not source.stake:
        return True
    settings = await app(interaction).store.get_settings(interaction.guild_id)
    perms = getattr(interaction.user, "guild_permissions", None)
    return settings.may_start_staked(is_manager=bool(perms and perms.manage_guild),
                                     role_ids=[r.id for r in getattr(interaction.user, "roles", [])])


async def request(interaction: discord.Interaction, source: Source,
                  answering: str | None = None) -> tuple[Lobby, str]:
    """Ask for or confirm the rematch of ``source``; an expired request is closed (its message
    too) and a fresh one opened. ``answering``: the press is Accept on that rematch's message,
    which confirms that rematch or nothing."""
    store = app(interaction).store
    rules = source.rules
    args = dict(game=source.record.game, stake=source.stake, seats=len(source.record.players),
                ais=source.ai_levels, channel_id=source.record.channel_id,
                rounds=rules.rounds or None, target=rules.target_score or None,
                preset=rules.preset_name, teams=getattr(rules, "teams", None))
    for _ in range(2):
        live = await store.live_rematch(source.record.game_id)
        if answering is not None and (live is None or live.lobby_id != answering):
            raise TableError(t(REMATCH_CLOSED))
        if live is None and not await may_stake(interaction, source):
            raise TableError(t("On this server only staff may start games with a stake."))
        try:
            return await store.request_rematch(source.record.game_id, interaction.user.id,
                                               expires_at=time.time() + REMATCH_SECONDS,
                                               answering=answering, press=interaction.id, **args)
        except LobbyExpired:
            if live is not None and await store.expire_lobby(live.lobby_id) is not None:
                show_expired(interaction, live.lobby_id)
            if answering is not None:
                raise TableError(t("This rematch request has expired; press Rematch on the final "
                                   "table to ask again.")) from None
    raise TableError(t("The rematch could not be opened; please press again."))


async def rematch_press(interaction: discord.Interaction, game_id: int, answering: str | None = None) -> None:
    """Rematch on a final table, or Accept on the rematch message ``answering``: ask, confirm
    or start."""
    store = app(interaction).store
    try:
        source = await load_source(interaction, game_id)
        await check_stakes(interaction, source.record.game, source.stake, [interaction.user.id])
        lobby, step = await request(interaction, source, answering)
    except (TableError, LobbyError) as exc:
        await refuse(interaction, told(exc))
        return
    settings = await store.get_settings(interaction.guild_id)
    if step == "waiting":
        waiting = [u for u in source.humans if u not in lobby.humans]
        await refuse(interaction, t("You are in; waiting for {players}.", players=mentions(waiting)))
    elif step == "created":
        waiting = [u for u in source.humans if u not in lobby.humans]
        with in_public(interaction):
            embed, view = rematch_embed(lobby, source, settings.currency_name), answer_view(lobby.lobby_id)
        message = dict(content=" ".join(f"<@{u}>" for u in waiting)[:2000], embed=embed, view=view,
                       allowed_mentions=discord.AllowedMentions(
                           everyone=False, roles=False, replied_user=False,
                           users=[discord.Object(u) for u in waiting]))
        try:
            message_id = (await press_reply(interaction, **message)
                          or (await interaction.original_response()).id)
        except UNDELIVERED as exc:  # the asked must see it to accept
            message_id = await posted_instead(interaction, exc, f"rematch {lobby.lobby_id}'s request",
                                              **message)
            if message_id is None:  # shown nowhere: the next press on Rematch asks afresh
                with contextlib.suppress(LobbyError):  # not open: the others' presses started it
                    await store.withdraw_lobby(lobby.lobby_id)
                raise CalledOff() from exc
        await store.set_lobby_message(lobby.lobby_id, message_id, shown=lobby.revision)
        play = app(interaction).get_cog("PlayCog")
        if play is not None:  # None only while the bot shuts down
            play.schedule_expiry(lobby.lobby_id)
        if (await store.get_lobby(lobby.lobby_id)).status != "open":  # answered meanwhile
            await show_lobby(interaction.client, lobby.lobby_id)
    elif step == "confirmed":
        try:
            await send_private(interaction, t("You are in; the rematch starts once everyone has "
                                              "accepted."), allowed_mentions=NO_MENTIONS)
        finally:  # the message shows the confirmation stored, whether Discord took the answer or not
            await show_lobby(interaction.client, lobby.lobby_id)
    else:
        await start(interaction, lobby, source)


async def start(interaction: discord.Interaction, lobby: Lobby, source: Source) -> None:
    """This press completed the confirmations: play the same game again."""
    await press_defer(interaction, ephemeral=True, thinking=True)
    names = []
    for player, old in zip(source.record.players, source.names, strict=True):
        names.append(await display_name(interaction, player) if isinstance(player, int) else old)
    with in_public(interaction):
        headline = t("Rematch: {players}.", players=" vs ".join(safe_name(n) for n in names))
    table: Table | None = await launch(interaction, lobby, players=list(source.record.players),
                                       names=names, rules=source.rules, host_id=source.host_id,
                                       headline=headline[:2000])
    if table is not None:
        await interaction.followup.send(t("The rematch is on: look for the table below."), ephemeral=True,
                                        allowed_mentions=NO_MENTIONS)
    await show_lobby(interaction.client, lobby.lobby_id)  # its tries may take a while: told first


async def answer_press(interaction: discord.Interaction, op: str, lobby_id: str) -> None:
    """Accept or Decline on the rematch message, checked against the stored rematch."""
    store = app(interaction).store
    try:
        lobby = await pressed(interaction, lobby_id, "rematch")
        if op == "accept" and lobby.source_game_id is not None:
            await rematch_press(interaction, lobby.source_game_id, lobby.lobby_id)
            return
        if op != "decline":
            raise TableError(t(REMATCH_CLOSED))
        await store.decline_rematch(lobby.lobby_id, interaction.user.id)
    except LobbyExpired:
        if await store.expire_lobby(lobby_id) is not None:
            show_expired(interaction, lobby_id)
        await refuse(interaction, t("This rematch request has expired."))
        return
    except (TableError, LobbyError) as exc:
        await refuse(interaction, told(exc))
        return
    try:
        await send_private(interaction, t("You declined the rematch."), allowed_mentions=NO_MENTIONS)
    finally:  # the message shows the refusal stored, whether Discord took the answer or not
        await show_lobby(interaction.client, lobby_id)


class RematchButton(Speaks, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:rematch:(?P<gid>[0-9]{1,19})"):
    """Rematch, on the final table of a finished match."""

    def __init__(self, game_id: int) -> None:
        super().__init__(rematch_face(game_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await rematch_press(interaction, self.game_id)


class RematchAnswer(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"hf:rm:(?P<op>[a-z]{1,16}):(?P<lobby>[\s\S]*)"):
    """Accept or Decline of a rematch request; the custom id carries only the rematch's id."""

    def __init__(self, op: str, lobby_id: str) -> None:
        label, style = ((t("Accept"), discord.ButtonStyle.success) if op == "accept"
                        else (t("Decline"), discord.ButtonStyle.danger))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hf:rm:{op}:{lobby_id}"))
        self.op, self.lobby_id = op, lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, self.op, self.lobby_id)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RematchButton, RematchAnswer)
    face_of("rematch", rematch_message)
