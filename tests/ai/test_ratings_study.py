"""The rating study's counting: when an order is right for good, on streams built by hand."""

from __future__ import annotations

from bot.ai.ratings_study import LEVELS, Elo, OpenSkill, Result, games_to_settle, study, summary


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


def test_games_to_settle_counts_from_the_last_time_the_order_became_right():
    right, wrong = ["a", "b"], ["b", "a"]
    stream = [None] * 5
    assert games_to_settle(_Scripted([wrong, right, right, wrong, right]), stream, right) == 5
    assert games_to_settle(_Scripted([right] * 5), stream, right) == 1
    assert games_to_settle(_Scripted([right, right, right, right, wrong]), stream, right) is None


def test_every_system_finds_an_order_the_results_always_show():
    pool = [_beats(strong, weak) for i, weak in enumerate(LEVELS) for strong in LEVELS[i + 1:]]
    counts = study(pool * 3, trials=5, games=200, seed=1)
    assert set(counts) == {Elo(LEVELS).name, OpenSkill(LEVELS).name,
                           OpenSkill(LEVELS, by_mu=True).name}
    for needed in counts.values():
        assert all(n is not None and n < 200 for n in needed)
    assert all("unsettled after 200: 0 of 5" in line for line in summary(counts, 200))


def test_draws_move_no_one_apart_in_either_system():
    for system in (Elo(("x", "y")), OpenSkill(("x", "y"), by_mu=True)):
        system.play(Result(("x", "y"), (0, 0)))
        values = list(getattr(r, "mu", r) for r in system.ratings.values())
        assert abs(values[0] - values[1]) < 1e-9
