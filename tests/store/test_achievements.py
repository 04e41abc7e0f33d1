"""Achievements in the store: earned once per member and server, with the game that earned them,
in the transaction that finishes it; read back with a finished game, on /stats, in a member's
export, and gone when they are forgotten or the server purged."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.games.descriptor import descriptors
from bot.store import SeatResult
from bot.store.achievements import ALL_GAMES, CODES, RUN

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD

OTHER = GUILD + 1


async def _play(store, players, winner: int | None, game="koikoi", guild=GUILD, events=()):
    g = await store.create_game(guild, 1, game, rules={}, players=list(players), seed=1,
                                state_json="{}", state_version=1)
    if events:
        await store.record_action(g.game_id, 1, "ai", "play", list(events), "{}", 1)
    results = [SeatResult(s, 10 if s == winner else 1,
                          "draw" if winner is None else "won" if s == winner else "lost")
               for s in range(len(players))]
    return await store.finish_game(g.game_id, results)


def _brights(seat: int, slug: str = "goko", by_seat: bool = False) -> dict:
    """A round's end crediting ``seat`` with ``slug`` (as the games write it)."""
    entry = [slug, 10, "crane", "curtain", "moon", "rainman", "phoenix"]
    detail = {"yaku_by_seat": {str(seat): [entry]}} if by_seat else {"yaku": [entry]}
    return {"type": "round_over", "winner": None if by_seat else seat, "detail": detail}


def test_the_store_counts_every_game_and_lists_each_feat_once():
    assert len(GAMES) == ALL_GAMES
    feats = [code for code in CODES if code in {d.feat.code for d in descriptors() if d.feat}]
    assert feats == ["five_brights", "basa", "hand_hiki", "gwangttaeng_38"]  # in the games' order
    assert CODES[-1] == "champion" and len(CODES) == 13 and CODES[-2] == "daily_run"


async def test_a_first_win_is_earned_once_with_its_game(store):
    drawn = await _play(store, [ALICE, BOB], None)
    assert drawn.achievements == {}  # a draw wins nothing
    won = await _play(store, [ALICE, BOB], 0)
    assert won.achievements == {ALICE: ("first_win",)}
    assert (await _play(store, [ALICE, BOB], 0)).achievements == {}  # once only
    held = await store.achievements(GUILD, ALICE)
    assert [(e.code, e.game_id) for e in held] == [("first_win", won.game_id)]
    # finishing again (a retry) replays the stored outcome, achievements and all
    again = await store.finish_game(won.game_id, [SeatResult(0, 10, "won"), SeatResult(1, 1, "lost")])
    assert again.replayed and again.achievements == {ALICE: ("first_win",)}
    # and so does the outcome a restart reads to show a final table again
    assert (await store.ended_outcome(won.game_id)).achievements == {ALICE: ("first_win",)}
    assert await store.achievements(GUILD, BOB) == []
    assert await store.achievements(OTHER, ALICE) == []  # one server's marks stay there


async def test_counts_runs_and_every_game(store):
    for _ in range(9):
        await _play(store, [BOB, CAROL], 1)  # bob loses nine
    tenth = await _play(store, [BOB, CAROL], 1)
    assert tenth.achievements == {BOB: ("games_10",), CAROL: ("games_10",)}
    for i in range(RUN - 1):
        out = await _play(store, [ALICE, "ai:easy"], 0)
        assert "run_5" not in out.achievements.get(ALICE, ()), i
    assert (await _play(store, [ALICE, "ai:easy"], 0)).achievements == {ALICE: ("run_5",)}
    for game in list(GAMES)[:-1]:
        out = await _play(store, [BOB, "ai:easy"], None, game=game)
        assert "all_games" not in out.achievements.get(BOB, ())
    last = await _play(store, [BOB, "ai:easy"], None, game=list(GAMES)[-1])
    assert last.achievements == {BOB: ("all_games",)}
    assert [e.code for e in await store.achievements(GUILD, BOB)] == ["games_10", "all_games"]


async def test_an_expert_beaten_and_all_five_brights(store):
    out = await _play(store, [ALICE, "ai:expert"], 0, events=[_brights(0)])
    assert out.achievements == {ALICE: ("first_win", "beat_expert", "five_brights")}
    lost = await _play(store, [BOB, "ai:expert"], 1)
    assert lost.achievements == {}  # losing to it earns nothing
    # a game that scores every seat's yaku credits a seat that did not win the round too
    gostop = await _play(store, [BOB, CAROL], 1, game="gostop", events=[_brights(0, "ogwang", True)])
    assert gostop.achievements == {BOB: ("five_brights",), CAROL: ("first_win",)}
    seotda = await _play(store, [CAROL, BOB], 1, game="seotda", events=[_brights(0, "goko", True)])
    assert "five_brights" not in seotda.achievements.get(CAROL, ())  # no brights yaku there


