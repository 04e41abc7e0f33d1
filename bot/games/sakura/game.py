"""Higo-Bana / Sakura for 2 to 7 players, alone or in teams (docs/rules/sakura.md; FW-SK, seed 000).

>>> from bot.games import sakura
>>> match = sakura.new_match(4, sakura.Rules(teams="pairs"), seed=7)
>>> events = match.apply(match.legal_actions()[0])

A round: deal by the player count (four of a month on the field go to the dealer), then each
seat in turn plays a hand card (or declares a hiki) and turns the stock card, with the shared
capture mechanics of ``bot.games.capture``; a seat whose hand is empty only turns stock cards.
The lightning (gaji) is wild from hand. When hands and stock are exhausted the leftovers are
settled and the round is scored (``scoring.settle``).
"""

from __future__ import annotations

from typing import Any

from bot.cards import DECK, MONTH_LOW_BITS, MONTH_MASKS, MONTH_OF, card, ids_in, indices_in

from ..base import Action, Event, Match, RoundResult, restored_match
from ..capture import BY_MONTH, CHOOSE_DRAW, OVER, PLAY, FishingRound, _card_index, _mask, deal
from ..rng import NEWEST_SHUFFLE, Rng
from .rules import DEAL, Rules
from .scoring import card_points, settle, yaku_of

GAJI_AGAIN = "gaji_again"
"""Phase after a gaji aimed at another player's hiki: aim it elsewhere or leave it (FW-SK)."""
LIGHTNING = card("lightning").index
DEAL_PACKET = 2
_HIKI = tuple(Action("hiki", c.id) for c in DECK)
_INDEX = {c.id: c.index for c in DECK}


