"""The arena plays paired deals, counts draws as half wins and prints an honest report."""

from __future__ import annotations

from bot.ai import __main__ as ai_cli
from bot.ai import arena as arena_mod
from bot.ai.arena import ArenaResult, arena
from bot.games import game_module
from bot.games.simulate import wilson


def test_each_deal_is_played_once_per_seat_with_the_same_cards(monkeypatch):
    module = game_module("koikoi")
    dealt = []
    real = module.new_match

    def recording(n, rules, seed):
        match = real(n, rules, seed)
        dealt.append((seed, match.round.to_dict()["hands"], match.round.dealer))
        return match

    monkeypatch.setattr(module, "new_match", recording)
    result = arena("koikoi", "greedy", "random", deals=3, seed=4, rules=module.Rules(rounds=1))
    assert result.deals == 3 and result.games == 6
    assert len(dealt) == 6
    for first, second in zip(dealt[::2], dealt[1::2], strict=True):
        assert first == second  # same seed, same hands, same first dealer; only the seats swap
    assert len({seed for seed, _, _ in dealt}) == 3
    assert result.wins + result.draws <= result.games
    assert len(result.times) > 0


def test_a_draw_is_half_a_win_in_the_wilson_interval():
    r = ArenaResult("koikoi", "a", "b", deals=5, games=10, wins=5, draws=2, points=12.0,
                    times=[0.01, 0.02, 0.03, 0.5])
    assert r.win_rate == 0.6
    assert r.interval() == wilson(6, 10)
    lines = r.lines()
    assert "win rate 60.0% [95% CI" in lines[1] and "draw counts as half a win" in lines[1]
    assert "points per game (a - b): +1.20" in lines[2]
    assert "median 30 ms, p95 500 ms, max 500 ms" in lines[3]


def test_the_cli_runs_a_tiny_arena(capsys):
    ai_cli.main(["arena", "mushi", "--a", "greedy", "--b", "random", "--games", "2", "--seed", "3",
                 "--rounds", "1"])
    out = capsys.readouterr().out
    assert "mushi: greedy vs random, 2 deals x 2 seats = 4 matches (1 rounds each)" in out
    assert "95% CI" in out and "decision time: median" in out


def test_three_seats_put_a_in_every_seat():
    result = arena("gostop", "greedy", "random", deals=1, num_players=3,
                   rules=game_module("gostop").Rules(rounds=1))
    assert result.games == 3
    assert arena_mod._JOB["n"] == 3


def test_onestep_measures_the_gain_of_each_differing_decision(capsys):
    from bot.ai.onestep import onestep

    same = onestep("mushi", "greedy", deals=1)
    assert same.gains and not any(same.gains)  # greedy against itself never differs
    moved = onestep("mushi", "random", deals=2)
    assert any(moved.gains) and len(moved.gains) >= len(same.gains)
    ai_cli.main(["onestep", "mushi", "--level", "random", "--deals", "1"])
    assert "mushi: random over greedy, one-step gain" in capsys.readouterr().out


def test_onestep_tries_a_budget_before_it_is_a_level(capsys, monkeypatch):
    """--iterations/--width/--seconds set the search player's budget (0: no width, no cap)."""
    from bot.ai import onestep as onestep_mod
    from bot.ai.search import SearchPlayer

    seen = []
    real = SearchPlayer.evaluate

    def spy(self, observation, legal, rng):
        seen.append((self.iterations, self.width, self.seconds))
        return real(self, observation, legal, rng)

    monkeypatch.setattr(SearchPlayer, "evaluate", spy)
    ai_cli.main(["onestep", "mushi", "--level", "hard", "--deals", "1", "--iterations", "6",
                 "--width", "0", "--seconds", "0"])
    assert seen and set(seen) == {(6, None, None)}
    assert "mushi: hard iterations=6 width=None seconds=None over greedy" in capsys.readouterr().out
    assert onestep_mod.onestep("mushi", "hard", 1, overrides={"iterations": 6, "width": 2}).gains
