"""What members' finished games add up to: a server's leaderboards, a player's stats and
achievements, head to head, trends, names and the game history, and the guest places whose games
make up a player's own record.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import achievements, guests, leaderboards, records, seasons, trends
from ..db import Database
from ..errors import InvalidInput
from ..models import (
    CURRENT_SEASON,
    GameOutcome,
    LeaderboardPage,
    LeaderboardRow,
    Metric,
    Period,
    SeasonChoice,
)
from ..records import HeadToHead, HistoryPage, UserStats
from ..trends import TrendKey, TrendPoint
from .checks import _id, _text

MAX_TREND_KEYS = 25  # players (or a player's games) per trends query: a page, a card


class Records:
    """The leaderboards and records of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- leaderboards ----------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, metric: Metric, *, game: str | None = None,
                          period: Period = "all", season: SeasonChoice = CURRENT_SEASON,
                          offset: int = 0, limit: int = 10) -> LeaderboardPage:
        """One page of this server's board by rating (per game), wins, points or chips, of the
        current season unless another (or ``ALL_SEASONS``) is asked for."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            source = leaderboards.board_source(guild_id, metric, game, period, self._db.now_ms(),
                                               await seasons.resolve(conn, guild_id, season))
            return await leaderboards.leaderboard(conn, source, offset, limit)

    async def user_rank(self, guild_id: int, user_id: int, metric: Metric, *,
                        game: str | None = None, period: Period = "all",
                        season: SeasonChoice = CURRENT_SEASON) -> LeaderboardRow | None:
        """The user's own row on a board (None if they are not on it)."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            source = leaderboards.board_source(guild_id, metric, game, period, self._db.now_ms(),
                                               await seasons.resolve(conn, guild_id, season))
            return await leaderboards.rank_of(conn, source, user_id)

    # -- records (read-only, always scoped to one server) ------------------------------------------
    async def user_stats(self, guild_id: int, user_id: int, *, recent: int = 5,
                         season: SeasonChoice = CURRENT_SEASON) -> UserStats:
        """A player's record on this server: totals, ratings per game, latest results, yaku; of
        the current season unless another (or ``ALL_SEASONS``) is asked for."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if type(recent) is not int or not 0 <= recent <= 50:
            raise InvalidInput("Show 0 to 50 recent results.")
        async with self._db.snapshot() as conn:
            return await records.user_stats(conn, guild_id, user_id, recent,
                                            await seasons.resolve(conn, guild_id, season))

    async def achievements(self, guild_id: int, user_id: int) -> list[achievements.Earned]:
        """A member's achievements on this server (``GUEST_PLACES``: in the places the app is
        a guest in), in their list's order."""
        _id(user_id, "The user id")
        if guild_id != records.GUEST_PLACES:
            _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            return await achievements.of_member(conn, guild_id, user_id)

    async def head_to_head(self, guild_id: int, user_id: int, other_id: int, *,
                           season: SeasonChoice = CURRENT_SEASON) -> HeadToHead:
        """Two players' finished games together on this server (or in this guest place), from
        ``user_id``'s side: of the current season unless another (or ``ALL_SEASONS``) is asked."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        _id(other_id, "The other user's id")
        if user_id == other_id:
            raise InvalidInput("A player has no record against themselves.")
        async with self._db.snapshot() as conn:
            return await records.head_to_head(conn, guild_id, user_id, other_id,
                                              await seasons.resolve(conn, guild_id, season))

    async def note_guest_place(self, scope_id: int, kind: str | None, guild_id: int | None = None) -> None:
        """``scope_id`` is a place where the app is a guest (:mod:`bot.store.guests`) in server
        ``guild_id`` (None: a DM or a group DM): its games count in each player's own record,
        and the processes of a sharded bot know which of them drives its games. Idempotent: each
        guest table's start notes it. ``kind`` None: not known here (a later note gives it)."""
        _id(scope_id, "The place's id")
        if guild_id is not None:
            _id(guild_id, "The server's id")
        if kind is not None and kind not in guests.GUEST_KINDS:
            raise InvalidInput(f"A guest place is one of {', '.join(guests.GUEST_KINDS)}.")
        await self._db.transact(lambda conn: guests.note(conn, scope_id, kind, guild_id, self._db.now_ms()))

    async def guest_record(self, user_id: int, *, recent: int = 5, yaku: bool = True) -> UserStats:
        """A player's own record: their games in every place where the app is a guest, together
        (none of any server's); ``guild_id`` :data:`~bot.store.records.GUEST_PLACES`. Without
        ``yaku``, the totals alone (a line of them)."""
        _id(user_id, "The user id")
        if type(recent) is not int or not 0 <= recent <= 50:
            raise InvalidInput("Show 0 to 50 recent results.")
        async with self._db.snapshot() as conn:
            return await records.guest_record(conn, user_id, recent, yaku=bool(yaku))

    async def recent_results(self, guild_id: int, keys: Sequence[TrendKey], *,
                             limit: int = 12, rated_only: bool = False
                             ) -> dict[TrendKey, list[TrendPoint]]:
        """Each key's latest ``limit`` results on this server, oldest first, in one query (a
        board's trends, a card's rating history); ``rated_only``: the games that were rated."""
        _id(guild_id, "The server id")
        if len(keys) > MAX_TREND_KEYS or not all(isinstance(k, TrendKey) for k in keys):
            raise InvalidInput(f"Ask for the results of 0 to {MAX_TREND_KEYS} players at once.")
        for key in keys:
            _id(key.user_id, "The user id")
        if type(limit) is not int or not 1 <= limit <= trends.TREND_LIMIT:
            raise InvalidInput(f"Read 1 to {trends.TREND_LIMIT} results per player.")
        async with self._db.snapshot() as conn:
            return await trends.recent_results(conn, guild_id, keys, limit, rated_only=rated_only)

    async def latest_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each player had in their latest finished game on this server (none: left
        out), in one query: names for a board's page without asking Discord for each."""
        _id(guild_id, "The server id")
        if len(user_ids) > MAX_TREND_KEYS:
            raise InvalidInput(f"Ask for the names of 0 to {MAX_TREND_KEYS} players at once.")
        for user_id in user_ids:
            _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await trends.latest_names(conn, guild_id, user_ids)

    async def game_history(self, guild_id: int, *, user_id: int | None = None,
                           game: str | None = None, offset: int = 0, limit: int = 10
                           ) -> HistoryPage:
        """One page of this server's games, newest first (optionally one player's or game's)."""
        _id(guild_id, "The server id")
        if user_id is not None:
            _id(user_id, "The user id")
        if game is not None:
            _text(game, "The game name", allow_empty=False)
        if type(offset) is not int or type(limit) is not int or offset < 0 or not 1 <= limit <= 100:
            raise InvalidInput("Pages start at offset 0 and hold 1 to 100 games.")
        async with self._db.snapshot() as conn:
            return await records.game_history(conn, guild_id, user_id, game, offset, limit)

    async def game_outcome(self, game_id: int, *, guild_id: int) -> GameOutcome:
        """The stored results and payouts of a game of this server (:class:`UnknownGame` if it
        belongs to another server)."""
        _id(guild_id, "The server id")
        if type(game_id) is not int:
            raise InvalidInput("The game number must be a whole number.")
        async with self._db.snapshot() as conn:
            return await records.game_outcome(conn, game_id, guild_id)

    async def history_count(self, guild_id: int, user_id: int) -> int:
        """How many lines :meth:`history` has for this user, for paging."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await records.ledger_count(conn, guild_id, user_id)
