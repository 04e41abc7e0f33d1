"""The deal of the day's cog: ``/deal play``, ``/deal board``, ``/deal remind`` and
``/deal announce``, and the watch that posts the new deals and sends the reminders."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.daily_words import shown_places
from bot.discord_ui.answer import acknowledge, answers, send
from bot.discord_ui.app import app
from bot.discord_ui.background import until_utc
from bot.discord_ui.boards import known_names
from bot.discord_ui.cog import GAME_CHOICES, WatchingCog, anywhere, drawn, staff_only
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import dm_owed, post_owed, settle_owed
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.places import can_post, place_of, scope_of
from bot.discord_ui.speaking import in_public, in_server, speaking
from bot.discord_ui.text import (
    NO_PINGS,
    clip,
    daily_post_text,
    day_text,
    refuse,
    safe_name,
)
from bot.i18n import t
from bot.names import board_names
from bot.store import StoreError
from bot.store.daily import DailyPost, day_end
from bot.store.reminders import DEFAULT_HOUR, Reminder
from bot.tables import AlreadyStarted, TableError
from bot.tables.daily import play_daily
from bot.tables.starting import Place
from bot.words import plural
from rendering import render_board
from rendering.view import GAME_NAMES

from .boards import board_embed, board_picture, played_text
from .posts import post_embed, post_nonce
from .reminders import reminder_message, reminder_nonce

log = logging.getLogger(__name__)

BOARD_IMAGE = "deal.png"
RETRY_SECONDS = 60.0  # a post Discord did not take (not a refusal) is tried again after
DAYS = [app_commands.Choice(name="today", value=0), app_commands.Choice(name="yesterday", value=1)]
HOURS_LEFT = [app_commands.Choice(name=f"{n} hour{'s' if n > 1 else ''} before", value=n)
              for n in (1, 2, 4, 6, 8, 12, 16, 20, 24)]
"""How long before the day's deals end a reminder may come (24: as the new deals are dealt)."""




