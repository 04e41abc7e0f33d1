"""What people see of a game: view-models and one-line texts, per game.

The cogs and the table manager call these functions; each dispatches to the game's presenter
(``PRESENTER`` of the module its descriptor names, a :class:`bot.presenters.base.Presenter`).
Pure functions, no Discord. Only public information goes into a table view (it is posted in the channel); a hand
view is built for its owner only.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.games.base import Action
from bot.games.descriptor import descriptor
from bot.presenters.base import LABEL_MAX, Presenter, card_name
from bot.words import shorten
from rendering.view import HandView, SummaryView, TableView

__all__ = ["action_label", "action_style", "card_name", "describe_event", "for_game", "hand_actions",
           "hand_fields", "hand_view", "log_lines", "narrated", "posts_summary", "summary_view",
           "table_view", "yaku_name"]


@cache
def for_game(game: str) -> Presenter:
    """The presenter of ``game``, the module its descriptor names (a plain :class:`Presenter` for
    a game without its own)."""
    try:
        module = descriptor(game).presenter
    except KeyError:
        module = None
    if module is not None:
        return importlib.import_module(module).PRESENTER
    generic = type(f"{game.title()}Presenter", (Presenter,), {"game": game})
    return generic()


def describe_event(game: str, event: dict[str, Any], names: Sequence[str]) -> str | None:
    return for_game(game).describe_event(event, names)


def narrated(game: str, events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """The events of ``events`` that make a line of the table's log (:func:`describe_event`):
    what a table keeps of its recent moves, to be narrated where it is shown, in that place's
    language."""
    presenter = for_game(game)
    return [e for e in events if presenter.describe_event(e, names)]


def log_lines(game: str, events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """A table's log: one line per event, in the language being spoken."""
    presenter = for_game(game)
    return [line for e in events if (line := presenter.describe_event(e, names))]


def table_view(obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
               title: str | None = None) -> TableView:
    return for_game(obs["game"]).table_view(obs, names, last_move=last_move, title=title)


def hand_view(obs: dict[str, Any]) -> HandView:
    return for_game(obs["game"]).hand_view(obs)


def hand_actions(obs: dict[str, Any]) -> list[tuple[int | None, Action]]:
    return for_game(obs["game"]).hand_actions(obs)


def hand_fields(obs: dict[str, Any]) -> list[tuple[str, str]]:
    return for_game(obs["game"]).hand_fields(obs)


def action_label(game: str, action: Action) -> str:
    """A move's button text, at most :data:`LABEL_MAX` characters and cut only at a word."""
    return shorten(for_game(game).action_label(action), LABEL_MAX)


def action_style(game: str, action: Action) -> str:
    return for_game(game).action_style(action)


def summary_view(game: str, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
    return for_game(game).summary_view(event, names)


def posts_summary(game: str, event: dict[str, Any]) -> bool:
    """Whether ``event`` is posted as a summary picture of its own (:func:`summary_view`)."""
    return for_game(game).posts_summary(event)


def yaku_name(game: str, slug: str) -> str:
    return for_game(game).yaku_name(slug)
