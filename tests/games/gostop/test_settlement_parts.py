"""The settlement's shortcuts held to the general rules: the winner's yaku read from tables
(NamedYaku) agree with yaku_with and points_with; one Settlement worked under both readings of
the dual card details each as a settle() of its own; and a round's end decides as comparing the
two readings' full settlements (reading_options) says."""

from __future__ import annotations

import random

import pytest

from bot.games.gostop import Rules, settle
from bot.games.gostop import game as G
from bot.games.gostop.rules import BRIGHT_SLUGS
from bot.games.gostop.scoring import (
    ANIMALS,
    Settlement,
    animals_of,
    best_reading,
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


def expected_end(state: G.GoStopRound, winner: int) -> tuple[str, dict | None]:
    """What a round's end should be (the phase, the settlement) from settle() under every
    reading its holder may choose (reading_options), compared in full."""
    rules = state.rules
    holder = state.dual_holder()
    options = state.reading_options(winner, holder)
    if not options:
        return G.OVER, settle(rules, winner, state.captured, goes=state.goes,
                              go_order=state.go_order, shakes=state.shakes, bombs=state.bombs,
                              nagari=state.nagari, mission_month=state.mission_month)
    if len(options) == 1:
        return G.OVER, next(iter(options.values()))
    mine = {k: v["points"][holder] for k, v in options.items()}
    if mine["animal"] == mine["pi"]:
        best = best_reading(state.captured[winner], rules) if holder == winner else "animal"
    elif rules.sake_cup_reading == "declare":
        return G.READING, None
    else:
        best = max(mine, key=mine.get)
    return G.OVER, options[best]


@pytest.mark.parametrize("changes", [
    {}, {"sake_cup_reading": "auto"}, {"sake_cup": "bridge", "meongbak": "yeol"},
    {"stop_minimum_2p": 3, "stop_minimum_3p": 1, "pibak_max_2p": 9},
    {"jokers": 2, "joker_power": "immunity", "sake_cup_reading": "auto"},
])
def test_the_round_end_decides_as_both_readings_full_settlements_say(changes):
    rules = Rules(**changes)
    rng = random.Random(41)
    phases = set()
    for seed in range(150):
        state = G.new_round(num_players=2 + seed % 2, rules=rules, seed=seed)
        while not state.is_over and state.phase != G.READING:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        # A stop leaves the piles and counts as they were: the end can be worked out again.
        if state.phase == G.READING:
            winner = state.pending_winner
        elif state.outcome["kind"] == "stop":
            winner = state.outcome["winner"]
        else:
            continue
        phase, detail = expected_end(state, winner)
        phases.add(phase)
        assert state.phase == phase
        if detail is not None:
            got = {k: v for k, v in state.outcome.items() if k not in ("kind", "carry")}
            assert got == detail and list(got) == list(detail)
            assert list(state.outcome) == ["kind", *detail, "carry"]
        else:  # the holder chooses: either choice finishes as its settlement
            for reading in ("animal", "pi"):
                twin = G.GoStopRound.from_dict(state.to_dict())
                twin._reading_choice = state._reading_choice
                twin.apply(f"sake_{reading}")
                expected = state.reading_options(winner)[reading]
                assert {k: v for k, v in twin.outcome.items() if k not in ("kind", "carry")} \
                    == expected
    assert G.OVER in phases
    assert G.READING in phases or rules.sake_cup_reading == "auto"
