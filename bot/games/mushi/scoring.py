"""Mushi yaku (docs/rules/mushi.md §6, FW-MU "Yaku") and the zero-sum round settlement (§7, FW-MU
"Scoring").

All yaku stack. :func:`score_yaku` is the public scoring function; :func:`settle` turns both
captured piles into round scores: ``(card points - par) + own yaku - opponent's yaku``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.cards import BRIGHTS, DECK, MONTH_MASKS, VALUE_OF, Card, ids_in, indices_in, mask

from ..koikoi.scoring import Yaku
from .rules import Rules

SANKO_MUSHI = mask(["crane", "bush_warbler", "curtain"])  # the warbler stands in for a bright
FUJISHIMA = MONTH_MASKS[4]
KIRISHIMA = MONTH_MASKS[12]
MUSHI_DECK = [c.index for c in DECK if c.month not in (6, 7)]  # no peony, no bush clover
_SETS = tuple((slug, need, tuple(ids_in(need))) for slug, need in (
    ("goko", BRIGHTS), ("sanko_mushi", SANKO_MUSHI), ("fujishima", FUJISHIMA), ("kirishima", KIRISHIMA)))


YAKU_CARDS = BRIGHTS | SANKO_MUSHI | FUJISHIMA | KIRISHIMA
"""Every card the yaku read: a pile scores the yaku of its part within this set."""


def card_points(m: int) -> int:
    """Classic values of a pile: bright 20, animal 10, ribbon 5, chaff 1."""
    return sum([VALUE_OF[i] for i in indices_in(m)])


def score_yaku(cards: Iterable[Card | str | int] | int, rules: Rules | None = None) -> list[Yaku]:
    """The yaku a pile of captured cards (Cards, ids, indices or a bit set) scores."""
    rules = rules or Rules()
    m = cards if isinstance(cards, int) else mask(cards)
    out: list[Yaku] = []
    for slug, need, ids in _SETS:
        points = rules.points(slug)
        if points and m & need == need:
            out.append(Yaku(slug, points, ids))
    return out


def yaku_points(m: int, rules: Rules) -> int:
    """``total(score_yaku(m, rules))`` without building the yaku (the greedy player's inner loop)."""
    got = 0
    for slug, need, _ids in _SETS:
        if m & need == need:
            got += rules.points(slug)
    return got


def total(yaku: list[Yaku]) -> int:
    return sum(y.points for y in yaku)


def settle(piles: list[int], rules: Rules) -> tuple[list[int], list[int], list[list[Yaku]]]:
    """(round scores, card points, yaku) per seat for the two captured piles."""
    points = [card_points(p) for p in piles]
    yaku = [score_yaku(p, rules) for p in piles]
    scores = [points[p] - rules.par + total(yaku[p]) - total(yaku[1 - p]) for p in (0, 1)]
    return scores, points, yaku
