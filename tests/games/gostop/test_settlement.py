"""Settlement (docs/rules/gostop.md §4) worked by hand: go bonus, winner multipliers, per-loser
penalties, liability and exemptions, for two and three players. Every expected number is derived
in a comment from the rules, not read off the engine."""

import pytest

from bot.games.gostop import Rules, go_bonus, settle
from bot.games.gostop.scoring import to_mask

K = Rules()
CHAFF = ["pine_chaff_1", "pine_chaff_2", "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1",
         "cherry_chaff_2", "wisteria_chaff_1", "wisteria_chaff_2", "iris_chaff_1", "iris_chaff_2",
         "peony_chaff_1", "peony_chaff_2", "clover_chaff_1", "clover_chaff_2"]
HONGDAN = ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"]


def m(*groups):
    return to_mask([c for g in groups for c in g])


def pay(result, seat):
    return next(p for p in result["payments"] if p["seat"] == seat)


# -- two players ----------------------------------------------------------------------------------
def test_two_player_example_go_shake_gwangbak_pibak():
    # Winner (seat 0): samgwang 3 (crane, curtain, moon) + hongdan 3 + 10 single pi and the
    # lightning = 12 pi -> 3.  Base = 3 + 3 + 3 = 9.
    winner = m(["crane", "curtain", "moon"], HONGDAN, CHAFF[:10], ["lightning"])
    # Loser (seat 1): no bright, 4 single pi + the yellow paulownia = 6 pi (1..7: pi-bak).
    loser = m(CHAFF[10:14], ["paulownia_chaff_yellow", "deer"])
    r = settle(K, 0, [winner, loser], goes=[1, 0], shakes=[1, 0])
    # (9 + 1 go) = 10; one shake x2 = 20
    assert r["base"] == 9 and r["bonus"] == [["go", 1]] and r["multipliers"] == [["shake", 2]]
    assert r["score"] == 20
    # the loser: gwang-bak x2 (winner has a bright yaku, loser no bright) and pi-bak x2 -> 80
    assert pay(r, 1)["penalties"] == [["gwangbak", 2], ["pibak", 2]]
    assert r["points"] == [80, -80] and r["total"] == 80


def test_two_player_go_bak_doubles():
    winner = m(["bush_warbler", "cuckoo", "geese", "crane", "curtain", "moon"])  # godori 5 + samgwang 3
    loser = m(["rainman"], CHAFF[:9])  # a bright (the rain man protects), 9 pi: no pi yaku anyway
    r = settle(K, 1, [loser, winner], goes=[2, 0])
    # 8 points, no winner multiplier; loser called go twice: go-bak x2 -> 16
    assert r["score"] == 8 and pay(r, 0)["penalties"] == [["gobak", 2]]
    assert r["points"] == [-16, 16]
    r = settle(K.replace(gobak=False), 1, [loser, winner], goes=[2, 0])
    assert r["points"] == [-8, 8]


def test_meongtta_bomb_and_nagari():
    # 7 animals: yeol 3 + godori 5 = 8; x2 meong-tta, one bomb x2, two nagari before x4 = 128
    winner = m(["bush_warbler", "cuckoo", "geese", "bridge", "butterflies", "boar", "deer"])
    loser = m(["crane"], CHAFF[:3])
    r = settle(K, 0, [winner, loser], bombs=[1, 0], nagari=2)
    assert r["multipliers"] == [["bomb", 2], ["meongtta", 2], ["nagari", 4]]
    assert r["score"] == 8 * 2 * 2 * 4 == 128
    assert r["points"] == [128, -128]  # no bright/pi yaku for the winner: no bak


