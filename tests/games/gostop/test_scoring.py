"""Go-Stop jokbo (docs/rules/gostop.md §3) category by category, with the options that change
it."""

import pytest

from bot.cards import card
from bot.games.gostop import Rules, base_score, best_reading, pi_value, progress, score_yaku

K = Rules()
CHAFF10 = ["pine_chaff_1", "pine_chaff_2", "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1",
           "cherry_chaff_2", "wisteria_chaff_1", "wisteria_chaff_2", "iris_chaff_1", "iris_chaff_2"]


def slugs(cards, rules=K, reading=None):
    return {y.slug: y.points for y in score_yaku(cards, rules, reading)}


@pytest.mark.parametrize("cards, expected", [
    (["crane", "curtain", "moon"], {"samgwang": 3}),
    (["crane", "curtain", "rainman"], {"bi_samgwang": 2}),
    (["crane", "curtain", "moon", "phoenix"], {"sagwang": 4}),
    (["crane", "curtain", "moon", "rainman"], {"sagwang": 4}),
    (["crane", "curtain", "moon", "phoenix", "rainman"], {"ogwang": 15}),
    (["crane", "curtain"], {}),
])
def test_brights(cards, expected):
    assert slugs(cards) == expected


def test_four_brights_with_rain_option():
    r = Rules(four_brights_with_rain=3)
    assert slugs(["crane", "curtain", "moon", "rainman"], r) == {"sagwang": 3}
    assert slugs(["crane", "curtain", "moon", "phoenix"], r) == {"sagwang": 4}


def test_godori_and_its_option():
    birds = ["bush_warbler", "cuckoo", "geese"]
    assert slugs(birds) == {"godori": 5}
    assert slugs(birds, Rules(godori_points=3)) == {"godori": 3}
    assert slugs(["bush_warbler", "cuckoo", "swallow"]) == {}  # the swallow is no godori bird


def test_animals_count_minus_four_and_godori_stacks():
    five = ["bush_warbler", "cuckoo", "geese", "bridge", "butterflies"]
    assert slugs(five) == {"godori": 5, "yeol": 1}
    assert slugs(five + ["boar", "deer"]) == {"godori": 5, "yeol": 3}
    assert slugs(["bridge", "butterflies", "boar", "deer"]) == {}


def test_ribbon_sets():
    assert slugs(["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"]) == {"hongdan": 3}
    assert slugs(["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"]) == {"cheongdan": 3}
    assert slugs(["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul"]) == {"chodan": 3}
    # the willow ribbon is no cho-dan ribbon
    assert slugs(["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_willow"]) == {}


def test_six_ribbons_sloperama_example():
    # Sloperama's worked example: both 3-sets + 2 for six ribbons = 8
    six = ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "blue_ribbon_jun",
           "blue_ribbon_sep", "blue_ribbon_oct"]
    assert slugs(six) == {"hongdan": 3, "cheongdan": 3, "tti": 2}
    assert base_score(sum(card(c).bit for c in six), K) == 8


def test_tti_and_the_willow_ribbon_option():
    five = ["poetry_ribbon_jan", "blue_ribbon_jun", "plain_ribbon_apr", "plain_ribbon_may",
            "plain_ribbon_willow"]
    assert slugs(five) == {"tti": 1}
    assert slugs(five, Rules(willow_ribbon="excluded")) == {}


def test_chodan_option_and_seed_inoshikacho():
    grass = ["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul"]
    assert slugs(grass, Rules(chodan=False)) == {}
    bdb = ["boar", "deer", "butterflies"]
    assert slugs(bdb) == {}
    assert slugs(bdb, Rules.preset("seed")) == {"inoshikacho": 5}


def test_pi_value_minus_nine_with_double_pi():
    assert slugs(CHAFF10) == {"pi": 1}
    assert slugs(CHAFF10[:9]) == {}
    # 8 single + lightning 2 = 10; + yellow paulownia 2 = 12 -> 3
    assert slugs(CHAFF10[:8] + ["lightning"]) == {"pi": 1}
    assert slugs(CHAFF10[:8] + ["lightning", "paulownia_chaff_yellow"]) == {"pi": 3}
    assert pi_value(sum(card(c).bit for c in ["lightning", "paulownia_chaff_yellow"]), K) == 4


def test_jokers_count_two_and_three_pi():
    assert slugs(CHAFF10[:5] + ["joker_1", "joker_3"]) == {"pi": 1}
    assert slugs(CHAFF10[:5] + ["joker_1", "joker_2"]) == {}


def test_sake_cup_animal_or_double_pi():
    four_animals = ["bridge", "butterflies", "boar", "deer"]
    eight_pi = CHAFF10[:8]
    # as an animal: yeol 1; as pi: 10 pi -> 1. Equal: an animal by default.
    both_ways = four_animals + eight_pi + ["sake_cup"]
    assert slugs(both_ways, reading="animal") == {"yeol": 1}
    assert slugs(both_ways, reading="pi") == {"pi": 1}
    # more pi than animals: the higher reading is pi (10 + 2 = 12 pi -> 3)
    more_pi = CHAFF10 + ["sake_cup"]
    assert slugs(more_pi) == {"pi": 3}
    assert best_reading(sum(card(c).bit for c in more_pi), K) == "pi"


def test_sake_cup_options():
    cards = ["bridge", "butterflies", "boar", "deer", "sake_cup"] + CHAFF10[:8]
    assert slugs(cards, Rules(sake_cup="both")) == {"yeol": 1, "pi": 1}
    assert slugs(cards, Rules(sake_cup="animal"), reading="pi") == {"yeol": 1}
    # with the May bridge in the dual role the sake cup is a plain animal
    bridge = ["bridge", "sake_cup", "butterflies", "boar", "deer"] + CHAFF10[:8]
    assert slugs(bridge, Rules(sake_cup="bridge"), reading="pi") == {"pi": 1}
    assert slugs(bridge, Rules(sake_cup="bridge"), reading="animal") == {"yeol": 1}


def test_all_categories_add_up():
    cards = (["crane", "curtain", "moon", "bush_warbler", "cuckoo", "geese",
              "poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "blue_ribbon_jun",
              "blue_ribbon_sep"] + CHAFF10 + ["lightning"])
    # samgwang 3 + godori 5 + hongdan 3 + tti 1 + pi (12 -> 3) = 15
    assert slugs(cards) == {"samgwang": 3, "godori": 5, "hongdan": 3, "tti": 1, "pi": 3}
    assert base_score(sum(card(c).bit for c in cards), K) == 15


def test_score_yaku_accepts_ids_indices_cards_and_masks():
    by_id = score_yaku(["crane", "curtain", "moon"])
    assert score_yaku([0, 8, 28]) == by_id
    assert score_yaku([card("crane"), card("curtain"), card("moon")]) == by_id
    assert score_yaku(card("crane").bit | card("curtain").bit | card("moon").bit) == by_id
    assert by_id[0].cards == ("crane", "curtain", "moon")
    with pytest.raises(KeyError):
        score_yaku(["cranes"])


def test_progress_names_near_yaku():
    m = sum(card(c).bit for c in ["crane", "curtain", "bush_warbler", "cuckoo"])
    near = {slug: (have, need) for slug, have, need in progress(m, K)}
    assert near["samgwang"] == (2, 3) and near["godori"] == (2, 3)
