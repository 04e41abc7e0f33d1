"""A round summary with no yaku says so on a row of its own (issue 45, item 1): the result
lines come below "No yaku this round.", not on top of it."""

from __future__ import annotations

import rendering.summary as summary
from rendering.view import SummaryView


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
