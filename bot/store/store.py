"""The one store the bot uses: settings, chip ledger, games, results, ratings, leaderboards.

Every method validates its input before touching the database, then runs as one transaction:
writes under the writer lock with ``BEGIN IMMEDIATE``, reads on the read connection (the last
committed state). Failures raise a :class:`~bot.store.errors.StoreError` subclass that carries the
refusal's data (each surface phrases it: :func:`bot.refusal_text.sentence`), and
leave the database unchanged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any

from bot.fairness import FairDeal, Input, commitment_of, new_server_seed

from . import (
    achievements,
    daily,
    games,
    guests,
    leaderboards,
    ledger,
    lobbies,
    privacy,
    purge,
    records,
    relay,
    reminders,
    reviews,
    seasons,
    surfaces,
    tournaments,
    trends,
    windows,
)
from .db import Clock, Database, database_target
from .errors import (
    InvalidGame,
    InvalidInput,
    SelfTransfer,
    StoreUnavailable,
    UnknownAccount,
    refuse_nul,
)
from .games import validate_new_game
from .languages import UserLanguage, load_user_language, load_user_languages, save_user_language
from .lobbies import Lobby
from .models import (
    CURRENT_SEASON,
    SYSTEM_ACTOR,
    AuditReport,
    DailyPlace,
    GameEvent,
    GameOutcome,
    GameRecord,
    Honours,
    LeaderboardPage,
    LeaderboardRow,
    LedgerLine,
    Metric,
    Period,
    Season,
    SeasonChoice,
    SeasonSchedule,
    Seat,
    SeatResult,
    Transfer,
)
from .postgres import PostgresDatabase, is_postgres_url
from .privacy import Forgotten, MemberData
from .records import HeadToHead, HistoryPage, UserStats
from .scope import Scope, scope_of
from .settings import (
    LANGUAGE_CHOICES,
    GuildSettings,
    load_all_settings,
    load_settings,
    save_settings,
    validate,
)
from .surfaces import SurfaceNotes
from .trends import TrendKey, TrendPoint

__all__ = ["Store"]

log = logging.getLogger(__name__)

MAX_TEXT = 500
MAX_TREND_KEYS = 25  # players (or a player's games) per trends query: a page, a card


def _id(value: Any, what: str) -> int:
    """Discord snowflakes: positive 64-bit integers."""
    if type(value) is not int or not 0 < value < 2**63:
        raise InvalidInput(f"{what} must be a Discord id.")
    return value


def _actor(value: Any) -> int:
    if type(value) is not int or not 0 <= value < 2**63:
        raise InvalidInput("The actor must be a Discord id (or 0 for the bot).")
    return value


def _text(value: Any, what: str, allow_empty: bool = True) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or (not allow_empty and not value):
        raise InvalidInput(f"{what} must be a text of at most {MAX_TEXT} characters.")
    return refuse_nul(value, what)


class Store:
    """Open with ``await Store.open(path)`` (or ``async with await Store.open(path)``)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        # Every command reads its server's settings, and only this store writes them (a sharded
        # bot's other processes serve other servers): they are kept once read, so a command can
        # answer without waiting for the database. Only while the database works: a failing one
        # is asked again, and refuses as it should.
        self._settings: dict[int, GuildSettings] = {}
        self._settings_writes = 0  # a read that a write overtook must not keep its older answer
        # Settings writes one at a time, so that the cache takes each one's answer in the order
        # they were committed (two answers can come back in either order).
        self._settings_turn = asyncio.Lock()
        self._all_settings = False  # every stored row is in _settings: a missing one is the defaults
        self.origin = secrets.token_hex(8)  # names this store's announcements (bot.store.relay)

    # -- life cycle ------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, migrations_dir: Path | None = None,
        clock: Clock = time.time, synchronous: str = "NORMAL", busy_timeout_ms: int = 10_000,
    ) -> Store:
        """Open (creating and migrating) the database: a ``postgresql://`` URL, or an SQLite
        file; ``None``: ``$DATABASE_URL`` if set, else :func:`default_db_path`; ``":memory:"``:
        a private temporary SQLite file removed on close."""
        target = database_target(path)
        if is_postgres_url(target):
            db: Database | PostgresDatabase = await PostgresDatabase.open(
                target, migrations_dir=migrations_dir, clock=clock)
        else:
            db = await Database.open(target, migrations_dir=migrations_dir, clock=clock,
                                     synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)
        store = cls(db)
        await store._load_settings()
        return store

    async def _load_settings(self) -> None:
        """Keep every server's settings from the start: a busy server's first commands then
        answer without queueing for the database. A damaged settings table does not stop the
        bot: its commands ask the database, and are refused, as they come."""
        try:
            async with self._db.snapshot() as conn:
                stored = await load_all_settings(conn)
        except StoreUnavailable:
            return
        self._settings = {settings.guild_id: settings for settings in stored}
        self._all_settings = True

    async def close(self) -> None:
        """Close both connections (waits for a running write transaction)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The database: its file, or its URL without the password."""
        return self._db.path

    @property
    def healthy(self) -> bool:
        """Whether the database serves every kind of request now (for the health check)."""
        return self._db.health.ok

    @property
    def dialect(self) -> str:
        """"sqlite" or "postgresql"."""
        return self._db.dialect

    # -- settings --------------------------------------------------------------------------------
    def settings_now(self, guild_id: int) -> GuildSettings | None:
        """The server's settings if already read, without a database call (None: not read yet);
        for what is drawn synchronously, such as a hand's buttons."""
        known = self._settings.get(guild_id)
        if known is None and self._all_settings:
            return GuildSettings(guild_id=guild_id)
        return known

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults until changed)."""
        _id(guild_id, "The server id")
        if self._db.health.ok:
            known = self._settings.get(guild_id)
            if known is not None:
                return known
            if self._all_settings:
                return self._settings.setdefault(guild_id, GuildSettings(guild_id=guild_id))
        writes = self._settings_writes
        async with self._db.snapshot() as conn:
            settings = await load_settings(conn, guild_id)
        if writes == self._settings_writes:
            self._settings[guild_id] = settings
        return settings

    def known_settings(self, guild_id: int) -> GuildSettings | None:
        """The server's settings if known without asking the database (None: ask it with
        :meth:`get_settings`); for work that must not wait, such as choosing a language."""
        if not self._db.health.ok:
            return None
        known = self._settings.get(guild_id)
        if known is None and self._all_settings:
            return GuildSettings(guild_id=guild_id)
        return known

    def _remember_settings(self, settings: GuildSettings) -> None:
        self._settings_writes += 1
        self._settings[settings.guild_id] = settings

    async def update_settings(self, guild_id: int, /, **changes: Any) -> GuildSettings:
        """Change some settings (names as in :class:`GuildSettings`); returns the new settings."""
        _id(guild_id, "The server id")
        async def work(conn):
            new = validate(await load_settings(conn, guild_id), changes)
            await save_settings(conn, new, self._db.now_ms())
            return new
        async with self._settings_turn:
            new = await self._db.transact(work)
            self._remember_settings(new)
        return new

    async def set_house_rules(self, guild_id: int, game: str,
                              rules: Mapping[str, Any] | None) -> GuildSettings:
        """Set (or with ``None`` clear) the house rules of one game on this server."""
        _id(guild_id, "The server id")
        _text(game, "The game name", allow_empty=False)
        async def work(conn):
            current = await load_settings(conn, guild_id)
            house = dict(current.house_rules)
            if rules is None:
                house.pop(game, None)
            else:
                house[game] = rules
            new = validate(current, {"house_rules": house})
            await save_settings(conn, new, self._db.now_ms())
            return new
        async with self._settings_turn:
            new = await self._db.transact(work)
            self._remember_settings(new)
        return new

    # -- languages -------------------------------------------------------------------------------
    async def user_languages(self) -> list[UserLanguage]:
        """Every user's remembered and chosen language (read once when the bot starts)."""
        async with self._db.snapshot() as conn:
            return await load_user_languages(conn)

    async def save_user_language(self, language: UserLanguage) -> None:
        """Remember a user's language (seen in their client, or chosen)."""
        _id(language.user_id, "The user id")
        for value in (language.seen, language.chosen):
            if value not in LANGUAGE_CHOICES:
                raise InvalidInput("The language must be one of en, ja, ko.")
        async def work(conn):
            await save_user_language(conn, language, self._db.now_ms())
            await relay.announce(conn, self.dialect, {"kind": "language", "user": language.user_id,
                                                      "from": self.origin})
        await self._db.transact(work)

    async def user_language(self, user_id: int) -> UserLanguage | None:
        """One user's languages as stored (another process may have changed them)."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await load_user_language(conn, user_id)

    # -- between the processes of a sharded bot (bot.store.relay) --------------------------------
    async def relay_press(self, shard: int, game_id: int, press: Mapping[str, Any]) -> None:
        """Queue a press for the process of ``shard`` and tell it (see :mod:`bot.store.relay`)."""
        if type(shard) is not int or shard < 0:
            raise InvalidInput("The shard must be a shard number.")
        _id(game_id, "The game id")
        async def work(conn):
            await relay.queue_press(conn, shard, game_id, press, self._db.now_ms())
            await relay.announce(conn, self.dialect, {"kind": "press", "shard": shard,
                                                      "from": self.origin})
        await self._db.transact(work)

    async def announce_acknowledged(self, shard: int, interaction_id: int) -> None:
        """Tell the process of ``shard`` that the press ``interaction_id`` it was sent is
        acknowledged, so its token may now answer (Discord refuses a followup before the ack)."""
        await self._db.transact(lambda conn: relay.announce(
            conn, self.dialect, {"kind": "acked", "shard": shard, "interaction": interaction_id,
                                 "from": self.origin}))

    async def register_activity(self, shards: Sequence[int], address: str) -> None:
        """This process serves the Activity of ``shards`` at ``address`` (``host:port``), for the
        other processes to pass their pages of those shards on to (bot.activity.server)."""
        if not shards or any(type(s) is not int or s < 0 for s in shards):
            raise InvalidInput("The shards must be shard numbers.")
        if not isinstance(address, str) or not 3 <= len(address) <= 300:
            raise InvalidInput("The address must be a host and a port.")

        async def work(conn):
            for shard in shards:
                await conn.execute(
                    "INSERT INTO activity_addresses (shard, address, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (shard) DO UPDATE SET address = excluded.address, "
                    "updated_at = excluded.updated_at", (shard, address, self._db.now_ms()))
        await self._db.transact(work)

    async def activity_address(self, shard: int) -> str | None:
        """Where the process of ``shard`` serves the Activity (None: no process said)."""
        row = await self._db.fetchone("SELECT address FROM activity_addresses WHERE shard = ?", (shard,))
        return None if row is None else str(row[0])

    async def queued_relayed_presses(self, shards: Sequence[int]) -> list[dict[str, Any]]:
        """The presses queued for ``shards``, oldest first, each with its ``press_id``; each stays
        queued until its move is recorded (``record_action(..., relayed_press=)``) or it is
        dropped (:meth:`drop_relayed_press`)."""
        async with self._db.snapshot() as conn:
            return await relay.queued_presses(conn, list(shards))

    async def drop_relayed_press(self, press_id: int) -> None:
        """A relayed press that was answered without a move (refused, or too old to answer)."""
        await self._db.transact(lambda conn: relay.drop_press(conn, press_id))

    def listening(self) -> AbstractAsyncContextManager[AsyncIterator[dict[str, Any]]]:
        """The announcements of every process (this one's included), from the moment this is
        entered; PostgreSQL only. Ends when the connection does: enter it again to go on."""
        if not isinstance(self._db, PostgresDatabase):
            raise InvalidInput("Only PostgreSQL carries messages between processes; a bot of "
                               "several processes needs DATABASE_URL.")
        return self._db.listening(relay.CHANNEL)

    # -- chip ledger -----------------------------------------------------------------------------
    async def open_account(self, guild_id: int, user_id: int, *, actor: int | None = None
                           ) -> tuple[int, bool]:
        """Ensure the user's account exists (new ones get the starting chips):
        (balance, created). Safe to call on every interaction."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        actor = _actor(user_id if actor is None else actor)
        return await self._db.transact(lambda conn: ledger.open_account(conn, guild_id, user_id, actor, self._db.now_ms()))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The user's chips on this server; :class:`UnknownAccount` if they have no account."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        row = await self._db.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND kind = 'user' AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            raise UnknownAccount(user_id)
        return row[0]

    async def claim_daily(self, guild_id: int, user_id: int) -> Transfer:
        """The daily chips, once per UTC day (:class:`AlreadyClaimed` after that)."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        return await self._db.transact(
            lambda conn: ledger.claim_daily(conn, guild_id, user_id, self._db.now_ms()), concurrent=True)

    async def transfer(self, guild_id: int, from_user: int, to_user: int, amount: int, *,
                       key: str, reason: str = "", actor: int | None = None,
                       open_accounts: bool = False) -> Transfer:
        """Send chips between two users; ``key`` (e.g. the interaction id) makes retries safe.
        With ``open_accounts``, missing accounts are opened in the same transaction, so a refused
        transfer opens none."""
        _id(guild_id, "The server id")
        _id(from_user, "The sender")
        _id(to_user, "The recipient")
        ledger.check_amount(amount)
        if from_user == to_user:
            raise SelfTransfer()
        _text(reason, "The reason")
        actor = _actor(from_user if actor is None else actor)
        scoped = ledger.scoped_key(guild_id, "transfer", key)
        async def work(conn):
            if open_accounts:
                now = self._db.now_ms()
                await ledger.open_account(conn, guild_id, from_user, from_user, now)
                await ledger.open_account(conn, guild_id, to_user, actor, now)
            return await ledger.user_transfer(
                conn, guild_id=guild_id, key=scoped, from_user=from_user, to_user=to_user,
                amount=amount, actor=actor, reason=reason, now=self._db.now_ms(),
            )
        return await self._db.transact(work, concurrent=True)  # see ledger: row locks suffice

    async def grant(self, guild_id: int, user_id: int, amount: int, *, key: str, actor: int,
                    reason: str, open_account: bool = False) -> Transfer:
        """An admin gives chips from the house (the issuer); with ``open_account``, a member
        without an account gets one (starting chips included) in the same transaction."""
        return await self._admin(guild_id, user_id, amount, key, actor, reason, "grant",
                                 open_account)

    async def revoke(self, guild_id: int, user_id: int, amount: int, *, key: str, actor: int,
                     reason: str) -> Transfer:
        """An admin takes chips back to the house; never below zero (:class:`InsufficientFunds`)."""
        return await self._admin(guild_id, user_id, amount, key, actor, reason, "revoke")

    async def _admin(self, guild_id: int, user_id: int, amount: int, key: str, actor: int,
                     reason: str, kind: str, open_account: bool = False) -> Transfer:
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        ledger.check_amount(amount)
        _actor(actor)
        _text(reason, "The reason")
        now = self._db.now_ms()
        async def work(conn):
            if open_account:
                await ledger.open_account(conn, guild_id, user_id, actor, now)
            user = await ledger.user_account(conn, guild_id, user_id)
            house = await ledger.house_account(conn, guild_id, now)
            src, dst = (house, user) if kind == "grant" else (user, house)
            return await ledger.move(
                conn, guild_id=guild_id, key=ledger.scoped_key(guild_id, kind, key), kind=kind,
                src=src, dst=dst, amount=amount, actor=actor, reason=reason, now=now,
            )
        return await self._db.transact(work, concurrent=True)

    async def history(self, guild_id: int, user_id: int, *, offset: int = 0, limit: int = 20
                      ) -> list[LedgerLine]:
        """The user's ledger lines, newest first, one page."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if type(offset) is not int or type(limit) is not int or offset < 0 or not 1 <= limit <= 100:
            raise InvalidInput("Pages start at offset 0 and hold 1 to 100 lines.")
        async with self._db.snapshot() as conn:
            return await ledger.history(conn, guild_id, user_id, offset, limit)

    async def audit(self) -> AuditReport:
        """Check every ledger invariant over the whole file (for admins, tests and monitoring)."""
        async with self._db.snapshot() as conn:
            return await ledger.audit(conn)

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
                                      state_version, self._db.now_ms(), moves)
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

    async def list_running_games(self, scope: Scope | int) -> list[GameRecord]:
        """The running games ``scope`` may read (a server id: that server's; :data:`EVERY_SERVER`
        to resume them all after a restart), without events."""
        scope = scope_of(scope)
        async with self._db.snapshot() as conn:
            return await games.running_games(conn, scope)

    async def unshown_ended_games(self) -> list[GameRecord]:
        """Ended games whose messages may not show their end yet (the process stopped first),
        without events: a start shows their end again (:meth:`mark_final_shown` once shown)."""
        async with self._db.snapshot() as conn:
            return await games.unshown_ended_games(conn)

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
                now=self._db.now_ms(), escrow_payouts=escrow_payouts,
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
                                           now=self._db.now_ms(), escrow_refunds=escrow_refunds))

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

    async def season_announced(self, guild_id: int, season: int, *, delivered: bool) -> None:
        """``season``'s announcement was posted (``delivered``) or refused for good."""
        _id(guild_id, "The server id")
        await self._db.transact(
            lambda conn: seasons.announced(conn, guild_id, season, delivered))

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

    async def unshare_daily_deal(self, game_id: int, user_id: int) -> None:
        """A share that did not reach the channel: the member may share the result again."""
        await self._db.transact(lambda conn: daily.unshare(conn, game_id, user_id))

    async def daily_record(self, guild_id: int, user_id: int) -> daily.DailyRecord:
        """A member's deals of the day on this server: days, places and runs of days."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await daily.record(conn, guild_id, user_id, self.daily_deal_day())

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

    async def pending_reviews(self, owns: Callable[[int], bool] | None = None
                              ) -> list[reviews.PendingReview]:
        """The requests a stop cut short (of the servers ``owns`` says are this process's)."""
        async with self._db.snapshot() as conn:
            found = await reviews.pending(conn)
        return [r for r in found if owns is None or owns(r.guild_id)]

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

    async def note_guest_place(self, scope_id: int, kind: str) -> None:
        """``scope_id`` is a place where the app is a guest (:mod:`bot.store.guests`): its games
        count in each player's own record. Idempotent: each guest table's start notes it."""
        _id(scope_id, "The place's id")
        if kind not in guests.GUEST_KINDS:
            raise InvalidInput(f"A guest place is one of {', '.join(guests.GUEST_KINDS)}.")
        await self._db.transact(lambda conn: guests.note(conn, scope_id, kind, self._db.now_ms()))

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

    # -- members' data (bot.store.privacy) -------------------------------------------------------
    async def member_data(self, guild_id: int, user_id: int) -> MemberData:
        """What the bot keeps about a member on this server."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.member_data(conn, guild_id, user_id)

    async def export_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """Every row of this server holding the member's id, as a JSON-ready dict."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.export(conn, guild_id, user_id, self._db.now_ms())

    async def forget_member(self, guild_id: int, user_id: int, *, names: Sequence[str] = (),
                            staff: int | None = None, reason: str = "") -> Forgotten | None:
        """Replace the member by a pseudonym on this server (see :mod:`bot.store.privacy`);
        None if nothing here identifies them (so a repeated request changes nothing).
        ``staff``: the manager who did it for them, with ``reason``, both written to the log."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if staff is not None:
            _id(staff, "The staff member")
        _text(reason, "The reason")
        names = [_text(name, "A name") for name in names]
        done = await self._db.transact(lambda conn: privacy.forget(
            conn, guild_id, user_id, names=names, now=self._db.now_ms()))
        if done is not None:  # the member's id is not logged: that is what they asked
            log.info("server %s: a member is forgotten, now %s (%s)", guild_id, done.pseudonym,
                     "at their request" if staff is None
                     else f"by staff {staff}: {reason!r}")
        return done

    async def guest_places_of(self, user_id: int) -> list[int]:
        """The guest places where anything identifies the member (:mod:`bot.store.guests`)."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.guest_places_of(conn, user_id)

    async def guest_member_data(self, user_id: int) -> MemberData:
        """What the bot keeps about the member in every guest place, added up."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.guest_member_data(conn, user_id)

    async def export_guest_member(self, user_id: int) -> dict[str, Any]:
        """Every row of every guest place holding the member's id, as a JSON-ready dict."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.export_guest(conn, user_id, self._db.now_ms())

    async def forget_guest_member(self, user_id: int, *, names: Sequence[str] = ()
                                  ) -> list[Forgotten]:
        """Replace the member by a pseudonym in every guest place, all or none (see
        :mod:`bot.store.privacy`); [] when nothing there identifies them."""
        _id(user_id, "The user id")
        names = [_text(name, "A name") for name in names]
        done = await self._db.transact(lambda conn: privacy.forget_in_guest_places(
            conn, user_id, names=names, now=self._db.now_ms()))
        if done:  # the member's id is not logged: that is what they asked
            log.info("a member is forgotten in %d guest places, now %s", len(done),
                     ", ".join(str(d.pseudonym) for d in done))
        return done

    # -- lobbies and challenges ------------------------------------------------------------------
    async def create_lobby(
        self, kind: str, guild_id: int, channel_id: int, host_id: int, *, game: str,
        min_seats: int, max_seats: int, stake: int = 0, rounds: int | None = None,
        target: int | None = None, preset: str | None = None, teams: str | None = None,
        opponent_id: int | None = None, expires_at: float | None = None,
        options: dict[str, int] | None = None, origin_id: int | None = None,
        replays_game_id: int | None = None,
    ) -> Lobby:
        """A new open lobby (the host seated) or challenge under a fresh random id. ``options``:
        the game's own rules for this table (Seotda's ante...), names to whole numbers;
        ``origin_id``: the interaction whose answer posts its message; ``replays_game_id``: a
        finished game of this server whose players (the host one of them), and only they, take
        the seats to play it again."""
        if kind not in ("lobby", "challenge"):
            raise InvalidInput("A lobby is a 'lobby' or a 'challenge'.")
        for value, what in ((guild_id, "The server id"), (channel_id, "The channel id"),
                            (host_id, "The host")):
            _id(value, what)
        if (kind == "challenge") != (opponent_id is not None):
            raise InvalidInput("A challenge, and only a challenge, names an opponent.")
        if opponent_id is not None and _id(opponent_id, "The opponent") == host_id:
            raise InvalidInput("The host cannot challenge themselves.")
        _text(game, "The game name", allow_empty=False)
        for value, what in ((preset, "The preset"), (teams, "The teams")):
            if value is not None and not (isinstance(value, str) and 0 < len(value) <= 32):
                raise InvalidInput(f"{what} must be a name of at most 32 characters.")
        if stake != 0:
            ledger.check_amount(stake, stake=True)
        for value, what in ((rounds, "The rounds"), (target, "The target")):
            if value is not None and (type(value) is not int or not 0 < value <= 1_000_000):
                raise InvalidInput(f"{what} must be a positive whole number.")
        if type(min_seats) is not int or type(max_seats) is not int or not 1 <= min_seats <= max_seats:
            raise InvalidInput("The seat limits must be whole numbers with 1 <= min <= max.")
        if expires_at is not None and not isinstance(expires_at, int | float):
            raise InvalidInput("The expiry must be a time in seconds.")
        if origin_id is not None:
            _id(origin_id, "The interaction id")
        if replays_game_id is not None:
            _id(replays_game_id, "The game id")
            if kind != "lobby":
                raise InvalidInput("Only a lobby plays a finished game again.")
        options = dict(options or {})
        if len(options) > 8 or not all(isinstance(name, str) and 0 < len(name) <= 32 and type(value) is int
                                       and abs(value) <= 10_000_000 for name, value in options.items()):
            raise InvalidInput("The options must be a few rule names with whole numbers.")
        server_seed = new_server_seed()
        values = {
            "server_seed": server_seed, "commitment": commitment_of(server_seed),
            "lobby_id": lobbies.new_lobby_id(), "kind": kind, "guild_id": guild_id,
            "channel_id": channel_id, "host_id": host_id, "opponent_id": opponent_id, "game": game,
            "stake": stake, "rounds": rounds, "target": target, "preset": preset, "teams": teams,
            "min_seats": min_seats, "max_seats": max_seats, "humans": json.dumps([host_id]),
            "expires_at": None if expires_at is None else int(expires_at * 1000),
            "options": json.dumps(options, sort_keys=True), "origin_id": origin_id,
            "replays_game_id": replays_game_id,
        }
        return await self._db.transact(lambda conn: lobbies.create(conn, values, self._db.now_ms()))

    async def get_lobby(self, lobby_id: str) -> Lobby | None:
        """The stored lobby, or None for an unknown (or malformed, e.g. forged) id."""
        async with self._db.snapshot() as conn:
            return await lobbies.get(conn, lobby_id)

    async def set_lobby_message(self, lobby_id: str, message_id: int, *, shown: int = 0) -> None:
        """Remember the message that shows the lobby (presses on any other message are refused);
        ``shown``: the revision of the lobby it was sent with."""
        _id(message_id, "The message id")
        await self._db.transact(lambda conn: lobbies.set_message(conn, lobby_id, message_id,
                                                                 self._db.now_ms(), shown))

    async def lobby_shown(self, lobby_id: str, revision: int) -> None:
        """The lobby's message now shows its state at ``revision``."""
        await self._db.transact(lambda conn: lobbies.mark_shown(conn, lobby_id, revision))

    async def unshown_lobbies(self, owns: Callable[[int], bool] | None = None) -> list[Lobby]:
        """The lobbies whose message a stop left behind what is stored (of the servers ``owns``
        says are this process's): a start brings each up to date."""
        async with self._db.snapshot() as conn:
            found = await lobbies.unshown(conn)
        return [lobby for lobby in found if owns is None or owns(lobby.guild_id)]

    async def join_lobby(self, lobby_id: str, user_id: int, *, press: int | None = None) -> Lobby:
        """Seat a member (:class:`~bot.store.lobbies.LobbyError` if full, closed, seated...);
        ``press``: the id of their Join interaction, which the game's deal mixes in."""
        _id(user_id, "The user id")
        pressed = None if press is None else str(_id(press, "The interaction id"))
        return await self._db.transact(lambda conn: lobbies.join(conn, lobby_id, user_id, self._db.now_ms(),
                                                                 pressed))

    async def leave_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.leave(conn, lobby_id, user_id, self._db.now_ms()))

    async def add_lobby_ai(self, lobby_id: str, user_id: int, level: str) -> Lobby:
        """The host adds an AI player of ``level``."""
        _id(user_id, "The user id")
        if not isinstance(level, str) or not 0 < len(level) <= 16:
            raise InvalidInput("The AI level must be a short name.")
        return await self._db.transact(lambda conn: lobbies.add_ai(conn, lobby_id, user_id, level, self._db.now_ms()))

    async def begin_lobby_start(self, lobby_id: str, user_id: int) -> Lobby:
        """open -> starting: of any number of presses, exactly one gets the lobby back; the
        others get :class:`~bot.store.lobbies.LobbyAlreadyStarted`."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.begin_start(conn, lobby_id, user_id, self._db.now_ms()))

    async def lobby_deal(self, lobby_id: str, guild_id: int, start: Input) -> FairDeal | None:
        """The deal of a lobby being started in ``guild_id``: its server seed with the seat
        presses noted so far and ``start``, the press that starts it. None for a lobby opened
        before commitments (its game commits at the start instead)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            found = await lobbies.deal_secret(conn, lobby_id, guild_id)
        if found is None:
            return None
        server_seed, presses = found
        return FairDeal.of(server_seed, [*(Input("accept" if start.role == "accept" else "join", p)
                                          for p in presses), start])

    async def finish_lobby_start(self, lobby_id: str, game_id: int) -> Lobby:
        """starting -> started with the game just created."""
        return await self._db.transact(lambda conn: lobbies.finish_start(conn, lobby_id, game_id, self._db.now_ms()))

    async def settle_lobby_start(self, lobby_id: str) -> Lobby | None:
        """After a failed start: ``started`` if the game exists after all, else ``open`` again."""
        return await self._db.transact(lambda conn: lobbies.settle_start(conn, lobby_id, self._db.now_ms()))

    async def close_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        """The host cancels the lobby, or the challenged member declines the challenge."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.close(conn, lobby_id, user_id, self._db.now_ms()))

    async def expire_lobby(self, lobby_id: str) -> Lobby | None:
        """Mark an open lobby past its expiry as expired; None if it was not (or not open)."""
        return await self._db.transact(lambda conn: lobbies.expire(conn, lobby_id, self._db.now_ms()))

    async def recover_lobbies(self, owns: Callable[[int], bool] | None = None) -> list[Lobby]:
        """At start-up: settle every lobby a crash left ``starting`` (only in the guilds ``owns``
        says are this process's: another process may be starting its own right now)."""
        return await self._db.transact(lambda conn: lobbies.recover(conn, self._db.now_ms(), owns))

    async def open_activity_lobbies(self) -> list[Lobby]:
        """Every open lobby opened from an Activity's page (one with no message), oldest first:
        a restart shows their seats again."""
        async with self._db.snapshot() as conn:
            return await lobbies.open_activity_lobbies(conn)

    async def open_challenges(self) -> list[Lobby]:
        """Every open challenge and rematch, soonest expiry first."""
        async with self._db.snapshot() as conn:
            return await lobbies.open_challenges(conn)

    async def request_rematch(self, source_game_id: int, user_id: int, *, game: str, stake: int,
                              seats: int, ais: Sequence[str], channel_id: int,
                              rounds: int | None = None, target: int | None = None,
                              preset: str | None = None, teams: str | None = None,
                              expires_at: float, answering: str | None = None,
                              press: int | None = None) -> tuple[Lobby, str]:
        """A player of the finished game asks for its rematch or confirms it (see
        :func:`bot.store.lobbies.request_rematch`); ``"start"`` for the one press that starts it."""
        _id(source_game_id, "The game id")
        _id(user_id, "The user id")
        _id(channel_id, "The channel id")
        _text(game, "The game name", allow_empty=False)
        if stake != 0:
            ledger.check_amount(stake, stake=True)
        if type(seats) is not int or not 1 <= seats <= games.MAX_SEATS:
            raise InvalidInput("The seat count must be a whole number of seats.")
        if not isinstance(expires_at, int | float):
            raise InvalidInput("The expiry must be a time in seconds.")
        pressed = None if press is None else str(_id(press, "The interaction id"))
        server_seed = new_server_seed()  # used only if this request opens the rematch
        values = {"game": game, "stake": stake, "seats": seats, "ais": json.dumps(list(ais)),
                  "channel_id": channel_id, "rounds": rounds or None, "target": target or None,
                  "preset": preset, "teams": teams, "expires_at": int(expires_at * 1000),
                  "server_seed": server_seed, "commitment": commitment_of(server_seed)}
        return await self._db.transact(lambda conn: lobbies.request_rematch(conn, source_game_id, user_id, values,
                                                 self._db.now_ms(), answering, pressed))

    async def live_rematch(self, source_game_id: int) -> Lobby | None:
        """The open, starting or started rematch of a finished game, if any."""
        async with self._db.snapshot() as conn:
            return await lobbies.live_rematch(conn, source_game_id)

    async def decline_rematch(self, lobby_id: str, user_id: int) -> Lobby:
        """A player of the finished game declines its open rematch."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.decline_rematch(conn, lobby_id, user_id, self._db.now_ms()))

def _state(state_json: str | None, state_version: int | None) -> tuple[str, int] | None:
    if state_json is None:
        return None
    if not isinstance(state_json, str) or type(state_version) is not int:
        raise InvalidInput("The state must be JSON text with an integer version.")
    return refuse_nul(state_json, "The state"), state_version
