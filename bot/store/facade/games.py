"""Games from start to end: creating, recording moves, loading, finishing and cancelling them,
a surface's notes about them, and the servers the bot left, whose data is purged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.fairness import FairDeal, commitment_of

from .. import games, guests, purge, relay, surfaces
from ..db import Database
from ..errors import InvalidGame, InvalidInput, refuse_nul
from ..games import validate_new_game
from ..models import SYSTEM_ACTOR, GameEvent, GameOutcome, GameRecord, Seat, SeatResult
from ..scope import Scope, scope_of
from ..settings import GuildSettings
from ..surfaces import SurfaceNotes
from .checks import _actor, _id, _text


class Games:
    """The games of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database
    _settings: dict[int, GuildSettings]
    _settings_writes: int
    origin: str
    dialect: str
    # The games whose moves and end this process may write, by their shard key: a process of a
    # sharded bot sets its shards' (bot.discord_ui.client); None, every game. A write to a game
    # another process drives now is refused (:class:`~bot.store.errors.NotDriven`).
    drives: games.Drives = None

    # -- games -----------------------------------------------------------------------------------
    async def create_game(
        self, guild_id: int, channel_id: int, game: str, *, rules: Mapping[str, Any],
        players: Sequence[Seat], seed: int | str, state_json: str, state_version: int,
        stake: int = 0, message_id: int | None = None, key: str | None = None,
        actor: int = SYSTEM_ACTOR, moves: Sequence[games.ChipMove] = (),
        deal: FairDeal | None = None, replays: int | None = None,
    ) -> GameRecord:
        """Create a running game and escrow ``stake`` from every seat (AI seats: the house), all
        or none. With ``key``, a retried start returns the game the first call created.
        ``moves``: first bets made in the same transaction (only a betting game of the older
        code, which moved its bets one by one, had any; see :func:`bot.settlement.chip_moves`).
        ``deal``: the commitment ``seed`` was derived from (:mod:`bot.fairness`), kept with the
        game; its server seed is given back by :meth:`load_game` only once the game has ended.
        ``replays``: the finished game this one plays again (a rematch), so a series is told."""
        new = validate_new_game(guild_id, channel_id, game, rules, players, seed, state_json,
                                state_version, stake, message_id)
        _actor(actor)
        if replays is not None:
            _id(replays, "The game played again")
        if deal is not None and (deal.server_seed is None or deal.seed != seed
                                 or deal.commitment != commitment_of(deal.server_seed)):
            raise InvalidGame("The seed must be the one its commitment derives.")
        return await self._db.transact(lambda conn: games.create_game(
            conn, new, key=key, actor=actor, now=self._db.now_ms(), moves=list(moves), deal=deal,
            replays=replays),
            one_trip=True)

    def surface_notes(self, surface: str) -> SurfaceNotes:
        """The narrow part of the store a surface is handed (:mod:`bot.store.surfaces`)."""
        return SurfaceNotes(self, surface)

    async def read_surface_notes(self, surface: str, game_ids: list[int] | None
                                 ) -> dict[int, dict[int, dict[str, Any]]]:
        """A surface's notes about ``game_ids`` (None: every game running or not yet shown
        ended), by game and seat."""
        for game_id in game_ids or ():
            _id(game_id, "The game id")
        async with self._db.snapshot() as conn:
            return await surfaces.read(conn, surface, game_ids)

    async def write_surface_notes(self, surface: str, game_id: int,
                                  rows: Mapping[int, Mapping[str, Any]]) -> None:
        """Replace a surface's notes about some seats of a game (seat -1: the table's own)."""
        _id(game_id, "The game id")
        for seat, notes in rows.items():
            if type(seat) is not int or not surfaces.TABLE_ROW <= seat < 64 or not isinstance(notes, Mapping):
                raise InvalidInput("A surface's notes are an object per seat of the game.")
        await self._db.transact(lambda conn: surfaces.write(conn, surface, game_id, rows,
                                                            self._db.now_ms()))

    async def record_action(self, game_id: int, seq: int, actor: int | str, action: str,
                            events: Sequence[Mapping[str, Any]], state_json: str,
                            state_version: int, moves: Sequence[games.ChipMove] = (),
                            relayed_press: int | None = None) -> None:
        """Append action ``seq`` and save the state it produced, in one transaction. ``seq`` must
        be above the last saved one (:class:`DuplicateAction` otherwise): call before showing.
        ``moves``: the chips a move of a betting game of the older code bets into its escrow and
        pays out of it, in the same transaction (a bet the player cannot cover refuses the whole
        move); a game created now bets inside the buy-in it escrowed and passes none.
        ``relayed_press``: the queued press this move plays, removed with it, so that a press is
        played exactly once however the process stops."""
        if type(seq) is not int or not 0 < seq < 2**63:
            raise InvalidInput("The move number must be a positive integer.")
        if not (type(actor) is int or isinstance(actor, str)):
            raise InvalidInput("The actor must be a user id or a label such as 'ai'.")
        _text(action, "The action", allow_empty=False)
        if not isinstance(state_json, str) or type(state_version) is not int:
            raise InvalidInput("The state must be JSON text with an integer version.")
        try:
            events_json = json.dumps(list(events), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"Events must be plain JSON values ({exc}).") from None
        refuse_nul(events_json, "The events")
        refuse_nul(state_json, "The state")
        if isinstance(actor, str):
            refuse_nul(actor, "The actor")
        moves = list(moves)

        async def work(conn):
            await games.record_action(conn, game_id, seq, actor, action, events_json, state_json,
                                      state_version, self._db.now_ms(), moves, self.drives)
            if relayed_press is not None:
                await relay.drop_press(conn, relayed_press)
        await self._db.transact(work, one_trip=True)

    async def load_game(self, game_id: int, *, scope: Scope | int,
                        with_events: bool = True) -> GameRecord:
        """A game with its event log, if ``scope`` may read it (a server id: that server's
        games; :data:`EVERY_SERVER` for the bot's own work); else UnknownGame, as if missing."""
        scope = scope_of(scope)
        async with self._db.snapshot() as conn:
            return await games.load_game(conn, game_id, scope, with_events, self._db.now_ms())

    async def fair_deal(self, game_id: int, *, scope: Scope | int) -> FairDeal | None:
        """How the game's deal was committed, if ``scope`` may read the game (else UnknownGame):
        its server seed only once the game has ended; None for a game dealt before commitments."""
        scope = scope_of(scope)
        async with self._db.snapshot() as conn:
            return await games.scoped_fair_deal(conn, game_id, scope, self._db.now_ms())

    async def game_statuses(self) -> list[tuple[int, str]]:
        """Every game's id and status, in order (for checking a whole database)."""
        rows = await self._db.fetchall("SELECT game_id, status FROM games ORDER BY game_id")
        return [(row[0], row[1]) for row in rows]

    async def list_running_games(self, scope: Scope | int, *,
                                 owns: Callable[[int | None], bool] | None = None) -> list[GameRecord]:
        """The running games ``scope`` may read (a server id: that server's; :data:`EVERY_SERVER`
        to resume them all after a restart), without events; with ``owns``, those whose
        :attr:`~bot.store.models.GameRecord.shard_key` it says is this process's."""
        scope = scope_of(scope)
        async with self._db.snapshot() as conn:
            return _driven(await games.running_games(conn, scope), owns)

    async def unshown_ended_games(self, owns: Callable[[int | None], bool] | None = None
                                  ) -> list[GameRecord]:
        """Ended games whose messages may not show their end yet (the process stopped first),
        without events, of those ``owns`` says this process drives: a start shows their end
        again (:meth:`mark_final_shown` once shown)."""
        async with self._db.snapshot() as conn:
            return _driven(await games.unshown_ended_games(conn), owns)

    async def claim_games(self, scope: int, guild_id: int) -> list[int]:
        """Take for ``guild_id``'s shard the running games of ``scope``, a guest channel of that
        server, that another shard drives (:func:`bot.store.games.claim_games`); their ids. The
        process that drove each is told to let it go, and its writes to it are refused from the
        moment this commits (:attr:`drives`). Only a read when there is nothing to claim."""
        _id(scope, "The place's id")
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            if not await games.unclaimed(conn, scope, guild_id):
                return []

        async def work(conn):
            moved = await games.claim_games(conn, scope, guild_id, self._db.now_ms())
            for game_id in moved:
                await relay.announce(conn, self.dialect, {"kind": "let_go", "game": game_id,
                                                          "from": self.origin})
            return moved
        return await self._db.transact(work)

    async def home_of(self, scope: int) -> int | None:
        """The server whose shard Discord sends the interactions of ``scope``'s games to: the
        server itself, the server of a guest place's channel, None for a DM or a group DM (a
        game started there keeps it as its :attr:`~bot.store.models.GameRecord.shard_key`)."""
        async with self._db.snapshot() as conn:
            return await guests.home_of(conn, scope)

    async def mark_final_shown(self, game_id: int) -> None:
        """The ended game's messages show its end (the final table, hands without controls)."""
        await self._db.transact(lambda conn: games.mark_final_shown(conn, game_id))

    async def unposted_events(self, game_id: int) -> list[GameEvent]:
        """The stored moves of a game whose one-off posts (round summaries) may not have gone
        out yet, oldest first: a start sends them (:meth:`mark_posted` once sent)."""
        async with self._db.snapshot() as conn:
            return await games.unposted_events(conn, game_id)

    async def mark_posted(self, game_id: int, seq: int) -> None:
        """The posts of the game's moves up to ``seq`` went out (never moves the mark back)."""
        if type(seq) is not int or not 0 <= seq < 2**63:
            raise InvalidInput("The move number must be a whole number from 0.")
        await self._db.transact(lambda conn: games.mark_posted(conn, game_id, seq))

    async def ended_outcome(self, game_id: int) -> GameOutcome:
        """How an ended game was settled, as stored (:class:`GameNotRunning` while it runs)."""
        async with self._db.snapshot() as conn:
            return await games.ended_outcome(conn, game_id)

    async def finish_game(
        self, game_id: int, results: Sequence[SeatResult], *,
        chip_deltas: Mapping[int, int] | None = None,
        pot_shares: Mapping[int, int] | Sequence[tuple[int, int]] | None = None,
        state_json: str | None = None, state_version: int | None = None,
        actor: int = SYSTEM_ACTOR, reason: str = "game over",
        escrow_payouts: Mapping[int, int] | None = None,
    ) -> GameOutcome:
        """End a game: results, ratings and the pot's payout in one transaction. Chips follow
        ``chip_deltas`` (seat -> net change, sum 0) or ``pot_shares`` (user -> chips from the pot),
        else the winners split the pot; a betting game's escrow pays ``escrow_payouts`` (seat ->
        chips, every chip it holds). A finished game returns its stored outcome unchanged."""
        _actor(actor)
        _text(reason, "The reason")
        async def work(conn):
            return await games.finish_game(
                conn, game_id, results, chip_deltas=chip_deltas, pot_shares=pot_shares,
                state=_state(state_json, state_version), actor=actor, reason=reason,
                now=self._db.now_ms(), escrow_payouts=escrow_payouts, drives=self.drives,
            )
        return await self._db.transact(work, one_trip=True)

    async def cancel_game(self, game_id: int, *, actor: int = SYSTEM_ACTOR,
                          reason: str = "cancelled", state_json: str | None = None,
                          state_version: int | None = None,
                          escrow_refunds: Mapping[int, int] | None = None) -> GameOutcome:
        """Cancel a running game and refund every stake (a betting game: ``escrow_refunds``,
        what each seat holds at the table); cancelling again changes nothing."""
        _actor(actor)
        _text(reason, "The reason")
        return await self._db.transact(lambda conn: games.cancel_game(conn, game_id, actor=actor, reason=reason,
                                           state=_state(state_json, state_version),
                                           now=self._db.now_ms(), escrow_refunds=escrow_refunds,
                                           drives=self.drives))

    # -- servers that leave -----------------------------------------------------------------
    async def mark_departed(self, guild_id: int) -> None:
        """The bot was removed from ``guild_id`` now: its data is purged after the grace period
        unless the bot is added back first (:meth:`clear_departed`)."""
        _id(guild_id, "The server id")
        await self._db.transact(lambda conn: purge.mark_departed(conn, guild_id, self._db.now_ms()))

    async def clear_departed(self, guild_id: int) -> bool:
        """The bot is in ``guild_id`` again: nothing of it will be purged. Whether it was marked."""
        _id(guild_id, "The server id")
        return await self._db.transact(lambda conn: purge.clear_departed(conn, guild_id))

    async def departed_guilds(self, *, before: float | None = None) -> list[int]:
        """The servers the bot left (before ``before``, Unix seconds, if given), oldest first."""
        cutoff = 2**62 if before is None else int(before * 1000)
        async with self._db.snapshot() as conn:
            return await purge.departed_before(conn, cutoff)

    async def purge_guild(self, guild_id: int) -> dict[str, int]:
        """Delete every row of ``guild_id`` in one transaction (other servers untouched); the
        rows deleted per table."""
        _id(guild_id, "The server id")
        deleted = await self._db.transact(lambda conn: purge.purge_guild(conn, guild_id))
        self._settings_writes += 1
        self._settings.pop(guild_id, None)
        return deleted


def _state(state_json: str | None, state_version: int | None) -> tuple[str, int] | None:
    if state_json is None:
        return None
    if not isinstance(state_json, str) or type(state_version) is not int:
        raise InvalidInput("The state must be JSON text with an integer version.")
    return refuse_nul(state_json, "The state"), state_version


def _driven(records: list[GameRecord], owns: Callable[[int | None], bool] | None) -> list[GameRecord]:
    """Those of ``records`` whose shard ``owns`` says is this process's (all without it)."""
    return records if owns is None else [rec for rec in records if owns(rec.shard_key)]
