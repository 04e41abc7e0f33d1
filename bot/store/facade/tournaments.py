"""Tournaments: sign-up, weekly plans, rounds and their games, results, their messages, and
the end or cancelling of one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import ledger, tournaments
from ..db import Database
from ..errors import InvalidInput
from ..scope import Scope, scope_of
from .checks import _actor, _id, _text


class Tournaments:
    """The tournaments of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- tournaments (bot.store.tournaments) -------------------------------------------------------
    async def create_tournament(self, guild_id: int, channel_id: int, *, created_by: int, game: str,
                                format: str, rules: Mapping[str, Any], fee: int, key: str,
                                starts_at: int | None = None) -> tournaments.Tournament:
        """A tournament open for sign-up; ``key`` (the command's interaction id) makes a retried
        command create one tournament. ``starts_at`` (ms since the epoch, in the future): when
        the bot closes sign-up and starts it by itself."""
        _id(guild_id, "The server id")
        _id(channel_id, "The channel id")
        _actor(created_by)  # 0: the bot opened it (a weekly tournament)
        _text(game, "The game name", allow_empty=False)
        if format not in tournaments.MAX_ENTRANTS:
            raise InvalidInput("The format must be swiss, single_elimination or round_robin.")
        if fee:
            ledger.check_amount(fee, stake=True)
        now = self._db.now_ms()
        if starts_at is not None and (type(starts_at) is not int or not now < starts_at < 2**53):
            raise InvalidInput("A tournament starts by itself at a time still to come.")
        return await self._db.transact(lambda conn: tournaments.create(
            conn, guild_id=guild_id, channel_id=channel_id, created_by=created_by, game=game,
            format=format, rules=dict(rules), fee=fee, key=key, now=now, starts_at=starts_at))

    async def set_weekly_tournament(self, plan: tournaments.Weekly) -> tournaments.Weekly:
        """Open a tournament of ``plan`` in its channel every week (replacing the channel's)."""
        _id(plan.guild_id, "The server id")
        _id(plan.channel_id, "The channel id")
        if plan.format not in tournaments.MAX_ENTRANTS:
            raise InvalidInput("The format must be swiss, single_elimination or round_robin.")
        if not (0 <= plan.weekday <= 6 and 0 <= plan.hour <= 23 and 1 <= plan.signup_min <= 10080
                and 1 <= plan.rounds <= 1000):
            raise InvalidInput("A weekly tournament needs a weekday, an hour and a sign-up time.")
        if plan.fee:
            ledger.check_amount(plan.fee, stake=True)
        return await self._db.transact(
            lambda conn: tournaments.set_weekly(conn, plan, self._db.now_ms()))

    async def stop_weekly_tournament(self, guild_id: int, channel_id: int
                                     ) -> tournaments.Weekly | None:
        """Stop the channel's weekly tournament (None: it had none)."""
        return await self._db.transact(
            lambda conn: tournaments.stop_weekly(conn, guild_id, channel_id))

    async def weekly_tournaments(self, guild_id: int | None = None) -> list[tournaments.Weekly]:
        """The weekly tournaments of every server, or of ``guild_id``."""
        async with self._db.snapshot() as conn:
            return await tournaments.weekly(conn, guild_id)

    async def unposted_tournaments(self) -> list[int]:
        """The tournaments the bot opened by itself whose sign-up message is still to post."""
        async with self._db.snapshot() as conn:
            return await tournaments.unposted(conn)

    async def timed_tournaments(self) -> list[tuple[int, int, int]]:
        """(tournament, guild, starts_at) of every tournament open for sign-up that starts by
        itself, the soonest first."""
        async with self._db.snapshot() as conn:
            return await tournaments.timed(conn)

    async def tournament(self, tournament_id: int, *, scope: Scope | int
                         ) -> tournaments.Tournament:
        """A tournament with its entrants and pairings, if ``scope`` may read it (a server id:
        that server's; :data:`EVERY_SERVER` for the bot's own work)."""
        scope = scope_of(scope)
        async with self._db.snapshot() as conn:
            return await tournaments.load(conn, tournament_id, scope)

    async def signed_up_tournaments(self, scope: Scope) -> list[tuple[int, int, str, str]]:
        """(tournament, server, game, status) of the live tournaments the member of ``scope``
        (a press) is signed up for."""
        scope = scope_of(scope)
        if scope.user_id is None:
            raise InvalidInput("Only a member's press has tournaments of its own.")
        async with self._db.snapshot() as conn:
            return await tournaments.signed_up(conn, scope)

    async def live_tournaments(self) -> list[tuple[int, int]]:
        """(tournament, guild) of every tournament signing up or running (to resume them)."""
        async with self._db.snapshot() as conn:
            return await tournaments.live(conn)

    async def tournament_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, board) of the pairing a game plays, or None."""
        async with self._db.snapshot() as conn:
            return await tournaments.of_game(conn, game_id)

    async def game_started_as(self, guild_id: int, key: str) -> int | None:
        """The game that ``tables.start(key=key)`` created, if any."""
        async with self._db.snapshot() as conn:
            return await tournaments.game_started_as(conn, guild_id, key)

    async def tournament_ledger(self, tournament_id: int) -> dict[str, int]:
        async with self._db.snapshot() as conn:
            return await tournaments.ledger_of(conn, tournament_id)

    async def set_tournament_message(self, tournament_id: int, message_id: int, *,
                                     shown: int = 0) -> None:
        """Remember the tournament's message; ``shown``: the revision it was sent with."""
        _id(message_id, "The message id")
        await self._db.transact(lambda conn: tournaments.set_message(
            conn, tournament_id, message_id, self._db.now_ms(), shown))

    async def tournament_shown(self, tournament_id: int, revision: int) -> int:
        """The tournament's message now shows its state at ``revision``; the tournament's
        revision now (newer when it changed while that edit was on its way)."""
        return await self._db.transact(lambda conn: tournaments.mark_shown(conn, tournament_id, revision))

    async def unshown_tournaments(self, owns: Callable[[int], bool] | None = None) -> list[int]:
        """The tournaments whose message a stop left behind what is stored (of the servers
        ``owns`` says are this process's): a start brings each up to date."""
        async with self._db.snapshot() as conn:
            found = await tournaments.unshown(conn)
        return [tid for tid, guild_id in found if owns is None or owns(guild_id)]

    async def join_tournament(self, tournament_id: int, guild_id: int, user_id: int, name: str
                              ) -> tournaments.Tournament:
        """Sign up, paying the entry fee into the pot (a first payment opens the account)."""
        _id(user_id, "The user id")
        name = _text(name, "The name", allow_empty=False)
        return await self._db.transact(lambda conn: tournaments.join(
            conn, tournament_id, guild_id, user_id, name, self._db.now_ms()))

    async def leave_tournament(self, tournament_id: int, guild_id: int, user_id: int
                               ) -> tournaments.Tournament:
        return await self._db.transact(lambda conn: tournaments.leave(
            conn, tournament_id, guild_id, user_id, self._db.now_ms()))

    async def withdraw_from_tournament(self, tournament_id: int, user_id: int, *, scope: Scope
                                       ) -> tuple[tournaments.Tournament, tournaments.Entrant]:
        """The member leaves, from wherever ``scope`` (their press) lets them see it: refunded
        before the start, dropped from the pairings while it runs (see tournaments.withdraw)."""
        _id(user_id, "The user id")
        scope = scope_of(scope)
        return await self._db.transact(lambda conn: tournaments.withdraw(
            conn, tournament_id, scope, user_id, self._db.now_ms()))

    async def add_tournament_ai(self, tournament_id: int, guild_id: int, level: str, name: str
                                ) -> tournaments.Tournament:
        _text(level, "The AI level", allow_empty=False)
        name = _text(name, "The name", allow_empty=False)
        return await self._db.transact(lambda conn: tournaments.add_ai(
            conn, tournament_id, guild_id, level, name, self._db.now_ms()))

    async def start_tournament(self, tournament_id: int, guild_id: int) -> tournaments.Tournament:
        return await self._db.transact(lambda conn: tournaments.start(
            conn, tournament_id, guild_id, self._db.now_ms()))

    async def begin_tournament_round(self, tournament_id: int, round_no: int,
                                     pairs: Sequence[tuple[int, int]], byes: Sequence[int]
                                     ) -> tournaments.Tournament:
        return await self._db.transact(lambda conn: tournaments.begin_round(
            conn, tournament_id, round_no, list(pairs), list(byes), self._db.now_ms()))

    async def link_tournament_game(self, tournament_id: int, round_no: int, board: int,
                                   game_id: int) -> None:
        await self._db.transact(lambda conn: tournaments.link_game(
            conn, tournament_id, round_no, board, game_id))

    async def record_tournament_result(self, tournament_id: int, round_no: int, board: int,
                                       winner: int | None) -> tournaments.Tournament:
        return await self._db.transact(lambda conn: tournaments.record(
            conn, tournament_id, round_no, board, winner, self._db.now_ms()))

    async def mark_tournament_round_announced(self, tournament_id: int, round_no: int) -> bool:
        return await self._db.transact(lambda conn: tournaments.mark_announced(
            conn, tournament_id, round_no))

    async def drop_tournament_entrant(self, tournament_id: int, guild_id: int, entrant: int, *,
                                      actor: int) -> tuple[tournaments.Tournament, tournaments.Entrant]:
        _actor(actor)
        return await self._db.transact(lambda conn: tournaments.drop(
            conn, tournament_id, guild_id, entrant, actor, self._db.now_ms()))

    async def finish_tournament(self, tournament_id: int, ranking: Sequence[int]
                                ) -> tournaments.Tournament:
        return await self._db.transact(lambda conn: tournaments.finish(
            conn, tournament_id, list(ranking), self._db.now_ms()))

    async def cancel_tournament(self, tournament_id: int, guild_id: int, *, actor: int
                                ) -> tournaments.Tournament:
        _actor(actor)
        return await self._db.transact(lambda conn: tournaments.cancel(
            conn, tournament_id, guild_id, actor, self._db.now_ms()))
