"""Chips at the end of a match: pot games and per-point games with their escrow cap."""

from bot.settlement import (
    chip_deltas,
    chip_moves,
    cover_for,
    escrow_for,
    forfeit_payouts,
    outcomes,
    stake_text,
)


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


def test_a_betting_game_moves_each_bet_and_pot_and_escrows_nothing_up_front():
    assert escrow_for("seotda", 40) == 0 and cover_for("seotda", 40) == 40 and cover_for("gostop", 2) == 60
    assert "buy-in 40 chips" in stake_text("seotda", 40)
    events = [{"type": "ante", "antes": {"0": 2, "1": 2, "2": 0}, "pot": 4},
              {"type": "bet", "player": 1, "action": "check", "amount": 0},
              {"type": "bet", "player": 0, "action": "half", "amount": 3},
              {"type": "pot", "won": [0, 7, 0]}]
    assert chip_moves(events) == [("stake", 0, 2), ("stake", 1, 2), ("stake", 0, 3), ("payout", 1, 7)]
    # the forfeiter's 5 chips go to the other two, the odd one to the lower seat
    assert forfeit_payouts([5, 2, 2], 0) == {1: 5, 2: 4}
    assert forfeit_payouts([0, 3, 0], 2) == {1: 3}
