"""What the losers pay: 5 per bright and 1 per other card left in hand, and the slap race.

Seed 002: in a two-player game the other player pays the winner for the cards in hand. With more
players the others race to slap the winner's hand; the first to touch it pays nothing. VARIANT:
the last hand on the pile plays a batsu (penalty) game, which the bot turns into
``rules.batsu_points`` paid to the winner.

The race itself is timed by the bot; :func:`settle` only needs the order in which the seats
slapped. A seat that never slaps (the race window closed first) pays its hand in full and, under
the batsu variant, counts as later than every slap: when several seats never slap, each of them
takes the penalty.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.cards import BRIGHTS, Card, card

BRIGHT_PAYMENT = 5
OTHER_PAYMENT = 1

CardRef = Card | str | int


@dataclass(frozen=True, slots=True)
class Yaku:
    """One line of a hand's bill: ``slug`` is ``brights`` or ``other_cards``."""

    slug: str
    points: int
    cards: tuple[str, ...]


def score_yaku(cards: Iterable[CardRef], rules: Any = None) -> list[Yaku]:
    """The bill of a hand left at the end of a round (this game has no yaku, only card values).

    >>> [(y.slug, y.points) for y in score_yaku(["crane", "pine_chaff_1", "deer"])]
    [('brights', 5), ('other_cards', 2)]
    """
    held = sorted(card(c) for c in cards)
    brights = tuple(c.id for c in held if (BRIGHTS >> c.index) & 1)
    others = tuple(c.id for c in held if not (BRIGHTS >> c.index) & 1)
    out = []
    if brights:
        out.append(Yaku("brights", BRIGHT_PAYMENT * len(brights), brights))
    if others:
        out.append(Yaku("other_cards", OTHER_PAYMENT * len(others), others))
    return out


def hand_value(cards: Iterable[CardRef]) -> int:
    """What a hand left at the end of a round pays the winner."""
    return sum(y.points for y in score_yaku(cards))


def settlement(hands_left: Sequence[Iterable[CardRef]], winner: int,
               slap_order: Sequence[int], rules: Any) -> dict[str, Any]:
    """The whole payout as JSON-friendly data; :func:`settle` returns its ``points``.

    Keys: ``points`` (per seat, zero-sum), ``hand_points`` (each seat's hand value), ``paid``
    (what each loser pays), ``exempt`` (the seat excused by the race, or None), ``batsu`` (seats
    that took the penalty), ``slap_order``.
    """
    n = len(hands_left)
    if not 0 <= winner < n:
        raise ValueError(f"winner must be a seat from 0 to {n - 1}")
    order = [int(s) for s in slap_order]
    if len(set(order)) != len(order) or any(s == winner or not 0 <= s < n for s in order):
        raise ValueError("slap_order must list distinct seats other than the winner")
    hand_points = [0 if s == winner else hand_value(h) for s, h in enumerate(hands_left)]
    losers = [s for s in range(n) if s != winner]
    race = n > 2
    exempt = order[0] if race and order and rules.race_exempt_first else None
    batsu: list[int] = []
    if race and rules.batsu:
        missing = [s for s in losers if s not in order]
        batsu = missing or [order[-1]]
    paid = [0] * n
    for s in losers:
        paid[s] = (0 if s == exempt else hand_points[s]) + (
            rules.batsu_points if s in batsu else 0)
    points = [-p for p in paid]
    points[winner] = sum(paid)
    return {"points": points, "hand_points": hand_points, "paid": paid, "exempt": exempt,
            "batsu": batsu, "slap_order": order}


def settle(hands_left: Sequence[Iterable[CardRef]], winner: int, slap_order: Sequence[int],
           rules: Any) -> list[int]:
    """Per-seat points of a finished round (zero-sum).

    ``hands_left[s]``: the cards seat ``s`` still holds (the winner's is empty); ``slap_order``:
    the seats that slapped the winner's hand, first first (ignored with two players). Every other
    player pays the winner 5 per bright and 1 per other card; with three or more players the
    first to slap is excused (``rules.race_exempt_first``) and, with ``rules.batsu``, the last
    to slap, or every seat that never slapped, pays ``rules.batsu_points`` more.

    >>> from bot.games.shedding import Rules
    >>> settle([[], ["crane", "deer"], ["pine_chaff_1"]], 0, [2, 1], Rules())
    [6, -6, 0]
    """
    return settlement(hands_left, winner, slap_order, rules)["points"]