class DailyCog(WatchingCog):
    """The deal of the day: one deal a day per game and place, played alone against the AI,
    and, where a server's staff chose a channel, the new deals posted there every day."""

    deal = anywhere(app_commands.Group(
        name="deal", description="The deal of the day: the same cards for everyone here, and a board"))

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot, self.look, RETRY_SECONDS, "the deals' posts and reminders")

    async def look(self) -> float:
        """The day's posts and reminders that are due; the seconds until the next look."""
        return min(await self.run_posts(), await self.run_reminders())

    async def run_posts(self) -> float:
        """Post today's deals where it is due on this process's servers; the seconds until the
        next look (the next UTC midnight, sooner to retry a post Discord did not take)."""
        return await self._deliver(await self.store.due_daily_posts(), self._post,
                                   until_utc(self.clock()))

    async def _deliver(self, due: list[Any], send: Callable[[Any], Awaitable[bool]],
                       wait: float) -> float:
        """``send`` each of ``due`` (a post, a reminder) of this process's servers; ``wait``, or
        the retry's delay when one should be asked again."""
        owns = app(self.bot).shard_plan.owns
        for item in due:
            if owns(item.guild_id) and self.bot.get_guild(item.guild_id) is not None \
                    and not await send(item):
                wait = min(wait, RETRY_SECONDS)
        return wait

    async def _post(self, plan: DailyPost) -> bool:
        """Post the server's deals of today; False when Discord should be asked again."""
        guild, today = plan.guild_id, self.store.daily_deal_day()
        podiums = await self.store.daily_podiums(guild, self.store.daily_deal_day(1))
        settings = await self.store.get_settings(guild)
        links = await self.bot.command_ids.of(guild)
        with in_server(self.bot, guild, settings):
            embed = post_embed(today, podiums, links)
        channel = self.bot.get_partial_messageable(plan.channel_id, guild_id=guild)
        return await settle_owed(
            post_owed(channel, f"the deals of {today} of server {guild}", embed=embed,
                      allowed_mentions=NO_PINGS, nonce=post_nonce(guild, today)),
            lambda sent: self.store.daily_posted(guild, today, delivered=sent is not None))

    async def run_reminders(self) -> float:
        """Send the reminders due on this process's servers; the seconds until the next look
        (the next full hour, when more may come due; sooner to retry one Discord did not take)."""
        return await self._deliver(await self.store.due_daily_reminders(), self._remind,
                                   3600.0 - self.clock() % 3600.0 + 1)

    async def _remind(self, reminder: Reminder) -> bool:
        """DM the member their reminder of today; False when Discord should be asked again."""
        today = self.store.daily_deal_day()
        guild = self.bot.get_guild(reminder.guild_id)
        languages = getattr(self.bot, "languages", None)
        with speaking(languages.of_user(reminder.user_id) if languages is not None else "en"):
            text, view = reminder_message(reminder, guild.name if guild else "", day_end(today))
        return await settle_owed(
            dm_owed(self.bot, reminder.user_id, f"a reminder of {today} of server {reminder.guild_id}",
                    content=text, view=view, allowed_mentions=NO_PINGS,
                    nonce=reminder_nonce(reminder.guild_id, today)),
            lambda sent: self.store.daily_reminded(reminder.guild_id, reminder.user_id, today,
                                                   delivered=sent is not None))

    @answers(private=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @deal.command(name="remind", description="A DM on days you have not played this server's deal "
                                             "yet, hours before it ends")
    @app_commands.describe(when="Every day you have not played by then; or off",
                           hours_left="How long before the deals end at midnight UTC (default: 4 "
                                      "hours)")
    @app_commands.choices(when=[app_commands.Choice(name="On days I have not played", value="on"),
                                app_commands.Choice(name="Off", value="off")],
                          hours_left=HOURS_LEFT)
    async def remind(self, interaction: discord.Interaction, when: str,
                     hours_left: int = 24 - DEFAULT_HOUR) -> None:
        if interaction.guild_id is None or place_of(interaction).guest:
            await refuse(interaction, t("Reminders come by DM from servers that added the bot; "
                                        "use this command in one."))
            return
        if when not in ("on", "off") or not 1 <= hours_left <= 24:
            await refuse(interaction, t("Pick the reminder and its time from the lists offered."))
            return
        try:
            found = await self.store.set_daily_reminder(interaction.guild_id, interaction.user.id,
                                                        when == "on", hour=(24 - hours_left) % 24)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        links = await links_for(interaction)
        if found is None:
            text = t("No more reminders of this server's deal of the day.")
        else:
            first = day_end(self.store.daily_deal_day()) // 1000 + found.hour * 3600
            text = t("From tomorrow, I will DM you at {time} your time ({hours} before the deals end "
                     "at midnight UTC) on days you have not played this server's deal of the day by "
                     "then. {remind} with off, or the Stop button on a reminder, ends them. Your DMs "
                     "must be open to this server's members.", time=f"<t:{first}:t>",
                     hours=plural(hours_left, "hour"), remind=mention("deal remind", links))
        await send(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @deal.command(name="announce", description="Post the new deals in this channel every day at "
                                               "00:00 UTC (staff)")
    @app_commands.describe(post="Every day in this channel, with yesterday's podiums; or off")
    @app_commands.choices(post=[app_commands.Choice(name="Every day, in this channel", value="on"),
                                app_commands.Choice(name="Off", value="off")])
    async def announce(self, interaction: discord.Interaction, post: str) -> None:
        if interaction.guild_id is not None and place_of(interaction).guest:
            await refuse(interaction, t("Only a server that added the bot posts the new deals in a "
                                        "channel; {play} works here.",
                                        play=mention("deal play", await links_for(interaction))))
            return
        if not await staff_only(interaction):
            return
        channel = interaction.channel_id if post == "on" else None
        if channel is not None and not can_post(interaction.app_permissions):
            await refuse(interaction, t("I cannot post the new deals in this channel: give me Send "
                                        "Messages and Embed Links here, or use the command in "
                                        "another channel."))
            return
        try:
            plan = await self.store.set_daily_post(interaction.guild_id, channel)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        self.watch.wake()
        links = await links_for(interaction)
        await send(interaction, daily_post_text(plan, links), ephemeral=True, allowed_mentions=NO_PINGS)

    @deal.command(name="play", description="Play today's deal: the same cards for everyone here, "
                                           "against the AI")
    @app_commands.describe(game="The game whose deal to play")
    @app_commands.choices(game=GAME_CHOICES)
    async def play(self, interaction: discord.Interaction, game: str = "koikoi") -> None:
        place = place_of(interaction)
        if game not in GAME_NAMES:
            await refuse(interaction, t("There is no such game."))
            return
        # The table is this answer, seen by the player alone: the cards are everyone's today.
        await acknowledge(interaction, private=True)
        try:
            await self._play(interaction, place, game)
        except TableError as exc:
            await send(interaction, clip(told(exc), 2000), allowed_mentions=NO_PINGS)
        except StoreError as exc:
            await send(interaction, sentence(exc), allowed_mentions=NO_PINGS)

    async def _play(self, interaction: discord.Interaction, place: Place, game: str) -> None:
        user = interaction.user
        try:
            found = await play_daily(self.store, app(self.bot).tables, place, user.id,
                                     user.display_name, safe_name(user.display_name), game,
                                     via=interaction)
        except AlreadyStarted:  # a second press while the first was starting it
            await send(interaction, t("Your game of today's deal is starting; its table is in "
                                      "your first answer."), allowed_mentions=NO_PINGS)
            return
        if found.started:
            return  # its first picture is the answer
        if found.table is not None:
            await app(self.bot).guest.show_again(found.table, interaction)
            return
        await send(interaction, played_text(found.entry, found.deal, await links_for(interaction),
                                            found.status), allowed_mentions=NO_PINGS)

    @answers(private=False)
    @deal.command(name="board", description="The board of a deal of the day: who came out "
                                            "furthest ahead of the AI")
    @app_commands.describe(game="The game whose deal to show", day="Today's deal, or yesterday's "
                                                                  "with its seed revealed")
    @app_commands.choices(game=GAME_CHOICES, day=DAYS)
    async def board(self, interaction: discord.Interaction, game: str = "koikoi",
                    day: int = 0) -> None:
        scope = scope_of(interaction)
        if scope is None:
            await refuse(interaction, t("Use this command in a server."))
            return
        if game not in GAME_NAMES or day not in (0, 1):
            await refuse(interaction, t("There is no such game.") if game not in GAME_NAMES
                         else t("Choose today's deal or yesterday's."))
            return
        which = self.store.daily_deal_day(day)
        board = await self.store.daily_deal_board(scope, game, which)
        links = await links_for(interaction)
        if board is None:
            await refuse(interaction, t("Nobody here looked at the {game} deal of {day}; {play} "
                                        "deals today's.", game=GAME_NAMES[game], day=day_text(which),
                                        play=mention("deal play", links)))
            return
        await acknowledge(interaction)
        asker = interaction.user.id
        names = await board_names(self.store, scope,
                                  [row.user_id for _, row in shown_places(board, asker)],
                                  known_names(interaction))
        with in_public(interaction):
            embed = board_embed(board, asker, links)
            picture = board_picture(board, asker, names)
        files = await drawn(self.bot, render_board, picture, embed, BOARD_IMAGE)
        await send(interaction, embed=embed, files=files, allowed_mentions=NO_PINGS)
