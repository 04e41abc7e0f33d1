"""Read queries of the community commands: stats, best yaku, game history, outcomes, paging."""

from __future__ import annotations

import json

import pytest

from bot.ai import make_player
from bot.games import game_module
from bot.games.events import round_yaku
from bot.games.rng import NEWEST_SHUFFLE, Rng
from bot.store import ALL_SEASONS, InvalidInput, SeatResult, UnknownGame

from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD


async def play_game(store, guild, game, players, names, *, seed=7, rounds=1, stake=0,
                    finish=True, shuffle=NEWEST_SHUFFLE):
    """Play a whole match with greedy players and store it the way the bot does."""
    module = game_module(game)
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=rounds)
    match = module.new_match(len(players), rules, seed, shuffle)

    def state():
        return json.dumps({"match": match.to_dict(), "names": names})

    rec = await store.create_game(guild, 5, game, rules=rules.to_dict(), players=players,
                                  seed=seed, state_json=state(), state_version=1, stake=stake)
    bots = [make_player("greedy", game) for _ in players]
    rng = Rng(seed)
    seq = 0
    while not match.is_over:
        seat = match.current_player
        action = bots[seat].choose(match.observation(seat), match.legal_actions(), rng)
        events = match.apply(action)
        seq += 1
        actor = players[seat] if isinstance(players[seat], int) else players[seat]
        await store.record_action(rec.game_id, seq, actor, str(action), events, state(), 1)
    if finish:
        best = max(match.scores)
        top = [s for s, v in enumerate(match.scores) if v == best]
        results = [SeatResult(s, v, ("draw" if len(top) > 1 else "won") if s in top else "lost")
                   for s, v in enumerate(match.scores)]
        await store.finish_game(rec.game_id, results, state_json=state(), state_version=1)
    return rec.game_id, match


def expected_yaku(match, seat):
    found = {}
    for h in match.history:
        for entry in round_yaku(h).get(seat, []):
            found.setdefault(entry[0], []).append(entry[1])
    return found


async def test_stats_count_games_wins_points_and_ratings(store):
    g1, m1 = await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=1,
                             rounds=3)
    g2, m2 = await play_game(store, GUILD, "koikoi", [ALICE, "ai:normal"], ["alice", "AI"],
                             seed=2, rounds=2)
    g3, m3 = await play_game(store, GUILD, "mushi", [ALICE, BOB], ["alice", "bob"], seed=3)
    stats = await store.user_stats(GUILD, ALICE)
    assert stats.games == 3
    assert stats.games_by_game == {"koikoi": 2, "mushi": 1}
    assert stats.favourite_game == "koikoi"
    assert stats.points == m1.scores[0] + m2.scores[0] + m3.scores[0]
    assert stats.wins + stats.draws + stats.losses == 3
    assert stats.win_rate == pytest.approx(stats.wins / 3)
    assert [r.game_id for r in stats.recent] == [g3, g2, g1]
    # ratings: only games with two humans are rated
    assert {r.game for r in stats.ratings} == {"koikoi", "mushi"}
    koikoi = next(r for r in stats.ratings if r.game == "koikoi")
    assert koikoi.games == 1
    # the card's record per game counts every game, the unrated one against the AI too
    assert {g: sum(r) for g, r in stats.record_by_game.items()} == stats.games_by_game
    assert sum(stats.record_by_game["koikoi"]) == 2 > koikoi.wins + koikoi.draws + koikoi.losses
    assert stats.recent[1].rating_change is None and stats.recent[0].rating_change is not None
    # yaku: every round_over of every finished game, per seat
    want: dict[tuple[str, str], list[int]] = {}
    for game, match in (("koikoi", m1), ("koikoi", m2), ("mushi", m3)):
        for slug, pts in expected_yaku(match, 0).items():
            want.setdefault((game, slug), []).extend(pts)
    got = {(y.game, y.slug): (y.best_points, y.times) for y in stats.yaku}
    assert got == {k: (max(v), len(v)) for k, v in want.items()}
    best = stats.best_yaku("koikoi")
    if best is not None:
        assert best.best_points == max(p for (g, _), (p, _) in got.items() if g == "koikoi")


async def test_stats_of_a_newcomer_are_empty(store):
    stats = await store.user_stats(GUILD, CAROL)
    assert (stats.games, stats.wins, stats.points, stats.win_rate) == (0, 0, 0, None)
    assert stats.favourite_game is None and stats.best_yaku() is None
    assert stats.ratings == [] and stats.recent == [] and stats.yaku == []


