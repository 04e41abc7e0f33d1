"""Greedy Hana-Awase player: the one-ply capture evaluation of :mod:`bot.ai.mushi` with
Hana-Awase's card values and yaku (paid by every opponent in zero-sum scoring)."""

from __future__ import annotations

from typing import Any

from bot.cards import DECK, Kind
from bot.games.hana_awase import Rules, table_yaku, total

from .mushi import FishingGreedy


class GreedyPlayer(FishingGreedy):
    """Card points plus yaku; a yaku counts once per opponent when the scoring is zero-sum."""

    def card_value(self, index: int, observation: dict[str, Any]) -> float:
        c = DECK[index]
        if c.kind is Kind.CHAFF:
            return float(observation["rules"].get("chaff_value", 1))
        return c.value

    def yaku_value(self, pile: int, observation: dict[str, Any]) -> float:
        rules = Rules.from_dict(observation["rules"])
        weight = observation["num_players"] - 1 if rules.scoring == "zero_sum" else 1
        return weight * total(table_yaku([pile], rules)[0])


__all__ = ["GreedyPlayer"]
