"""A fishing round played out to the last card and scored on card points: Mushi, Hana-Awase.

Both games deal hands and a field, let every seat in turn play a hand card and turn the stock
card (the shared mechanics of :mod:`bot.games.capture`), never stop early, and settle on the
captured piles. This base class holds what they share: dealing from a given deck with misdeal
redeals, the turn rotation (a seat with an empty hand only turns the stock), the wild lightning
hooks, observations, JSON state and rounds dealt from given cards for tests.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.cards import DECK, MONTH_MASKS, card, ids_in

from ..base import Event, Match, RoundResult
from ..capture import OVER, PLAY, FishingRound, _mask, deal_from
from ..rng import NEWEST_SHUFFLE, Rng
from .lightning import PLAIN_WILLOWS, WildLightning


class PlayOutRound(WildLightning, FishingRound):
    """One round; seat ``dealer`` plays first and the turn passes to the next seat number."""

    GAME: ClassVar[str]
    VERSION: ClassVar[int] = 1
    RULES: ClassVar[type]

    def __init__(self, rules: Any, num_players: int, seed: int, dealer: int = 0,
                 round_number: int = 1, _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self._init_piles(num_players)
        self.lightning_victim: int | None = None
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        if not _restore:
            self._deal(Rng(seed), shuffle)

    # -- what each game says ----------------------------------------------------------------
    def _deck(self) -> list[int]:
        """The cards in play, in canonical order."""
        return list(range(48))

    def _packets(self) -> tuple[list[tuple[str, int]], int]:
        """(pile name, size) in dealing order and the packet size."""
        raise NotImplementedError

    def _misdeal(self) -> str | None:
        """Why the deal just made must be redone, or None."""
        counts = [(self.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)]
        if 4 in counts:
            return "four_of_a_month"
        if self._lightning_wild() and self.field & PLAIN_WILLOWS == PLAIN_WILLOWS:
            # Nothing may take a plain willow off the field when the lightning is wild (FW-MU).
            return "three_willows"
        return None

    def _after_deal(self) -> None:
        """Runs once the deal stands (teyaku and the like)."""

    def _round_over(self) -> bool:
        return not self.stock and not any(self.hands)

    def _settle(self, events: list[Event]) -> dict[str, Any]:
        """The outcome dict: ``points`` per seat, ``winner``, ``next_dealer`` and the detail."""
        raise NotImplementedError

    def _extra_state(self) -> dict[str, Any]:
        return {}

    def _restore_extra(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`_extra_state`."""

    # -- deal -------------------------------------------------------------------------------
    def _deal(self, rng: Rng, shuffle: int) -> None:
        packets, size = self._packets()
        for _ in range(1000):
            deck = self._deck()
            rng.shuffle(deck, shuffle)
            piles, stock = deal_from(deck, packets, size)
            self.hands = [_mask(piles[f"hand{p}"]) for p in range(self.num_players)]
            self.field = _mask(piles["field"])
            self.stock = stock
            reason = self._misdeal()
            if reason is None:
                break
            self.start_events.append({"type": "misdeal", "reason": reason, "field": ids_in(self.field)})
        else:  # pragma: no cover - 1000 misdeals in a row do not happen
            raise RuntimeError("could not deal")
        self.start_events.append({"type": "deal", "dealer": self.dealer, "field": ids_in(self.field)})
        self._after_deal()
        self.current = self.dealer
        self.phase = PLAY

    def deal_order(self) -> list[int]:
        """Seats from the dealer on, in turn order."""
        return [(self.dealer + i) % self.num_players for i in range(self.num_players)]

    @classmethod
    def from_cards(cls, hands: list[list[str]], field: list[str], stock: list[str], *,
                   captured: list[list[str]] | None = None, rules: Any = None, dealer: int = 0,
                   round_number: int = 1) -> PlayOutRound:
        """A round dealt exactly as given (``stock[0]`` is turned first): for tests and puzzles.

        No misdeal check is made; :meth:`_after_deal` runs as usual.
        """
        self = cls(rules or cls.RULES(), len(hands), 0, dealer, round_number, _restore=True)
        captured = captured or [[] for _ in hands]
        ids = [*(c for h in hands for c in h), *field, *stock, *(c for p in captured for c in p)]
        if len(ids) != len(set(ids)):
            raise ValueError("a card is dealt twice")
        self.hands = [_mask(card(c).index for c in h) for h in hands]
        self.field = _mask(card(c).index for c in field)
        self.stock = [card(c).index for c in reversed(stock)]
        self.captured = [_mask(card(c).index for c in p) for p in captured]
        self._after_deal()
        self.current = dealer
        self.phase = PLAY
        return self

    # -- turn -------------------------------------------------------------------------------
    def _end_turn(self, events: list[Event]) -> None:
        self.turn += 1
        self.phase = PLAY
        if self._round_over() or not self._pass_turn():
            self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self.outcome = self._settle(events)
        self.phase = OVER
        self.current = None
        events.append({"type": "round_end", **self.outcome})

    def result(self) -> RoundResult | None:
        if self.outcome is None:
            return None
        o = self.outcome
        return RoundResult(points=list(o["points"]), winner=o["winner"], next_dealer=o["next_dealer"],
                           reason=o["kind"], detail=dict(o))

    def _ranking(self, scores: list[int]) -> tuple[int | None, int]:
        """(winner or None on a tie, next dealer): the highest score deals, a tie goes to the
        earliest seat in turn order (FW-HA; FW-MU's likely reading: the dealer stays)."""
        best = max(scores)
        top = [p for p in self.deal_order() if scores[p] == best]
        return (top[0] if len(top) == 1 else None), top[0]

    # -- observation and persistence ----------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return self._observation_of(
            player, lightning_wild=self._lightning_wild(),
            lightning_victim=None if self.lightning_victim is None else DECK[self.lightning_victim].id)

    def to_dict(self) -> dict[str, Any]:
        return self._state_of(lightning_victim=self.lightning_victim, outcome=self.outcome,
                              start_events=self.start_events, **self._extra_state())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayOutRound:
        if data.get("game") != cls.GAME or data.get("version") != cls.VERSION:
            raise ValueError(f"not a {cls.GAME} round state of version {cls.VERSION}")
        self = cls(cls.RULES.from_dict(data["rules"]), len(data["hands"]), data["seed"],
                   data["dealer"], data["round_number"], _restore=True)
        self._piles_from_dict(data)
        self.lightning_victim = data["lightning_victim"]
        self.outcome = data["outcome"]
        self.start_events = list(data["start_events"])
        self._restore_extra(data)
        return self


def draw_for_dealer(seed: int, num_players: int, deck: list[int],
                    shuffle: int = NEWEST_SHUFFLE) -> tuple[int, list[str]]:
    """Each seat draws a card; the earliest month deals, on a tie the better card (FW-MU, FW-HA,
    seed 004). Lower canonical index = earlier month, and within a month the better card."""
    cards = list(deck)
    Rng(seed).fork(0).shuffle(cards, shuffle)
    drawn = cards[:num_players]
    return drawn.index(min(drawn)), [DECK[c].id for c in drawn]


def start_match(game: str, round_cls: type[PlayOutRound], new_round, num_players: int, rules: Any,
                seed: int, deck: list[int], shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A match whose first dealer is chosen by a card draw from the seed."""
    dealer, drawn = draw_for_dealer(seed, num_players, deck, shuffle)
    match = Match(game, num_players, rules, seed, new_round, round_cls.from_dict, first_dealer=dealer,
                  shuffle=shuffle)
    match.intro_events = [{"type": "dealer_draw", "cards": drawn, "dealer": dealer},
                          *match.round.start_events]
    return match

