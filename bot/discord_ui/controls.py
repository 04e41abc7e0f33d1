"""The controls of a running table (its message and the private hands); what they show is drawn
and sent by :mod:`bot.discord_ui.publisher`.

Every control is a :class:`discord.ui.DynamicItem` whose custom id carries what it needs
(``hf:act:<game>:<move number>:<action>``, or ``#<i>``, the i-th move offered, when the action's
text would not fit Discord's 100 characters), so controls keep working after a restart and a
control from an earlier turn is recognised: nothing is played, and the copy it was on is brought
to the newest moves.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot import metrics
from bot.discord_ui.answer import press_defer, press_reply, send_private
from bot.discord_ui.app import app
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.entry_point import launch_activity
from bot.discord_ui.errors import told
from bot.discord_ui.held import handled, track
from bot.discord_ui.hints import answer_hint, offers_hint_button
from bot.discord_ui.parts import ACCENT, OPTION_LABEL, PLACEHOLDER, button_label, png
from bot.discord_ui.places import place_of
from bot.discord_ui.relay import NotPassedOn, Relay, RelayedPress
from bot.discord_ui.speaking import Speaks
from bot.discord_ui.text import NO_PINGS, refuse
from bot.games.base import Action
from bot.i18n import current, t
from bot.tables import ANSWERED_HOMES, EarlierTurn, Table, TableError
from bot.words import shorten
from rendering import render_yaku_sheet
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)


def tables(interaction: discord.Interaction):
    return app(interaction).tables


# -- controls ------------------------------------------------------------------------------------
class ForGame:
    """Mixin of the table's controls whose custom id carries only the game id."""

    gid: int

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))  # type: ignore[call-arg]


class AtTable(Speaks):
    """Mixin of the controls of one game's table, in place of :class:`Speaks`: a press on a game
    that another process drives, in a channel of a server that never added the bot, first takes
    that place's games up here, where Discord sends its presses
    (:meth:`bot.discord_ui.relay.Relay.take_up_place`)."""

    gid: int
    # No late acknowledgement: a move or a slap is answered by its own deadline, saying whether
    # it is stored (an acknowledgement alone would pass a press not yet stored as taken); the
    # other controls answer before anything waits.
    late = None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await super().interaction_check(interaction)
        relay: Relay | None = getattr(interaction.client, "relay", None)
        if relay is not None:
            await relay.take_up_place(interaction, self.gid)
        return True


ACK_SECONDS = 2.0
"""How long a press waits for its move to be stored before it is answered anyway: Discord gives
an interaction 3 s, and the answer must travel back."""


async def press_move(interaction: discord.Interaction, gid: int, seq: int, key: str) -> None:
    """A move pressed on a hand: checked, stored, then acknowledged and shown.

    The acknowledgement waits for the move's transaction, so a press the player saw taken is in
    the store whatever happens next (a crash, a kill). Should the database take longer than
    :data:`ACK_SECONDS`, the press is answered with a sentence saying the move is not saved yet,
    and the player is told again once it is played or refused. The press's own interaction then
    edits the presser's hand (interaction responses are exempt from Discord's global rate limit
    and reach ephemeral hands too). A press in a DM on a game another process drives is queued
    for it (bot.discord_ui.relay) under the same deadline."""
    manager = tables(interaction)
    via = app(interaction).publisher.via_press(interaction)
    playing = asyncio.ensure_future(played_or_passed(
        interaction, "move", gid, seq, key,
        lambda: manager.press(gid, interaction.user.id, seq, key, via=via)))
    try:
        done, _ = await asyncio.wait({playing}, timeout=ACK_SECONDS)
        refused = playing.exception() if done else None
        try:
            # Stored, or queued for its process: the press is taken. Or pressed on a copy that
            # fell behind: the press's answer shows that copy the newest moves.
            if done and (refused is None or isinstance(refused, EarlierTurn)):
                await press_defer(interaction)
            else:  # answered by a message of its own (here, or by the guard for a fault)
                via.withdrawn = True
                if isinstance(refused, TableError | NotPassedOn):  # not played: it says why
                    await refuse(interaction, not_played(refused))
                elif not done:  # the database is slow: say so rather than look taken
                    await send_private(interaction, t(
                        "Your move is waiting for the database and is not saved yet; the table "
                        "will show it once it is, or you will be told it was not played."))
            metrics.acknowledged(interaction)
        except UNDELIVERED as exc:
            via.unsettled = True  # Discord may never have had the answer: asked before use
            answer_lost(gid, exc)
    finally:
        via.answered.set()
    if done and refused is not None and not isinstance(refused, TableError | NotPassedOn):
        raise refused  # a fault, not a refusal: answered in a line by the control's guard
    if isinstance(refused, EarlierTurn) and not (via.withdrawn or via.unsettled):
        await told_after(interaction, t("That control was from an earlier turn, so nothing was "
                                        "played; your hand now shows the newest moves."))
        return
    await followed_up(interaction, playing, answered=done)


