"""The table service and the tables it runs.

:mod:`bot.tables.table` is a running table's state (:class:`Table`) and how it is stored;
:mod:`bot.tables.manager` is the service that alone changes it (:class:`TableManager`: one lock
per game, every action stored before it is shown, turn timers, AI seats, settlement);
:mod:`bot.tables.surface` is the port through which it tells the places a table is shown. The
port names the state alone, not the service, so the service's dependency on it runs one way.
"""

from bot.tables.manager import (
    AI_LEVELS,
    RETRY_DELAYS,
    AlreadyStarted,
    EarlierTurn,
    Refused,
    Stopping,
    StoreTrouble,
    TableError,
    TableManager,
    ai_seat,
    choose_action,
)
from bot.tables.table import (
    ANSWERED_HOMES,
    HOME_ACTIVITY,
    HOME_CHANNEL,
    HOME_GUEST,
    HOME_PRIVATE,
    LOG_LENGTH,
    STATE_VERSION,
    Later,
    Table,
    is_ai,
)

__all__ = ["AI_LEVELS", "ANSWERED_HOMES", "HOME_ACTIVITY", "HOME_CHANNEL", "HOME_GUEST", "HOME_PRIVATE",
           "LOG_LENGTH", "RETRY_DELAYS",
           "STATE_VERSION", "AlreadyStarted", "EarlierTurn", "Later", "Refused", "Stopping", "StoreTrouble", "Table",
           "TableError", "TableManager", "ai_seat", "choose_action", "is_ai"]
