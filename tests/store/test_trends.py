"""Several players' latest results in one query (a board's trends, a card's rating history) and
the names they last played under, on both databases, scoped to one server."""

from __future__ import annotations

import json

import pytest

from bot.store import InvalidInput, SeatResult, TrendKey
from bot.store.trends import trend_query

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD, OTHER_GUILD


async def finish(store, clock, guild, game, players, outcomes, names=None):
    state = json.dumps({"names": names}) if names is not None else "{}"
    record = await store.create_game(guild, 5, game, rules={}, players=players, seed=1,
                                     state_json=state, state_version=1)
    clock.advance(60)
    await store.finish_game(record.game_id, [
        SeatResult(seat, 10 if outcome == "won" else 0, outcome)
        for seat, outcome in enumerate(outcomes)])
    return record.game_id


async def test_each_players_latest_results_oldest_first_bounded_and_filtered(store, clock):
    outcomes = ["won", "lost", "won", "draw", "won"]
    for outcome in outcomes:  # alice against bob in Koi-Koi, against the AI in Mushi
        await finish(store, clock, GUILD, "koikoi", [ALICE, BOB],
                     [outcome, {"won": "lost", "lost": "won", "draw": "draw"}[outcome]])
        await finish(store, clock, GUILD, "mushi", [ALICE, "ai:normal"], [outcome, "lost"])
    await finish(store, clock, OTHER_GUILD, "koikoi", [ALICE, BOB], ["won", "lost"])

    koikoi, mushi, every = (TrendKey(ALICE, "koikoi", 0), TrendKey(ALICE, "mushi", 0),
                            TrendKey(ALICE))
    found = await store.recent_results(GUILD, [koikoi, mushi, every, TrendKey(CAROL, "koikoi", 0)],
                                       limit=3)
    assert [p.outcome for p in found[koikoi]] == outcomes[-3:]  # oldest first, the latest three
    assert [p.outcome for p in found[mushi]] == outcomes[-3:]
    assert [p.outcome for p in found[every]] == ["draw", "won", "won"]  # both games, interleaved
    assert found[TrendKey(CAROL, "koikoi", 0)] == []

    # The ratings after each rated game, as the board's sparkline draws them.
    rated = await store.recent_results(GUILD, [TrendKey(ALICE, "koikoi", 0),
                                               TrendKey(ALICE, "mushi", 0)],
                                       limit=50, rated_only=True)
    stats = await store.user_stats(GUILD, ALICE)
    line = next(r for r in stats.ratings if r.game == "koikoi")
    assert len(rated[koikoi]) == 5 and rated[koikoi][-1].rating_after == pytest.approx(line.rating)
    assert rated[mushi] == []  # against the AI alone nothing is rated

    # Seasons: a key reads its own season, None reads every season.
    await store.start_season(GUILD, "Spring", actor=ALICE, key="s1")
    await finish(store, clock, GUILD, "koikoi", [ALICE, BOB], ["lost", "won"])
    found = await store.recent_results(GUILD, [TrendKey(ALICE, "koikoi", 1), koikoi,
                                               TrendKey(ALICE, "koikoi")], limit=50)
    assert [p.outcome for p in found[TrendKey(ALICE, "koikoi", 1)]] == ["lost"]
    assert len(found[koikoi]) == 5 and len(found[TrendKey(ALICE, "koikoi")]) == 6


async def test_names_from_each_players_latest_game_on_this_server(store, clock):
    await finish(store, clock, GUILD, "koikoi", [ALICE, BOB], ["won", "lost"], ["Alice", "Bob"])
    await finish(store, clock, GUILD, "koikoi", [BOB, ALICE], ["won", "lost"],
                 ["Bobby 🌸", "アリス"])
    await finish(store, clock, GUILD, "koikoi", [CAROL, DAVE], ["won", "lost"])  # no names stored
    await finish(store, clock, OTHER_GUILD, "koikoi", [ALICE, DAVE], ["won", "lost"],
                 ["Elsewhere", "Dave elsewhere"])
    names = await store.latest_names(GUILD, [ALICE, BOB, CAROL, DAVE, 99])
    assert names == {ALICE: "アリス", BOB: "Bobby 🌸"}
    assert await store.latest_names(OTHER_GUILD, [ALICE, BOB]) == {ALICE: "Elsewhere"}
    assert await store.latest_names(GUILD, []) == {}


async def test_bad_requests_are_refused(store):
    with pytest.raises(InvalidInput):
        await store.recent_results(GUILD, [TrendKey(ALICE)], limit=0)
    with pytest.raises(InvalidInput):
        await store.recent_results(GUILD, [TrendKey(ALICE)], limit=51)
    with pytest.raises(InvalidInput):
        await store.recent_results(GUILD, [TrendKey(u) for u in range(1, 27)])
    with pytest.raises(InvalidInput):
        await store.latest_names(GUILD, list(range(1, 27)))
    assert await store.recent_results(GUILD, []) == {}


async def test_each_player_is_read_along_their_own_index(store):
    """The database reads each player's results newest first and stops at the limit, instead of
    a whole season of the server (which SQLite chose while the season was a plain column)."""
    if store.dialect != "sqlite":
        pytest.skip("the query plan checked is SQLite's")
    sql, params = trend_query(GUILD, [TrendKey(ALICE, "koikoi", 0), TrendKey(BOB)], 12, True)
    plan = " ".join(r[3] for r in await store._db.fetchall(f"EXPLAIN QUERY PLAN {sql}", params))
    assert plan.count("USING INDEX results_user") == 2 and "results_season" not in plan, plan
