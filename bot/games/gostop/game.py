"""Go-Stop (Matgo for two players, and three players): the round and the match
(docs/rules/gostop.md).

>>> from bot.games import gostop
>>> match = gostop.new_match(2, seed=7)
>>> events = match.apply(match.legal_actions()[0])

A round: deal 10/8 (two players) or 7/6 (three), redeal four of a month on the field, stack a
dealt triplet, hand dealt jokers on the field to the dealer, offer chongtong. Then each turn the
player to act plays a hand card and turns the stock card (the shared capture mechanics of
``bot.games.capture``: no match stays, one match is taken, two: choose one, a stack of three is
taken whole), with the Go-Stop events resolved together once both cards are down:

* **ppeok**: the stock card is the third card of the pair the hand card just made: all three stay
  on the field as a stack; whoever takes the fourth takes the stack and a pi from each opponent;
* **jjok**: the stock card takes the hand card that had matched nothing;
* **ttadak**: hand card and stock card each take one of two same-month field cards;
* **sseul**: the turn leaves the field empty;
* **bomb** (action ``bomb:<card>``): three of a month in hand, the fourth on the field: all four
  are taken, and later turns may be draw-only (action ``draw``, ``bomb_turns`` of them);
* **shake** (action ``shake:<card>[>target]``): reveal a triplet in hand (an event every seat
  sees) and play one of its cards;
* **joker** (action ``joker:<id>``): capture a bonus card from the hand and draw a replacement.

Jjok, ttadak, sseul, a bomb and a ppeok taken back each take a pi from every opponent, the giver
handing over a single pi if he has one and a double pi (lightning, yellow paulownia, a 2-pi
joker, then a 3-pi joker) only when no single is left; the choice is automatic by that rule. The
sake cup is never handed over. Some events do not count on the final turn (option
``final_turn_exempt``).

After a turn whose score reaches the stop minimum and is new or higher than at the last go, the
player calls ``go`` or ``stop`` (a player with no turn left must stop). Hands empty with no stop:
**nagari**, the same dealer deals again and the next round is doubled (the ``carry`` of
:class:`bot.games.base.Match`).
"""

from __future__ import annotations

from functools import cache, reduce
from operator import itemgetter, or_
from typing import Any

from bot.cards import (
    ALL_MASK,
    BIT,
    DECK,
    MONTH_MASKS,
    MONTH_OF,
    indices_in,
    months_holding,
    months_holding_at_least,
    part_tables,
)

from ..base import Action, Event, IllegalAction, Match, RoundResult, detached, restored_match
from ..capture import CHOOSE_AT, CHOOSE_DRAW, OVER, PLAY, FishingRound, deal_from
from ..rng import NEWEST_SHUFFLE, Rng
from .rules import Rules
from .scoring import (
    ANIMALS,
    BRIGHTS,
    CHAFF,
    DOUBLE_PI,
    JOKER_3,
    JOKER_BASE,
    JOKERS,
    JOKERS_2,
    RIBBONS,
    SINGLE_PI,
    Settlement,
    animals_of,
    base_score,
    best_reading,
    card_id,
    card_index,
    dual_card,
    ids,
    korean_month,
    nagari_factor,
    pi_value,
    pile_scorer,
    progress,
    to_mask,
    yaku_of,
)

DECIDE = "decide"
CHONGTONG = "chongtong"
READING = "reading"

NO_STACK = -1
DEALT_STACK = -2

_MONTHS = range(1, 13)
_READINGS = ("animal", "pi")  # of the dual card
_EXEMPT = {
    "sseul_ttadak_jjok": frozenset({"sseul", "ttadak", "jjok"}),
    "ppeok_sseul_ttadak": frozenset({"ppeok_capture", "triplet_capture", "sseul", "ttadak"}),
    "none": frozenset(),
}


_PLAY = tuple(Action("play", c.id) for c in DECK)
_PLAY_AT = tuple(tuple(Action("play", c.id, t.id) for t in DECK) for c in DECK)
BOAR = 1 << 24
_DRAW = Action("draw")
_GO = Action("go")
_SHAKE = tuple(Action("shake", c.id) for c in DECK)
_BOMB = tuple(Action("bomb", c.id) for c in DECK)
_STOP = Action("stop")


_INDEX = {DECK[c].id: c for c in range(48)} | {card_id(j): j for j in range(JOKER_BASE, JOKER_BASE + 3)}


_KM = (0,) + tuple(DECK[4 * (m - 1)].korean_month for m in range(1, 13))
_KM_OF = tuple(c.korean_month for c in DECK)  # per card: what a play's or draw's event names


def _km(month: int) -> int:
    return _KM[month]


_JOKER = {j: Action("joker", card_id(j)) for j in range(JOKER_BASE, JOKER_BASE + 3)}

# Card indices run month by month, four to a month, so a month's cards in a pile are one 4-bit
# nibble of its bit set. The plays of a month depend only on its hand and field nibbles: they are
# read from a table, in the order the rules list them (each card of the month, on either target
# when two field cards match), with what else the month may allow (a shake or a bomb, whose
# conditions depend on the seat and the rules).
_MAY_SHAKE = 1  # a triplet (or four) in hand, none of its month on the field
_MAY_BOMB = 2  # three in hand, the fourth on the field
_MAY_SMALL_BOMB = 3  # two in hand, two on the field


def _month_plays(month0: int, hand: int, field: int) -> tuple[tuple[Action, ...], int, tuple[Action, ...]]:
    same = [4 * month0 + k for k in range(4) if hand >> k & 1]
    targets = [4 * month0 + k for k in range(4) if field >> k & 1]
    nh, nf = len(same), len(targets)
    if nf == 2:
        plays = tuple(_PLAY_AT[c][t] for c in same for t in targets)
    else:
        plays = tuple(_PLAY[c] for c in same)
    if nh >= 3 and nf == 0:
        return plays, _MAY_SHAKE, tuple(_SHAKE[c] for c in same)
    if nh == 3 and nf == 1:
        return plays, _MAY_BOMB, (_BOMB[same[0]],)
    if nh == 2 and nf == 2:
        return plays, _MAY_SMALL_BOMB, (_BOMB[same[0]],)
    return plays, 0, ()


# Indexed by month0 << 8 | hand nibble << 4 | field nibble (a card is never in both piles).
_PLAYS = tuple(_month_plays(m0, hn, fn) for m0 in range(12) for hn in range(16) for fn in range(16))

_NIBBLE_FOUR = 0x444444444444  # per month nibble of month counts: the count is 4
_NIBBLE_ONE = 0x111111111111  # plus one per month: a count of 3 or 4 then reaches bit 2
# The plays of a hand in which every card plays as itself (no choice, no shake or bomb): four
# table reads, in card order as the month-by-month loop lists them.
_PLAIN = part_tables(_PLAY)
_CARD_IDS = tuple(c.id for c in DECK)
# The ids of every set of cards of one month (a capture, a play's matches), in card order: one
# dict read where a turn names the cards it moved.
_MONTH_IDS = {sub << 4 * m0: tuple(_CARD_IDS[4 * m0 + k] for k in range(4) if sub >> k & 1)
              for m0 in range(12) for sub in range(16)}


def _plain_plays(hand: int) -> list[Action]:
    """Each card of ``hand`` (the 48 cards) played as itself, in card order."""
    return [*_PLAIN[0][hand & 4095], *_PLAIN[1][hand >> 12 & 4095],
            *_PLAIN[2][hand >> 24 & 4095], *_PLAIN[3][hand >> 36]]


# Per seat count and seat, the seats in turn order after it, itself last.
_SEATS_AFTER = {n: tuple(tuple((p + k) % n for k in range(1, n + 1)) for p in range(n)) for n in (2, 3)}


def _month_counts(m: int) -> int:
    """Per month nibble, how many cards of the month ``m`` holds (0..4): a popcount of each
    4-bit group at once instead of a loop over the twelve months. Jokers are left out."""
    m &= (1 << 48) - 1
    m -= (m >> 1) & 0x555555555555
    return (m & 0x333333333333) + ((m >> 2) & 0x333333333333)


def _months_with(counts: int, k: int) -> list[int]:
    """The months (1..12) whose count in ``counts`` (see :func:`_month_counts`) is ``k``."""
    return [m for m in _MONTHS if counts >> (4 * m - 4) & 15 == k]




@cache
def _deal_layout(n: int, hand_size: int, field_size: int, cards: int, dealer: int
                 ) -> tuple[tuple[int, ...], itemgetter, tuple[itemgetter, ...], int]:
    """The unshuffled deck of ``cards`` cards (a tuple, which a list copies several times faster
    than a range) and where the piles lie in it once shuffled, as the shared dealing
    (``deal_from``: the field, then the hands from the dealer's left, the dealer last) puts
    them: the field's positions, each seat's hand's, and how many cards are dealt (the first
    ones; the rest is the stock). Worked out once per deal size and dealer, not per deal."""
    seats = [(dealer + k) % n for k in range(1, n + 1)]  # from the dealer's left to the dealer
    packets = [("field", field_size)] + [(s, hand_size) for s in seats]
    piles, stock = deal_from(list(range(cards)), packets, 4 if n == 2 else 3)
    return (tuple(range(cards)), itemgetter(*piles["field"]),
            tuple(itemgetter(*piles[s]) for s in range(n)), cards - len(stock))


