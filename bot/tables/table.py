"""A running table: one game and what the bot needs to show it, and the form it is stored in.

The table service (:class:`bot.tables.manager.TableManager`) is the only code that changes a
:class:`Table`; its surfaces (:mod:`bot.tables.surface`) read the one they are handed. Both need the
type, so it lives here, apart from the service, and the port names it without the service.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bot.fairness import FairDeal
from bot.games import game_module
from bot.settlement import (
    bets_from_balance,
    chip_moves,
    escrow_for,
    escrowed,
    forfeit_payouts,
    is_betting,
    stack_payouts,
)

__all__ = ["ANSWERED_HOMES", "HOME_ACTIVITY", "HOME_CHANNEL", "HOME_GUEST", "HOME_PRIVATE", "LOG_LENGTH", "STATE_VERSION", "Later",
           "Table", "is_ai"]

STATE_VERSION = 1
"""The version of :meth:`Table.state_json`'s form, stored beside it."""
LOG_LENGTH = 6
"""Lines of the table's log, the latest moves narrated."""

def is_ai(seat: int | str) -> bool:
    return isinstance(seat, str) and seat.startswith("ai:")


def _settled() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event


class Later:
    """A table's step due after a pause: a timer handle until then, its task once due.

    Most tables wait most of the time (an AI's pause before its move); a task sleeping out the
    pause would keep its coroutine, future and context alive meanwhile, which every full pass
    of the garbage collector walks (issue 49). A handle is one object, and nothing of the step
    exists until it is due."""

    __slots__ = ("_handle", "_start", "_context", "task")

    def __init__(self, delay: float, start: Callable[[], Coroutine[Any, Any, None]],
                 context: contextvars.Context) -> None:
        self._start: Callable[[], Coroutine[Any, Any, None]] | None = start
        self._context = context
        self.task: asyncio.Task | None = None
        self._handle = asyncio.get_running_loop().call_later(max(0.0, delay), self._due, context=context)

    def _due(self) -> None:
        start, self._start = self._start, None
        if start is not None:
            self.task = asyncio.get_running_loop().create_task(start(), context=self._context)

    def cancel(self) -> None:
        self._handle.cancel()
        self._start = None
        if self.task is not None:
            self.task.cancel()

    def done(self) -> bool:
        return self._start is None and (self.task is None or self.task.done())

    def running_now(self) -> bool:
        """Whether the step's own task is the one running this code."""
        return self.task is not None and self.task is asyncio.current_task()


HOME_CHANNEL = "channel"
"""A table in a server channel the bot is a member of (it posts and edits there)."""
HOME_GUEST = "guest"
"""A table where the app is a guest (a DM, a group DM, a server that never added the bot): it
may only answer the interactions of that place (bot.discord_ui.guest)."""
HOME_PRIVATE = "private"
"""A table only its one player sees, in a server the bot is a member of (a game of the day's
deal, whose cards nobody else may see before the day ends): shown as a guest table is, through
that player's own interactions, every answer private (bot.discord_ui.guest), and on that
player's own pages of the Activity (bot.activity.surface)."""
ANSWERED_HOMES = (HOME_GUEST, HOME_PRIVATE)
"""Where a table is shown only by answering its players' interactions."""
HOME_ACTIVITY = "activity"
"""A table started from an Activity's lobby: its pages show it, and nothing is posted in the
channel for it, so its moves cost no request to Discord (bot.activity.surface)."""


