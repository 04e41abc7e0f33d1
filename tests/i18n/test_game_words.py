"""The games' own words: cards, yaku, multipliers and moves as each language's players say them."""

from __future__ import annotations

import re

import pytest

from bot.cards import DECK
from bot.games import GAMES
from bot.i18n import speaking, t, tp
from bot.presenter import for_game
from bot.presenters.base import card_name
from bot.rules_text import chips_text, editable_options, how_to_play, option_help, rules_summary
from rendering.sheet_data import SHEETS


def test_cards_are_named_as_each_languages_players_name_them():
    assert card_name("crane") == "Crane and Sun"
    with speaking("ja"):
        assert card_name("crane") == "松に鶴" and card_name("rainman") == "柳に小野道風"
        assert card_name("joker_2") == "ジョーカー2"
    with speaking("ko"):
        assert card_name("crane") == "송학 광" and card_name("lightning") == "비 쌍피"
        assert card_name("paulownia_chaff_yellow") == "오동 쌍피" and card_name("joker_3") == "조커 3"
    for language in ("ja", "ko"):
        with speaking(language):
            assert all(card_name(c.id) and not card_name(c.id).isascii() for c in DECK)


@pytest.mark.parametrize("game", GAMES)
def test_every_yaku_multiplier_and_move_name_is_translated(game):
    presenter = for_game(game)
    for language in ("ja", "ko"):
        with speaking(language):
            for slug in presenter.yaku_names:
                assert not presenter.yaku_name(slug).isascii(), (game, slug, language)
            for slug in presenter.multiplier_names:
                assert not presenter.multiplier_name(slug).isascii(), (game, slug, language)


@pytest.mark.parametrize("language, yaku, said", [
    ("ja", "inoshikacho", "猪鹿蝶"), ("ja", "akatan", "赤短"), ("ja", "aotan", "青短"),
    ("ja", "ameshiko", "雨四光"), ("ja", "tsukimi_zake", "月見酒"),
])
def test_koikoi_yaku_use_the_japanese_names(language, yaku, said):
    with speaking(language):
        assert for_game("koikoi").yaku_name(yaku) == said


@pytest.mark.parametrize("yaku, said", [
    ("godori", "고도리"), ("hongdan", "홍단"), ("cheongdan", "청단"), ("chodan", "초단"), ("pi", "피"),
    ("ogwang", "오광"),
])
def test_gostop_yaku_use_the_korean_names(yaku, said):
    with speaking("ko"):
        assert for_game("gostop").yaku_name(yaku) == said


def test_every_noun_the_code_counts_is_known():
    import ast
    from pathlib import Path

    from bot.words import NOUNS
    root = Path(__file__).resolve().parents[2]
    used = set()
    for top in ("bot", "cogs", "rendering"):
        for path in (root / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "plural"
                        and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                    used.add(node.args[1].value)
    assert used and used <= set(NOUNS), used - set(NOUNS)


def test_counts_in_each_language():
    from bot.words import amount, plural
    assert (plural(1, "point"), plural(2, "point"), plural(-1, "point")) == ("1 point", "2 points", "-1 point")
    with speaking("ja"):
        assert plural(1200, "point") == "1,200点" and plural(3, "player") == "3人"
        assert amount(1000, "chips") == "1,000チップ" and amount(5, "gold coins") == "5 gold coins"
        assert plural(2, "point", bold=True) == "**2**点" and plural(4, "point", signed=True) == "+4点"
    with speaking("ko"):
        assert plural(7, "card") == "7장" and amount(1, "chips") == "1칩"


CODE = re.compile(r"`[^`]*`|/[a-z][a-z_-]*|UNO|Fuda Wiki")  # names kept as they are
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def english_in(text: str) -> list[str]:
    return ENGLISH_WORD.findall(CODE.sub(" ", text))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["ja", "ko"])
def test_rules_pages_and_yaku_sheets_are_in_each_language(game, language):
    """/rules of every game, its yaku sheet and the staff's option hints: no English word."""
    with speaking(language):
        sheet = SHEETS[game]
        texts = [how_to_play(game), chips_text(game), rules_summary(game, {}), t(sheet.title),
                 t(sheet.intro), *map(t, sheet.notes)]
        for entry in sheet.entries:
            texts += [tp("yaku sheet", entry.name), t(entry.description), tp("yaku points", entry.points)]
        hints = {name: option_help(game, name) for name in editable_options(game)}
    assert [text for text in texts if english_in(text)] == []
    assert all(hints.values())
    # a hint names option values as staff type them (identifiers), but its sentence is translated
    with speaking("en"):
        assert all(hints[name] != option_help(game, name) for name in hints)
