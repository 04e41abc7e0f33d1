"""Seotda's 20-card deck and two-card hand ranks (docs/rules/seotda.md, with its sources).

A hand is named by a slug (``gwangttaeng_38``, ``ttaeng_10``, ``ali``, ``kkeut_9``, ``mangtong``,
and the special hands ``amhaeng_eosa``, ``ttaengjabi``, ``gusa``, ``meongteongguri_gusa``) and
ordered by a strength (higher wins). A special hand has the strength of its plain kkeut; what it
catches or calls is decided at the showdown by :func:`showdown`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from bot.cards import card

from .descriptor import DESCRIPTOR

# The game's 20 cards, as its descriptor lists them.
DECK: tuple[str, ...] = DESCRIPTOR.cards or ()
GWANG = frozenset({"crane", "curtain", "moon"})  # the brights of months 1, 3 and 8
YEOLKKEUT = frozenset({"cuckoo", "boar", "sake_cup"})  # the animal cards of 4, 7 and 9

# Named pairs above kkeut, best first [FW, KW]: (slug, months).
NAMED_PAIRS: tuple[tuple[str, frozenset[int]], ...] = (
    ("ali", frozenset({1, 2})), ("doksa", frozenset({1, 4})), ("gubbing", frozenset({1, 9})),
    ("jangbbing", frozenset({1, 10})), ("jangsa", frozenset({10, 4})), ("seryuk", frozenset({4, 6})),
)
SPECIAL = ("amhaeng_eosa", "ttaengjabi", "gusa", "meongteongguri_gusa")

# Strengths: mangtong 0, kkeut_n n, named pairs 10..15 (seryuk 10, ali 15), ttaeng_n 20 + n,
# 13/18 gwang-ttaeng 40, 38 gwang-ttaeng 50.
MANGTONG = 0
ALI = 15
TTAENG_BASE = 20
JANG_TTAENG = TTAENG_BASE + 10
GWANGTTAENG = 40
GWANGTTAENG_38 = 50


def month(cid: str) -> int:
    return card(cid).month


@dataclass(frozen=True, slots=True)
class Hand:
    """What two cards make: ``slug`` names it, ``strength`` ranks it (specials at their plain
    rank), ``plain`` is the slug of that plain rank (= ``slug`` for an ordinary hand)."""

    slug: str
    strength: int
    plain: str
    cards: tuple[str, str]

    @property
    def special(self) -> bool:
        return self.slug != self.plain


def _plain(a: str, b: str) -> tuple[str, int]:
    ma, mb = month(a), month(b)
    if a in GWANG and b in GWANG:
        if {ma, mb} == {3, 8}:
            return "gwangttaeng_38", GWANGTTAENG_38
        return f"gwangttaeng_1{max(ma, mb)}", GWANGTTAENG
    if ma == mb:
        return f"ttaeng_{ma}", TTAENG_BASE + ma
    months = frozenset({ma, mb})
    for i, (slug, pair) in enumerate(NAMED_PAIRS):
        if months == pair:
            return slug, ALI - i
    digit = (ma + mb) % 10
    return ("mangtong", MANGTONG) if digit == 0 else (f"kkeut_{digit}", digit)


@lru_cache(maxsize=512)
def _evaluate(a: str, b: str, specials: bool) -> Hand:
    plain, strength = _plain(a, b)
    slug = plain
    if specials:
        pair = {a, b}
        months = {month(a), month(b)}
        if pair == {"cuckoo", "boar"}:
            slug = "amhaeng_eosa"
        elif months == {3, 7}:
            slug = "ttaengjabi"
        elif pair == {"cuckoo", "sake_cup"}:
            slug = "meongteongguri_gusa"
        elif months == {4, 9}:
            slug = "gusa"
    return Hand(slug, strength, plain, (a, b))


def evaluate(cards: Sequence[str], specials: bool = True) -> Hand:
    """The hand two cards make (order does not matter)."""
    if len(cards) != 2 or cards[0] == cards[1]:
        raise ValueError("a Seotda hand is two different cards")
    for c in cards:
        if c not in DECK:
            raise ValueError(f"{c} is not one of Seotda's 20 cards")
    a, b = sorted(cards, key=DECK.index)
    return _evaluate(a, b, specials)


def best_two(cards: Sequence[str], specials: bool = True) -> Hand:
    """The strongest plain hand among the pairs of ``cards`` (three-card Seotda's default keep)."""
    return max((evaluate(pair, specials) for pair in combinations(cards, 2)), key=lambda h: h.strength)


@dataclass(frozen=True, slots=True)
class Showdown:
    """The outcome of comparing the shown hands: the winning seats (several = a tie), the rule
    that decided (``best``, ``amhaeng_eosa``, ``ttaengjabi``) or the redeal called
    (``gusa``, ``meongteongguri_gusa``) with the seat that called it."""

    winners: tuple[int, ...]
    decided_by: str
    redeal: str | None = None
    caller: int | None = None


def showdown(hands: dict[int, Hand]) -> Showdown:
    """Who wins among the shown ``hands`` (seat -> hand), with the special hands read through the
    best ordinary hand (docs/rules/seotda.md, "Special hands")."""
    top = max(h.strength for h in hands.values())
    winners = tuple(s for s, h in hands.items() if h.strength == top)
    decided = "best"
    if GWANGTTAENG <= top < GWANGTTAENG_38:
        catchers = tuple(s for s, h in hands.items() if h.slug == "amhaeng_eosa")
        if catchers:
            winners, decided, top = catchers, "amhaeng_eosa", GWANGTTAENG
    elif TTAENG_BASE < top < JANG_TTAENG:
        catchers = tuple(s for s, h in hands.items() if h.slug == "ttaengjabi")
        if catchers:
            winners, decided = catchers, "ttaengjabi"
    for slug, limit in (("meongteongguri_gusa", JANG_TTAENG), ("gusa", ALI)):
        callers = [s for s, h in hands.items() if h.slug == slug]
        if callers and top <= limit:
            return Showdown(winners, decided, slug, callers[0])
    return Showdown(winners, decided)


def all_hands(specials: bool = True) -> Iterable[Hand]:
    """Every two-card hand of the deck (190)."""
    for a, b in combinations(DECK, 2):
        yield evaluate((a, b), specials)


HAND_SLUGS: tuple[str, ...] = (
    "gwangttaeng_38", "gwangttaeng_18", "gwangttaeng_13",
    *(f"ttaeng_{n}" for n in range(10, 0, -1)),
    *(slug for slug, _ in NAMED_PAIRS),
    *(f"kkeut_{n}" for n in range(9, 0, -1)), "mangtong", *SPECIAL,
)
"""Every hand name, best plain rank first, then the special hands."""

__all__ = ["DECK", "GWANG", "YEOLKKEUT", "SPECIAL", "HAND_SLUGS", "Hand", "Showdown", "evaluate",
           "best_two", "showdown", "all_hands", "month"]
