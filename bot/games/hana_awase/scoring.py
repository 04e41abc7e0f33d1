"""Hana-Awase yaku (docs/rules/hana-awase.md §6; seed 004 "Captured Hands", FW-HA "Yaku") and
settlement (§7).

:func:`score_yaku` scores one captured pile, with the exclusive groups (brights; seven and six
ribbons; viewings) and the rain man voiding viewings. :func:`settle` scores a whole table: the
willow-row interactions, additive or zero-sum totals, teyaku, compensation and fuke.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.cards import (
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    GRASS_RIBBONS,
    MONTH_MASKS,
    POETRY_RIBBONS,
    RIBBONS,
    VALUE_OF,
    Card,
    card,
    ids_in,
    indices_in,
    mask,
)

from ..koikoi.scoring import Yaku
from .rules import POINT_TABLES, YAKU_SLUGS, Rules

RAIN = card("rainman").bit
WILLOW_RIBBON = card("plain_ribbon_willow").bit
SHIKO = BRIGHTS & ~RAIN
# (slug, cards needed) for the yaku that are a fixed set of cards.
SETS: tuple[tuple[str, int], ...] = (
    ("goko", BRIGHTS),
    ("shiko", SHIKO),
    ("omote_sugawara", mask(["crane", "bush_warbler", "curtain"])),
    ("matsu_kiri_bozu", mask(["crane", "phoenix", "moon"])),
    ("akatan", POETRY_RIBBONS),
    ("aotan", BLUE_RIBBONS),
    ("kusatan", GRASS_RIBBONS),
    ("inoshikacho", mask(["boar", "deer", "butterflies"])),
    ("nomi", mask(["sake_cup", "curtain", "moon"])),
    ("hanami", mask(["sake_cup", "curtain"])),
    ("tsukimi", mask(["sake_cup", "moon"])),
    ("yanagishima", MONTH_MASKS[11]),
    ("fujishima", MONTH_MASKS[4]),
    ("kirishima", MONTH_MASKS[12]),
)
RIBBON_COUNTS = (("nanatan", 7), ("rokutan", 6))  # any ribbons but the willow one
_FEWEST_RIBBONS = min(n for _slug, n in RIBBON_COUNTS)
EXCLUSIVE_GROUPS = (
    ("goko", "shiko", "omote_sugawara", "matsu_kiri_bozu"),
    ("nanatan", "rokutan"),
    ("nomi", "hanami", "tsukimi"),
)
VIEWINGS = EXCLUSIVE_GROUPS[2]
YAKU_CARDS = RIBBONS & ~WILLOW_RIBBON | RAIN
for _slug, _need in SETS:
    YAKU_CARDS |= _need
"""Every card the yaku read: a pile scores the yaku of its part within this set."""


def card_points(m: int, rules: Rules | None = None) -> int:
    """Bright 20, animal 10, ribbon 5, chaff 1 (or 0 by option)."""
    values = _VALUES[(rules or Rules()).chaff_value]
    return sum([values[i] for i in indices_in(m)])


# Card values by index, per chaff value (1, or 0 by option).
_VALUES = {chaff: tuple(chaff if CHAFF >> i & 1 else VALUE_OF[i] for i in range(48))
           for chaff in Rules.CHOICES["chaff_value"]}


# Per point table: (slug, cards needed, points) of the set yaku it scores, and (slug, ribbons
# needed, points) of the ribbon counts. Precomputed so scoring a pile is a few bit tests.
_SCORED_SETS = {table: tuple((slug, need, pts) for slug, need in SETS if (pts := points.get(slug, 0)))
                for table, points in POINT_TABLES.items()}
_SCORED_RIBBONS = {table: tuple((slug, n, pts) for slug, n in RIBBON_COUNTS
                                if (pts := points.get(slug, 0)))
                   for table, points in POINT_TABLES.items()}

Found = tuple[str, int, int]  # (slug, points, the cards that make it as a bit set)


def _pile_yaku(m: int, rules: Rules) -> list[Found]:
    """The yaku pile ``m`` scores, as bit sets: the core of :func:`score_yaku`."""
    found = [(slug, pts, need) for slug, need, pts in _SCORED_SETS[rules.point_table]
             if m & need == need]
    ribbons = m & RIBBONS & ~WILLOW_RIBBON
    count = ribbons.bit_count()
    if count >= _FEWEST_RIBBONS:
        found.extend((slug, pts, ribbons) for slug, n, pts in _SCORED_RIBBONS[rules.point_table]
                     if count >= n)
    if rules.rain_voids_viewings and m & RAIN:
        found = [y for y in found if y[0] not in VIEWINGS]
    if rules.exclusive_yaku and len(found) > 1:
        for group in EXCLUSIVE_GROUPS:
            held = [y for y in found if y[0] in group]
            if len(held) > 1:
                keep = max(held, key=lambda y: (y[1], -group.index(y[0])))
                found = [y for y in found if y[0] not in group or y is keep]
    return found


_RANK = {slug: i for i, slug in enumerate(YAKU_SLUGS)}  # the order yaku are listed in


def _as_yaku(found: list[Found]) -> list[Yaku]:
    if not found:
        return []
    return sorted((Yaku(slug, pts, tuple(ids_in(cards))) for slug, pts, cards in found),
                  key=lambda y: _RANK[y.slug])


def score_yaku(cards: Iterable[Card | str | int] | int, rules: Rules | None = None) -> list[Yaku]:
    """The yaku a pile of captured cards (Cards, ids, indices or a bit set) scores."""
    return _as_yaku(_pile_yaku(cards if isinstance(cards, int) else mask(cards), rules or Rules()))


def total(yaku: list[Yaku]) -> int:
    return sum([y.points for y in yaku])


def _table(piles: list[int], rules: Rules) -> list[list[Found]]:
    found = [_pile_yaku(p, rules) for p in piles]
    if rules.willow_row == "normal":
        return found  # the willow row changes nobody's yaku
    owners = [any(y[0] == "yanagishima" for y in ys) for ys in found]
    if rules.willow_row == "cancels_all" and any(owners):
        return [[] for _ in found]
    if rules.willow_row == "owner_only" and any(owners):
        return [ys if own else [] for ys, own in zip(found, owners, strict=True)]
    return found


def table_yaku(piles: list[int], rules: Rules) -> list[list[Yaku]]:
    """Each seat's yaku after the willow-row interaction (FW-HA 'Extra Yaku Interactions')."""
    return [_as_yaku(found) for found in _table(piles, rules)]


