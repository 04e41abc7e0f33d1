"""The bot: a commands.Bot that opens the store, loads the cogs and resumes running games."""

from __future__ import annotations

import asyncio
import logging
import os

import discord
from discord.ext import commands

from bot.config import Settings
from bot.store import Store
from bot.tables import TableManager

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table_ui", "cogs.play", "cogs.community", "cogs.admin", "cogs.records")


def intents() -> discord.Intents:
    """Only what slash commands and buttons need: no privileged intent."""
    return discord.Intents(guilds=True)


class HanafudaBot(commands.Bot):
    def __init__(self, settings: Settings, *, sync_dev_guild: bool = True, sync_only: bool = False) -> None:
        # Nobody is mentioned unless a message names the users it means to ping (cogs.publisher.ping):
        # a display name such as "@everyone" must never reach the whole server.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         owner_ids=set(settings.owner_ids) or None, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.sync_dev_guild = sync_dev_guild
        self.sync_only = sync_only  # `python -m bot sync`: the command tree only, no store or games
        self.store: Store | None = None
        self.tables: TableManager | None = None
        if settings.cjk_font:
            os.environ.setdefault("HANAFUDA_CJK_FONT", str(settings.cjk_font))

    async def setup_hook(self) -> None:
        from cogs.publisher import TablePublisher

        if self.sync_only:
            for ext in EXTENSIONS:
                await self.load_extension(ext)
            return
        from rendering import build_sprites

        await asyncio.to_thread(build_sprites)  # the one-time card art build, off the event loop
        self.store = await Store.open(self.settings.database_path)
        self.publisher = TablePublisher(self)
        self.tables = TableManager(self.store, self.publisher)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        resumed = await self.tables.resume_all()
        log.info("resumed %d running game(s)", resumed)
        if self.sync_dev_guild and self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def close(self) -> None:
        if self.tables:
            self.tables.close()
        if getattr(self, "publisher", None) is not None:
            self.publisher.close()
        await super().close()
        if self.store:
            await self.store.close()
            self.store = None
