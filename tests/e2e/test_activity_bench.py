"""The Activity benchmark runs end to end: a bot process with its Activity, two tables of pages,
until a fixed number of moves were seen."""

from __future__ import annotations

import json

import pytest

from bot.bench import activity
from tests.discord_standin import spec_or_skip


@pytest.mark.slow(seconds=45)
def test_two_tables_of_pages_report_every_figure(capsys):
    spec_or_skip()
    # The window ends at the 20th move; --seconds is only a safety bound.
    activity.main(["--tables", "2", "--moves", "20", "--seconds", "600", "--ai-delay", "0.01", "--json"])
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(activity.KEYS) <= figures.keys()
    assert figures["tables"] == 2 and figures["moves"] >= 20
    assert set(figures["shown_ms"]) == {"p50", "p95", "p99"}
    assert 0 < figures["shown_ms"]["p50"] <= figures["shown_ms"]["p95"] <= figures["shown_ms"]["p99"]
    assert figures["presses_shown"] >= 1 and figures["moves_per_s"] > 0
    assert figures["cpu_ms_per_move"] > 0 and figures["kib_per_table"] is not None
    assert figures["rest_calls_per_move"] == 0  # its games live in the Activity
    assert figures["violations"] == []  # every request the bot made was one Discord takes