async def played_or_passed(interaction: discord.Interaction, kind: str, gid: int, seq: int,
                           key: str, play: Callable[[], Awaitable[Any]]) -> Any:
    """``play()``'s result, or :class:`Passed` when the press went to the process that drives
    its game (a press in a DM: bot.discord_ui.relay). A game driven here is played at once, so
    presses are taken in the order received."""
    relay: Relay | None = getattr(interaction.client, "relay", None)
    if relay is not None and not tables(interaction).drives(gid):
        shard = await relay.pass_on(interaction, kind, gid, seq, key)
        if shard is not None:
            return Passed(shard)
    return await play()


@dataclass(frozen=True)
class Passed:
    """A press queued for the process of the shard that drives its game."""

    shard: int


def not_played(refused: TableError | NotPassedOn) -> str:
    """Why a press was not played, as the presser reads it."""
    if isinstance(refused, NotPassedOn):
        return t("The move could not be passed on to its table; try again in a moment.")
    return told(refused)


async def followed_up(interaction: discord.Interaction, playing: asyncio.Future[Any], *,
                      answered: bool, say: Callable[[Any], str] | None = None) -> None:
    """After the press's first response: a press passed on is announced to its process, whose
    answer through the token waits for that; one answered before it was played is told how it
    went (``say`` of the result, when there is something to say, else only a refusal)."""
    try:
        result = await playing
    except (TableError, NotPassedOn) as exc:
        if not answered:
            await told_after(interaction, not_played(exc))
        return
    if isinstance(result, Passed):
        relay: Relay = interaction.client.relay  # type: ignore[attr-defined]
        await relay.announce(result.shard, interaction)
    elif not answered and say is not None:
        await told_after(interaction, say(result))


async def told_after(interaction: discord.Interaction, text: str) -> None:
    """How a press answered before it was played went, privately (lost with its answer, should
    Discord not have taken that)."""
    try:
        await interaction.followup.send(text, ephemeral=True)
    except UNDELIVERED as exc:
        log.warning("what became of a press could not be told (%s)", exc)


def answer_lost(gid: int, failure: Exception) -> None:
    """A press's answer that did not reach Discord (a server error, or a cut connection that
    :func:`~bot.discord_ui.answer.first_response` could not settle). What was played stands and
    the table and hand show it; it is not answered again, since Discord may have taken the first
    answer and refuses a second."""
    log.warning("the answer to a press in game %d did not reach Discord (%s); the table shows "
                "what was played", gid, failure)


async def play_relayed(bot: Any, press: RelayedPress) -> None:
    """A press on a hand that shard 0's process received and acknowledged for this one: played
    as :func:`press_move` and the slap button would, answered through the press's token (the
    hand itself is edited as the bot, as for a move made by the others)."""
    manager = bot.tables
    followup = AfterAck(press.followup(bot), bot.relay, press)
    try:
        if press.kind == "slap":
            events = await manager.slap_by(press.game_id, press.user_id, relayed_press=press.press_id)
            await followup.send(slapped(events), ephemeral=True)
            return
        await manager.press(press.game_id, press.user_id, press.seq, press.key,
                            relayed_press=press.press_id)
    except TableError as exc:
        await followup.send(told(exc), ephemeral=True)