class SakuraRound(FishingRound):
    """One Sakura round. Seat ``dealer`` plays first; play passes to seat + 1."""

    GAME = "sakura"
    VERSION = 1
    wild_cards = 1 << LIGHTNING  # the gaji: every other card captures by the month rule

    def __init__(self, rules: Rules, seed: int, num_players: int = 2, dealer: int = 0,
                 round_number: int = 1, _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        rules.check_players(num_players)
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self._init_piles(num_players)
        self.sides = rules.sides(num_players)
        # Each seat's side, read at every decision of the greedy player in the search's rollouts.
        self.side_of = tuple(next(i for i, seats in enumerate(self.sides) if seat in seats)
                             for seat in range(num_players))
        self.dead = 0  # leftover field cards (and a discarded gaji) that score for nobody
        self.gaji_user: int | None = None
        self.gaji_victim: int | None = None  # the card the gaji captured from hand
        self.hand_pair = 0  # the pair captured from hand this turn (seed 000's stacked pair)
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        self._leave_gaji = False  # the gaji is being left on the field (GAJI_AGAIN)
        if not _restore:
            self._deal(Rng(seed), shuffle)

    # -- deal -------------------------------------------------------------------------------
    def _deal(self, rng: Rng, shuffle: int) -> None:
        n = self.num_players
        hand_size, field_size = DEAL[n]
        order = [(self.dealer + k) % n for k in range(1, n)]  # the dealer is dealt last
        packets = [(f"hand{p}", hand_size) for p in order]
        packets += [("field", field_size), (f"hand{self.dealer}", hand_size)]
        piles, stock = deal(rng, packets, DEAL_PACKET, shuffle)
        self.hands = [_mask(piles[f"hand{p}"]) for p in range(n)]
        self.field = _mask(piles["field"])
        self.stock = stock
        self._start()

    @classmethod
    def from_cards(cls, hands: list[list[str]], field: list[str], stock: list[str], *,
                   captured: list[list[str]] | None = None, rules: Rules | None = None,
                   dealer: int = 0, round_number: int = 1) -> SakuraRound:
        """A round dealt exactly as given (``stock[0]`` is turned first): for tests and puzzles.

        Sizes are not checked against the deal table; the cards not given are out of play (dead).
        """
        self = cls(rules or Rules(), 0, len(hands), dealer, round_number, _restore=True)
        captured = captured or [[] for _ in hands]
        ids = [*(c for h in hands for c in h), *field, *stock, *(c for p in captured for c in p)]
        if len(ids) != len(set(ids)):
            raise ValueError("a card is dealt twice")
        self.hands = [_mask(card(c).index for c in h) for h in hands]
        self.field = _mask(card(c).index for c in field)
        self.stock = [card(c).index for c in reversed(stock)]
        self.captured = [_mask(card(c).index for c in p) for p in captured]
        self.dead = _mask(c.index for c in DECK if c.id not in set(ids))
        self._start()
        return self

    def _start(self) -> None:
        events: list[Event] = [{"type": "deal", "dealer": self.dealer, "field": ids_in(self.field),
                                "sides": self.sides}]
        for m in range(1, 13):
            month = MONTH_MASKS[m]
            if self.field & month == month:  # FW-SK, seed 000: the dealer captures them
                self.field &= ~month
                self.captured[self.dealer] |= month
                events.append({"type": "field_four", "player": self.dealer, "cards": ids_in(month)})
        gaji = 1 << LIGHTNING
        if self.rules.gaji_dealt_to_field == "discarded" and self.field & gaji:
            self.field &= ~gaji
            self.dead |= gaji
            events.append({"type": "gaji_discarded", "card": DECK[LIGHTNING].id})
        self.start_events = events
        self.phase = PLAY
        self.current = self.dealer

    # -- capture hooks: the gaji ------------------------------------------------------------
    @property
    def gaji_wild(self) -> bool:
        return self.rules.gaji == "wild"

    def _matches(self, field: int, c: int, from_hand: bool) -> int:
        if c == LIGHTNING and from_hand and self.gaji_wild:
            return 0 if self._leave_gaji else field  # any field card, even a willow
        return field & MONTH_OF[c]

    def _is_wild_choice(self, c: int) -> bool:
        return c == LIGHTNING and self.gaji_wild

    def _capture_rule(self, c: int, from_hand: bool) -> str:
        if c != LIGHTNING:
            return BY_MONTH  # only the gaji is wild
        return super()._capture_rule(c, from_hand)

    def _after_capture(self, player: int, c: int, taken: int, source: str, events: list[Event]) -> None:
        if c == LIGHTNING and source == "hand" and self.gaji_wild:
            self.gaji_user = player
            self.gaji_victim = indices_in(taken)[0]

    def _resolve(self, player: int, c: int, target: int | None, source: str, events: list[Event]) -> int:
        taken = super()._resolve(player, c, target, source, events)
        if source == "hand":
            single = taken.bit_count() == 1 and (c != LIGHTNING or not self._is_wild_choice(c))
            self.hand_pair = (taken | 1 << c) if single else 0
        elif (self.rules.stacked_pair and not taken and self.hand_pair
              and self.hand_pair & MONTH_MASKS[DECK[c].month]):
            # Seed 000: the stock card matches the pair just made; the three stay stacked.
            self.captured[player] &= ~self.hand_pair
            self.field |= self.hand_pair
            events.append({"type": "stacked", "player": player,
                           "cards": ids_in(self.hand_pair | 1 << c)})
            self.hand_pair = 0
        return taken

    # -- hiki and the turn --------------------------------------------------------------------
    def _play_actions(self, player: int) -> list[Action]:
        hand = self.hands[player]
        out = super()._play_actions(player)  # an empty hand: only "draw"
        if self.rules.hiki:
            whole = hand | self.field
            # The months whose four cards are all in hand or on the field (one bit per month).
            full = whole & whole >> 1 & whole >> 2 & whole >> 3 & MONTH_LOW_BITS
            while full:
                low = full & -full
                full ^= low
                held = hand & low * 15
                # Once per month, by its lowest card in hand; with one card in hand, playing it
                # already takes the three on the field.
                if held & (held - 1):
                    out.append(_HIKI[(held & -held).bit_length() - 1])
        return out

    def _extra_actions(self) -> list[Action]:
        if self.phase == GAJI_AGAIN:
            gaji = DECK[LIGHTNING].id
            return [Action("play", gaji)] + [Action("play", gaji, DECK[t].id)
                                             for t in indices_in(self.field)]
        return []

    def _play(self, action: Action) -> list[Event]:
        self.hand_pair = 0
        c = _INDEX[action.card]
        if c == LIGHTNING and action.target is not None and self._hiki_guards():
            month = DECK[_card_index(action.target)].month
            owner = self._hiki_owner(month)
            if owner is not None:
                events: list[Event] = [{"type": "gaji_blocked", "player": self.current,
                                        "target": action.target, "by": owner}]
                self.last_move = []
                self._take_month(owner, month, events)
                self.phase = GAJI_AGAIN
                return events
        if self.phase != GAJI_AGAIN:
            return super()._play(action)
        self._leave_gaji = action.target is None
        self.phase = PLAY
        try:
            return super()._play(action)
        finally:
            self._leave_gaji = False

    def _hiki_guards(self) -> bool:
        return self.gaji_wild and self.rules.hiki and self.rules.hiki_guards_gaji

    def _hiki_owner(self, m: int) -> int | None:
        """The first other seat whose hand and the field hold all four cards of month ``m``."""
        month = MONTH_MASKS[m]
        for k in range(1, self.num_players):
            seat = (self.current + k) % self.num_players
            if self.hands[seat] & month and (self.hands[seat] | self.field) & month == month:
                return seat
        return None

    def _take_month(self, player: int, m: int, events: list[Event]) -> None:
        """Hiki: ``player`` takes all four cards of month ``m`` from hand and field."""
        month = MONTH_MASKS[m]
        from_hand = self.hands[player] & month
        self.hands[player] &= ~month
        self.field &= ~month
        self.captured[player] |= month
        self.last_move.extend(ids_in(month))
        events.append({"type": "hiki", "player": player, "month": m, "cards": ids_in(month),
                       "from_hand": ids_in(from_hand)})

    def _apply_extra(self, action: Action) -> list[Event]:
        self.last_move = []
        self.hand_pair = 0
        events: list[Event] = []
        self._take_month(self.current, DECK[_card_index(action.card)].month, events)
        self._turn_stock(events)
        return events

    def _end_turn(self, events: list[Event]) -> None:
        self.turn += 1
        self.hand_pair = 0
        self.phase = PLAY
        if self._round_done() or not self._pass_turn():
            self._finish(events)

    def _round_done(self) -> bool:
        if any(self.hands):
            return False
        return not self.stock or (self.rules.two_player_dead_stock and self.num_players == 2)

    # -- end of round ---------------------------------------------------------------------------
    def _finish(self, events: list[Event]) -> None:
        leftovers = self.field
        to_user = 0
        if self.gaji_user is not None and leftovers:
            victim_month = MONTH_MASKS[DECK[self.gaji_victim].month]
            to_user = leftovers if self.rules.gaji_leftovers == "all" else leftovers & victim_month
            if to_user:
                self.captured[self.gaji_user] |= to_user
                events.append({"type": "gaji_leftovers", "player": self.gaji_user,
                               "cards": ids_in(to_user)})
        if leftovers & ~to_user:
            events.append({"type": "dead", "cards": ids_in(leftovers & ~to_user)})
        self.dead |= leftovers & ~to_user
        self.field = 0
        self.outcome = settle(self.side_piles(), self.sides, self.dealer, self.rules)
        self.phase = OVER
        self.current = None
        events.append({"type": "round_end", **self.outcome})

    def side_piles(self) -> list[int]:
        """Each side's shared capture pile (the union of its seats' captures)."""
        if len(self.sides) == self.num_players:  # no teams: side s is seat s
            return list(self.captured)
        piles = []
        for seats in self.sides:
            pile = 0
            for seat in seats:
                pile |= self.captured[seat]
            piles.append(pile)
        return piles

    def result(self) -> RoundResult | None:
        if self.outcome is None:
            return None
        o = self.outcome
        return RoundResult(points=list(o["points"]), winner=o["winner"], next_dealer=o["winner"],
                           reason=o["kind"], detail=dict(o))

    # -- observation and persistence ----------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        piles = self.side_piles()
        return self._observation_of(
            player,
            sides=[list(s) for s in self.sides],
            side=next(i for i, s in enumerate(self.sides) if player in s),
            side_card_points=[card_points(p, self.rules) for p in piles],
            side_yaku=[[y.slug for y in yaku_of(p)] for p in piles],
            dead=ids_in(self.dead),
            gaji_user=self.gaji_user,
            gaji_victim=None if self.gaji_victim is None else DECK[self.gaji_victim].id,
        )

    def to_dict(self) -> dict[str, Any]:
        return self._state_of(
            dead=indices_in(self.dead), gaji_user=self.gaji_user, gaji_victim=self.gaji_victim,
            hand_pair=indices_in(self.hand_pair), outcome=self.outcome, start_events=self.start_events)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SakuraRound:
        if data.get("game") != cls.GAME or data.get("version") != cls.VERSION:
            raise ValueError(f"not a sakura round state of version {cls.VERSION}")
        self = cls(Rules.from_dict(data["rules"]), data["seed"], len(data["hands"]),
                   data["dealer"], data["round_number"], _restore=True)
        self._piles_from_dict(data)
        self.dead = _mask(data["dead"])
        self.gaji_user = data["gaji_user"]
        self.gaji_victim = data["gaji_victim"]
        self.hand_pair = _mask(data["hand_pair"])
        self.outcome = data["outcome"]
        self.start_events = list(data["start_events"])
        return self


def draw_for_dealer(seed: int, num_players: int,
                    shuffle: int = NEWEST_SHUFFLE) -> tuple[int, list[list[str]]]:
    """Each seat draws a card; the earliest month deals, tied seats draw again (FW-SK)."""
    deck = list(range(48))
    Rng(seed).fork(0).shuffle(deck, shuffle)
    contenders = list(range(num_players))
    draws: list[list[str]] = []
    pos = 0
    while True:
        drawn = {seat: deck[pos + k] for k, seat in enumerate(contenders)}
        pos += len(contenders)
        draws.append([DECK[drawn[s]].id for s in contenders])
        first = min(DECK[c].month for c in drawn.values())
        contenders = [s for s in contenders if DECK[drawn[s]].month == first]
        if len(contenders) == 1:
            return contenders[0], draws


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> SakuraRound:
    return SakuraRound(rules or _DEFAULT_RULES, seed, num_players, dealer, round_number, shuffle=shuffle)


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A Sakura match; the first dealer is chosen by a card draw from the seed."""
    rules = rules or Rules()
    rules.check_players(num_players)
    dealer, drawn = draw_for_dealer(seed, num_players, shuffle)
    match = Match("sakura", num_players, rules, seed, new_round, SakuraRound.from_dict,
                  first_dealer=dealer, shuffle=shuffle)
    match.intro_events.insert(0, {"type": "dealer_draw", "cards": drawn, "dealer": dealer})
    return match


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)


__all__ = ["SakuraRound", "new_match", "new_round", "match_from_dict", "draw_for_dealer",
           "PLAY", "CHOOSE_DRAW", "GAJI_AGAIN", "OVER"]
