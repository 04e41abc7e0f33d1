"""Hana-Awase for two to four players (docs/rules/hana-awase.md; seed 004, FW-HA).

>>> from bot.games import hana_awase
>>> match = hana_awase.new_match(3, seed=7)
>>> events = match.apply(match.legal_actions()[0])

A round: deal by the number of players (3: 7 each + 6 to the field; 2: 8 + 8, or 10 + 8 by
option; 4: 5 + 8), redeal four of a month on the field, then every seat in turn plays a hand card
and turns the stock card until the hands and the stock are empty (two players turn the stock
cards left once their hands are empty). Everyone is scored on their captured pile.
"""

from __future__ import annotations

from typing import Any

from bot.cards import CHAFF, DECK, MONTH_MASKS, MONTH_OF, card, ids_in, mask

from ..base import Action, Event, Match, restored_match
from ..capture import EVERY_CARD
from ..mushi.lightning import LIGHTNING, LIGHTNING_BIT, WILLOWS
from ..mushi.playout import PlayOutRound, start_match
from ..rng import NEWEST_SHUFFLE
from .rules import TEYAKU_POINTS, Rules
from .scoring import settle

HANDS = {2: (8, 8), 3: (7, 6), 4: (5, 8)}  # players -> (hand, field), seed 004 and FW-HA


class HanaAwaseRound(PlayOutRound):
    """One Hana-Awase round. Seat ``dealer`` plays first, then the next seat numbers."""

    GAME = "hana_awase"
    VERSION = 1
    RULES = Rules

    def __init__(self, rules: Rules, num_players: int = 3, seed: int = 0, dealer: int = 0,
                 round_number: int = 1, _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        if num_players not in HANDS:
            raise ValueError("Hana-Awase is a game for two to four players")
        self.exposed = [0] * num_players  # teyaku chaff shown face up in each hand
        self.teyaku = [0] * num_players  # what each other seat pays each seat for its teyaku
        super().__init__(rules, num_players, seed, dealer, round_number, _restore, shuffle)

    # -- deal -------------------------------------------------------------------------------
    def _packets(self) -> tuple[list[tuple[str, int]], int]:
        hand, field = HANDS[self.num_players]
        if self.num_players == 2:
            hand = self.rules.two_player_hand
        order = self.deal_order()
        seats = [(f"hand{p}", hand) for p in order[1:] + order[:1]]
        if self.num_players == 2:  # FW-HA: to the opponent, the field, the dealer, in fours
            return [seats[0], ("field", field), seats[1]], 4
        return [*seats, ("field", field)], 4

    def _misdeal(self) -> str | None:
        reason = super()._misdeal()
        if reason is None and self.rules.hand_four_misdeal:
            for hand in self.hands:
                if any((hand & MONTH_MASKS[m]).bit_count() == 4 for m in range(1, 13)):
                    return "four_in_a_hand"
        return reason

    def _after_deal(self) -> None:
        if not self.rules.teyaku:
            return
        for seat, hand in enumerate(self.hands):
            chaff = hand & CHAFF
            count = chaff.bit_count()
            if count >= 6:
                self.exposed[seat] = chaff
                self.teyaku[seat] = TEYAKU_POINTS[min(count, 7)]
                self.start_events.append({"type": "teyaku", "player": seat, "cards": ids_in(chaff),
                                          "points": self.teyaku[seat]})

    # -- turn hooks ---------------------------------------------------------------------------
    @property
    def wild_cards(self) -> int:
        """As WildLightning's, and every card while a hand card is shown: a card of a shown
        card's month may take it from another hand (read from the show itself, which plays and
        captures change)."""
        if any(self.exposed) or self.field & LIGHTNING_BIT and self._lightning_wild():
            return EVERY_CARD
        return WILLOWS

    def _lightning_wild(self) -> bool:
        return self.rules.wild_lightning

    def _matches(self, field: int, c: int, from_hand: bool) -> int:
        if c != LIGHTNING and not field & LIGHTNING_BIT and not any(self.exposed):
            return field & MONTH_OF[c]  # no lightning in play, no card shown: the month rule
        m = super()._matches(field, c, from_hand)
        if not any(self.exposed) or m & LIGHTNING_BIT:
            return m
        if self._lightning_wild() and self._is_wild_choice(c):
            return m  # the wild lightning takes from the field only
        shown = 0
        for seat, cards in enumerate(self.exposed):
            if seat != self.current:
                shown |= cards
        if self._lightning_wild():
            shown &= ~LIGHTNING_BIT
        return m | (shown & MONTH_MASKS[DECK[c].month])

    def _play(self, action: Action) -> list[Event]:
        if self.exposed[self.current]:  # a shown card played leaves the show
            self.exposed[self.current] &= ~card(action.card).bit
        return super()._play(action)

    def _after_capture(self, player: int, c: int, taken: int, source: str, events: list[Event]) -> None:
        super()._after_capture(player, c, taken, source, events)
        if not any(self.exposed):
            return  # no hand card is shown (the usual case): none can be taken
        for seat in range(self.num_players):
            lost = self.exposed[seat] & taken
            if lost:
                self.exposed[seat] &= ~lost
                self.hands[seat] &= ~lost
                events.append({"type": "taken_from_hand", "player": player, "from": seat,
                               "cards": ids_in(lost)})

    def _round_over(self) -> bool:
        if any(self.hands):
            return False
        return not self.stock or (self.num_players == 2 and not self.rules.play_out_stock)

    def _settle(self, events: list[Event]) -> dict[str, Any]:
        self._hand_over_leftovers(True, events)
        detail = settle(self.captured, self.rules, self.deal_order(), self.teyaku)
        winner, next_dealer = self._ranking(detail["points"])
        if detail["void"]:
            winner, next_dealer = None, self.dealer
        return {"kind": "void" if detail["void"] else "scored", "winner": winner,
                "next_dealer": next_dealer, "teyaku": list(self.teyaku), **detail,
                "unclaimed": ids_in(self.field), "stock_left": len(self.stock)}

    # -- observation and persistence ----------------------------------------------------------
    def face_up_ids(self) -> list[str]:
        """Hand cards every seat may see (declared teyaku chaff)."""
        shown = 0
        for cards in self.exposed:
            shown |= cards
        return ids_in(shown)

    def observation(self, player: int) -> dict[str, Any]:
        obs = super().observation(player)
        obs["exposed"] = [ids_in(cards) for cards in self.exposed]
        obs["teyaku"] = list(self.teyaku)
        return obs

    def _extra_state(self) -> dict[str, Any]:
        return {"exposed": [ids_in(c) for c in self.exposed], "teyaku": list(self.teyaku)}

    def _restore_extra(self, data: dict[str, Any]) -> None:
        self.exposed = [mask(c) for c in data["exposed"]]
        self.teyaku = list(data["teyaku"])


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 3, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> HanaAwaseRound:
    return HanaAwaseRound(rules or _DEFAULT_RULES, num_players, seed, dealer, round_number, shuffle=shuffle)


def new_match(num_players: int = 3, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A Hana-Awase match; the first dealer is chosen by a card draw (seed 004)."""
    if num_players not in HANDS:
        raise ValueError("Hana-Awase is a game for two to four players")
    return start_match("hana_awase", HanaAwaseRound, new_round, num_players, rules or Rules(), seed,
                       list(range(48)), shuffle)


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)
