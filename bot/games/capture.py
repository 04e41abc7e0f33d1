"""Capture mechanics shared by the fishing games (Koi-Koi, Mushi, Sakura, Hana-Awase, Go-Stop).

A turn is: play a hand card, then turn up the top stock card, each resolved against the field by
month (docs/rules/koikoi.md §3, seed 000 "Capturing Cards"):

* no field card of that month: the card stays on the field;
* one: both are captured;
* two: the player chooses which one to take (for the stock card too);
* three (a stacked triplet): all four are captured.

A player whose hand is empty while the stock is not (Hana-Awase's two-player play-out, cards lost
to a bomb or a capture from the hand) only turns the stock card: the ``draw`` action.

:class:`FishingRound` implements this once, with piles as integer bit sets (see ``bot.cards``).
Games add their own phases (koi-koi decisions, hiki, bombs ...) through the hooks
:meth:`FishingRound._extra_actions`, :meth:`FishingRound._apply_extra`,
:meth:`FishingRound._matches` and :meth:`FishingRound._capture_rule` (wild cards) and
:meth:`FishingRound._end_turn`.
"""

from __future__ import annotations

import functools
from typing import Any

from bot.cards import BIT, DECK, MONTH_OF, ids_in, indices_in, months_holding, part_tables

from .base import Action, Event, RoundState, detached
from .rng import Rng

PLAY = "play"
CHOOSE_DRAW = "choose_draw"
OVER = "over"

# How a card takes from its matches (see FishingRound._capture_rule).
BY_MONTH = "month"  # one match: it; two: a chosen one; three: all
CHOSEN_ONE = "one"  # exactly one chosen match, however many there are (a wild card)
ALL_MATCHES = "all"  # every match at once (a sweep)

# Every play and choice as one shared value: legal actions are built without creating any, and a
# player's pick is then found among them by identity.
PLAY_CARD = tuple(Action("play", c.id) for c in DECK)
PLAY_AT = tuple(tuple(Action("play", c.id, t.id) for t in DECK) for c in DECK)
CHOOSE_AT = tuple(tuple(Action("choose", c.id, t.id) for t in DECK) for c in DECK)
DRAW = Action("draw")
# The plays of every set of twelve cards (as bot.cards reads card sets): PLAY_CARD per card.
_PLAYS = part_tables(PLAY_CARD)


def month_matches(field: int, card: int) -> int:
    """The field cards of the same month as ``card`` (a bit set)."""
    return field & MONTH_OF[card]


def capture_from(matches: int, target: int | None) -> int:
    """Which field cards a played card takes, given its month matches and the chosen target.

    ``target`` is needed only when exactly two field cards match.
    """
    n = matches.bit_count()
    if n == 0:
        return 0
    if n == 2:
        if target is None or not (matches >> target) & 1:
            raise ValueError("two field cards match: choose one of them")
        return 1 << target
    if n == 1:
        return matches
    return matches  # three matches: take the whole month


def deal(rng: Rng, packets: list[tuple[str, int]], packet_size: int,
         shuffle: int = 1) -> tuple[dict[str, list[int]], list[int]]:
    """Shuffle a fresh deck (the ``shuffle`` way, see ``Rng.shuffle``) and deal it in packets,
    round robin over ``packets``.

    ``packets`` lists (pile name, how many cards it gets) in dealing order. Returns the piles
    and the rest of the deck as the stock, whose *last* element is the top card.
    """
    deck = list(_UNSHUFFLED)
    rng.shuffle(deck, shuffle)
    return deal_from(deck, packets, packet_size)


_UNSHUFFLED = tuple(range(48))  # a list copies a tuple several times faster than a range


def deal_from(deck: list[int], packets: list[tuple[str, int]], packet_size: int) -> tuple[dict[str, list[int]], list[int]]:
    """Deal ``deck`` (already shuffled, any subset of the 48 cards) as :func:`deal` does."""
    order, spans, dealt = _deal_plan(tuple(packets), packet_size)
    # The dealt cards pile after pile, each pile then a slice of them: two comprehensions, not
    # one per pile (each is a function call of its own).
    cards = [deck[i] for i in order]
    piles = {name: cards[span] for name, span in spans}
    stock = deck[dealt:]
    stock.reverse()  # the card dealt next would be the top: keep it at the end for pop()
    return piles, stock


