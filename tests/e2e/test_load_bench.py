"""The load benchmark runs end to end: a bot process, two tables, a fixed number of presses."""

from __future__ import annotations

import json
import os

import pytest

from bot.bench import _loadproc, load
from tests.discord_standin import spec_or_skip

KEYS = {"tables", "acks_ms", "acks_over_3s", "visible_ms", "loop_lag_ms_max", "clicks_per_s",
        "rest_per_s_peak", "rest_per_move", "rate_limited", "rss_mib_peak", "stalls", "bench_stalls"}
STALL_KEYS = {"count", "total_ms", "max_ms", "kinds", "own_frames", "worst", "gc"}


@pytest.mark.slow(seconds=40)
def test_two_tables_play_until_the_press_budget_and_report_every_figure(capsys, tmp_path):
    spec_or_skip()
    stalls_file = tmp_path / "stalls.jsonl"
    # The run ends when the 60th press is made and answered; --seconds is only a safety bound.
    # A one-round Koi-Koi match takes a player at most 25 presses (the command, then 8 turns of
    # at most 3 choices), and one of the two players makes at least 30 of the 60: at least one
    # match ends and its player opens the next.
    load.main(["--tables", "2", "--rounds", "1", "--ai-delay", "0.01", "--clicks", "60",
               "--seconds", "600", "--validate-every", "1", "--json", "--stalls", str(stalls_file),
               "--rest-ms", "5"])
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures.keys() >= KEYS
    assert figures["tables"] == 2 and figures["clicks"] == 60
    assert set(figures["acks_ms"]) == {"p50", "p95", "p99", "max"}
    assert set(figures["visible_ms"]) == {"p50", "p95"}
    assert figures["games_finished"] >= 1
    # every press was answered and every move shown
    assert figures["acks_missing"] == 0 and figures["refused"] == 0
    assert figures["moves"] >= 30 and figures["moves_not_visible"] == 0
    # every REST answer came 5 ms late, as Discord's come late from across the internet, and a
    # move is shown only once an edit carrying it was answered
    assert figures["visible_ms"]["p50"] >= 5
    assert set(figures["table_ms"]) == {"p50", "p95"} and figures["table_ms"]["p50"] >= 5
    assert 0 <= figures["acks_ms"]["p50"] <= figures["acks_ms"]["max"]
    # the acks apart: the presses on hands and the commands that open the matches
    for part in ("move_acks_ms", "command_acks_ms"):
        assert 0 <= figures[part]["p50"] <= figures[part]["max"] <= figures["acks_ms"]["max"]
    assert max(figures["move_acks_ms"]["max"], figures["command_acks_ms"]["max"]) == \
        figures["acks_ms"]["max"]
    assert figures["loop_lag_ms_max"] is not None and figures["loop_lag_ms_max"] >= 0
    assert figures["rest_per_s_peak"] >= 1 and figures["rate_limited"] == 0
    # a move costs at least its callback and an edit; the part that counts against the global
    # limit is the rest (DMs, turn alerts, edits no token reaches)
    per_move = figures["rest_per_move"]
    assert per_move["all"] >= 2 and 0 <= per_move["global"] < per_move["all"]
    assert figures["rss_mib_peak"]["total"] >= figures["rss_mib_peak"]["bot"] > 0
    assert figures["rss_mib_by_minute"][-1]["bot"] > 0
    assert figures["violations"] == {}  # every body was checked against Discord's spec
    # the stalls of both loops are reported, with the collector's work by generation
    for stalls in (figures["stalls"], figures["bench_stalls"]):
        assert stalls.keys() >= STALL_KEYS and stalls["count"] == sum(stalls["kinds"].values())
        assert len(stalls["worst"]) <= min(stalls["count"], 5)
    assert set(figures["stalls"]["gc"]) == {"0", "1", "2"}
    assert figures["stalls"]["gc"]["0"]["count"] > 0  # the bot allocates while it plays
    loop = figures["loop_thread_ms"]
    assert loop["wall_ms"] > 0 and 0 < loop["cpu_ms"] <= loop["wall_ms"] * 1.05
    assert figures["bench_loop_thread_ms"]["cpu_ms"] > 0
    written = [json.loads(line) for line in stalls_file.read_text().splitlines()] \
        if stalls_file.exists() else []
    assert sum(1 for s in written if s["process"] == "bot") == figures["stalls"]["count"]
    assert sum(1 for s in written if s["process"] == "bench") == figures["bench_stalls"]["count"]
    # nothing is left behind: no bot process group, no temporary directory
    assert not _loadproc.LIVE_GROUPS and not load.TEMP_DIRS


def test_several_counts_give_a_list_and_bad_counts_are_refused(capsys):
    with pytest.raises(SystemExit):
        load.main(["--tables", "ten"])
    assert "--tables takes numbers" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        load.main(["--tables", "0"])


def test_figures_helpers():
    assert load.percentile([], 50) is None
    assert load.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert load.percentile([float(i) for i in range(1, 101)], 99) == 99.0
    # 3 requests inside one second, then a gap
    assert load.peak_per_second([0.0, 0.2, 0.9, 2.5, 4.0], 0.0, 10.0) == 3
    assert load.peak_per_second([0.0, 0.2, 0.9], 0.5, 10.0) == 1
    merged = load.median_of([{"a": 1, "b": {"p": 2.0}, "violations": {"x": 1}},
                             {"a": 3, "b": {"p": 4.0}, "violations": {}},
                             {"a": 2, "b": {"p": None}, "violations": {"x": 2}}])
    assert merged["a"] == 2 and merged["b"]["p"] == 3.0 and merged["violations"] == {"x": 3}
    assert merged["runs"] == 3


def test_group_sampling_reads_this_process_group():
    sample = _loadproc.sample_group(os.getpgrp())
    assert sample.total_rss > 0 and sample.cpu_ticks
    # the members found before are read again, and only they (a pid gone is skipped)
    again = _loadproc.sample_group(os.getpgrp(), [os.getpid(), 2 ** 22 + 1])
    assert set(again.cpu_ticks) == {os.getpid()}


def test_rss_is_reported_at_the_end_of_every_minute():
    monitor = _loadproc.GroupMonitor(os.getpgrp())
    mib = 1048576
    monitor.rss = [(t, (100 + t // 60) * mib, 300 * mib) for t in range(0, 151, 30)]
    assert monitor.rss_by_minute(0.0, 150.0) == [
        {"minute": 1.0, "bot": 101.0, "total": 300.0},
        {"minute": 2.0, "bot": 102.0, "total": 300.0},
        {"minute": 2.5, "bot": 102.0, "total": 300.0}]
    assert monitor.rss_by_minute(0.0, 30.0) == [{"minute": 0.5, "bot": 100.0, "total": 300.0}]
