"""Counted nouns and shortened labels read right: "1 point", "2 points", never a word cut in two."""

from __future__ import annotations

import discord
import pytest

from bot import presenter
from bot.discord_ui.controls import ActionButton, MoveSelect
from bot.discord_ui.parts import button_label
from bot.games.base import Action
from bot.settlement import stake_text
from bot.words import ELLIPSIS, amount, plural, shorten


@pytest.mark.parametrize("noun, zero, one, two", [
    ("point", "0 points", "1 point", "2 points"),
    ("game", "0 games", "1 game", "2 games"),
    ("round", "0 rounds", "1 round", "2 rounds"),
    ("match", "0 matches", "1 match", "2 matches"),
    ("entry", "0 entries", "1 entry", "2 entries"),
    ("yaku", "0 yaku", "1 yaku", "2 yaku"),
])
def test_plural_for_zero_one_and_two(noun, zero, one, two):
    assert (plural(0, noun), plural(1, noun), plural(2, noun)) == (zero, one, two)


def test_plural_groups_thousands_and_keeps_the_sign():
    assert plural(1200, "chip") == "1,200 chips"
    assert plural(-1, "point") == "-1 point"
    assert plural(3, "person", "people") == "3 people"


def test_shorten_cuts_at_a_word_with_an_ellipsis():
    text = "Field pair Chrysanthemum + Chrysanthemum, Chrysanthemum Blue Ribbon to the field"
    out = shorten(text, 60)
    assert len(out) <= 60 and out.endswith(ELLIPSIS)
    kept = out[:-1]
    assert text.startswith(kept) and text[len(kept)] == " "  # ends on a whole word
    assert not kept.endswith((",", "+", " "))
    assert shorten("short", 80) == "short"
    assert shorten("x" * 100, 80) == "x" * 79 + ELLIPSIS  # one endless word: nothing else fits


def _whole_words(label: str, full: str) -> bool:
    kept = label.removesuffix(ELLIPSIS).rstrip()
    return label == full or (full.startswith(kept) and full[len(kept)] in " ,+")


def test_a_long_move_button_is_shortened_at_a_word():
    full = "12. " + " ".join(["Chrysanthemum Blue Ribbon"] * 5)  # 134 characters
    button = ActionButton(1, 2, "#0", full)
    label = button.item.label
    assert len(label) <= 80 and label.endswith(ELLIPSIS) and _whole_words(label, full)
    assert button_label("Koi-Koi!") == "Koi-Koi!"


def test_long_menu_options_and_placeholder_fit_at_a_word():
    full = " ".join(["Paulownia Phoenix"] * 10)
    menu = MoveSelect(1, 2, 0, [discord.SelectOption(label=full, value="#0")], placeholder=full * 2)
    option = menu.item.options[0].label
    assert len(option) <= 100 and _whole_words(option, full)
    assert len(menu.item.placeholder) <= 150


def test_presenter_move_labels_stay_within_a_button():
    action = Action("field_pair", "chrysanthemum_chaff_1", "blue_ribbon_sep+chrysanthemum_chaff_2")
    label = presenter.action_label("shedding", action)
    assert len(label) <= 80 and "…" not in label[:-1]


@pytest.mark.parametrize("n, currency, text", [
    (0, "chips", "0 chips"), (1, "chips", "1 chip"), (2, "chips", "2 chips"),
    (1, "gold coins", "1 gold coin"), (1, "pennies", "1 penny"), (1, "yen", "1 yen"),
    (1, "moss", "1 moss"), (1200, "chips", "1,200 chips"),
])
def test_a_currency_named_in_the_plural_counts_right(n, currency, text):
    assert amount(n, currency) == text


def test_stakes_count_their_chips():
    assert stake_text("koikoi", 1) == "stake 1 chip each, the winner takes the pot"
    assert stake_text("koikoi", 2, "coins") == "stake 2 coins each, the winner takes the pot"
    assert amount(3, "chips", signed=True) == "+3 chips" and amount(0, "chips", signed=True) == "0 chips"


def test_a_count_in_bold_keeps_its_noun_plain():
    assert plural(1, "point", bold=True) == "**1** point"
    assert amount(1000, "chips", bold=True) == "**1,000** chips"
