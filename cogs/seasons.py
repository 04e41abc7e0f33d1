"""``/season start`` and ``/season schedule`` (staff) and ``/season list``: a server's seasons.

A new season starts the boards and the ratings afresh (see :mod:`bot.store.seasons`); the past
ones stay on ``/leaderboard`` and ``/stats`` through their ``season`` option. Starting is staff
work (Manage Server, checked when the command runs, since ``list`` in the same group is for
everyone) and is announced in the channel; a retried command starts one season, not two. Should
Discord refuse the command's answer, the season has begun all the same: its announcement is then
owed to the channel as a schedule's is, so staff see it and do not start another.

A schedule starts them without staff: this cog's task wakes at each UTC midnight (and when a
schedule changes), starts the seasons due on the servers this process drives and posts each
announcement the store owes, which it keeps owing across restarts until Discord took it.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord
from babel.dates import format_skeleton
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answers, landed, send
from bot.discord_ui.app import app
from bot.discord_ui.background import until_utc
from bot.discord_ui.boards import known_names
from bot.discord_ui.cog import WatchingCog, drawn, server_only, staff_only
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import UNDELIVERED, post_owed, settle_owed
from bot.discord_ui.errors import sentence
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.places import can_post
from bot.discord_ui.speaking import in_public, in_server
from bot.discord_ui.text import NO_PINGS, Text, fit_embed, refuse, schedule_text, season_label
from bot.i18n import N_, current, number, t, tn, tp
from bot.names import Known, board_names
from bot.store import Season, SeasonSchedule, Store, StoreError
from bot.store.models import Honours, former_member, is_pseudonym
from bot.store.seasons import NAME_LIMIT, period_start
from bot.words import capitalized, plural, rating
from rendering import BoardRow, BoardView, render_board
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

SHOWN = 20  # seasons listed, the newest first
HONOURED = 10  # members the picture of a season that ended shows
SEASON_IMAGE = "season.png"
RETRY_SECONDS = 60.0  # an announcement Discord did not take (not a refusal) is tried again after


MEDALS = ("🥇", "🥈", "🥉")


def honour_lines(honours: Honours) -> list[str]:
    """A season's honours as the announcement of the next one lists them: its podium of wins,
    its longest run of wins and each game's best rating (mentions, sent without pings)."""
    lines = [f"{MEDALS[min(row.rank, len(MEDALS)) - 1]} <@{row.user_id}> · {plural(int(row.value), 'win')}"
             for row in honours.wins]  # tied players share their rank's medal
    if honours.streak is not None:
        lines.append(t("Longest run: {player} · {run}", player=f"<@{honours.streak.user_id}>",
                       run=tn("{n} win in a row", "{n} wins in a row", int(honours.streak.value))))
    for game, row in honours.ratings.items():
        lines.append(t("Best {game} rating: {player} · {rating}", game=GAME_NAMES.get(game, game),
                       player=f"<@{row.user_id}>", rating=rating(row.value, row.spread)))
    return lines


def announcement(season: Season, seasons: list[Season], ended: Honours,
                 links: dict[str, int]) -> discord.Embed:
    """The announcement of ``season`` for the whole channel, with the honours of the one that
    ended (in the language spoken where it is built)."""
    embed = discord.Embed(
        title=f"🌸 {season_label(season.season, seasons)}", colour=ACCENT,
        description=t("A new season begins: leaderboards and ratings start afresh from "
                      "now. Past seasons stay on {leaderboard} and {stats} (the season "
                      "option).", leaderboard=mention("leaderboard", links),
                      stats=mention("stats", links)))
    if not ended.empty:
        embed.add_field(name=t("The honours of {season}",
                               season=season_label(ended.season, seasons)),
                        value="\n".join(honour_lines(ended)), inline=False)
    return fit_embed(embed)


