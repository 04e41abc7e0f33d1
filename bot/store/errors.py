"""Exceptions of the store. Each carries the facts of its refusal as attributes and builds no
sentence: the surface that shows it phrases it in the language being spoken
(:func:`bot.refusal_text.sentence`, with each surface's markup). ``str()`` of one is a plain English line for the logs.

A refusal without a class of its own names itself with a ``code`` (``"amount_too_large"``) and
its facts as keywords (``most=...``), which become attributes too and are kept in ``facts``.

Each refusal happens before anything is written (or rolls the whole transaction back), so a caught
:class:`StoreError` always means "nothing changed".
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.refusal import Refusal

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
    "NotDriven",
    "IdempotencyConflict",
    "MigrationError",
    "StoreUnavailable",
]


_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def refuse_nul(text: str, what: str, error: type[Exception] | None = None) -> str:
    """``text`` unless it holds the NUL character, as such or escaped in JSON: PostgreSQL cannot
    store it, so no database of the store accepts it (``error``: the class to raise)."""
    if "\x00" in text or ("\\u0000" in text and _JSON_NUL.search(text)):
        raise (error or InvalidInput)(f"{what} must not contain the NUL character.")
    return text


class StoreError(Refusal):
    """Base of every refusal by the store; nothing was written.

    ``code`` names a refusal that has no class of its own (empty: the class says it all, or the
    message is a plain English line about a malformed argument, a programming error). ``facts``
    holds what the refusal is about; each fact is an attribute too.
    """


class InvalidInput(StoreError, ValueError):
    """An argument is malformed: the caller (or the user typing it) must change it."""


class InvalidAmount(InvalidInput):
    """An amount is not a positive integer within the allowed range."""


class SelfTransfer(InvalidInput):
    """A user tried to send chips to themselves."""

    def __init__(self) -> None:
        super().__init__("a transfer from a user to themselves")


class InvalidSetting(InvalidInput):
    """A server setting has a value it does not allow."""


class InvalidGame(InvalidInput):
    """A new game's players, rules, state or seed are malformed."""


class InvalidResult(InvalidInput):
    """A game result does not fit the game (seats, outcomes, chip deltas, pot shares)."""


class InsufficientFunds(StoreError):
    """An account holds fewer chips than the operation needs (``currency``: the server's name
    for its chips)."""

    def __init__(self, user_id: int, balance: int, needed: int, currency: str = "chips") -> None:
        self.user_id, self.balance, self.needed, self.currency = user_id, balance, needed, currency
        super().__init__(f"user {user_id} has {balance} {currency} but {needed} are needed")


class AlreadyClaimed(StoreError):
    """The daily chips were already claimed this UTC day."""

    def __init__(self, next_claim_at: datetime) -> None:
        self.next_claim_at = next_claim_at
        super().__init__(f"the daily chips were already claimed; next claim at {next_claim_at.isoformat()}")


class UnknownAccount(StoreError):
    """The user has no account on this server yet."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(f"user {user_id} has no account on this server")


class UnknownGame(StoreError):
    """No game with this id exists (on this server)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id} does not exist")


class GameNotRunning(StoreError):
    """The game is finished or cancelled, so it takes no more actions or settlements
    (``status``: ``"finished"``, ``"cancelled"`` or ``"running"``)."""

    def __init__(self, game_id: int, status: str) -> None:
        self.game_id, self.status = game_id, status
        super().__init__(f"game {game_id} is {status}")


class DuplicateAction(StoreError):
    """An action's sequence number is not above the last one saved: a double click or a replay."""

    def __init__(self, game_id: int, seq: int, last_seq: int) -> None:
        self.game_id, self.seq, self.last_seq = game_id, seq, last_seq
        super().__init__(f"game {game_id}: move {seq} is not after the last saved move {last_seq}")


class NotDriven(StoreError):
    """The game is driven by another process of the bot now: its shard key (``shard_key``) is not
    among this process's shards, so this process writes nothing of it and lets its table go."""

    def __init__(self, game_id: int, shard_key: int | None) -> None:
        self.game_id, self.shard_key = game_id, shard_key
        super().__init__(f"game {game_id} is driven by the process of shard key {shard_key} now")


class IdempotencyConflict(StoreError):
    """An idempotency key was reused for a different operation."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"the request key {key!r} was already used for a different operation")


class MigrationError(StoreError):
    """The database schema cannot be brought to the version this code expects."""


class StoreUnavailable(StoreError):
    """The database cannot serve the request (read-only, full, corrupt, locked, I/O failure).

    Users see one sentence for every problem; ``problem`` (a short label such as ``"full"``) and
    ``detail`` (SQLite's own words) are for the log, which the store writes once per episode.
    """

    def __init__(self, problem: str, detail: str = "") -> None:
        self.problem, self.detail = problem, detail
        super().__init__(f"the database is unavailable ({problem})" + (f": {detail}" if detail else ""))
