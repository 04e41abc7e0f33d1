"""Deals anyone can verify: commit to a secret, mix in what the bot cannot choose, reveal at the end.

Before a match's first deal the bot draws a secret *server seed* and shows its SHA-256, the
*commitment*. The seed that deals (the match seed of :mod:`bot.games`) is derived from the server
seed and the ids Discord gave the interactions that seated the players after the commitment was
shown (the presses of Join, Accept and Start), which the bot cannot choose. When the match ends the
server seed is revealed, and anyone can recompute the commitment, the match seed and every deal
(docs/fair-deals.md; ``python -m bot.verify``). No Discord import: the store, the tables and the
verifier share this.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, replace
from typing import Any

from bot.games.rng import Rng

__all__ = ["DERIVATION", "LABEL", "ROLES", "Input", "FairDeal", "new_server_seed", "commitment_of",
           "derive_seed", "derivation_text", "round_seed", "is_server_seed", "is_commitment"]

DERIVATION = 1
"""The version of the derivation below; a record names the one it was dealt with."""
LABEL = "hanafuda-deal-1"
"""The text that starts what is hashed into the match seed, so that it never hashes to the
commitment itself (a match with no inputs would otherwise give its seed away)."""
ROLES = ("join", "accept", "start", "command")
"""What seated a player: a Join press on a lobby, an Accept on a challenge or rematch, the host's
Start, or the command that started a game in one step (known to the bot as it committed)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_ID = re.compile(r"[1-9][0-9]{0,19}")


def new_server_seed() -> str:
    """A fresh secret: 32 bytes from the operating system's generator, as 64 hex digits."""
    return secrets.token_hex(32)


def is_server_seed(text: Any) -> bool:
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


is_commitment = is_server_seed  # both are 64 lowercase hex digits


def commitment_of(server_seed: str) -> str:
    """SHA-256 of the server seed's 64 hex digits (as ASCII text), in hex: what is shown first."""
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def derivation_text(server_seed: str, ids: list[str] | tuple[str, ...]) -> str:
    """The text whose SHA-256 gives the match seed: the label, the server seed, then each
    interaction id, joined by colons."""
    return ":".join([LABEL, server_seed, *ids])


def derive_seed(server_seed: str, ids: list[str] | tuple[str, ...]) -> int:
    """The match seed: the first 8 bytes of SHA-256 of :func:`derivation_text`, read big-endian,
    shifted right by one bit (a whole number below 2**63, as every stored seed is)."""
    digest = hashlib.sha256(derivation_text(server_seed, ids).encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def round_seed(match_seed: int, round_number: int) -> int:
    """The seed of one round's deal, as :class:`bot.games.base.Match` derives it."""
    return Rng(match_seed).fork(round_number).next64()


@dataclass(frozen=True, slots=True)
class Input:
    """One interaction that seated a player: its role (:data:`ROLES`) and Discord's id for it,
    as decimal text (Discord ids exceed what JSON numbers hold exactly)."""

    role: str
    id: str

    def __post_init__(self) -> None:
        if self.role not in ROLES or not isinstance(self.id, str) or not _ID.fullmatch(self.id):
            raise ValueError(f"not an input of a deal: {self.role!r} {self.id!r}")

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "id": self.id}

    @classmethod
    def from_dict(cls, data: Any) -> Input:
        if not isinstance(data, dict):
            raise ValueError("an input is an object with a role and an id")
        return cls(data.get("role"), data.get("id"))


@dataclass(frozen=True, slots=True)
class FairDeal:
    """A match's commitment and inputs; its server seed only where it may be known: by the table
    manager that deals, and by everyone once the match has ended (the store keeps it till then)."""

    commitment: str
    inputs: tuple[Input, ...]
    server_seed: str | None = None
    derivation: int = DERIVATION
    # When the seed is revealed, where that is not the game's end (ms): a day's deal, which
    # deals every member's game of the day, is revealed once the day is over (bot.store.daily).
    reveal_at: int | None = None

    @classmethod
    def fresh(cls, inputs: list[Input] | tuple[Input, ...] = ()) -> FairDeal:
        return cls.of(new_server_seed(), inputs)

    @classmethod
    def of(cls, server_seed: str, inputs: list[Input] | tuple[Input, ...] = ()) -> FairDeal:
        if not is_server_seed(server_seed):
            raise ValueError("a server seed is 64 lowercase hex digits")
        return cls(commitment_of(server_seed), tuple(inputs), server_seed)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(i.id for i in self.inputs)

    @property
    def seed(self) -> int:
        """The match seed (only with the server seed at hand)."""
        if self.server_seed is None:
            raise ValueError("the server seed is not revealed")
        return derive_seed(self.server_seed, self.ids)

    @property
    def revealed(self) -> bool:
        return self.server_seed is not None

    @property
    def after_commitment(self) -> bool:
        """Whether some input came after the commitment was shown (not the one-step command):
        only then could the bot not have chosen the server seed knowing every input."""
        return any(i.role != "command" for i in self.inputs)

    def sealed(self) -> FairDeal:
        """The same without the server seed: what a running table may show."""
        return replace(self, server_seed=None)

    def inputs_json(self) -> list[dict[str, str]]:
        return [i.to_dict() for i in self.inputs]
