"""Greedy Mushi player, and the one-ply evaluation it shares with Hana-Awase.

For each legal action it estimates what the action captures from the observation alone (the
played or turned card and the field cards it takes), values that by card points plus the yaku it
completes, and subtracts what a card laid on the field offers the next player. Ties go to the
first action, so the choice depends only on the observation.
"""

from __future__ import annotations

from typing import Any

from bot.cards import DECK, MONTH_MASKS, card, mask
from bot.games.base import Action
from bot.games.mushi import Rules, score_yaku, total
from bot.games.rng import Rng

LIGHTNING = card("lightning").index


class FishingGreedy:
    """One-ply greedy over capture value; subclasses give the card and yaku values."""

    name = "greedy"

    def card_value(self, index: int, observation: dict[str, Any]) -> float:
        return DECK[index].value

    def yaku_value(self, pile: int, observation: dict[str, Any]) -> float:
        raise NotImplementedError

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        seat = observation["seat"]
        pile = mask(observation["captured"][seat])
        field = mask(observation["field"])
        base = self.yaku_value(pile, observation)
        best, best_score = legal[0], float("-inf")
        for action in legal:
            score = self._score(action, field, pile, base, observation)
            if score > best_score:
                best, best_score = action, score
        return best

    def _score(self, action: Action, field: int, pile: int, base: float, obs: dict[str, Any]) -> float:
        if action.card is None:
            return 0.0  # a forced draw or a single decision
        played = card(action.card).index
        taken = self._taken(action, played, field, obs)
        if not taken:
            # Laid on the field: the opponents may take it, and it helps them to its month.
            return -0.5 * self.card_value(played, obs) - (0.3 if played == LIGHTNING else 0.0)
        gained = taken | (1 << played)
        value = sum(self.card_value(i, obs) for i in range(48) if gained >> i & 1)
        return value + (self.yaku_value(pile | gained, obs) - base)

    @staticmethod
    def _taken(action: Action, played: int, field: int, obs: dict[str, Any]) -> int:
        if action.target is not None:
            return 1 << card(action.target).index
        if played == LIGHTNING and obs.get("lightning_wild"):
            return 0
        same = field & MONTH_MASKS[DECK[played].month]
        if obs.get("lightning_wild"):
            same &= ~(1 << LIGHTNING)  # a wild lightning on the field is no month mate
        return same if same.bit_count() in (1, 3) else 0


class GreedyPlayer(FishingGreedy):
    """Greedy Mushi: card points plus yaku, which count double in a zero-sum settlement."""

    def yaku_value(self, pile: int, observation: dict[str, Any]) -> float:
        rules = Rules.from_dict(observation["rules"])
        return 2 * total(score_yaku(pile, rules))


__all__ = ["FishingGreedy", "GreedyPlayer"]