async def honours_picture(store: Store, guild_id: int, ended: int, seasons: list[Season],
                          known: Known) -> BoardView | None:
    """The season that ended as its wins board drew it on its last day, the announcement's
    picture: its :data:`HONOURED` first by wins over every game (None: nobody won a game)."""
    page = await store.leaderboard(guild_id, "wins", game=None, period="all", season=ended,
                                   offset=0, limit=HONOURED)
    if not page.rows:
        return None
    names = await board_names(store, guild_id, [row.user_id for row in page.rows], known)
    rows = tuple(BoardRow(rank=row.rank, name=names[row.user_id], value=plural(int(row.value), "win"),
                          games=number(row.games) if row.games else "")
                 for row in page.rows)
    return BoardView(title=t("The honours of {season}",
                             season=season_label(ended, seasons, plain=True) or ""),
                     subtitle=t("The most wins, over every game"),
                     value_header=capitalized(tp("order", "wins")), rows=rows, language=current())


def scheduled_name(cadence: str, begun_ms: int) -> str:
    """The name of the season a schedule starts for the period beginning at ``begun_ms``
    ("December 2026", "Week of Nov 30, 2026"), in the language spoken."""
    day = datetime.fromtimestamp(begun_ms / 1000, tz=UTC).date()
    if cadence == "monthly":
        return format_skeleton("yMMMM", day, locale=current())
    return t("Week of {day}", day=format_skeleton("yMMMd", day, locale=current()))


def started_by(actor: int) -> str:
    """Who started a season, as ``/season list`` names them."""
    if actor == 0:
        return t("the schedule")
    return former_member() if is_pseudonym(actor) else f"<@{actor}>"


