"""Koi-Koi yaku, each in each preset, and every scoring option (docs/rules/koikoi.md §4-6)."""

import pytest

from bot.cards import mask
from bot.games.base import InvalidRules
from bot.games.koikoi import Rules, multipliers, score_yaku, total
from bot.games.koikoi.scoring import apply_multipliers, progress
from tests.games.refusals import refused_rules

NINTENDO = Rules.preset("nintendo")
MODERN = Rules.preset("modern")
SEED = Rules.preset("seed")

DRY4 = ["crane", "curtain", "moon", "phoenix"]
RIBBONS_POETRY = ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"]
RIBBONS_BLUE = ["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"]
ISC = ["boar", "deer", "butterflies"]
CHAFF10 = ["pine_chaff_1", "pine_chaff_2", "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1",
           "cherry_chaff_2", "wisteria_chaff_1", "wisteria_chaff_2", "iris_chaff_1", "iris_chaff_2"]


def points(cards, rules=NINTENDO, **kw):
    return {y.slug: y.points for y in score_yaku(cards, rules, **kw)}


# -- brights ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules, goko, shiko, ameshiko, sanko", [
    (NINTENDO, 10, 8, 7, 5),
    (MODERN, 15, 8, 7, 6),
])
def test_bright_yaku_per_point_table(rules, goko, shiko, ameshiko, sanko):
    assert points(DRY4 + ["rainman"], rules) == {"goko": goko}
    assert points(DRY4, rules) == {"shiko": shiko}
    assert points(["crane", "curtain", "moon", "rainman"], rules) == {"ameshiko": ameshiko}
    assert points(["crane", "curtain", "moon"], rules) == {"sanko": sanko}
    assert points(["crane", "curtain", "rainman"], rules) == {}  # rain man + 2 = nothing


def test_seed_cumulative_brights_as_seed_003_counts_them():
    # "if you have all five Brights, you get twenty three points": 5 + 8 + 10
    assert points(DRY4 + ["rainman"], SEED) == {"sanko": 5, "shiko": 8, "goko": 10}
    # "a Dry Four Bright actually scores 13"
    assert total(score_yaku(DRY4, SEED)) == 13
    assert points(["crane", "curtain", "moon", "rainman"], SEED) == {"sanko": 5, "ameshiko": 7}


def test_ameshiko_disabled_ignores_rain_man():
    rules = NINTENDO.replace(ameshiko_enabled=False)
    assert points(["crane", "curtain", "moon", "rainman"], rules) == {"sanko": 5}


def test_custom_points_override():
    rules = NINTENDO.replace(custom_points=(("goko", 20), ("kasu", 2)))
    assert points(DRY4 + ["rainman"], rules) == {"goko": 20}
    assert points(CHAFF10 + ["maple_chaff_1"], rules) == {"kasu": 3}
    with pytest.raises(InvalidRules):
        NINTENDO.replace(custom_points=(("nonsense", 1),))


# -- animals and ribbons, absorb vs stack ------------------------------------------------------
@pytest.mark.parametrize("rules", [NINTENDO, MODERN])
def test_animals_absorb(rules):
    assert points(ISC, rules) == {"inoshikacho": 5}
    # five animals including boar-deer-butterflies: 5 + 2 extra, tane not also scored
    assert points(ISC + ["geese", "cuckoo"], rules) == {"inoshikacho": 7}
    assert points(["geese", "cuckoo", "bush_warbler", "bridge", "swallow"], rules) == {"tane": 1}
    assert points(["geese", "cuckoo", "bush_warbler", "bridge", "swallow", "deer"], rules) == {"tane": 2}


def test_animals_stack_older_system():
    assert points(ISC + ["geese", "cuckoo"], SEED) == {"inoshikacho": 5, "tane": 1}


@pytest.mark.parametrize("rules", [NINTENDO, MODERN])
def test_ribbons_absorb(rules):
    assert points(RIBBONS_POETRY, rules) == {"akatan": 5}
    assert points(RIBBONS_BLUE + ["plain_ribbon_apr"], rules) == {"aotan": 6}
    assert points(RIBBONS_POETRY + RIBBONS_BLUE, rules) == {"akatan_aotan": 10}
    all_ten = RIBBONS_POETRY + RIBBONS_BLUE + ["plain_ribbon_apr", "plain_ribbon_may",
                                               "plain_ribbon_jul", "plain_ribbon_willow"]
    assert points(all_ten, rules) == {"akatan_aotan": 14}  # docs/rules/koikoi.md §4: 10 + 4
    assert points(["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul",
                   "plain_ribbon_willow", "blue_ribbon_jun"], rules) == {"tanzaku": 1}


def test_ribbons_stack_all_ten_is_16():
    all_ten = RIBBONS_POETRY + RIBBONS_BLUE + ["plain_ribbon_apr", "plain_ribbon_may",
                                               "plain_ribbon_jul", "plain_ribbon_willow"]
    assert points(all_ten, SEED) == {"akatan": 5, "aotan": 5, "tanzaku": 6}  # 16, sidsryu AllRibbonCombo


# -- viewings ------------------------------------------------------------------------------------
def test_viewings_stack_with_each_other():
    assert points(["curtain", "moon", "sake_cup"]) == {"hanami_zake": 5, "tsukimi_zake": 5}


@pytest.mark.parametrize("mode, cards, expected", [
    ("never", ["curtain", "sake_cup"], {}),
    ("limited", ["curtain", "sake_cup"], {}),
    ("limited", ["curtain", "sake_cup"] + RIBBONS_POETRY, {"akatan": 5, "hanami_zake": 5}),
    ("rain_voids", ["curtain", "sake_cup", "lightning"], {}),
    ("rain_voids", ["curtain", "sake_cup", "swallow"], {"hanami_zake": 5}),
    ("willow_voids", ["curtain", "sake_cup", "swallow"], {}),
    ("always", ["moon", "sake_cup", "rainman"], {"tsukimi_zake": 5}),
])
def test_viewing_modes(mode, cards, expected):
    assert points(cards, NINTENDO.replace(viewings=mode)) == expected


