"""The settlement's shortcuts held to the general rules: the winner's yaku read from tables
(NamedYaku) agree with yaku_with and points_with; one Settlement worked under both readings of
the dual card details each as a settle() of its own."""

from __future__ import annotations

import random

import pytest

from bot.games.gostop import Rules, settle
from bot.games.gostop.rules import BRIGHT_SLUGS
from bot.games.gostop.scoring import (
    ANIMALS,
    Settlement,
    animals_of,
    dual_card,
    ids,
    points_with,
    readings,
    yaku_with,
)

YAKU_VARIANTS = [
    {},
    {"sake_cup": "both"}, {"sake_cup": "animal"}, {"sake_cup": "bridge"},
    {"jokers": 3, "four_brights_with_rain": 3, "godori_points": 3},
    {"chodan": False, "willow_ribbon": "excluded", "inoshikacho_points": 5},
]

SETTLE_VARIANTS = [
    {},
    {"sake_cup": "bridge", "meongbak": "yeol", "gwangbak_rain_protects": False},
    {"meongbak": "seven", "meongtta": False, "pibak_zero_exempt": False},
    {"gwangbak": "plus_two", "pibak": "plus_two", "empty_pile_exempt": False},
    {"jokers": 3, "joker_power": "immunity", "go_scheme": "factorial"},
    {"jokers": 2, "joker_power": "double", "shake_multiplier": "plus_one", "bomb_multiplier": 1},
    {"gobak": False, "nagari_carry": "off", "go_scheme": "times_n", "sake_cup": "both"},
    {"nagari_cap": 1, "go_scheme": "doubling_only", "pibak_max_3p": 7, "inoshikacho_points": 5},
]


def random_pile(rng: random.Random, rules: Rules) -> int:
    pile = rng.getrandbits(51) & rng.getrandbits(51)  # about a quarter of the cards
    return pile if rules.jokers else pile & ((1 << 48) - 1)


@pytest.mark.parametrize("changes", YAKU_VARIANTS)
def test_the_winners_side_reads_the_yaku_rules_from_tables(changes):
    rules = Rules(**changes)
    rng = random.Random(31)
    for _ in range(1500):
        pile = random_pile(rng, rules)
        settlement = Settlement(rules, 0, [pile, 0])
        for reading in readings(pile, rules):
            b_yaku, a_yaku, t_yaku, base, bright, pi, animals, _, _, _ = settlement.side(reading)
            named = [tuple(y) for y in b_yaku + a_yaku + t_yaku]
            if pi:
                named.append((pi[0], pi[1], tuple(ids(pi[2]))))
            expected = [tuple(y) for y in yaku_with(pile, rules, reading)]
            assert named == expected
            assert base == points_with(pile, rules, reading) == settlement.base(reading)
            assert bright == any(slug in BRIGHT_SLUGS for slug, _, _ in expected)
            assert (pi is not None) == any(slug == "pi" for slug, _, _ in expected)
            assert animals == animals_of(pile, rules, reading).bit_count()


def random_end(rng: random.Random, rules: Rules) -> dict:
    """A round end: piles dealing each card to at most one seat, the dual card (if any) to a
    random seat, and random go calls, shakes, bombs, nagari and mission."""
    n = rng.choice((2, 3))
    piles = [0] * n
    for card in range(48 + rules.jokers):
        seat = rng.randrange(2 * n)  # about half the cards are still in play
        if seat < n:
            piles[seat] |= 1 << card
    dual = dual_card(rules)
    if dual:
        piles = [p & ~dual for p in piles]
        piles[rng.randrange(n)] |= dual
    if rng.random() < 0.1:
        piles[rng.randrange(n)] = 0  # a loser who captured nothing, or a winner
    goes = [rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(n)]
    order = [s for s in range(n) if goes[s]]
    rng.shuffle(order)
    return {"n": n, "piles": piles, "goes": goes, "go_order": order,
            "shakes": [rng.choice((0, 0, 1, 2)) for _ in range(n)],
            "bombs": [rng.choice((0, 0, 1)) for _ in range(n)],
            "nagari": rng.choice((0, 0, 1, 3)), "mission_month": rng.choice((None, 1, 5, 12))}


@pytest.mark.parametrize("changes", SETTLE_VARIANTS)
def test_one_settlement_under_both_readings_details_each_as_settle(changes):
    rules = Rules(**changes)
    rng = random.Random(37)
    for _ in range(400):
        end = random_end(rng, rules)
        n, piles = end["n"], end["piles"]
        winner = rng.randrange(n)
        if rng.random() < 0.25:  # animals enough for meong-tta and meong-bak
            many = ANIMALS & ~dual_card(rules)
            piles = [p | many if s == winner else p & ~many for s, p in enumerate(piles)]
        args = {k: end[k] for k in ("goes", "go_order", "shakes", "bombs", "nagari",
                                    "mission_month")}
        holders = [s for s in range(n) if piles[s] & dual_card(rules)]
        choices = [{}] + [{holders[0]: r} for r in ("animal", "pi")] if holders else [{}]
        rng.shuffle(choices)
        # One settlement worked under every choice in turn (its parts kept between them) ...
        settlement = Settlement(rules, winner, piles, end["goes"], end["go_order"],
                                end["shakes"], end["bombs"], end["nagari"], end["mission_month"])
        unders = [settlement.under(choice) for choice in choices]
        for choice, under in zip(choices, unders, strict=True):
            # ... details each as a settlement of its own does.
            expected = settle(rules, winner, piles, reading=choice, **args)
            assert under[-1] == expected["points"]
            detail = settlement.detail(under)
            assert detail == expected and list(detail) == list(expected)
            assert [list(p) for p in detail["payments"]] == [list(p) for p in expected["payments"]]
            kind = settlement.detail(under, "stop")
            assert list(kind) == ["kind", *expected] and kind["kind"] == "stop"