class AfterAck:
    """A relayed press's followup that sends only once the receiving process acknowledged the
    press: this process may take the press from the queue before that ack reached Discord."""

    def __init__(self, followup: discord.Webhook, relay: Relay, press: RelayedPress) -> None:
        self._followup, self._relay, self._press = followup, relay, press

    async def send(self, content: str, *, ephemeral: bool) -> None:
        await self._relay.acknowledged(self._press)
        await self._followup.send(content, ephemeral=ephemeral, allowed_mentions=NO_PINGS)


def slapped(events: list[dict[str, Any]]) -> str:
    """The slapper's answer: their place in the race, when the slap counted."""
    place = next((e["position"] for e in events if e["type"] == "slap"), None)
    if place == 1:
        return t("Slap! You were first.")
    if place:  # only the first can be excused: a later slap still pays its hand
        return t("Slap! You were number {place}: you still pay for the cards in your hand.",
                 place=place)
    return t("Slap!")


def forget_view(item: discord.ui.Item[Any]) -> None:
    """To run a press on a dynamic item, discord.py builds a whole view from the pressed message
    and drops it afterwards, its items pointing at it and, in a laid-out message, at the
    container and row that hold them: cycles that would wait for a full collection of the
    garbage collector. Untied once the press is handled, the view goes with its last reference."""
    view = item.view
    if view is None:
        return
    for child in [*view.walk_children(), item, getattr(item, "item", item)]:
        child._view = None
        child._parent = None
    view.clear_items()


class Forgets:
    """Mixin of every control (before ``discord.ui.DynamicItem`` in the bases): the view discord.py
    built for the press is let go of once the callback is over, however it ended, and so is the
    interaction unless a token still holds it (:mod:`bot.discord_ui.held`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        callback = cls.__dict__.get("callback")
        if callback is None:
            return

        @functools.wraps(callback)
        async def run(self: Any, interaction: discord.Interaction) -> None:
            track(interaction)
            try:
                await callback(self, interaction)
            finally:
                forget_view(self)
                handled(interaction)

        cls.callback = run  # type: ignore[attr-defined]


class ActionButton(AtTable, Forgets, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:act:(?P<gid>[0-9]+):(?P<seq>[0-9]+):(?P<action>#[0-9]+|[A-Za-z0-9_:>+]+)"):
    """One legal move of the player to act."""

    def __init__(self, gid: int, seq: int, action: str, label: str = "Move",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=button_label(label), style=style, row=row,
                                           custom_id=f"hf:act:{gid}:{seq}:{action}"))
        self.gid, self.seq, self.action = gid, seq, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["seq"]), match["action"], item.label or "Move")

    async def callback(self, interaction: discord.Interaction) -> None:
        await press_move(interaction, self.gid, self.seq, self.action)


MOVE_KEY = re.compile(r"#[0-9]+|[A-Za-z0-9_:>+]+")


class MoveSelect(AtTable, Forgets, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"hf:mv:(?P<gid>[0-9]+):(?P<seq>[0-9]+):(?P<part>[0-9]+)"):
    """The legal moves as menus when there are more than buttons fit (25): every move reachable."""

    def __init__(self, gid: int, seq: int, part: int,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"hf:mv:{gid}:{seq}:{part}", placeholder=shorten(placeholder or t("Choose a move"), PLACEHOLDER), row=part,
            options=options or [discord.SelectOption(label="Move", value="#0")]))
        for option in self.item.options:
            option.label = shorten(option.label, OPTION_LABEL)
        self.gid, self.seq = gid, seq

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["seq"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not MOVE_KEY.fullmatch(str(values[0])):
            await refuse(interaction, t("Choose one move from the menu."))
            return
        await press_move(interaction, self.gid, self.seq, str(values[0]))


def action_key(gid: int, seq: int, action: Action, index: int) -> str:
    """What a move control names: the action's text, or ``#index`` when too long for a custom id."""
    return str(action) if len(f"hf:act:{gid}:{seq}:{action}") <= 100 else f"#{index}"


