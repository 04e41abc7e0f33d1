"""Go-Stop's jokers (outside the 48-card deck) have a face of their own everywhere cards are drawn."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from rendering import (
    HandView,
    PlayerView,
    SummaryView,
    TableView,
    YakuRow,
    card_sprite,
    render_hand,
    render_summary,
    render_table,
)
from rendering.sprites import SIZES, card_height

from .conftest import open_png


@pytest.mark.parametrize("width", SIZES)
def test_joker_sprites_at_every_size(width):
    for jid in ("joker_1", "joker_2", "joker_3"):
        sprite = card_sprite(jid, width, korean=True)
        assert sprite.size == (width, card_height(width))
        assert sprite.getpixel((0, 0))[3] < 128  # rounded corner


def test_two_and_three_pi_jokers_differ_and_no_other_ids_are_accepted():
    two, three = card_sprite("joker_2", 72).convert("RGB"), card_sprite("joker_3", 72).convert("RGB")
    assert ImageChops.difference(two, three).getbbox() is not None
    with pytest.raises(KeyError):
        card_sprite("joker_4", 72)


def test_jokers_in_table_hand_and_summary():
    table = TableView(game="gostop", title="Go-Stop", korean_months=True, field=("moon",),
                      players=(PlayerView("A", captured=("joker_3", "lightning", "crane"), pi_count=5),
                               PlayerView("B", captured=("joker_1",), pi_count=2)))
    assert open_png(render_table(table)).width > 0
    hand = HandView(cards=("joker_2", "crane"), playable=("joker_2",), korean_months=True)
    assert open_png(render_hand(hand)).width > 0
    summary = SummaryView(title="Round 1", rows=(YakuRow("A", "Pi", ("joker_3", "pine_chaff_1"), 1),),
                          korean_months=True)
    assert open_png(render_summary(summary)).width > 0
