"""The bot: a commands.Bot that opens the store, loads the cogs and resumes running games."""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import logging
import os
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot import i18n, logcontext
from bot.backups import ScheduledBackups
from bot.config import Settings
from bot.departures import Departures
from bot.discord_ui.answer import responded, send_private
from bot.discord_ui.app import ActivityShows
from bot.discord_ui.command_links import CommandIds
from bot.discord_ui.delivery import UNDELIVERED, RestBudget, RouteTurns, SpentWindows
from bot.discord_ui.layout import components_of
from bot.discord_ui.speaking import SpeakingTree, enter
from bot.i18n import t
from bot.i18n.commands import CatalogTranslator
from bot.languages import Languages
from bot.loopwatch import LoopWatch
from bot.metrics import MetricsServer
from bot.shards import shard_of
from bot.store import Store, StoreError
from bot.tables import TableManager
from bot.tables.surface import Surfaces
from bot.workers import WorkerPool

log = logging.getLogger(__name__)

_heap_frozen = False
"""Whether this process's long-lived objects were frozen already (see HanafudaBot.freeze_heap)."""

EXTENSIONS = ("cogs.table_ui", "cogs.play", "cogs.rematch", "cogs.running", "cogs.community",
              "cogs.admin", "cogs.seasons", "cogs.records", "cogs.language", "cogs.tournaments", "cogs.daily",
              "cogs.privacy", "cogs.coach", "cogs.help")


STATUS = "🎴 Hanafuda: /koikoi to play, /help for the rest"
"""The bot's status under its name in the member list: one for every server, so in English."""


def intents() -> discord.Intents:
    """Only what slash commands and buttons need: no privileged intent."""
    return discord.Intents(guilds=True)


