"""The bot as it runs: the Discord client together with every other surface its settings turn
on. The surfaces sit side by side and import none of each other, so they meet here, above both.
``python -m bot``, the load benchmark's bot and the tests' bot processes are all put together
here, so none of them runs without a surface the settings ask for."""

from __future__ import annotations

from typing import Any, TypeVar

from bot.activity.server import activity_for
from bot.config import Settings
from bot.discord_ui.client import HanafudaBot

__all__ = ["assemble"]

Bot = TypeVar("Bot", bound=HanafudaBot)


def assemble(settings: Settings, kind: type[Bot] = HanafudaBot, **options: Any) -> Bot:  # type: ignore[assignment]
    """A client of class ``kind`` (a subclass adds what a harness measures) with the Activity's
    server when ACTIVITY_PORT is set; ``options`` go to the client (``sync_only``...)."""
    return kind(settings, activity=activity_for(settings), **options)
