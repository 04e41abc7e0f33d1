"""The table service: one lock per game, turn timers, AI seats, and every action stored before shown.

The data flow of one press (docs/design.md, "One press"): :meth:`TableManager.press` (lock, check
the player, the turn and the move number, engine apply) -> store (event and state in one
transaction) -> the surfaces are told what changed and return at once -> the press is
acknowledged, its move stored; the surfaces draw in worker processes and send later, latest state
first. A restart rebuilds every running table from the store (:meth:`TableManager.resume_all`)
and brings every message to the stored state; the controls carry stable custom ids, so they work
again at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from bot import logcontext, metrics, presenter
from bot.ai import make_player
from bot.ai.shedding import slap_delay
from bot.fairness import FairDeal
from bot.games import game_module
from bot.games.base import Action, GameError
from bot.games.rng import Rng
from bot.i18n import N_, number, t
from bot.presenters.base import STUCK
from bot.presenters.problems import rules_problem
from bot.settlement import chip_deltas, is_per_point, outcomes
from bot.store import Store, StoreError
from bot.store.errors import InsufficientFunds, NotDriven, StoreUnavailable
from bot.store.models import SYSTEM_ACTOR, GameRecord, SeatResult
from bot.store.scope import EVERY_SERVER
from bot.store.settings import GuildSettings
from bot.tables.table import HOME_CHANNEL, STATE_VERSION, Later, Table, is_ai

if TYPE_CHECKING:
    from bot.tables.surface import TableSurface

log = logging.getLogger("bot.tables")  # the service's lines keep the package's name

AI_LEVELS = {"easy": "random", "normal": "greedy", "hard": "hard", "expert": "expert"}
"""Player-facing AI levels and the engine players behind them (see :func:`bot.ai.make_player`)."""
RACE_SECONDS = 8.0
"""How long the First Bloom slap race stays open for players who have not slapped yet."""
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Waits before a scheduled step that failed (an AI move, a timeout, a settlement) is tried again;
the last repeats until the step succeeds or the game ends."""
STARTS_AT_ONCE = 8
"""Games dealt, stored and shown at the same time; more wait their turn. A burst of starts (a
tournament's round, many commands at once) otherwise wakes together at each step and holds the
event loop from acknowledging presses meanwhile; each start is already answered by then."""
REFUSALS_BEFORE_CANCEL = 3
"""A scheduled move the table refuses this many times in a row (not database trouble: a refusal
that repeats) cancels the game with every stake returned, rather than leave it waiting forever."""


SEARCHING_LEVELS = frozenset({"hard", "expert"})
"""Engine players that search for seconds: they run in worker processes."""


def choose_action(level: str, game: str, observation: dict[str, Any], legal: list[str], seed: int) -> str:
    """One AI decision from plain data (picklable, for a worker thread or process)."""
    player = make_player(level, game)
    return str(player.choose(observation, [Action.parse(a) for a in legal], Rng(seed)))


class TableError(Exception):
    """A refused click or command; the message is shown to the user (ephemeral)."""


