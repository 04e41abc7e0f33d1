"""The deal of the day: each server's deal per game, members' entries, shares and records, the
daily post in a channel and the reminders members ask for by DM.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .. import daily, games, reminders
from ..db import Database
from ..errors import InvalidInput
from ..models import DailyPlace
from .checks import _id, _text


class DealOfTheDay:
    """The deal of the day of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- the deal of the day (bot.store.daily) ---------------------------------------------------
    def daily_deal_day(self, days_ago: int = 0) -> str:
        """The UTC day (YYYY-MM-DD) ``days_ago`` days before today, by the store's clock: the one
        clock the days' deals, their entries and their sealing all read."""
        return daily.day_of(self._db.now_ms() - days_ago * daily.DAY_MS)

    async def daily_deal(self, guild_id: int, game: str, day: str, *,
                         rules: Mapping[str, Any] | None = None,
                         dealing: bool = False) -> daily.DailyDeal | None:
        """The server's deal of ``game`` on ``day`` (None: none was drawn). ``rules``: the rules
        today's deal is played by, to draw it if today has none yet (the first look fixes them).
        ``dealing``: with its server seed, for dealing it."""
        _id(guild_id, "The server id")
        _text(game, "The game name", allow_empty=False)
        if rules is None:
            async with self._db.snapshot() as conn:
                return await daily.deal_of(conn, guild_id, game, day, self._db.now_ms(),
                                           dealing=dealing)
        plain = json.loads(games._json(dict(rules), "The rules", InvalidInput))
        return await self._db.transact(lambda conn: daily.deal_of(
            conn, guild_id, game, day, self._db.now_ms(), rules=plain, dealing=dealing))

    async def claim_daily_deal(self, guild_id: int, game: str, day: str,
                               user_id: int) -> daily.DailyEntry:
        """The member's entry of the day's deal (claimed now if new): the same entry, and its
        game once started, however often it is claimed."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: daily.claim(
            conn, guild_id, game, day, user_id, self._db.now_ms()))

    async def share_daily_deal(self, guild_id: int, game_id: int, user_id: int
                               ) -> tuple[DailyPlace | None, bool]:
        """Note that the member shares their result of the day's game ``game_id`` of
        ``guild_id``: its place and whether this is the first share; (None, False) when it is no
        scored entry of theirs there."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: daily.share(conn, guild_id, game_id, user_id,
                                                                self._db.now_ms()))

    async def daily_entries_today(self, guild_id: int, user_id: int
                                  ) -> dict[str, tuple[int | None, str | None]]:
        """The member's entries of today's deals at the place, by game: the margin once scored,
        and the status of its game (None: not started)."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        # one statement, so no read transaction around it: the lobby asks after every game
        return daily.entries_of_day(await self._db.fetchall(
            daily.ENTRIES_OF_DAY, (guild_id, self.daily_deal_day(), user_id)))

    async def unshare_daily_deal(self, game_id: int, user_id: int) -> None:
        """A share that did not reach the channel: the member may share the result again."""
        await self._db.transact(lambda conn: daily.unshare(conn, game_id, user_id))

    async def daily_record(self, guild_id: int, user_id: int) -> daily.DailyRecord:
        """A member's deals of the day on this server: days, places and runs of days."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await daily.record(conn, guild_id, user_id, self.daily_deal_day())

    async def guest_daily_record(self, user_id: int) -> daily.DailyRecord:
        """A member's deals of the day in every place where the app is a guest, together (none
        of any server's): days, places and runs of days."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await daily.guest_record(conn, user_id, self.daily_deal_day())

    async def set_daily_reminder(self, guild_id: int, user_id: int, on: bool, *,
                                 hour: int = reminders.DEFAULT_HOUR) -> reminders.Reminder | None:
        """Remind the member by DM at ``hour`` UTC, from tomorrow on, on days they have not
        played the server's deal of the day by then (``on``); or no more."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if type(hour) is not int or not 0 <= hour <= 23:
            raise InvalidInput("A reminder's hour is 0 to 23 (UTC).")
        return await self._db.transact(lambda conn: reminders.set_reminder(
            conn, guild_id, user_id, bool(on), self._db.now_ms(), hour))

    async def daily_reminder(self, guild_id: int, user_id: int) -> reminders.Reminder | None:
        """The member's reminder on the server (None: they asked for none)."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await reminders.reminder_of(conn, guild_id, user_id)

    async def due_daily_reminders(self) -> list[reminders.Reminder]:
        """The reminders of every server to send now (each from its hour on)."""
        async with self._db.snapshot() as conn:
            return await reminders.due(conn, self._db.now_ms())

    async def daily_reminded(self, guild_id: int, user_id: int, day: str, *,
                             delivered: bool) -> None:
        """``day``'s reminder went out (``delivered``) or was refused for good."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        await self._db.transact(lambda conn: reminders.reminded(conn, guild_id, user_id, day,
                                                                delivered))

    async def stop_daily_reminder(self, key: str, user_id: int) -> bool:
        """The member's Stop on a reminder's DM: whether it was theirs (and is gone)."""
        _text(key, "The reminder's key", allow_empty=False)
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: reminders.stop(conn, key, user_id))

    async def set_daily_post(self, guild_id: int, channel_id: int | None) -> daily.DailyPost | None:
        """Announce the server's new deals in ``channel_id`` every day from tomorrow on (None:
        no more)."""
        _id(guild_id, "The server id")
        if channel_id is not None:
            _id(channel_id, "The channel id")
        return await self._db.transact(lambda conn: daily.set_post(conn, guild_id, channel_id,
                                                                   self._db.now_ms()))

    async def daily_post(self, guild_id: int) -> daily.DailyPost | None:
        """Where the server's new deals are announced (None: nowhere)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await daily.post_of(conn, guild_id)

    async def due_daily_posts(self) -> list[daily.DailyPost]:
        """The servers whose post of today is still to be made, of every server."""
        async with self._db.snapshot() as conn:
            return await daily.due_posts(conn, self._db.now_ms())

    async def daily_posted(self, guild_id: int, day: str, *, delivered: bool) -> None:
        """``day``'s post of the server went out (``delivered``) or was refused for good."""
        _id(guild_id, "The server id")
        await self._db.transact(lambda conn: daily.posted(conn, guild_id, day, delivered))

    async def daily_podiums(self, guild_id: int, day: str) -> list[daily.Board]:
        """Each game's board of ``day`` that someone finished, its three first."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await daily.podiums(conn, guild_id, day, self._db.now_ms())

    async def daily_deal_board(self, guild_id: int, game: str, day: str) -> daily.Board | None:
        """The server's board of ``game``'s deal on ``day`` (None: that day had no deal)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await daily.board(conn, guild_id, game, day, self._db.now_ms())
