"""The rating study's counting, on pools and streams built by hand."""

from __future__ import annotations

from bot.ai.ratings_study import (
    LEVELS,
    SYSTEMS,
    Elo,
    OpenSkill,
    Result,
    games_needed,
    right_at,
    study,
    summary,
)


def _beats(strong: str, weak: str) -> Result:
    return Result((weak, strong), (1, 0))


class _Scripted:
    """A system whose order after each game is given."""

    def __init__(self, orders):
        self.orders, self.n = orders, 0

    def play(self, result):
        self.n += 1

    def order(self):
        return self.orders[self.n - 1]


def test_the_order_is_read_at_each_checkpoint():
    right, wrong = ["a", "b"], ["b", "a"]
    system = _Scripted([wrong, right, wrong, right, right])
    assert right_at(system, [None] * 5, right, (1, 2, 3, 5)) == [False, True, False, True]


def test_games_needed_is_the_first_checkpoint_from_which_the_goal_holds():
    assert games_needed([0.3, 0.6, 0.4, 0.55, 0.7], 400) == 200  # checkpoints 25 ... 400
    assert games_needed([0.6, 0.6], 50) == 25
    assert games_needed([0.6, 0.4], 50) is None


def test_every_system_finds_an_order_the_results_always_show():
    pool = [_beats(strong, weak) for i, weak in enumerate(LEVELS) for strong in LEVELS[i + 1:]]
    shares = study(pool * 3, trials=5, games=400, seed=1)
    assert set(shares) == {system(LEVELS).name for system in SYSTEMS}
    for row in shares.values():
        assert row[-1] == 1.0 and games_needed(row, 400) is not None
    assert len(summary(shares, 400)) == 1 + len(SYSTEMS)


def test_draws_move_no_one_apart_in_either_system():
    for system in (Elo(("x", "y")), OpenSkill(("x", "y"), by_mu=True)):
        system.play(Result(("x", "y"), (0, 0)))
        values = list(getattr(r, "mu", r) for r in system.ratings.values())
        assert abs(values[0] - values[1]) < 1e-9
