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


def skip_ribbons(rules) -> int:
    """The ribbons that make the next player lose their turn under ``rules.purple_ribbon``."""
    if rules.purple_ribbon == "blue":
        return BLUE_RIBBONS
    if rules.purple_ribbon == "non_poetry":
        return RIBBONS & ~POETRY_RIBBONS
    return 0


def effect_of(c: int, rules) -> str | None:
    """The effect a card on top of the discard pile has on the next player, if any."""
    bit = 1 << c
    if BRIGHTS & bit:
        return BRIGHT
    if POETRY_RIBBONS & bit:
        return POETRY
    if skip_ribbons(rules) & bit:
        return SKIP
    return None


def field_pair_target(a: int, b: int) -> str:
    return f"{DECK[a].id}+{DECK[b].id}"


def parse_field_pair(target: str) -> tuple[int, int]:
    a, _, b = target.partition("+")
    return index(a), index(b)


# Each move as one shared value (built once), so generating the legal moves creates none.
_MATCH_AT = tuple(tuple(Action(MATCH, c.id, t.id) for t in DECK) for c in DECK)
_PAIR_AT = tuple(tuple(Action(PAIR, c.id, t.id) for t in DECK) for c in DECK)
_FIELD_HIKI = tuple(Action(FIELD_HIKI, c.id) for c in DECK)
_HAND_HIKI = tuple(Action(HAND_HIKI, c.id) for c in DECK)
_FIELD_PAIRS: dict[tuple[int, int, int], Action] = {}  # (hand card, field a, field b), as met
_STRUGGLE_MATCH_AT = tuple(tuple(Action(STRUGGLE_MATCH, c.id, t.id) for t in DECK) for c in DECK)
_KEEP = tuple(Action(KEEP, c.id) for c in DECK)
_STRUGGLE = Action(STRUGGLE)
_PASS = Action(PASS)


def _field_pair(h: int, a: int, b: int) -> Action:
    action = _FIELD_PAIRS.get((h, a, b))
    if action is None:
        action = _FIELD_PAIRS[(h, a, b)] = Action(FIELD_PAIR, DECK[h].id, field_pair_target(a, b))
    return action


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
    months = hand_any & (counts | counts >> 1 | counts >> 2) & _ONES
    while months:  # move 1, by hand card, then field card
        low = months & -months
        months ^= low
        month = low * 15
        on_field = indices_in(field & month)
        for h in indices_in(hand & month):
            row = _MATCH_AT[h]
            out.extend([row[f] for f in on_field])
    months = hand_two
    while months:  # moves 2-4: a single card of a month makes none of them
        low = months & -months
        months ^= low
        month = low * 15
        same = indices_in(hand & month)
        if len(same) == 3 and field & month:
            out.extend([_FIELD_HIKI[t] for t in same])
        out.extend([_PAIR_AT[t][u] for t in same for u in same if t != u])
        if len(same) == 4:
            out.extend([_HAND_HIKI[t] for t in same])
    months = field_two
    if months:
        held = indices_in(hand)
        while months:  # move 5
            low = months & -months
            months ^= low
            for a, b in combinations(indices_in(field & low * 15), 2):
                out.extend([_field_pair(h, a, b) for h in held])
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
