"""No Korean text a player gets leaves a particle in both forms (issue 45, item 3)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from bot import presenter
from bot.i18n import speaking
from rendering.played import PlayedGame, play
from rendering.samples import PLAYER_COUNTS
from rendering.view import GAMES

# A particle left in parentheses after a word, in either order or alone: "피을(를)", "타로(가)",
# "(으)로". Wider than the pairs the chooser knows, so a form it does not know is caught too.
PARTICLE = "을|를|이|가|은|는|과|와|으로|로|으|아|야|이나|나|이랑|랑|이에요|예요"
BOTH_FORMS = re.compile(rf"(?:{PARTICLE})?\((?:{PARTICLE})\)")


@pytest.mark.parametrize("text, left", [
    ("피을(를) 가져갑니다", True), ("**100**칩을(를)", True), ("타로이(가) 이겼습니다", True),
    ("타로(가)", True), ("서울(으)로", True), ("민준은(는)", True), ("앨리스과(와)", True),
    ("국화 열끗 (술잔)", False), ("(괄호) 안의 글", False), ("타로가 이겼습니다", False),
])
def test_the_scan_sees_a_particle_in_both_forms(text, left):
    assert bool(BOTH_FORMS.search(text)) is left


def words_of(value: Any) -> Iterator[str]:
    """Every string a view-model (a dataclass, a tuple of them, a pair) holds."""
    if isinstance(value, str):
        yield value
    elif is_dataclass(value):
        for item in fields(value):
            yield from words_of(getattr(value, item.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from words_of(item)


def everything_read(played: PlayedGame) -> Iterator[str]:
    """What the players of a table read at this moment: the table picture's words, and for
    every seat its hand picture, the hand message's fields and the labels of its moves."""
    yield from words_of(played.table())
    for seat in range(len(played.names)):
        obs = played.match.observation(seat)
        yield from words_of(presenter.hand_view(obs))
        yield from words_of(presenter.hand_fields(obs))
        if seat == played.match.current_player:
            yield from (presenter.action_label(played.game, a) for _, a in presenter.hand_actions(obs))


@pytest.mark.parametrize("game", GAMES)
def test_no_text_of_a_korean_game_leaves_both_forms(game):
    """Whole matches played in Korean, at the fewest and the most seats, read at every move:
    tables, hands, moves, the log and every round's summary."""
    low, high = PLAYER_COUNTS[game][0], PLAYER_COUNTS[game][-1]
    seen: list[str] = []

    def read(played: PlayedGame) -> bool:
        seen.extend(everything_read(played))
        return False

    with speaking("ko"):
        for players in dict.fromkeys((low, high)):
            played = play(game, players, seed=players, until=read)
            seen.extend(presenter.log_lines(game, played.narrated, played.names))
            for index in range(len(played.summaries)):
                seen.extend(words_of(played.summary(index)))
    left = sorted({text for text in seen if BOTH_FORMS.search(text)})
    assert left == [], left
    assert sum(1 for text in seen if re.search("[가-힣]", text)) > 100