class Refused(TableError):
    """The store refused the step (not enough chips, a lobby already started, a move taken
    twice): its error, with its facts, passed on for the layer that shows it to phrase
    (:func:`bot.refusal_text.told`); ``str()`` is the store's plain line for the logs."""

    def __init__(self, refusal: StoreError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class StoreTrouble(TableError):
    """The move was not stored because the database is in trouble; the same move may be tried
    again (the scheduled steps retry it, a player may press again)."""

    def __init__(self) -> None:
        super().__init__(t(STORE_TROUBLE))


class Stopping(TableError):
    """The bot is stopping: nothing new is played or started here; a restart takes it up."""

    def __init__(self) -> None:
        super().__init__(t("The bot is restarting; nothing was played. Press again in a moment."))


class EarlierTurn(TableError):
    """A move pressed on a control of an earlier move: what the player looked at fell behind
    the table. ``seat`` is the presser's, so that the surface can bring that copy up to date."""

    def __init__(self, seat: int) -> None:
        super().__init__(t("That control is from an earlier turn; use the newest one."))
        self.seat = seat


class AlreadyStarted(TableError):
    """A second press of Start or Accept: the game of that lobby or challenge already exists."""

    def __init__(self) -> None:
        super().__init__(t("This game has already started."))


STORE_TROUBLE = N_("The bot cannot save moves right now (database trouble), so your move was not "
                   "played; nothing changed. Please try again in a moment.")
ELSEWHERE = N_("This game is now run by another of the bot's processes; press again in a moment.")


@contextlib.contextmanager
def refused_by_store() -> Iterator[None]:
    """A store error of an ending as the table's refusal: database trouble, which the same step
    may retry (:class:`StoreTrouble`), or the store's refusal passed on (:class:`Refused`)."""
    try:
        yield
    except StoreUnavailable:
        raise StoreTrouble() from None
    except StoreError as exc:
        raise Refused(exc) from None


AI_STREAM = 0xA1
"""The label of the AI seats' randomness among the streams a match's seed gives."""


def ai_rng(table: Table, seat: int) -> Rng:
    """The randomness an AI seat thinks (or slaps) with at the table's current move: drawn from
    the match's seed, the move's number and the seat, so the same game played the same way meets
    the same AI. Every member's game of a day's deal, dealt from one seed, meets one opponent."""
    return Rng(table.match.seed).fork(AI_STREAM).fork(table.seq).fork(seat)


def ai_seat(level: str) -> str:
    if level not in AI_LEVELS:
        raise TableError(t("Unknown AI level {level}; choose {levels}.", level=repr(level), levels=", ".join(AI_LEVELS)))
    return f"ai:{level}"


class TableManager:
    """All running tables of the bot, keyed by game id.

    ``publisher`` is where the tables are shown (a :class:`bot.tables.surface.TableSurface`; the
    Discord one is ``bot.discord_ui.publisher.TablePublisher``): it renders and sends; this class decides,
    stores and schedules, and narrates nothing itself.
    """

    ai_delay: float = 1.2
    warning_fraction: float = 0.75
    timeout_override: float | None = None  # tests shorten the turn timer
    race_seconds: float = RACE_SECONDS
    slap_delays: tuple[float, float] = (0.6, 2.0)  # an AI seat's reaction time in the race, seconds
    MAX_TIMEOUTS = 3
    retry_delays: tuple[float, ...] = RETRY_DELAYS  # tests shorten them
    # Every game is dealt from a committed secret (bot.fairness). Tests that need one particular
    # deal (a human seat to move first) set this to give its seed; such a game is not committed.
    new_seed: Callable[[], int] | None = None

    def __init__(self, store: Store, publisher: TableSurface, ai_pool: Any = None,
                 owns: Callable[[int | None], bool] | None = None) -> None:
        self.store = store
        self.publisher = publisher
        self.ai_pool = ai_pool  # bot.workers.WorkerPool for searching AI levels (else a private pool)
        # Whether the games of a server (None: of a DM or a group DM) are this process's
        # (bot.shards); other processes drive the rest.
        self.owns: Callable[[int | None], bool] = owns or (lambda guild_id: True)
        self.tables: dict[int, Table] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._starting: set[str] = set()  # start keys being started right now
        self._admitting = asyncio.Semaphore(STARTS_AT_ONCE)
        self._turn_seconds: dict[int, float] = {}  # guild -> its turn timeout, as last read
        # Called with each table whose game has just ended (finished, forfeited or cancelled),
        # after the end is stored: the tournaments record their results from it.
        self.end_listeners: list[Callable[[Table], None]] = []
        self.accepting = True  # False once the bot is stopping (see :meth:`quiesce`)

    # -- lifecycle --------------------------------------------------------------------------
    async def start(self, *, guild_id: int, channel_id: int, game: str, players: list[int | str],
                    names: list[str], host_id: int, rules: Any, stake: int, seed: int | None = None,
                    deal: FairDeal | None = None, key: str | None = None, via: Any = None,
                    headline: str = "", home: str = HOME_CHANNEL,
                    replays: int | None = None) -> Table:
        """Create the game (stakes escrowed, all or none), post the table and deal the hands.

        The seed is derived from ``deal`` (:mod:`bot.fairness`: a server seed committed to before
        the players were seated, and their presses), or from a fresh commitment with no presses;
        a ``seed`` given instead (tests, :attr:`new_seed`) deals a game that is not committed.
        ``key`` makes the start idempotent: a second start with the same key, at once or after a
        restart, raises :class:`AlreadyStarted` and creates nothing. ``via`` is an interaction
        deferred publicly whose response becomes the table message; ``headline`` a line the
        table shows under its title (who sits down against whom); ``home`` where the table lives;
        ``replays`` the finished game this one plays again (a rematch)."""
        if seed is None and self.new_seed is not None:
            seed = self.new_seed()
        if seed is not None:
            deal = None  # a seed given outright (a test's) was never committed to
        else:
            deal = deal or FairDeal.fresh()
            seed = deal.seed
        if not self.accepting:
            raise Stopping()
        if key is not None:
            if key in self._starting:
                raise AlreadyStarted()
            self._starting.add(key)
        try:
            async with self._admitting:
                return await self._start(guild_id=guild_id, channel_id=channel_id, game=game,
                                         players=players, names=names, host_id=host_id,
                                         rules=rules, stake=stake, seed=seed, deal=deal, key=key,
                                         via=via, headline=headline, home=home, replays=replays)
        finally:
            if key is not None:
                self._starting.discard(key)

    async def _start(self, *, guild_id: int, channel_id: int, game: str, players: list[int | str],
                     names: list[str], host_id: int, rules: Any, stake: int, seed: int,
                     deal: FairDeal | None, key: str | None, via: Any, headline: str,
                     home: str, replays: int | None) -> Table:
        module = game_module(game)
        match = module.new_match(len(players), rules, seed)
        table = Table(game_id=0, guild_id=guild_id, channel_id=channel_id, game=game,
                      players=players, names=names, host_id=host_id, stake=stake, match=match,
                      timeouts=[0] * len(players), home=home, headline=headline,
                      deal=deal.sealed() if deal else None)
        try:
            self._turn_seconds[guild_id] = float((await self.store.get_settings(guild_id)).turn_timeout_s)
        except StoreError as exc:
            raise Refused(exc) from None
        table.recent.extend(presenter.narrated(game, match.intro_events, names))
        try:
            record = await self.store.create_game(
                guild_id, channel_id, game, rules=rules.to_dict(), players=players, seed=seed,
                state_json=table.state_json(), state_version=STATE_VERSION, stake=table.escrow,
                key=key, actor=host_id, moves=table.chip_moves(match.intro_events), deal=deal,
                replays=replays)
        except StoreError as exc:
            raise Refused(exc) from None
        if record.game_id in self.tables or record.status != "running" or record.last_seq:
            raise AlreadyStarted()  # the store already held a game under this key
        table.game_id, table.shard_key = record.game_id, record.shard_key
        self.tables[table.game_id] = table
        async with table.lock:
            self._begin_move(table, acted=None)  # the first table shows the first deadline
            await self.publisher.post_table(table, via=via)
            if match.is_over:  # decided by the deal itself (a dealt hand yaku in a last round)
                await self._finish(table, [])
                return table
            self.publisher.deliver_hands(table)
        self._schedule(table)
        return table

    async def resume_all(self) -> int:
        """Rebuild every running game of this process's guilds after a restart and restart
        its timers and AI turns (the other processes resume theirs)."""
        resumed: set[int] = set()
        for brief in await self.store.list_running_games(EVERY_SERVER, owns=self.owns):
            rec = await self.store.load_game(brief.game_id, scope=brief.guild_id, with_events=False)
            if await self._take_up(rec, "resumed at move %d"):
                resumed.add(rec.game_id)
        await self._show_unshown_ends(skip=resumed)
        return len(resumed)

    async def _take_up(self, rec: GameRecord, said: str) -> bool:
        """Drive the stored running game ``rec`` here: its table rebuilt, its timers and AI
        turns started, its surfaces brought to the stored state; whether it could be read."""
        try:
            table = Table.from_record(rec)
        except Exception:  # a state we cannot read must not stop the other tables
            log.exception("cannot resume game %s", rec.game_id)
            return False
        if not table.timeouts:
            table.timeouts = [0] * len(table.players)
        self.tables[table.game_id] = table
        logcontext.table_context(table).run(log.info, said, table.seq)
        if table.match.is_over:  # the bot stopped between the last move and the settlement
            async with table.lock:
                await self._finish_or_retry(table, [])
        else:
            # The bot may have stopped between storing a move and showing it: bring the
            # table and every hand to the stored state. The turn timer starts afresh.
            try:
                self._turn_seconds[table.guild_id] = await self.turn_timeout(table)
            except StoreError:
                log.warning("turn timeout of guild %s unknown; the default applies", table.guild_id)
            self._begin_move(table, acted=table.match.current_player)
            self.publisher.refresh(table)
            await self._post_owed(table)
            self._schedule(table)
        return True

    async def claim_place(self, scope: int, guild_id: int) -> list[int]:
        """Drive here the running games of ``scope``, a guest channel of server ``guild_id``,
        that another process drives: Discord sends the place's interactions to this process.
        Only a game of a place noted before its server was kept (migration 031) is ever
        elsewhere; the other process is told to let it go, and the store refuses its writes to
        it from now on (:meth:`bot.store.Store.claim_games`). The ids of the games taken up."""
        try:
            moved = await self.store.claim_games(scope, guild_id)
        except StoreError as exc:
            log.warning("cannot take up the games of place %s: %s", scope, exc)
            return []
        taken = []
        for game_id in moved:
            if game_id in self.tables:
                continue
            try:
                rec = await self.store.load_game(game_id, scope=scope, with_events=False)
            except StoreError as exc:  # the next press on it tries again
                log.warning("cannot take up game %s: %s", game_id, exc)
                continue
            if rec.status == "running" and await self._take_up(rec, "taken up at move %d"):
                taken.append(game_id)
        return taken

    def let_go(self, game_id: int) -> None:
        """Another process drives the game now (:meth:`claim_place`): stop driving it here."""
        table = self.tables.get(game_id)
        if table is not None:
            self._let_go(table)

    def _let_go(self, table: Table) -> None:
        """Forget ``table`` without showing or settling anything: its timers and AI stop and its
        retries end (it counts as finished here); the process that drives it now shows it."""
        if self.tables.get(table.game_id) is not table:
            return
        self._stop(table)
        self.publisher.let_go(table)
        logcontext.table_context(table).run(log.info, "let go: another process drives it now")

    async def _show_unshown_ends(self, skip: set[int]) -> None:
        """Games that ended just before the process stopped: their final table and hands are
        drawn again (a restart would otherwise leave live controls on a game that is over).
        ``skip`` holds the games just resumed: one settled on resume shows its end already."""
        try:
            ended = await self.store.unshown_ended_games(self.owns)
        except StoreError as exc:
            log.warning("cannot list the games whose end is not shown yet: %s", exc)
            return
        for rec in ended:
            if rec.game_id in skip:
                continue
            try:
                table = Table.from_record(rec)
                outcome = await self.store.ended_outcome(rec.game_id)
            except StoreError as exc:
                log.warning("cannot show the end of game %s: %s", rec.game_id, exc)
                continue
            except Exception:  # a state we cannot read must not stop the other tables
                log.exception("cannot show the end of game %s", rec.game_id)
                continue
            table.finished = True
            table.turn_seat = table.deadline = None
            table.closing = {**(table.closing or {"cancelled": rec.status == "cancelled",
                                                  "reason": rec.end_reason or ""}),
                             "outcome": outcome}
            logcontext.table_context(table).run(log.info, "showing its end again")
            await self._post_owed(table)
            await self._reveal(table)
            self.publisher.show_end(table)

    async def _post_owed(self, table: Table) -> None:
        """The round summaries of stored moves that had not gone out when the process stopped."""
        try:
            owed = await self.store.unposted_events(table.game_id)
        except StoreError as exc:
            log.warning("cannot list the posts owed by game %s: %s", table.game_id, exc)
            return
        self.publisher.post_owed(table, owed)

    def drives(self, game_id: int) -> bool:
        """Whether this process runs the game (a sharded bot's other processes run the rest)."""
        return game_id in self.tables

    def get(self, game_id: int) -> Table:
        table = self.tables.get(game_id)
        if table is None or table.finished:
            raise TableError(t("This game is over or no longer running."))
        return table

    # -- moves ------------------------------------------------------------------------------
    async def press(self, game_id: int, user_id: int, seq: int, key: str, *, via: Any = None,
                    relayed_press: int | None = None) -> list[dict]:
        """A player pressed a move on their hand: the whole of a press in one call. Checked
        (their game, their turn, the move of this very turn), stored, then shown; raises
        TableError when refused. ``key`` names the move (``#i``: the i-th move offered at this
        turn); ``via``: the surface's own handle of the press, handed back to it so that it may
        show the presser's hand through it (:meth:`bot.tables.surface.TableSurface.pressed`)."""
        table = self.get(game_id)
        logcontext.at_table(table)
        async with table.lock:  # checked against the stored state, never a move being stored
            try:
                seat = self.check_click(table, user_id, seq)
            except EarlierTurn as behind:
                if via is not None:  # the press still shows the copy it was on the table's state
                    self.publisher.pressed_earlier(table, behind.seat, via)
                raise
            action = self._offered(table, seat, key)
            if via is not None:
                self.publisher.pressed(table, seat, via)
            events = await self._apply(table, seat, action, user_id, seq, relayed_press=relayed_press)
        self._schedule(table)
        return events

    async def slap_by(self, game_id: int, user_id: int, *, relayed_press: int | None = None) -> list[dict]:
        """A player pressed Slap! (First Bloom's race); raises TableError when refused."""
        table, seat = self.seat_in(game_id, user_id)
        logcontext.at_table(table)
        return await self.slap(table, seat, user_id, relayed_press=relayed_press)

    def seat_in(self, game_id: int, user_id: int, outsider: str | None = None) -> tuple[Table, int]:
        """The running table and the user's seat at it; TableError (``outsider``, or a plain
        sentence) when they do not play there."""
        table = self.get(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(outsider or t("You are not playing in this game."))
        return table, seat

    async def forfeit_by(self, game_id: int, user_id: int) -> None:
        """A player gives up their game (their team's, in a team game)."""
        table, seat = self.seat_in(game_id, user_id)
        await self.forfeit(table, seat, "forfeited")

    async def cancel_by(self, game_id: int, user_id: int, name: str, *,
                        manages_at: tuple[int | None, int | None] | None = None) -> None:
        """Cancel a game at its host's or a server manager's request, every stake refunded.
        ``manages_at``: the server and channel where the user may manage the server; it counts
        only where the game is, so a press that claims another place carries nothing."""
        table = self.get(game_id)
        if user_id != table.host_id and manages_at != (table.guild_id, table.channel_id):
            raise TableError(t("Only the player who started the game or a server manager can cancel it."))
        await self.cancel(table, user_id, f"cancelled by {name[:80]}")

    @staticmethod
    def _offered(table: Table, seat: int, key: str) -> str:
        """The move a control names: its text, or ``#i``, the i-th move offered at this turn
        (when the text would not fit a custom id)."""
        if not key.startswith("#"):
            return key
        offered = presenter.hand_actions(table.match.observation(seat))
        index = int(key[1:])
        if index >= len(offered):
            raise TableError(t("That move is not available; use the newest controls."))
        return str(offered[index][1])

    def check_click(self, table: Table, user_id: int, seq: int) -> int:
        """The seat of a user allowed to act now with a control of move ``seq``; else TableError."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(t("You are not playing in this game."))
        if seq < table.seq:
            raise EarlierTurn(seat)
        if seq != table.seq:
            raise TableError(t("That control is from an earlier turn; use the newest one."))
        if table.in_race:
            raise TableError(t("Nobody plays during the race: press Slap! if you have not yet."))
        if table.match.is_over:  # its end is being stored: nobody is "to move"
            raise TableError(t("This game is over."))
        if table.match.current_player != seat:
            current = table.match.current_player
            who = table.names[current] if current is not None else t("nobody")
            raise TableError(t("It is not your turn (waiting for {name}).", name=who))
        return seat

    async def act(self, table: Table, seat: int, action: Action | str, actor: int | str,
                  seq: int | None = None, *, timed_out: bool = False,
                  relayed_press: int | None = None) -> list[dict]:
        """Apply one action: checked, stored, then shown. Raises TableError when refused.
        ``relayed_press``: the queued press it plays (see :mod:`bot.store.relay`), taken from
        the queue with the move."""
        async with table.lock:
            events = await self._apply(table, seat, action, actor, seq, timed_out=timed_out,
                                       relayed_press=relayed_press)
        self._schedule(table)
        return events

    async def _apply(self, table: Table, seat: int, action: Action | str, actor: int | str,
                     seq: int | None = None, *, timed_out: bool = False,
                     relayed_press: int | None = None) -> list[dict]:
        """:meth:`act` under the table's lock."""
        if not self.accepting:
            raise Stopping()
        if table.finished:
            raise TableError(t("This game is over."))
        if seq is not None and seq != table.seq:
            raise TableError(t("That control is from an earlier turn; use the newest one."))
        snapshot = (table.match.to_dict(), table.timeouts[seat], list(table.recent))
        try:
            events = table.match.apply(action, seat)
        except GameError as exc:
            raise TableError(rules_problem(exc)) from None
        table.settled.clear()
        try:
            await self._store_move(table, seat, action, actor, events, snapshot, timed_out,
                                   relayed_press)
        finally:
            table.settled.set()
        table.seq += 1
        metrics.ACTIONS.labels(table.game).inc()
        if table.match.is_over:
            self.publisher.show_last_move(table, events)
            await self._finish_or_retry(table, events)
        else:
            self._begin_move(table, acted=seat)
            self.publisher.show_move(table, events)
        return events

    async def _store_move(self, table: Table, seat: int, action: Action | str, actor: int | str,
                          events: list[dict], snapshot: tuple[Any, int, list], timed_out: bool,
                          relayed_press: int | None) -> None:
        """Store a move the match has just applied; undo it in memory if the store refuses."""
        table.timeouts[seat] = table.timeouts[seat] + 1 if timed_out else 0
        table.recent.extend(presenter.narrated(table.game, events, table.names))
        try:
            with self._fenced(table):
                await self.store.record_action(table.game_id, table.seq + 1, actor, str(action),
                                               events, table.state_json(), STATE_VERSION,
                                               table.chip_moves(events), relayed_press=relayed_press)
        except BaseException as exc:  # not stored: as if the move never happened
            table.match = game_module(table.game).match_from_dict(snapshot[0])
            table.timeouts[seat] = snapshot[1]
            table.recent.clear()
            table.recent.extend(snapshot[2])
            if isinstance(exc, StoreUnavailable):  # logged once by the store
                raise StoreTrouble() from None
            if isinstance(exc, InsufficientFunds):  # a bet beyond what the player now holds
                raise TableError(t("You have {balance}, too few for this bet of {needed}; nothing "
                                   "was bet. You can still bet less or die.",
                                   balance=number(exc.balance), needed=number(exc.needed))) from None
            if isinstance(exc, StoreError):  # a refusal, such as a double click
                raise Refused(exc) from None
            raise

    async def forfeit(self, table: Table, seat: int, reason: str) -> None:
        """``seat`` gives up: every other seat shares the win; stakes go to them."""
        async with table.lock:
            if table.finished:
                raise TableError(t("This game is over."))
            losers, team = self._forfeiting_side(table, seat)
            others = [s for s in range(len(table.players)) if s not in losers]
            results = [SeatResult(seat=s, points=table.match.scores[s],
                                  outcome="lost" if s in losers else "won")
                       for s in range(len(table.players))]
            closing = {"forfeit": seat, "reason": reason, "winners": others, "team": team}
            with refused_by_store(), self._fenced(table):
                outcome = await self.store.finish_game(
                    table.game_id, results, state_json=table.state_json(closing),
                    state_version=STATE_VERSION, reason=reason,
                    escrow_payouts=table.escrow_payouts(seat))
            table.closing = {**closing, "outcome": outcome}
            self._close(table)
            await self._reveal(table)
            self.publisher.show_end(table)

    @contextlib.contextmanager
    def _fenced(self, table: Table) -> Iterator[None]:
        """A write the store refused because another process drives the game now: the table is
        let go here, and the step refused in words."""
        try:
            yield
        except NotDriven:
            self._let_go(table)
            raise TableError(t(ELSEWHERE)) from None

    @staticmethod
    def _forfeiting_side(table: Table, seat: int) -> tuple[set[int], list[int] | None]:
        """Who loses when ``seat`` gives up (their whole team in a team game), and the team that
        wins alone when there is exactly one other team."""
        sides = getattr(table.match.rules, "sides", None)
        if sides is None:
            return {seat}, None
        teams = [list(side) for side in sides(len(table.players))]
        losers = next((set(side) for side in teams if seat in side), {seat})
        rest = [side for side in teams if not losers & set(side)]
        return losers, rest[0] if len(rest) == 1 and len(rest[0]) > 1 else None

    async def cancel(self, table: Table, actor: int, reason: str, *, show: bool = True) -> None:
        """Cancel a running table, every stake refunded; ``show=False`` when nobody can see it
        any more (the bot has left its server)."""
        async with table.lock:
            if table.finished:
                raise TableError(t("This game is over."))
            closing = {"cancelled": True, "reason": reason}
            with refused_by_store(), self._fenced(table):
                outcome = await self.store.cancel_game(
                    table.game_id, actor=actor, reason=reason, state_json=table.state_json(closing),
                    state_version=STATE_VERSION,
                    escrow_refunds=table.escrow_payouts())
            table.closing = {**closing, "outcome": outcome}
            self._close(table)
            if show:
                await self._reveal(table)
                self.publisher.show_end(table)
            else:  # nobody can see it any more: its end needs no showing
                with contextlib.suppress(StoreError):
                    await self.store.mark_final_shown(table.game_id)

    async def _finish(self, table: Table, events: list[dict]) -> None:
        """Settle a match that is over: result, ratings and chips in one transaction, then the
        final table (drawn once) and the round's summary."""
        match = table.match
        winners = match.winners()
        verdicts = outcomes(match.num_players, winners, team_win=match.winning_team() is not None)
        results = [SeatResult(seat=s, points=v, outcome=verdicts[s]) for s, v in enumerate(match.scores)]
        deltas = None
        if table.stake and is_per_point(table.game):
            deltas = chip_deltas(match.scores, table.stake, table.escrow)
        closing = {"winners": winners, "team": match.winning_team()}
        outcome = await self.store.finish_game(table.game_id, results, chip_deltas=deltas,
                                               state_json=table.state_json(closing),
                                               state_version=STATE_VERSION, reason="match over",
                                               escrow_payouts=table.escrow_payouts())
        table.closing = {**closing, "outcome": outcome}
        self._close(table)
        await self._reveal(table)
        self.publisher.show_end(table, events)

    async def _reveal(self, table: Table) -> None:
        """Read back the server seed of a game whose end is stored, for the final table to
        reveal: the store gives it out only once the game has ended. Should the read fail, the
        final table keeps the commitment and /replay reveals the seed."""
        try:
            table.deal = await self.store.fair_deal(table.game_id, scope=table.guild_id)
        except StoreError as exc:
            log.warning("cannot read the deal of game %s to reveal it: %s", table.game_id, exc)

    async def _finish_or_retry(self, table: Table, events: list[dict]) -> None:
        """Settle now, or, when the database refuses, keep trying in the background: the last
        move is stored, so the match is over whatever happens, and only its settlement waits."""
        try:
            await self._finish(table, events)
        except NotDriven:  # another process drives it now, and settles it
            self._let_go(table)
        except StoreError as exc:
            log.warning("settling game %s failed (%s); trying again", table.game_id, exc)
            if table.settling is None or table.settling.done():
                table.settling = asyncio.create_task(self._settle_later(table, events),
                                                     context=logcontext.table_context(table))

    async def _settle_later(self, table: Table, events: list[dict]) -> None:
        for attempt in range(1_000_000):
            await asyncio.sleep(self.retry_delay(attempt))
            async with table.lock:
                if table.finished:
                    return
                try:
                    await self._finish(table, events)
                    return
                except NotDriven:
                    self._let_go(table)
                    return
                except StoreError as exc:
                    log.warning("settling game %s failed again (%s)", table.game_id, exc)
                except Exception:
                    log.exception("settling game %s failed", table.game_id)

    def retry_delay(self, attempt: int) -> float:
        """How long a failed scheduled step waits before its ``attempt``-th retry (from 0)."""
        return self.retry_delays[min(attempt, len(self.retry_delays) - 1)]

    async def _keep_trying(self, table: Table, due: Callable[[], bool], what: str,
                           step: Callable[[], Any]) -> None:
        """Run a scheduled step (an AI move, a timeout, the race's close) until it is taken or
        no longer ``due``. Database trouble is waited out; a refusal that repeats
        :data:`REFUSALS_BEFORE_CANCEL` times cancels the game, stakes returned, so that no
        table ever waits for a step that can never happen."""
        refusals = 0
        for attempt in range(1_000_000):
            if table.finished or not due():
                return
            try:
                await step()
                return
            except asyncio.CancelledError:
                raise
            except Stopping:
                return  # the restart schedules it again
            except (StoreTrouble, StoreUnavailable):
                pass  # logged once by the store; the same step is tried again
            except TableError as exc:
                if table.finished or not due():
                    return  # someone else moved first: this step is no longer due
                refusals += 1
                log.warning("%s refused in game %s (%s)", what, table.game_id, exc)
            except Exception:
                refusals += 1
                log.exception("%s failed in game %s", what, table.game_id)
            if refusals >= REFUSALS_BEFORE_CANCEL:
                await self._give_up(table, what)
                return
            await asyncio.sleep(self.retry_delay(attempt))

    async def _give_up(self, table: Table, what: str) -> None:
        """Cancel a game whose next step keeps being refused, every stake returned (tried until
        the database takes it)."""
        log.error("game %s: %s keeps being refused; cancelling it", table.game_id, what)
        reason = STUCK
        for attempt in range(1_000_000):
            if table.finished or not self.accepting:  # stopping: the next start tries again
                return
            try:
                await self.cancel(table, SYSTEM_ACTOR, reason)
                return
            except TableError:
                if table.finished:
                    return
                log.warning("cancelling game %s failed; trying again", table.game_id)
            await asyncio.sleep(self.retry_delay(attempt))

    def _close(self, table: Table) -> None:
        self._stop(table)
        for listener in self.end_listeners:
            try:
                listener(table)
            except Exception:  # a listener's fault must not undo the stored end
                log.exception("end listener failed for game %s", table.game_id)

    def _stop(self, table: Table) -> None:
        """The table takes no more steps here: its timers, AI and retries end, and it is no
        longer one of this process's tables."""
        table.finished = True
        table.turn_seat = table.deadline = None
        for task in (table.timer, table.settling, *table.race_tasks):
            if task and task is not asyncio.current_task():
                task.cancel()
        if table.ai_task is not None and not table.ai_task.running_now():
            table.ai_task.cancel()
        # A cancelled task keeps its exception, whose traceback keeps the frames it ran in.
        table.timer = table.ai_task = table.settling = None
        table.race_tasks = []
        self.tables.pop(table.game_id, None)

    # -- scheduling -------------------------------------------------------------------------
    def _begin_move(self, table: Table, acted: int | None) -> None:
        """A new move is up: note whose turn began when (a turn passing to another seat is what
        alerts a player) and the deadline shown for it, known before anything is shown."""
        seat = table.match.current_player
        if seat != acted:
            table.turn_since = table.seq
        table.move_started = time.time()
        if seat is None or table.in_race or is_ai(table.players[seat]):
            table.turn_seat = table.deadline = None  # AI seats have no timer; the race has its own
        else:
            table.turn_seat = seat
            table.deadline = table.move_started + self._timeout_for(table.guild_id)

    def _timeout_for(self, guild_id: int) -> float:
        """The turn timeout without a database read (the timer reads it afresh each move)."""
        if self.timeout_override is not None:
            return self.timeout_override
        return self._turn_seconds.get(guild_id, float(GuildSettings(guild_id).turn_timeout_s))

    def _schedule(self, table: Table) -> None:
        if table.finished:
            return
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
            table.timer = None  # a cancelled task's traceback keeps the frames it ran in
        if table.ai_task is not None and not table.ai_task.running_now():
            table.ai_task.cancel()
            table.ai_task = None
        seat = table.match.current_player
        if seat is None:
            return
        if table.in_race:  # nobody's turn: the others race to slap, then the window closes
            if table.race_seq is None:
                self._start_race(table)
            return
        table.race_seq = None
        for task in table.race_tasks:
            if not task.done() and task is not asyncio.current_task():
                task.cancel()
        table.race_tasks = []
        context = logcontext.table_context(table)  # its log lines name the game and its shard
        if is_ai(table.players[seat]):
            seq = table.seq
            table.ai_task = Later(self.ai_delay, lambda: self._ai_turn(table, seat, seq), context)
        else:
            table.timer = asyncio.create_task(self._turn_timer(table, seat, table.seq), context=context)

    # -- the First Bloom slap race ----------------------------------------------------------
    def _start_race(self, table: Table) -> None:
        """Time the race: AI seats slap after a human-like delay; the window closes after
        :data:`RACE_SECONDS` (those who never slapped pay in full)."""
        table.race_seq = table.seq
        context = logcontext.table_context(table)
        table.race_tasks = [asyncio.create_task(self._close_race(table, table.seq), context=context)]
        for seat in table.match.observation(0).get("race_seats", []):
            if is_ai(table.players[seat]):
                delay = slap_delay(ai_rng(table, seat), *self.slap_delays)
                table.race_tasks.append(asyncio.create_task(self._ai_slap(table, seat, delay),
                                                            context=context))

    async def slap(self, table: Table, seat: int, actor: int | str, *,
                   relayed_press: int | None = None) -> list[dict]:
        """``seat`` slaps the winner's hand. Presses are served in the order the bot receives
        them (the table lock is first come, first served)."""
        if not table.in_race:
            raise TableError(t("There is no hand to slap now."))
        if seat not in table.match.observation(0).get("race_seats", []):
            raise TableError(t("You have already slapped, or you are the one who went out."))
        return await self.act(table, seat, Action("slap", str(seat)), actor,
                              relayed_press=relayed_press)

    async def _ai_slap(self, table: Table, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        race = table.race_seq
        await self._keep_trying(
            table, lambda: table.race_seq == race and table.in_race
            and seat in table.match.observation(0).get("race_seats", []),
            "the AI's slap", lambda: self.slap(table, seat, str(table.players[seat])))

    async def end_race(self, table: Table) -> None:
        """Close the slap race now: whoever has not slapped pays in full (the race window's end;
        tests call it to close a window on an event instead of a clock)."""
        if table.in_race and not table.finished:
            await self.act(table, table.match.current_player, Action("race_end"), "race")

    async def _close_race(self, table: Table, seq: int) -> None:
        await asyncio.sleep(self.race_seconds)
        if table.race_seq == seq:
            await self._keep_trying(table, lambda: table.race_seq == seq and table.in_race,
                                    "closing the race", lambda: self.end_race(table))

    async def choose_for(self, table: Table, seat: int, level: str) -> Action:
        """The AI's move for ``seat`` from that seat's observation only, off the event loop.

        Players think in the bot's AI worker processes, so their computing never holds up the
        other tables (the GIL is not shared); without workers (tests that build a manager
        alone) quick players think in a thread and searching ones in a private process pool."""
        engine_level = AI_LEVELS.get(level, level)
        obs = table.match.observation(seat)
        legal = [str(a) for a in table.match.legal_actions()]
        seed = ai_rng(table, seat).next64()
        if self.ai_pool is not None:  # every level: even quick players hold the GIL while they think
            text = await self.ai_pool.run(choose_action, engine_level, table.game, obs, legal, seed)
        elif engine_level in SEARCHING_LEVELS:
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self._process_pool(), choose_action,
                                              engine_level, table.game, obs, legal, seed)
        else:
            text = await asyncio.to_thread(choose_action, engine_level, table.game, obs, legal, seed)
        return Action.parse(text)

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            workers = max(1, (os.cpu_count() or 2) - 1)
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def quiesce(self) -> None:
        """Take no more moves, and return once no move is being stored: every move that began
        is stored (or refused) before this returns. Scheduled steps end without acting; the
        next start schedules them again from the store."""
        self.accepting = False
        for table in list(self.tables.values()):
            async with table.lock:
                pass
        for table in list(self.tables.values()):
            async with table.lock:  # a settlement begun under the last lock ends first
                pass

    def close(self) -> None:
        """Stop every timer and AI task and the AI worker processes (the bot is shutting down)."""
        for table in list(self.tables.values()):
            for task in (table.timer, table.ai_task, *table.race_tasks):
                if task:
                    task.cancel()
            table.timer = table.ai_task = None
            table.race_tasks = []
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _ai_turn(self, table: Table, seat: int, seq: int) -> None:
        """The AI's move, once its pause is over (:class:`Later`)."""
        level = str(table.players[seat]).split(":", 1)[1]
        chosen: list[Action] = []  # kept across retries: database trouble does not change the move

        async def move() -> None:
            if not chosen:
                chosen.append(await self.choose_for(table, seat, level))
            try:
                await self.act(table, seat, chosen[0], f"ai:{level}", seq)
            except StoreTrouble:
                raise
            except TableError:
                chosen.clear()  # refused: think again
                raise

        await self._keep_trying(table, lambda: table.seq == seq, "the AI's move", move)

    async def timeout_move(self, table: Table, seat: int) -> Action:
        """What a player whose turn time ran out plays: the engine's own rule when the game has
        one (``timeout_action()``: a Seotda player dies), else the normal AI's move for them."""
        rule = getattr(table.match.round, "timeout_action", None)
        action = rule() if rule is not None else None
        return action if action is not None else await self.choose_for(table, seat, "normal")

    async def turn_timeout(self, table: Table) -> float:
        if self.timeout_override is not None:
            return self.timeout_override
        return float((await self.store.get_settings(table.guild_id)).turn_timeout_s)

    async def _turn_timer(self, table: Table, seat: int, seq: int) -> None:
        try:
            timeout = await self.turn_timeout(table)
        except StoreError:  # the last timeout read stands while the database is away
            timeout = self._timeout_for(table.guild_id)
        if self.timeout_override is None:
            self._turn_seconds[table.guild_id] = timeout
        if table.finished or table.seq != seq:
            return
        deadline = table.move_started + timeout
        if table.deadline != deadline:  # the server changed its timeout since the last read
            table.deadline = deadline
            self.publisher.refresh(table)
        await asyncio.sleep(timeout * self.warning_fraction)
        if table.finished or table.seq != seq:
            return
        self.publisher.warn(table, seat, round(timeout * (1 - self.warning_fraction)))
        await asyncio.sleep(timeout * (1 - self.warning_fraction))

        async def expire() -> None:
            if table.timeouts[seat] + 1 >= self.MAX_TIMEOUTS:
                await self.forfeit(table, seat, f"{self.MAX_TIMEOUTS} turns timed out in a row")
                return
            action = await self.timeout_move(table, seat)
            await self.act(table, seat, action, "timeout", seq, timed_out=True)

        await self._keep_trying(table, lambda: table.seq == seq, "the timed-out move", expire)