@dataclass
class Table:
    """One running game and what the bot needs to show it."""

    game_id: int
    guild_id: int
    channel_id: int
    game: str
    players: list[int | str]  # user id, or "ai:<level>"
    names: list[str]
    host_id: int
    stake: int  # chips per seat (pot games) or per point (per-point games); see bot.settlement
    match: Any
    seq: int = 0
    timeouts: list[int] = field(default_factory=list)
    # The latest moves' events that the log narrates (bot.presenter.narrated): each surface
    # narrates them in its own language when it shows the table.
    recent: deque = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    # The log of a game stored by older code, which kept the narrated text: shown until the
    # moves of this code replace it.
    legacy_log: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task | None = None
    ai_task: Later | None = None  # the AI's pause, then its move
    race_tasks: list[asyncio.Task] = field(default_factory=list)
    race_seq: int | None = None  # the move that opened the slap race being timed
    settling: asyncio.Task | None = None  # retries a settlement the database refused
    finished: bool = False
    closing: dict[str, Any] | None = None  # how the match ended, once it has (for the final table)
    # The current move's deadline (Unix seconds) while a human's turn timer runs, else None.
    deadline: float | None = None
    move_started: float = 0.0  # Unix seconds when the current move began (the timer counts from it)
    turn_since: int = 0  # the move at which the current player's turn began (their alert's key)
    # The human whose move is up (None: an AI's move, the race, or over), noted with the deadline
    # once the move is stored: the match itself already shows the next turn while it is stored.
    turn_seat: int | None = None
    # A betting game stored by older code, whose bets move from the live balances as they are
    # made (bot.settlement.bets_from_balance); every new one holds its buy-ins in escrow.
    bets_from_balance: bool = False
    # Where the table lives, which decides the surface that shows it (bot.tables.surface.Surfaces).
    home: str = HOME_CHANNEL
    # A line the table shows under its title for the whole game (who sits down against whom).
    headline: str = ""
    # Clear while a move is applied but not yet stored: the match already shows the next turn,
    # the move number does not, and a surface that drew then would offer the next turn's moves
    # under the old number (every press of them refused). Surfaces draw once it is set.
    settled: asyncio.Event = field(default_factory=_settled)
    # How its deal was committed (bot.fairness): the commitment while it runs, the server seed
    # too once it has ended (read back from the store then). None: dealt before commitments.
    deal: FairDeal | None = None
    # The id whose shard drives it (the store's, bot.store.models.GameRecord.shard_key): its
    # log lines name that shard, whatever id its records are kept under.
    shard_key: int | None = None

    @property
    def escrow(self) -> int:
        return escrow_for(self.game, self.stake)

    @property
    def bets_chips(self) -> bool:
        """Whether this table's bets move real chips through the ledger as they are made (a
        betting game of the older code; see :attr:`bets_from_balance`)."""
        return bool(self.stake) and is_betting(self.game) and self.bets_from_balance

    def chip_moves(self, events: list[dict]) -> list:
        """The ledger movements ``events`` make at this table (none unless it bets chips)."""
        return chip_moves(events) if self.bets_chips else []

    def escrow_payouts(self, forfeiter: int | None = None) -> dict[int, int] | None:
        """What a staked betting game's escrow pays each seat if the game ends now, cancelled or
        (``forfeiter`` giving up, or the match over) settled; None for the other games, whose
        store settles them from the stake."""
        if not self.stake or not is_betting(self.game):
            return None
        if self.bets_chips:  # only the pot of the hand under way is in escrow
            in_pot = self.in_pot()
            return escrowed(in_pot) if forfeiter is None else forfeit_payouts(in_pot, forfeiter)
        return stack_payouts(self.match.round.stacks, self.in_pot(), forfeiter)

    def in_pot(self) -> list[int]:
        """What each seat has in the pot of a betting game's hand under way (in escrow)."""
        round_ = self.match.round
        if getattr(round_, "phase", None) == "over" or self.match.is_over:
            return [0] * len(self.players)
        return list(getattr(round_, "in_pot", [0] * len(self.players)))

    @property
    def in_race(self) -> bool:
        return getattr(self.match.round, "phase", None) == "race" and not self.match.is_over

    def seat_of(self, user_id: int) -> int | None:
        for seat, p in enumerate(self.players):
            if p == user_id:
                return seat
        return None

    def state_json(self, closing: dict[str, Any] | None = None) -> str:
        """The table as stored; ``closing``: how it ends, for the transaction that ends it."""
        if closing is not None:
            closing_before, self.closing = self.closing, closing
            try:
                return self.state_json()
            finally:
                self.closing = closing_before
        return json.dumps({
            "match": self.match.to_dict(), "names": self.names, "host_id": self.host_id,
            "timeouts": self.timeouts,
            "recent": list(self.recent), "log": self.legacy_log[-(LOG_LENGTH - len(self.recent)):]
            if len(self.recent) < LOG_LENGTH else [], "stake": self.stake,
            "turn_since": self.turn_since,
            # How it ended (its settlement aside, which the store keeps): the end is shown again
            # from it if the process stops before the final table is drawn.
            "closing": None if self.closing is None else
            {k: v for k, v in self.closing.items() if k != "outcome"},
            **({} if self.home == HOME_CHANNEL else {"home": self.home}),
            **({"headline": self.headline} if self.headline else {}),
        }, separators=(",", ":"))

    @classmethod
    def from_record(cls, rec) -> Table:
        data = json.loads(rec.state_json)
        module = game_module(rec.game)
        table = cls(
            game_id=rec.game_id, guild_id=rec.guild_id, channel_id=rec.channel_id, game=rec.game,
            players=list(rec.players), names=list(data["names"]), host_id=data["host_id"],
            stake=data.get("stake", rec.stake), match=module.match_from_dict(data["match"]), seq=rec.last_seq,
        )
        table.timeouts = list(data["timeouts"])
        table.recent.extend(data.get("recent", ()))
        table.legacy_log = list(data.get("log", ()))
        table.turn_since = data.get("turn_since", 0)
        table.closing = data.get("closing")
        table.home = data.get("home", HOME_CHANNEL)
        table.headline = data.get("headline", "")
        table.bets_from_balance = bets_from_balance(rec.game, table.stake, rec.stake)
        table.deal = rec.deal
        table.shard_key = rec.shard_key
        return table
