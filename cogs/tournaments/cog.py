"""The tournaments' cog: the ``/tournament`` commands, and what staff and members do to a
tournament (drop, withdraw, cancel). Running the rounds, the posts and the timed starts are its
mixins (:mod:`.rounds`, :mod:`.posts`, :mod:`.starts`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import CalledOff, acknowledge, answers, landed, send
from bot.discord_ui.app import app
from bot.discord_ui.background import Background, Watch
from bot.discord_ui.cog import NOT_STAFF, ServerCog, is_manager
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import UNDELIVERED, Coalescer, Retry, passing
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.parts import controls
from bot.discord_ui.places import can_post
from bot.discord_ui.speaking import in_public
from bot.discord_ui.text import NO_PINGS, refuse, safe_name, weekday_name
from bot.games import GAMES, game_module
from bot.i18n import number, t
from bot.store import EVERY_SERVER, Scope, StoreError
from bot.store.tournaments import Entrant, Tournament, Weekly
from bot.tables import TableError
from bot.tables.rules import MAX_STAKE
from rendering.view import GAME_NAMES

from .messages import signup_text, tournament_embed, withdrawn_text
from .options import OPTION_CHOICES, OPTION_WORDS, SIGNUP_BEFORE, STARTS_IN, WEEKDAYS, planned_rules
from .posts import Posts
from .presses import TournamentButton, scope_of_press, tournament_view
from .rounds import Rounds
from .starts import TimedStarts

RETRY_S = 30.0  # a tournament that could not advance (database or Discord trouble) tries again


class TournamentCog(Rounds, Posts, TimedStarts, ServerCog):
    """Tournaments: the command, the sign-up message, and running the rounds."""

    # Usable in a DM too: a member who left the server can still withdraw (/tournament leave).
    tournament = app_commands.Group(
        name="tournament", description="Tournaments on this server",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True))

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: dict[int, int] = {}  # game id -> tournament of the pairing it plays
        self._tasks = Background()  # rounds and redraws: each ends when its work is done
        self._watch = Background()  # the timed starts' loop, which runs until unload
        self.retry_s = RETRY_S
        self.clock: Callable[[], float] = time.time  # what "now" is to the timed starts
        self.watch = Watch(self.start_due, RETRY_S, "the tournaments that start by themselves")
        # Redraws of a message as the bot: one at a time per tournament, the latest state.
        self._redraws = Coalescer(Retry(passing))

    async def cog_load(self) -> None:
        """Listen for ended tables, and know every running tournament's games before the
        running tables are resumed (a game may end at once); then advance each tournament."""
        if getattr(self.bot, "store", None) is None:  # only publishing the commands
            return
        app(self.bot).tables.end_listeners.append(self._table_ended)
        owns = app(self.bot).shard_plan.owns
        live = [tid for tid, guild in await self.store.live_tournaments() if owns(guild)]
        for tid in live:
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            for p in tour.pairings:
                if p.game_id is not None and p.status == "pending":
                    self._games[p.game_id] = tid
        self._tasks.start(self._resume(live))
        self._watch.start(self.watch.run(self.bot.wait_until_ready))
        unshown = await self.store.unshown_tournaments(owns)
        if unshown:
            self._tasks.start(self._redraw_unshown(unshown))

    async def cog_unload(self) -> None:
        tables = getattr(self.bot, "tables", None)
        if tables is not None and self._table_ended in tables.end_listeners:
            tables.end_listeners.remove(self._table_ended)
        await self._watch.close()
        await self._tasks.close()  # the store closes after this: no round may still run
        self._redraws.cancel()
        await self._redraws.drain()

    async def _resume(self, live: list[int]) -> None:
        await self.bot.wait_until_ready()
        for tid in live:
            self.schedule(tid)

    def _table_ended(self, table: Any) -> None:
        tid = self._games.pop(table.game_id, None)
        if tid is not None:
            self.schedule(tid)

    def schedule(self, tid: int, delay: float = 0.0) -> None:
        self._tasks.start(self._advance_after(tid, delay))

    def lock(self, tid: int) -> asyncio.Lock:
        lock = self._locks.get(tid)
        if lock is None:
            lock = self._locks[tid] = asyncio.Lock()
        return lock

    async def currency(self, guild_id: int) -> str:
        return (await self.store.get_settings(guild_id)).currency_name

    # -- the command -----------------------------------------------------------------------------
    @answers(private=False)
    @tournament.command(name="create", description="Open a tournament for sign-up (staff)")
    # Discord takes a group's places only; this one's are for /help, which lists it in servers.
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.describe(**OPTION_WORDS, starts_in="Start by itself then, with two entrants or more")
    @app_commands.choices(**OPTION_CHOICES, starts_in=[
        app_commands.Choice(name=name, value=minutes) for name, minutes in STARTS_IN])
    async def create(self, interaction: discord.Interaction, game: str, format: str, rounds: int,
                     stake: app_commands.Range[int, 0, MAX_STAKE] = 0,
                     preset: str | None = None, starts_in: int | None = None) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, t("Create a tournament in the server channel it is for."))
            return
        if not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF))
            return
        if starts_in is not None and starts_in not in dict(STARTS_IN).values():
            await refuse(interaction, t("Choose when it starts from the list."))
            return
        settings = await self.store.get_settings(interaction.guild_id)
        try:
            rules = planned_rules(game, format, rounds, stake, preset, settings)
        except TableError as exc:
            await refuse(interaction, told(exc))
            return
        try:
            tour = await self.store.create_tournament(
                interaction.guild_id, interaction.channel_id, created_by=interaction.user.id,
                game=game, format=format, rules=rules.to_dict(), fee=stake,
                key=str(interaction.id),
                starts_at=None if starts_in is None else int((self.clock() + starts_in * 60) * 1000))
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        try:
            sent = await send(interaction, embed=embed, view=view, allowed_mentions=NO_PINGS)
        except UNDELIVERED as exc:
            sent = await landed(interaction, exc)
            if sent is None:  # nobody saw it: called off, not left open where none can join
                await self.store.cancel_tournament(tour.tournament_id, tour.guild_id,
                                                   actor=interaction.user.id)
                raise CalledOff() from exc
        message_id = sent or (await interaction.original_response()).id
        await self.store.set_tournament_message(tour.tournament_id, message_id, shown=tour.revision)
        if tour.starts_at is not None:
            self.watch.wake()  # its start may be the soonest

    @answers(private=True)
    @tournament.command(name="weekly",
                        description="Open a tournament here every week that starts by itself (staff)")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.describe(**OPTION_WORDS, day="The day it starts (UTC)",
                           hour="The hour it starts, 0 to 23 (UTC)",
                           signup="How long before its start sign-up opens")
    @app_commands.choices(
        **OPTION_CHOICES,
        day=[app_commands.Choice(name=name, value=n) for n, name in enumerate(WEEKDAYS)],
        signup=[app_commands.Choice(name=name, value=minutes) for name, minutes in SIGNUP_BEFORE])
    async def weekly(self, interaction: discord.Interaction, game: str, format: str, rounds: int,
                     day: int, hour: app_commands.Range[int, 0, 23],
                     stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                     signup: int = 60) -> None:
        if interaction.guild_id is None or not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF) if interaction.guild_id else
                         t("Create a tournament in the server channel it is for."))
            return
        if not (0 <= day <= 6 and 0 <= hour <= 23 and signup in dict(SIGNUP_BEFORE).values()):
            await refuse(interaction, t("Choose the day and the sign-up time from the lists, and "
                                        "an hour from 0 to 23."))
            return
        if not can_post(interaction.app_permissions):
            await refuse(interaction, t("I cannot post the sign-ups in this channel: give me Send "
                                        "Messages and Embed Links here, or use the command in "
                                        "another channel."))
            return
        settings = await self.store.get_settings(interaction.guild_id)
        try:
            planned_rules(game, format, rounds, stake, preset, settings)  # they play today
            plan = await self.store.set_weekly_tournament(Weekly(
                interaction.channel_id, interaction.guild_id, game, format, rounds, stake, preset,
                day, hour, signup))
        except TableError as exc:
            await refuse(interaction, told(exc))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        self.watch.wake()
        start = plan.next_start(int(self.clock() * 1000))
        await send(interaction, t(
            "Every {day} at {hour}:00 UTC a {game} tournament starts here by itself, its sign-up "
            "open from {before} before; the next starts <t:{when}:F>. {stop} stops them.",
            day=weekday_name(day), hour=f"{hour:02d}",
            game=GAME_NAMES.get(game, game), before=signup_text(signup), when=start // 1000,
            stop=mention("tournament weekly-stop", await links_for(interaction))),
            ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @tournament.command(name="weekly-stop",
                        description="Stop this channel's weekly tournament (staff)")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def weekly_stop(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF))
            return
        try:
            stopped = await self.store.stop_weekly_tournament(interaction.guild_id,
                                                              interaction.channel_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, t("This channel has no weekly tournament.") if stopped is None
                   else t("No more weekly {game} tournaments here; one already open goes on.",
                          game=GAME_NAMES.get(stopped.game, stopped.game)),
                   ephemeral=True, allowed_mentions=NO_PINGS)

    @weekly.autocomplete("preset")
    async def weekly_preset_choices(self, interaction: discord.Interaction, current: str
                                    ) -> list[app_commands.Choice[str]]:
        return await self.preset_choices(interaction, current)

    @create.autocomplete("preset")
    async def preset_choices(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        presets = game_module(game).Rules.PRESETS if game in GAMES else ()
        return [app_commands.Choice(name=p, value=p) for p in presets
                if current.lower() in p.lower()][:25]

    @answers(private=True)
    @tournament.command(name="leave",
                        description="Withdraw from a tournament you signed up for, from anywhere")
    @app_commands.describe(tournament="The tournament's number (default: the one you are in)")
    async def leave(self, interaction: discord.Interaction,
                    tournament: app_commands.Range[int, 1, 2**53 - 1] | None = None) -> None:
        scope = scope_of_press(interaction)
        if tournament is None:
            mine = await self.store.signed_up_tournaments(scope)
            if len(mine) != 1:
                await refuse(interaction, t(
                    "You are signed up for several tournaments ({numbers}); choose one with the "
                    "tournament option.", numbers=", ".join(f"#{m[0]}" for m in mine)) if mine
                    else t("You are not signed up for any tournament here.") if interaction.guild_id
                    else t("You are not signed up for any tournament."))
                return
            tournament = mine[0][0]
        await acknowledge(interaction, private=True)
        try:
            tour, gone = await self.withdraw(tournament, interaction.user.id, scope, refresh=True)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, withdrawn_text(tour, gone), ephemeral=True,
                   allowed_mentions=NO_PINGS)

    @leave.autocomplete("tournament")
    async def my_tournaments(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[int]]:
        """The live tournaments the member is in: of this server, or from a DM of every one."""
        choices = []
        for tid, guild_id, game, _ in await self.store.signed_up_tournaments(
                scope_of_press(interaction)):
            guild = self.bot.get_guild(guild_id)
            name = " · ".join([f"#{tid}", GAME_NAMES.get(game, game),
                               *([guild.name] if guild is not None else [])])
            if str(current).strip() in str(tid):
                choices.append(app_commands.Choice(name=name[:100], value=tid))
        return choices[:25]


    # -- staff -----------------------------------------------------------------------------------
    async def drop(self, tour: Tournament, entrant: int, actor: int) -> str:
        """Take an entrant out; a running game of theirs is forfeited. Their name."""
        async with self.lock(tour.tournament_id):
            tour, gone = await self.store.drop_tournament_entrant(
                tour.tournament_id, tour.guild_id, entrant, actor=actor)
            await self._taken_out(tour, gone)
            await self._refresh_message(await self.store.tournament(tour.tournament_id,
                                                                    scope=tour.guild_id))
        self.schedule(tour.tournament_id)
        return gone.name

    async def withdraw(self, tid: int, user_id: int, scope: Scope, *, refresh: bool
                       ) -> tuple[Tournament, Entrant]:
        """The member leaves, wherever they asked (``scope``: their press): refunded before the
        start, out of the pairings with their running game forfeited once it runs. ``refresh``:
        bring the tournament's message up to date (the press was not made on it)."""
        async with self.lock(tid):
            tour, gone = await self.store.withdraw_from_tournament(tid, user_id, scope=scope)
            await self._taken_out(tour, gone)
            if tour.status == "running":
                tour = await self.store.tournament(tid, scope=tour.guild_id)
            if refresh:
                await self._refresh_message(tour)
        if app(self.bot).shard_plan.owns(tour.guild_id):
            self.schedule(tid)  # else its own process advances it (a DM reaches shard 0's)
        return tour, gone

    async def _taken_out(self, tour: Tournament, gone: Entrant) -> None:
        """An entrant left a running tournament: their game of this round is forfeited (or, not
        opened yet, recorded as lost)."""
        for p in tour.round_pairings(tour.round):
            if p.status != "pending" or gone.seed not in (p.a, p.b):
                continue
            table = app(self.bot).tables.tables.get(p.game_id) if p.game_id else None
            if table is not None:
                seat = 0 if p.a == gone.seed else 1
                with contextlib.suppress(TableError):  # ended meanwhile: its result stands
                    await app(self.bot).tables.forfeit(table, seat, "dropped from the tournament")
            elif p.game_id is not None and not app(self.bot).shard_plan.owns(tour.guild_id):
                continue  # another process plays that game out and records its result
            else:
                other = p.b if p.a == gone.seed else p.a
                await self.store.record_tournament_result(tour.tournament_id, p.round,
                                                          p.board, other)

    async def send_leave_note(self, interaction: discord.Interaction, tour: Tournament) -> None:
        """Tell a member who signed up how to withdraw from anywhere: a DM with a Leave button
        (it works after they leave the server too), or privately here when their DMs are closed."""
        guild = interaction.guild.name if interaction.guild is not None else "?"
        fee = (t("Before the start your entry fee of {fee} comes back.", fee=number(tour.fee))
               if tour.fee else "")
        text = " ".join(part for part in (
            t("You are signed up for {game} tournament #{number} on {server}.",
              game=GAME_NAMES.get(tour.game, tour.game), number=tour.tournament_id,
              server=safe_name(guild)),
            # the global command's link: the note goes to the member's DM, outside the server
            t("To withdraw, press Leave here or use {leave}, from anywhere.",
              leave=mention("tournament leave", await app(self.bot).command_ids.of(None))), fee)
            if part)
        view = controls(TournamentButton("leave", tour.tournament_id))
        try:
            await interaction.user.send(text, view=view, allowed_mentions=NO_PINGS)
        except UNDELIVERED:  # DMs closed, or the DM lost on its way: say it here, privately
            await interaction.followup.send(text, view=view, ephemeral=True,
                                            allowed_mentions=NO_PINGS)

    async def cancel(self, tour: Tournament, actor: int) -> None:
        """Call the tournament off: fees refunded, its running games cancelled."""
        async with self.lock(tour.tournament_id):
            tour = await self.store.cancel_tournament(tour.tournament_id, tour.guild_id,
                                                      actor=actor)
            for p in tour.pairings:
                table = app(self.bot).tables.tables.get(p.game_id) if p.game_id else None
                if p.status == "pending" and table is not None:
                    with contextlib.suppress(TableError):  # ended meanwhile
                        await app(self.bot).tables.cancel(table, actor, "tournament cancelled")
            await self._refresh_message(tour)
