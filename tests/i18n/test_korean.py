"""Korean particles are chosen by the word before them (issue 45, item 13): no "을(를)" or
"이(가)" reaches a player, in any catalog text filled in or in what a game says."""

from __future__ import annotations

import string

import pytest

from bot import presenter
from bot.games import GAMES, game_module
from bot.games.rng import Rng
from bot.i18n import speaking
from bot.i18n.catalogs import catalog_files, read_catalog
from bot.i18n.korean import _PAIR, particles


@pytest.mark.parametrize("text, read", [
    ("피을(를) 가져갑니다", "피를 가져갑니다"),  # a vowel: 를
    ("**100**칩을(를)", "**100**칩을"),  # a final consonant, markdown around the number
    ("타로이(가) 이겼습니다", "타로가 이겼습니다"),
    ("서울으로(로)", "서울로"),  # a final ㄹ takes 로
    ("집으로(로)", "집으로"),
    ("3을(를)", "3을"), ("2은(는)", "2는"), ("1로(으로)", "1로"), ("6으로(로)", "6으로"),  # 삼 이 일 육
    ("10이(가)", "10이"), ("1,200은(는)", "1,200은"), ("0을(를)", "0을"),  # 십, 천이백, 영
    ("alice은(는)", "alice는"), ("Sam와(과)", "Sam과"), ("Bill으로(로)", "Bill로"),  # 앨리스, 샘, 빌
    ("`koikoi`은(는)", "`koikoi`는"),
    ("<@123>을(를)", "<@123>님을"),  # a mention is read with 님
    ("를(을)", "를"),  # the forms in either order; nothing before: the vowel form
    ("(괄호) 안의 글", "(괄호) 안의 글"),  # parentheses that are no particle stay
])
def test_particles_follow_the_word_before(text, read):
    assert particles(text) == read


def sample_fields(text: str) -> dict[str, str]:
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    values = ["타로", "앨리스", "3", "<@42>", "**100**", "비"]
    return {name: values[i % len(values)] for i, name in enumerate(sorted(names))}


def test_no_catalog_text_leaves_both_forms_once_filled_in():
    checked = 0
    for path in catalog_files("ko"):
        for message in read_catalog(path):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                if not text or not _PAIR.search(text):
                    continue
                filled = text.format(n="3", **sample_fields(text)) if "{" in text else text
                assert not _PAIR.search(particles(filled)), (message.id, filled)
                checked += 1
    assert checked >= 100  # the catalogs write both forms wherever a name is filled in


def test_no_game_says_both_forms():
    names = ["타로", "앨리스", "민수", "지원", "Sam", "Bill", "Kim"]
    with speaking("ko"):
        for game in GAMES:
            module = game_module(game)
            low, _ = module.PLAYERS
            match = module.new_match(max(low, 2) if game != "koikoi" else 2, None, 9)
            rng = Rng(9)
            for _ in range(400):
                if match.is_over or match.current_player is None:
                    break
                for seat in range(len(match.scores)):
                    title = presenter.hand_view(match.observation(seat)).title
                    assert not _PAIR.search(title), title
                legal = match.legal_actions()
                for event in match.apply(legal[rng.below(len(legal))], match.current_player):
                    line = presenter.describe_event(game, event, names[:len(match.scores)]) or ""
                    assert not _PAIR.search(line), (game, line)