def test_viewings_weather_on_field_and_points():
    rules = NINTENDO.replace(viewings="weather_on_field")
    cards = ["curtain", "moon", "sake_cup"]
    assert points(cards, rules, field=["swallow"]) == {"tsukimi_zake": 5}
    assert points(cards, rules, field=["phoenix"]) == {"hanami_zake": 5}
    assert points(cards, NINTENDO.replace(viewing_points=3)) == {"hanami_zake": 3, "tsukimi_zake": 3}


# -- chaff and the sake cup ---------------------------------------------------------------------
def test_kasu_and_sake_cup_counts_as_chaff_by_default():
    assert points(CHAFF10) == {"kasu": 1}
    assert points(CHAFF10 + ["maple_chaff_1", "maple_chaff_2"]) == {"kasu": 3}
    assert points(CHAFF10[:9] + ["sake_cup"]) == {"kasu": 1}
    assert points(CHAFF10[:9] + ["sake_cup"], NINTENDO.replace(sake_cup_as_chaff="animal_only")) == {}


def test_sake_cup_either_reading_takes_the_better():
    rules = NINTENDO.replace(sake_cup_as_chaff="either")
    # 9 chaff + sake: as chaff it makes kasu 1, as an animal nothing -> chaff
    assert points(CHAFF10[:9] + ["sake_cup"], rules) == {"kasu": 1}
    # 3 other animals + sake + 10 chaff: as an animal kasu 1, as a chaff kasu 2 -> chaff
    three = ["geese", "cuckoo", "bush_warbler"]
    assert points(three + ["sake_cup"] + CHAFF10, rules) == {"kasu": 2}
    # 4 other animals + sake + 10 chaff: tane 1 + kasu 1 ties kasu 2: the animal reading stays
    four = three + ["bridge"]
    assert points(four + ["sake_cup"] + CHAFF10, rules) == {"tane": 1, "kasu": 1}
    # "both" counts it twice: tane 1 + kasu 2
    assert points(four + ["sake_cup"] + CHAFF10) == {"tane": 1, "kasu": 2}


def test_double_chaff_cards():
    rules = NINTENDO.replace(double_chaff_cards=True, sake_cup_as_chaff="animal_only")
    eight = CHAFF10[:8]
    assert points(eight + ["lightning"], rules) == {"kasu": 1}
    assert points(eight + ["lightning", "paulownia_chaff_yellow"], rules) == {"kasu": 3}


# -- tsukifuda -------------------------------------------------------------------------------------
def test_tsukifuda_round_month_and_any_month():
    pine = ["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"]
    assert points(pine, MODERN, round_month=1) == {"tsukifuda": 4}
    assert points(pine, MODERN, round_month=2) == {}
    assert points(pine, SEED) == {"tsukifuda": 5}
    assert points(pine, NINTENDO, round_month=1) == {}


# -- multipliers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, mine, theirs, expected", [
    ("opponent", 0, 1, 2), ("opponent", 2, 0, 1), ("own", 1, 0, 2), ("own", 0, 1, 1),
    ("any", 0, 1, 2), ("any", 0, 0, 1), ("calls_plus_one", 1, 2, 4),
    ("opponent_calls_plus_one", 1, 2, 3), ("none", 3, 3, 1),
])
def test_koikoi_multiplier_kinds(kind, mine, theirs, expected):
    rules = NINTENDO.replace(koikoi_multiplier=kind, seven_plus_doubles=False)
    assert apply_multipliers(1, multipliers(rules, 1, mine, theirs, 0)) == expected


def test_seven_plus_and_koikoi_together_make_four():
    mults = multipliers(NINTENDO, 7, 0, 1, 0)
    assert apply_multipliers(7, mults) == 28
    assert apply_multipliers(6, multipliers(NINTENDO, 6, 0, 0, 0)) == 6
    assert apply_multipliers(7, multipliers(NINTENDO.replace(seven_plus_doubles=False), 7, 0, 0, 0)) == 7


@pytest.mark.parametrize("mode, brights, factor", [
    ("off", 2, 1), ("double", 1, 2), ("double", 3, 2), ("n_plus_one", 2, 3), ("n", 1, 1), ("n", 3, 3),
    ("n_plus_one", 0, 1),
])
def test_field_bright_multiplier(mode, brights, factor):
    rules = NINTENDO.replace(field_bright_multiplier=mode, seven_plus_doubles=False)
    assert apply_multipliers(5, multipliers(rules, 5, 0, 0, brights)) == 5 * factor


# -- rules objects ---------------------------------------------------------------------------------
def test_rules_validation_and_round_trip():
    with refused_rules("point_table"):
        Rules(point_table="vegas")
    with refused_rules("rounds"):
        Rules(rounds=0, target_score=0)
    with refused_rules("unknown option"):
        Rules.from_dict({"colour": "red"})
    with refused_rules("preset"):
        Rules.preset("nope")
    for name in Rules.PRESETS:
        r = Rules.preset(name)
        assert Rules.from_dict(r.to_dict()) == r
    assert all(Rules.describe(name) for name in Rules.CHOICES)


def test_progress_lists_near_yaku():
    near = {slug: (have, need) for slug, have, need in progress(mask(["poetry_ribbon_jan", "poetry_ribbon_feb", "sake_cup"]), NINTENDO)}
    assert near["akatan"] == (2, 3)
    assert near["hanami_zake"] == (1, 2)
