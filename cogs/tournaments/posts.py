"""What the bot posts in a tournament's channel: the tournament's message brought up to date, and
the standings after each round."""

from __future__ import annotations

import io
import logging

import discord

from bot.discord_ui.app import app
from bot.discord_ui.background import through_outages
from bot.discord_ui.delivery import UNDELIVERED, passing
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import in_server
from bot.discord_ui.text import NO_PINGS, fit_embed
from bot.store import EVERY_SERVER, StoreError
from bot.store.tournaments import Tournament
from rendering.tournament import render_standings

from .messages import build_view, standings_lines, standings_nonce, tournament_embed
from .presses import tournament_view

log = logging.getLogger(__package__)  # the extension's lines all log as "cogs.tournaments"


class Posts:
    """Mixin of :class:`.cog.TournamentCog`: its message kept up to date and the standings
    posted (its bot, store, locks, tasks and redraw queue are the cog's)."""

    async def _refresh_message(self, tour: Tournament) -> None:
        """Bring the tournament's message to ``tour`` as the bot; a passing failure is drawn
        again later (:meth:`redraw`)."""
        try:
            await self._show(tour)
        except UNDELIVERED as exc:
            log.info("tournament %s: its message could not be updated", tour.tournament_id,
                     exc_info=True)
            if passing(exc):
                self.redraw(tour.tournament_id)

    def redraw(self, tid: int) -> None:
        """Draw the tournament's message from the store as the bot, beside what runs now: one
        draw at a time per tournament, a change meanwhile drawn once more after it, and a
        passing failure tried again after the deliveries' delays (the lock free meanwhile)
        until it goes through."""
        self._redraws.mark(tid, lambda: self._redraw_once(tid))

    async def _redraw_once(self, tid: int) -> None:
        async with self.lock(tid):
            await self._show(await self.store.tournament(tid, scope=EVERY_SERVER))

    async def _show(self, tour: Tournament) -> None:
        """One edit of the tournament's message to ``tour``, noted shown once it went out (or
        once the message is gone: nothing is left to bring up to date)."""
        if tour.message_id is None:
            return
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            await channel.get_partial_message(tour.message_id).edit(
                embed=embed, view=view, allowed_mentions=NO_PINGS)
        except (discord.NotFound, discord.Forbidden):
            log.info("tournament %s: its message is gone", tour.tournament_id)
        await self.shown(tour)

    async def shown(self, tour: Tournament) -> None:
        """Note that the tournament's message shows ``tour``. Should the store have moved on
        meanwhile (a press's change drawn before this edit landed), the message is drawn again."""
        try:
            latest = await self.store.tournament_shown(tour.tournament_id, tour.revision)
        except StoreError:  # the next start draws it
            log.info("tournament %s: could not note its message shown", tour.tournament_id,
                     exc_info=True)
            return
        if latest > tour.revision:
            self.redraw(tour.tournament_id)

    async def _redraw_unshown(self, tids: list[int]) -> None:
        """At start: draw again each message a stop left behind its tournament."""
        await self.bot.wait_until_ready()
        for tid in tids:
            self.redraw(tid)

    def redraw_behind(self) -> None:
        """Draw again, beside what runs now, every message of this process's tournaments that is
        behind its row (a member forgotten: their name goes from the messages that showed it).
        The database away is waited out: left to the next start, a forgotten member's name
        would stay on show meanwhile."""
        self._tasks.start(self._redraw_behind())

    async def _redraw_behind(self) -> None:
        owns = app(self.bot).shard_plan.owns
        try:
            behind = await through_outages(lambda: self.store.unshown_tournaments(owns))
        except StoreError:
            log.warning("could not find the tournament messages to draw again", exc_info=True)
            return
        for tid in behind:
            self.redraw(tid)

    async def _post_standings(self, tour: Tournament, ranking: list[int] | None) -> None:
        """The standings after a round (or the final ones, with the prizes): a picture from the
        render workers, and the same as text for screen readers. They are posted before the
        store notes them; the nonce, which Discord keeps unique for a few minutes, keeps a post
        repeated after a stop in that moment from appearing twice. A post Discord refuses for
        good (the channel gone or closed to the bot) is given up; a failure that may pass is
        raised, and the tournament tries the post again shortly."""
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            view = build_view(tour, ranking)
            lines = standings_lines(tour, view)
            footer = discord.utils.escape_mentions(discord.utils.escape_markdown(view.footer))
            embed = discord.Embed(title=view.title, colour=ACCENT,
                                  description="\n".join(filter(None, [
                                      view.subtitle, *lines, view.legend, footer])))
        png = await app(self.bot).render_pool.run(render_standings, view)
        embed.set_image(url="attachment://standings.png")
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            await channel.send(embed=fit_embed(embed), allowed_mentions=NO_PINGS,
                               file=discord.File(io.BytesIO(png), filename="standings.png"),
                               nonce=standings_nonce(tour))
        except discord.HTTPException as exc:
            if passing(exc):
                raise
            log.warning("tournament %s: the standings cannot be posted in channel %s (%s)",
                        tour.tournament_id, tour.channel_id, exc)
