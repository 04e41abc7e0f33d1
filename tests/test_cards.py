"""The deck matches docs/design.md's canonical ids, indices and roles."""

import random

from bot.cards import (
    ANIMALS,
    BIRDS,
    BRIGHTS,
    CHAFF,
    DECK,
    MONTH_MASKS,
    RIBBONS,
    Kind,
    Ribbon,
    Role,
    card,
    cards_in,
    has_odd_month,
    ids_in,
    indices_in,
    mask,
    month_count_table,
    months_holding,
    months_holding_at_least,
)

GRID_IDS = """
crane poetry_ribbon_jan pine_chaff_1 pine_chaff_2
bush_warbler poetry_ribbon_feb plum_chaff_1 plum_chaff_2
curtain poetry_ribbon_mar cherry_chaff_1 cherry_chaff_2
cuckoo plain_ribbon_apr wisteria_chaff_1 wisteria_chaff_2
bridge plain_ribbon_may iris_chaff_1 iris_chaff_2
butterflies blue_ribbon_jun peony_chaff_1 peony_chaff_2
boar plain_ribbon_jul clover_chaff_1 clover_chaff_2
moon geese susuki_chaff_1 susuki_chaff_2
sake_cup blue_ribbon_sep chrysanthemum_chaff_1 chrysanthemum_chaff_2
deer blue_ribbon_oct maple_chaff_1 maple_chaff_2
rainman swallow plain_ribbon_willow lightning
phoenix paulownia_chaff_yellow paulownia_chaff_1 paulownia_chaff_2
""".split()  # noqa: SIM905 - laid out as the docs/design.md grid


def test_canonical_ids_and_indices():
    assert [c.id for c in DECK] == GRID_IDS
    for c in DECK:
        assert c.index == (c.month - 1) * 4 + c.rank
        assert card(c.id) is c and card(c.index) is c


def test_kind_totals_and_classic_value():
    assert [BRIGHTS.bit_count(), ANIMALS.bit_count(), RIBBONS.bit_count(), CHAFF.bit_count()] == [5, 9, 10, 24]
    assert sum(c.value for c in DECK) == 264
    assert {c.id for c in cards_in(BIRDS)} == {"bush_warbler", "cuckoo", "geese"}


def test_ribbon_colours_and_roles():
    assert [c.id for c in DECK if c.ribbon is Ribbon.POETRY] == ["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"]
    assert [c.id for c in DECK if c.ribbon is Ribbon.BLUE] == ["blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"]
    roles = {c.role: c.id for c in DECK if c.role}
    assert roles == {Role.RAIN_MAN: "rainman", Role.SAKE_CUP: "sake_cup", Role.LIGHTNING: "lightning",
                     Role.YELLOW_PAULOWNIA: "paulownia_chaff_yellow"}
    assert card("lightning").kind is Kind.CHAFF and card("rainman").kind is Kind.BRIGHT


def test_korean_numbering_swaps_willow_and_paulownia():
    assert card("rainman").korean_month == 12 and card("phoenix").korean_month == 11
    assert all(c.korean_month == c.month for c in DECK if c.month <= 10)


def test_display_names_and_masks():
    assert card("crane").kanji == "松に鶴" and card("crane").romaji == "matsu ni tsuru"
    assert ids_in(MONTH_MASKS[8]) == ["moon", "geese", "susuki_chaff_1", "susuki_chaff_2"]
    assert mask(["crane", 1, card(2)]) == 0b111
    try:
        card("joker")
    except KeyError as exc:
        assert "joker" in str(exc)
    else:
        raise AssertionError("unknown id accepted")


def test_indices_in_lists_every_set_bit_ascending():
    rng = random.Random(5)
    cases = [0, 1, 1 << 47, (1 << 48) - 1, 1 << 48, (1 << 51) - 1, 1 << 59, 1 << 60, (1 << 64) - 1]
    cases += [sum(1 << i for i in rng.sample(range(51), k)) for k in range(52) for _ in range(20)]
    for m in cases:
        assert indices_in(m) == [i for i in range(m.bit_length()) if m >> i & 1]


def test_ids_in_names_every_card_of_a_set_in_canonical_order():
    rng = random.Random(7)
    cases = [0, 1, 1 << 47, (1 << 48) - 1]
    cases += [sum(1 << i for i in rng.sample(range(48), k)) for k in range(49) for _ in range(20)]
    for m in cases:
        assert ids_in(m) == [DECK[i].id for i in range(48) if m >> i & 1]


def test_month_counts_match_a_count_per_month():
    rng = random.Random(9)
    cases = [0, (1 << 48) - 1, MONTH_MASKS[1], MONTH_MASKS[12] | 1]
    cases += [sum(1 << i for i in rng.sample(range(48), k)) for k in range(49) for _ in range(20)]
    for m in cases:
        counts = [(m & MONTH_MASKS[month]).bit_count() for month in range(1, 13)]
        assert month_count_table(m) == tuple(counts.count(k) for k in range(5))
        assert has_odd_month(m) == any(n % 2 for n in counts)
        for k in range(5):
            assert months_holding(m, k) == sum(MONTH_MASKS[month] for month in range(1, 13)
                                               if counts[month - 1] == k)
            assert months_holding_at_least(m, k) == sum(MONTH_MASKS[month] for month in range(1, 13)
                                                        if counts[month - 1] >= k)
            jokers = m | 0b111 << 48  # Go-Stop's jokers are no month's cards
            assert months_holding(jokers, k) == months_holding(m, k)
            assert months_holding_at_least(jokers, k) == months_holding_at_least(m, k)
