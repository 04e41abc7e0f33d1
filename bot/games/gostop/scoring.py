"""Go-Stop scoring (jokbo, RULES.md §3.3) and settlement (§3.4).

:func:`score_yaku` is the public scoring function: a pile of captured cards in, yaku slugs with
points out. :func:`settle` computes what every loser pays the winner; :class:`GoStopRound` calls
it when a round is won, and the tests call it with hand-made piles.

Piles are integer bit sets like everywhere in ``bot.games``. Bits 48..50 are the optional jokers
(``joker_1``, ``joker_2`` worth 2 pi, ``joker_3`` worth 3 pi; option ``jokers``).

The dual card (the sake cup, or the May bridge with ``sake_cup="bridge"``) is read as an animal
or as a double pi. ``reading`` is ``"animal"``, ``"pi"`` or ``None`` for the higher-scoring one
(ties read as an animal).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from bot.cards import (
    ANIMALS,
    BIRDS,
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    DECK,
    GRASS_RIBBONS,
    POETRY_RIBBONS,
    RIBBONS,
    Card,
    card,
    ids_in,
    indices_in,
)

from .rules import BRIGHT_SLUGS, Rules

RAIN = card("rainman").bit
SAKE = card("sake_cup").bit
BRIDGE = card("bridge").bit
WILLOW_RIBBON = card("plain_ribbon_willow").bit
LIGHTNING = card("lightning").bit
YELLOW = card("paulownia_chaff_yellow").bit
DOUBLE_PI = LIGHTNING | YELLOW
INOSHIKACHO = card("boar").bit | card("deer").bit | card("butterflies").bit

JOKER_IDS = ("joker_1", "joker_2", "joker_3")
JOKER_VALUES = (2, 2, 3)
JOKER_BASE = 48
JOKERS = 0b111 << JOKER_BASE
JOKERS_2 = 0b011 << JOKER_BASE
JOKER_3 = 0b100 << JOKER_BASE
SINGLE_PI = CHAFF & ~DOUBLE_PI

_ID_TO_INDEX: dict[str, int] = {c.id: c.index for c in DECK}
_ID_TO_INDEX.update({jid: JOKER_BASE + k for k, jid in enumerate(JOKER_IDS)})
_INDEX_TO_ID: tuple[str, ...] = tuple(c.id for c in DECK) + JOKER_IDS
_CARDS = len(_INDEX_TO_ID)


class Yaku(NamedTuple):
    """A scored yaku: its slug, its points and the cards that make it."""

    slug: str
    points: int
    cards: tuple[str, ...]


# -- card ids with jokers -------------------------------------------------------------------
def card_id(index: int) -> str:
    return _INDEX_TO_ID[index]


def card_index(ref: Card | str | int) -> int:
    if isinstance(ref, Card):
        return ref.index
    if isinstance(ref, int):
        if not 0 <= ref < JOKER_BASE + len(JOKER_IDS):
            raise KeyError(f"no card with index {ref}")
        return ref
    try:
        return _ID_TO_INDEX[ref]
    except KeyError:
        raise KeyError(f"unknown card id {ref!r}") from None


def ids(m: int) -> list[str]:
    if not m >> JOKER_BASE:
        return ids_in(m)
    return [_INDEX_TO_ID[i] for i in indices_in(m)]


def to_mask(cards: Iterable[Card | str | int] | int) -> int:
    if isinstance(cards, int):
        return cards
    m = 0
    for c in cards:
        # A dealt pile is indices: those skip card_index's type checks.
        m |= 1 << (c if type(c) is int and 0 <= c < _CARDS else card_index(c))
    return m


def is_joker(index: int) -> bool:
    return index >= JOKER_BASE


def korean_month(index: int) -> int | None:
    """The Korean month number shown on screen (paulownia 11, willow 12); None for a joker."""
    return None if index >= JOKER_BASE else DECK[index].korean_month


# -- counting -------------------------------------------------------------------------------
def dual_card(rules: Rules) -> int:
    """The bit of the card read as an animal or a double pi (0 if none)."""
    if rules.sake_cup == "choose":
        return SAKE
    if rules.sake_cup == "bridge":
        return BRIDGE
    return 0


def animals_of(m: int, rules: Rules, reading: str | None = "animal") -> int:
    """The animal cards of a pile, the dual card left out when read as pi."""
    a = m & ANIMALS
    if reading == "pi":
        a &= ~dual_card(rules)
    return a


def pi_value(m: int, rules: Rules, reading: str | None = "animal") -> int:
    """Pi (junk) value: chaff 1, lightning and yellow paulownia 2, jokers 2/3, the sake cup 2
    when read as pi (always with ``sake_cup="both"``)."""
    v = (m & CHAFF).bit_count() + (m & DOUBLE_PI).bit_count()
    if m & JOKERS:
        v += 2 * (m & JOKERS_2).bit_count() + 3 * (m & JOKER_3).bit_count()
    if rules.sake_cup == "both":
        if m & SAKE:
            v += 2
    elif reading == "pi" and m & dual_card(rules):
        v += 2
    return v


# A yaku made by tuple.__new__ as Yaku's own __new__ does, one Python call fewer: a round's
# settlement makes several.
_new_tuple = tuple.__new__


def _y(out: list[Yaku], slug: str, points: int, cards: int) -> None:
    out.append(_new_tuple(Yaku, (slug, points, tuple(ids(cards)))))


def _y_no_cards(out: list[Yaku], slug: str, points: int, cards: int) -> None:
    out.append(_new_tuple(Yaku, (slug, points, ())))


def yaku_with(m: int, rules: Rules, reading: str, cards: bool = True) -> list[Yaku]:
    """Yaku of pile ``m`` with the dual card read as ``reading``; without their cards (left
    empty) when ``cards`` is false (a score announced after a turn names no cards)."""
    out: list[Yaku] = []
    add = _y if cards else _y_no_cards
    b = m & BRIGHTS
    n = b.bit_count()
    if n == 5:
        add(out, "ogwang", 15, b)
    elif n == 4:
        add(out, "sagwang", rules.four_brights_with_rain if b & RAIN else 4, b)
    elif n == 3:
        if b & RAIN:
            add(out, "bi_samgwang", 2, b)
        else:
            add(out, "samgwang", 3, b)
    a = animals_of(m, rules, reading)
    if (a & BIRDS) == BIRDS:
        add(out, "godori", rules.godori_points, BIRDS)
    if rules.inoshikacho_points and (a & INOSHIKACHO) == INOSHIKACHO:
        add(out, "inoshikacho", rules.inoshikacho_points, INOSHIKACHO)
    na = a.bit_count()
    if na >= 5:
        add(out, "yeol", na - 4, a)
    t = m & RIBBONS
    if (t & POETRY_RIBBONS) == POETRY_RIBBONS:
        add(out, "hongdan", 3, POETRY_RIBBONS)
    if (t & BLUE_RIBBONS) == BLUE_RIBBONS:
        add(out, "cheongdan", 3, BLUE_RIBBONS)
    if rules.chodan and (t & GRASS_RIBBONS) == GRASS_RIBBONS:
        add(out, "chodan", 3, GRASS_RIBBONS)
    if rules.willow_ribbon == "excluded":
        t &= ~WILLOW_RIBBON
    nt = t.bit_count()
    if nt >= 5:
        add(out, "tti", nt - 4, t)
    pv = pi_value(m, rules, reading)
    if pv >= 10:
        pi_cards = m & (CHAFF | JOKERS)
        if rules.sake_cup == "both":
            pi_cards |= m & SAKE
        elif reading == "pi":
            pi_cards |= m & dual_card(rules)
        add(out, "pi", pv - 9, pi_cards)
    return out


def total(yaku: list[Yaku]) -> int:
    return sum(y.points for y in yaku)


def readings(m: int, rules: Rules) -> tuple[str, ...]:
    """The readings that differ for this pile: ("animal", "pi") if it holds the dual card."""
    return ("animal", "pi") if m & dual_card(rules) else ("animal",)


def best_reading(m: int, rules: Rules) -> str:
    """The reading with the higher base score (an animal on a tie)."""
    if not m & dual_card(rules):
        return "animal"
    return pile_scorer(rules).reading(m)


def yaku_of(m: int, rules: Rules, reading: str | None = None, cards: bool = True) -> list[Yaku]:
    """Bit-set version of :func:`score_yaku` (``cards``: see :func:`yaku_with`)."""
    return yaku_with(m, rules, reading or best_reading(m, rules), cards)


def points_with(m: int, rules: Rules, reading: str) -> int:
    """Total base points of pile ``m`` with the dual card read as ``reading`` (fast path of
    ``total(yaku_with(...))``, used after every turn)."""
    pts = 0
    b = m & BRIGHTS
    n = b.bit_count()
    if n == 5:
        pts = 15
    elif n == 4:
        pts = rules.four_brights_with_rain if b & RAIN else 4
    elif n == 3:
        pts = 2 if b & RAIN else 3
    a = m & ANIMALS
    if reading == "pi":
        a &= ~dual_card(rules)
    if (a & BIRDS) == BIRDS:
        pts += rules.godori_points
    if rules.inoshikacho_points and (a & INOSHIKACHO) == INOSHIKACHO:
        pts += rules.inoshikacho_points
    na = a.bit_count()
    if na >= 5:
        pts += na - 4
    t = m & RIBBONS
    if (t & POETRY_RIBBONS) == POETRY_RIBBONS:
        pts += 3
    if (t & BLUE_RIBBONS) == BLUE_RIBBONS:
        pts += 3
    if rules.chodan and (t & GRASS_RIBBONS) == GRASS_RIBBONS:
        pts += 3
    if rules.willow_ribbon == "excluded":
        t &= ~WILLOW_RIBBON
    nt = t.bit_count()
    if nt >= 5:
        pts += nt - 4
    return pts + _pi_points(pi_value(m, rules, reading))


def _pi_points(pv: int) -> int:
    """The pi yaku's points for a pi value of ``pv``."""
    return pv - 9 if pv >= 10 else 0


