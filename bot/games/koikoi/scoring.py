"""Koi-Koi yaku (docs/rules/koikoi.md §4) and round multipliers (§5.2).

:func:`score_yaku` is the public scoring function: captured cards in, yaku with points out.
Internally everything works on bit sets, because the engine scores after every turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bot.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    MONTH_MASKS,
    POETRY_RIBBONS,
    RIBBONS,
    Card,
    card,
    ids_in,
    mask,
    months_holding,
)

from .rules import Rules

RAIN = card("rainman").bit
SAKE = card("sake_cup").bit
CURTAIN = card("curtain").bit
MOON = card("moon").bit
LIGHTNING = card("lightning").bit
YELLOW = card("paulownia_chaff_yellow").bit
INOSHIKACHO = mask(["boar", "deer", "butterflies"])
DRY_BRIGHTS = BRIGHTS & ~RAIN
WILLOW = MONTH_MASKS[11]
PAULOWNIA = MONTH_MASKS[12]
SUSUKI = MONTH_MASKS[8]


class Yaku(NamedTuple):
    """A scored yaku: its slug, its points and the cards that make it."""

    slug: str
    points: int
    cards: tuple[str, ...]


def score_yaku(
    cards: Iterable[Card | str | int] | int,
    rules: Rules | None = None,
    *,
    round_month: int | None = None,
    field: Iterable[Card | str | int] | int = 0,
    called: bool = False,
) -> list[Yaku]:
    """The yaku a pile of captured cards scores under ``rules``.

    ``cards`` may be Cards, canonical ids, indices or a bit set. ``round_month`` (1..12) is needed
    for tsukifuda on the round's month, ``field`` for viewings voided by weather on the field,
    ``called`` (the pile's holder has called koi-koi) for viewings worth more after a call.
    """
    rules = rules or Rules()
    m = cards if isinstance(cards, int) else mask(cards)
    f = field if isinstance(field, int) else mask(field)
    return yaku_of(m, rules, round_month, f, called)


def total(yaku: list[Yaku]) -> int:
    return sum(y.points for y in yaku)


def yaku_of(m: int, rules: Rules, round_month: int | None = None, field: int = 0,
            called: bool = False) -> list[Yaku]:
    """Bit-set version of :func:`score_yaku`."""
    if not may_score(m):
        return []
    return _every_yaku(m, rules, round_month, field, called)


def _every_yaku(m: int, rules: Rules, round_month: int | None, field: int, called: bool) -> list[Yaku]:
    out: list[Yaku] = []
    _brights(m, rules, out)
    _ribbons(m, rules, out)
    if rules.sake_cup_as_chaff == "either" and m & SAKE:
        # The sake cup is an animal or a chaff, whichever reading scores more.
        as_animal = _animals(m, rules, chaff_sake=False) + _kasu(m, rules, chaff_sake=False, animal_sake=True)
        as_chaff = _animals(m & ~SAKE, rules, chaff_sake=False) + _kasu(m, rules, chaff_sake=True, animal_sake=False)
        out.extend(as_chaff if total(as_chaff) > total(as_animal) else as_animal)
    else:
        out.extend(_animals(m, rules, chaff_sake=False))
        out.extend(_kasu(m, rules, chaff_sake=rules.sake_cup_as_chaff == "both", animal_sake=False))
    _tsukifuda(m, rules, round_month, out)
    _viewings(m, rules, field, called, out)
    return out


# may_score counts, for each condition below, the pile's cards that go towards it, in a field of
# six bits per condition: a field starts at 32 less its threshold, so reaching the threshold sets
# the field's top bit, and the whole pile is weighed by four table reads (one per twelve cards).
_CONDITIONS = (  # (the cards counted, how much each counts, how many it takes)
    (DRY_BRIGHTS, 1, 3),  # three dry brights
    (POETRY_RIBBONS, 1, 3),
    (BLUE_RIBBONS, 1, 3),
    (RIBBONS, 1, 5),
    (INOSHIKACHO, 1, 3),
    (ANIMALS, 1, 5),
    (CHAFF | SAKE, 1, 10),  # ten chaff, with the cards that may count twice ...
    (LIGHTNING | YELLOW | SAKE, 1, 0),  # ... counted again in the same field (see below)
    (SAKE, 2, 3),  # the sake cup (2) with the curtain or the moon (1)
    (CURTAIN | MOON, 1, 0),
)
_FIELD_OF = (0, 1, 2, 3, 4, 5, 6, 6, 7, 7)  # the two pairs above share a field each
_START = sum(32 - most << 6 * _FIELD_OF[i] for i, (_, _, most) in enumerate(_CONDITIONS) if most)
_REACHED = sum(32 << 6 * field for field in range(8))


def _weights(part: int) -> tuple[int, ...]:
    """What each set of cards 12 * part ... 12 * part + 11 adds to the fields."""
    table = [0]
    for c in range(12 * part, 12 * part + 12):  # the sets with this card follow those without
        weight = sum(weight << 6 * _FIELD_OF[i]
                     for i, (cards, weight, _) in enumerate(_CONDITIONS) if cards >> c & 1)
        table += [value + weight for value in table]
    return tuple(table)


_W0, _W1, _W2, _W3 = (_weights(part) for part in range(4))


def may_score(m: int, whole_months: bool = True) -> bool:
    """False for a pile too small for every yaku under any rules (with ``whole_months`` False:
    under any rules without tsukifuda). Each yaku needs three dry brights; the poetry or the
    blue ribbons, or five ribbons; boar, deer and butterflies, or five animals; ten chaff, the
    lightning, the yellow paulownia and the sake cup counting up to twice; the sake cup with a
    viewing card; or a whole month. Most piles after a turn are such, so the turn's scoring
    stops here."""
    if (_START + _W0[m & 4095] + _W1[m >> 12 & 4095] + _W2[m >> 24 & 4095] + _W3[m >> 36]) & _REACHED:
        return True
    return whole_months and bool(months_holding(m, 4))


def _y(out: list[Yaku], slug: str, points: int, cards: int) -> None:
    out.append(Yaku(slug, points, tuple(ids_in(cards))))


def _brights(m: int, r: Rules, out: list[Yaku]) -> None:
    b = m & BRIGHTS
    n = b.bit_count()
    if n < 3:
        return
    rain = bool(b & RAIN)
    dry = b & ~RAIN
    dry_n = dry.bit_count()
    if r.bright_scoring == "cumulative":
        if dry_n >= 3:
            _y(out, "sanko", r.points("sanko"), dry)
        if dry_n == 4:
            _y(out, "shiko", r.points("shiko"), dry)
        if n == 5:
            _y(out, "goko", r.points("goko"), b)
        elif rain and dry_n == 3 and r.ameshiko_enabled:
            _y(out, "ameshiko", r.points("ameshiko"), b)
        return
    if n == 5:
        _y(out, "goko", r.points("goko"), b)
    elif n == 4 and not rain:
        _y(out, "shiko", r.points("shiko"), b)
    elif n == 4 and r.ameshiko_enabled:
        _y(out, "ameshiko", r.points("ameshiko"), b)
    elif dry_n == 3:
        _y(out, "sanko", r.points("sanko"), dry)


def _animals(m: int, r: Rules, chaff_sake: bool) -> list[Yaku]:
    out: list[Yaku] = []
    a = m & ANIMALS
    if chaff_sake:
        a &= ~SAKE
    n = a.bit_count()
    isc = (a & INOSHIKACHO) == INOSHIKACHO
    if r.extras_mode == "absorb":
        if isc:
            _y(out, "inoshikacho", r.points("inoshikacho") + n - 3, a)
        elif n >= 5:
            _y(out, "tane", r.points("tane") + n - 5, a)
    else:
        if isc:
            _y(out, "inoshikacho", r.points("inoshikacho"), INOSHIKACHO)
        if n >= 5:
            _y(out, "tane", r.points("tane") + n - 5, a)
    return out


def _ribbons(m: int, r: Rules, out: list[Yaku]) -> None:
    t = m & RIBBONS
    n = t.bit_count()
    aka = (t & POETRY_RIBBONS) == POETRY_RIBBONS
    ao = (t & BLUE_RIBBONS) == BLUE_RIBBONS
    if aka and ao and r.akatan_aotan == "adds":  # each set scores, and both a further bonus
        _y(out, "akatan", r.points("akatan"), POETRY_RIBBONS)
        _y(out, "aotan", r.points("aotan"), BLUE_RIBBONS)
        extra = n - 6 if r.extras_mode == "absorb" else 0
        _y(out, "akatan_aotan", r.points("akatan_aotan") + extra, t if extra else POETRY_RIBBONS | BLUE_RIBBONS)
        if r.extras_mode == "stack" and n >= 5:
            _y(out, "tanzaku", r.points("tanzaku") + n - 5, t)
        return
    if r.extras_mode == "absorb":
        if aka and ao:
            _y(out, "akatan_aotan", r.points("akatan_aotan") + n - 6, t)
        elif aka:
            _y(out, "akatan", r.points("akatan") + n - 3, t)
        elif ao:
            _y(out, "aotan", r.points("aotan") + n - 3, t)
        elif n >= 5:
            _y(out, "tanzaku", r.points("tanzaku") + n - 5, t)
        return
    if aka:
        _y(out, "akatan", r.points("akatan"), POETRY_RIBBONS)
    if ao:
        _y(out, "aotan", r.points("aotan"), BLUE_RIBBONS)
    if n >= 5:
        _y(out, "tanzaku", r.points("tanzaku") + n - 5, t)


def _kasu(m: int, r: Rules, chaff_sake: bool, animal_sake: bool) -> list[Yaku]:
    c = m & CHAFF
    cards = c | (m & SAKE if chaff_sake else 0)
    n = cards.bit_count()
    if r.double_chaff_cards:
        n += (c & LIGHTNING).bit_count() + (c & YELLOW).bit_count() + (1 if cards & SAKE else 0)
    if n < 10:
        return []
    return [Yaku("kasu", r.points("kasu") + n - 10, tuple(ids_in(cards)))]


def _tsukifuda(m: int, r: Rules, round_month: int | None, out: list[Yaku]) -> None:
    if r.tsukifuda == "round_month":
        if round_month and (m & MONTH_MASKS[round_month]) == MONTH_MASKS[round_month]:
            _y(out, "tsukifuda", r.points("tsukifuda"), MONTH_MASKS[round_month])
    elif r.tsukifuda == "any_month":
        for month in range(1, 13):
            if (m & MONTH_MASKS[month]) == MONTH_MASKS[month]:
                _y(out, "tsukifuda", r.points("tsukifuda"), MONTH_MASKS[month])


def _viewings(m: int, r: Rules, field: int, called: bool, out: list[Yaku]) -> None:
    if not m & SAKE or r.viewings == "never":
        return
    hanami = bool(m & CURTAIN)
    tsukimi = bool(m & MOON)
    if not (hanami or tsukimi):
        return
    if r.viewings == "limited" and not out:
        return  # a viewing needs another yaku beside it
    if r.viewings == "rain_voids" and m & (RAIN | LIGHTNING):
        return
    if r.viewings == "willow_voids" and m & WILLOW:
        return
    if r.viewings == "weather_on_field":
        hanami = hanami and not field & WILLOW
        tsukimi = tsukimi and not field & PAULOWNIA
    raised = r.viewing_points_after_koikoi if called else 0
    if hanami:
        _y(out, "hanami_zake", raised or r.points("hanami_zake"), CURTAIN | SAKE)
    if tsukimi:
        _y(out, "tsukimi_zake", raised or r.points("tsukimi_zake"), MOON | SAKE)


def multipliers(
    rules: Rules,
    base: int,
    scorer_calls: int,
    opponent_calls: int,
    field_brights: int,
) -> list[tuple[str, int]]:
    """The multipliers that apply to a round won with ``base`` points (docs/rules/koikoi.md
    §5.2)."""
    out: list[tuple[str, int]] = []
    if rules.seven_plus_doubles and base >= 7:
        out.append(("seven_plus", 2))
    kind = rules.koikoi_multiplier
    factor = 1
    if kind == "opponent" and opponent_calls or kind == "own" and scorer_calls or kind == "any" and (scorer_calls or opponent_calls):
        factor = 2
    elif kind == "calls_plus_one":
        factor = 1 + scorer_calls + opponent_calls
    elif kind == "opponent_calls_plus_one":
        factor = 1 + opponent_calls
    elif kind == "own_calls_bonus" and scorer_calls > BONUS_CALLS:
        factor = scorer_calls - 2  # from the 4th call a multiplier replaces the points per call
    if factor > 1:
        out.append(("koikoi", factor))
    fb = rules.field_bright_multiplier
    if field_brights and fb != "off":
        factor = {"double": 2, "n_plus_one": field_brights + 1, "n": field_brights}[fb]
        if factor > 1:
            out.append(("field_brights", factor))
    return out


def apply_multipliers(base: int, mults: list[tuple[str, int]]) -> int:
    for _, factor in mults:
        base *= factor
    return base


#: own_calls_bonus: up to this many koi-koi calls add a point each (KKJ)
BONUS_CALLS = 3


def bonuses(rules: Rules, scorer_calls: int) -> list[tuple[str, int]]:
    """Points added to a won round's base before the multipliers: KKJ's point per own call."""
    if rules.koikoi_multiplier == "own_calls_bonus" and 0 < scorer_calls <= BONUS_CALLS:
        return [("koikoi_calls", scorer_calls)]
    return []


class RoundScore(NamedTuple):
    bonuses: list[tuple[str, int]]
    multipliers: list[tuple[str, int]]
    total: int


def round_score(rules: Rules, base: int, scorer_calls: int, opponent_calls: int,
                field_brights: int) -> RoundScore:
    """What a round won with ``base`` yaku points is worth: (base + bonuses) x multipliers."""
    added = bonuses(rules, scorer_calls)
    mults = multipliers(rules, base, scorer_calls, opponent_calls, field_brights)
    return RoundScore(added, mults, apply_multipliers(base + sum(p for _, p in added), mults))


def progress(m: int, rules: Rules) -> list[tuple[str, int, int]]:
    """Yaku a pile is close to: (slug, cards held, cards needed), for the table picture."""
    out = []
    dry = (m & BRIGHTS & ~RAIN).bit_count()
    if (m & BRIGHTS).bit_count() < 3 and dry >= 1:
        out.append(("sanko", dry, 3))
    for slug, group in (("akatan", POETRY_RIBBONS), ("aotan", BLUE_RIBBONS), ("inoshikacho", INOSHIKACHO)):
        have = (m & group).bit_count()
        if 2 <= have < 3:
            out.append((slug, have, 3))
    if m & SAKE and not m & (CURTAIN | MOON):
        out.append(("hanami_zake", 1, 2))
    elif (m & (CURTAIN | MOON)) and not m & SAKE:
        out.append(("tsukimi_zake" if m & MOON else "hanami_zake", 1, 2))
    for slug, group, need in (("tane", ANIMALS, 5), ("tanzaku", RIBBONS, 5), ("kasu", CHAFF, 10)):
        have = (m & group).bit_count()
        if need - 2 <= have < need:
            out.append((slug, have, need))
    return out
