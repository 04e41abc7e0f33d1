"""A round summary with no yaku says so on a row of its own (issue 45, item 1): the result
lines come below "No yaku this round.", not on top of it. A long yaku name is drawn whole in the
room its cards leave, not cut short at a fixed column."""

from __future__ import annotations

import pytest

import rendering.summary as summary
from bot.cards import DECK, Kind
from bot.i18n import speaking
from bot.presenter import for_game
from rendering import canvas
from rendering.canvas import ELLIPSIS, text_width
from rendering.view import SummaryView, YakuRow


def test_the_result_lines_come_below_the_no_yaku_line(monkeypatch):
    drawn: list[tuple[str, int]] = []
    real_text, real_fitted = summary.text, summary.fitted_text

    def text(draw, xy, words, *args, **kwargs):
        drawn.append((words, xy[1]))
        return real_text(draw, xy, words, *args, **kwargs)

    def fitted(draw, xy, words, *args, **kwargs):
        drawn.append((words, xy[1]))
        return real_fitted(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(summary, "text", text)
    monkeypatch.setattr(summary, "fitted_text", fitted)
    view = SummaryView(title="Round 1", result_lines=("Aki 0 · Ben 0", "Nobody scores"))
    image = summary.summary_image(view)
    said = dict(drawn)
    no_yaku = said["No yaku this round."]
    assert said["Aki 0 · Ben 0"] > no_yaku + 30 and said["Nobody scores"] > said["Aki 0 · Ben 0"]
    assert said["Nobody scores"] + 15 <= image.height


LONG_YAKU = (("mushi", "sanko_mushi", ("crane", "bush_warbler", "curtain")),
             ("hana_awase", "omote_sugawara", ("crane", "bush_warbler", "curtain")),
             ("koikoi", "inoshikacho", ("boar", "deer", "butterflies")))


def long_yaku_summary() -> SummaryView:
    """A summary of normal size whose yaku carry their card lists in their names, next to a row of
    eleven chaff."""
    rows = [YakuRow("Aki", for_game(game).yaku_name(slug), cards, 5) for game, slug, cards in LONG_YAKU]
    chaff = tuple(c.id for c in DECK if c.kind is Kind.CHAFF)[:11]
    rows.append(YakuRow("Aki", for_game("koikoi").yaku_name("kasu"), chaff, 2))
    return SummaryView(title="Round 3", rows=tuple(rows), result_lines=("Aki +17",))


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_long_yaku_names_are_laid_out_whole_beside_their_cards(language):
    with speaking(language):
        view = long_yaku_summary()
        boxes = summary.row_boxes(view.rows)
        assert [b.shown for b in boxes] == [r.name for r in view.rows]
        for row, box in zip(view.rows, boxes, strict=True):
            assert ELLIPSIS not in box.shown and box.size == summary.NAME_SIZE
            assert summary.NAME_X + text_width(box.shown, box.size, True) < box.cards_x
            cards = summary.CARD_W + (len(row.cards) - 1) * summary.TIGHT_STEP
            assert box.cards_x + cards <= box.cards_x + box.cards_w == summary.CARDS_END < summary.WIDTH


def test_the_summary_draws_three_brights_uncut(monkeypatch):
    drawn: list[tuple[str, float, int]] = []
    strips: list[tuple[int, int]] = []
    real_text, real_strip = canvas.text, summary.card_strip

    def text(draw, xy, words, size, *args, **kwargs):
        drawn.append((words, xy[0], size))
        return real_text(draw, xy, words, size, *args, **kwargs)

    def strip(image, cards, x, y, width, max_width, korean=False):
        strips.append((x, max_width))
        return real_strip(image, cards, x, y, width, max_width, korean)

    for module in (canvas, summary):
        monkeypatch.setattr(module, "text", text)
    monkeypatch.setattr(summary, "card_strip", strip)
    view = long_yaku_summary()
    image = summary.summary_image(view)
    names = [(words, x, size) for words, x, size in drawn if x == summary.MARGIN + summary.PLAYER_COL]
    assert [words for words, _, _ in names] == [r.name for r in view.rows]
    assert "Three brights (crane, warbler, curtain)" in [words for words, _, _ in names]
    for (words, x, size), (cards_x, cards_w) in zip(names, strips, strict=True):
        assert x + text_width(words, size, True) < cards_x and cards_x + cards_w < image.width
