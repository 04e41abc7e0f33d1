"""Sakura card values, each yaku, the settlement and every scoring option
(docs/rules/sakura.md §7-§9)."""

import pytest

from bot.cards import DECK, Kind, mask
from bot.games.base import InvalidRules
from bot.games.sakura import (
    OPTIONS,
    YAKU_SLUGS,
    Rules,
    card_points,
    score_yaku,
    settle,
    side_scores,
)
from bot.games.sakura.scoring import first_in_turn_order, victory_count

HAWAIIAN = Rules.preset("hawaiian")
SEED = Rules.preset("seed")

YAKU_CARDS = {
    "drinking": ["curtain", "moon", "sake_cup"],
    "crane_warbler_curtain": ["crane", "bush_warbler", "curtain"],
    "poetry_ribbons": ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"],
    "blue_ribbons": ["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"],
    "grass_ribbons": ["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul"],
    "butterflies_sake_deer": ["butterflies", "sake_cup", "deer"],
    "cuckoo_bridge_boar": ["cuckoo", "bridge", "boar"],
    "boar_geese_deer": ["boar", "geese", "deer"],
}


def slugs(cards):
    return [y.slug for y in score_yaku(cards)]


# -- card values ---------------------------------------------------------------------------
def test_hawaiian_card_values_total_240():
    assert card_points(range(48), HAWAIIAN) == 240
    assert card_points(["crane", "curtain", "moon", "phoenix"], HAWAIIAN) == 80
    assert card_points(["rainman"], HAWAIIAN) == 5  # an animal here, not a bright
    assert card_points(["paulownia_chaff_yellow"], HAWAIIAN) == 10  # worth a ribbon
    assert card_points(["plain_ribbon_willow", "poetry_ribbon_jan"], HAWAIIAN) == 20
    assert card_points(["swallow", "sake_cup", "geese"], HAWAIIAN) == 15
    assert card_points(["lightning", "pine_chaff_1", "paulownia_chaff_1"], HAWAIIAN) == 0


def test_seed_card_values_chaff_one_point():
    assert card_points(range(48), SEED) == 4 * 20 + 10 * 10 + 10 * 5 + 24
    assert card_points(["rainman"], SEED) == 5
    assert card_points(["paulownia_chaff_yellow", "lightning", "pine_chaff_1"], SEED) == 3
    assert card_points(["plain_ribbon_may"], SEED) == 10


def test_card_points_accepts_cards_ids_indices_and_bit_sets():
    ids = ["crane", "deer"]
    assert card_points(ids) == card_points([DECK[0], DECK[36]]) == card_points([0, 36]) \
        == card_points(mask(ids)) == 25


# -- the eight yaku ----------------------------------------------------------------------------
def test_the_eight_yaku_in_rules_order():
    assert list(YAKU_SLUGS) == list(YAKU_CARDS)


@pytest.mark.parametrize("slug", list(YAKU_CARDS))
def test_each_yaku_needs_all_three_cards(slug):
    cards = YAKU_CARDS[slug]
    (y,) = score_yaku(cards)
    assert (y.slug, y.points, sorted(y.cards)) == (slug, 50, sorted(cards))
    for missing in cards:
        assert slugs([c for c in cards if c != missing]) == []


def test_cards_serve_in_two_yaku():
    assert slugs(YAKU_CARDS["drinking"] + ["crane", "bush_warbler"]) == [
        "drinking", "crane_warbler_curtain"]
    assert slugs(["boar", "deer", "geese", "cuckoo", "bridge", "butterflies", "sake_cup"]) == [
        "butterflies_sake_deer", "cuckoo_bridge_boar", "boar_geese_deer"]
    assert len(score_yaku(range(48))) == 8


def test_non_yaku_cards_never_form_one():
    # the willow ribbon is no grass ribbon; willow and paulownia are in no yaku (FW-SK)
    assert slugs(["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_willow"]) == []
    assert slugs([c.id for c in DECK if c.month in (11, 12)]) == []
    assert slugs([c.id for c in DECK if c.kind is Kind.CHAFF]) == []


# -- side scores ---------------------------------------------------------------------------------
def test_yaku_costs_every_opponent_fifty_and_adds_nothing_to_its_owner():
    a = mask(YAKU_CARDS["poetry_ribbons"])  # 30 card points, one yaku
    b = mask(["crane", "moon"])  # 40
    c = mask(YAKU_CARDS["grass_ribbons"] + YAKU_CARDS["blue_ribbons"])  # 60, two yaku
    totals = [s["total"] for s in side_scores([a, b, c], HAWAIIAN)]
    assert totals == [30 - 100, 40 - 150, 60 - 50]
    assert side_scores([a, b, c], HAWAIIAN)[1]["penalty"] == 150


def test_own_yaku_scores_option_adds_fifty_per_own_yaku():
    a = mask(YAKU_CARDS["poetry_ribbons"])
    b = mask(["crane"])
    scores = side_scores([a, b], SEED)
    assert [s["total"] for s in scores] == [30 + 50, 20 - 50]
    assert scores[0]["yaku_bonus"] == 50


# -- settlement -----------------------------------------------------------------------------------
def test_settle_points_mode_gives_every_seat_its_score_and_winner_deals():
    piles = [mask(["crane"]), mask(["moon", "curtain"]), 0]
    d = settle(piles, [[0], [1], [2]], dealer=0, rules=HAWAIIAN)
    assert d["points"] == [20, 40, 0] and d["winner"] == 1 and d["margin"] == 20
    assert d["yaku_by_seat"] == {"0": [], "1": [], "2": []}


