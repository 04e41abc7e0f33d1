"""Every Seotda hand rank and special hand against docs/rules/seotda.md and its sources."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.cards import Kind, card
from bot.games.seotda import (
    DECK,
    GWANG,
    HAND_SLUGS,
    YEOLKKEUT,
    best_two,
    evaluate,
    score_yaku,
    showdown,
)
from bot.games.seotda.hands import all_hands


def test_deck_is_the_two_best_cards_of_months_one_to_ten():
    """[FW, NP, HH]: 20 cards, two per month 1-10, the bright/animal and the ribbon (August:
    moon and geese); gwang = the brights of 1, 3, 8; yeolkkeut = the animals of 4, 7, 9."""
    assert len(DECK) == len(set(DECK)) == 20
    assert Counter(card(c).month for c in DECK) == {m: 2 for m in range(1, 11)}
    for c in DECK:
        assert card(c).rank < 2  # the month's two most valuable cards
    assert {c for c in DECK if card(c).kind is Kind.BRIGHT} == GWANG
    assert {card(c).month for c in GWANG} == {1, 3, 8}
    assert {card(c).month for c in YEOLKKEUT} == {4, 7, 9}
    assert all(card(c).kind is Kind.ANIMAL for c in YEOLKKEUT)


# (cards, slug, plain rank): one example of every rank of the table [FW, NP, SS-H, KW].
RANKS = [
    (("curtain", "moon"), "gwangttaeng_38"),
    (("crane", "moon"), "gwangttaeng_18"),
    (("crane", "curtain"), "gwangttaeng_13"),
    (("deer", "blue_ribbon_oct"), "ttaeng_10"),
    (("sake_cup", "blue_ribbon_sep"), "ttaeng_9"),
    (("moon", "geese"), "ttaeng_8"),
    (("boar", "plain_ribbon_jul"), "ttaeng_7"),
    (("butterflies", "blue_ribbon_jun"), "ttaeng_6"),
    (("bridge", "plain_ribbon_may"), "ttaeng_5"),
    (("cuckoo", "plain_ribbon_apr"), "ttaeng_4"),
    (("curtain", "poetry_ribbon_mar"), "ttaeng_3"),
    (("bush_warbler", "poetry_ribbon_feb"), "ttaeng_2"),
    (("crane", "poetry_ribbon_jan"), "ttaeng_1"),
    (("crane", "bush_warbler"), "ali"),
    (("poetry_ribbon_jan", "cuckoo"), "doksa"),
    (("crane", "sake_cup"), "gubbing"),
    (("poetry_ribbon_jan", "deer"), "jangbbing"),
    (("deer", "plain_ribbon_apr"), "jangsa"),
    (("cuckoo", "butterflies"), "seryuk"),
    (("geese", "crane"), "kkeut_9"),  # 8 + 1: gabo
    (("bridge", "curtain"), "kkeut_8"),
    (("bridge", "bush_warbler"), "kkeut_7"),
    (("bush_warbler", "cuckoo"), "kkeut_6"),
    (("butterflies", "blue_ribbon_sep"), "kkeut_5"),
    (("blue_ribbon_jun", "geese"), "kkeut_4"),
    (("moon", "bridge"), "kkeut_3"),
    (("bush_warbler", "deer"), "kkeut_2"),
    (("poetry_ribbon_feb", "sake_cup"), "kkeut_1"),
    (("poetry_ribbon_feb", "moon"), "mangtong"),  # 2 + 8 = 10 [NP]
]


@pytest.mark.parametrize("cards, slug", RANKS)
def test_each_rank(cards, slug):
    hand = evaluate(cards)
    assert (hand.slug, hand.plain) == (slug, slug)
    assert evaluate(cards[::-1]) == hand  # order does not matter


def test_ranks_are_ordered_as_the_table():
    strengths = [evaluate(c).strength for c, _ in RANKS]
    # 18 and 13 gwang-ttaeng are equal [SS-H]; everything else strictly descends.
    assert strengths[1] == strengths[2]
    del strengths[2]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)


def test_every_hand_has_a_documented_slug():
    assert {h.slug for h in all_hands()} == set(HAND_SLUGS)
    assert sum(1 for _ in all_hands()) == 190


SPECIALS = [
    (("cuckoo", "boar"), "amhaeng_eosa", "kkeut_1"),
    (("curtain", "boar"), "ttaengjabi", "mangtong"),
    (("poetry_ribbon_mar", "plain_ribbon_jul"), "ttaengjabi", "mangtong"),
    (("cuckoo", "blue_ribbon_sep"), "gusa", "kkeut_3"),
    (("plain_ribbon_apr", "sake_cup"), "gusa", "kkeut_3"),
    (("cuckoo", "sake_cup"), "meongteongguri_gusa", "kkeut_3"),
]


@pytest.mark.parametrize("cards, slug, plain", SPECIALS)
def test_special_hands_rank_as_their_kkeut(cards, slug, plain):
    hand = evaluate(cards)
    assert (hand.slug, hand.plain, hand.special) == (slug, plain, True)
    assert evaluate(cards, specials=False).slug == plain
    # a 4-7 that is not both yeolkkeut is a plain 1 kkeut
    assert evaluate(("plain_ribbon_apr", "boar")).slug == "kkeut_1"


def seats(*hands):
    return {i: evaluate(h) for i, h in enumerate(hands)}


def test_amhaeng_eosa_catches_13_and_18_but_not_38():
    assert showdown(seats(("cuckoo", "boar"), ("crane", "moon"))).winners == (0,)
    assert showdown(seats(("cuckoo", "boar"), ("crane", "curtain"))).decided_by == "amhaeng_eosa"
    assert showdown(seats(("cuckoo", "boar"), ("curtain", "moon"))).winners == (1,)
    # against anything else it is one kkeut
    assert showdown(seats(("cuckoo", "boar"), ("geese", "deer"))).winners == (1,)


def test_ttaengjabi_catches_ttaeng_one_to_nine_only():
    jabi = ("curtain", "plain_ribbon_jul")
    assert showdown(seats(jabi, ("sake_cup", "blue_ribbon_sep"))).winners == (0,)
    assert showdown(seats(jabi, ("crane", "poetry_ribbon_jan"))).decided_by == "ttaengjabi"
    assert showdown(seats(jabi, ("deer", "blue_ribbon_oct"))).winners == (1,)  # jang-ttaeng
    assert showdown(seats(jabi, ("crane", "moon"))).winners == (1,)  # gwang-ttaeng
    assert showdown(seats(jabi, ("geese", "deer"))).winners == (1,)  # otherwise mang-tong


def test_gusa_redeals_when_the_best_hand_is_ali_or_lower():
    gusa = ("cuckoo", "blue_ribbon_sep")
    low = showdown(seats(gusa, ("crane", "bush_warbler")))  # ali
    assert (low.redeal, low.caller) == ("gusa", 0)
    assert showdown(seats(gusa, ("crane", "poetry_ribbon_jan"))).redeal is None  # a ttaeng wins


def test_meongteongguri_gusa_redeals_up_to_jang_ttaeng():
    gusa = ("cuckoo", "sake_cup")
    assert showdown(seats(("deer", "blue_ribbon_oct"), gusa)).redeal == "meongteongguri_gusa"
    assert showdown(seats(("crane", "moon"), gusa)).redeal is None


def test_ties_and_three_cards():
    assert showdown(seats(("crane", "geese"), ("poetry_ribbon_jan", "moon"))).winners == (0, 1)
    assert best_two(["bridge", "plain_ribbon_may", "crane"]).slug == "ttaeng_5"
    assert score_yaku(["curtain", "moon"]) == [("gwangttaeng_38", 50)]


def test_not_a_hand():
    for cards in (["crane"], ["crane", "crane"], ["crane", "rainman"]):
        with pytest.raises(ValueError):
            evaluate(cards)
