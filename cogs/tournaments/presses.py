"""The buttons and menus of a tournament's messages, and what a press on them does."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.discord_ui.answer import press_defer, press_update
from bot.discord_ui.app import app
from bot.discord_ui.cog import NOT_STAFF, is_manager
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import told
from bot.discord_ui.parts import controls
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.text import NO_PINGS, refuse, safe_name
from bot.i18n import N_, t, tp
from bot.store import Scope, StoreError
from bot.store.tournaments import Entrant, Tournament, TournamentError
from bot.tables import AI_LEVELS, TableError

from .messages import tournament_embed, withdrawn_text

log = logging.getLogger(__name__)

GONE = N_("This tournament is no longer open to that.")


# -- presses ---------------------------------------------------------------------------------------

def scope_of_press(interaction: discord.Interaction) -> Scope:
    """What a press may read: its own server's tournaments, or from a DM the presser's own."""
    return Scope.press(interaction.guild_id, interaction.user.id)


def on_its_message(interaction: discord.Interaction, tour: Tournament) -> bool:
    """Whether the press was made on the tournament's own message (where staff run it)."""
    message_id = interaction.message.id if interaction.message is not None else None
    return tour.channel_id == interaction.channel_id and (tour.message_id is None
                                                          or tour.message_id == message_id)


async def pressed(interaction: discord.Interaction, tid: int, op: str) -> Tournament:
    """The stored tournament a press refers to, if the presser may see it (its server's, or from
    a DM one they signed up for) and, but to leave it, pressed on its own message."""
    store = app(interaction).store
    try:
        tour = await store.tournament(tid, scope=scope_of_press(interaction))
    except TournamentError:
        raise TournamentError(t(GONE)) from None
    if op != "leave" and not on_its_message(interaction, tour):
        raise TournamentError(t(GONE))
    return tour


class Pressed(Protocol):
    """What a press asks of the tournaments' cog (:class:`.cog.TournamentCog`). The cog draws
    its messages with this module's buttons, so this module names it by that part alone
    (tests/test_layers.py: no module reaches itself through its imports)."""

    async def currency(self, guild_id: int) -> str: ...

    async def shown(self, tour: Tournament) -> None: ...

    def schedule(self, tid: int, delay: float = 0.0) -> None: ...

    def redraw(self, tid: int) -> None: ...

    async def withdraw(self, tid: int, user_id: int, scope: Scope, *, refresh: bool
                       ) -> tuple[Tournament, Entrant]: ...

    async def drop(self, tour: Tournament, entrant: int, actor: int) -> str: ...

    async def cancel(self, tour: Tournament, actor: int) -> None: ...

    async def send_leave_note(self, interaction: discord.Interaction, tour: Tournament
                              ) -> None: ...


def cog_of(interaction: discord.Interaction) -> Pressed:
    return interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined,return-value]


async def shown_through(cog: Pressed, tour: Tournament, edit: Awaitable[Any]) -> None:
    """Show ``tour`` through the press's own ``edit`` and note it shown. Should Discord fail the
    edit (the press's token gone, a server error past discord.py's tries), the change is stored
    all the same: the bot draws the message itself, and what the press goes on to do (the rounds
    of a tournament just started) is done regardless."""
    try:
        await edit
    except UNDELIVERED:
        log.info("tournament %s: the press could not show it; the bot draws it", tour.tournament_id,
                 exc_info=True)
        cog.redraw(tour.tournament_id)
        return
    await cog.shown(tour)


async def leave_press(interaction: discord.Interaction, tour: Tournament) -> None:
    """Leave, from the tournament's message, a DM's button or any place the presser may see it:
    the message is brought up to date and the presser told what it cost them."""
    cog = cog_of(interaction)
    here = on_its_message(interaction, tour)
    # Answered first: the withdrawal waits for the tournament's lock, which a round being opened
    # holds while its posts wait for the channel's rate limit.
    if here:
        await press_defer(interaction)
    else:
        await press_defer(interaction, ephemeral=True, thinking=True)
    tour, gone = await cog.withdraw(tour.tournament_id, interaction.user.id,
                                    scope_of_press(interaction), refresh=not here)
    if here:
        with in_public(interaction):
            embed, view = (tournament_embed(tour, await cog.currency(tour.guild_id)),
                           tournament_view(tour))
        await shown_through(cog, tour, interaction.edit_original_response(
            embed=embed, view=view, allowed_mentions=NO_PINGS))
        if tour.status == "open":  # the message shows it; a withdrawal from a game is told
            return
    await interaction.followup.send(withdrawn_text(tour, gone), ephemeral=True,
                                    allowed_mentions=NO_PINGS)


