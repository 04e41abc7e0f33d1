"""Go-Stop scoring (jokbo, docs/rules/gostop.md §3) and settlement (§4).

:func:`score_yaku` is the public scoring function: a pile of captured cards in, yaku slugs with
points out. :func:`settle` computes what every loser pays the winner (the tests call it with
hand-made piles); :class:`Settlement` is that in steps, which :class:`GoStopRound` works through
when a round is won, sharing what the dual card's two readings have in common.

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
    pi = _pi_yaku(m, rules, reading)
    if pi:
        add(out, "pi", pi[1], pi[2])
    return out


def _pi_yaku(m: int, rules: Rules, reading: str) -> tuple[str, int, int] | None:
    """The pi yaku of pile ``m`` as (slug, points, its cards' bit set); None below 10 pi."""
    pv = pi_value(m, rules, reading)
    if pv < 10:
        return None
    pi_cards = m & (CHAFF | JOKERS)
    if rules.sake_cup == "both":
        pi_cards |= m & SAKE
    elif reading == "pi":
        pi_cards |= m & dual_card(rules)
    return "pi", pv - 9, pi_cards


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

    __slots__ = ("rules", "brights", "ribbons", "animals", "dual", "more_pi", "pi_extra", "_named")

    def __init__(self, rules: Rules) -> None:
        # A pile's pi value is its single pi counted, plus what its other pi cards are worth
        # (double pi, jokers, the sake cup when it always counts): a table of those few cards'
        # subsets, each filled by pi_value.
        self.more_pi = DOUBLE_PI | JOKERS | (SAKE if rules.sake_cup == "both" else 0)
        self.pi_extra = {e: pi_value(e, rules, "animal") for e in _subsets(self.more_pi)}
        self.brights = {b: points_with(b, rules, "animal") for b in _subsets(BRIGHTS)}
        self.ribbons = {t: points_with(t, rules, "animal") for t in _subsets(RIBBONS)}
        # Animals alone hold at most the dual card's 2 pi: no pi points of their own.
        self.animals = {a: (points_with(a, rules, "animal"), points_with(a, rules, "pi"))
                        for a in _subsets(ANIMALS)}
        self.rules = rules
        self.dual = dual_card(rules)
        self._named: NamedYaku | None = None

    def named(self) -> NamedYaku:
        """The yaku tables a settlement reads, built when first needed (a rule set may settle
        no round)."""
        if self._named is None:
            self._named = NamedYaku(self.rules)
        return self._named

    def score(self, m: int) -> int:
        """The base score of pile ``m`` (a round holds this bound method: a plain method is
        called faster than an instance through ``__call__``)."""
        # pi_value(m, rules, "animal"); the dual card, if held, adds 2 read as pi
        pv = (m & SINGLE_PI).bit_count() + self.pi_extra[m & self.more_pi]
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
        pv = (m & SINGLE_PI).bit_count() + self.pi_extra[m & self.more_pi]
        as_animal, as_pi = self.animals[m & ANIMALS]
        return "pi" if as_pi + _PI_POINTS[pv + 2] > as_animal + _PI_POINTS[pv] else "animal"

    __call__ = score


class NamedYaku:
    """The yaku of a pile's brights, of its animals (under each reading of the dual card) and
    of its ribbons under one rule set, from tables filled by :func:`yaku_with` on those cards
    alone (see :func:`_named`). A settlement reads every yaku of a pile but the pi yaku
    (:func:`_pi_yaku`) from three tables instead of testing each yaku."""

    __slots__ = ("brights", "ribbons", "animals")

    def __init__(self, rules: Rules) -> None:
        self.brights = {b: _named(b, rules, "animal") for b in _subsets(BRIGHTS)}
        self.ribbons = {t: _named(t, rules, "animal") for t in _subsets(RIBBONS)}
        # Animals alone hold at most the dual card's 2 pi: no pi yaku of their own.
        self.animals = {r: {a: _named(a, rules, r) for a in _subsets(ANIMALS)}
                        for r in ("animal", "pi")}


def _named(m: int, rules: Rules, reading: str) -> tuple[tuple[tuple[str, int, tuple[str, ...]],
                                                               ...], int, bool, int]:
    """The yaku of cards ``m`` (all of one kind) for :class:`NamedYaku`: (the yaku, their
    points, whether a bright yaku is among them, the animals counted)."""
    rows = tuple(tuple(y) for y in yaku_with(m, rules, reading))  # plain tuples unpack faster
    return (rows, sum(row[1] for row in rows), any(row[0] in BRIGHT_SLUGS for row in rows),
            animals_of(m, rules, reading).bit_count())


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
    """(bonus points, multiplier) for ``goes`` go calls by the winner (docs/rules/gostop.md
    §4.2, option go_scheme)."""
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
    """What each loser pays ``winner`` (docs/rules/gostop.md §4).

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
    reading = reading or {}
    settlement = Settlement(rules, winner, piles, goes, go_order, shakes, bombs, nagari,
                            mission_month)
    return settlement.detail(settlement.under(reading))


class Settlement:
    """:func:`settle` for one round end, in steps: the winner's side under a reading of the dual
    card (:meth:`side`, kept once worked out), every amount under a choice of readings
    (:meth:`under`), the detail of one such choice (:meth:`detail`). A round compares the
    holder's points under both readings and details only the one chosen; the readings share
    what does not depend on them (the winner's bonuses and most multipliers; his whole side
    when a loser holds the card). The piles and counts passed in are read, not copied: they
    must not change while the settlement is in use."""

    __slots__ = ("rules", "winner", "piles", "goes", "shakes", "bombs", "nagari",
                 "mission_month", "dual", "named", "liable", "_best", "_stakes", "_sides")

    def __init__(self, rules: Rules, winner: int, piles: list[int], goes: list[int] | None = None,
                 go_order: list[int] | None = None, shakes: list[int] | None = None,
                 bombs: list[int] | None = None, nagari: int = 0,
                 mission_month: int | None = None) -> None:
        n = len(piles)
        scorer = pile_scorer(rules)
        self.rules = rules
        self.winner = winner
        self.piles = piles
        self.goes = goes = goes or [0] * n
        self.shakes = shakes or [0] * n
        self.bombs = bombs or [0] * n
        self.nagari = nagari
        self.mission_month = mission_month
        self.dual = scorer.dual
        self.named = scorer.named()
        self.liable = _liable(rules, winner, piles, goes, go_order)
        self._best: str | None = None
        self._stakes: tuple | None = None
        self._sides: dict[str, tuple] = {}

    def base(self, read: str) -> int:
        """The winner's base score under reading ``read``."""
        return self.side(read)[3]

    def side(self, read: str) -> tuple[tuple, tuple, tuple, int, bool, tuple[str, int, int] | None,
                                       int, list[list[Any]], list[list[Any]], int]:
        """The winner's side under reading ``read``: (the yaku of his brights, of his animals
        and of his ribbons as (slug, points, card ids), base, whether a bright yaku is among
        them, the pi yaku as (slug, points, cards) or None, his animals, bonuses, multipliers,
        score)."""
        side = self._sides.get(read)
        if side is not None:
            return side
        rules = self.rules
        pile = self.piles[self.winner]
        named = self.named
        b_yaku, b_points, bright, _ = named.brights[pile & BRIGHTS]
        a_yaku, a_points, _, animals = named.animals[read][pile & ANIMALS]
        t_yaku, t_points, _, _ = named.ribbons[pile & RIBBONS]
        pi = _pi_yaku(pile, rules, read)
        base = b_points + a_points + t_points
        if pi:
            base += pi[1]
        bonus, before, after, score = self._stakes or self._stake()
        if rules.meongtta and animals >= 7:
            mults = [*before, ["meongtta", 2], *after]
        else:
            mults = before + after
        score += base
        for _, f in mults:
            score *= f
        side = self._sides[read] = (b_yaku, a_yaku, t_yaku, base, bright, pi, animals, bonus,
                                    mults, score)
        return side

    def _stake(self) -> tuple[list[list[Any]], list[list[Any]], list[list[Any]], int]:
        """What the winner's score adds and multiplies whatever the reading: (bonuses, the
        multipliers before meong-tta's and after it, the bonus points)."""
        rules = self.rules
        w = self.winner
        pile = self.piles[w]
        add, go_mult = go_bonus(rules, self.goes[w])
        bonus: list[list[Any]] = []
        before: list[list[Any]] = []
        after: list[list[Any]] = []
        if add:
            bonus.append(["go", add])
        if go_mult > 1:
            before.append(["go", go_mult])
        shakes = self.shakes[w]
        if shakes:
            if rules.shake_multiplier == "double":
                before.append(["shake", 2 ** shakes])
            else:
                bonus.append(["shake", shakes])
        if self.bombs[w] and rules.bomb_multiplier > 1:
            before.append(["bomb", rules.bomb_multiplier ** self.bombs[w]])
        nf = nagari_factor(rules, self.nagari)
        if nf > 1:
            after.append(["nagari", nf])
        month = self.mission_month
        if month and (pile >> (4 * (month - 1)) & 0b1111) == 0b1111:
            after.append(["mission", 2])
        if rules.joker_power == "double" and pile & JOKERS:
            after.append(["joker", 2 ** (pile & JOKERS).bit_count()])
        points = 0
        for _, b in bonus:
            points += b
        stakes = self._stakes = (bonus, before, after, points)
        return stakes

    def under(self, reading: dict[int, str]) -> tuple[dict[int, str], str, tuple, list[tuple],
                                                      list[int]]:
        """Every amount with the dual card read as ``reading`` says (seat -> reading; by
        default the winner's higher reading, a loser's animal reading): (``reading``, the
        winner's reading, his side, each loser's due as (seat, owed, penalties, extras, exempt,
        immune), the points per seat: each loser pays his amount to the winner, unless one
        loser is liable for all)."""
        rules = self.rules
        piles = self.piles
        w = self.winner
        w_read = reading.get(w)
        if not w_read:
            w_read = self._best
            if w_read is None:
                w_read = self._best = best_reading(piles[w], rules)
        side = self.side(w_read)
        _, _, _, _, bright, pi, w_animals, _, _, score = side
        need = _MEONGBAK_ANIMALS.get(rules.meongbak)
        points = [0] * len(piles)
        dues = []
        for seat, pile in enumerate(piles):
            if seat == w:
                continue
            read = reading.get(seat, "animal")
            pens: list[list[Any]] = []
            extra: list[list[Any]] = []
            owed = score
            immune = rules.joker_power == "immunity" and bool(pile & JOKERS)
            if not immune:
                brights = pile & BRIGHTS
                if not rules.gwangbak_rain_protects:
                    brights &= ~RAIN
                if bright and not brights:
                    _penalty(pens, extra, "gwangbak", rules.gwangbak)
                if pi:
                    pv = pi_value(pile, rules, read)
                    if (pv <= rules.pibak_max(len(piles))
                            and (pv > 0 or not rules.pibak_zero_exempt)):
                        _penalty(pens, extra, "pibak", rules.pibak)
                if need and w_animals >= need and not animals_of(pile, rules, read):
                    _penalty(pens, extra, "meongbak", "double")
                if rules.gobak and self.goes[seat] and len(piles) == 2:
                    _penalty(pens, extra, "gobak", "double")
                for _, f in pens:
                    owed *= f
                for _, e in extra:
                    owed += e
            exempt = rules.empty_pile_exempt and pile == 0
            dues.append((seat, owed, pens, extra, exempt, immune))
            if not exempt:
                points[seat] = -owed
                points[w] += owed
        liable = self.liable
        if liable is not None:  # he pays every loser's amount, the others nothing
            points = [points[w] if seat == w else 0 for seat in range(len(piles))]
            points[liable] = -points[w]
        return reading, w_read, side, dues, points

    def detail(self, under: tuple, kind: str | None = None) -> dict[str, Any]:
        """:func:`settle`'s result from :meth:`under`'s amounts; with a ``kind`` first when
        given (a round's outcome starts with it)."""
        reading, w_read, side, dues, points = under
        b_yaku, a_yaku, t_yaku, base, _, pi, _, bonus, mults, score = side
        w = self.winner
        piles = self.piles
        liable = self.liable
        payments: list[dict[str, Any]] = []
        for seat, owed, pens, extra, exempt, immune in dues:
            p = {"seat": seat, "owed": owed, "amount": -points[seat], "penalties": pens,
                 "extra": extra, "exempt": exempt,
                 "reading": reading.get(seat, "animal") if piles[seat] & self.dual else None,
                 "immune": immune, "pays_for": []}
            if liable is not None:
                if seat == liable:
                    p["pays_for"] = [due[0] for due in dues if due[0] != seat]
                else:
                    p["covered_by"] = liable
            payments.append(p)
        yaku = []
        for slug, pts, cards in b_yaku + a_yaku + t_yaku:
            yaku.append([slug, pts, [*cards]])
        if pi:
            yaku.append([pi[0], pi[1], ids(pi[2])])
        out = {
            "kind": kind,
            "winner": w,
            "base": base,
            "yaku": yaku,
            "reading": w_read if piles[w] & self.dual else None,
            "goes": self.goes[w],
            "bonus": bonus,
            "multipliers": mults,
            "score": score,
            "payments": payments,
            "liable": liable,
            "total": points[w],
            "points": points,
        }
        if kind is None:  # settle's result has no kind: the other keys keep their order
            del out["kind"]
        return out


def _liable(rules: Rules, winner: int, piles: list[int], goes: list[int],
            go_order: list[int] | None) -> int | None:
    """The loser who pays for every loser: with three players and go-bak, the first loser who
    called go (one immune by a joker does not count); ``go_order`` by default by seat."""
    if not (rules.gobak and len(piles) >= 3):
        return None
    immune = rules.joker_power == "immunity"
    for s in go_order or [s for s in range(len(piles)) if goes[s]]:
        if s != winner and goes[s] and not (immune and piles[s] & JOKERS):
            return s
    return None


def _penalty(pens: list[list[Any]], extra: list[list[Any]], name: str, mode: str) -> None:
    """A loser's penalty ``name`` counted as ``mode``: x2 ("double") or +2 ("plus_two")."""
    if mode == "double":
        pens.append([name, 2])
    elif mode == "plus_two":
        extra.append([name, 2])


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
