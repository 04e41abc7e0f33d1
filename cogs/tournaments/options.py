"""The options of ``/tournament create`` and ``/tournament weekly``: their words and choices,
and the rules a tournament of those options plays by."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.i18n import number, t
from bot.presenters.problems import rules_problem
from bot.tables import TableError
from bot.tables.rules import MAX_STAKE, build_rules, seats_problem
from rendering.view import GAME_NAMES

from .messages import FORMAT_NAMES

STARTS_IN = (("in 10 minutes", 10), ("in 30 minutes", 30), ("in 1 hour", 60),
             ("in 2 hours", 120), ("in 6 hours", 360), ("in 24 hours", 1440))
"""When a tournament may start by itself, counted from its creation (the option's choices)."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SIGNUP_BEFORE = (("30 minutes before", 30), ("1 hour before", 60), ("2 hours before", 120),
                 ("6 hours before", 360), ("1 day before", 1440))
"""How long before a weekly tournament's start its sign-up opens (the option's choices)."""


def planned_rules(game: str, format: str, rounds: int, stake: int, preset: str | None,
                  settings: Any) -> Any:
    """The rules a tournament of these options plays by, over the server's house rules; a
    TableError saying what is wrong with them (nothing is stored)."""
    if game not in GAMES:
        raise TableError(t("Choose a game: {games}.", games=", ".join(GAME_NAMES.values())))
    if format not in FORMAT_NAMES:
        raise TableError(t("Choose a format: Swiss, single elimination or round robin."))
    if not 1 <= rounds <= 1000 or not 0 <= stake <= MAX_STAKE:
        raise TableError(t("Rounds go from 1 to {most}; the entry fee from 0 to {fee}.",
                           most=number(1000), fee=number(MAX_STAKE)))
    if preset is not None and preset not in game_module(game).Rules.PRESETS:
        raise TableError(t("Choose a rule set: {presets}.",
                           presets=", ".join(game_module(game).Rules.PRESETS)))
    try:
        rules = build_rules(game, settings.rules_for(game), preset, rounds, None)
    except (InvalidRules, ValueError) as exc:
        raise TableError(t("Those rules don't work: {problem}.",
                           problem=rules_problem(exc)[:300])) from None
    if seats_problem(game, 2, rules):
        raise TableError(t("Tournament tables seat two players; these rules need more."))
    return rules


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=GAME_NAMES[g], value=g) for g in GAMES]


# The options a tournament and a weekly one share: their words and their choices.
OPTION_WORDS = {"game": "The game played at every table",
                "format": "Swiss (by score), single elimination, or round robin (up to 8)",
                "rounds": "Rounds in each match",
                "stake": "Entry fee each player pays into the prize pot",
                "preset": "Rule set (default: the server's house rules)"}
OPTION_CHOICES = {
    "game": _game_choices(),
    "format": [app_commands.Choice(name="Swiss", value="swiss"),
               app_commands.Choice(name="single elimination", value="single_elimination"),
               app_commands.Choice(name="round robin", value="round_robin")],
    "rounds": [app_commands.Choice(name=str(n), value=n) for n in (1, 3, 6, 10, 12)]}
