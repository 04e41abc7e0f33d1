"""Mushi's wild lightning (docs/rules/mushi.md §4-§5; FW-MU "Wild Card", seed 000 "Special
Rules").

The willow lightning may take any single card except a willow:

* played from the hand it captures one chosen non-willow field card;
* lying on the field it is taken by the first non-willow card turned from the stock (that card
  takes the lightning instead of its own month), and by nothing else;
* turned from the stock it must capture one non-willow field card (the player chooses), or stays
  on the field when there is none;
* turned as the last stock card it sweeps every card left on the field (FW-MU; optional).

At the end of the round the leftovers are handed over: a willow goes to whoever holds the other
two plain willows, and the cards of the month whose card the lightning took go to the player who
used it. :class:`WildLightning` is a mixin for :class:`~bot.games.capture.FishingRound`; Hana-Awase
uses it for its "Mushi-style wild lightning" option.
"""

from __future__ import annotations

from bot.cards import DECK, MONTH_MASKS, MONTH_OF, card, ids_in

from ..base import Event
from ..capture import ALL_MATCHES, BY_MONTH, CHOSEN_ONE, EVERY_CARD

LIGHTNING = card("lightning").index
LIGHTNING_BIT = 1 << LIGHTNING
WILLOWS = MONTH_MASKS[11]
PLAIN_WILLOWS = WILLOWS & ~LIGHTNING_BIT


class WildLightning:
    """Hooks that make the lightning wild when :meth:`_lightning_wild` says so.

    The host class keeps ``lightning_victim`` (the card the lightning was paired with, or None)
    in its state.
    """

    lightning_victim: int | None

    @property
    def wild_cards(self) -> int:
        """The cards the hooks are asked about (see FishingRound): the willows, and every card
        while the wild lightning lies on the field, where the first non-willow card turned from
        the stock takes it. Every other capture is the month rule's."""
        return EVERY_CARD if self.field & LIGHTNING_BIT and self._lightning_wild() else WILLOWS

    def _lightning_wild(self) -> bool:
        return True

    def _last_card_sweeps(self) -> bool:
        return True

    def _sweeping(self, c: int, from_hand: bool) -> bool:
        return c == LIGHTNING and not from_hand and not self.stock and self._last_card_sweeps()

    def _matches(self, field: int, c: int, from_hand: bool) -> int:
        if c != LIGHTNING and not field & LIGHTNING_BIT:
            return field & MONTH_OF[c]  # no lightning in play: the month rule, wild or not
        if not self._lightning_wild():
            return super()._matches(field, c, from_hand)
        if c == LIGHTNING:
            return field if self._sweeping(c, from_hand) else field & ~WILLOWS
        if not from_hand and field & LIGHTNING_BIT and DECK[c].month != 11:
            return LIGHTNING_BIT  # the first non-willow stock card must take the lightning
        return super()._matches(field, c, from_hand) & ~LIGHTNING_BIT

    def _is_wild_choice(self, c: int) -> bool:
        return c == LIGHTNING and self._lightning_wild()

    def _capture_rule(self, c: int, from_hand: bool) -> str:
        if c != LIGHTNING:
            return BY_MONTH  # only the lightning is wild
        if not from_hand and self._lightning_wild():
            return ALL_MATCHES if self._sweeping(c, from_hand) else CHOSEN_ONE
        return super()._capture_rule(c, from_hand)

    def _after_capture(self, player: int, c: int, taken: int, source: str, events: list[Event]) -> None:
        super()._after_capture(player, c, taken, source, events)
        if (c != LIGHTNING and taken != LIGHTNING_BIT) or not self._lightning_wild():
            return  # the lightning took nothing and was not taken alone
        if c == LIGHTNING and taken.bit_count() == 1:
            self.lightning_victim = taken.bit_length() - 1
        elif taken == LIGHTNING_BIT:
            self.lightning_victim = c

    def _lightning_user(self) -> int | None:
        for p, pile in enumerate(self.captured):
            if pile & LIGHTNING_BIT:
                return p
        return None

    def _hand_over_leftovers(self, mate_to_user: bool, events: list[Event]) -> None:
        """Give the usual two leftovers to their owners (FW-MU "End of Round")."""
        if not self._lightning_wild() or not self.field:
            return
        willows = self.field & WILLOWS
        counts = [(pile & PLAIN_WILLOWS).bit_count() for pile in self.captured]
        best = max(counts)
        if willows and best and counts.count(best) == 1:
            self._give(counts.index(best), willows, "willow", events)
        user = self._lightning_user()
        if mate_to_user and user is not None and self.lightning_victim is not None:
            mates = self.field & MONTH_MASKS[DECK[self.lightning_victim].month] & ~WILLOWS
            if mates:
                self._give(user, mates, "lightning_mate", events)

    def _give(self, player: int, cards: int, reason: str, events: list[Event]) -> None:
        self.field &= ~cards
        self.captured[player] |= cards
        events.append({"type": "handover", "player": player, "cards": ids_in(cards), "reason": reason})