@functools.cache
def _deal_plan(packets: tuple[tuple[str, int], ...], packet_size: int
               ) -> tuple[tuple[int, ...], tuple[tuple[str, slice], ...], int]:
    """The deck positions the piles are dealt from, pile after pile, where each pile lies among
    them, and how many cards are dealt: worked out once per way of dealing."""
    positions: dict[str, list[int]] = {name: [] for name, _ in packets}
    pos = 0
    while any(len(positions[name]) < want for name, want in packets):
        for name, want in packets:
            take = min(packet_size, want - len(positions[name]))
            positions[name].extend(range(pos, pos + take))
            pos += take
    order: list[int] = []
    spans = []
    for name, p in positions.items():
        spans.append((name, slice(len(order), len(order) + len(p))))
        order += p
    return tuple(order), tuple(spans), sum(want for _, want in packets)


EVERY_CARD = (1 << 64) - 1  # the 48 cards and any game's extra ones (Go-Stop's jokers)


class FishingRound(RoundState):
    """Hands, field, stock and capture piles, with the play-then-draw turn.

    Subclasses set ``self.phase`` beyond PLAY/CHOOSE_DRAW for their own decisions and implement
    :meth:`_end_turn`, which runs when both halves of a turn are resolved.
    """

    hands: list[int]
    field: int
    stock: list[int]
    captured: list[int]
    current: int | None
    phase: str
    pending: int | None  # the stock card awaiting a choice between two field cards
    #: The cards whose matches and capture rule the hooks decide now (a bit set); every other
    #: card follows the month rule without a hook being asked. A game that overrides those
    #: hooks sets it to its wild cards; by default such a game is asked about every card.
    wild_cards = 0
    _hooks_after_capture = False  # see __init_subclass__

    def _init_piles(self, num_players: int) -> None:
        self.num_players = num_players
        self.hands = [0] * num_players
        self.field = 0
        self.stock = []
        self.captured = [0] * num_players
        self.current = None
        self.phase = PLAY
        self.pending = None
        self.turn = 0
        self.last_move: list[str] = []
        # Every attribute a move reads is set here, in one order, and flags read on every
        # capture are copied from the class: CPython 3.11 reads such instance attributes by a
        # specialized instruction, but a class attribute (or an instance whose attributes came
        # in another order, which gets a dict of its own) by the generic lookup.
        self._legal = None
        self.narrated = self.narrated
        self._hooks_after_capture = self._hooks_after_capture

    # -- contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.current is None  # as the contract's, one attribute read instead of two calls

    def _legal_key(self) -> tuple:
        p = self.current
        return (p, self.phase, self.turn, self.field, self.pending, len(self.stock),
                None if p is None else self.hands[p], None if p is None else self.captured[p])

    def _legal_actions(self) -> list[Action]:
        if self.current is None:
            return []
        if self.phase == PLAY:
            return self._play_actions(self.current)
        if self.phase == CHOOSE_DRAW:
            row = CHOOSE_AT[self.pending]
            return [row[t] for t in indices_in(self._matches(self.field, self.pending, from_hand=False))]
        return self._extra_actions()

    def _apply(self, action: Action) -> list[Event]:
        if action.kind == "play":
            return self._play(action)
        if action.kind == "draw":
            self.last_move = []
            events: list[Event] = []
            self._turn_stock(events)
            return events
        if action.kind == "choose":
            return self._choose_draw(action)
        return self._apply_extra(action)

    def legal_actions(self) -> list[Action]:
        if self.phase == PLAY and self.current is not None:
            return self._play_actions(self.current)  # a new list, and apply needs none kept
        return super().legal_actions()

    def apply(self, action: Action | str, player: int | None = None) -> list[Event]:
        # The move of most turns, a hand card played, is checked against the rule that makes
        # its legal plays (_play_choice) instead of being looked up in a list of them; anything
        # else, or a play that is not legal, takes the general check and its message.
        p = self.current
        if action.__class__ is Action and action.kind == "play" \
                and self.phase == PLAY and p is not None and (player is None or player == p):
            try:
                c = _ID_TO_INDEX[action.card]
                t = action.target
                t = 64 if t is None else _ID_TO_INDEX[t]
            except KeyError:
                c = 64  # no such card: the general check says so
            if self.hands[p] >> c & 1:
                choice = self._play_choice(c, self.field)
                if not choice if t == 64 else choice >> t & 1:
                    self._legal = None
                    return self._play(action)
        return super().apply(action, player)

    # -- hooks ------------------------------------------------------------------------------
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A class that changes how some card captures (in its body or a mixin it adds) is asked
        # about every card, unless it names those cards there (wild_cards): what a base class
        # named does not cover hooks added below it. One that does nothing after a capture is
        # not called.
        own = [cls, *(b for b in cls.__bases__ if not issubclass(b, FishingRound))]
        if not any("wild_cards" in k.__dict__ for k in own) and any(
                name in k.__dict__ for k in own
                for name in ("_matches", "_capture_rule", "_is_wild_choice", "_needs_choice")):
            cls.wild_cards = EVERY_CARD
        cls._hooks_after_capture = cls._after_capture is not FishingRound._after_capture
        # A game whose plays are the shared ones (the month rule and its wild-card hooks) has a
        # play checked by _play_choice alone, with no list of legal actions built (see apply);
        # only such a game runs FishingRound's legal_actions and apply, which need not ask. A
        # game that lists and makes its moves itself may still say so (Go-Stop: its plays are
        # the month rule's, its other moves separate actions), by setting the flag in its body:
        # its _play_actions(player) then lists a turn's moves and its _play makes a play.
        if "_plays_checked_directly" not in cls.__dict__:
            cls._plays_checked_directly = all(
                getattr(cls, name) is getattr(FishingRound, name)
                for name in ("_legal_actions", "_play_actions", "_apply", "apply", "check"))
        if not cls._plays_checked_directly:  # plays of its own: the contract's methods, as they are
            for name in ("legal_actions", "apply"):
                if getattr(cls, name) is getattr(FishingRound, name):
                    setattr(cls, name, getattr(RoundState, name))

    def _matches(self, field: int, card: int, from_hand: bool) -> int:
        """Field cards ``card`` may capture. Override for wild cards."""
        return field & MONTH_OF[card]

    def _extra_actions(self) -> list[Action]:
        return []

    def _apply_extra(self, action: Action) -> list[Event]:
        raise NotImplementedError(action.kind)

    def _end_turn(self, events: list[Event]) -> None:
        """Called after the stock card is resolved; must set the next phase/player."""
        raise NotImplementedError

    def _after_capture(self, player: int, card: int, taken: int, source: str, events: list[Event]) -> None:
        """Called after each capture (``taken`` excludes ``card``); for game-specific effects."""

    # -- the turn ---------------------------------------------------------------------------
    def _play_actions(self, player: int) -> list[Action]:
        hand = self.hands[player]
        if not hand:
            return [DRAW] if self.stock else []
        field = self.field
        if not hand & self.wild_cards and not hand >> 48:
            choosing = hand & months_holding(field, 2)  # two field cards to choose from
            # Each card plays as itself (four reads) ...
            out = [*_PLAYS[0][hand & 4095], *_PLAYS[1][hand >> 12 & 4095],
                   *_PLAYS[2][hand >> 24 & 4095], *_PLAYS[3][hand >> 36]]
            while choosing:  # ... but one whose month has two on the field, once per target:
                c = choosing.bit_length() - 1  # the highest first, so the places below stay
                choosing ^= BIT[c]
                at = (hand & BIT[c] - 1).bit_count()  # its place: the hand cards below it
                m = field & MONTH_OF[c]
                row = PLAY_AT[c]
                out[at:at + 1] = row[(m & -m).bit_length() - 1], row[m.bit_length() - 1]
            return out
        out = []
        wild = self.wild_cards
        for c in indices_in(hand):  # _play_choice written out: a call per card costs more
            if wild >> c & 1:
                choice = self._matches(field, c, True)
                if choice and not self._needs_choice(c, choice, from_hand=True):
                    choice = 0
            else:  # the month rule: a choice between exactly two
                choice = field & MONTH_OF[c]
                if choice.bit_count() != 2:
                    choice = 0
            if choice:
                row = PLAY_AT[c]
                out += [row[t] for t in indices_in(choice)]
            else:
                out.append(PLAY_CARD[c])
        return out

    def _play_choice(self, c: int, field: int) -> int:
        """The field cards among which hand card ``c`` is played with a chosen target (a bit
        set); 0 when it plays as itself. The check of a play asks this; the legal plays have it
        written out per card."""
        if self.wild_cards >> c & 1:
            m = self._matches(field, c, True)
            return m if m and self._needs_choice(c, m, from_hand=True) else 0  # no match: no choice
        m = field & MONTH_OF[c]  # the month rule: a choice between exactly two
        return m if m.bit_count() == 2 else 0

    def _is_wild_choice(self, card: int) -> bool:
        """True when ``card`` played from the hand captures exactly one chosen card among any
        number of matches."""
        return False

    def _capture_rule(self, card: int, from_hand: bool) -> str:
        """How ``card`` takes from its matches: BY_MONTH, CHOSEN_ONE or ALL_MATCHES.

        The default makes a wild hand card (:meth:`_is_wild_choice`) take one chosen card and
        everything else follow the month rule. Override for wild cards turned from the stock.
        """
        return CHOSEN_ONE if from_hand and self._is_wild_choice(card) else BY_MONTH

    def _needs_choice(self, card: int, matches: int, from_hand: bool) -> bool:
        n = matches.bit_count()
        if n == 0 or (n == 1 and not from_hand):
            return False  # no rule asks for a choice among fewer (most cards: no hook asked)
        rule = self._capture_rule(card, from_hand)
        return (rule == BY_MONTH and n == 2) or rule == CHOSEN_ONE

    def _resolve(self, player: int, card: int, target: int | None, source: str, events: list[Event]) -> int:
        """Place ``card`` on the field and capture what it takes; returns the taken field cards."""
        field = self.field
        bit = BIT[card]
        if self.wild_cards & bit:  # the hooks decide (written out: most cards of some games)
            from_hand = source == "hand"
            taken = self._matches(field, card, from_hand=from_hand)
            if taken & (taken - 1):  # two or more: as the card's rule takes them
                rule = self._capture_rule(card, from_hand)
                if rule == CHOSEN_ONE:
                    if target is None or not (taken >> target) & 1:
                        raise ValueError("choose one of the cards this wild card may take")
                    taken = 1 << target
                elif rule != ALL_MATCHES:
                    taken = capture_from(taken, target)
            several = taken & (taken - 1)
        else:  # the month rule
            taken = field & MONTH_OF[card]
            several = taken & (taken - 1)
            if several:  # two or more matches: the chosen one, or the three
                taken = capture_from(taken, target)
                several = taken & (taken - 1)
        if not taken:
            self.field = field | bit
            if self.narrated:
                cid = _IDS[card]
                events.append({"type": "play" if source == "hand" else "draw", "player": player,
                               "card": cid, "captured": []})
                self.last_move.append(cid)
            return 0
        self.field = field & ~taken
        self.captured[player] |= taken | bit
        if self.narrated:
            cid = _IDS[card]
            if several:
                captured = ids_in(taken | bit)
                self.last_move.append(cid)
                self.last_move += ids_in(taken)
            else:  # one card taken (most captures): its id at once, in canonical order
                tid = _IDS[taken.bit_length() - 1]
                captured = [cid, tid] if bit < taken else [tid, cid]
                self.last_move += (cid, tid)
            events.append({"type": "play" if source == "hand" else "draw", "player": player,
                           "card": cid, "captured": captured})
        if self._hooks_after_capture:
            self._after_capture(player, card, taken, source, events)
        return taken

    def _play(self, action: Action) -> list[Event]:
        player = self.current
        card = _ID_TO_INDEX[action.card]
        target = None if action.target is None else _ID_TO_INDEX[action.target]
        self.hands[player] &= ~BIT[card]
        self.last_move = []
        events: list[Event] = []
        self._resolve(player, card, target, "hand", events)
        self._turn_stock(events)
        return events

    def _turn_stock(self, events: list[Event]) -> None:
        """Turn up the top stock card; ask for a choice if it matches two field cards."""
        if not self.stock:
            self._end_turn(events)
            return
        card = self.stock.pop()
        if self.wild_cards >> card & 1:
            m = self._matches(self.field, card, from_hand=False)
            choose = m & (m - 1) and self._needs_choice(card, m, from_hand=False)  # two or more
        else:  # the month rule: a choice between exactly two
            m = self.field & MONTH_OF[card]
            choose = m.bit_count() == 2
        if choose:
            self.pending = card
            self.phase = CHOOSE_DRAW
            if self.narrated:
                events.append({"type": "drew", "player": self.current, "card": _IDS[card],
                               "choose": ids_in(m)})
            return
        self._resolve(self.current, card, None, "stock", events)
        self._end_turn(events)

    def _choose_draw(self, action: Action) -> list[Event]:
        card = self.pending
        self.pending = None
        self.phase = PLAY
        events: list[Event] = []
        self._resolve(self.current, card, _card_index(action.target), "stock", events)
        self._end_turn(events)
        return events

    # -- helpers for subclasses ---------------------------------------------------------------
    def _pass_turn(self) -> bool:
        """Give the turn to the next seat that can move: one holding cards, or anyone while
        the stock lasts (an empty hand only turns stock cards). False when nobody can."""
        for step in range(1, self.num_players + 1):
            seat = (self.current + step) % self.num_players
            if self.hands[seat] or self.stock:
                self.current = seat
                return True
        return False

    def _piles_to_dict(self) -> dict[str, Any]:
        return {
            "hands": [indices_in(h) for h in self.hands],
            "field": indices_in(self.field),
            "stock": list(self.stock),
            "captured": [indices_in(c) for c in self.captured],
            "current": self.current,
            "phase": self.phase,
            "pending": self.pending,
            "turn": self.turn,
            "last_move": list(self.last_move),
        }

    def _piles_from_dict(self, data: dict[str, Any]) -> None:
        self.num_players = len(data["hands"])
        self.hands = [_mask(h) for h in data["hands"]]
        self.field = _mask(data["field"])
        self.stock = list(data["stock"])
        self.captured = [_mask(c) for c in data["captured"]]
        self.current = data["current"]
        self.phase = data["phase"]
        self.pending = data["pending"]
        self.turn = data["turn"]
        self.last_move = list(data["last_move"])

    def _observation_of(self, player: int, **extra: Any) -> dict[str, Any]:
        """An observation: the public piles, the round's header, ``extra``, the legal actions
        (for the seat to act only) and the outcome."""
        return {
            **self._public_piles(player),
            "game": self.GAME, "seat": player, "num_players": self.num_players,
            "rules": self.rules.to_dict(), "dealer": self.dealer, "round_number": self.round_number,
            **extra,
            "legal_actions": [str(a) for a in self.legal_actions()] if player == self.current else [],
            "outcome": self.outcome,
        }

    def _state_of(self, **extra: Any) -> dict[str, Any]:
        """A round's to_dict: the header, the piles, then ``extra`` (the game's own state)."""
        return detached({
            "game": self.GAME, "version": self.VERSION, "rules": self.rules.to_dict(),
            "seed": self.seed, "dealer": self.dealer, "round_number": self.round_number,
            **self._piles_to_dict(), **extra,
        })

    def _public_piles(self, player: int) -> dict[str, Any]:
        """The part of an observation every fishing game shares."""
        return {
            "hand": ids_in(self.hands[player]),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "field": ids_in(self.field),
            "stock_count": len(self.stock),
            "captured": [ids_in(c) for c in self.captured],
            "drawn": DECK[self.pending].id if self.pending is not None else None,
            "current_player": self.current,
            "phase": self.phase,
            "last_move": list(self.last_move),
            "turn": self.turn,
        }

    def unseen(self, player: int) -> int:
        """Cards ``player`` cannot see: other hands and the stock (for determinized search)."""
        m = 0
        for i, h in enumerate(self.hands):
            if i != player:
                m |= h
        for c in self.stock:
            m |= 1 << c
        return m

    def determinize(self, player: int, rng: Rng) -> FishingRound:
        """A copy in which the cards ``player`` cannot see are redistributed at random.

        Hand sizes and stock size are kept, so the copy is consistent with everything the
        player has observed. Used by search AIs, which must never read hidden cards.
        """
        clone = self.clone()
        hidden = [c for c in indices_in(self.unseen(player))]
        rng.shuffle(hidden)
        pos = 0
        for i, h in enumerate(self.hands):
            if i == player:
                continue
            n = h.bit_count()
            clone.hands[i] = _mask(hidden[pos:pos + n])
            pos += n
        clone.stock = hidden[pos:]
        return clone


_ID_TO_INDEX = {c.id: c.index for c in DECK}
_IDS = tuple(c.id for c in DECK)


def _card_index(cid: str | None) -> int | None:
    return None if cid is None else _ID_TO_INDEX[cid]


def _mask(indices) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m
