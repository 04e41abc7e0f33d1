"""What one run of the bot leaves for the next: the /review requests a stop cut short, and
Discord's rate-limit windows still spent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import guests, reviews, windows
from ..db import Database
from ..errors import InvalidInput
from ..settings import LANGUAGE_CHOICES
from .checks import _id


class CarryOver:
    """The reviews being made and the spent rate-limit windows of
    :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- reviews being made ----------------------------------------------------------------------
    async def note_review(self, guild_id: int, game_id: int, user_id: int, language: str) -> bool:
        """Note a /review request before it is acknowledged; False when the same one (this
        server, game and player) is already being worked on."""
        for value, what in ((guild_id, "The server id"), (game_id, "The game id"),
                            (user_id, "The user id")):
            _id(value, what)
        if language not in LANGUAGE_CHOICES or not language:
            raise InvalidInput("The language must be one of en, ja, ko.")
        return await self._db.transact(lambda conn: reviews.note(
            conn, guild_id, game_id, user_id, language, self._db.now_ms()))

    async def review_done(self, guild_id: int, game_id: int, user_id: int) -> None:
        """The request's answer went out (or it was refused): nothing left to make again."""
        await self._db.transact(lambda conn: reviews.done(conn, guild_id, game_id, user_id))

    async def pending_reviews(self, owns: Callable[[int | None], bool] | None = None
                              ) -> list[reviews.PendingReview]:
        """The requests a stop cut short (of the places ``owns`` says are this process's,
        :func:`bot.store.guests.owned`)."""
        async with self._db.snapshot() as conn:
            return await guests.owned(conn, await reviews.pending(conn), owns)

    # -- Discord's rate-limit windows, across a stop (bot.store.windows) --------------------------
    async def note_rest_windows(self, spent: Mapping[tuple[str, str], int], now_ms: int) -> None:
        """Remember when each spent window ends (``(route, major) -> ms``), for the next start;
        the windows that ended before ``now_ms`` are forgotten."""
        for key, until in spent.items():
            route, major = key if isinstance(key, tuple) and len(key) == 2 else (None, None)
            if not (isinstance(route, str) and 1 <= len(route) <= 200 and isinstance(major, str)
                    and 1 <= len(major) <= 100 and type(until) is int):
                raise InvalidInput("A spent window is a route, its major parameter and an end in ms.")
        await self._db.transact(lambda conn: windows.note(conn, spent, now_ms))

    async def rest_windows(self, now_ms: int) -> dict[tuple[str, str], int]:
        """The spent windows still open at ``now_ms``, with when each ends (ms)."""
        async with self._db.snapshot() as conn:
            return await windows.open_at(conn, now_ms)
