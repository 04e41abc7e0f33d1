"""Sakura card values, the eight yaku and the round settlement (docs/rules/sakura.md §7-§8, FW-SK,
seed 000).

A yaku does not add to its owner (unless ``own_yaku_scores``): it costs every opponent 50. So a
round score is ``card points - 50 x (yaku held by all opponents)``, not zero-sum. Sides are single
players or teams sharing one capture pile; every seat of a side gets the side's score.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from bot.cards import (
    BLUE_RIBBONS,
    GRASS_RIBBONS,
    POETRY_RIBBONS,
    Card,
    Kind,
    Role,
    card,
    ids_in,
    indices_in,
    mask,
)

from .descriptor import BASA
from .rules import YAKU_VALUE, Rules

YAKU: dict[str, int] = {
    # docs/rules/sakura.md §7 numbering (#1-#8); its table gives each one's FW-SK name (i, ro,
    # ha, ni, he, ho, to, chi in this order).
    "drinking": mask(["curtain", "moon", "sake_cup"]),
    "crane_warbler_curtain": mask(["crane", "bush_warbler", "curtain"]),
    "poetry_ribbons": POETRY_RIBBONS,
    "blue_ribbons": BLUE_RIBBONS,
    "grass_ribbons": GRASS_RIBBONS,
    "butterflies_sake_deer": mask(["butterflies", "sake_cup", "deer"]),
    "cuckoo_bridge_boar": mask(["cuckoo", "bridge", "boar"]),
    "boar_geese_deer": mask(["boar", "geese", "deer"]),
}
YAKU_SLUGS = tuple(YAKU)


class Yaku(NamedTuple):
    """A held yaku: its slug, what it is worth (50) and its three cards."""

    slug: str
    points: int
    cards: tuple[str, ...]


def _value(c: Card, table: str) -> int:
    if c.role is Role.RAIN_MAN:
        return 5  # grouped with the animals (FW-SK, seed 000)
    if c.kind is Kind.BRIGHT:
        return 20
    if c.kind is Kind.RIBBON:
        return 10
    if c.kind is Kind.ANIMAL:
        return 5
    if table == "seed":
        return 1
    return 10 if c.role is Role.YELLOW_PAULOWNIA else 0


VALUES: dict[str, tuple[int, ...]] = {
    table: tuple(_value(card(i), table) for i in range(48)) for table in ("hawaiian", "seed")
}
"""Card value by index, per ``Rules.card_values``."""


def _mask_of(cards: Iterable[Card | str | int] | int) -> int:
    return cards if isinstance(cards, int) else mask(cards)


def card_points(cards: Iterable[Card | str | int] | int, rules: Rules | None = None) -> int:
    """Sum of the card values of a pile (Cards, ids, indices or a bit set)."""
    values = VALUES[(rules or Rules()).card_values]
    return sum([values[i] for i in indices_in(cards if isinstance(cards, int) else mask(cards))])


# Each yaku as its (immutable) scored value, built once: a round's settlement reads them.
_HELD = tuple((need, Yaku(slug, YAKU_VALUE, tuple(ids_in(need)))) for slug, need in YAKU.items())


def yaku_of(m: int) -> list[Yaku]:
    """Bit-set version of :func:`score_yaku`: every yaku whose three cards are in ``m``."""
    return [yaku for need, yaku in _HELD if m & need == need]


def score_yaku(cards: Iterable[Card | str | int] | int, rules: Rules | None = None) -> list[Yaku]:
    """The yaku a capture pile holds, each worth 50 (cards may serve in two yaku).

    ``rules`` is accepted for the common contract; no Sakura option changes the yaku.
    """
    return yaku_of(_mask_of(cards))


def side_scores(piles: list[int], rules: Rules) -> list[dict[str, Any]]:
    """Score each side's pile: card points, own yaku, the penalty from the others' yaku, total."""
    held = [yaku_of(p) for p in piles]
    out = []
    for s, pile in enumerate(piles):
        others = sum(len(y) for t, y in enumerate(held) if t != s)
        points = card_points(pile, rules)
        bonus = YAKU_VALUE * len(held[s]) if rules.own_yaku_scores else 0
        out.append({
            "card_points": points,
            "yaku": [[y.slug, y.points, list(y.cards)] for y in held[s]],
            "yaku_bonus": bonus,
            "penalty": YAKU_VALUE * others,
            "total": points + bonus - YAKU_VALUE * others,
        })
    return out


def first_in_turn_order(seats: Iterable[int], dealer: int, num_players: int) -> int:
    """The seat that plays earliest in a round the dealer opens (FW-SK tie rule)."""
    return min(seats, key=lambda s: (s - dealer) % num_players)


def victory_count(margin: int, rules: Rules) -> tuple[int, str]:
    """Victories for a round won ``margin`` points ahead of the best other side (FW-SK)."""
    v = rules.victory
    if v in ("basa", "chu_basa") and margin >= BASA:
        return (3 if v == "chu_basa" else 2), "basa"
    if v in ("chu", "chu_basa") and margin >= 50:
        return 2, "chu"
    return 1, "win"


def settle(piles: list[int], sides: list[list[int]], dealer: int, rules: Rules) -> dict[str, Any]:
    """The round outcome from each side's pile: per-seat points, winner, the full detail.

    The winner is the best score, ties to whoever is earliest in turn order (FW-SK); the winner
    deals next. In ``points`` counting every seat scores its side's total; otherwise only the
    winning side scores its victories.
    """
    n = sum(len(s) for s in sides)
    scores = side_scores(piles, rules)
    best = max(sc["total"] for sc in scores)
    top = [seat for s, sc in enumerate(scores) if sc["total"] == best for seat in sides[s]]
    winner = first_in_turn_order(top, dealer, n)
    win_side = next(s for s, seats in enumerate(sides) if winner in seats)
    others = [sc["total"] for s, sc in enumerate(scores) if s != win_side]
    margin = best - max(others)
    seat_total = [0] * n
    yaku_by_seat: dict[str, list] = {}
    for s, seats in enumerate(sides):
        for seat in seats:
            seat_total[seat] = scores[s]["total"]
            yaku_by_seat[str(seat)] = scores[s]["yaku"]
    detail: dict[str, Any] = {
        "kind": "round_end", "winner": winner, "scores": seat_total, "sides": sides,
        "side_scores": scores, "yaku_by_seat": yaku_by_seat, "margin": margin,
    }
    if rules.victory == "points":
        points = list(seat_total)
    else:
        count, label = victory_count(margin, rules)
        points = [count if seat in sides[win_side] else 0 for seat in range(n)]
        detail["victory"] = label
        detail["shira_basa"] = label == "basa" and not any(sc["yaku"] for sc in scores)
    detail["points"] = points
    return detail
