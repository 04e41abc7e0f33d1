"""Ratings (OpenSkill over the full placing) and the leaderboards with paging, periods and a
user's own rank."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store import InvalidInput, SeatResult
from bot.store.ratings import INITIAL, Placing, Skill, rate, seat_teams

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD


def test_a_newcomer_shows_zero_and_a_win_moves_both_players_apart():
    assert Skill(1500.0, 500.0) == INITIAL and INITIAL.display == 0.0
    after = rate({}, [Placing(1, "won", 10), Placing(2, "lost", 0)])
    assert after[1].mu > 1500 > after[2].mu
    assert after[1].mu - 1500 == pytest.approx(1500 - after[2].mu)
    assert after[1].sigma < 500 and after[1].sigma == pytest.approx(after[2].sigma)
    assert after[1].display > 0
    # The same game in OpenSkill's own units (mu 25, sigma 25/3), scaled by 60.
    assert after[1].mu == pytest.approx(1500 + 60 * 2.6352, abs=0.05)


def test_a_draw_between_equals_only_narrows_their_uncertainty():
    after = rate({}, [Placing(1, "draw", 5), Placing(2, "draw", 5)])
    assert after[1].mu == pytest.approx(1500) and after[2].mu == pytest.approx(1500)
    assert after[1].sigma < 500


def test_the_losers_are_placed_by_their_points():
    """A 4-player Go-Stop game is one result: the winner, then the others by points."""
    after = rate({}, [Placing(1, "lost", -30), Placing(2, "won", 60), Placing(3, "lost", -5),
                      Placing(4, "lost", -25)])
    assert after[2].mu > after[3].mu > after[4].mu > after[1].mu


def test_equal_points_share_a_place():
    after = rate({}, [Placing(1, "won", 9), Placing(2, "lost", 3), Placing(3, "lost", 3)])
    assert after[2] == after[3]


def test_the_outcome_comes_before_the_points():
    """A forfeit loses even when the forfeiting player was ahead."""
    after = rate({}, [Placing(1, "lost", 50), Placing(2, "won", 10)])
    assert after[2].mu > after[1].mu


def test_teams_are_rated_as_teams():
    """Sakura pairs: both winners gain together, and they do not draw with each other."""
    placings = [Placing(1, "won", 80, team=0), Placing(2, "lost", 40, team=1),
                Placing(3, "won", 30, team=0), Placing(4, "lost", 60, team=1)]
    after = rate({}, placings)
    assert after[1].mu > 1500 and after[3].mu > 1500
    assert after[2].mu < 1500 and after[4].mu < 1500
    assert after[1].mu == pytest.approx(after[3].mu)


def test_fewer_than_two_sides_rate_nothing():
    assert rate({}, [Placing(1, "won", 9)]) == {}
    assert rate({}, [Placing(1, "won", 9, team=0), Placing(2, "won", 3, team=0)]) == {}


def test_an_uncertain_player_moves_more_than_a_known_one():
    known = Skill(1500.0, 100.0)
    after = rate({1: known}, [Placing(1, "lost", 0), Placing(2, "won", 9)])
    assert 1500 - after[1].mu < after[2].mu - 1500


def test_seats_of_a_team_game_get_their_sides():
    assert seat_teams({"teams": "pairs"}, 4) == [0, 1, 0, 1]
    assert seat_teams({"teams": "triples"}, 6) == [0, 1, 0, 1, 0, 1]
    assert seat_teams({"teams": "off"}, 3) == [None, None, None]
    assert seat_teams({}, 2) == [None, None]


@given(st.lists(st.tuples(st.sampled_from(["won", "lost", "draw"]), st.integers(-100, 100)),
                min_size=2, max_size=7))
def test_a_better_placing_never_ends_lower(players):
    placings = [Placing(i, o, p) for i, (o, p) in enumerate(players)]
    after = rate({}, placings)
    order = {"won": 2, "draw": 1, "lost": 0}
    for a, b in itertools.combinations(placings, 2):
        if (order[a.outcome], a.points) > (order[b.outcome], b.points):
            assert after[a.user_id].mu >= after[b.user_id].mu - 1e-9
        if (order[a.outcome], a.points) == (order[b.outcome], b.points):
            assert after[a.user_id] == after[b.user_id]


async def _play(store, players, winner, game="koikoi", points=None):
    g = await store.create_game(GUILD, 1, game, rules={}, players=players, seed=1,
                                state_json="{}", state_version=1)
    results = [SeatResult(s, (points or {}).get(s, 10 if s == winner else 1),
                          "won" if s == winner else "lost") for s in range(len(players))]
    return await store.finish_game(g.game_id, results)


async def test_results_record_rating_before_and_after(funded):
    out = await _play(funded, [ALICE, BOB], 0)
    a, b = out.results
    expected = rate({}, [Placing(ALICE, "won", 10), Placing(BOB, "lost", 1)])
    assert (a.rating_before, a.rating_after) == (0.0, pytest.approx(expected[ALICE].display))
    assert (b.rating_before, b.rating_after) == (0.0, pytest.approx(expected[BOB].display))
    out = await _play(funded, [BOB, ALICE, "ai:hard"], 0)
    bob, alice = out.results
    assert bob.rating_before == b.rating_after and bob.rating_after > bob.rating_before
    assert alice.rating_before == a.rating_after and alice.rating_after < alice.rating_before
    solo = await _play(funded, [CAROL, "ai:easy"], 0)
    assert solo.results[0].rating_before is None
    assert await funded.user_rank(GUILD, CAROL, "rating", game="koikoi") is None
    assert (await funded.user_rank(GUILD, CAROL, "wins", game="koikoi")).value == 1


async def test_leaderboards_by_every_metric_with_paging_and_ties(funded, clock):
    await _play(funded, [ALICE, BOB], 0, points={0: 50, 1: 5})
    await _play(funded, [ALICE, CAROL], 0, points={0: 30, 1: 10})
    await _play(funded, [BOB, CAROL], 1, points={0: 40, 1: 5}, game="hana_awase")
    await funded.transfer(GUILD, DAVE, CAROL, 300, key="t")

    wins = await funded.leaderboard(GUILD, "wins")
    assert [(r.rank, r.user_id, r.value) for r in wins.rows] == [
        (1, ALICE, 2), (2, CAROL, 1), (3, BOB, 0)]
    assert wins.total == 3 and wins.rows[0].games == 2
    koikoi_wins = await funded.leaderboard(GUILD, "wins", game="koikoi")
    assert [(r.rank, r.user_id) for r in koikoi_wins.rows] == [(1, ALICE), (2, BOB), (2, CAROL)]
    points = await funded.leaderboard(GUILD, "points")
    assert [(r.user_id, r.value) for r in points.rows] == [(ALICE, 80), (BOB, 45), (CAROL, 15)]
    rating = await funded.leaderboard(GUILD, "rating", game="koikoi")
    assert rating.rows[0].user_id == ALICE and rating.rows[0].value > INITIAL.display
    chips = await funded.leaderboard(GUILD, "chips", limit=2)
    assert [(r.user_id, r.value) for r in chips.rows] == [(CAROL, 1300), (ALICE, 1000)]
    assert chips.total == 4
    page2 = await funded.leaderboard(GUILD, "chips", offset=2, limit=2)
    assert [(r.rank, r.user_id, r.value) for r in page2.rows] == [(2, BOB, 1000), (4, DAVE, 700)]
    assert (await funded.user_rank(GUILD, DAVE, "chips")).rank == 4
    assert (await funded.leaderboard(GUILD, "chips", offset=10)).rows == []
    assert (await funded.leaderboard(GUILD, "chips", offset=10)).total == 4


async def test_last_30_days_only_counts_recent_games_and_chips(funded, clock):
    await _play(funded, [ALICE, BOB], 0)
    await funded.transfer(GUILD, BOB, CAROL, 100, key="old")
    clock.advance(31 * 86400)
    await _play(funded, [BOB, CAROL], 0)
    await funded.transfer(GUILD, ALICE, DAVE, 40, key="new")
    recent_wins = await funded.leaderboard(GUILD, "wins", period="30d")
    assert {r.user_id: r.value for r in recent_wins.rows} == {BOB: 1, CAROL: 0}
    all_wins = await funded.leaderboard(GUILD, "wins")
    assert {r.user_id: r.value for r in all_wins.rows} == {ALICE: 1, BOB: 1, CAROL: 0}
    recent_rating = await funded.leaderboard(GUILD, "rating", game="koikoi", period="30d")
    assert {r.user_id for r in recent_rating.rows} == {BOB, CAROL}
    recent_chips = await funded.leaderboard(GUILD, "chips", period="30d")
    assert [(r.user_id, r.value) for r in recent_chips.rows] == [(DAVE, 40), (ALICE, -40)]
    assert await funded.user_rank(GUILD, ALICE, "wins", period="30d") is None


async def test_the_streak_board_ranks_each_players_most_wins_in_a_row(funded, clock):
    for winner in (0, 0, 1, 0, 0, 0):  # Alice: won, won, lost, won, won, won
        await _play(funded, [ALICE, BOB], winner)
    await _play(funded, [CAROL, BOB], 0, game="mushi")
    await _play(funded, [CAROL, BOB], 0, game="mushi")
    await _play(funded, [DAVE, CAROL], 1)  # Dave never won: not on the board; Carol's run goes on
    board = await funded.leaderboard(GUILD, "streak")
    assert [(r.rank, r.user_id, r.value, r.games) for r in board.rows] == [
        (1, ALICE, 3, 6), (1, CAROL, 3, 3), (3, BOB, 1, 8)]  # a tie shares the rank
    assert await funded.user_rank(GUILD, DAVE, "streak") is None
    assert (await funded.user_rank(GUILD, BOB, "streak")).rank == 3
    by_game = await funded.leaderboard(GUILD, "streak", game="mushi")
    assert [(r.user_id, r.value) for r in by_game.rows] == [(CAROL, 2)]
    clock.advance(31 * 86400)
    await _play(funded, [BOB, ALICE], 0)
    await _play(funded, [BOB, ALICE], 0)
    recent = await funded.leaderboard(GUILD, "streak", period="30d")
    assert [(r.user_id, r.value, r.games) for r in recent.rows] == [(BOB, 2, 2)]


@pytest.mark.parametrize("kwargs", [
    dict(metric="rating"), dict(metric="money"), dict(metric="wins", period="7d"),
    dict(metric="wins", limit=0), dict(metric="wins", limit=101), dict(metric="wins", offset=-1),
])
async def test_bad_leaderboard_requests(funded, kwargs):
    kwargs = dict(kwargs)  # the parameter is shared by both backends' runs
    metric = kwargs.pop("metric")
    with pytest.raises(InvalidInput):
        await funded.leaderboard(GUILD, metric, **kwargs)


async def test_many_players_page_through_the_whole_board(store):
    users = list(range(100, 137))
    for u in users:
        await store.open_account(GUILD, u)
    for i, (a, b) in enumerate(itertools.pairwise(users)):
        await store.transfer(GUILD, a, b, 1 + i % 5, key=f"p{i}")
    seen = []
    for offset in range(0, 40, 7):
        page = await store.leaderboard(GUILD, "chips", offset=offset, limit=7)
        seen += page.rows
    assert sorted(r.user_id for r in seen) == users
    assert [r.value for r in seen] == sorted((r.value for r in seen), reverse=True)