async def tournament_press(interaction: discord.Interaction, op: str, tid: int,
                           value: str | None = None) -> None:
    store = app(interaction).store
    cog = cog_of(interaction)
    guild, user = interaction.guild_id, interaction.user
    try:
        tour = await pressed(interaction, tid, op)
        if op in ("start", "cancel", "ai", "drop") and not is_manager(interaction):
            raise TournamentError(t(NOT_STAFF))
        if op == "join":
            tour = await store.join_tournament(tid, guild, user.id, user.display_name)
        elif op == "leave":
            await leave_press(interaction, tour)
            return
        elif op == "ai":
            if value not in AI_LEVELS:
                raise TournamentError(t("Choose an AI level: {levels}.", levels=", ".join(AI_LEVELS)))
            level_count = sum(1 for e in tour.signed_up if e.ai_level == value) + 1
            with in_public(interaction):
                name = t("AI {number} ({level})", number=level_count, level=tp("choice", value))
            tour = await store.add_tournament_ai(tid, guild, value, name)
        elif op == "start":
            tour = await store.start_tournament(tid, guild)
        elif op == "cancel":
            await press_defer(interaction)
            await cog.cancel(tour, user.id)
            return
        elif op == "drop":
            await press_defer(interaction, ephemeral=True, thinking=True)
            name = await cog.drop(tour, int(value or 0), user.id)
            await interaction.followup.send(t("{name} is out of the tournament.", name=safe_name(name)),
                                            ephemeral=True, allowed_mentions=NO_PINGS)
            return
        else:
            raise TournamentError(t(GONE))
    except (StoreError, TableError, ValueError) as exc:
        await refuse(interaction, told(exc))
        return
    with in_public(interaction):
        embed, view = tournament_embed(tour, await cog.currency(guild)), tournament_view(tour)
    await shown_through(cog, tour, press_update(interaction, embed=embed, view=view,
                                                allowed_mentions=NO_PINGS))
    if op == "start":
        cog.schedule(tid)
    elif op == "join":
        await cog.send_leave_note(interaction, tour)


class TournamentButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"hf:tn:(?P<op>[a-z]{1,8}):(?P<tid>[0-9]{1,19})"):
    """Join, Leave, Start and Cancel on a tournament's message."""

    LABELS = {"join": (N_("Join"), discord.ButtonStyle.success),
              "leave": (N_("Leave"), discord.ButtonStyle.secondary),
              "start": (N_("Start"), discord.ButtonStyle.primary),
              "cancel": (N_("Cancel tournament"), discord.ButtonStyle.danger)}

    def __init__(self, op: str, tid: int) -> None:
        label, style = self.LABELS.get(op, (N_("Join"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=t(label), style=style,
                                           custom_id=f"hf:tn:{op}:{tid}"))
        self.op, self.tid = op, tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await tournament_press(interaction, self.op, self.tid)


class TournamentAISelect(Speaks, discord.ui.DynamicItem[discord.ui.Select],
                         template=r"hf:tnai:(?P<tid>[0-9]{1,19})"):
    """Staff add an AI entrant at the chosen level."""

    def __init__(self, tid: int) -> None:
        options = [discord.SelectOption(label=t("Add AI ({level})", level=tp("choice", level)),
                                        value=level) for level in AI_LEVELS]
        super().__init__(discord.ui.Select(placeholder=t("Add an AI entrant (staff)…"),
                                           options=options, custom_id=f"hf:tnai:{tid}"))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await tournament_press(interaction, "ai", self.tid,
                               self.item.values[0] if self.item.values else None)


class DropSelect(Speaks, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"hf:tndrop:(?P<tid>[0-9]{1,19})"):
    """Staff take an entrant out of a running tournament (the values are entrant numbers)."""

    def __init__(self, tid: int, entrants: list[Any] | None = None) -> None:
        options = [discord.SelectOption(label=e.name[:100], value=str(e.entrant))
                   for e in (entrants or [])[:25]]
        super().__init__(discord.ui.Select(
            placeholder=t("Drop a player (staff)…"), custom_id=f"hf:tndrop:{tid}",
            options=options or [discord.SelectOption(label="-", value="0")]))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else "0"
        await tournament_press(interaction, "drop", self.tid, value if value.isdigit() else "0")


# -- the message's controls: beside the buttons, as a press draws them again -----------------------

def tournament_view(tour: Tournament) -> discord.ui.View | None:
    tid = tour.tournament_id
    if tour.status == "open":
        return controls(TournamentButton("join", tid), TournamentButton("leave", tid),
                        TournamentButton("start", tid), TournamentButton("cancel", tid),
                        TournamentAISelect(tid))
    if tour.status == "running":  # an entrant can always withdraw: Leave stays
        active = [e for e in tour.seeded if e.status == "in"]
        return controls(TournamentButton("leave", tid), TournamentButton("cancel", tid),
                        DropSelect(tid, active))
    return None
