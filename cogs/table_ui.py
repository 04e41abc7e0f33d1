"""The Discord side of a running table: the channel message, private hands and their controls.

Every control is a :class:`discord.ui.DynamicItem` whose custom id carries what it needs
(``hf:act:<game>:<move number>:<action>``, or ``#<i>``, the i-th legal action, when the action's
text would not fit Discord's 100 characters), so controls keep working after a restart and a
control from an earlier turn is recognised and refused politely.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from bot import presenter
from bot.games.base import Action
from bot.settlement import stake_text
from bot.tables import Table, TableError, is_ai
from rendering import render_hand, render_summary, render_table, render_yaku_sheet
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

ACCENT = discord.Colour.from_rgb(196, 48, 43)


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def tables(interaction: discord.Interaction):
    return interaction.client.tables  # type: ignore[attr-defined]


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral one-sentence refusal, whether or not the interaction was answered yet."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


def my_seat(interaction: discord.Interaction, gid: int,
            outsider: str = "You are not playing in this game.") -> tuple[Any, Table, int]:
    """The table manager, the running table ``gid`` and the presser's seat; TableError else."""
    manager = tables(interaction)
    table = manager.get(gid)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise TableError(outsider)
    return manager, table, seat


# -- controls ------------------------------------------------------------------------------------
class ForGame:
    """Mixin of the table's controls whose custom id carries only the game id."""

    gid: int

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))  # type: ignore[call-arg]


class ActionButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:act:(?P<gid>[0-9]+):(?P<seq>[0-9]+):(?P<action>#[0-9]+|[A-Za-z0-9_:>+]+)"):
    """One legal move of the player to act."""

    def __init__(self, gid: int, seq: int, action: str, label: str = "Move",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, row=row,
                                           custom_id=f"hf:act:{gid}:{seq}:{action}"))
        self.gid, self.seq, self.action = gid, seq, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["seq"]), match["action"], item.label or "Move")

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = tables(interaction)
        try:
            table = manager.get(self.gid)
            seat = manager.check_click(table, interaction.user.id, self.seq)
            action = self.action
            if action.startswith("#"):  # checked against this very move by check_click
                legal = table.match.legal_actions()
                action = legal[int(action[1:])] if int(action[1:]) < len(legal) else action
            await interaction.response.defer()
            await manager.act(table, seat, action, interaction.user.id, self.seq)
        except TableError as exc:
            await refuse(interaction, str(exc))
            return
        # A private (ephemeral) hand is refreshed here; a DM hand was already edited by the move.
        if not table.finished and seat in table.dm_failed:
            publisher: TablePublisher = interaction.client.publisher  # type: ignore[attr-defined]
            await interaction.edit_original_response(**await publisher.hand_message(table, seat))


def action_key(gid: int, seq: int, action: Action, index: int) -> str:
    """What a move button's custom id names: the action's text, or ``#index`` when too long."""
    return str(action) if len(f"hf:act:{gid}:{seq}:{action}") <= 100 else f"#{index}"