class SlapButton(AtTable, Forgets, ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:slap:(?P<gid>[0-9]+)"):
    """First Bloom's race: slap the hand of the player who went out. Posted in the channel and
    on the hands of DM players alike; presses count in the order the bot receives them."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label=t("Slap!"), emoji="✋", style=discord.ButtonStyle.danger,
                                           custom_id=f"hf:slap:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = tables(interaction)
        # Queued before anything awaits, so the order of presses is the order received; answered
        # once the slap is stored (or queued for the process that drives the game), and a slow
        # database gets a "thinking" answer meanwhile.
        slapping = asyncio.ensure_future(played_or_passed(
            interaction, "slap", self.gid, 0, "",
            lambda: manager.slap_by(self.gid, interaction.user.id)))
        done, _ = await asyncio.wait({slapping}, timeout=ACK_SECONDS)
        refused = slapping.exception() if done else None
        try:
            if done and refused is None and not isinstance(slapping.result(), Passed):
                await send_private(interaction, slapped(slapping.result()))
                return
            if isinstance(refused, TableError | NotPassedOn):
                await send_private(interaction, not_played(refused))
                return
            # passed on (its process answers privately, as a slap pressed there is), still being
            # stored, or a fault (raised after it, for the control's guard to answer)
            await press_defer(interaction, ephemeral=True, thinking=True)
        except UNDELIVERED as exc:
            answer_lost(self.gid, exc)
        await followed_up(interaction, slapping, answered=done, say=slapped)


class HandButton(AtTable, Forgets, ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:hand:(?P<gid>[0-9]+)"):
    """'My hand': the hand as a fresh ephemeral message, for anyone whose DMs are closed."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label=t("My hand"), emoji="🎴", style=discord.ButtonStyle.primary,
                                           custom_id=f"hf:hand:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            table, seat = tables(interaction).seat_in(
                self.gid, interaction.user.id, t("You are not playing in this game, so you have no hand here."))
        except TableError as exc:
            if not await shown_ended(interaction, self.gid):
                await refuse(interaction, told(exc))
            return
        if table.home in ANSWERED_HOMES:
            # Answered as an update of the table, so this press's token shows the table from now
            # on (a guest may only answer), and the hand follows privately.
            await press_defer(interaction)
            guest = app(interaction).guest  # bot.discord_ui.guest
            token = guest.table_pressed(table, interaction)
            await guest.show_hand_privately(table, seat, token)
            return
        await press_defer(interaction, ephemeral=True, thinking=True)
        publisher = app(interaction).publisher  # bot.discord_ui.publisher
        await publisher.show_hand_via(table, seat, interaction)


async def shown_ended(interaction: discord.Interaction, gid: int) -> bool:
    """Where the app is a guest, or on a private table (an ephemeral message), a press on the
    table of a game that has ended meanwhile shows its final table
    (:meth:`bot.discord_ui.guest.GuestSurface.show_ended`)."""
    guest = getattr(app(interaction), "guest", None)
    message = interaction.message
    private = message is not None and message.flags.ephemeral
    if guest is None or not (private or place_of(interaction).guest):
        return False
    return await guest.show_ended(interaction, gid)