async def test_each_games_own_feat_is_read_from_its_events(store):
    basa = {"type": "round_over", "winner": 2, "detail": {"margin": 130, "sides": [[0, 2], [1, 3]]}}
    near = {"type": "round_over", "winner": 1, "detail": {"margin": 90, "sides": [[0, 2], [1, 3]]}}
    out = await _play(store, [ALICE, BOB, CAROL, "ai:easy"], 0, game="sakura", events=[near, basa])
    assert {u: "basa" in c for u, c in out.achievements.items()} == {ALICE: True, CAROL: True}
    shown = {"type": "showdown", "hands": {"0": {"cards": ["curtain", "moon"], "hand": "gwangttaeng_38"},
                                           "1": {"cards": ["crane", "moon"], "hand": "gwangttaeng_18"}}}
    out = await _play(store, [BOB, CAROL], 1, game="seotda", events=[shown])
    assert out.achievements == {BOB: ("gwangttaeng_38",), CAROL: ("first_win",)}
    hiki = {"type": "hand_hiki", "player": 1, "cards": ["pine", "crane", "pine_ribbon", "pine_2"]}
    out = await _play(store, ["ai:easy", ALICE], None, game="shedding", events=[hiki])
    assert out.achievements == {ALICE: ("hand_hiki",)}
    # a game's events of another game's feat earn nothing
    out = await _play(store, [DAVE, "ai:easy"], None, game="koikoi", events=[shown, hiki, basa])
    assert out.achievements == {}


@pytest.mark.parametrize("forget", [True, False])
async def test_forgotten_or_purged_achievements_are_gone(store, forget):
    await _play(store, [ALICE, BOB], 0)
    await _play(store, [ALICE, BOB], 0, guild=OTHER)
    data = await store.member_data(GUILD, ALICE)
    assert data.achievements == 1
    export = await store.export_member(GUILD, ALICE)
    assert [a["achievement"] for a in export["achievements"]] == ["first_win"]
    if forget:
        await store.forget_member(GUILD, ALICE, names=["alice"])
    else:
        await store.purge_guild(GUILD)
    assert await store.achievements(GUILD, ALICE) == []
    assert [e.code for e in await store.achievements(OTHER, ALICE)] == ["first_win"]


def test_every_achievement_is_listed_once():
    assert len(set(CODES)) == len(CODES)


async def test_a_board_of_achievements_counts_each_members_and_the_last_30_days(store, clock):
    await _play(store, [ALICE, "ai:expert"], 0, events=[_brights(0)])  # alice: three at once
    await _play(store, [BOB, CAROL], 0)  # bob: a first win
    await _play(store, [ALICE, BOB], 0, guild=OTHER)  # another server's
    board = await store.leaderboard(GUILD, "achievements")
    assert [(r.rank, r.user_id, r.value) for r in board.rows] == [(1, ALICE, 3), (2, BOB, 1)]
    assert board.total == 2 and board.rows[0].games is None
    assert (await store.user_rank(GUILD, BOB, "achievements")).rank == 2
    await store.start_season(GUILD, "Next", actor=ALICE, key="s")  # achievements carry over
    assert [r.user_id for r in (await store.leaderboard(GUILD, "achievements")).rows] == [ALICE, BOB]
    clock.now += 31 * 86_400
    for _ in range(RUN):
        await _play(store, [CAROL, "ai:easy"], 0)  # carol wins five in a row a month later
    recent = await store.leaderboard(GUILD, "achievements", period="30d")
    assert [(r.user_id, r.value) for r in recent.rows] == [(CAROL, 2)]  # first win, run of five


async def test_an_ai_that_wins_a_tournament_crowns_nobody_and_a_purge_takes_the_crown(funded):
    store = funded
    tour = await store.create_tournament(GUILD, 77, created_by=ALICE, game="koikoi", format="swiss",
                                         rules={"rounds": 1}, fee=0, key="t1")
    tid = tour.tournament_id
    await store.join_tournament(tid, GUILD, ALICE, "alice")
    await store.add_tournament_ai(tid, GUILD, "expert", "AI (expert)")
    await store.start_tournament(tid, GUILD)
    await store.finish_tournament(tid, [2, 1])  # the AI first
    assert await store.achievements(GUILD, ALICE) == []
    second = await store.create_tournament(GUILD, 77, created_by=ALICE, game="koikoi", format="swiss",
                                           rules={"rounds": 1}, fee=0, key="t2")
    await store.join_tournament(second.tournament_id, GUILD, ALICE, "alice")
    await store.add_tournament_ai(second.tournament_id, GUILD, "easy", "AI (easy)")
    await store.start_tournament(second.tournament_id, GUILD)
    await store.finish_tournament(second.tournament_id, [1, 2])
    assert [e.code for e in await store.achievements(GUILD, ALICE)] == ["champion"]
    assert (await store.leaderboard(GUILD, "achievements")).rows[0].user_id == ALICE
    assert (await store.export_member(GUILD, ALICE))["achievements"][0]["tournament_id"] == second.tournament_id
    await store.purge_guild(GUILD)  # the crown goes before the tournament it names
    assert await store.achievements(GUILD, ALICE) == []
