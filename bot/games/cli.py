"""What the study command lines share (``python -m bot.games simulate``, ``python -m bot.ai
arena``, ``onestep`` and ``ratings``): counts of 1 or more, and a check of the game, its AI
levels, its rules and its seat count before anything is played. A bad input is then one
sentence and exit code 2, not a traceback a minute into a run."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from bot.ai import make_player
from bot.games import game_module
from bot.presenters.problems import rules_problem


class BadInput(Exception):
    """What was wrong with the command line, as one sentence."""


def parse_rules(module: ModuleType, preset: str | None, sets: Iterable[str]) -> Any:
    """The rules of ``preset`` with each ``OPTION=VALUE`` of ``sets`` applied; a ValueError (or
    :class:`~bot.games.base.InvalidRules`) names what was wrong."""
    rules = module.Rules.preset(preset) if preset else module.Rules()
    changes = {}
    for item in sets:
        key, equals, raw = item.partition("=")
        if not equals or not key:
            raise ValueError(f"--set takes OPTION=VALUE, got {item!r}")
        if key not in rules.to_dict():
            raise ValueError(f"there is no rule option {key!r}; the options are "
                             f"{', '.join(sorted(rules.to_dict()))}")
        current = getattr(rules, key)
        if isinstance(current, bool):
            value: Any = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(current, int):
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{key} takes a whole number, got {raw!r}") from None
        else:
            value = raw
        changes[key] = value
    return rules.replace(**changes) if changes else rules


def checked(game: str, levels: Iterable[str], preset: str | None = None, sets: Iterable[str] = (),
            rounds: int | None = None, players: int | None = None) -> tuple[ModuleType, Any]:
    """The game's module and the rules asked for, once the game, every level, the rules and the
    seat count (default: the game's smallest) are known to work; else :class:`BadInput`."""
    try:
        module = game_module(game)
        rules = parse_rules(module, preset, sets)
        if rounds is not None:
            rules = rules.replace(rounds=rounds)
        for level in dict.fromkeys(levels):
            make_player(level, game)
        module.new_match(players or module.PLAYERS[0], rules, 1)
    except KeyError as exc:  # an unknown game or level, named by the registry
        raise BadInput(str(exc.args[0])) from None
    except ValueError as exc:  # InvalidRules too: phrased from its facts
        raise BadInput(rules_problem(exc)) from None
    return module, rules


def refuse(problem: BadInput | str) -> int:
    print(f"error: {problem}", file=sys.stderr)
    return 2