# _pi_points of every pi value a pile can have (at most 51 cards): a table read in the scorer.
_PI_POINTS = tuple(_pi_points(pv) for pv in range(64))


def _subsets(mask: int) -> list[int]:
    subsets = [0]
    for i in indices_in(mask):
        subsets += [s | 1 << i for s in subsets]
    return subsets


class PileScorer:
    """:func:`base_score` under one rule set, from tables: a pile scores what its brights, its
    ribbons and its animals score on their own (each table filled by :func:`points_with` on
    those cards alone) plus its pi points, the dual card read the higher way. A round scores a
    pile after every turn that changed it: a few table reads instead of every yaku's test."""

    __slots__ = ("rules", "brights", "ribbons", "animals", "dual")

    def __init__(self, rules: Rules) -> None:
        self.brights = {b: points_with(b, rules, "animal") for b in _subsets(BRIGHTS)}
        self.ribbons = {t: points_with(t, rules, "animal") for t in _subsets(RIBBONS)}
        # Animals alone hold at most the dual card's 2 pi: no pi points of their own.
        self.animals = {a: (points_with(a, rules, "animal"), points_with(a, rules, "pi"))
                        for a in _subsets(ANIMALS)}
        self.rules = rules
        self.dual = dual_card(rules)

    def score(self, m: int) -> int:
        """The base score of pile ``m`` (a round holds this bound method: a plain method is
        called faster than an instance through ``__call__``)."""
        pv = pi_value(m, self.rules, "animal")  # the dual card, if held, adds 2 read as pi
        as_animal, as_pi = self.animals[m & ANIMALS]
        pts = self.brights[m & BRIGHTS] + self.ribbons[m & RIBBONS]
        if m & self.dual:
            as_animal += _PI_POINTS[pv]
            as_pi += _PI_POINTS[pv + 2]
            return pts + (as_pi if as_pi > as_animal else as_animal)
        return pts + as_animal + _PI_POINTS[pv]

    def reading(self, m: int) -> str:
        """:func:`best_reading` of a pile holding the dual card: "pi" when that reading scores
        more (the brights and ribbons score the same either way)."""
        pv = pi_value(m, self.rules, "animal")
        as_animal, as_pi = self.animals[m & ANIMALS]
        return "pi" if as_pi + _PI_POINTS[pv + 2] > as_animal + _PI_POINTS[pv] else "animal"

    __call__ = score