class HanafudaBot(commands.AutoShardedBot):
    """Runs the shards of ``settings.shards`` (every shard unless told): the games of their
    guilds are this process's to drive, resume and settle (:mod:`bot.shards`)."""

    def __init__(self, settings: Settings, *, sync_dev_guild: bool = True, sync_only: bool = False,
                 activity: Callable[[HanafudaBot], ActivityShows] | None = None) -> None:
        plan = settings.shards
        # Discord's global REST limit is the bot's: a process of a sharded bot takes its share,
        # and its HTTP client pays a token of it for every request that the limit counts.
        budget = RestBudget.share_of_the_bot(plan.share)
        # The windows this run spends are kept for the next start, which waits them out.
        spent_windows = SpentWindows()
        # Nobody is mentioned unless a message names the users it means to ping (bot.discord_ui.publisher.ping):
        # a display name such as "@everyone" must never reach the whole server.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, activity=discord.CustomActivity(name=STATUS),
                         allowed_mentions=discord.AllowedMentions.none(), tree_cls=SpeakingTree,
                         shard_ids=list(plan.ids) if plan.ids is not None else None,
                         shard_count=plan.count, http_trace=spent_windows.trace(budget.trace()))
        self.spent_windows = spent_windows
        # The ids Discord gave the synced commands, for messages that link to a command.
        self.command_ids = CommandIds(
            lambda guild_id: self.tree.fetch_commands(
                guild=discord.Object(guild_id) if guild_id is not None else None),
            dev_guild_id=settings.dev_guild_id)
        # One request at a time per route and channel: discord.py's count of a bucket goes
        # wrong when requests wait in it, and then a window takes one too many.
        self.route_turns = RouteTurns()
        self.route_turns.keep(self.http)
        budget.pace(self.http)
        self.rest_budget = budget
        self.shard_plan = plan
        logcontext.set_shard_of(self.shard_of)
        self.settings = settings
        self.sync_dev_guild = sync_dev_guild
        self.sync_only = sync_only  # `python -m bot sync`: the command tree only, no store or games
        # The Activity's server is another surface: made where the bot is put together
        # (bot.activity.server.activity_for), called here once the store is open.
        self.make_activity = activity
        self.activity_server: ActivityShows | None = None
        self.store: Store | None = None
        self.languages: Languages | None = None  # who is spoken to in which language (bot.languages)
        self.tables: TableManager | None = None
        self.relay: Any = None  # bot.discord_ui.relay.Relay: presses and languages between processes
        self.render_pool: WorkerPool | None = None
        """Worker processes for images: ``await bot.render_pool.run(render_table, view)``."""
        self.ai_pool: WorkerPool | None = None
        """Worker processes for the searching AI levels, apart so a search never delays an image."""
        self.departures: Departures | None = None  # servers that remove the bot (bot.departures)
        self.backups: ScheduledBackups | None = None  # set when BACKUP_INTERVAL_HOURS is
        self.dynamic_items: list[type[discord.ui.DynamicItem]] = []  # every control's route
        self._background: list[asyncio.Task] = []
        if settings.cjk_font:
            os.environ.setdefault("HANAFUDA_CJK_FONT", str(settings.cjk_font))

    async def setup_hook(self) -> None:
        from bot.discord_ui.controls import play_relayed
        from bot.discord_ui.guest import GuestSurface
        from bot.discord_ui.publisher import TablePublisher
        from bot.discord_ui.relay import Relay

        await self.tree.set_translator(CatalogTranslator())
        if self.sync_only:
            for ext in EXTENSIONS:
                await self.load_extension(ext)
            return
        await self.start_pools()
        self.loopwatch = LoopWatch()  # logs every block of the event loop over 100 ms
        self.loopwatch.start()
        self.store = await Store.open(self.settings.database_url or self.settings.database_path)
        if not self.shard_plan.whole:  # a game another process took up is that one's to write
            self.store.drives = self.shard_plan.owns
        try:  # before any request: the windows a previous run left open are waited out
            self.route_turns.hold(await self.spent_windows.still_open(self.store))
        except StoreError as exc:
            log.warning("cannot read the rate-limit windows the last run left: %s", exc)
        self._background.append(asyncio.create_task(self.spent_windows.keep(self.store),
                                                    name="keep spent windows"))
        self.languages = Languages(self.store)
        await self.languages.load()
        self.publisher = TablePublisher(self, self.rest_budget)
        # Tables where the app is a guest are shown only through interaction tokens, which
        # Discord's global limit does not count: that surface shares no budget to speak of.
        self.guest = GuestSurface(self, self.rest_budget)
        # Every place a table is shown, as one port: channel messages, guest answers, and more.
        self.surfaces = Surfaces(self.publisher, self.guest)
        if self.make_activity is not None:
            self.activity_server = self.make_activity(self)
            self.surfaces.add(self.activity_server.surface)
        self.tables = TableManager(self.store, self.surfaces, ai_pool=self.ai_pool,
                                   owns=self.shard_plan.owns)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        for surface in (self.publisher, self.guest):  # where the games to resume are shown
            await surface.restore()
        resumed = await self.tables.resume_all()
        log.info("%s: resumed %d running game(s)", self.shard_plan.describe(), resumed)
        self.relay = Relay(self, functools.partial(play_relayed, self))
        await self.relay.start()  # presses on this process's games that other processes received
        self.departures = Departures(self.store, self.tables, owns=self.shard_plan.owns,
                                     grace_seconds=self.settings.departed_grace_days * 86400)
        self._background.append(asyncio.create_task(self.departures.run(), name="purge departed"))
        if self.settings.backup_interval_hours and self.shard_plan.owns(None):  # one process backs up
            self.backups = ScheduledBackups(
                self.settings.database_url or str(self.settings.database_path), self.settings.backup_dir,
                keep=self.settings.backup_keep, interval_s=self.settings.backup_interval_hours * 3600)
            self._background.append(asyncio.create_task(self.backups.run(), name="backups"))
        if self.activity_server is not None:  # after the resume: a page that joins finds its table
            await self.activity_server.start()
            log.info("the Activity on http://%s:%d/", self.settings.activity_host,
                     self.activity_server.port)
        if self.settings.metrics_port:
            self.metrics_server = MetricsServer(self, self.settings.metrics_port, self.settings.metrics_host)
            await self.metrics_server.start()
            log.info("metrics on http://%s:%d/metrics", self.settings.metrics_host, self.settings.metrics_port)
        if self.sync_dev_guild and self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_items += [item for item in items if item not in self.dynamic_items]

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().remove_dynamic_items(*items)
        self.dynamic_items = [item for item in self.dynamic_items if item not in items]

    def routes(self, interaction: discord.Interaction) -> bool:
        """Whether discord.py hands this press to one of the bot's controls: a dynamic item's
        template matches its custom id and its message still holds that component (discord.py
        drops a press on a component the message no longer has). Every control of the bot is a
        dynamic item, so nothing else answers a press."""
        data = interaction.data or {}
        custom_id, kind = data.get("custom_id"), data.get("component_type")
        if not isinstance(custom_id, str) or interaction.message is None:
            return False
        if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
                   for item in self.dynamic_items):
            return False
        return any(getattr(component, "custom_id", None) == custom_id and component.type.value == kind
                   for component in components_of(interaction.message))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press no control takes (removed, expired, from an older version, or a form
        the bot never shows), which discord.py leaves unanswered and Discord would show as
        "This interaction failed"."""
        if interaction.type not in (discord.InteractionType.component,
                                    discord.InteractionType.modal_submit):
            return
        if (interaction.type is discord.InteractionType.component and self.routes(interaction)) \
                or responded(interaction):
            return
        enter(interaction)  # the presser's language
        try:
            await send_private(interaction, t(
                "That control is no longer in use; use the newest message, or run the command "
                "again."), allowed_mentions=discord.AllowedMentions.none())
        except UNDELIVERED:  # answered meanwhile, the token expired, or Discord out of reach
            log.info("could not answer a press on an unknown control", exc_info=True)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a guild (0 for direct messages), by the count Discord was told."""
        return 0 if guild_id is None else shard_of(guild_id, self.shard_count or 1)

    async def on_ready(self) -> None:
        self.freeze_heap()
        # discord.py may call this seconds after the connection, once the servers have come in:
        # a stop that came first has closed the store, and the next start checks them instead.
        if self.departures is None or self.is_closed():
            return
        try:  # added back while this process was not running
            marked = set(await self.store.departed_guilds())
            for guild in self.guilds:
                if guild.id in marked:
                    await self.departures.returned(guild.id)
        except StoreError as exc:
            log.warning("cannot check the servers marked departed: %s", exc)
        except Exception:
            if not self.is_closed():
                raise
            log.info("stopping: the servers marked departed are checked at the next start")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its running games are cancelled, stakes refunded, and its data
        purged after the grace period (bot.departures)."""
        if self.departures is not None:
            try:
                await self.departures.left(guild.id)
            except StoreError as exc:
                log.error("leaving server %s: %s", guild.id, exc)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.departures is not None:
            try:
                await self.departures.returned(guild.id)
            except StoreError as exc:
                log.error("joining server %s: %s", guild.id, exc)

    def freeze_heap(self) -> None:
        """Once connected, move what lives as long as the process out of the collector's sight.

        Modules, the command tree, the guild cache, the languages' data and the resumed tables
        are most of the heap.
        Left in the oldest generation, every full collection walks them all, holding the event
        loop for tens of milliseconds at a time under load; frozen, a full pass walks only what
        the running tables allocated since. Done once: what a later reconnect builds stays
        collectable (and a second bot in the same process, as in the tests, freezes nothing more).
        """
        global _heap_frozen
        if _heap_frozen:
            return
        _heap_frozen = True
        i18n.warm()
        gc.collect()
        gc.freeze()
        log.info("heap frozen: %d objects outside the collector's passes", gc.get_freeze_count())

    async def start_pools(self) -> None:
        """Start the image and AI worker processes, each warmed up before it takes a job."""
        from rendering import warm_up

        nice = self.settings.worker_niceness
        self.render_pool = WorkerPool("render", self.settings.render_workers, initializer=warm_up,
                                      niceness=nice)
        # The AI workers import the players once, not at their first decision.
        self.ai_pool = WorkerPool("ai", self.settings.ai_workers, niceness=nice,
                                  initializer=functools.partial(importlib.import_module, "bot.ai"))
        await asyncio.gather(self.render_pool.start(), self.ai_pool.start())

    async def shutdown(self, grace: float = 20.0) -> None:
        """A clean stop (SIGTERM, SIGINT): take no more presses, let the moves being stored
        finish, deliver what the tables still owe Discord, then close the gateway and the
        database. Whatever is left after ``grace`` seconds is left to the next start, which
        brings every table and hand up to date from the store."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        log.info("stopping: no more presses; finishing the moves under way")
        try:
            if self.tables is not None:
                await asyncio.wait_for(self.tables.quiesce(), max(0.1, deadline - loop.time()))
            for surface in (getattr(self, "publisher", None), getattr(self, "guest", None)):
                if surface is not None:
                    await asyncio.wait_for(surface.drain(), max(0.1, deadline - loop.time()))
            if self.backups is not None and self.backups.busy:
                await asyncio.wait_for(self.backups.idle(), max(0.1, deadline - loop.time()))
        except TimeoutError:
            log.warning("stopping: %.0f s passed; the rest is taken up at the next start", grace)
        await self.close()
        log.info("stopped")

    async def close(self) -> None:
        for task in getattr(self, "_background", ()):
            task.cancel()
        if getattr(self, "loopwatch", None) is not None:
            self.loopwatch.stop()
        if getattr(self, "metrics_server", None) is not None:
            await self.metrics_server.close()
            self.metrics_server = None
        if getattr(self, "relay", None) is not None:
            await self.relay.close()
        activity = getattr(self, "activity_server", None)
        if activity is not None:
            await activity.close()
        if self.tables:
            self.tables.close()
        for surface in (getattr(self, "publisher", None), getattr(self, "guest", None)):
            if surface is not None:
                surface.close()
        await super().close()
        for pool in (self.render_pool, self.ai_pool):
            if pool is not None:
                await pool.close()
        if self.languages is not None:
            await self.languages.flush()
        if self.store:
            await self.spent_windows.flush(self.store)
            await self.store.close()
            self.store = None
