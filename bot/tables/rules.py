"""The rules a new table plays: a preset, then the server's house rules, then the table's own
options; and whether they work at that many seats. Shared by every way a game starts (a
command, a lobby, a rematch, a tournament round).
"""

from __future__ import annotations

import functools
from typing import Any

from bot.games import game_module
from bot.games.base import InvalidRules
from bot.i18n import t
from bot.presenters.problems import rules_problem
from bot.settlement import is_betting
from bot.tables import TableError
from bot.words import plural, shorten
from rendering.view import GAME_NAMES

MAX_STAKE = 1_000_000
PROBLEM_LENGTH = 300
"""Characters of a rule problem a refusal quotes: the sentence around it stays readable."""


def build_rules(game: str, house: dict[str, Any], preset: str | None, rounds: int | None,
                target: int | None, teams: str | None = None, stake: int = 0,
                options: dict[str, int] | None = None):
    """The game's rules: a preset, then the server's house rules, then this game's options. A
    betting game's stake is its buy-in: the chips each seat starts with are real chips.
    ``options``: rules of this table only (Seotda's ante and raise limit), checked by the rules."""
    module = game_module(game)
    changes = dict(house)
    if teams is not None:
        changes["teams"] = teams
    if stake and is_betting(game):
        changes["buy_in"] = stake
    changes.update(options or {})
    name = preset or changes.pop("preset_name", None) or next(iter(module.Rules.PRESETS))
    changes.pop("preset_name", None)
    if target is not None:  # first to the target; with no round count given, no round limit
        changes["target_score"] = target
        changes["rounds"] = rounds or 0
    elif rounds is not None:
        changes["rounds"] = rounds
    return module.Rules.preset(name, **changes)


def table_rules(settings: Any, game: str, seats: int, spec: dict[str, Any], stake: int = 0):
    """The rules a table of ``seats`` plays; TableError (nothing started) if they do not work."""
    module = game_module(game)
    low, high = module.PLAYERS
    if not low <= seats <= high:
        raise TableError(t("{game} is played by {low} to {players}.", game=GAME_NAMES[game], low=low,
                           players=plural(high, "player")))
    try:
        rules = build_rules(game, settings.rules_for(game), spec.get("preset"), spec.get("rounds"),
                            spec.get("target"), spec.get("teams"), stake, spec.get("options"))
    except (InvalidRules, ValueError) as exc:
        raise TableError(t("Those rules don't work with {players}: {problem}.", players=plural(seats, "player"),
                           problem=shorten(rules_problem(exc), PROBLEM_LENGTH))) from None
    problem = seats_problem(game, seats, rules)
    if problem:
        raise TableError(t("Those rules don't work with {players}: {problem}.", players=plural(seats, "player"),
                           problem=shorten(problem, PROBLEM_LENGTH)))
    return rules


def seats_problem(game: str, seats: int, rules: Any) -> str | None:
    """Why ``rules`` do not work at a table of ``seats`` (None: they do), in the language being
    spoken."""
    refusal = _seats_refusal(game, seats, rules)
    return None if refusal is None else rules_problem(refusal)


@functools.lru_cache(maxsize=512)
def _seats_refusal(game: str, seats: int, rules: Any) -> Exception | None:
    """The engine's refusal of ``rules`` at a table of ``seats`` (None: they work). Dealing a
    match is how the game says so; rules are immutable values, so each answer is kept rather than
    dealt again for every command of a busy server (as data: each press phrases it in its own
    language)."""
    try:
        game_module(game).new_match(seats, rules, 0)
    except (InvalidRules, ValueError) as exc:
        return exc.with_traceback(None)
    return None