# -- three players ------------------------------------------------------------------------------
def test_three_player_example_go_bak_pays_for_both():
    # Winner seat 1: sagwang 4 (crane, curtain, moon, phoenix) + 7 animals: yeol 3 = 7.
    winner = m(["crane", "curtain", "moon", "phoenix"],
               ["bridge", "butterflies", "boar", "deer", "swallow", "bush_warbler", "cuckoo"])
    seat0 = m(["rainman"], CHAFF[:6])  # the rain man protects from gwang-bak; 6 pi
    seat2 = m(CHAFF[6:9])  # no bright: gwang-bak
    r = settle(K, 1, [seat0, winner, seat2], goes=[1, 3, 0], go_order=[1, 0], nagari=1)
    # (7 + 3 go) = 10; 3 go x2 = 20; meong-tta x2 = 40; one nagari x2 = 80
    assert r["score"] == 80
    # seat 0 would pay 80; seat 2 has no bright: 160. Seat 0 called go: liable for both.
    assert pay(r, 0)["owed"] == 80 and pay(r, 2)["owed"] == 160
    assert r["liable"] == 0 and pay(r, 0)["amount"] == 240 and pay(r, 2)["amount"] == 0
    assert pay(r, 0)["pays_for"] == [2] and pay(r, 2)["covered_by"] == 0
    assert r["points"] == [-240, 240, 0]


def test_three_player_first_go_caller_is_liable():
    winner = m(HONGDAN)  # 3 points
    a, b = m(CHAFF[:1]), m(CHAFF[1:2])
    r = settle(K, 2, [a, b, winner], goes=[1, 1, 0], go_order=[1, 0])
    # both losers called go; seat 1 called first: it pays 3 + 3
    assert r["liable"] == 1 and r["points"] == [0, -6, 6]


def test_three_player_pibak_range_and_zero_exemption():
    # Winner seat 2: godori 5 + 11 pi (10 single + ... ) -> 5 + 2 = 7; one bomb x2 = 14
    winner = m(["bush_warbler", "cuckoo", "geese"], CHAFF[:9], ["lightning"])
    seat0 = m(["deer"])  # 0 pi: exempt from pi-bak (it holds a card, so it pays)
    seat1 = m(CHAFF[9:13])  # 4 pi: 1..5 -> pi-bak
    r = settle(K, 2, [seat0, seat1, winner], bombs=[0, 0, 1])
    assert r["base"] == 7 and r["score"] == 14
    assert pay(r, 0)["penalties"] == [] and pay(r, 1)["penalties"] == [["pibak", 2]]
    assert r["points"] == [-14, -28, 42]
    # seat 1 with 6 pi is safe with three players (1..5) ...
    seat1 = m(CHAFF[9:14], ["swallow"]) | to_mask(["paulownia_chaff_1"])
    assert settle(K, 2, [seat0, seat1, winner], bombs=[0, 0, 1])["points"] == [-14, -14, 28]
    # ... but not with two players (1..7)
    r2 = settle(K, 1, [seat1, winner])
    assert pay(r2, 0)["penalties"] == [["pibak", 2]]
    # no zero exemption: seat 0 pays double too
    r = settle(K.replace(pibak_zero_exempt=False), 2, [seat0, m(CHAFF[9:10]), winner])
    assert pay(r, 0)["penalties"] == [["pibak", 2]]


def test_empty_pile_pays_nothing():
    winner = m(["crane", "curtain", "moon"])
    r = settle(K, 0, [winner, 0, m(["deer"])])
    # 3 points; seat 1 captured nothing: exempt; seat 2 no bright: gwang-bak x2 = 6
    assert pay(r, 1)["exempt"] and r["points"] == [6, 0, -6]
    r = settle(K.replace(empty_pile_exempt=False), 0, [winner, 0, m(["deer"])])
    assert r["points"] == [12, -6, -6]


# -- go schemes and options -----------------------------------------------------------------------
@pytest.mark.parametrize("scheme, table", [
    # goes:            1        2        3        4        5
    ("korean",        [(1, 1), (2, 1), (3, 2), (4, 4), (5, 8)]),
    ("times_n",       [(1, 1), (0, 2), (0, 3), (0, 4), (0, 5)]),
    ("factorial",     [(1, 1), (2, 1), (0, 2), (0, 6), (0, 24)]),
    ("doubling_only", [(0, 1), (0, 1), (0, 2), (0, 4), (0, 8)]),
])
def test_go_schemes(scheme, table):
    r = Rules(go_scheme=scheme)
    assert [go_bonus(r, g) for g in range(1, 6)] == table
    assert go_bonus(r, 0) == (0, 1)


