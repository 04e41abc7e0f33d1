"""The standings and bracket pictures as players read them, from the layout they are drawn from:
headers a player understands with the tiebreak explained under the table, every score in one
form, text drawn once (no smeared fake bold), and bracket lines that meet the boxes they join."""

from __future__ import annotations

import re

import pytest

import rendering.tournament as tournament
from bot.i18n import speaking, t
from rendering.samples import sample_standings
from rendering.tournament import score_text, standings_image, standings_layout

LANGUAGES = ("en", "ja", "ko")
SCORE = re.compile(r"^(?:[0-9,]*[¼½¾]|[0-9,]+)$")  # a whole number, a fraction or both


def _row_labels(layout, view):
    """The labels of each row's score cells (Points, Buchholz, Tiebreak), row by row."""
    cells = {label.text for label in layout.labels}
    assert all(c in cells for row in view.rows for c in row.cells)
    return [row.cells[:3] for row in view.rows]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [3, 8, 11])
def test_swiss_headers_legend_and_scores_in_one_form(language, seed):
    with speaking(language):
        view = sample_standings("swiss", 9, seed=seed)
        tiebreak, legend = t("Tiebreak"), view.legend
    layout = standings_layout(view)
    header_y = next(label.xy[1] for label in layout.labels if label.text == view.name_header)
    headers = [label.text for label in layout.labels if label.xy[1] == header_y]
    assert tiebreak in headers and not {"S-B", "SB"} & set(headers)
    if language != "en":
        assert tiebreak != "Tiebreak" and "Sonneborn" not in legend
    # The legend is under the last row, in one or two lines, and names the column it explains.
    last_row = max(label.xy[1] for label in layout.labels if label.text == view.rows[-1].name)
    lines = [label.text for label in layout.labels if label.xy[1] > last_row and label.text != view.footer]
    assert legend.startswith(tiebreak) and "\n" not in legend and 1 <= len(lines) <= 2
    assert "".join(lines).replace(" ", "") == legend.replace(" ", "")
    scores = [c for cells in _row_labels(layout, view) for c in cells]
    assert all(SCORE.match(c) for c in scores), scores
    assert not any("." in c for c in scores)
    # the generated results have draws, so halves and the tiebreak's quarters are really shown
    assert any(c[-1] in "¼½¾" for c in scores)


@pytest.mark.parametrize("points, shown", [(0, "0"), (0.5, "½"), (1, "1"), (2.5, "2½"),
                                           (0.25, "¼"), (1.75, "1¾"), (1250.5, "1,250½")])
def test_one_form_for_every_fraction(points, shown):
    assert score_text(points) == shown


@pytest.mark.parametrize("language", LANGUAGES)
def test_text_is_drawn_once_not_stroked_bold(language, monkeypatch):
    """No bundled font has a bold weight (Aileron and Noto Sans CJK come in Regular only), so no
    text of the standings may be drawn with the stroke that fakes one."""
    drawn = []
    real = tournament.fitted_text

    def record(*args, **kwargs):
        drawn.append(kwargs.get("bold", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "fitted_text", record)
    with speaking(language):
        views = [sample_standings("swiss", 8), sample_standings("single_elimination", 8)]
    for view in views:
        standings_image(view)
    assert drawn and not any(drawn)


def _touches(point, box, side: str) -> bool:
    """Whether ``point`` lies on the ``side`` ("left" or "right") edge of ``box``, within 1 px."""
    x, y = point
    left, top, right, bottom = box
    edge = left if side == "left" else right
    return abs(x - edge) <= 1 and top - 1 <= y <= bottom + 1


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("entrants", [2, 3, 5, 8, 13, 25])
def test_bracket_connectors_meet_the_boxes_they_join(language, entrants):
    with speaking(language):
        view = sample_standings("single_elimination", entrants, seed=entrants)
    layout = standings_layout(view)
    assert [len(r) for r in layout.matches] == [len(r) for r in view.bracket]
    rounds = len(layout.matches)
    # every match but the final feeds one match of the next round; each of those is fed twice
    assert sorted(c.source for c in layout.connectors) == [
        (r, m) for r in range(rounds - 1) for m in range(len(layout.matches[r]))]
    for r in range(1, rounds):
        for m in range(len(layout.matches[r])):
            assert sum(c.target == (r, m) for c in layout.connectors) == 2
    for line in layout.connectors:
        source = layout.matches[line.source[0]][line.source[1]]
        target = layout.matches[line.target[0]][line.target[1]]
        segments = line.segments
        assert segments
        assert _touches(segments[0][0], source, "right"), (line, source)
        assert _touches(segments[-1][1], target, "left"), (line, target)
        for (_, end), (start, _) in zip(segments, segments[1:], strict=False):
            assert end == start  # each piece starts where the one before ends
        for (x0, y0), (x1, y1) in segments:  # square corners, and nothing crosses a box
            assert x0 == x1 or y0 == y1
            assert source[2] - 1 <= min(x0, x1) and max(x0, x1) <= target[0] + 1
    # the matches of a round stand in one column, clear of the next round's
    for r in range(rounds - 1):
        assert max(b[2] for b in layout.matches[r]) < min(b[0] for b in layout.matches[r + 1])
