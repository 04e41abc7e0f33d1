"""The card charts of /rules and the Activity's How to play: each game's own cards, by month in
the numbering its players use, drawn the same every time, in every language."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.cards import DECK, card
from bot.games import GAMES
from bot.games.mushi.scoring import MUSHI_DECK
from bot.games.seotda.hands import DECK as SEOTDA_DECK
from bot.i18n import speaking
from rendering import render_deck_sheet
from rendering.deck import deck_image, game_cards


def test_each_game_is_charted_with_its_own_cards():
    every = [c.id for c in DECK]
    for game in GAMES:
        months, bonus = game_cards(game)
        ids = [cid for _, group in months for cid in group]
        assert all(card(cid).month == month for month, group in months for cid in group)
        if game == "mushi":
            assert sorted(ids) == sorted(DECK[i].id for i in MUSHI_DECK) and len(ids) == 40
            assert {m for m, _ in months} == set(range(1, 13)) - {6, 7}
        elif game == "seotda":
            assert sorted(ids) == sorted(SEOTDA_DECK) and len(ids) == 20
            assert [len(g) for _, g in months] == [2] * 10
        else:
            assert sorted(ids) == sorted(every)
        assert bonus == (("joker_1", "joker_2", "joker_3") if game == "gostop" else ())
    # Go-Stop's players number the months the Korean way: paulownia before willow
    assert [m for m, _ in game_cards("gostop")[0]][-2:] == [12, 11]
    assert [m for m, _ in game_cards("koikoi")[0]] == list(range(1, 13))


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_every_chart_draws_in_every_language(language):
    for game in GAMES:
        data = render_deck_sheet.__wrapped__(game, language)
        image = Image.open(io.BytesIO(data))
        assert image.width <= 1000 and 400 < image.height < 1100, (game, image.size)
        assert data == render_deck_sheet.__wrapped__(game, language)  # the same bytes every time
    with pytest.raises(ValueError):
        render_deck_sheet.__wrapped__("poker", language)


def test_the_docs_chart_is_the_whole_deck_without_a_heading():
    with speaking("en"):
        whole = deck_image(None, 96, column_gap=24)
    assert whole.size == (1304, 888)  # the docs chart, as before the games had charts of their own


@pytest.mark.parametrize("language", ["ja", "ko"])
def test_every_caption_of_a_chart_has_its_glyphs(monkeypatch, language):
    """A caption drawn in a font the chart chose is one that font can draw (the bonus cards'
    caption was once drawn in the Latin font in Korean: empty boxes)."""
    from rendering import deck
    from rendering.fonts import has_glyphs

    drawn = []
    original = deck.text

    def checking(draw, xy, s, size, fill=None, anchor="la", bold=False, font=None):
        if font is not None:
            drawn.append(s)
            assert has_glyphs(font, s.replace(" ", "")), (language, s)
        return original(draw, xy, s, size, **({"fill": fill} if fill else {}), anchor=anchor,
                        bold=bold, font=font)

    monkeypatch.setattr(deck, "text", checking)
    with speaking(language):
        for game in GAMES:
            deck_image(game)
    assert drawn  # the months' captions went through the check


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_no_caption_runs_into_the_next_and_the_legend_fits(monkeypatch, language):
    """Seotda's months are two cards wide, narrower than "9  Sep chrysanthemum": a month is as
    wide as its caption, and the chart as wide as its legend."""
    from rendering import deck

    spans: list[tuple[float, float, float, str]] = []  # (left, right, y, text)
    original = deck.text

    def measuring(draw, xy, s, size, **kw):
        width = original(draw, xy, s, size, **kw)
        spans.append((xy[0], xy[0] + width, xy[1], s))
        return width

    monkeypatch.setattr(deck, "text", measuring)
    with speaking(language):
        for game in GAMES:
            spans.clear()
            image = deck_image(game)
            assert all(right <= image.width - deck.MARGIN + 1 for _, right, _, _ in spans), game
            by_row: dict[float, list[tuple[float, float, float, str]]] = {}
            for span in spans:
                by_row.setdefault(span[2], []).append(span)
            for row in by_row.values():
                row.sort()
                for (_, right, _, s), (left, _, _, t) in zip(row, row[1:], strict=False):
                    assert right <= left, (game, s, t)
