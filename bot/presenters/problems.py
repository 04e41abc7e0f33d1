"""What a refusal of the engine says: the rules' errors carry data (:class:`bot.games.base.GameError`
with a ``code`` and its facts) and this module phrases them in the language being spoken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import GameError
from bot.i18n import N_, t

__all__ = ["rules_problem"]


def _listed(values: Any) -> str:
    return ", ".join(map(str, values))


# code -> (English msgid, its fields from the error's facts; None: the msgid has no fields)
_Fields = Callable[[GameError], dict[str, Any]] | None
_CODES: dict[str, tuple[str, _Fields]] = {
    "not_a_choice": (N_("{name} must be one of {values}; got {value}"),
                     lambda e: {"name": e.name, "values": _listed(e.values), "value": repr(e.value)}),
    "not_a_preset": (N_("preset must be one of {values}; got {value}"),
                     lambda e: {"values": _listed(e.values), "value": repr(e.value)}),
    "whole_number": (N_("{name} must be a whole number from {low} to {high}"),
                     lambda e: {"name": e.name, "low": e.low, "high": e.high}),
    "whole_number_got": (N_("{name} must be a whole number from {low} to {high}; got {value}"),
                         lambda e: {"name": e.name, "low": e.low, "high": e.high, "value": repr(e.value)}),
    "match_length": (N_("a match needs a number of rounds or a target score"), None),
    "unknown_preset": (N_("unknown preset {name}; choose one of {values}"),
                       lambda e: {"name": repr(e.name), "values": _listed(e.values)}),
    "unknown_options": (N_("unknown options: {names}"), lambda e: {"names": _listed(e.names)}),
    "ante_buy_in": (N_("the buy-in must be at least twice the ante"), None),
    "unknown_yaku": (N_("custom_points: unknown yaku {slug}"), lambda e: {"slug": repr(e.slug)}),
    "bankroll_zero_sum": (N_("bankroll needs zero_sum: without it nobody loses points"), None),
    "zero_sum_play_out": (N_("zero-sum scoring needs every card played: keep play_out_stock"), None),
    "sakura_players": (N_("Sakura is a game for 2 to 7 players"), None),
    "team_players": (N_("teams of {size} need {counts} players"),
                     lambda e: {"size": e.size, "counts": " or ".join(map(str, e.counts))}),
}


def rules_problem(exc: BaseException) -> str:
    """Why rules (or an action) were refused, in the language being spoken: an engine error with
    a ``code`` phrased from its facts; any other (an error raised with a message, a ValueError of
    a rules value) in its own words."""
    code = getattr(exc, "code", "") if isinstance(exc, GameError) else ""
    if code in _CODES:
        message, fields = _CODES[code]
        return t(message, **fields(exc)) if fields else t(message)  # type: ignore[arg-type]
    return str(exc)
