"""Servers that remove the bot: their tournaments and running games are cancelled at once with
every entry fee and stake refunded, the server is marked departed, and its data is purged after the grace period unless
the bot is added back first (see :mod:`bot.store.purge`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from bot.store import SYSTEM_ACTOR, GameNotRunning, Store, StoreError
from bot.store.tournaments import TournamentError
from bot.tables import TableError

log = logging.getLogger(__name__)

DEPARTED_REASON = "the bot was removed from the server"
PURGE_INTERVAL_S = 3600.0
"""How often the background task looks for servers whose grace period is over."""


class Departures:
    """What happens when the bot leaves a server and when it comes back; ``owns`` tells which
    servers are this process's (a sharded bot's other processes handle the rest)."""

    def __init__(self, store: Store, tables: Any, *, grace_seconds: float,
                 owns: Callable[[int], bool] = lambda guild_id: True,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tables = tables
        self.grace_seconds = grace_seconds
        self.owns = owns
        self.clock = clock

    async def left(self, guild_id: int) -> int:
        """The bot was removed from ``guild_id``: cancel its running games (stakes refunded) and
        mark it departed. The games cancelled."""
        if not self.owns(guild_id):
            return 0
        for tournament_id, guild in await self.store.live_tournaments():
            if guild == guild_id:  # first, so no game's end opens the next round's tables
                with contextlib.suppress(TournamentError):  # it ended meanwhile
                    await self.store.cancel_tournament(tournament_id, guild_id, actor=SYSTEM_ACTOR)
        cancelled = 0
        for table in [t for t in self.tables.tables.values() if t.guild_id == guild_id]:
            with contextlib.suppress(TableError):  # a game that ended meanwhile stays ended
                await self.tables.cancel(table, SYSTEM_ACTOR, DEPARTED_REASON, show=False)
                cancelled += 1
        for record in await self.store.list_running_games(guild_id):
            if record.game_id in self.tables.tables:  # its table refused: it ended, or will retry
                continue
            try:  # a game no table drives (one that could not be resumed)
                await self.store.cancel_game(record.game_id, reason=DEPARTED_REASON)
                cancelled += 1
            except GameNotRunning:
                pass
        await self.store.mark_departed(guild_id)
        log.info("left server %s: %d running game(s) cancelled, its data purged in %.0f day(s) "
                 "unless the bot is added back", guild_id, cancelled, self.grace_seconds / 86400)
        return cancelled

    async def returned(self, guild_id: int) -> None:
        """The bot is in ``guild_id`` (again): nothing of it is purged."""
        if self.owns(guild_id) and await self.store.clear_departed(guild_id):
            log.info("back in server %s: its data is kept", guild_id)

    async def purge_due(self, now: float | None = None) -> list[int]:
        """Purge every server of this process whose grace period is over at ``now``; the
        servers purged."""
        now = self.clock() if now is None else now
        purged = []
        for guild_id in await self.store.departed_guilds(before=now - self.grace_seconds):
            if not self.owns(guild_id):
                continue
            deleted = await self.store.purge_guild(guild_id)
            purged.append(guild_id)
            log.info("purged server %s after its grace period: %d row(s)", guild_id,
                     sum(deleted.values()))
        return purged

    async def run(self, interval: float = PURGE_INTERVAL_S) -> None:
        """Purge what is due now and every ``interval`` seconds (the bot's background task)."""
        while True:
            try:
                await self.purge_due()
            except StoreError as exc:  # the database is away: try again at the next pass
                log.warning("purging departed servers failed: %s", exc)
            await asyncio.sleep(interval)