async def test_history_lists_newest_first_with_names_scores_and_paging(store):
    ids = []
    for seed in range(5):
        gid, _ = await play_game(store, GUILD, "koikoi", [ALICE, "ai:easy"], ["alice", "AI (easy)"],
                                 seed=seed)
        ids.append(gid)
    bob_game, match = await play_game(store, GUILD, "mushi", [BOB, CAROL], ["bob", "carol"])
    running, _ = await play_game(store, GUILD, "koikoi", [CAROL, "ai:easy"],
                                 ["carol", "AI (easy)"], finish=False)
    page = await store.game_history(GUILD, limit=3)
    assert page.total == 7
    assert [r.game_id for r in page.rows] == [running, bob_game, ids[-1]]
    assert page.rows[0].status == "running" and page.rows[0].outcomes == {}
    mushi = page.rows[1]
    assert mushi.names == ["bob", "carol"] and mushi.scores == match.scores
    assert set(mushi.outcomes) == {0, 1} and mushi.moves > 0
    rest = await store.game_history(GUILD, offset=3, limit=10)
    assert [r.game_id for r in rest.rows] == ids[3::-1]
    alice = await store.game_history(GUILD, user_id=ALICE, limit=10)
    assert alice.total == 5 and all(ALICE in r.players for r in alice.rows)
    assert (await store.game_history(GUILD, user_id=CAROL)).total == 2
    assert (await store.game_history(GUILD, game="mushi")).total == 1
    # AI seats' wins are inferred when every human lost
    for row in alice.rows:
        if row.outcomes[0] == "lost":
            assert row.winners == [1]
        elif row.outcomes[0] == "won":
            assert row.winners == [0]


async def test_history_falls_back_to_mentions_without_stored_names(store):
    game = await store.create_game(GUILD, 3, "koikoi", rules={}, players=[ALICE, "ai:normal"],
                                   seed=1, state_json="{}", state_version=1)
    [row] = (await store.game_history(GUILD)).rows
    assert row.game_id == game.game_id
    assert row.names == [f"<@{ALICE}>", "AI (normal)"] and row.scores is None


async def test_outcome_and_counts_stay_inside_the_server(store):
    for user in (ALICE, BOB):
        await store.open_account(GUILD, user)
    gid, _ = await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"], stake=100)
    outcome = await store.game_outcome(gid, guild_id=GUILD)
    assert outcome.status == "finished" and len(outcome.results) == 2
    assert sum(outcome.payouts.values()) == 200
    with pytest.raises(UnknownGame):
        await store.game_outcome(gid, guild_id=OTHER_GUILD)
    with pytest.raises(UnknownGame):
        await store.game_outcome(gid + 100, guild_id=GUILD)
    # another server sees none of it
    assert (await store.game_history(OTHER_GUILD)).total == 0
    assert (await store.game_history(OTHER_GUILD, user_id=ALICE)).rows == []
    other = await store.user_stats(OTHER_GUILD, ALICE)
    assert other.games == 0 and other.yaku == [] and other.ratings == []
    # chip history size, per server
    paid = 1 if outcome.payouts.get(0) else 0
    assert await store.history_count(GUILD, ALICE) == 2 + paid  # opening, stake, payout
    lines = await store.history(GUILD, ALICE, limit=100)
    assert len(lines) == await store.history_count(GUILD, ALICE)
    assert await store.history_count(OTHER_GUILD, ALICE) == 0
    await store.open_account(OTHER_GUILD, ALICE)
    assert await store.history_count(OTHER_GUILD, ALICE) == 1


async def test_bad_paging_and_ids_are_refused(store):
    with pytest.raises(InvalidInput):
        await store.game_history(GUILD, limit=0)
    with pytest.raises(InvalidInput):
        await store.game_history(GUILD, offset=-1)
    with pytest.raises(InvalidInput):
        await store.user_stats(0, ALICE)
    with pytest.raises(InvalidInput):
        await store.user_stats(GUILD, ALICE, recent=99)
    with pytest.raises(InvalidInput):
        await store.game_outcome("7", guild_id=GUILD)