class RulesButton(Speaks, Forgets, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:rules:(?P<game>[a-z_]+)"):
    """The yaku sheet of the game, privately."""

    late = "private"

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label=t("Rules"), emoji="📜", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:rules:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in GAME_NAMES:  # a forged custom id
            await refuse(interaction, t("There is no such game."))
            return
        await press_defer(interaction, ephemeral=True, thinking=True)
        publisher = app(interaction).publisher  # bot.discord_ui.publisher
        data = await publisher.render(render_yaku_sheet, self.game, current())
        embed = discord.Embed(title=t("{game}: scoring", game=GAME_NAMES.get(self.game, self.game)), colour=ACCENT)
        embed.set_image(url="attachment://rules.png")
        await interaction.followup.send(embed=embed, file=png(data, "rules.png"), ephemeral=True)


class ForfeitButton(AtTable, Forgets, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"hf:forfeit:(?P<gid>[0-9]+)(?P<sure>:sure)?"):
    """Forfeit, with a private confirmation first."""

    def __init__(self, gid: int, sure: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=t("Yes, forfeit") if sure else t("Forfeit"), emoji="🏳️",
            style=discord.ButtonStyle.danger, custom_id=f"hf:forfeit:{gid}" + (":sure" if sure else "")))
        self.gid, self.sure = gid, sure

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), bool(match["sure"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = tables(interaction)
        try:
            if not self.sure:
                try:
                    manager.seat_in(self.gid, interaction.user.id)
                except TableError:
                    if await shown_ended(interaction, self.gid):
                        return
                    raise
                view = discord.ui.View(timeout=None)
                view.add_item(ForfeitButton(self.gid, sure=True))
                await press_reply(interaction, t("Forfeit this game? You lose the match and your stake."),
                                  view=view, ephemeral=True)
                return
            await press_defer(interaction, ephemeral=True, thinking=True)
            await manager.forfeit_by(self.gid, interaction.user.id)
            await interaction.followup.send(t("You forfeited the game."), ephemeral=True)
        except TableError as exc:
            await refuse(interaction, told(exc))


class CancelButton(AtTable, Forgets, ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:cancel:(?P<gid>[0-9]+)"):
    """Cancel the game and refund the stakes: the host or a member with Manage Server only."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label=t("Cancel game"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:cancel:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = tables(interaction)
        perms = interaction.permissions
        manages_at = (interaction.guild_id, interaction.channel_id) if perms and perms.manage_guild else None
        try:
            try:
                manager.get(self.gid)  # refused at once, before the answer waits on the cancelling
            except TableError:
                if await shown_ended(interaction, self.gid):
                    return
                raise
            await press_defer(interaction, ephemeral=True, thinking=True)
            await manager.cancel_by(self.gid, interaction.user.id, interaction.user.display_name,
                                    manages_at=manages_at)
            await interaction.followup.send(t("Game cancelled; every stake was refunded."), ephemeral=True)
        except TableError as exc:
            await refuse(interaction, told(exc))


class ActivityButton(AtTable, Forgets, ForGame, discord.ui.DynamicItem[discord.ui.Button],
                     template=r"hf:activity:(?P<gid>[0-9]+)"):
    """'Play in the Activity': Discord opens the bot's Activity in the channel, where the page
    joins the channel's table (docs/activity.md). Shown only while the Activity is on."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label=t("Play in the Activity"), emoji="🚀",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:activity:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        await launch_activity(interaction)


class HintButton(AtTable, Forgets, ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:hint:(?P<gid>[0-9]+)"):
    """'Hint': the move the search prefers, privately, in casual games (bot.discord_ui.hints)."""

    def __init__(self, gid: int, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("Hint"), emoji="💡", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:hint:{gid}", row=row))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_hint(interaction, self.gid)


def hint_buttons(client: Any, table: Table, rows_used: int) -> list[discord.ui.Item[Any]]:
    """The Hint button for a hand whose move controls take ``rows_used`` rows, when the table
    offers hints and a row is left for it (Discord shows five)."""
    if rows_used >= 5 or not offers_hint_button(client, table):
        return []
    return [HintButton(table.game_id, row=rows_used)]


CONTROLS = (ActionButton, MoveSelect, SlapButton, HandButton, RulesButton, ForfeitButton, CancelButton,
            ActivityButton, HintButton)
