"""Wrapped text breaks between words in every language: the Japanese footer of the player card
at punctuation or between phrases ("不確か / さ" split a word), Korean at its spaces, and no
line is a stray character or two."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.i18n import speaking, t
from bot.words import RATING_NOTE
from rendering import card
from rendering.canvas import text_width, wrap_text
from rendering.samples import sample_card

WIDTHS = (*range(200, 1000, 10), card.WIDTH - 2 * card.MARGIN)  # the card's footer among them
# Words of the Japanese footer: a line may begin or end next to them, never inside them.
JAPANESE_WORDS = ("レーティング", "見積もり", "ボット", "実力", "不確かさ", "引いた", "近く",
                  "始まり", "下回る", "対局", "重ねる", "定まります")


def footer(language: str) -> str:
    with speaking(language):
        return t(RATING_NOTE)


def breaks(lines: list[str]) -> list[int]:
    """Where in the text each line after the first begins (the lines joined without a gap)."""
    at, out = 0, []
    for line in lines[:-1]:
        at += len(line)
        out.append(at)
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_the_japanese_footer_breaks_between_words(width):
    note = footer("ja")
    assert note.count("不確かさ") == 1 and "、" in note  # the footer the card shows, in Japanese
    lines = wrap_text(note, 16, width, max_lines=10)
    assert "".join(lines) == note
    assert all(text_width(line, 16) <= width for line in lines), lines
    assert all(len(line) > 2 for line in lines), lines
    assert not [line for line in lines[1:] if line[0] in "、。）ーをのがはにさ"], lines
    for word in JAPANESE_WORDS:
        start = note.index(word)
        assert not [b for b in breaks(lines) if start < b < start + len(word)], (word, lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_korean_footer_breaks_at_its_spaces(width):
    note = footer("ko")
    lines = wrap_text(note, 16, width, max_lines=10)
    assert " ".join(lines) == note, lines
    assert all(text_width(line, 16) <= width for line in lines), lines


def test_english_still_breaks_after_whole_words():
    note = footer("en")
    for width in WIDTHS:
        lines = wrap_text(note, 16, width, max_lines=10)
        assert " ".join(lines) == note and all(text_width(line, 16) <= width for line in lines)


def test_the_japanese_card_draws_its_whole_footer_in_two_lines_of_words(monkeypatch):
    said: list[tuple[str, int]] = []
    original = card.text

    def recording(draw, xy, s, size, **kwargs):
        said.append((s, size))
        return original(draw, xy, s, size, **kwargs)

    monkeypatch.setattr(card, "text", recording)
    with speaking("ja"):
        view = replace(sample_card(), language="ja")
        card.card_image(view)
    note = view.note
    lines = [s for s, _ in said if s and s in note]
    assert len(lines) == 2 and "".join(lines) == note, lines
    assert all(text_width(line, 16) <= card.WIDTH - 2 * card.MARGIN for line in lines)
    assert all(len(line) > 2 and line[0] not in "、。）さ" for line in lines), lines
    start = note.index("不確かさ")
    assert not [b for b in breaks(lines) if start < b < start + len("不確かさ")], lines


def test_japanese_too_long_for_its_lines_between_phrases_breaks_anywhere_rather_than_lose_words():
    note = footer("ja")
    assert len(wrap_text(note, 16, 690, max_lines=10)) == 3  # three lines between phrases
    lines = wrap_text(note, 16, 690, max_lines=2)
    assert "".join(lines) == note and all(text_width(line, 16) <= 690 for line in lines), lines
