"""The sentence a refusal is shown as on Discord: :mod:`bot.refusal_text`'s, with Discord's
markup (a member mentioned as ``<@id>``; a moment as ``<t:...:R>``, which each reader's client
shows in their own time zone)."""

from __future__ import annotations

from datetime import datetime

from bot.refusal_text import (
    CALLED_OFF,
    DONE_UNSEEN,
    MAYBE_DONE,
    OOPS,
    STATUSES,
    UNAVAILABLE,
    Markup,
)
from bot.refusal_text import sentence as _sentence
from bot.refusal_text import told as _told

__all__ = ["CALLED_OFF", "DISCORD", "DONE_UNSEEN", "MAYBE_DONE", "OOPS", "STATUSES", "UNAVAILABLE", "sentence", "told"]


def _relative(at: datetime) -> str:
    return f"<t:{int(at.timestamp())}:R>"


DISCORD = Markup(member=lambda user_id: f"<@{user_id}>", moment=_relative)


def sentence(exc: BaseException) -> str:
    """What ``exc`` tells the user on Discord (:func:`bot.refusal_text.sentence`)."""
    return _sentence(exc, DISCORD)


def told(exc: BaseException) -> str:
    """What a refusal, the table service's included, tells the user on Discord
    (:func:`bot.refusal_text.told`)."""
    return _told(exc, DISCORD)
