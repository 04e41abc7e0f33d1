"""Exceptions of the store. Every message is fit to show the user who caused it.

Each refusal happens before anything is written (or rolls the whole transaction back), so a caught
:class:`StoreError` always means "nothing changed".
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.i18n import N_, NP_, number, t, tp
from bot.words import amount

__all__ = [
    "refuse_nul",
    "StoreError",
    "InvalidInput",
    "InvalidAmount",
    "SelfTransfer",
    "InvalidSetting",
    "InvalidGame",
    "InvalidResult",
    "InsufficientFunds",
    "AlreadyClaimed",
    "UnknownAccount",
    "UnknownGame",
    "GameNotRunning",
    "DuplicateAction",
    "IdempotencyConflict",
    "MigrationError",
    "StoreUnavailable",
]


# A game's status as a refusal names it.
STATUSES = {"finished": NP_("status", "finished"), "cancelled": NP_("status", "cancelled"),
            "running": NP_("status", "running")}


_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def refuse_nul(text: str, what: str, error: type[Exception] | None = None) -> str:
    """``text`` unless it holds the NUL character, as such or escaped in JSON: PostgreSQL cannot
    store it, so no database of the store accepts it (``error``: the class to raise)."""
    if "\x00" in text or _JSON_NUL.search(text):
        raise (error or InvalidInput)(f"{what} must not contain the NUL character.")
    return text


class StoreError(Exception):
    """Base of every refusal by the store; nothing was written."""


class InvalidInput(StoreError, ValueError):
    """An argument is malformed: the caller (or the user typing it) must change it."""


class InvalidAmount(InvalidInput):
    """An amount is not a positive integer within the allowed range."""


class SelfTransfer(InvalidInput):
    """A user tried to send chips to themselves."""

    def __init__(self) -> None:
        super().__init__(t("You cannot send chips to yourself."))


class InvalidSetting(InvalidInput):
    """A server setting has a value it does not allow."""


class InvalidGame(InvalidInput):
    """A new game's players, rules, state or seed are malformed."""


class InvalidResult(InvalidInput):
    """A game result does not fit the game (seats, outcomes, chip deltas, pot shares)."""


class InsufficientFunds(StoreError):
    """An account holds fewer chips than the operation needs."""

    def __init__(self, user_id: int, balance: int, needed: int, currency: str = "chips") -> None:
        self.user_id, self.balance, self.needed = user_id, balance, needed
        super().__init__(t("{user} has {balance} but {needed} are needed.", user=f"<@{user_id}>",
                           balance=amount(balance, currency), needed=number(needed)))


class AlreadyClaimed(StoreError):
    """The daily chips were already claimed this UTC day."""

    def __init__(self, next_claim_at: datetime) -> None:
        self.next_claim_at = next_claim_at
        stamp = int(next_claim_at.timestamp())
        super().__init__(t("You already claimed your daily chips today; come back {when}.",
                           when=f"<t:{stamp}:R>"))


class UnknownAccount(StoreError):
    """The user has no account on this server yet."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(t("{user} has no account on this server yet.", user=f"<@{user_id}>"))


class UnknownGame(StoreError):
    """No game with this id exists (on this server)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(t("Game #{id} does not exist.", id=game_id))


class GameNotRunning(StoreError):
    """The game is finished or cancelled, so it takes no more actions or settlements."""

    def __init__(self, game_id: int, status: str) -> None:
        self.game_id, self.status = game_id, status
        super().__init__(t("Game #{id} is already {status}.", id=game_id,
                           status=tp("status", STATUSES[status]) if status in STATUSES else status))


class DuplicateAction(StoreError):
    """An action's sequence number is not above the last one saved: a double click or a replay."""

    def __init__(self, game_id: int, seq: int, last_seq: int) -> None:
        self.game_id, self.seq, self.last_seq = game_id, seq, last_seq
        super().__init__(t("That move was already taken (game #{id}, move {seq}; last saved move "
                           "{last}).", id=game_id, seq=seq, last=last_seq))


class IdempotencyConflict(StoreError):
    """An idempotency key was reused for a different operation."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(t("This request was already used for a different transfer."))


class MigrationError(StoreError):
    """The database schema cannot be brought to the version this code expects."""


class StoreUnavailable(StoreError):
    """The database cannot serve the request (read-only, full, corrupt, locked, I/O failure).

    The message is the one sentence users see; ``problem`` (a short label such as ``"full"``) and
    ``detail`` (SQLite's own words) are for the log, which the store writes once per episode.
    """

    USER_MESSAGE = N_("The bot's database is having trouble; nothing was changed. "
                      "Please try again later.")

    def __init__(self, problem: str, detail: str = "") -> None:
        self.problem, self.detail = problem, detail
        super().__init__(t(self.USER_MESSAGE))
