"""The simulate CLI reports honest statistics, and greedy beats random clearly at Koi-Koi."""

from bot.games import __main__ as games_cli
from bot.games.koikoi import Rules
from bot.games.simulate import simulate, wilson


def test_wilson_interval():
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson(0, 0) == (0.0, 0.0)


def test_greedy_beats_random_at_koikoi():
    report = simulate("koikoi", ["greedy", "random"], games=60, seed=3, rules=Rules(rounds=3))
    greedy, rnd = report.tallies
    lo, _ = wilson(greedy.wins, report.games)
    assert lo > 0.6, report.lines()
    assert greedy.points > rnd.points
    assert report.rounds >= 3 * 60 and sum(report.reasons.values()) == report.rounds


def test_cli_prints_a_report(capsys):
    assert games_cli.main(["simulate", "koikoi", "--games", "4", "--seed", "2", "--set", "rounds=1"]) == 0
    out = capsys.readouterr().out
    assert "koikoi: 4 matches" in out and "95% CI" in out and "drawn rounds" in out
    assert games_cli.main(["bogus"]) == 2