@functools.lru_cache(maxsize=32)
def _scorer_of(rules: Rules) -> PileScorer:
    return PileScorer(rules)


_RECENT: dict[int, tuple[Rules, PileScorer]] = {}


def pile_scorer(rules: Rules) -> PileScorer:
    """The :class:`PileScorer` of ``rules``, found by the object first (a round's rules are one
    object), by value otherwise (a restored round has its own equal copy)."""
    hit = _RECENT.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    scorer = _scorer_of(rules)
    if len(_RECENT) >= 256:
        _RECENT.clear()
    _RECENT[id(rules)] = (rules, scorer)
    return scorer


def base_score(m: int, rules: Rules, reading: str | None = None) -> int:
    """Total base points of a pile (the higher reading of the dual card by default)."""
    if reading is None:
        return pile_scorer(rules)(m)
    return points_with(m, rules, reading)


def score_yaku(cards: Iterable[Card | str | int] | int, rules: Rules | None = None,
               reading: str | None = None) -> list[Yaku]:
    """The yaku a pile of captured cards scores under ``rules`` (default: Korean rules).

    ``cards`` may be Cards, canonical ids (jokers ``joker_1``..``joker_3``), indices or a bit
    set. ``reading`` fixes the dual card as ``"animal"`` or ``"pi"``; by default the higher one.

    >>> [(y.slug, y.points) for y in score_yaku(["crane", "curtain", "moon"])]
    [('samgwang', 3)]
    """
    return yaku_of(to_mask(cards), rules or Rules(), reading)


