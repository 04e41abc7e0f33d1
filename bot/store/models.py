"""Plain values the store returns: frozen dataclasses, never live rows."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from bot.i18n import t

if TYPE_CHECKING:  # a type only: the fair-deal record is built by the store's games module
    from bot.fairness import FairDeal

__all__ = [
    "SYSTEM_ACTOR",
    "MAX_AMOUNT",
    "Seat",
    "Outcome",
    "Metric",
    "Period",
    "Transfer",
    "LedgerLine",
    "GameEvent",
    "GameRecord",
    "SeatResult",
    "PlayerResult",
    "Season",
    "SeasonChoice",
    "CURRENT_SEASON",
    "ALL_SEASONS",
    "GameOutcome",
    "LeaderboardRow",
    "LeaderboardPage",
    "Honours",
    "AuditReport",
    "ms_to_datetime",
    "is_pseudonym",
    "former_member",
]

#: The actor recorded when the bot itself moves chips (timeouts, automatic settlement).
SYSTEM_ACTOR = 0
#: Largest amount one operation may move: bigger numbers are typos or abuse, not games.
MAX_AMOUNT = 10**12

#: A seat holds a Discord user id (int) or an AI level name (str).
Seat = int | str
Outcome = Literal["won", "lost", "draw"]
Metric = Literal["rating", "wins", "points", "streak", "chips", "achievements", "days"]
Period = Literal["all", "30d"]


def is_pseudonym(player: Any) -> bool:
    """Whether a stored user id is the pseudonym of a member who asked to be forgotten: those are
    negative, so they never collide with a Discord id (always positive) or the bot's 0."""
    return type(player) is int and player < 0


def former_member() -> str:
    """How a forgotten member is named wherever their name was shown."""
    return t("a former member")


def ms_to_datetime(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One immutable movement of chips. ``None`` users are system accounts (house or escrow).

    ``replayed`` is true when the idempotency key had already been used and this is the original
    transfer returned again instead of a new one.
    """

    transfer_id: int
    guild_id: int
    kind: str
    amount: int
    from_user: int | None
    to_user: int | None
    from_balance: int
    to_balance: int
    actor: int
    reason: str
    game_id: int | None
    created_at: datetime
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One line of a user's history: ``amount`` is signed from that user's point of view."""

    transfer_id: int
    created_at: datetime
    kind: str
    amount: int
    balance_after: int
    counterparty: int | None  # the other user, or None for the house / a game's escrow
    counterparty_kind: str  # 'user', 'house' or 'escrow'
    game_id: int | None
    actor: int
    reason: str


@dataclass(frozen=True, slots=True)
class GameEvent:
    seq: int
    actor: int | str
    action: str
    events: list[dict[str, Any]]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game row; ``events`` is filled by :meth:`Store.load_game` only."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    rules: dict[str, Any]
    players: list[Seat]
    stake: int
    status: str
    state_json: str
    state_version: int
    last_seq: int
    seed: int | str
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    end_reason: str | None
    events: list[GameEvent] = field(default_factory=list)
    # How the deal was committed (bot.fairness), filled by load_game; its server seed only once
    # the game has ended. None: a game dealt before commitments (or by a test that pins a seed).
    deal: FairDeal | None = None
    # The finished game this one plays again (a rematch), None for a game of its own.
    replays_game_id: int | None = None
    # The id whose shard drives the game for its whole life, read from its place as it started:
    # its server's (a guest channel's server), None for a DM or a group DM (shard 0).
    shard_key: int | None = None
    # A game of the day's deal whose day has not ended: when it ends (ms). Until then nothing
    # that would show its cards (a replay, its seed) is given out (bot.store.daily).
    sealed_until: int | None = None

    @property
    def state(self) -> Any:
        return json.loads(self.state_json)

    @property
    def human_seats(self) -> dict[int, int]:
        """seat -> user id for the seats held by people."""
        return {seat: p for seat, p in enumerate(self.players) if isinstance(p, int)}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """The game's verdict for one seat, the input of :meth:`Store.finish_game`."""

    seat: int
    points: int
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A stored result of one human seat; ratings are None where the game was not rated."""

    game_id: int
    seat: int
    user_id: int
    points: int
    outcome: Outcome
    rating_before: float | None
    rating_after: float | None
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What finishing or cancelling a game did. ``payouts``: seat -> chips paid out of escrow
    (stake refunds when cancelled); ``replayed``: the game had already ended, nothing changed."""

    game_id: int
    status: str
    results: list[PlayerResult]
    payouts: dict[int, int]
    replayed: bool = False
    # user id -> the achievements the game earned them (bot.store.achievements), in list order
    achievements: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # the series of games played again that this one ends (None: it replays no game)
    series: Series | None = None
    # where a game of the day's deal stands on its board (bot.store.daily.DailyPlace)
    daily: DailyPlace | None = None


@dataclass(frozen=True, slots=True)
class DailyPlace:
    """Where a finished game of the day stands on its board as it finished: its margin, its
    place (1 = best; ties share one) among ``finished`` entries, and the member's streak."""

    game: str
    day: str
    margin: int | None  # None: it finished after its day ended, and counts for nothing
    place: int | None
    finished: int
    streak: int = 0  # days in a row, this one the last, the member finished a deal of the day


@dataclass(frozen=True, slots=True)
class Series:
    """A chain of finished games each played again by the next (rematches), the last one
    included: how many, the games each member won (``"ai"``: the AI seats together), and how
    many ended drawn."""

    games: int
    wins: dict[int | str, int]
    draws: int = 0


#: A board or record of the server's current season (the default), or of all seasons together.
CURRENT_SEASON = -1
ALL_SEASONS = None
SeasonChoice = int | None  # a season number (0: before the first season), or one of the above


@dataclass(frozen=True, slots=True)
class Season:
    """A season a server's staff started; games finished from then on belong to it."""

    guild_id: int
    season: int
    name: str
    started_at: datetime
    started_by: int


@dataclass(frozen=True, slots=True)
class SeasonSchedule:
    """Seasons that start by themselves on a server: every ``cadence`` ("weekly" or "monthly",
    UTC; None once turned off), announced in ``channel_id``. ``owed`` is a season whose
    announcement is still to be posted, in ``owed_in`` when staff started it there (None: in
    ``channel_id``); ``undelivered`` the last one Discord refused for good."""

    guild_id: int
    cadence: str | None
    channel_id: int
    set_at: datetime
    owed: int | None = None
    undelivered: int | None = None
    owed_in: int | None = None

    @property
    def owed_channel(self) -> int:
        """Where the owed announcement goes."""
        return self.channel_id if self.owed_in is None else self.owed_in


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    value: float | int
    games: int | None
    spread: float | None = None  # a rating's uncertainty (sigma); None on other boards


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    rows: list[LeaderboardRow]
    total: int  # rows in the whole board, for "page 2 of 7"


@dataclass(frozen=True, slots=True)
class Honours:
    """Who stood out in one season of a server, read from its boards as the season ends."""

    season: int
    wins: list[LeaderboardRow]  # the most games won, best first (at most a podium; none of 0)
    streak: LeaderboardRow | None  # the most games won in a row, when two or more
    ratings: dict[str, LeaderboardRow]  # each game played: its best rating

    @property
    def empty(self) -> bool:
        return not (self.wins or self.streak or self.ratings)


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The ledger's invariants, checked from the stored rows. ``problems`` empty means sound."""

    accounts: int
    transfers: int
    issued: int  # chips the house has issued net of revocations (minus its balance)
    total: int  # sum of every balance: always 0 in double entry
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems
