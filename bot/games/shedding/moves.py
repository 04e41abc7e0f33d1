"""The six moves of seed 002 as actions, and the effect of the top discard.

Piles are integer bit sets (``bot.cards``). The text form of each action (``str(action)``):

=====================================  ==========================================================
``match:H>F``                          1 HAND-FIELD: hand card H on field card F, both discarded
``field_hiki:T``                       2 FIELD HIKI: the three hand cards of T's month on the
                                       field card of that month, T placed last (on top)
``pair:T>U``                           3 HAND-HAND: U then T from hand to the discard (T on top)
``hand_hiki:T``                        4 HAND HIKI: the four hand cards of a month, T last
``field_pair:H>A+B``                   5 FIELD-FIELD: field cards A and B discarded, hand card H
                                       to the field
``struggle``                           6 STRUGGLE: draw one card, then ...
``struggle_match:D>F``                 6A the drawn card D and the field card F are discarded
``keep:D``                             6B the drawn card D goes into the hand
``pass``                               no move is possible (nothing to draw either)
``slap:S`` / ``race_end``              the race after a win (seat S slapped; the window closed)
=====================================  ==========================================================

The card placed last is the top of the discard pile, so the player chooses which card's effect
the next player suffers by choosing the order (seed 002: "place them one by one").
"""

from __future__ import annotations

from itertools import combinations

from bot.cards import (
    BLUE_RIBBONS,
    BRIGHTS,
    DECK,
    MONTH_OF,
    POETRY_RIBBONS,
    RIBBONS,
    indices_in,
)

from ..base import Action

MATCH = "match"
FIELD_HIKI = "field_hiki"
PAIR = "pair"
HAND_HIKI = "hand_hiki"
FIELD_PAIR = "field_pair"
STRUGGLE = "struggle"
STRUGGLE_MATCH = "struggle_match"
KEEP = "keep"
PASS = "pass"
SLAP = "slap"
RACE_END = "race_end"

# Effects on the next player (seed 002 EFFECTS 1-3).
BRIGHT = "bright"  # draws one card, then their turn ends
POETRY = "poetry"  # draws one card, then plays
SKIP = "skip"  # loses their turn

_ID = {c.id: c.index for c in DECK}


def index(cid: str) -> int:
    """Canonical index of a card id."""
    return _ID[cid]


def month_of(c: int) -> int:
    return MONTH_OF[c]


# The ribbons that make the next player lose their turn, by ``rules.purple_ribbon``.
_SKIP_RIBBONS = {"blue": BLUE_RIBBONS, "non_poetry": RIBBONS & ~POETRY_RIBBONS, "none": 0}


def skip_ribbons(rules) -> int:
    """The ribbons that make the next player lose their turn under ``rules.purple_ribbon``."""
    return _SKIP_RIBBONS[rules.purple_ribbon]


def _effects(skips: int) -> tuple[str | None, ...]:
    return tuple(BRIGHT if BRIGHTS >> c & 1 else POETRY if POETRY_RIBBONS >> c & 1
                 else SKIP if skips >> c & 1 else None for c in range(48))


# Each card's effect under each choice of rules.purple_ribbon: one table read a turn.
_EFFECTS = {choice: _effects(skips) for choice, skips in _SKIP_RIBBONS.items()}


def effect_of(c: int, rules) -> str | None:
    """The effect a card on top of the discard pile has on the next player, if any."""
    return _EFFECTS[rules.purple_ribbon][c]


def field_pair_target(a: int, b: int) -> str:
    return f"{DECK[a].id}+{DECK[b].id}"


def parse_field_pair(target: str) -> tuple[int, int]:
    a, _, b = target.partition("+")
    return index(a), index(b)


# Each move as one shared value (built once), so generating the legal moves creates none.
_STRUGGLE_MATCH_AT = tuple(tuple(Action(STRUGGLE_MATCH, c.id, t.id) for t in DECK) for c in DECK)
_KEEP = tuple(Action(KEEP, c.id) for c in DECK)
_STRUGGLE = Action(STRUGGLE)
_PASS = Action(PASS)


# The moves of one month depend only on the four bits of that month in the hand and on the
# field, so they are tables read per month, built once with the generator's order:
#   _MONTH_MATCHES[4-bit month slot][hand bits << 4 | field bits]: move 1, by hand card, then
#   field card;
#   _MONTH_SHEDS[slot][hand bits << 1 | any field card]: moves 2-4 (field hiki, pairs, hand hiki);
#   _FIELD_PAIRS_AT[slot][field bits]: move 5, per field pair of the month, its action for each
#   hand card (index by the hand card).
# Each action is built once (a pick is found among the legal moves by identity).
def _month_cards(slot: int, bits: int) -> list[int]:
    return [4 * slot + r for r in range(4) if bits >> r & 1]


_SAME_MONTH = [(a, b) for a in range(48) for b in range(48) if a // 4 == b // 4]
_MATCH = {(h, f): Action(MATCH, DECK[h].id, DECK[f].id) for h, f in _SAME_MONTH}
_PAIR = {(t, u): Action(PAIR, DECK[t].id, DECK[u].id) for t, u in _SAME_MONTH}
_FIELD_HIKI = tuple(Action(FIELD_HIKI, c.id) for c in DECK)
_HAND_HIKI = tuple(Action(HAND_HIKI, c.id) for c in DECK)
_FIELD_PAIR_ROW = {(a, b): tuple(Action(FIELD_PAIR, h.id, field_pair_target(a, b)) for h in DECK)
                   for a, b in _SAME_MONTH if a < b}


def _sheds_of(slot: int, hand: int, on_field: bool) -> tuple[Action, ...]:
    same = _month_cards(slot, hand)
    out = []
    if len(same) == 3 and on_field:
        out += [_FIELD_HIKI[t] for t in same]
    out += [_PAIR[t, u] for t in same for u in same if t != u]
    if len(same) == 4:
        out += [_HAND_HIKI[t] for t in same]
    return tuple(out)


_MONTH_MATCHES = tuple(tuple(tuple(_MATCH[h, f] for h in _month_cards(s, k >> 4)
                                   for f in _month_cards(s, k & 15)) for k in range(256))
                       for s in range(12))
_MONTH_SHEDS = tuple(tuple(_sheds_of(s, k >> 1, bool(k & 1)) for k in range(32)) for s in range(12))
_FIELD_PAIRS_AT = tuple(tuple(tuple(_FIELD_PAIR_ROW[ab] for ab in combinations(_month_cards(s, f), 2))
                              for f in range(16)) for s in range(12))


# Per-month counts of a bit set, four bits a month (a sideways add on the whole set at once):
# the move generator then visits only the months that hold enough cards.
_FIVES = int("5" * 12, 16)
_THREES = int("3" * 12, 16)
_ONES = int("1" * 12, 16)


def shedding_moves(hand: int, field: int) -> list[Action]:
    """Moves 1-5 that ``hand`` can make against ``field``, in a fixed order."""
    out: list[Action] = []
    if not hand:
        return out
    # Per month, the lowest bit set when it holds one card or more (``any``), two or more (``two``).
    x = hand - ((hand >> 1) & _FIVES)
    counts = (x & _THREES) + ((x >> 2) & _THREES)
    hand_two = (counts >> 1 | counts >> 2) & _ONES
    hand_any = (counts | counts >> 1 | counts >> 2) & _ONES
    x = field - ((field >> 1) & _FIVES)
    counts = (x & _THREES) + ((x >> 2) & _THREES)
    field_two = (counts >> 1 | counts >> 2) & _ONES
    field_any = (counts | counts >> 1 | counts >> 2) & _ONES
    months = hand_any & field_any
    while months:  # move 1
        low = months & -months
        months ^= low
        shift = low.bit_length() - 1
        out += _MONTH_MATCHES[shift >> 2][(hand >> shift & 15) << 4 | field >> shift & 15]
    months = hand_two
    while months:  # moves 2-4: a single card of a month makes none of them
        low = months & -months
        months ^= low
        shift = low.bit_length() - 1
        out += _MONTH_SHEDS[shift >> 2][(hand >> shift & 15) << 1 | (field_any & low) >> shift]
    months = field_two
    if months:
        held = indices_in(hand)
        while months:  # move 5
            low = months & -months
            months ^= low
            shift = low.bit_length() - 1
            for row in _FIELD_PAIRS_AT[shift >> 2][field >> shift & 15]:
                out += [row[h] for h in held]
    return out


def play_actions(hand: int, field: int, can_draw: bool, rules) -> list[Action]:
    """Every legal move at the start of a turn (moves 1-6, or pass when none is possible)."""
    out = shedding_moves(hand, field)
    if can_draw and (rules.struggle == "any_time" or not out):
        out.append(_STRUGGLE)
    return out or [_PASS]


def struggle_actions(drawn: int, field: int, rules) -> list[Action]:
    """6A with each matching field card, and 6B unless the rules forbid keeping a match."""
    row = _STRUGGLE_MATCH_AT[drawn]
    out = [row[f] for f in indices_in(field & MONTH_OF[drawn])]
    if rules.struggle_keep_match or not out:
        out.append(_KEEP[drawn])
    return out
