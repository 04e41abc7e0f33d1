"""Pure rules engines, one module per game; no Discord, no I/O.

Every game module exposes ``GAME``, ``PLAYERS`` (min, max), ``Rules``, ``Round``, ``new_round``,
``new_match(num_players, rules, seed, shuffle)``, ``match_from_dict`` and ``score_yaku``: the
engine contract of ``bot.games.base``. ``shuffle`` (newest by default) is how every deck of the
match is shuffled (``bot.games.rng.SHUFFLES``); a match keeps it in its state, so a game replays
and resumes dealt as it was. :func:`game_module` finds one by name; a game's other facts are
its descriptor (:mod:`bot.games.descriptor`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .descriptor import descriptors

GAMES: dict[str, str] = {d.slug: d.engine for d in descriptors()}
"""The games the bot offers in Discord, each with its engine module (from the descriptors)."""

ENGINES: dict[str, str] = dict(GAMES)
"""Every rules engine (the arena, the benchmarks and replays look games up here); today every
engine is also offered in Discord."""


def game_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(ENGINES[name])
    except KeyError:
        raise KeyError(f"unknown game {name!r}; choose one of {', '.join(ENGINES)}") from None
