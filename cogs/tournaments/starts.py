"""The tournaments that start by themselves: this week's of each weekly one opened, the sign-ups
the bot owes posted, and each timed start made (or called off)."""

from __future__ import annotations

import logging

import discord

from bot.discord_ui.app import app
from bot.discord_ui.delivery import post_owed, settle_owed
from bot.discord_ui.errors import told
from bot.discord_ui.speaking import in_server
from bot.discord_ui.text import NO_PINGS
from bot.store import EVERY_SERVER, SYSTEM_ACTOR
from bot.store.tournaments import Tournament, Weekly
from bot.tables import TableError

from .messages import tournament_embed
from .options import planned_rules
from .presses import tournament_view

log = logging.getLogger(__package__)  # the extension's lines all log as "cogs.tournaments"

HOUR_S = 3600.0  # the longest the timed starts sleep, should the clock jump


class TimedStarts:
    """Mixin of :class:`.cog.TournamentCog`: the timed and weekly starts, which its watch loop
    runs (its bot, store, clock, locks, schedule and cancel are the cog's)."""

    async def start_due(self) -> float:
        """Open this week's tournament of each weekly one whose sign-up time has come, post the
        sign-up messages still owed, and start (or, short of two entrants, call off) every
        tournament whose time has come, on this process's servers; the seconds until the next
        of these (an hour at most)."""
        now = int(self.clock() * 1000)
        owns = app(self.bot).shard_plan.owns

        def ours(guild_id: int) -> bool:  # a server this process drives, with the bot in it
            return owns(guild_id) and self.bot.get_guild(guild_id) is not None

        wait = HOUR_S
        for plan in await self.store.weekly_tournaments():
            if not ours(plan.guild_id):
                continue
            start = plan.due(now)
            if start is None:
                opens = plan.next_start(now) - plan.signup_min * 60_000
                wait = min(wait, (opens - now) / 1000)
            else:
                await self._open_weekly(plan, start)
        for tid in await self.store.unposted_tournaments():
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            if ours(tour.guild_id) and not await self._post_signup(tour):
                wait = min(wait, self.retry_s)
        for tid, guild, starts_at in await self.store.timed_tournaments():
            if not owns(guild):
                continue
            if starts_at > now:
                return min(wait, (starts_at - now) / 1000)
            await self._start_timed(tid)
        return wait

    async def _open_weekly(self, plan: Weekly, start: int) -> None:
        """This week's tournament of ``plan``, starting at ``start``: opened once (its key is the
        channel and the start), by the house rules in force now; its message is posted by the
        same look (:meth:`_post_signup`)."""
        settings = await self.store.get_settings(plan.guild_id)
        with in_server(self.bot, plan.guild_id, settings):
            try:
                rules = planned_rules(plan.game, plan.format, plan.rounds, plan.fee, plan.preset,
                                      settings)
            except TableError as exc:  # the house rules changed to ones it cannot play
                log.warning("weekly tournament of channel %s not opened: %s", plan.channel_id,
                            told(exc))
                return
        await self.store.create_tournament(
            plan.guild_id, plan.channel_id, created_by=SYSTEM_ACTOR, game=plan.game,
            format=plan.format, rules=rules.to_dict(), fee=plan.fee,
            key=f"weekly:{plan.channel_id}:{start}", starts_at=start)

    async def _post_signup(self, tour: Tournament) -> bool:
        """Post the sign-up message of a tournament the bot opened, and note it; False when
        Discord should be asked again. One Discord refuses for good (the channel gone or closed
        to the bot) is called off, fees refunded. The nonce keeps a post repeated after a stop
        between sending and noting it from appearing twice."""
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)

        async def note(sent: discord.Message | None) -> None:
            if sent is None:  # refused for good: called off
                await self.cancel(tour, SYSTEM_ACTOR)
            else:
                await self.store.set_tournament_message(tour.tournament_id, sent.id,
                                                        shown=tour.revision)

        return await settle_owed(
            post_owed(channel, f"the sign-up of tournament {tour.tournament_id}", embed=embed,
                      view=view, allowed_mentions=NO_PINGS, nonce=f"hft{tour.tournament_id}.0"),
            note)

    async def _start_timed(self, tid: int) -> None:
        async with self.lock(tid):
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            if tour.status != "open":
                return
            if len(tour.signed_up) >= 2:
                tour = await self.store.start_tournament(tid, tour.guild_id)
                await self._refresh_message(tour)
        if tour.status == "running":
            self.schedule(tid)
        else:  # nobody to play: called off, the fees refunded
            log.info("tournament %s: fewer than two entrants at its start; called off", tid)
            await self.cancel(tour, SYSTEM_ACTOR)
