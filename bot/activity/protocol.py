"""The socket's messages from a page: each one checked for its shape, size and rate before
anything reads it. Whatever fails is refused with a code; nothing in it reaches a table.

A page sends text frames of JSON objects with exactly these keys:

- ``{"type": "hello", "v": 1, "session": <token>, "instance": <Activity instance id>}``, first;
- ``{"type": "press", "game": <id>, "seq": <move number>, "key": <move key>, "n": <nonce>}``;
- ``{"type": "slap", "game": <id>, "n": <nonce>}`` (First Bloom's race);
- ``{"type": "hint", "game": <id>, "n": <nonce>}``: the search's prices of the player's turn, in
  a casual game (:mod:`bot.tables.hints`), answered with a ``hint`` message;
- ``{"type": "rules", "play": <game>, "n": <nonce>}``: how a game is played, at any time,
  answered with a ``rules`` message (:mod:`bot.activity.rules`);
- ``{"type": "board", "play": <game>, "n": <nonce>}``: the board of today's deal of a game, at
  any time, answered with a ``board`` message;
- in the lobby of a channel with no game: ``{"type": "ai", "play": <game>, "level": <AI level>,
  "rounds": 0|1, "n": ...}``, ``{"type": "open", "play": <game>, "seats": <count>, "rounds": 0|1,
  "n": ...}``, ``{"type": "sit", "n": ...}``, ``{"type": "unseat", "n": ...}`` to give a seat up
  (the host's closes the seats), ``{"type": "again", "n": ...}`` to play a finished
  game of the lobby's once more, ``{"type": "lobby", "n": ...}`` to leave a
  finished game for the lobby, and ``{"type": "daily", "play": <game>, "n": ...}`` for the
  player's game of today's deal of a game (private to them).

``n`` rises with every press of a socket: a message sent again is refused before the table.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

VERSION = 1
MAX_MESSAGE = 2048
"""The largest frame a page sends (a press is under 100 bytes): larger closes the socket."""
KEY = re.compile(r"#[0-9]{1,3}|[A-Za-z0-9_:>+]{1,100}")
"""A move's key, as the buttons' custom ids carry it (:data:`bot.discord_ui.controls.MOVE_KEY`)."""
SHAPES: dict[str, dict[str, Any]] = {
    "hello": {"v": int, "session": str, "instance": str},
    "press": {"game": int, "seq": int, "key": str, "n": int},
    "slap": {"game": int, "n": int},
    "hint": {"game": int, "n": int},
    "rules": {"play": str, "n": int},
    "board": {"play": str, "n": int},
    # the lobby of a channel with no game (bot.activity.lobby)
    "ai": {"play": str, "level": str, "rounds": int, "n": int},
    "open": {"play": str, "seats": int, "rounds": int, "n": int},
    "sit": {"n": int},
    "again": {"n": int},
    "unseat": {"n": int},
    "lobby": {"n": int},
    "daily": {"play": str, "n": int},
}
LOBBY = frozenset({"ai", "open", "sit", "unseat", "again", "lobby", "daily"})
"""The messages of the lobby: for no table, so they name none."""
RATE = 8.0
"""Messages a second a page may send on average (a player taps far slower)."""
BURST = 16
"""Messages a page may send at once before the rate applies."""
STRIKES = 32
"""Messages refused for their rate before the socket is closed and its session ended."""
BIGGEST_INT = 2**53


class Refused(Exception):
    """A message that is not one the page sends; ``code`` names why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Message:
    type: str
    fields: dict[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


def parse(text: str) -> Message:
    """The message of a text frame, or :class:`Refused` (``shape``, ``version``, ``key``)."""
    if len(text) > MAX_MESSAGE:
        raise Refused("size")
    try:
        data = json.loads(text)
    except ValueError:
        raise Refused("shape") from None
    if not isinstance(data, dict):
        raise Refused("shape")
    kind = data.get("type")
    shape = SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None or set(data) != {"type", *shape}:
        raise Refused("shape")
    for name, wanted in shape.items():
        value = data[name]
        # bool is an int to Python; a page never sends one where a number goes
        if type(value) is not wanted:
            raise Refused("shape")
        if wanted is int and not 0 <= value < BIGGEST_INT:
            raise Refused("shape")
        if wanted is str and not 1 <= len(value) <= 200:
            raise Refused("shape")
    if kind == "hello" and data["v"] != VERSION:
        raise Refused("version")
    if kind == "press" and not KEY.fullmatch(data["key"]):
        raise Refused("key")
    return Message(kind, {k: v for k, v in data.items() if k != "type"})


class Bucket:
    """A token bucket per socket: :data:`BURST` at once, then :data:`RATE` a second."""

    def __init__(self, now: float, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = now
        self.strikes = 0

    def take(self, now: float) -> bool:
        """Whether a message arriving ``now`` is within the rate (a refusal counts a strike)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False

    @property
    def abusive(self) -> bool:
        return self.strikes >= STRIKES