class SlapButton(ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:slap:(?P<gid>[0-9]+)"):
    """First Bloom's race: slap the hand of the player who went out. Posted in the channel and
    on the hands of DM players alike; presses count in the order the bot receives them."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Slap!", emoji="✋", style=discord.ButtonStyle.danger,
                                           custom_id=f"hf:slap:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            manager, table, seat = my_seat(interaction, self.gid)
            # Queue the slap before anything awaits, so the order of presses is the order received.
            slapping = asyncio.ensure_future(manager.slap(table, seat, interaction.user.id))
        except TableError as exc:
            await refuse(interaction, str(exc))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            events = await slapping
        except TableError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        place = next((e["position"] for e in events if e["type"] == "slap"), None)
        await interaction.followup.send(f"Slap! You were number {place}." if place else "Slap!", ephemeral=True)


class HandButton(ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:hand:(?P<gid>[0-9]+)"):
    """'My hand': the hand as a fresh ephemeral message, for anyone whose DMs are closed."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", emoji="🎴", style=discord.ButtonStyle.primary,
                                           custom_id=f"hf:hand:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            _, table, seat = my_seat(interaction, self.gid,
                                     "You are not playing in this game, so you have no hand here.")
        except TableError as exc:
            await refuse(interaction, str(exc))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        publisher: TablePublisher = interaction.client.publisher  # type: ignore[attr-defined]
        content = await publisher.hand_message(table, seat)
        files = content.pop("attachments")  # a new message takes files; an edit takes attachments
        await interaction.followup.send(ephemeral=True, files=files, **content)


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hf:rules:(?P<game>[a-z_]+)"):
    """The yaku sheet of the game, privately."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Rules", emoji="📜", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:rules:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await asyncio.to_thread(render_yaku_sheet, self.game)
        embed = discord.Embed(title=f"{GAME_NAMES.get(self.game, self.game)}: scoring", colour=ACCENT)
        embed.set_image(url="attachment://rules.png")
        await interaction.followup.send(embed=embed, file=png(data, "rules.png"), ephemeral=True)


class ForfeitButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"hf:forfeit:(?P<gid>[0-9]+)(?P<sure>:sure)?"):
    """Forfeit, with a private confirmation first."""

    def __init__(self, gid: int, sure: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label="Yes, forfeit" if sure else "Forfeit", emoji="🏳️",
            style=discord.ButtonStyle.danger, custom_id=f"hf:forfeit:{gid}" + (":sure" if sure else "")))
        self.gid, self.sure = gid, sure

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), bool(match["sure"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            manager, table, seat = my_seat(interaction, self.gid)
            if not self.sure:
                view = discord.ui.View(timeout=None)
                view.add_item(ForfeitButton(self.gid, sure=True))
                await interaction.response.send_message(
                    "Forfeit this game? You lose the match and your stake.", view=view, ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await manager.forfeit(table, seat, "forfeited")
            await interaction.followup.send("You forfeited the game.", ephemeral=True)
        except TableError as exc:
            await refuse(interaction, str(exc))


class CancelButton(ForGame, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:cancel:(?P<gid>[0-9]+)"):
    """Cancel the game and refund the stakes: the host or a member with Manage Server only."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Cancel game", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:cancel:{gid}"))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction) -> None:
        manager = tables(interaction)
        try:
            table = manager.get(self.gid)
            perms = getattr(interaction.user, "guild_permissions", None)
            if interaction.user.id != table.host_id and not (perms and perms.manage_guild):
                raise TableError("Only the player who started the game or a server manager can cancel it.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            await manager.cancel(table, interaction.user.id, f"cancelled by {interaction.user.display_name}")
            await interaction.followup.send("Game cancelled; every stake was refunded.", ephemeral=True)
        except TableError as exc:
            await refuse(interaction, str(exc))


CONTROLS = (ActionButton, SlapButton, HandButton, RulesButton, ForfeitButton, CancelButton)


# -- the publisher ---------------------------------------------------------------------------------
class TablePublisher:
    """Renders (in a worker thread) and sends what a table shows. Used by bot.tables."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    def describe(self, table: Table, events: list[dict]) -> list[str]:
        return [line for e in events if (line := presenter.describe_event(table.game, e, table.names))]

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(channel_id)

    def _table_embed(self, table: Table, closing: str | None = None) -> discord.Embed:
        obs = table.match.observation(0)
        head = presenter.table_view(obs, table.names).title
        embed = discord.Embed(title=head, colour=ACCENT,
                              description="\n".join(table.log_lines) or "The cards are dealt.")
        for seat, name in enumerate(table.names):
            embed.add_field(name=name, value=f"{table.match.scores[seat]} points", inline=True)
        race = getattr(presenter.for_game(table.game), "race_prompt", None)
        if race and table.in_race:
            embed.add_field(name="Slap race", value=race(obs, table.names), inline=False)
        if closing:
            embed.add_field(name="Result", value=closing, inline=False)
        else:
            seat = table.match.current_player
            if seat is not None:
                turn = "Slap race!" if table.in_race else f"{table.names[seat]} to play"
                embed.set_footer(text=f"{turn} · move {table.seq}"
                                 + (f" · {stake_text(table.game, table.stake)}" if table.stake else ""))
        embed.set_image(url="attachment://table.png")
        return embed

    def _table_view(self, table: Table) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(table.game_id))
        view.add_item(RulesButton(table.game))
        view.add_item(ForfeitButton(table.game_id))
        view.add_item(CancelButton(table.game_id))
        return view

    async def _table_png(self, table: Table) -> bytes:
        obs = table.match.observation(0)
        view = presenter.table_view(obs, table.names,
                                    last_move=table.log_lines[-1] if table.log_lines else "")
        return await asyncio.to_thread(render_table, view)

    async def post_table(self, table: Table) -> None:
        channel = await self._channel(table.channel_id)
        image = await self._table_png(table)
        msg = await channel.send(embed=self._table_embed(table), file=png(image, "table.png"),
                                 view=self._table_view(table))
        table.message_id = msg.id

    async def _edit_table(self, table: Table, closing: str | None = None) -> None:
        channel = await self._channel(table.channel_id)
        image = await self._table_png(table)
        view = None if closing else self._table_view(table)
        try:
            await channel.get_partial_message(table.message_id).edit(
                embed=self._table_embed(table, closing), attachments=[png(image, "table.png")], view=view)
        except discord.NotFound:
            msg = await channel.send(embed=self._table_embed(table, closing),
                                     file=png(image, "table.png"), view=view)
            table.message_id = msg.id

    async def hand_message(self, table: Table, seat: int) -> dict[str, Any]:
        """Keyword arguments of a message showing ``seat``'s hand with its legal moves."""
        obs = table.match.observation(seat)
        image = await asyncio.to_thread(render_hand, presenter.hand_view(obs))
        embed = discord.Embed(title=f"{GAME_NAMES.get(table.game, table.game)} · your hand",
                              colour=ACCENT, description=presenter.hand_view(obs).title)
        for name, value in presenter.hand_fields(obs):
            embed.add_field(name=name, value=value)
        embed.set_image(url="attachment://hand.png")
        view = discord.ui.View(timeout=None)
        if table.in_race:
            if seat in obs.get("race_seats", []):
                view.add_item(SlapButton(table.game_id))
        elif obs.get("legal_actions"):
            for i, (pos, action) in enumerate(presenter.hand_actions(obs)[:25]):
                label = presenter.action_label(table.game, action)
                if pos is not None:
                    label = f"{pos}. {label}"
                style = getattr(discord.ButtonStyle, presenter.action_style(table.game, action))
                key = action_key(table.game_id, table.seq, action, i)
                view.add_item(ActionButton(table.game_id, table.seq, key, label, style, row=i // 5))
        return {"embed": embed, "attachments": [png(image, "hand.png")], "view": view}

    async def _send_dm(self, table: Table, seat: int) -> None:
        user_id = table.players[seat]
        content = await self.hand_message(table, seat)
        files = content.pop("attachments")
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        try:
            msg = await user.send(files=files, **content)
        except discord.Forbidden:
            table.dm_failed.add(seat)
            channel = await self._channel(table.channel_id)
            await channel.send(
                f"<@{user_id}>, I can't send you direct messages, so press **My hand** on the "
                "table to see your cards and play (only you can see it).",
                allowed_mentions=discord.AllowedMentions(users=True))
            return
        table.hand_messages[seat] = [msg.channel.id, msg.id]

    async def _update_hand(self, table: Table, seat: int) -> None:
        if seat in table.dm_failed:
            return
        ref = table.hand_messages.get(seat)
        if ref is None:
            await self._send_dm(table, seat)
            return
        channel = self.bot.get_channel(ref[0]) or await self.bot.fetch_channel(ref[0])
        try:
            await channel.get_partial_message(ref[1]).edit(**await self.hand_message(table, seat))
        except (discord.NotFound, discord.Forbidden):
            table.hand_messages.pop(seat, None)
            await self._send_dm(table, seat)

    async def deliver_hands(self, table: Table) -> None:
        ephemeral = (await self.bot.store.get_settings(table.guild_id)).hand_delivery == "ephemeral"  # type: ignore[attr-defined]
        for seat, player in enumerate(table.players):
            if is_ai(player):
                continue
            if ephemeral:
                table.dm_failed.add(seat)
            else:
                await self._send_dm(table, seat)
        if ephemeral:
            await self._ping_turn(table)

    async def _ping_turn(self, table: Table) -> None:
        seat = table.match.current_player
        if seat is None or seat not in table.dm_failed or table.in_race:
            return
        channel = await self._channel(table.channel_id)
        await channel.send(f"<@{table.players[seat]}>, it's your turn: press **My hand**.",
                           allowed_mentions=discord.AllowedMentions(users=True))

    async def show_move(self, table: Table, events: list[dict]) -> None:
        await self._edit_table(table)
        for seat, player in enumerate(table.players):
            if not is_ai(player):
                await self._update_hand(table, seat)
        for e in events:
            if e["type"] == "round_over":
                await self._post_summary(table, e)
            elif e["type"] == "race":
                await self._post_race(table, e)
        await self._ping_turn(table)

    async def _post_race(self, table: Table, event: dict) -> None:
        """The Slap! message: everyone but the player who went out races to press it."""
        humans = [table.players[s] for s in event["seats"] if not is_ai(table.players[s])]
        channel = await self._channel(table.channel_id)
        view = discord.ui.View(timeout=None)
        view.add_item(SlapButton(table.game_id))
        pings = " ".join(f"<@{u}>" for u in humans)
        await channel.send(f"**{table.names[event['winner']]} is out!** Slap their hand: the first to press "
                           f"pays nothing. {pings}", view=view,
                           allowed_mentions=discord.AllowedMentions(users=True))

    async def _post_summary(self, table: Table, event: dict) -> None:
        view = presenter.summary_view(table.game, event, table.names)
        image = await asyncio.to_thread(render_summary, view)
        embed = discord.Embed(title=f"{GAME_NAMES.get(table.game, table.game)} · round {event['round']}",
                              description="\n".join(view.result_lines), colour=ACCENT)
        embed.set_image(url="attachment://summary.png")
        channel = await self._channel(table.channel_id)
        await channel.send(embed=embed, file=png(image, "summary.png"))

    async def warn(self, table: Table, seat: int, seconds: int) -> None:
        channel = await self._channel(table.channel_id)
        await channel.send(f"<@{table.players[seat]}>, {seconds} seconds left for your move, "
                           "then I play a safe move for you.",
                           allowed_mentions=discord.AllowedMentions(users=True))

    async def show_end(self, table: Table, outcome: Any, *, forfeit: int | None = None,
                       cancelled: bool = False) -> None:
        if cancelled:
            closing = "Cancelled; stakes refunded."
        else:
            order = sorted(range(len(table.names)), key=lambda s: -table.match.scores[s])
            closing = "\n".join(f"{i + 1}. {table.names[s]}: {table.match.scores[s]} points"
                                for i, s in enumerate(order))
            if forfeit is not None:
                closing = f"{table.names[forfeit]} forfeited.\n" + closing
            paid = {s: v for s, v in getattr(outcome, "payouts", {}).items() if v}
            if paid:
                closing += "\nChips: " + ", ".join(f"{table.names[s]} +{v}" for s, v in paid.items())
        await self._edit_table(table, closing)
        for seat, player in enumerate(table.players):
            if not is_ai(player) and seat not in table.dm_failed and seat in table.hand_messages:
                ref = table.hand_messages[seat]
                try:
                    channel = self.bot.get_channel(ref[0]) or await self.bot.fetch_channel(ref[0])
                    await channel.get_partial_message(ref[1]).edit(view=None)
                except discord.HTTPException:
                    log.info("could not close the hand message of seat %s", seat)


async def setup(bot: discord.Client) -> None:
    bot.add_dynamic_items(*CONTROLS)
