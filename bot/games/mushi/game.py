"""Mushi for two players with the 40-card deck (docs/rules/mushi.md; FW-MU, seed 000).

>>> from bot.games import mushi
>>> match = mushi.new_match(seed=7)
>>> events = match.apply(match.legal_actions()[0])

A round: deal 8 to the non-dealer, 8 to the field, 8 to the dealer in packets of 4 (misdeals
redealt), then eight turns each of play-a-card-and-turn-the-stock with the wild lightning of
:mod:`.lightning`. Nobody stops early; the leftovers are handed over and both piles are scored.
"""

from __future__ import annotations

from typing import Any

from bot.cards import MONTH_MASKS, ids_in

from ..base import Event, Match, restored_match
from ..rng import NEWEST_SHUFFLE
from .playout import PlayOutRound, start_match
from .rules import Rules
from .scoring import MUSHI_DECK, settle


class MushiRound(PlayOutRound):
    """One Mushi round. Seat ``dealer`` plays first."""

    GAME = "mushi"
    VERSION = 1
    RULES = Rules

    def __init__(self, rules: Rules, num_players: int = 2, seed: int = 0, dealer: int = 0,
                 round_number: int = 1, _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        if num_players != 2:
            raise ValueError("Mushi is a game for two players")
        super().__init__(rules, num_players, seed, dealer, round_number, _restore, shuffle)

    def _deck(self) -> list[int]:
        return list(MUSHI_DECK)

    def _packets(self) -> tuple[list[tuple[str, int]], int]:
        # FW-MU and seed 000: four to the opponent, four to the field, four to the dealer, twice.
        return [(f"hand{1 - self.dealer}", 8), ("field", 8), (f"hand{self.dealer}", 8)], 4

    def _misdeal(self) -> str | None:
        reason = super()._misdeal()
        if reason is None and self.rules.field_misdeal == "four_or_pairs":
            pairs = sum(1 for m in range(1, 13) if (self.field & MONTH_MASKS[m]).bit_count() == 2)
            if pairs == 4:
                return "four_pairs"
        return reason

    def _last_card_sweeps(self) -> bool:
        return self.rules.last_lightning_sweeps

    def _settle(self, events: list[Event]) -> dict[str, Any]:
        self._hand_over_leftovers(self.rules.mate_to_lightning_user, events)
        scores, card_points, yaku = settle(self.captured, self.rules)
        winner, next_dealer = self._ranking(scores)
        return {
            "kind": "scored", "points": scores, "winner": winner, "next_dealer": next_dealer,
            "card_points": card_points, "par": self.rules.par,
            "yaku_by_seat": {str(p): [[y.slug, y.points, list(y.cards)] for y in yaku[p]] for p in (0, 1)},
            "unclaimed": ids_in(self.field),
        }


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> MushiRound:
    return MushiRound(rules or _DEFAULT_RULES, num_players, seed, dealer, round_number, shuffle=shuffle)


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A Mushi match of ``rules.rounds`` rounds; the first dealer is chosen by a card draw."""
    if num_players != 2:
        raise ValueError("Mushi is a game for two players")
    return start_match("mushi", MushiRound, new_round, num_players, rules or Rules(), seed, MUSHI_DECK,
                       shuffle)


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)