def test_seed_six_goes_multiply_by_sixteen():
    # seed 000: "So 6 'go' yields x16"
    assert go_bonus(Rules.preset("seed"), 6) == (0, 16)


def test_shake_plus_one_and_bomb_without_multiplier():
    winner, loser = m(HONGDAN, ["crane"]), m(["moon"])
    r = settle(Rules(shake_multiplier="plus_one", bomb_multiplier=1), 0, [winner, loser],
               shakes=[2, 0], bombs=[1, 0])
    # 3 + 2 shakes = 5, no multiplier
    assert r["score"] == 5 and r["points"] == [5, -5]


def test_gwangbak_and_pibak_plus_two_and_rain_man():
    winner = m(["crane", "curtain", "moon"], CHAFF[:10])  # 3 + 1 = 4
    loser = m(["rainman"], CHAFF[10:12])  # rain man only, 2 pi
    r = settle(K, 0, [winner, loser])
    assert pay(r, 1)["penalties"] == [["pibak", 2]]  # the rain man protects: 8
    r = settle(K.replace(gwangbak_rain_protects=False), 0, [winner, loser])
    assert r["points"] == [16, -16]  # 4 x2 x2
    r = settle(K.replace(gwangbak="plus_two", pibak="plus_two", gwangbak_rain_protects=False), 0,
               [winner, loser])
    assert r["points"] == [8, -8]  # 4 + 2 + 2
    r = settle(K.replace(gwangbak="off", pibak="off", gwangbak_rain_protects=False), 0,
               [winner, loser])
    assert r["points"] == [4, -4]


def test_meongbak_options():
    five = m(["bridge", "butterflies", "boar", "deer", "swallow"])  # yeol 1
    seven = five | m(["bush_warbler", "sake_cup"])
    loser = m(CHAFF[:1])
    assert settle(K, 0, [five, loser])["points"] == [1, -1]
    assert settle(K.replace(meongbak="yeol"), 0, [five, loser])["points"] == [2, -2]
    assert settle(K.replace(meongbak="seven"), 0, [five, loser])["points"] == [1, -1]
    # 7 animals (sake cup read as an animal): yeol 3, meong-tta x2 = 6, meong-bak x2 = 12
    r = settle(K.replace(meongbak="seven"), 0, [seven, loser], reading={0: "animal"})
    assert r["points"] == [12, -12]
    r = settle(K.replace(meongtta=False), 0, [seven, loser], reading={0: "animal"})
    assert r["points"] == [3, -3]


def test_nagari_cap_and_off():
    winner, loser = m(HONGDAN), m(["crane"])
    assert settle(K, 0, [winner, loser], nagari=3)["points"] == [24, -24]
    assert settle(K.replace(nagari_cap=1), 0, [winner, loser], nagari=3)["points"] == [6, -6]
    assert settle(K.replace(nagari_carry="off"), 0, [winner, loser], nagari=3)["points"] == [3, -3]


def test_mission_month_doubles():
    winner = m(["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"], ["curtain", "moon"])
    loser = m(["rainman"])
    # samgwang 3, mission month 1 (pine) complete: x2
    assert settle(K, 0, [winner, loser], mission_month=1)["points"] == [6, -6]
    assert settle(K, 0, [winner, loser], mission_month=2)["points"] == [3, -3]


def test_points_are_zero_sum():
    winner = m(["crane", "curtain", "moon"], CHAFF[:11])
    for piles in ([winner, m(["deer"])], [winner, m(["deer"]), 0], [m(["deer"]), winner, m(CHAFF[11:])]):
        w = piles.index(winner)
        r = settle(K, w, piles, goes=[1] * len(piles), go_order=list(range(len(piles))))
        assert sum(r["points"]) == 0
