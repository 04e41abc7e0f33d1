"""The community cog: the commands ``/leaderboard``, ``/stats`` and ``/chips``."""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord import app_commands

from bot.discord_ui.answer import acknowledge, answers, posted_instead, send
from bot.discord_ui.boards import known_names
from bot.discord_ui.cog import GAME_CHOICES, ServerCog, anywhere, drawn, not_a_member, server_only
from bot.discord_ui.command_links import links_for
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import in_public
from bot.discord_ui.text import NO_PINGS, BadOption, fit_embed, refuse, season_label, shown
from bot.games import GAMES
from bot.i18n import number, t
from bot.store import (
    ALL_SEASONS,
    CURRENT_SEASON,
    MAX_AMOUNT,
    InsufficientFunds,
    StoreError,
    UnknownAccount,
)
from bot.store.models import SeasonChoice
from bot.store.records import GUEST_PLACES
from bot.words import amount as counted
from bot.words import currency_noun
from rendering import CardView, render_board, render_card

from .boards import (
    ALL_GAMES_ACHIEVEMENTS,
    ALL_GAMES_CHIPS,
    BOARD_IMAGE,
    ORDERS,
    PERIODS,
    SERVER_WIDE,
    leaderboard_message,
)
from .chips import history_message
from .seasons import SEASON_OPTION_LENGTH, season_autocomplete, season_number, season_option
from .stats import CARD_IMAGE, OWN_RECORD, stats_card, stats_embed

log = logging.getLogger(__name__)


