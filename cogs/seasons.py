"""``/season start`` (staff) and ``/season list``: a server's seasons.

A new season starts the boards and the ratings afresh (see :mod:`bot.store.seasons`); the past
ones stay on ``/leaderboard`` and ``/stats`` through their ``season`` option. Starting is staff
work (Manage Server, checked when the command runs, since ``list`` in the same group is for
everyone) and is announced in the channel; a retried command starts one season, not two.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answers, send
from bot.discord_ui.cog import ServerCog, server_only, staff_only
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import sentence
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import in_public
from bot.discord_ui.text import NO_PINGS, Text, fit_embed, refuse, season_label
from bot.i18n import N_, t, tn
from bot.store import StoreError
from bot.store.models import Honours, former_member, is_pseudonym
from bot.store.seasons import NAME_LIMIT
from bot.words import plural, rating
from rendering.view import GAME_NAMES

SHOWN = 20  # seasons listed, the newest first


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


class SeasonCog(ServerCog):
    """The seasons of a server's leaderboards and ratings."""

    season = server_only(app_commands.Group(name="season", description="This server's seasons",
                                            guild_only=True))

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
        await send(interaction, embed=fit_embed(embed), allowed_mentions=NO_PINGS)

    @answers(private=True)
    @season.command(name="list", description="This server's seasons, the newest first")
    async def list_seasons(self, interaction: discord.Interaction) -> None:
        try:
            seasons = await self.store.seasons(interaction.guild_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        if not seasons:
            await refuse(interaction, t("This server has not started a season yet: its boards "
                                        "cover every game. Staff start one with {start}.",
                                        start=mention("season start", await links_for(interaction))))
            return
        lines = []
        for s in seasons[:SHOWN]:
            line = t("**{season}** · since <t:{when}:D> · started by {who}",
                     season=season_label(s.season, seasons), when=int(s.started_at.timestamp()),
                     who=former_member() if is_pseudonym(s.started_by) else f"<@{s.started_by}>")
            lines.append(f"➤ {line}" if s is seasons[0] else line)
        lines.append(t("Before the first season: the games until <t:{when}:D>",
                       when=int(seasons[-1].started_at.timestamp())))
        embed = discord.Embed(title=t("🌸 Seasons"), colour=ACCENT, description="\n".join(lines))
        await send(interaction, embed=fit_embed(embed), ephemeral=True,
                   allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonCog(bot))
