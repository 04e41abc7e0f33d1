"""Greedy Hana-Awase player: the one-ply capture evaluation of :mod:`bot.ai.mushi` with
Hana-Awase's card values and yaku (paid by every opponent in zero-sum scoring)."""

from __future__ import annotations

from typing import Any

from bot.cards import CHAFF, VALUE_OF
from bot.games.hana_awase import Rules
from bot.games.hana_awase.scoring import YAKU_CARDS, table_totals

from .mushi import FishingGreedy, Position


class GreedyPlayer(FishingGreedy):
    """Card points plus yaku; a yaku counts once per opponent when the scoring is zero-sum."""

    rules_type = Rules
    yaku_cards = YAKU_CARDS

    def card_value(self, index: int, pos: Position) -> float:
        if (CHAFF >> index) & 1:
            return float(pos.rules.chaff_value)
        return VALUE_OF[index]

    def yaku_value(self, pile: int, pos: Position) -> float:
        weight = pos.num_players - 1 if pos.rules.scoring == "zero_sum" else 1
        return weight * table_totals([pile], pos.rules)[0]


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``)."""
    from bot.ai.search.worlds import playout
    from bot.games.hana_awase.game import HanaAwaseRound

    return playout(HanaAwaseRound, obs)


__all__ = ["build_world", "GreedyPlayer"]
