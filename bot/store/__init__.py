"""SQLite persistence of the bot (aiosqlite): settings, games, results, ratings and the chip ledger.

Use :class:`Store`; everything else here is the values it returns and the errors it raises.
"""

from .db import default_db_path, default_migrations_dir
from .errors import (
    AlreadyClaimed,
    DuplicateAction,
    GameNotRunning,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidGame,
    InvalidInput,
    InvalidResult,
    InvalidSetting,
    MigrationError,
    NotDriven,
    SelfTransfer,
    StoreError,
    StoreUnavailable,
    UnknownAccount,
    UnknownGame,
)
from .languages import UserLanguage
from .models import (
    ALL_SEASONS,
    CURRENT_SEASON,
    MAX_AMOUNT,
    SYSTEM_ACTOR,
    AuditReport,
    GameEvent,
    GameOutcome,
    GameRecord,
    LeaderboardPage,
    LeaderboardRow,
    LedgerLine,
    PlayerResult,
    Season,
    SeasonSchedule,
    SeatResult,
    Series,
    Transfer,
)
from .privacy import Forgotten, MemberBusy, MemberData
from .records import (
    GameSummary,
    HeadToHead,
    HistoryPage,
    RatingLine,
    RecentResult,
    UserStats,
    YakuTally,
)
from .scope import EVERY_SERVER, Scope
from .settings import GuildSettings
from .store import Store
from .trends import TrendKey, TrendPoint

__all__ = [
    "UserLanguage",
    "Store", "GuildSettings", "default_db_path", "default_migrations_dir",
    "MAX_AMOUNT", "SYSTEM_ACTOR", "ALL_SEASONS", "CURRENT_SEASON", "Season", "SeasonSchedule", "Series",
    "AuditReport", "GameEvent", "GameOutcome", "GameRecord", "LeaderboardPage", "LeaderboardRow",
    "LedgerLine", "PlayerResult", "SeatResult", "Transfer",
    "TrendKey", "TrendPoint",
    "GameSummary", "HeadToHead", "HistoryPage", "RatingLine", "RecentResult", "UserStats", "YakuTally",
    "StoreError", "InvalidInput", "InvalidAmount", "SelfTransfer", "InvalidSetting", "InvalidGame",
    "InvalidResult", "InsufficientFunds", "AlreadyClaimed", "UnknownAccount", "UnknownGame",
    "GameNotRunning", "DuplicateAction", "NotDriven", "IdempotencyConflict", "MigrationError",
    "StoreUnavailable",
    "Forgotten", "MemberBusy", "MemberData",
    "Scope", "EVERY_SERVER",
]