def test_round_yaku_reads_both_shapes():
    assert round_yaku({"winner": 1, "detail": {"yaku": [["sanko", 5, []]]}}) == {1: [["sanko", 5, []]]}
    assert round_yaku({"winner": None, "detail": {"yaku": [["sanko", 5]]}}) == {}
    assert round_yaku({"detail": {"yaku_by_seat": {"0": [], "1": [["goko", 30]]}}}) == {
        0: [], 1: [["goko", 30]]}
    assert round_yaku({"type": "round_over"}) == {}


@pytest.mark.parametrize("game,seats", [("koikoi", 2), ("gostop", 3), ("mushi", 2),
                                        ("sakura", 4), ("hana_awase", 3), ("shedding", 4)])
async def test_every_game_replays_from_its_seed_and_exports(store, game, seats):
    from bot.replay import Replay, export_document

    players = [ALICE, BOB, CAROL, "ai:normal"][:seats]
    names = ["alice", "bob", "carol", "AI"][:seats]
    gid, match = await play_game(store, GUILD, game, players, names, seed=21, rounds=2)
    record = await store.load_game(gid, scope=GUILD)
    replay = Replay(record)
    assert replay.names == names
    last = replay.frame(10**6)  # clamped to the end
    assert last.step == replay.total == len(record.events) and last.match.scores == match.scores
    assert last.match.to_dict() == match.to_dict()
    middle = replay.frame(replay.total // 2)
    assert middle.action == record.events[replay.total // 2 - 1].action
    assert middle.events == record.events[replay.total // 2 - 1].events
    doc = export_document(record, await store.game_outcome(gid, guild_id=GUILD), title=game,
                          chip_settlement="")
    assert json.loads(json.dumps(doc)) == doc
    assert set(doc) == set(doc["format"]["fields"])
    assert doc["replay"] == {"final_scores_match": True} and doc["shuffle"] == NEWEST_SHUFFLE
    assert [a["seq"] for a in doc["actions"]] == list(range(1, len(record.events) + 1))
    humans = doc["result"]["seats"]
    assert [r["user_id"] for r in humans] == [str(p) for p in players if isinstance(p, int)]


@pytest.mark.parametrize("game,seats", [("koikoi", 2), ("shedding", 5)])
async def test_a_game_stored_before_the_second_shuffle_replays_with_the_first(store, game, seats):
    """Its stored state says nothing of a shuffle (as every state written before shuffle 2 did):
    replay, export and the match both deal with shuffle 1."""
    from bot.replay import Replay, export_document

    players = [ALICE, BOB, CAROL, "ai:normal", "ai:easy"][:seats]
    names = ["alice", "bob", "carol", "AI", "AI 2"][:seats]
    gid, match = await play_game(store, GUILD, game, players, names, seed=21, rounds=2, shuffle=1)
    record = await store.load_game(gid, scope=GUILD)
    assert "shuffle" not in json.loads(record.state_json)["match"]
    replay = Replay(record)
    assert replay.shuffle == 1
    assert replay.frame(replay.total).match.to_dict() == match.to_dict()
    doc = export_document(record, await store.game_outcome(gid, guild_id=GUILD), title=game,
                          chip_settlement="")
    assert doc["shuffle"] == 1 and doc["replay"] == {"final_scores_match": True}


async def test_a_stored_state_naming_an_unknown_shuffle_does_not_replay(store):
    from dataclasses import replace

    from bot.replay import Replay, ReplayError

    gid, _ = await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=4)
    record = await store.load_game(gid, scope=GUILD)
    state = json.loads(record.state_json)
    state["match"]["shuffle"] = 7
    with pytest.raises(ReplayError, match="stored state"):
        Replay(replace(record, state_json=json.dumps(state))).frame(1)



async def _finished(store, guild, players, outcomes, game="koikoi"):
    record = await store.create_game(guild, 1, game, rules={}, players=players, seed=1,
                                     state_json="{}", state_version=1)
    await store.finish_game(record.game_id, [SeatResult(s, 0, outcome)
                                             for s, outcome in enumerate(outcomes)])


async def test_head_to_head_counts_who_finished_ahead_and_calls_the_rest_even(store):
    await _finished(store, GUILD, [ALICE, BOB], ["won", "lost"])
    await _finished(store, GUILD, [BOB, ALICE], ["lost", "won"], game="mushi")
    await _finished(store, GUILD, [ALICE, BOB], ["lost", "won"])
    await _finished(store, GUILD, [ALICE, BOB], ["draw", "draw"])
    await _finished(store, GUILD, [ALICE, BOB, CAROL], ["lost", "lost", "won"], game="gostop")
    await _finished(store, GUILD, [ALICE, CAROL, BOB, "ai:easy"], ["won", "lost", "won", "lost"],
                    game="sakura")  # partners of one team
    await _finished(store, GUILD, [ALICE, "ai:normal"], ["won", "lost"])  # Bob not there
    await _finished(store, OTHER_GUILD, [ALICE, BOB], ["won", "lost"])  # another server's
    running = await store.create_game(GUILD, 1, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                      state_json="{}", state_version=1)
    assert running.status == "running"  # not finished: not counted

    alice = await store.head_to_head(GUILD, ALICE, BOB)
    assert (alice.games, alice.ahead, alice.behind) == (6, 2, 1)
    bob = await store.head_to_head(GUILD, BOB, ALICE)
    assert (bob.games, bob.ahead, bob.behind) == (6, 1, 2)
    assert (await store.head_to_head(OTHER_GUILD, ALICE, BOB)).ahead == 1
    assert (await store.head_to_head(GUILD, ALICE, 999)).games == 0
    with pytest.raises(InvalidInput):
        await store.head_to_head(GUILD, ALICE, ALICE)


async def test_head_to_head_reads_the_season_asked_for(store):
    await _finished(store, GUILD, [ALICE, BOB], ["won", "lost"])
    await store.start_season(GUILD, "Spring", actor=ALICE, key="s-1")
    await _finished(store, GUILD, [ALICE, BOB], ["lost", "won"])
    now = await store.head_to_head(GUILD, ALICE, BOB)
    assert (now.games, now.ahead, now.behind) == (1, 0, 1)
    before = await store.head_to_head(GUILD, ALICE, BOB, season=0)
    assert (before.games, before.ahead, before.behind) == (1, 1, 0)
    every = await store.head_to_head(GUILD, ALICE, BOB, season=ALL_SEASONS)
    assert (every.games, every.ahead, every.behind) == (2, 1, 1)


async def test_streaks_count_the_games_won_in_a_row_now_and_at_most(store):
    assert (s := await store.user_stats(GUILD, ALICE)).streak == s.best_streak == 0  # no games
    for outcome in ["won", "won", "lost", "won", "won", "won", "draw", "won"]:
        await _finished(store, GUILD, [ALICE, BOB], [outcome, {"won": "lost", "lost": "won"}.get(outcome, outcome)])
    stats = await store.user_stats(GUILD, ALICE)
    assert (stats.streak, stats.best_streak) == (1, 3)  # the draw ended the run of three
    bob = await store.user_stats(GUILD, BOB)
    assert (bob.streak, bob.best_streak) == (0, 1)  # won once, where Alice lost
    for _ in range(3):  # games against the AI and in team games count like any other
        await _finished(store, GUILD, [ALICE, "ai:hard"], ["won", "lost"])
    await _finished(store, GUILD, [ALICE, CAROL, BOB, "ai:easy"], ["won", "lost", "won", "lost"],
                    game="sakura")
    stats = await store.user_stats(GUILD, ALICE)
    assert (stats.streak, stats.best_streak) == (5, 5)
    await _finished(store, OTHER_GUILD, [ALICE, BOB], ["lost", "won"])  # another server's
    running = await store.create_game(GUILD, 1, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                      state_json="{}", state_version=1)
    assert running.status == "running"  # not finished: not counted
    assert (await store.user_stats(GUILD, ALICE)).streak == 5
    assert (await store.user_stats(OTHER_GUILD, ALICE)).best_streak == 0


async def test_a_streak_is_of_the_season_asked_for(store):
    for _ in range(2):
        await _finished(store, GUILD, [ALICE, BOB], ["won", "lost"])
    await store.start_season(GUILD, "Spring", actor=ALICE, key="s-1")
    await _finished(store, GUILD, [ALICE, BOB], ["won", "lost"])
    now = await store.user_stats(GUILD, ALICE)
    assert (now.streak, now.best_streak) == (1, 1)
    before = await store.user_stats(GUILD, ALICE, season=0)
    assert (before.streak, before.best_streak) == (2, 2)
    every = await store.user_stats(GUILD, ALICE, season=ALL_SEASONS)
    assert (every.streak, every.best_streak) == (3, 3)
