"""The filter the engine asks before scoring a pile (``may_score``) only skips piles that score
nothing: piles one card short of each yaku, under every combination of the scoring options,
and with ``whole_months=False`` under every such combination without tsukifuda."""

from __future__ import annotations

import itertools
import random

from bot.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    MONTH_MASKS,
    POETRY_RIBBONS,
    RIBBONS,
    indices_in,
    mask,
)
from bot.games.koikoi import Rules
from bot.games.koikoi.scoring import (
    CURTAIN,
    INOSHIKACHO,
    LIGHTNING,
    MOON,
    RAIN,
    SAKE,
    YELLOW,
    _every_yaku,
    may_score,
)

OPTIONS = {
    "extras_mode": ("absorb", "stack"),
    "bright_scoring": ("best", "cumulative"),
    "ameshiko_enabled": (True, False),
    "viewings": ("always", "limited", "weather_on_field"),
    "sake_cup_as_chaff": ("both", "animal_only", "either"),
    "double_chaff_cards": (False, True),
    "tsukifuda": ("off", "round_month", "any_month"),
    "akatan_aotan": ("replaces", "adds"),
}

# Each kind with the most cards a pile may hold of it and still fall short: the rain and two
# dry brights; four ribbons; four animals; nine chaff with the ones that may count twice.
SHORT = [(BRIGHTS, 3), (RIBBONS, 4), (ANIMALS, 4), (CHAFF | SAKE, 9)]


def _piles(whole_months: bool, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    piles: list[int] = []
    while len(piles) < count:
        m = 0
        for kind, most in SHORT:
            m |= mask(rng.sample(indices_in(kind), rng.randrange(most + 1)))
        if not whole_months and rng.random() < 0.5:
            m |= MONTH_MASKS[rng.randrange(1, 13)]
        if not may_score(m, whole_months):
            piles.append(m)
    return piles


def test_the_filter_skips_only_piles_that_score_nothing():
    rng = random.Random(5)
    names = list(OPTIONS)
    for whole_months, piles in ((True, _piles(True, 60, 1)), (False, _piles(False, 60, 2))):
        for values in itertools.product(*OPTIONS.values()):
            rules = Rules(**dict(zip(names, values, strict=True)))
            if not whole_months and rules.tsukifuda != "off":
                continue
            for m in piles:
                for month, called in ((1, False), (rng.randrange(1, 13), True)):
                    assert _every_yaku(m, rules, month, rng.getrandbits(48) & ~m, called) == []


def test_the_filter_lets_every_yaku_through():
    """One card more than the piles above: each kind's smallest yaku passes and scores."""
    rules = Rules(tsukifuda="any_month")
    five_ribbons = mask(indices_in(RIBBONS)[1:6])  # not all three of a set
    animals = [i for i in indices_in(ANIMALS) if not INOSHIKACHO >> i & 1][:5]
    for m in (mask(["crane", "curtain", "moon"]), mask(["boar", "deer", "butterflies"]),
              mask(["sake_cup", "moon"]), MONTH_MASKS[4], five_ribbons, mask(animals),
              mask(indices_in(CHAFF)[:10])):
        assert may_score(m) and _every_yaku(m, rules, 1, 0, False), m
    assert not may_score(MONTH_MASKS[4], whole_months=False)


def _conditions(m: int, whole_months: bool) -> bool:
    """may_score's conditions one by one, as its docstring lists them."""
    animals, ribbons = m & ANIMALS, m & RIBBONS
    return ((m & BRIGHTS & ~RAIN).bit_count() >= 3
            or ribbons & POETRY_RIBBONS == POETRY_RIBBONS or ribbons & BLUE_RIBBONS == BLUE_RIBBONS
            or ribbons.bit_count() >= 5
            or animals & INOSHIKACHO == INOSHIKACHO or animals.bit_count() >= 5
            or (m & (CHAFF | SAKE)).bit_count() + (m & (LIGHTNING | YELLOW | SAKE)).bit_count() >= 10
            or bool(m & SAKE and m & (CURTAIN | MOON))
            or whole_months and any(m & month == month for month in MONTH_MASKS[1:]))


def test_the_filter_weighs_a_pile_as_its_conditions_say():
    """may_score adds table entries per twelve cards; it answers as the conditions read one by
    one, on piles of every size and near every threshold."""
    rng = random.Random(8)
    near = [BRIGHTS, RIBBONS, ANIMALS, CHAFF | SAKE, POETRY_RIBBONS | BLUE_RIBBONS | INOSHIKACHO,
            SAKE | CURTAIN | MOON | LIGHTNING | YELLOW]
    for _ in range(20_000):
        m = mask(rng.sample(range(48), rng.randrange(25)))
        if rng.random() < 0.5:  # most of one kind, where a threshold is crossed
            kind = indices_in(rng.choice(near))
            m |= mask(rng.sample(kind, rng.randrange(len(kind) + 1)))
        for whole_months in (True, False):
            assert may_score(m, whole_months) == _conditions(m, whole_months), (m, whole_months)
