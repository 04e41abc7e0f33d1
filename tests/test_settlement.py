"""Chips at the end of a match: pot games, per-point games with their escrow cap, and betting
games paying back each stack."""

from bot.settlement import (
    bets_from_balance,
    chip_deltas,
    chip_moves,
    cover_for,
    escrow_for,
    escrowed,
    forfeit_payouts,
    outcomes,
    stack_payouts,
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


def test_a_betting_game_escrows_the_buy_in_and_pays_back_each_stack():
    assert escrow_for("seotda", 40) == cover_for("seotda", 40) == 40 and cover_for("gostop", 2) == 60
    assert "buy-in 40 chips" in stake_text("seotda", 40)
    # between hands every chip is in the stacks; a seat with none is paid nothing
    assert stack_payouts([0, 55, 35], [0, 0, 0]) == {1: 55, 2: 35}
    # a hand cut short: cancelled, each its own chips in the pot back; forfeited by seat 0, its 5
    # go to the other two, the odd one to the lower seat, and it keeps its stack
    assert stack_payouts([30, 0, 10], [5, 2, 2]) == {0: 35, 1: 2, 2: 12}
    assert stack_payouts([30, 0, 10], [5, 2, 2], forfeiter=0) == {0: 30, 1: 5, 2: 14}


def test_a_betting_game_of_the_older_code_is_told_by_its_row_and_moves_each_bet():
    assert bets_from_balance("seotda", 40, 0)  # played for chips, escrowed nothing
    assert not bets_from_balance("seotda", 40, 40) and not bets_from_balance("seotda", 0, 0)
    assert not bets_from_balance("koikoi", 40, 0)
    events = [{"type": "ante", "antes": {"0": 2, "1": 2, "2": 0}, "pot": 4},
              {"type": "bet", "player": 1, "action": "check", "amount": 0},
              {"type": "bet", "player": 0, "action": "half", "amount": 3},
              {"type": "pot", "won": [0, 7, 0]}]
    assert chip_moves(events) == [("stake", 0, 2), ("stake", 1, 2), ("stake", 0, 3), ("payout", 1, 7)]
    assert escrowed([3, 0, 2]) == {0: 3, 2: 2}
    # the forfeiter's 5 chips go to the other two, the odd one to the lower seat
    assert forfeit_payouts([5, 2, 2], 0) == {1: 5, 2: 4}
    assert forfeit_payouts([0, 3, 0], 2) == {1: 3}
