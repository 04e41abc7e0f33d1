"""Ratings (pairwise Elo) and the leaderboards with paging, periods and a user's own rank."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store import InvalidInput, SeatResult
from bot.store.ratings import INITIAL_RATING, expected_score, pairwise_elo

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD


def test_two_player_elo_matches_the_textbook():
    after = pairwise_elo({1: 1500.0, 2: 1500.0}, {1: "won", 2: "lost"})
    assert after == {1: 1516.0, 2: 1484.0}
    after = pairwise_elo({1: 1600.0, 2: 1400.0}, {1: "lost", 2: "won"})
    assert after[2] - 1400 == pytest.approx(32 * (1 - expected_score(1400, 1600)))
    assert pairwise_elo({1: 1500.0, 2: 1500.0}, {1: "draw", 2: "draw"}) == {1: 1500.0, 2: 1500.0}
    assert pairwise_elo({1: 1500.0}, {1: "won"}) == {1: 1500.0}


@given(st.lists(st.tuples(st.floats(800, 2500), st.sampled_from(["won", "lost", "draw"])),
                min_size=2, max_size=7))
def test_pairwise_elo_is_zero_sum_and_rewards_winners(players):
    ratings = {i: r for i, (r, _) in enumerate(players)}
    outcomes = {i: o for i, (_, o) in enumerate(players)}
    after = pairwise_elo(ratings, outcomes)
    assert sum(after.values()) == pytest.approx(sum(ratings.values()))
    for i, o in outcomes.items():
        change = after[i] - ratings[i]
        assert abs(change) <= 32 + 1e-9
        if o == "won" and "won" not in [outcomes[j] for j in outcomes if j != i]:
            assert change > 0
        if o == "lost" and "lost" not in [outcomes[j] for j in outcomes if j != i]:
            assert change < 0


async def _play(store, players, winner, game="koikoi", points=None):
    g = await store.create_game(GUILD, 1, game, rules={}, players=players, seed=1,
                                state_json="{}", state_version=1)
    results = [SeatResult(s, (points or {}).get(s, 10 if s == winner else 1),
                          "won" if s == winner else "lost") for s in range(len(players))]
    return await store.finish_game(g.game_id, results)


async def test_results_record_rating_before_and_after(funded):
    out = await _play(funded, [ALICE, BOB], 0)
    a, b = out.results
    assert (a.rating_before, a.rating_after) == (INITIAL_RATING, 1516.0)
    assert (b.rating_before, b.rating_after) == (INITIAL_RATING, 1484.0)
    out = await _play(funded, [BOB, ALICE, "ai:hard"], 0)
    bob, alice = out.results
    assert bob.rating_before == 1484.0 and bob.rating_after > 1484.0
    assert alice.rating_before == 1516.0 and alice.rating_after < 1516.0
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
    assert rating.rows[0].user_id == ALICE and rating.rows[0].value > INITIAL_RATING
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
