"""Chips at the end of a match: pot games and per-point games with their escrow cap."""

from bot.settlement import chip_deltas, escrow_for, outcomes, stake_text


def test_per_point_games_escrow_thirty_points():
    assert escrow_for("gostop", 5) == 150 and escrow_for("shedding", 1) == 30
    assert escrow_for("koikoi", 5) == 5
    assert "per point" in stake_text("gostop", 5) and "pot" in stake_text("sakura", 5)


def test_net_points_times_the_stake_when_escrow_covers_them():
    assert chip_deltas([12, -7, -5], unit=2, escrow=60) == {0: 24, 1: -14, 2: -10}


def test_a_loser_never_pays_more_than_the_escrow_and_winners_share_what_is_paid():
    deltas = chip_deltas([50, -40, -10], unit=1, escrow=30)
    assert deltas == {0: 40, 1: -30, 2: -10}
    deltas = chip_deltas([30, 30, -60], unit=1, escrow=30)
    assert deltas == {0: 15, 1: 15, 2: -30} and sum(deltas.values()) == 0
    # odd chips go to the bigger winner
    deltas = chip_deltas([20, 10, -30], unit=1, escrow=5)
    assert deltas == {0: 4, 1: 1, 2: -5}


def test_no_points_no_chips():
    assert chip_deltas([0, 0], unit=3, escrow=90) == {0: 0, 1: 0}


def test_outcomes_team_and_ties():
    assert outcomes(3, [1]) == ["lost", "won", "lost"]
    assert outcomes(2, [0, 1]) == ["draw", "draw"]
    assert outcomes(4, [0, 2], team_win=True) == ["won", "lost", "won", "lost"]
