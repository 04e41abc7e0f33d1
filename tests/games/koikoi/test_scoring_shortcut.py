"""The engine scores after every turn and skips piles too small for any yaku: every such pile
scores nothing under every combination of the scoring options."""

from __future__ import annotations

import itertools
import random

from bot.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    POETRY_RIBBONS,
    RIBBONS,
    indices_in,
    mask,
)
from bot.games.koikoi import Rules
from bot.games.koikoi.scoring import SAKE, _every_yaku, may_score

OPTIONS = {
    "extras_mode": ("absorb", "stack"),
    "bright_scoring": ("best", "cumulative"),
    "ameshiko_enabled": (True, False),
    "viewings": ("always", "limited", "weather_on_field"),
    "viewing_points_after_koikoi": (0, 3),
    "sake_cup_as_chaff": ("both", "animal_only", "either"),
    "double_chaff_cards": (False, True),
    "tsukifuda": ("off", "round_month", "any_month"),
    "akatan_aotan": ("replaces", "adds"),
}


# Per kind, the cards that make its yaku first (dry brights, poetry and blue ribbons, boar, deer
# and butterflies, the chaff that may count twice), so the piles sit just short of a yaku.
KINDS = [
    (mask(["crane", "curtain", "moon", "phoenix"]), BRIGHTS, 3),
    (POETRY_RIBBONS | BLUE_RIBBONS, RIBBONS, 3),
    (mask(["boar", "deer", "butterflies"]), ANIMALS, 3),
    (mask(["lightning", "paulownia_chaff_yellow", "sake_cup"]), CHAFF | SAKE, 8),
]


def test_a_pile_the_shortcut_skips_scores_nothing():
    rng = random.Random(3)
    piles = []
    while len(piles) < 150:  # up to one card past each threshold: the filter keeps the skipped
        m = 0
        for first, kind, most in KINDS:
            key, rest = indices_in(first), indices_in(kind & ~first)
            rng.shuffle(key)
            rng.shuffle(rest)
            m |= mask((key + rest)[:rng.randrange(most + 1)])
        if not may_score(m):
            piles.append(m)
    names = list(OPTIONS)
    for values in itertools.product(*OPTIONS.values()):
        rules = Rules(**dict(zip(names, values, strict=True)))
        for m in piles:
            for month, called in ((1, False), (rng.randrange(1, 13), True)):
                assert _every_yaku(m, rules, month, rng.getrandbits(48) & ~m, called) == []