class CommunityCog(ServerCog):
    """Leaderboards, player statistics and the chip ledger of a server."""

    chips = server_only(app_commands.Group(name="chips", description="Your chips on this server",
                                           guild_only=True))

    # -- /leaderboard ------------------------------------------------------------------------------
    @answers(private=False)
    @anywhere
    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(game="Only this game (ratings are per game)",
                           order="Rank by rating, wins, points, win streak, chips, achievements or "
                                 "days on the deal of the day",
                           period="All time or the last 30 days",
                           season="Which season (default: the current one)")
    @app_commands.choices(
        game=GAME_CHOICES,
        order=[app_commands.Choice(name=n.capitalize(), value=v) for v, n in ORDERS.items()],
        period=[app_commands.Choice(name=n.capitalize(), value=v) for v, n in PERIODS.items()],
    )
    @app_commands.autocomplete(season=season_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None,
                          order: str | None = None, period: str = "all",
                          season: app_commands.Range[str, 1, SEASON_OPTION_LENGTH] | None = None
                          ) -> None:
        order = order or ("rating" if game else "wins")
        try:
            chosen = season_option(season)
        except BadOption as exc:
            await refuse(interaction, str(exc))
            return
        if order == "rating" and chosen is ALL_SEASONS:
            await refuse(interaction, t("Ratings start afresh each season: choose one season."))
            return
        if order not in ORDERS or period not in PERIODS or (game and game not in GAMES):
            await refuse(interaction, t("Pick the game, order and period from the lists offered."))
            return
        if order == "rating" and game is None:
            await refuse(interaction, t("Ratings are kept per game: choose a game, or order by "
                                        "wins, points or chips."))
            return
        every_game = order in SERVER_WIDE and game is not None
        if order in SERVER_WIDE:
            game = None  # chips and achievements belong to the server, not to a game
        try:
            with in_public(interaction):  # the board is posted in the channel
                content, board = await leaderboard_message(
                    self.store, scope_of(interaction), interaction.user.id, game, order, period, 0,
                    chosen, known_names(interaction), await links_for(interaction))
                if every_game:  # the game asked for is not dropped without a word
                    said = t(ALL_GAMES_CHIPS) if order == "chips" else t(ALL_GAMES_ACHIEVEMENTS)
                    embed = content["embed"]
                    embed.description = f"{embed.description}\n{said}" if embed.description else said
                    board = replace(board, note=f"{said} {board.note}".strip())
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await acknowledge(interaction)  # the page is drawn in the render workers
        files = await drawn(self.bot, render_board, board, content["embed"], BOARD_IMAGE)
        await send(interaction, files=files, **content)

    # -- /stats ------------------------------------------------------------------------------------
    @answers(private=False)
    @anywhere
    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.describe(user="Whose record (default: yours)",
                           season="Which season (default: the current one)")
    @app_commands.autocomplete(season=season_autocomplete)
    async def stats(self, interaction: discord.Interaction,
                    user: discord.Member | discord.User | None = None,
                    season: app_commands.Range[str, 1, SEASON_OPTION_LENGTH] | None = None
                    ) -> None:
        target = user or interaction.user  # a former member keeps their record
        if target.bot:
            await refuse(interaction, t("Bots keep no record here; pick a member."))
            return
        guild = scope_of(interaction)
        mine = target.id == interaction.user.id
        try:
            chosen = season_option(season)
            if mine and place_of(interaction).guest:  # where the app is a guest: your own record
                embed, card = await self._own_stats(interaction, target, chosen)
            else:
                embed, card = await self._place_stats(interaction, guild, target, chosen, mine)
        except (StoreError, BadOption) as exc:
            await refuse(interaction, told(exc))
            return
        await acknowledge(interaction)  # the card is drawn in the render workers
        files = await drawn(self.bot, render_card, card, embed, CARD_IMAGE)
        await send(interaction, embed=embed, files=files, allowed_mentions=NO_PINGS)

    async def _place_stats(self, interaction: discord.Interaction, guild: int,
                           target: discord.abc.User, chosen: SeasonChoice, mine: bool
                           ) -> tuple[discord.Embed, CardView]:
        """A player's record in the place asked from (a server, or one guest place), and below it
        for the player who asked for their own, one line of their record in the guest places."""
        seasons = await self.store.seasons(guild)
        number_ = season_number(chosen, seasons)
        stats = await self.store.user_stats(guild, target.id, recent=5, season=number_)
        settings = await self.store.get_settings(guild)
        try:
            balance: int | None = await self.store.balance(guild, target.id)
        except UnknownAccount:
            balance = None
        elsewhere = await self.store.guest_record(target.id, recent=0, yaku=False) if mine else None
        versus = None if mine else await self.store.head_to_head(guild, interaction.user.id,
                                                                 target.id, season=number_)
        achieved = [e.code for e in await self.store.achievements(guild, target.id)]
        daily = await self.store.daily_record(guild, target.id)  # the place's own days
        with in_public(interaction):  # the record is posted in the channel
            embed = fit_embed(stats_embed(target, stats, settings.currency_name, balance,
                                          season_label(number_, seasons), elsewhere=elsewhere,
                                          versus=versus, asker=interaction.user, achieved=achieved,
                                          own_card=mine, daily=daily))
            card = await stats_card(self.store, guild, target.display_name, stats,
                                    settings.currency_name, balance,
                                    season_label(number_, seasons, plain=True), versus=versus,
                                    asker=interaction.user.display_name, achieved=achieved,
                                    daily=daily)
        return embed, card

    async def _own_stats(self, interaction: discord.Interaction, target: discord.abc.User,
                         chosen: SeasonChoice) -> tuple[discord.Embed, CardView]:
        """The asker's own record of every place where the app is a guest, their deals of the day
        there among it: seasons belong to servers, so it counts every game."""
        if chosen not in (CURRENT_SEASON, ALL_SEASONS):
            raise BadOption(t("Only a server has seasons: your own record counts every game."))
        stats = await self.store.guest_record(target.id, recent=5)
        achieved = [e.code for e in await self.store.achievements(GUEST_PLACES, target.id)]
        daily = await self.store.guest_daily_record(target.id)  # every guest place's days
        with in_public(interaction):  # the record is posted in the channel
            embed = fit_embed(stats_embed(target, stats, "", None, achieved=achieved, own_card=True,
                                          daily=daily))
            card = await stats_card(self.store, GUEST_PLACES, target.display_name, stats, "", None,
                                    t(OWN_RECORD), achieved=achieved, daily=daily)
        return embed, card

    # -- /chips ------------------------------------------------------------------------------------
    @answers(private=False)
    @chips.command(name="balance", description="How many chips you (or another member) hold")
    @app_commands.describe(user="Whose balance (default: yours)")
    async def balance(self, interaction: discord.Interaction,
                      user: discord.Member | discord.User | None = None) -> None:
        target = user or interaction.user
        guild = interaction.guild_id
        mine = target.id == interaction.user.id
        if not mine and (why := not_a_member(target)):
            await refuse(interaction, why)
            return
        name = shown(target.display_name, 100)
        try:
            settings = await self.store.get_settings(guild)
            currency = shown(settings.currency_name, 64)
            try:  # a read first: a balance still shows while the database cannot be written
                amount = await self.store.balance(guild, target.id)
            except UnknownAccount:
                if not mine:
                    await refuse(interaction, t("{name} has no {currency} here yet; their account "
                                                "opens with their first /chips command.",
                                                name=name, currency=currency_noun(currency)))
                    return
                amount, _ = await self.store.open_account(guild, target.id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):  # the answer is posted in the channel
            held = counted(amount, currency, bold=True)
            text = (t("💰 You have {amount}.", amount=held) if mine
                    else t("💰 {name} has {amount}.", name=name, amount=held))
        await send(interaction, text, allowed_mentions=NO_PINGS)

    @answers(private=False)
    @chips.command(name="daily", description="Claim your daily chips (once per UTC day)")
    async def daily(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id, interaction.user.id
        try:
            settings = await self.store.get_settings(guild)
            await self.store.open_account(guild, user)
            done = await self.store.claim_daily(guild, user)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        currency = shown(settings.currency_name, 64)
        with in_public(interaction):  # the answer is posted in the channel
            text = t("🎁 You claimed {amount}; you now have {balance}. Come back tomorrow (UTC) "
                     "for more.", amount=counted(done.amount, currency, bold=True),
                     balance=f"**{number(done.to_balance)}**")
        await send(interaction, text, allowed_mentions=NO_PINGS)

    @answers(private=False)
    @chips.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(user="Who receives them", amount="How many chips")
    async def give(self, interaction: discord.Interaction, user: discord.Member | discord.User,
                   amount: app_commands.Range[int, 1, MAX_AMOUNT]) -> None:
        guild, sender = interaction.guild_id, interaction.user.id
        if why := not_a_member(user):
            await refuse(interaction, why)
            return
        if user.id == sender:
            await refuse(interaction, t("You can't give chips to yourself; pick another member."))
            return
        try:
            settings = await self.store.get_settings(guild)
            currency = shown(settings.currency_name, 64)
            done = await self.store.transfer(
                guild, sender, user.id, amount, key=f"give:{interaction.id}",
                reason=f"gift from {interaction.user.display_name}"[:200], open_accounts=True)
        except InsufficientFunds as exc:
            await refuse(interaction, t("You have {balance}, not {amount}; give less, or claim "
                                        "/chips daily first.", balance=counted(exc.balance, currency),
                                        amount=number(amount)))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):  # the answer is posted in the channel
            text = t("🤝 {giver} gave {amount} to {receiver} (now {giver_balance} and "
                     "{receiver_balance}).", giver=f"<@{sender}>",
                     amount=counted(amount, currency, bold=True), receiver=f"<@{user.id}>",
                     giver_balance=number(done.from_balance), receiver_balance=number(done.to_balance))
        pings = discord.AllowedMentions(everyone=False, roles=False, users=[user], replied_user=False)
        try:
            await send(interaction, text, allowed_mentions=pings)
        except UNDELIVERED as exc:  # given all the same: said, lest it be given twice
            await posted_instead(interaction, exc, f"the gift of transfer {done.transfer_id}",
                                 content=text, allowed_mentions=pings)

    @answers(private=True)
    @chips.command(name="history", description="Your chip history on this server, newest first")
    async def history(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id, interaction.user.id
        try:
            try:  # reads first: the history still shows while the database cannot be written
                await self.store.balance(guild, user)
            except UnknownAccount:
                await self.store.open_account(guild, user)
            content = await history_message(self.store, guild, user, 0)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, ephemeral=True, **content)
