"""Card art: every face distinct, sprite sizes and ratio, corner index numbering, caching."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.cards import DECK
from rendering import build_sprites, card_sprite
from rendering.art import MASTER_H, MASTER_W, draw_card
from rendering.sprites import SIZES, card_height, index_width

MIN_MEAN_DIFFERENCE = 3.0  # mean absolute RGB difference (0..255) at 60 px wide


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_every_card_face_differs_from_every_other():
    faces = {c.id: card_sprite(c.id, 60).convert("RGB") for c in DECK}
    closest = min(
        (_mean_difference(faces[a], faces[b]), a, b)
        for a, b in itertools.combinations(faces, 2)
    )
    assert closest[0] > MIN_MEAN_DIFFERENCE, closest


def test_art_without_index_also_differs_for_the_two_plain_cards_of_each_month():
    for month in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12):  # willow has a single plain card
        chaff = [c for c in DECK if c.month == month and c.id.endswith(("_1", "_2"))]
        first, second = (draw_card(c).convert("RGB").resize((60, 98)) for c in chaff)
        assert _mean_difference(first, second) > MIN_MEAN_DIFFERENCE, month


def test_master_ratio_is_close_to_a_real_card():
    assert abs(MASTER_W / MASTER_H - 0.61) < 0.01


@pytest.mark.parametrize("width", [40, 72, 96, 150])
def test_sprite_size_and_transparent_corners(width):
    sprite = card_sprite("crane", width)
    assert sprite.size == (width, card_height(width))
    assert sprite.mode == "RGBA"
    assert sprite.getpixel((0, 0))[3] < 128  # rounded corner
    assert sprite.getpixel((width // 2, sprite.height // 2))[3] == 255


def test_sprites_are_cached_and_build_sprites_prepares_the_used_sizes():
    build_sprites()
    for width in SIZES:
        assert card_sprite("moon", width) is card_sprite("moon", width)


def test_korean_numbering_changes_only_the_willow_and_paulownia_indices():
    for c in DECK:
        japanese = card_sprite(c.id, 72).convert("RGB")
        korean = card_sprite(c.id, 72, korean=True).convert("RGB")
        changed = ImageChops.difference(japanese, korean).getbbox() is not None
        assert changed == (c.month in (11, 12)), c.id


def test_corner_index_fits_in_the_visible_strip_of_a_pile():
    for width in SIZES:
        assert index_width(width) < width * 0.6


def test_unknown_card_is_rejected():
    with pytest.raises(KeyError):
        card_sprite("dragon", 40)