# -- settlement -----------------------------------------------------------------------------
def go_bonus(rules: Rules, goes: int) -> tuple[int, int]:
    """(bonus points, multiplier) for ``goes`` go calls by the winner (§3.4, option go_scheme)."""
    scheme = rules.go_scheme
    if goes <= 0:
        return 0, 1
    if scheme == "korean":
        return goes, (2 ** (goes - 2) if goes >= 3 else 1)
    if scheme == "times_n":
        return (1, 1) if goes == 1 else (0, goes)
    if scheme == "factorial":
        return (goes, 1) if goes <= 2 else (0, math.factorial(goes - 1))
    return 0, (2 ** (goes - 2) if goes >= 3 else 1)  # doubling_only


def nagari_factor(rules: Rules, nagari: int) -> int:
    if rules.nagari_carry == "off" or nagari <= 0:
        return 1
    if rules.nagari_cap:
        nagari = min(nagari, rules.nagari_cap)
    return 2 ** nagari


_MEONGBAK_ANIMALS = {"yeol": 5, "seven": 7}  # option meongbak: the winner's animals it needs


def settle(
    rules: Rules,
    winner: int,
    piles: list[int],
    *,
    goes: list[int] | None = None,
    go_order: list[int] | None = None,
    shakes: list[int] | None = None,
    bombs: list[int] | None = None,
    nagari: int = 0,
    reading: dict[int, str] | None = None,
    mission_month: int | None = None,
) -> dict[str, Any]:
    """What each loser pays ``winner`` (RULES.md §3.4).

    ``winner score = (base + go bonus + shake points) x go multiplier x 2 per shake x bomb
    multiplier per bomb x 2 for meong-tta x 2 per preceding nagari (x 2 for a mission)``; each
    loser pays it x 2 for gwang-bak, pi-bak and meong-bak (or +2 with the ``plus_two`` options)
    and, with two players, x 2 for go-bak; with three players a loser who called go pays every
    loser's amount (the first caller if both did) and the other pays nothing. A loser who
    captured nothing pays nothing (``empty_pile_exempt``).

    ``reading`` maps a seat holding the dual card to its reading (default: the winner's higher
    reading, a loser's animal reading). Returns a JSON-friendly dict with ``score``, ``payments``
    (one per loser) and ``points`` (zero-sum, per seat).
    """
    n = len(piles)
    goes = goes or [0] * n
    go_order = go_order or [s for s in range(n) if goes[s]]
    shakes = shakes or [0] * n
    bombs = bombs or [0] * n
    reading = dict(reading or {})
    w_read = reading.get(winner) or best_reading(piles[winner], rules)
    yaku = yaku_with(piles[winner], rules, w_read)
    base = 0
    slugs = set()
    for y in yaku:  # total() and the slugs in one pass (no generator frames)
        base += y.points
        slugs.add(y.slug)

    add, go_mult = go_bonus(rules, goes[winner])
    bonus: list[list[Any]] = []
    mults: list[list[Any]] = []
    if add:
        bonus.append(["go", add])
    if go_mult > 1:
        mults.append(["go", go_mult])
    if shakes[winner]:
        if rules.shake_multiplier == "double":
            mults.append(["shake", 2 ** shakes[winner]])
        else:
            bonus.append(["shake", shakes[winner]])
    if bombs[winner] and rules.bomb_multiplier > 1:
        mults.append(["bomb", rules.bomb_multiplier ** bombs[winner]])
    w_animals = animals_of(piles[winner], rules, w_read).bit_count()
    if rules.meongtta and w_animals >= 7:
        mults.append(["meongtta", 2])
    nf = nagari_factor(rules, nagari)
    if nf > 1:
        mults.append(["nagari", nf])
    if mission_month and (piles[winner] >> (4 * (mission_month - 1)) & 0b1111) == 0b1111:
        mults.append(["mission", 2])
    if rules.joker_power == "double" and piles[winner] & JOKERS:
        mults.append(["joker", 2 ** (piles[winner] & JOKERS).bit_count()])
    score = base
    for _, b in bonus:
        score += b
    for _, f in mults:
        score *= f

    payments: list[dict[str, Any]] = []
    need = _MEONGBAK_ANIMALS.get(rules.meongbak)
    for seat in range(n):
        if seat == winner:
            continue
        pile = piles[seat]
        read = reading.get(seat, "animal")
        pens: list[list[Any]] = []
        extra: list[list[Any]] = []
        immune = rules.joker_power == "immunity" and bool(pile & JOKERS)
        due: list[tuple[str, str]] = []  # (penalty, how it counts)
        brights = pile & BRIGHTS
        if not rules.gwangbak_rain_protects:
            brights &= ~RAIN
        if slugs & BRIGHT_SLUGS and not brights:
            due.append(("gwangbak", rules.gwangbak))
        pv = pi_value(pile, rules, read)
        if "pi" in slugs and pv <= rules.pibak_max(n) and (pv > 0 or not rules.pibak_zero_exempt):
            due.append(("pibak", rules.pibak))
        if need and w_animals >= need and not animals_of(pile, rules, read):
            due.append(("meongbak", "double"))
        if rules.gobak and n == 2 and goes[seat]:
            due.append(("gobak", "double"))
        if not immune:
            for name, mode in due:
                if mode == "double":
                    pens.append([name, 2])
                elif mode == "plus_two":
                    extra.append([name, 2])
        amount = score
        for _, f in pens:
            amount *= f
        for _, e in extra:
            amount += e
        exempt = rules.empty_pile_exempt and pile == 0
        payments.append({"seat": seat, "owed": amount, "amount": 0 if exempt else amount,
                         "penalties": pens, "extra": extra, "exempt": exempt,
                         "reading": read if pile & dual_card(rules) else None,
                         "immune": immune, "pays_for": []})
    liable = None
    if rules.gobak and n >= 3:
        immune = rules.joker_power == "immunity"
        callers = [s for s in go_order if s != winner and goes[s]
                   and not (immune and piles[s] & JOKERS)]
        if callers:
            liable = callers[0]
            mine = next(p for p in payments if p["seat"] == liable)
            for p in payments:
                if p is not mine:
                    mine["amount"] += p["amount"]
                    mine["pays_for"].append(p["seat"])
                    p["amount"] = 0
                    p["covered_by"] = liable
    points = [0] * n
    for p in payments:
        points[p["seat"]] -= p["amount"]
        points[winner] += p["amount"]
    return {
        "winner": winner,
        "base": base,
        "yaku": [[y.slug, y.points, list(y.cards)] for y in yaku],
        "reading": w_read if piles[winner] & dual_card(rules) else None,
        "goes": goes[winner],
        "bonus": bonus,
        "multipliers": mults,
        "score": score,
        "payments": payments,
        "liable": liable,
        "total": points[winner],
        "points": points,
    }


def progress(m: int, rules: Rules) -> list[tuple[str, int, int]]:
    """Yaku a pile is close to: (slug, cards held, cards needed), for the table picture and AI."""
    out: list[tuple[str, int, int]] = []
    nb = (m & BRIGHTS).bit_count()
    if 1 <= nb < 3:
        out.append(("samgwang", nb, 3))
    groups = [("godori", BIRDS), ("hongdan", POETRY_RIBBONS), ("cheongdan", BLUE_RIBBONS)]
    if rules.chodan:
        groups.append(("chodan", GRASS_RIBBONS))
    for slug, group in groups:
        have = (m & group).bit_count()
        if 1 <= have < 3:
            out.append((slug, have, 3))
    na = animals_of(m, rules, "animal").bit_count()
    if 3 <= na < 5:
        out.append(("yeol", na, 5))
    nt = (m & RIBBONS).bit_count()
    if 3 <= nt < 5:
        out.append(("tti", nt, 5))
    pv = pi_value(m, rules, best_reading(m, rules))
    if 6 <= pv < 10:
        out.append(("pi", pv, 10))
    return out
