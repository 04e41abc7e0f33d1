"""A server's seasons: starting one by hand or on a schedule, its honours, and the
announcements owed: a schedule's to its channel, and one staff started whose answer Discord
refused.
"""

from __future__ import annotations

from .. import leaderboards, ledger, seasons
from ..db import Database
from ..errors import InvalidInput
from ..models import Honours, Season, SeasonSchedule
from .checks import _actor, _id, _text


class Seasons:
    """The seasons of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- seasons -----------------------------------------------------------------------------------
    async def start_season(self, guild_id: int, name: str, *, actor: int, key: str) -> Season:
        """Start the server's next season (``key``, e.g. the interaction id, makes a retry
        start one season, not two)."""
        _id(guild_id, "The server id")
        _actor(actor)
        name = " ".join(_text(name, "The season's name").split())
        if not 1 <= len(name) <= seasons.NAME_LIMIT:
            raise InvalidInput(code="season_name_length", most=seasons.NAME_LIMIT)
        scoped = ledger.scoped_key(guild_id, "season", key)
        return await self._db.transact(
            lambda conn: seasons.start(conn, guild_id, name, actor, scoped, self._db.now_ms()))

    async def season_honours(self, guild_id: int, season: int) -> Honours:
        """Who stood out in ``season`` (0: the games before the first season), as its end is
        announced: the most wins, the longest run of wins and each game's best rating."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            number = await seasons.resolve(conn, guild_id, season)
            if number is None:
                raise InvalidInput(code="not_a_season", season=season)
            return await leaderboards.honours(conn, guild_id, number, self._db.now_ms())

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, the newest first (none before its first)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await seasons.seasons(conn, guild_id)

    async def set_season_schedule(self, guild_id: int, cadence: str | None,
                                  channel_id: int) -> SeasonSchedule:
        """Start the server's seasons every ``cadence`` ("weekly" or "monthly", None: no more)
        from the next period on, announced in ``channel_id``."""
        _id(guild_id, "The server id")
        _id(channel_id, "The channel id")
        return await self._db.transact(lambda conn: seasons.set_schedule(
            conn, guild_id, cadence, channel_id, self._db.now_ms()))

    async def season_schedule(self, guild_id: int) -> SeasonSchedule | None:
        """The server's schedule of seasons (None: it never had one)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await seasons.schedule(conn, guild_id)

    async def due_season_schedules(self, now_ms: int) -> list[SeasonSchedule]:
        """The schedules whose next season is due at ``now_ms``, of every server."""
        async with self._db.snapshot() as conn:
            return await seasons.due(conn, now_ms)

    async def start_scheduled_season(self, guild_id: int, name: str,
                                     now_ms: int) -> Season | None:
        """Start the season ``guild_id``'s schedule has due at ``now_ms``, owing its channel
        the announcement, in one transaction; None when none is due any more."""
        _id(guild_id, "The server id")
        name = " ".join(_text(name, "The season's name").split())[:seasons.NAME_LIMIT]
        return await self._db.transact(
            lambda conn: seasons.start_scheduled(conn, guild_id, name, now_ms))

    async def owed_season_announcements(self) -> list[SeasonSchedule]:
        """The schedules whose latest season is still to be announced, of every server."""
        async with self._db.snapshot() as conn:
            return await seasons.owed(conn)

    async def owe_season_announcement(self, guild_id: int, season: int, channel_id: int) -> bool:
        """Owe ``channel_id`` the announcement of ``season``, started with a command whose
        answer Discord refused; False when a later season has begun since."""
        _id(guild_id, "The server id")
        _id(channel_id, "The channel id")
        return await self._db.transact(lambda conn: seasons.owe(
            conn, guild_id, season, channel_id, self._db.now_ms()))

    async def season_announced(self, guild_id: int, season: int, *, delivered: bool) -> None:
        """``season``'s announcement was posted (``delivered``) or refused for good."""
        _id(guild_id, "The server id")
        await self._db.transact(
            lambda conn: seasons.announced(conn, guild_id, season, delivered))