class GoStopRound(FishingRound):
    """One Go-Stop round for 2 or 3 seats. Seat ``dealer`` plays first; turns go up by seat."""

    GAME = "gostop"
    VERSION = 1
    # A round holds more attributes (44) than CPython lets the instances of a class share one
    # table of names for (30): each round then got a dict of its own, and every read of an
    # attribute became a hinted look-up in it. A slot is read at a fixed place: a random-play
    # round runs 8% fewer instructions. The flags a base class gives a default (narrated, _legal,
    # ...) stay in the instance's dict, which stays small; the search's copies of a round copy
    # both (bot/ai/search/worlds.py). tests/games/test_attribute_table.py keeps every game's
    # rounds within the shared table.
    __slots__ = (
        # the deal and the piles (FishingRound's)
        "rules", "_stop_minimum", "_pile_score", "seed", "dealer", "round_number", "carry",
        "nagari", "num_players", "hands", "field", "stock", "captured", "current", "phase",
        "pending", "turn", "last_move",
        # what each seat has done this round
        "goes", "go_order", "claimed", "shakes", "shaken", "bombs", "bomb_turns", "ppeoks",
        "stack_takes", "turns_taken", "stacks", "mission_month",
        # the turn under way, the decisions pending, the end
        "turn_flips", "turn_captured", "turn_reasons", "turn_ppeok", "queue", "reveals",
        "pending_winner", "_reading_choice", "outcome", "start_events",
        # kept results (not state): see _score and _play_actions
        "_kept_score", "_kept_triples",
    )

    def __init__(self, rules: Rules, seed: int, num_players: int = 2, dealer: int = 0,
                 round_number: int = 1, carry: dict[str, Any] | None = None,
                 _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        if num_players not in (2, 3):
            raise ValueError("Go-Stop is played by two or three players")
        self.rules = rules
        self._stop_minimum = rules.stop_minimum(num_players)
        self._pile_score = pile_scorer(rules).score
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self.carry = dict(carry or {})
        self.nagari = int(self.carry.get("nagari", 0))
        self._init_piles(num_players)
        n = num_players
        self.goes = [0] * n
        self.go_order: list[int] = []
        self.claimed = [0] * n  # score at each seat's last go
        self.shakes = [0] * n
        # months (Japanese numbers); a slice of a literal (n is 2 or 3) costs less than a comprehension
        self.shaken: list[list[int]] = [[], [], []][:n]
        self.bombs = [0] * n
        self.bomb_turns = [0] * n
        self.ppeoks = [0] * n
        self.stack_takes = [0] * n  # stacks of three taken this round
        self.turns_taken = [0] * n
        self.stacks = [NO_STACK] * 13  # per month: ppeok maker seat, DEALT_STACK or NO_STACK
        self.mission_month: int | None = None
        # The record of the turn under way (stored as its "ctx"): stock cards it may still turn,
        # the cards it captured, why it takes pi from every opponent ([name, pi] pairs; a tuple
        # until the first), whether it made a ppeok. None until the first turn starts.
        self.turn_flips = 1
        self.turn_captured = 0
        self.turn_reasons: list[list[Any]] | tuple | None = None
        self.turn_ppeok = False
        self.queue: list[int] = []  # chongtong holders still to decide
        self.reveals: list[int] = []  # chongtong holders who revealed
        self.pending_winner: int | None = None  # a stop waiting for the dual card's reading
        # the settlement a reading chooses from and its amounts under each reading
        self._reading_choice: tuple[Settlement, dict[str, tuple]] | None = None
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        self._kept_score: list[tuple[int, int] | None] = [None] * n  # see _score
        self._kept_triples = [(0, 0)] * n  # see _play_actions
        if not _restore:
            self._deal(Rng(seed), shuffle)

    # -- deal -------------------------------------------------------------------------------
    def _deal(self, rng: Rng, shuffle: int) -> None:
        r = self.rules
        n = self.num_players
        hand_size, field_size = r.deal_sizes(n)
        unshuffled, field_at, hands_at, dealt = _deal_layout(n, hand_size, field_size,
                                                              JOKER_BASE + r.jokers, self.dealer)
        for _attempt in range(1000):
            deck = list(unshuffled)
            rng.shuffle(deck, shuffle)
            # The dealt cards' bits, read in one call: a pile's bit set is the sum of its cards'.
            bits = itemgetter(*deck[:dealt])(BIT)
            self.hands = [sum(at(bits)) for at in hands_at]
            self.field = sum(field_at(bits))
            self.stock = deck[:dealt - 1:-1]  # the card dealt next would be the top: the end
            self.captured = [0] * n
            events = self._field_jokers()
            counts = _month_counts(self.field)
            four = _months_with(counts, 4)[0] if counts & _NIBBLE_FOUR else None
            if four and r.field_four == "redeal":
                self.start_events.append({"type": "misdeal", "reason": "four_of_a_month",
                                          "field": ids(self.field)})
                continue
            self.start_events.extend(events)
            break
        else:  # pragma: no cover - 1000 misdeals in a row do not happen
            raise RuntimeError("could not deal")
        if r.mission == "month":
            self.mission_month = rng.below(12) + 1
        self._after_deal(four, counts)

    def _field_jokers(self) -> list[Event]:
        """Jokers dealt to the field go to the dealer and are replaced from the stock."""
        events: list[Event] = []
        while self.field & JOKERS:
            j = self.field & JOKERS
            self.field &= ~j
            self.captured[self.dealer] |= j
            events.append({"type": "joker_to_dealer", "player": self.dealer, "cards": ids(j)})
            for _ in range(j.bit_count()):
                if self.stock:
                    self.field |= 1 << self.stock.pop()
        return events

    def _after_deal(self, four: int | None, counts: int) -> None:
        """Stack a dealt triplet, announce the deal, then settle a field four (``four``, when it
        does not redeal) or offer chongtong. ``counts`` are the field's month counts."""
        # a count of 3 or 4 plus one reaches bit 2: no month to look for otherwise (most deals)
        stacked = _months_with(counts, 3) if (counts + _NIBBLE_ONE) & _NIBBLE_FOUR else []
        for m in stacked:
            self.stacks[m] = DEALT_STACK
        ev: Event = {"type": "deal", "dealer": self.dealer, "field": ids(self.field),
                     "stacks": list(map(_km, stacked)),
                     "nagari": self.nagari, "multiplier": nagari_factor(self.rules, self.nagari)}
        if self.mission_month:
            ev["mission_month"] = _km(self.mission_month)
        self.start_events.append(ev)
        if four:
            if self.rules.field_four == "dealer_wins":
                self._finish_instant(self.dealer, "chongtong", MONTH_MASKS[four] & self.field,
                                     self.start_events, field=True)
            else:
                self.start_events.append({"type": "field_four", "cards": ids(MONTH_MASKS[four])})
                self._nagari(self.start_events, "field_four")
            return
        self._check_chongtong(self.start_events)

    def _fours(self, seat: int) -> list[int]:
        counts = _month_counts(self.hands[seat])
        return _months_with(counts, 4) if counts & _NIBBLE_FOUR else []

    def _check_chongtong(self, events: list[Event]) -> None:
        mode = self.rules.chongtong
        hands = self.hands
        # A hand holds four of a month only if the hands together do: one count of them all
        # rules out most deals before each hand is counted.
        if mode == "off" or not (_month_counts(reduce(or_, hands)) & _NIBBLE_FOUR
                                 and any(_month_counts(h) & _NIBBLE_FOUR for h in hands)):
            self._start_play()  # nobody holds four of a month (nearly every deal)
            return
        order = [(self.dealer + k) % self.num_players for k in range(self.num_players)]
        holders = [s for s in order if self._fours(s)]
        if mode == "forced":
            self.reveals = holders
            self._resolve_chongtong(events)
            return
        self.queue = holders
        self.phase = CHONGTONG
        self.current = holders[0]

    def _resolve_chongtong(self, events: list[Event]) -> None:
        reveals = self.reveals
        for s in reveals:
            events.append({"type": "chongtong", "player": s,
                           "cards": ids(sum(MONTH_MASKS[m] for m in self._fours(s)))})
        if not reveals:
            self._start_play()
            return
        n = self.num_players
        ties = self.rules.chongtong_ties
        if len(reveals) == n or (len(reveals) > 1 and ties == "nagari"):
            self._nagari(events, "chongtong_tie")
            return
        if len(reveals) == 1 or ties == "dealer_order":
            winner = reveals[0]
        else:
            winner = max(reveals, key=lambda s: max(_km(m) for m in self._fours(s)))
        four = max(self._fours(winner), key=_km)
        self._finish_instant(winner, "chongtong", MONTH_MASKS[four], events)

    def _start_play(self) -> None:
        self.phase = PLAY
        self.current = self.dealer

    @classmethod
    def from_cards(cls, hands: list[list[str]], field: list[str], stock: list[str], *,
                   captured: list[list[str]] | None = None, rules: Rules | None = None,
                   dealer: int = 0, round_number: int = 1,
                   carry: dict[str, Any] | None = None) -> GoStopRound:
        """A round dealt exactly as given (``stock[0]`` is turned first): for tests and puzzles.

        Field jokers, a field four and misdeals are not checked; a dealt triplet on the field is
        stacked and chongtong is offered as usual.
        """
        n = len(hands)
        self = cls(rules or Rules(), 0, n, dealer, round_number, carry, _restore=True)
        captured = captured or [[] for _ in range(n)]
        all_ids = [*field, *stock] + [c for h in hands for c in h] + [c for p in captured for c in p]
        if len(all_ids) != len(set(all_ids)):
            raise ValueError("a card is dealt twice")
        self.hands = [to_mask(h) for h in hands]
        self.field = to_mask(field)
        self.stock = [card_index(c) for c in reversed(stock)]
        self.captured = [to_mask(p) for p in captured]
        self._after_deal(None, _month_counts(self.field))
        return self

    # -- contract (legal actions kept per position by RoundState) -------------------------------
    def _legal_key(self) -> tuple | None:
        # What Go-Stop's legal actions depend on that an outside change (a sampled world's
        # hands and stock) may move; _apply's own changes are caught by the turn and phase too.
        p = self.current
        if p is None:
            return None
        return (p, self.phase, self.turn, self.field, self.hands[p], len(self.stock))

    def _legal_actions(self) -> list[Action]:
        p = self.current
        if p is None:
            return []
        ph = self.phase
        if ph == PLAY:
            return self._play_actions(p)
        if ph == CHOOSE_DRAW:
            row = CHOOSE_AT[self.pending]  # a turned card is never a joker
            return [row[t] for t in indices_in(self.field & MONTH_OF[self.pending])]
        if ph == DECIDE:
            return [_GO, _STOP] if self._has_turn(self.current) else [_STOP]
        if ph == CHONGTONG:
            return [Action("chongtong"), Action("pass")]
        if ph == READING:
            return [Action("sake_animal"), Action("sake_pi")]
        return []

    # Go-Stop's plays are the month rule's (every hand card but a joker, at a chosen target
    # exactly when two field cards match it), its other moves of a turn separate actions: a play
    # is checked by FishingRound.apply's direct check and made by _play, with no list kept.
    _plays_checked_directly = True

    def _play_actions(self, p: int) -> list[Action]:
        """The moves of seat ``p``'s turn: its plays, and a joker, shake, bomb or draw allowed."""
        hand = self.hands[p]
        # The months whose plays are more than each card as itself: two field cards to choose
        # from, or three or four in hand (a shake or a bomb). A hand only loses cards but for a
        # joker's replacement, so most hands never hold three of a month: kept per seat is a
        # hand this one is part of and that hand's months of three or more (not part of the
        # state, like the kept score); when that hand had none, neither has this one.
        kept, triples = self._kept_triples[p]
        if hand | kept != kept:  # not part of the kept hand (a new hand, a replacement drawn)
            kept, triples = self._kept_triples[p] = (hand, months_holding_at_least(hand, 3))
        elif triples and hand != kept:  # that hand had three of a month: this one, as it is now
            triples = months_holding_at_least(hand, 3)
        special = months_holding(self.field, 2) | triples
        if not hand & special and not hand >> 48 and not self.bomb_turns[p]:
            return _plain_plays(hand)  # most hands: each card plays as itself
        return self._unusual_plays(p, special)

    def _unusual_plays(self, p: int, special: int) -> list[Action]:
        """The plays of a hand with a joker, a draw-only turn or a ``special`` month (all four
        bits of each month whose plays are more than each card as itself, as _play_actions
        finds them)."""
        hand = self.hands[p]
        cards = hand & ALL_MASK
        field = self.field
        out = _plain_plays(cards)  # each card as itself, in card order; then each special month's
        todo = cards & special  # plays replace its cards' places, the highest month first (so
        while todo:  # the places below stay): a choice of targets, a shake or a bomb after them
            shift = (todo.bit_length() - 1) & ~3
            todo &= BIT[shift] - 1
            nibble = cards >> shift & 15
            plays, may, more = _PLAYS[shift << 6 | nibble << 4 | field >> shift & 15]
            if may and self._allows(p, may, shift // 4 + 1):
                plays += more
            at = (cards & BIT[shift] - 1).bit_count()  # the month's first place
            out[at:at + nibble.bit_count()] = plays
        if hand & JOKERS:
            out[:0] = [_JOKER[j] for j in indices_in(hand & JOKERS)]
        if self.bomb_turns[p] and self.stock:
            out.append(_DRAW)
        return out

    def _allows(self, p: int, may: int, m: int) -> bool:
        """Whether seat ``p`` may shake or bomb month ``m`` now (``may`` from the plays table)."""
        r = self.rules
        if may == _MAY_SHAKE:  # a month shaken once is not shaken again
            return m not in self.shaken[p] and (r.shake_timing == "any_turn" or self.turns_taken[p] == 0)
        if may == _MAY_BOMB:
            return r.bomb_after_shake or m not in self.shaken[p]
        return r.small_bomb != "off"

    def _apply(self, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "play":
            return self._play_card(action, shake=False)
        if kind == "choose":
            return self._choose(action)
        if kind in ("go", "stop"):
            return self._decide(kind)
        if kind == "shake":
            return self._play_card(action, shake=True)
        if kind == "bomb":
            return self._bomb(action)
        if kind == "draw":
            return self._draw_only()
        if kind == "joker":
            return self._joker(action)
        if kind in ("chongtong", "pass"):
            return self._chongtong_choice(kind)
        if kind in ("sake_animal", "sake_pi"):
            return self._reading(kind[5:])
        raise IllegalAction(f"{action} is not a Go-Stop move")  # pragma: no cover

    # -- the turn -----------------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.last_move = []
        self._new_turn_record()

    def _new_turn_record(self) -> None:
        self.turn_flips = 1
        self.turn_captured = 0
        self.turn_reasons = ()
        self.turn_ppeok = False

    def _owe(self, reason: str, pi: int) -> None:
        """The turn takes ``pi`` pi from every opponent for ``reason`` (settled at its end)."""
        self.turn_reasons = [*self.turn_reasons, [reason, pi]]

    def _take(self, p: int, cards: int, events: list[Event], event: str | None = None) -> None:
        self.field &= ~cards
        self.captured[p] |= cards
        self.turn_captured |= cards
        if self.narrated:
            taken = list(_MONTH_IDS[cards])  # cards of one month: never a joker
            self.last_move += taken
            if event:
                events.append({"type": "capture", "player": p, "cards": taken, "event": event})
            else:
                events.append({"type": "capture", "player": p, "cards": taken})

    def _take_stack(self, p: int, m: int, cards: int, events: list[Event]) -> None:
        """``p`` takes a stack of three of month ``m`` (with the fourth card)."""
        r = self.rules
        maker = self.stacks[m]
        self.stacks[m] = NO_STACK
        if maker >= 0:
            name = "ppeok_capture"
            k = r.steal_ppeok
            if maker == p and self.num_players == 2 and k:
                k = max(k, r.self_ppeok_2p)
        elif maker == DEALT_STACK and r.steal_triplets == "any":
            name, k = "triplet_capture", r.steal_ppeok
        else:
            name, k = "triplet_capture", 0
        self._take(p, cards, events, name)
        self.stack_takes[p] += 1
        if self.stack_takes[p] == 3 and r.steal_three_triplets:
            self._owe("three_triplets", r.steal_three_triplets)
        if maker >= 0:
            events.append({"type": "ppeok_taken", "player": p, "maker": maker,
                           "korean_month": _km(m)})
        if k:
            self._owe(name, k)

    def _play_card(self, action: Action, shake: bool = False) -> list[Event]:
        p = self.current
        c = _INDEX[action.card]  # a legal action: its ids need no checking
        events: list[Event] = []
        # The turn's record, as _new_turn_record makes it (written out: this runs every turn).
        self.turn_flips = 1
        self.turn_captured = 0
        self.turn_reasons = ()
        self.turn_ppeok = False
        if shake:
            m = (c >> 2) + 1
            trip = self.hands[p] & MONTH_MASKS[m]
            self.shakes[p] += 1
            self.shaken[p].append(m)
            events.append({"type": "shake", "player": p, "cards": ids(trip),
                           "korean_month": _km(m), "shakes": self.shakes[p]})
        self.hands[p] &= ~BIT[c]
        fm = self.field & MONTH_OF[c]
        nf = fm.bit_count()
        if self.narrated:
            cid = _CARD_IDS[c]
            events.append({"type": "play", "player": p, "card": cid, "korean_month": _KM_OF[c],
                           "matches": list(_MONTH_IDS[fm])})
            self.last_move = [cid]
        if nf == 3:
            self._take_stack(p, (c >> 2) + 1, fm | BIT[c], events)
            self._flip(events)
        else:  # it waits on the field for the stock card (see _flip) with what it would take
            self.field |= BIT[c]
            take = 0 if nf == 0 else fm | BIT[c] if nf == 1 else BIT[c] | BIT[_INDEX[action.target]]
            self._flip(events, c, nf, take)
        return events

    _play = _play_card  # a play checked by FishingRound.apply is made here

    def _bomb(self, action: Action) -> list[Event]:
        r = self.rules
        p = self.current
        m = (card_index(action.card) >> 2) + 1
        mh = self.hands[p] & MONTH_MASKS[m]
        fm = self.field & MONTH_MASKS[m]
        played = mh.bit_count()
        small = played == 2
        events: list[Event] = []
        self._start_turn()
        self.hands[p] &= ~mh
        events.append({"type": "bomb", "player": p, "cards": ids(mh), "field": ids(fm),
                       "korean_month": _km(m), "small": small})
        self._take(p, mh | fm, events, "bomb")
        if not small or r.small_bomb == "bomb":
            self.bombs[p] += 1
        if r.steal_bomb and (not small or r.small_bomb in ("steal", "bomb")):
            self._owe("bomb", r.steal_bomb)
        short = 3 - played
        if r.bomb_mode == "skip_turns":
            self.bomb_turns[p] += max(0, r.bomb_turns - short)
        else:
            self.turn_flips = max(1, (2 if r.bomb_mode == "draw_two" else 3) - short)
        self._flip(events)
        return events

    def _draw_only(self) -> list[Event]:
        p = self.current
        self._start_turn()
        self.bomb_turns[p] -= 1
        events: list[Event] = [{"type": "bomb_turn", "player": p, "left": self.bomb_turns[p]}]
        self._flip(events)
        return events

    def _joker(self, action: Action) -> list[Event]:
        p = self.current
        j = card_index(action.card)
        self.hands[p] &= ~(1 << j)
        self.captured[p] |= 1 << j
        events: list[Event] = [{"type": "joker", "player": p, "card": card_id(j),
                                "replacement": bool(self.stock)}]
        if self.stock:
            self.hands[p] |= 1 << self.stock.pop()  # hidden: the event does not say which
        if self.rules.joker_power == "steal":
            for k in range(1, self.num_players):
                self._steal(p, (p + k) % self.num_players, 1, ["joker"], events)
        if not self.hands[p] and not (self.bomb_turns[p] and self.stock):
            self._start_turn()
            self._end_turn(events)
        return events

    def _joker_turned(self, p: int, s: int, events: list[Event]) -> None:
        """A joker turned from the stock is captured (and the next card turned instead)."""
        self.captured[p] |= 1 << s
        if self.narrated:
            events.append({"type": "draw", "player": p, "card": card_id(s), "joker": True})
            events.append({"type": "capture", "player": p, "cards": [card_id(s)], "event": "joker"})
        if self.rules.joker_power == "steal":
            self._owe("joker", 1)

    def _flip(self, events: list[Event], c: int = -1, nf: int = 0, take: int = 0) -> None:
        """Turn the stock card (or as many as a bomb allows) and resolve it together with the
        hand card ``c`` just played (-1 when none waits): ``nf`` field cards matched it, and it
        takes ``take`` (itself and what it matched, or the one chosen of two) unless the stock
        card is of its month. Then end the turn, unless a choice between two field cards is
        due. The hand card is always resolved before any choice, so a turn that waits keeps no
        hand card in its record."""
        p = self.current
        stock = self.stock
        flips = self.turn_flips
        narrated = self.narrated
        while flips > 0 and stock:
            s = stock.pop()
            if s >= JOKER_BASE:
                self._joker_turned(p, s, events)
                continue
            flips -= 1
            fm = self.field & MONTH_OF[s]
            if narrated:
                sid = _CARD_IDS[s]
                ev: Event = {"type": "draw", "player": p, "card": sid, "korean_month": _KM_OF[s]}
                events.append(ev)
                self.last_move.append(sid)
            if c >= 0:
                if c >> 2 == s >> 2:  # the stock card meets the hand card's month
                    c = -1
                    self._meets_hand(p, s, (s >> 2) + 1, fm, nf, events)
                    continue
                if take:  # another month: ``fm`` stays as it is
                    self._take(p, take, events)
                c = -1
            n = fm.bit_count()
            if n == 0:
                self.field |= BIT[s]
            elif n == 1:
                self._take(p, fm | BIT[s], events)
            elif n == 2:
                self.turn_flips = flips
                self.pending = s
                self.phase = CHOOSE_DRAW
                if narrated:
                    ev["choose"] = list(_MONTH_IDS[fm])
                return  # waiting for the choice between two field cards
            else:
                self._take_stack(p, (s >> 2) + 1, fm | BIT[s], events)
        self.turn_flips = flips
        if c >= 0 and take:  # no stock card was turned (the stock ran out)
            self._take(p, take, events)
        self._end_turn(events)

    def _meets_hand(self, p: int, s: int, ms: int, fm: int, nf: int, events: list[Event]) -> None:
        """The stock card ``s`` is of the month the hand card just went to (``nf`` field cards
        matched it): jjok, ppeok or ttadak. Never a choice to wait for."""
        r = self.rules
        if nf == 0:  # jjok: the stock card takes the lone hand card
            self._take(p, fm | (1 << s), events, "jjok")
            events.append({"type": "jjok", "player": p, "korean_month": _km(ms)})
            if r.steal_jjok:
                self._owe("jjok", r.steal_jjok)
        elif nf == 1:  # ppeok: the three stay on the field
            self.field |= 1 << s
            self.stacks[ms] = p
            self.ppeoks[p] += 1
            self.turn_ppeok = True
            events.append({"type": "ppeok", "player": p, "cards": ids(fm | (1 << s)),
                           "korean_month": _km(ms), "ppeoks": self.ppeoks[p]})
        else:  # ttadak: both take one of the two field cards
            self._take(p, fm | (1 << s), events, "ttadak")
            events.append({"type": "ttadak", "player": p, "korean_month": _km(ms)})
            if r.steal_ttadak:
                self._owe("ttadak", r.steal_ttadak)

    def _choose(self, action: Action) -> list[Event]:
        p = self.current
        s = self.pending
        t = _INDEX[action.target]
        self.pending = None
        self.phase = PLAY
        events: list[Event] = []
        self._take(p, (1 << s) | (1 << t), events)
        self._flip(events)
        return events

    def _has_turn(self, q: int) -> bool:
        return bool(self.hands[q]) or (self.bomb_turns[q] > 0 and bool(self.stock))

    def _end_turn(self, events: list[Event]) -> None:
        r = self.rules
        p = self.current
        n = self.num_players
        self.turns_taken[p] += 1
        self.turn += 1
        got = self.turn_captured
        if got:  # what a turn's captures earn
            if (r.steal_first_turn_kinds and self.turns_taken[p] == 1 and got & BRIGHTS
                    and got & ANIMALS and got & RIBBONS and got & CHAFF):
                self._owe("first_turn_kinds", r.steal_first_turn_kinds)
            swept = self.field == 0
            if swept:
                events.append({"type": "sseul", "player": p})
                if r.steal_sseul:
                    self._owe("sseul", r.steal_sseul)
            if r.steal_four_of_month and not (swept and r.steal_sseul) \
                    and _month_counts(got) & _NIBBLE_FOUR:
                self._owe("four_of_month", r.steal_four_of_month)
        reasons = self.turn_reasons
        if reasons:
            if not any(map(self._has_turn, range(n))):  # the final turn
                exempt = _EXEMPT[r.final_turn_exempt]
                dropped = [x[0] for x in reasons if x[0] in exempt]
                if dropped:
                    events.append({"type": "final_turn", "player": p, "not_counted": dropped})
                    reasons = [x for x in reasons if x[0] not in exempt]
            owed = sum(x[1] for x in reasons)
            if owed:
                names = [x[0] for x in reasons]
                for k in range(1, n):
                    self._steal(p, (p + k) % n, owed, names, events)
        if self.turn_ppeok and r.three_ppeok == "win" and self.ppeoks[p] >= 3:
            self._finish_instant(p, "three_ppeok", 0, events)
            return
        score = self._score(p)
        if score >= self._stop_minimum and score > self.claimed[p]:
            events.append({"type": "score", "player": p, "points": score,
                           "yaku": [[y.slug, y.points] for y in yaku_of(self.captured[p], r, cards=False)]})
            if self._has_turn(p):
                self.phase = DECIDE
                return
            events.append({"type": "stop", "player": p, "forced": True})
            self._win(p, events)
            return
        self._next_player(events)

    def score(self, seat: int) -> int:
        """Seat ``seat``'s base score now, the dual card read the higher way (the observation's
        ``scores``)."""
        return self._score(seat)

    def _score(self, p: int) -> int:
        """Seat ``p``'s base score, kept while its pile stays (a turn without a capture then
        scores nothing anew). Not part of the state: a restored round starts with none kept."""
        pile = self.captured[p]
        kept = self._kept_score[p]
        if kept is None or kept[0] != pile:
            kept = self._kept_score[p] = (pile, self._pile_score(pile))
        return kept[1]

    def _steal(self, p: int, q: int, owed: int, reasons: list[str], events: list[Event]) -> None:
        """``q`` gives ``p`` ``owed`` pi: singles first, a double only when no single is left."""
        pile = self.captured[q]
        given: list[int] = []
        for _ in range(owed):
            for group in (SINGLE_PI, DOUBLE_PI | JOKERS_2, JOKER_3):
                if pile & group:
                    bit = pile & group & -(pile & group)
                    pile &= ~bit
                    given.append(bit)
                    break
            else:
                break
        self.captured[q] = pile
        for bit in given:
            self.captured[p] |= bit
        events.append({"type": "steal", "player": p, "from": q, "owed": owed,
                       "cards": [card_id(b.bit_length() - 1) for b in given], "reasons": reasons})

    def _next_player(self, events: list[Event]) -> None:
        self.phase = PLAY
        hands = self.hands
        for q in _SEATS_AFTER[self.num_players][self.current]:
            if hands[q] or (self.bomb_turns[q] > 0 and self.stock):  # as _has_turn
                self.current = q
                return
        self._nagari(events, "exhausted")

    def _decide(self, kind: str) -> list[Event]:
        p = self.current
        if kind == "go":
            self.goes[p] += 1
            if p not in self.go_order:
                self.go_order.append(p)
            self.claimed[p] = self._score(p)
            events: list[Event] = [{"type": "go", "player": p, "goes": self.goes[p],
                                    "points": self.claimed[p]}]
            self._next_player(events)
            return events
        events = [{"type": "stop", "player": p}]
        self._win(p, events)
        return events

    def _chongtong_choice(self, kind: str) -> list[Event]:
        p = self.queue.pop(0)
        events: list[Event] = []
        if kind == "chongtong":
            self.reveals.append(p)
        else:
            events.append({"type": "chongtong_pass", "player": p})
        if self.queue:
            self.current = self.queue[0]
            return events
        self._resolve_chongtong(events)
        return events

    def _reading(self, reading: str) -> list[Event]:
        holder = self.current
        events: list[Event] = [{"type": "reading", "player": holder, "reading": reading}]
        choice = self._reading_choice
        self._reading_choice = None
        if choice:
            settlement, under = choice
            self._settle(settlement, under[reading], events)
        else:
            settlement = self._settlement(self.pending_winner)
            self._settle(settlement, settlement.under({holder: reading}), events)
        return events

    # -- the end ------------------------------------------------------------------------------
    def dual_holder(self) -> int | None:
        d = dual_card(self.rules)
        for s, pile in enumerate(self.captured):
            if pile & d:
                return s
        return None

    def reading_options(self, winner: int, holder: int | None = -1) -> dict[str, dict[str, Any]]:
        """The settlement under each allowed reading of the dual card (for its holder; pass
        ``holder`` when it is known already)."""
        if holder == -1:
            holder = self.dual_holder()
        out = {}
        for r in self._readings(self._settlement(winner), holder):
            settlement = self._settlement(winner)  # one of its own: the two share no list
            out[r] = settlement.detail(settlement.under({holder: r}))
        return out

    def _readings(self, settlement: Settlement, holder: int | None) -> tuple[str, ...]:
        """The readings of the dual card its holder may choose from (none if nobody holds it):
        a winner's reading must still reach the stop minimum."""
        if holder is None:
            return ()
        if holder != settlement.winner:
            return _READINGS
        least = self.rules.stop_minimum(self.num_players)
        animal = settlement.base("animal") >= least
        if settlement.base("pi") >= least:
            return _READINGS if animal else ("pi",)
        return ("animal",) if animal else ()

    def _settlement(self, winner: int) -> Settlement:
        return Settlement(self.rules, winner, self.captured, self.goes, self.go_order,
                          self.shakes, self.bombs, self.nagari, self.mission_month)

    def _win(self, p: int, events: list[Event]) -> None:
        settlement = self._settlement(p)
        holder = self.dual_holder()
        readings = self._readings(settlement, holder)
        if not readings:  # nobody holds the dual card (or no reading reaches the minimum)
            self._settle(settlement, settlement.under({}), events)
            return
        if len(readings) == 1:
            self._settle(settlement, settlement.under({holder: readings[0]}), events)
            return
        # The holder's points under each reading decide; only the reading chosen is detailed.
        animal = settlement.under({holder: "animal"})
        pi = settlement.under({holder: "pi"})
        as_animal, as_pi = animal[-1][holder], pi[-1][holder]
        if as_animal == as_pi:
            best = best_reading(self.captured[p], self.rules) if holder == p else "animal"
        elif self.rules.sake_cup_reading == "declare":
            self.pending_winner = p
            self.phase = READING
            self.current = holder
            # Not state (a restored round settles anew); the piles stay while it waits.
            self._reading_choice = (settlement, {"animal": animal, "pi": pi})
            events.append({"type": "reading_choice", "player": holder, "winner": p,
                           "card": ids(self.captured[holder] & dual_card(self.rules))[0]})
            return
        else:
            best = "pi" if as_pi > as_animal else "animal"
        self._settle(settlement, pi if best == "pi" else animal, events)

    def _settle(self, settlement: Settlement, under: tuple, events: list[Event]) -> None:
        """Finish the round with ``settlement``'s amounts ``under`` a choice of readings."""
        detail = settlement.detail(under, "stop")
        detail["carry"] = {}
        self._finish(detail, events)

    def _finish_instant(self, p: int, kind: str, cards: int, events: list[Event],
                        field: bool = False) -> None:
        """Chongtong (or three ppeok): every opponent pays the chongtong value at once."""
        n = self.num_players
        each = self.rules.chongtong_value(n) * nagari_factor(self.rules, self.nagari)
        points = [-each] * n
        points[p] = each * (n - 1)
        payments = [{"seat": s, "amount": each} for s in range(n) if s != p]
        detail: dict[str, Any] = {"kind": kind, "winner": p, "points_each": each,
                                  "payments": payments, "points": points, "total": points[p],
                                  "carry": {}}
        if cards:
            detail["revealed"] = ids(cards)
            detail["from_field"] = field
        self._finish(detail, events)

    def _nagari(self, events: list[Event], why: str) -> None:
        self._finish({"kind": "nagari", "winner": None, "why": why,
                      "points": [0] * self.num_players, "total": 0,
                      "carry": {"nagari": self.nagari + 1}}, events)

    def _finish(self, detail: dict[str, Any], events: list[Event]) -> None:
        pot = self.rules.boar_pot
        if pot:
            for s, pile in enumerate(self.captured):
                if pile & BOAR:
                    points = list(detail["points"])
                    for q in range(self.num_players):
                        points[q] += pot * (self.num_players - 1) if q == s else -pot
                    detail = {**detail, "points": points, "boar_pot": {"seat": s, "each": pot}}
        self.outcome = detail
        self.phase = OVER
        self.current = None
        self.pending_winner = None
        events.append({"type": "round_end", **detail})

    def result(self) -> RoundResult | None:
        o = self.outcome
        if o is None:
            return None
        winner = o.get("winner")
        return RoundResult(points=list(o["points"]), winner=winner,
                           next_dealer=self.dealer if winner is None else winner,
                           reason=o["kind"], detail=dict(o))

    # -- observation and persistence ----------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        r = self.rules
        n = self.num_players
        hand = self.hands[player]
        visible = hand | self.field
        for c in self.captured:
            visible |= c
        revealed = []
        for s in range(n):
            shown = 0
            for m in self.shaken[s]:
                shown |= self.hands[s] & MONTH_MASKS[m]
            revealed.append(ids(shown))
            visible |= shown
        if self.pending is not None:
            visible |= 1 << self.pending
        readings = [best_reading(c, r) for c in self.captured]
        obs: dict[str, Any] = {
            "game": self.GAME,
            "seat": player,
            "num_players": n,
            "rules": r.to_dict(),
            "dealer": self.dealer,
            "round_number": self.round_number,
            "hand": ids(hand),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "field": ids(self.field),
            "stock_count": len(self.stock),
            "captured": [ids(c) for c in self.captured],
            "drawn": card_id(self.pending) if self.pending is not None else None,
            "current_player": self.current,
            "phase": self.phase,
            "last_move": list(self.last_move),
            "turn": self.turn,
            "korean_month": {card_id(i): korean_month(i) for i in indices_in(visible)},
            "stop_minimum": r.stop_minimum(n),
            "scores": [base_score(c, r, rd) for c, rd in zip(self.captured, readings, strict=True)],
            "yaku": [[[y.slug, y.points] for y in yaku_of(c, r, rd)]
                     for c, rd in zip(self.captured, readings, strict=True)],
            "pi": [pi_value(c, r, rd) for c, rd in zip(self.captured, readings, strict=True)],
            "brights": [(c & BRIGHTS).bit_count() for c in self.captured],
            "animals": [animals_of(c, r, rd).bit_count()
                        for c, rd in zip(self.captured, readings, strict=True)],
            "ribbons": [(c & RIBBONS).bit_count() for c in self.captured],
            "progress": [[list(t) for t in progress(c, r)] for c in self.captured],
            "goes": list(self.goes),
            "go_order": list(self.go_order),
            "claimed": list(self.claimed),
            "shakes": list(self.shakes),
            "bombs": list(self.bombs),
            "bomb_turns": list(self.bomb_turns),
            "ppeoks": list(self.ppeoks),
            "revealed": revealed,
            "stacks": [{"korean_month": _km(m), "cards": ids(self.field & MONTH_MASKS[m]),
                        "maker": None if self.stacks[m] < 0 else self.stacks[m]}
                       for m in _MONTHS if self.stacks[m] != NO_STACK],
            "nagari": self.nagari,
            "nagari_multiplier": nagari_factor(r, self.nagari),
            "mission_month": _km(self.mission_month) if self.mission_month else None,
            "legal_actions": [str(a) for a in self.legal_actions()] if player == self.current else [],
            "outcome": self.outcome,
        }
        if self.phase == READING and player == self.current:
            obs["reading_options"] = self.reading_options(self.pending_winner)
        return obs

    def to_dict(self) -> dict[str, Any]:
        return detached({
            "game": self.GAME, "version": self.VERSION, "rules": self.rules.to_dict(),
            "seed": self.seed, "num_players": self.num_players, "dealer": self.dealer,
            "round_number": self.round_number, "carry": dict(self.carry),
            **self._piles_to_dict(),
            "goes": list(self.goes), "go_order": list(self.go_order),
            "claimed": list(self.claimed), "shakes": list(self.shakes),
            "shaken": [list(s) for s in self.shaken], "bombs": list(self.bombs),
            "bomb_turns": list(self.bomb_turns), "ppeoks": list(self.ppeoks),
            "stack_takes": list(self.stack_takes),
            "turns_taken": list(self.turns_taken), "stacks": list(self.stacks),
            "mission_month": self.mission_month,
            "ctx": None if self.turn_reasons is None else {
                "hand": None, "flips": self.turn_flips, "captured": self.turn_captured,
                "reasons": [list(x) for x in self.turn_reasons], "ppeok": self.turn_ppeok},
            "queue": list(self.queue), "reveals": list(self.reveals),
            "pending_winner": self.pending_winner, "outcome": self.outcome,
            "start_events": self.start_events,
        })

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GoStopRound:
        if data.get("game") != cls.GAME or data.get("version") != cls.VERSION:
            raise ValueError(f"not a gostop round state of version {cls.VERSION}")
        self = cls(Rules.from_dict(data["rules"]), data["seed"], data["num_players"],
                   data["dealer"], data["round_number"], data["carry"], _restore=True)
        self._piles_from_dict(data)
        for name in ("goes", "go_order", "claimed", "shakes", "bombs", "bomb_turns", "ppeoks",
                     "stack_takes", "turns_taken", "stacks", "queue", "reveals"):
            setattr(self, name, list(data[name]))
        self.shaken = [list(s) for s in data["shaken"]]
        self.mission_month = data["mission_month"]
        ctx = data["ctx"]  # its "hand" is None at every point a round is stored (see _flip)
        if ctx is not None:
            self.turn_flips = ctx["flips"]
            self.turn_captured = ctx["captured"]
            self.turn_reasons = [list(x) for x in ctx["reasons"]]
            self.turn_ppeok = ctx["ppeok"]
        self.pending_winner = data["pending_winner"]
        self.outcome = data["outcome"]
        self.start_events = list(data["start_events"])
        return self


class GoStopMatch(Match):
    """A match of Go-Stop rounds: the winner deals next, after a nagari the same dealer, and the
    nagari count is carried to the next round. Option ``nagari_limit`` ends the match after that
    many nagari in a row."""

    def _finish_round(self) -> list[Event]:
        result = self.round.result()
        limit = getattr(self.rules, "nagari_limit", 0)
        streak = result.detail.get("carry", {}).get("nagari", 0) if result else 0
        if not (limit and result and result.winner is None and streak >= limit):
            return super()._finish_round()
        for i, p in enumerate(result.points):
            self.scores[i] += p
        self._keep_round(result)
        self.carry = dict(result.detail.get("carry", {}))
        self.finished = True
        return [
            {"type": "round_over", "round": self.round_number, "scores": list(self.scores),
             **result.to_dict()},
            {"type": "match_over", "scores": list(self.scores), "winners": self.winners(),
             "reason": "nagari_limit"},
        ]


def draw_for_dealer(seed: int, num_players: int = 2, rule: str = "night",
                    shuffle: int = NEWEST_SHUFFLE) -> tuple[int, list[dict[str, str]]]:
    """Each player draws a card (bam-il nat-jang, docs/rules/gostop.md §1): at night the earliest
    Korean month deals, on the same month the lower card; by day the latest month, on the same
    month the higher card. Players still tied draw again. Returns the dealer and every draw
    (seat -> card id)."""
    deck = list(range(48))
    Rng(seed).fork(0).shuffle(deck, shuffle)
    pos = 0
    contenders = list(range(num_players))
    draws: list[dict[str, str]] = []
    while True:
        drawn = {s: deck[pos + i] for i, s in enumerate(contenders)}
        pos += len(contenders)
        draws.append({str(s): DECK[c].id for s, c in drawn.items()})

        def key(s: int, drawn=drawn) -> tuple[int, int]:
            c = DECK[drawn[s]]
            return c.korean_month, c.value

        pick = min if rule == "night" else max
        best = key(pick(contenders, key=key))
        tied = [s for s in contenders if key(s) == best]
        if len(tied) == 1:
            return tied[0], draws
        contenders = tied


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> GoStopRound:
    return GoStopRound(rules or _DEFAULT_RULES, seed, num_players, dealer, round_number, carry,
                       shuffle=shuffle)


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> GoStopMatch:
    """A Go-Stop match; the first dealer is chosen by a card draw from the seed."""
    rules = rules or Rules()
    if num_players not in (2, 3):
        raise ValueError("Go-Stop is played by two or three players")
    dealer, draws = draw_for_dealer(seed, num_players, rules.first_dealer, shuffle)
    match = GoStopMatch("gostop", num_players, rules, seed, new_round, GoStopRound.from_dict,
                        first_dealer=dealer, shuffle=shuffle)
    # Insert before what the match already reported (a round decided by the deal included).
    match.intro_events.insert(0, {"type": "dealer_draw", "draws": draws, "dealer": dealer})
    return match


def match_from_dict(data: dict[str, Any]) -> GoStopMatch:
    return restored_match(new_match, Rules, data)


__all__ = ["GoStopRound", "GoStopMatch", "Rules", "new_match", "new_round", "match_from_dict",
           "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "DECIDE", "CHONGTONG", "READING", "OVER"]