def table_totals(piles: list[int], rules: Rules) -> list[int]:
    """Each seat's yaku points as :func:`table_yaku` scores them, without building the yaku
    (the AI's rollouts ask this many thousand times a decision)."""
    return [sum(y[1] for y in found) for found in _table(piles, rules)]


def compensation_due(captured_counts: list[int], turn_order: list[int]) -> list[int]:
    """Seats owed compensation with three players: dealer and second at 8 cards or fewer,
    third at 10 or fewer (FW-HA 'Compensation')."""
    if len(turn_order) != 3:
        return []
    limits = dict(zip(turn_order, (8, 8, 10), strict=True))
    return [seat for seat in turn_order if captured_counts[seat] <= limits[seat]]


def pay(scores: list[int], payee: int, amount: int) -> None:
    """``payee`` receives ``amount`` from each other seat."""
    for seat in range(len(scores)):
        if seat != payee:
            scores[seat] -= amount
            scores[payee] += amount


def settle(piles: list[int], rules: Rules, turn_order: list[int],
           teyaku: list[int] | None = None) -> dict:
    """Round scores of a table of captured piles; ``teyaku[seat]`` is what each other seat pays it."""
    n = len(piles)
    points = [card_points(p, rules) for p in piles]
    yaku = table_yaku(piles, rules)
    totals = [total(ys) for ys in yaku]
    detail = {
        "card_points": points,
        "yaku_by_seat": {str(s): [[y.slug, y.points, list(y.cards)] for y in yaku[s]] for s in range(n)},
        "par": rules.deck_value() // n if rules.scoring == "zero_sum" else 0,
        "void": False,
        "compensated": [],
    }
    if rules.fuke and min(points) <= 20:
        detail.update(points=[0] * n, void=True)
        return detail
    if rules.scoring == "zero_sum":
        scores = [points[s] - detail["par"] + totals[s] * (n - 1) - (sum(totals) - totals[s])
                  for s in range(n)]
    else:
        scores = [points[s] + totals[s] for s in range(n)]
    for seat, amount in enumerate(teyaku or []):
        if amount:
            pay(scores, seat, amount)
    if rules.compensation:
        detail["compensated"] = compensation_due([p.bit_count() for p in piles], turn_order)
        for seat in detail["compensated"]:
            pay(scores, seat, 30)
    detail["points"] = scores
    return detail
