"""Pure rules engines, one module per game; no Discord, no I/O.

Every game module exposes ``GAME``, ``PLAYERS`` (min, max), ``Rules``, ``Round``, ``new_round``,
``new_match(num_players, rules, seed)``, ``match_from_dict`` and ``score_yaku``: the engine
contract of ``bot.games.base``. :func:`game_module` finds one by name.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES: dict[str, str] = {
    "koikoi": "bot.games.koikoi",
    "gostop": "bot.games.gostop",
    "mushi": "bot.games.mushi",
    "sakura": "bot.games.sakura",
    "hana_awase": "bot.games.hana_awase",
    "shedding": "bot.games.shedding",
}

ENGINES: dict[str, str] = {**GAMES, "seotda": "bot.games.seotda"}
"""Every rules engine: the games above, which the bot offers in Discord, and Seotda, whose engine,
AI and arena are complete while its Discord command is not offered yet."""


def game_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(ENGINES[name])
    except KeyError:
        raise KeyError(f"unknown game {name!r}; choose one of {', '.join(ENGINES)}") from None
