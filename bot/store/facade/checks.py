"""The argument checks every call of the store makes before it touches the database: Discord
ids, the actor of a change, and short texts.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInput, refuse_nul

MAX_TEXT = 500


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