def test_tie_goes_to_the_earliest_in_turn_order_from_the_dealer():
    piles = [mask(["crane"]), mask(["moon"]), mask(["phoenix"])]
    assert settle(piles, [[0], [1], [2]], dealer=1, rules=HAWAIIAN)["winner"] == 1
    assert settle(piles, [[0], [1], [2]], dealer=2, rules=HAWAIIAN)["winner"] == 2
    piles[2] = 0
    assert settle(piles, [[0], [1], [2]], dealer=2, rules=HAWAIIAN)["winner"] == 0
    assert first_in_turn_order([0, 3], dealer=2, num_players=4) == 3


def test_teams_share_score_and_yaku_by_seat():
    rules = HAWAIIAN.replace(teams="pairs")
    sides = rules.sides(4)
    assert sides == [[0, 2], [1, 3]]
    team0 = mask(YAKU_CARDS["drinking"])  # 45 card points, one yaku
    team1 = mask(["crane", "phoenix", "deer"])  # 45
    d = settle([team0, team1], sides, dealer=3, rules=rules)
    assert d["points"] == [45, -5, 45, -5]
    assert d["winner"] == 0  # team 0 wins; its seat earliest after dealer 3 is seat 0
    assert d["yaku_by_seat"]["0"] == d["yaku_by_seat"]["2"] == [
        ["drinking", 50, ["curtain", "moon", "sake_cup"]]]
    assert d["yaku_by_seat"]["1"] == []


@pytest.mark.parametrize("victory, margin, expected", [
    ("victories", 200, (1, "win")),
    ("chu", 49, (1, "win")), ("chu", 50, (2, "chu")), ("chu", 150, (2, "chu")),
    ("basa", 99, (1, "win")), ("basa", 100, (2, "basa")),
    ("chu_basa", 49, (1, "win")), ("chu_basa", 50, (2, "chu")), ("chu_basa", 100, (3, "basa")),
])
def test_victory_counting(victory, margin, expected):
    assert victory_count(margin, HAWAIIAN.replace(victory=victory)) == expected


def test_settle_victory_mode_scores_only_the_winning_side():
    rules = HAWAIIAN.replace(victory="chu_basa", teams="pairs")
    piles = [mask(["crane", "curtain", "moon", "phoenix", "poetry_ribbon_jan"]), mask(["deer"])]
    d = settle(piles, rules.sides(4), dealer=1, rules=rules)
    assert d["margin"] == 85 and d["victory"] == "chu"
    assert d["points"] == [2, 0, 2, 0]
    assert d["shira_basa"] is False


def test_seed_basa_is_two_points_for_winning_by_100():
    piles = [mask(YAKU_CARDS["poetry_ribbons"] + ["crane"]), mask(["deer"])]
    d = settle(piles, [[0], [1]], dealer=0, rules=SEED)
    # 50 card points + 50 own yaku vs 5 - 50: won by 145
    assert d["scores"] == [100, -45] and d["points"] == [2, 0] and d["victory"] == "basa"
    d = settle([mask(["crane", "moon", "curtain", "phoenix", "plain_ribbon_may", "plain_ribbon_apr"]), 0], [[0], [1]],
               dealer=1, rules=SEED)
    assert d["points"] == [2, 0] and d["shira_basa"] is True  # basa without any yaku


# -- rules objects ------------------------------------------------------------------------------
def test_presets_and_defaults():
    assert Rules() == HAWAIIAN.replace(preset_name="hawaiian")
    assert SEED.card_values == "seed" and SEED.own_yaku_scores and SEED.stacked_pair
    assert SEED.gaji == "off" and not SEED.hiki and SEED.victory == "basa"
    assert Rules.from_dict(SEED.to_dict()) == SEED


def test_every_option_is_documented_and_validated():
    fields = set(Rules().to_dict()) - {"preset_name", "rounds", "target_score"}
    assert fields == set(OPTIONS)
    for name, (allowed, source, meaning) in OPTIONS.items():
        assert getattr(Rules(), name) == allowed[0] and source and meaning
        assert name in Rules.describe(name)
        with pytest.raises(InvalidRules):
            Rules(**{name: "nonsense"})
    with pytest.raises(InvalidRules):
        Rules(rounds=0, target_score=0)
    with pytest.raises(InvalidRules):
        Rules.preset("nowhere")


@pytest.mark.parametrize("teams, ok", [
    ("off", (2, 3, 4, 5, 6, 7)), ("pairs", (4, 6)), ("triples", (6,)),
])
def test_team_player_counts(teams, ok):
    rules = Rules(teams=teams)
    for n in range(1, 9):
        if n in ok:
            rules.check_players(n)
            seats = sorted(s for side in rules.sides(n) for s in side)
            assert seats == list(range(n))
        else:
            with pytest.raises(InvalidRules):
                rules.check_players(n)


def test_team_seating():
    assert Rules(teams="pairs").sides(6) == [[0, 3], [1, 4], [2, 5]]  # partners opposite
    assert Rules(teams="triples").sides(6) == [[0, 2, 4], [1, 3, 5]]  # alternating
    assert Rules().sides(3) == [[0], [1], [2]]
