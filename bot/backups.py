"""Scheduled backups while the bot runs: every so often a timestamped copy of the database goes
into a folder and the oldest beyond the count kept are removed (settings BACKUP_INTERVAL_HOURS,
BACKUP_DIR, BACKUP_KEEP). The copy runs in a thread (SQLite's backup API, or pg_dump), so the
event loop goes on routing clicks meanwhile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.store import StoreError
from bot.store.backup import Backup, backup_database, prune_backups, scheduled_name

log = logging.getLogger(__name__)


class ScheduledBackups:
    def __init__(self, target: str, folder: Path, *, keep: int, interval_s: float,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.target = target  # the SQLite file or the postgresql:// URL (with its password)
        self.folder = folder
        self.keep = keep
        self.interval_s = interval_s
        self.clock = clock
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def busy(self) -> bool:
        """Whether a backup is being written now (a clean stop lets it finish)."""
        return not self._idle.is_set()

    async def idle(self) -> None:
        await self._idle.wait()

    async def run_once(self) -> Backup:
        """One backup now (into the folder, created if missing: the setting names it), then the
        oldest beyond ``keep`` removed."""
        self._idle.clear()
        try:
            await asyncio.to_thread(self.folder.mkdir, parents=True, exist_ok=True)
            backup = await backup_database(self.target, self.folder / scheduled_name(self.clock(), self.target))
            removed = await asyncio.to_thread(prune_backups, self.folder, self.keep)
        finally:
            self._idle.set()
        log.info("%s; %d older backup(s) removed", backup.summary(), len(removed))
        return backup

    async def run(self) -> None:
        """A backup every ``interval_s`` seconds, the first one interval after the start."""
        while True:
            await asyncio.sleep(self.interval_s)
            try:
                await self.run_once()
            except (StoreError, OSError) as exc:  # disk full, folder gone: try at the next one
                log.error("scheduled backup failed: %s", exc)