class SeasonCog(WatchingCog):
    """The seasons of a server's leaderboards and ratings."""

    season = server_only(app_commands.Group(name="season", description="This server's seasons",
                                            guild_only=True))

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot, self.run_schedules, RETRY_SECONDS, "the season schedules")

    async def run_schedules(self) -> float:
        """Start the seasons due on this process's servers and post the announcements owed;
        the seconds until the next look (the next UTC midnight, sooner to retry a post)."""
        now = int(self.clock() * 1000)
        owns = app(self.bot).shard_plan.owns

        def ours(guild_id: int) -> bool:  # a server this process drives, with the bot in it
            return owns(guild_id) and self.bot.get_guild(guild_id) is not None

        for plan in await self.store.due_season_schedules(now):
            if not ours(plan.guild_id):
                continue
            settings = await self.store.get_settings(plan.guild_id)
            with in_server(self.bot, plan.guild_id, settings):
                name = scheduled_name(plan.cadence, period_start(plan.cadence, now))
            await self.store.start_scheduled_season(plan.guild_id, name, now)
        wait = until_utc(now / 1000)  # both cadences turn at a UTC midnight
        for plan in await self.store.owed_season_announcements():  # a schedule's or staff's
            if ours(plan.guild_id) and not await self._announce(plan):
                wait = min(wait, RETRY_SECONDS)
        return wait

    async def _announce(self, plan: SeasonSchedule) -> bool:
        """Post the announcement ``plan`` owes; False when Discord should be asked again. The
        nonce, which Discord keeps unique for a few minutes, keeps a post repeated after a stop
        between sending and noting it from appearing twice."""
        guild, number = plan.guild_id, plan.owed
        seasons = await self.store.seasons(guild)
        season = next(s for s in seasons if s.season == number)
        ended = await self.store.season_honours(guild, number - 1)
        if ended.empty and plan.owed_in is None:  # nobody played: nothing to tell the channel
            await self.store.season_announced(guild, number, delivered=True)
            return True
        settings = await self.store.get_settings(guild)
        links = await self.bot.command_ids.of(guild)
        with in_server(self.bot, guild, settings):
            embed = announcement(season, seasons, ended, links)
            picture = await honours_picture(self.store, guild, ended.season, seasons, lambda _: None)
        files = [] if picture is None else await drawn(self.bot, render_board, picture, embed,
                                                       SEASON_IMAGE)
        channel = self.bot.get_partial_messageable(plan.owed_channel, guild_id=guild)
        return await settle_owed(
            post_owed(channel, f"the announcement of season {number} of server {guild}",
                      embed=embed, files=files, allowed_mentions=NO_PINGS,
                      nonce=f"hfs{guild:x}.{number}"),
            lambda sent: self.store.season_announced(guild, number, delivered=sent is not None))

    @answers(private=False)
    @season.command(name="start",
                    description="Start a new season: boards and ratings begin afresh (staff)")
    @app_commands.describe(name="The new season's name")
    async def start(self, interaction: discord.Interaction,
                    name: app_commands.Transform[str, Text(NAME_LIMIT, N_("The season's name"))]
                    ) -> None:
        if not await staff_only(interaction):
            return
        try:
            season = await self.store.start_season(interaction.guild_id, name,
                                                   actor=interaction.user.id,
                                                   key=str(interaction.id))
            seasons = await self.store.seasons(interaction.guild_id)
            ended = await self.store.season_honours(interaction.guild_id, season.season - 1)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        links = await links_for(interaction)
        with in_public(interaction):  # an announcement for the whole channel
            embed = announcement(season, seasons, ended, links)
            picture = None if ended.empty else await honours_picture(
                self.store, interaction.guild_id, ended.season, seasons, known_names(interaction))
        files = [] if picture is None else await drawn(self.bot, render_board, picture, embed,
                                                       SEASON_IMAGE)
        try:
            await send(interaction, embed=embed, files=files, allowed_mentions=NO_PINGS)
        except UNDELIVERED as exc:  # begun, unseen: announced as a schedule's season is
            if await landed(interaction, exc) is not None:
                return
            log.warning("the answer starting season %s of server %s was refused (%s); it is owed "
                        "to the channel", season.season, interaction.guild_id, exc)
            if await self.store.owe_season_announcement(interaction.guild_id, season.season,
                                                        interaction.channel_id):
                self.watch.wake()

    @answers(private=True)
    @season.command(name="schedule",
                    description="Start a new season every week or month by itself (staff)")
    @app_commands.describe(every="How often; announced in this channel")
    @app_commands.choices(every=[
        app_commands.Choice(name="Every month (the 1st, 00:00 UTC)", value="monthly"),
        app_commands.Choice(name="Every week (Monday, 00:00 UTC)", value="weekly"),
        app_commands.Choice(name="Off: staff start seasons", value="off"),
    ])
    async def schedule(self, interaction: discord.Interaction, every: str) -> None:
        if not await staff_only(interaction):
            return
        cadence = None if every == "off" else every
        if cadence is not None and not can_post(interaction.app_permissions):
            await refuse(interaction, t("I cannot post the announcements in this channel: give "
                                        "me Send Messages and Embed Links here, or use the "
                                        "command in another channel."))
            return
        try:
            plan = await self.store.set_season_schedule(interaction.guild_id, cadence,
                                                        interaction.channel_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        self.watch.wake()
        text = schedule_text(plan, int(self.clock() * 1000)) or t(
            "Seasons no longer start by themselves: staff start them with {start}.",
            start=mention("season start", await links_for(interaction)))
        await send(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @season.command(name="list", description="This server's seasons, the newest first")
    async def list_seasons(self, interaction: discord.Interaction) -> None:
        try:
            seasons = await self.store.seasons(interaction.guild_id)
            plan = await self.store.season_schedule(interaction.guild_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        scheduled = schedule_text(plan, int(self.clock() * 1000))
        if not seasons:
            links = await links_for(interaction)
            await refuse(interaction, t(
                "This server has not started a season yet. 🗓️ {schedule}", schedule=scheduled)
                if scheduled else t(
                "This server has not started a season yet: its boards cover every game. Staff "
                "start one with {start}, or every month with {schedule}.",
                start=mention("season start", links), schedule=mention("season schedule", links)))
            return
        lines = []
        for s in seasons[:SHOWN]:
            line = t("**{season}** · since <t:{when}:D> · started by {who}",
                     season=season_label(s.season, seasons), when=int(s.started_at.timestamp()),
                     who=started_by(s.started_by))
            lines.append(f"➤ {line}" if s is seasons[0] else line)
        lines.append(t("Before the first season: the games until <t:{when}:D>",
                       when=int(seasons[-1].started_at.timestamp())))
        if scheduled:
            lines += ["", f"🗓️ {scheduled}"]
        if plan is not None and plan.undelivered is not None:
            lines.append(t("⚠️ The announcement of {season} could not be posted in {channel}: "
                           "the bot may not send messages there.",
                           season=season_label(plan.undelivered, seasons),
                           channel=f"<#{plan.channel_id}>"))
        embed = discord.Embed(title=t("🌸 Seasons"), colour=ACCENT, description="\n".join(lines))
        await send(interaction, embed=fit_embed(embed), ephemeral=True,
                   allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonCog(bot))
