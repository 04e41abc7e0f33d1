"""The coach's arithmetic: every legal move priced the same way every time, the decisions of a
stored game found (only the reviewed player's own), the costliest moments picked, and the
calibration command's figures and fit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai import make_player
from bot.ai.calibration import Point, fit, report
from bot.ai.coach import (
    Decision,
    assess,
    calibrated_win,
    decisions,
    price,
    searchable,
)
from bot.games import GAMES, game_module
from bot.games.rng import Rng

ROOT = Path(__file__).resolve().parents[2]


def stored_game(game: str, seed: int, human: int = 0):
    """A whole match of ``game`` as a stored log: (seq, action, actor); the human seat plays at
    random and one of its moves is the bot's move for a timeout."""
    module = game_module(game)
    rules = module.Rules().replace(rounds=2) if hasattr(module.Rules(), "rounds") else module.Rules()

    def new():
        return module.new_match(2, rules, seed)

    match = new()
    players = [make_player("random", game), make_player("greedy", game)]
    rng = Rng(seed)
    log = []
    while not match.is_over:
        seat = match.current_player
        action = players[seat].choose(match.observation(seat), match.legal_actions(), rng)
        actor = 77 if seat == human else "ai:greedy"
        if seat == human and len(log) == 4:
            actor = "timeout"
        log.append((len(log) + 1, str(action), actor))
        match.apply(action, seat)
    return new, log


@pytest.mark.parametrize("game", ["koikoi", "hana_awase"])
def test_every_legal_move_is_priced_and_the_same_seed_prices_it_the_same(game):
    new, log = stored_game(game, 3)
    found = decisions(game, new, log, 0, 77, 99)
    decision = found[0]
    first = price(*decision.job(game, 20))
    assert sorted(p["action"] for p in first) == sorted(decision.legal)
    assert [p["points"] for p in first] == sorted((p["points"] for p in first), reverse=True)
    assert all(0.0 <= p["win"] <= 1.0 for p in first)
    assert price(*decision.job(game, 20)) == first
    assert price(game, decision.observation, decision.legal, decision.seed + 1, 20) != first


def test_the_decisions_are_the_players_own_choices_with_seeds_fixed_by_the_game():
    new, log = stored_game("koikoi", 5)
    found = decisions("koikoi", new, log, 0, 77, 1234)
    mine = {seq for seq, _, actor in log if actor == 77}
    assert found and {d.seq for d in found} <= mine
    assert 5 not in {d.seq for d in found}  # the bot's move for a timeout is not the player's
    assert all(len(d.legal) > 1 and d.chosen in d.legal for d in found)
    assert all(d.observation["seat"] == 0 for d in found)
    again = decisions("koikoi", new, log, 0, 77, 1234)
    assert [d.seed for d in again] == [d.seed for d in found]
    assert len({d.seed for d in found}) == len(found)
    calls = [d for d in found if d.call]
    assert all(set(d.legal) <= {"koikoi", "stop"} for d in calls)


def decision(seq: int, round_: int, chosen: str, call: bool = False) -> Decision:
    return Decision(seq=seq, round=round_, chosen=chosen, legal=[], observation={}, seed=0,
                    call=call)


def test_the_costliest_moments_come_first_and_the_summary_counts_by_kind():
    found = [decision(1, 1, "a"), decision(2, 3, "koikoi", True), decision(3, 7, "koikoi", True),
             decision(4, 7, "b")]
    prices = [
        [{"action": "a", "points": 1.0, "win": 0.5}],  # the best move: costs nothing
        [{"action": "stop", "points": 4.0, "win": 0.9}, {"action": "koikoi", "points": -1.0, "win": 0.6}],
        [{"action": "stop", "points": 2.0, "win": 0.7}, {"action": "koikoi", "points": -2.0, "win": 0.4}],
        [{"action": "c", "points": 0.3, "win": 0.5}, {"action": "b", "points": 0.1, "win": 0.5}],
    ]
    review = assess(found, prices)
    assert review.decisions == 4
    assert [m.seq for m in review.moments] == [2, 3]  # 4 costs too little to show
    assert review.moments[0].points == 5.0 and review.moments[0].best == "stop"
    assert review.moments[0].win == pytest.approx(0.3)
    assert review.calls_lost == 9.0 and review.call_rounds == [3, 7]
    assert review.plays_lost == 0.0 and review.lost == pytest.approx(9.2)


def test_only_games_with_a_search_ai_are_reviewed():
    assert {g for g in GAMES if searchable(g)} == {"koikoi", "gostop", "mushi", "sakura",
                                                   "hana_awase", "shedding"}
    assert not searchable("nosuchgame")


def test_the_fitted_map_is_monotone_and_the_report_bins_what_it_predicts():
    rng = Rng(4)
    points = []
    for _ in range(2000):
        raw = rng.below(1000) / 1000
        truth = 0.5 + (raw - 0.5) * 0.6  # overconfident raw chances
        won = rng.below(1000) / 1000 < truth
        points.append(Point(win=raw, points=10 * raw - 5, won=won, realised=int(won) * 6 - 3))
    mapping = fit("koikoi", points)
    ys = [y for _, y in mapping["win"]]
    at = dict((x, y) for x, y in mapping["win"])
    assert ys == sorted(ys) and 0.18 < at[0.1] < 0.34 and 0.66 < at[0.9] < 0.82  # truth: .26, .74
    result = report("koikoi", points, raw=True)
    assert result["decisions"] == 2000 and sum(b["n"] for b in result["bins"]) == 2000
    assert all(set(b) == {"n", "predicted", "observed"} for b in result["bins"])
    assert 0.0 < result["brier"] < 0.5


def test_no_map_leaves_the_raw_chance_alone():
    assert calibrated_win("nosuchgame", 0.37) == 0.37


def test_the_calibration_command_prints_one_json_object_and_draws_the_plot(tmp_path):
    plot = tmp_path / "koikoi.png"
    done = subprocess.run(
        [sys.executable, "-m", "bot.ai", "calibration", "koikoi", "--decisions", "15",
         "--rollouts", "4", "--level", "greedy", "--json", "--plot", str(plot)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["decisions"] >= 15
    assert {"decisions", "brier", "bins", "points_mean_error"} <= set(result)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    refused = subprocess.run([sys.executable, "-m", "bot.ai", "calibration", "seotda"], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1


def test_decisions_saved_in_several_files_are_read_together(tmp_path):
    """A map can be fitted on several runs (each with its own seed); a seed is named per file."""
    files = []
    for seed, won in ((1, True), (3, False)):
        path = tmp_path / f"seed{seed}.json"
        path.write_text(json.dumps([{"win": 0.6, "points": 2.0, "won": won, "realised": 1.0}] * 3))
        files.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "bot.ai", "calibration", "mushi", "--load", *files,
         "--seed", "1", "3", "--raw", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["decisions"] == 6 and result["points_mean_error"] == 1.0
    refused = subprocess.run(
        [sys.executable, "-m", "bot.ai", "calibration", "mushi", "--load", *files, "--seed", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and refused.stderr.strip() == \
        "--seed takes one seed, or with --load one for each file."


def test_the_cost_bench_reports_a_review_and_a_hint_time():
    done = subprocess.run(
        [sys.executable, "-m", "bot.bench", "coach", "--game", "koikoi", "--matches", "1",
         "--positions", "2", "--review-rollouts", "2", "--hint-rollouts", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "koikoi (2 per move):" in done.stdout and "12-round match" in done.stdout
    assert " ms" in done.stdout
