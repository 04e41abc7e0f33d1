"""Games: creation with escrow, the action log, finishing with settlement, cancelling."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.discord_ui.errors import sentence
from bot.store import (
    EVERY_SERVER,
    DuplicateAction,
    GameNotRunning,
    InsufficientFunds,
    InvalidGame,
    InvalidInput,
    InvalidResult,
    SeatResult,
    UnknownAccount,
    UnknownGame,
)

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD, OTHER_GUILD, count
from .refusals import refused

FOUR = [ALICE, BOB, CAROL, DAVE]


async def _new(store, players=(ALICE, BOB), stake=0, **kw):
    return await store.create_game(GUILD, 55, "koikoi", rules={"preset": "nintendo"},
                                   players=list(players), seed=2**64 - 1, state_json='{"s": 0}',
                                   state_version=3, stake=stake, **kw)


def _results(winner: int, seats: int, draw: bool = False) -> list[SeatResult]:
    return [SeatResult(s, 10 if s == winner else 0,
                       "draw" if draw else "won" if s == winner else "lost") for s in range(seats)]


async def test_record_action_appends_and_saves_state_in_one_step(funded):
    game = await _new(funded)
    assert (game.status, game.last_seq, game.seed, game.state_version) == ("running", 0, 2**64 - 1, 3)
    await funded.record_action(game.game_id, 1, ALICE, "play:crane", [{"type": "played"}],
                               '{"s": 1}', 3)
    await funded.record_action(game.game_id, 2, "ai", "draw", [{"type": "drew"}], '{"s": 2}', 3)
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert loaded.state == {"s": 2} and loaded.last_seq == 2
    assert [(e.seq, e.actor, e.action) for e in loaded.events] == [(1, ALICE, "play:crane"),
                                                                   (2, "ai", "draw")]
    assert loaded.events[1].events == [{"type": "drew"}]


async def test_duplicate_or_stale_seq_is_refused_and_changes_nothing(funded):
    game = await _new(funded)
    await funded.record_action(game.game_id, 1, ALICE, "play:crane", [], '{"s": 1}', 3)
    for seq in (1, 0):
        with pytest.raises((DuplicateAction, InvalidInput)):
            await funded.record_action(game.game_id, seq, ALICE, "play:crane", [], '{"s": 9}', 3)
    with pytest.raises(DuplicateAction) as info:
        await funded.record_action(game.game_id, 1, BOB, "other", [], '{"s": 9}', 3)
    assert info.value.last_seq == 1
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert loaded.state == {"s": 1} and len(loaded.events) == 1
    await funded.record_action(game.game_id, 5, ALICE, "gap is allowed", [], '{"s": 5}', 3)
    assert (await funded.load_game(game.game_id, scope=EVERY_SERVER)).last_seq == 5


async def test_bad_actions_are_refused(funded):
    game = await _new(funded)
    with pytest.raises(InvalidGame):
        await funded.record_action(game.game_id, 1, ALICE, "x", [], "{not json", 3)
    with pytest.raises(InvalidInput):
        await funded.record_action(game.game_id, 1, ALICE, "x", [{"f": {1, 2}}], "{}", 3)
    with pytest.raises(UnknownGame):
        await funded.record_action(12345, 1, ALICE, "x", [], "{}", 3)
    assert (await funded.load_game(game.game_id, scope=EVERY_SERVER)).events == []


async def test_list_running_games_for_resume(funded):
    a = await _new(funded)
    b = await _new(funded, players=(CAROL, "ai:hard"))
    await funded.cancel_game(a.game_id)
    running = await funded.list_running_games(EVERY_SERVER)
    assert [g.game_id for g in running] == [b.game_id]
    assert running[0].players == [CAROL, "ai:hard"] and running[0].human_seats == {0: CAROL}
    assert await funded.list_running_games(OTHER_GUILD) == []


async def test_stake_is_escrowed_from_all_or_none(funded):
    await funded.transfer(GUILD, DAVE, ALICE, 950, key="drain")
    with pytest.raises(InsufficientFunds) as info:
        await _new(funded, players=FOUR, stake=100)
    assert info.value.user_id == DAVE
    assert [await funded.balance(GUILD, u) for u in FOUR] == [1950, 1000, 1000, 50]
    assert await funded.list_running_games(EVERY_SERVER) == []  # the game row was rolled back too
    with pytest.raises(UnknownAccount):
        await _new(funded, players=(ALICE, 999), stake=10)
    game = await _new(funded, players=FOUR[:3], stake=100)
    assert [await funded.balance(GUILD, u) for u in FOUR[:3]] == [1850, 900, 900]
    assert game.stake == 100 and game.status == "running"
    assert (await funded.audit()).ok


async def test_start_key_makes_a_retried_start_return_the_same_game(funded):
    first = await _new(funded, stake=10, key="lobby-1")
    again = await _new(funded, stake=10, key="lobby-1")
    assert again.game_id == first.game_id
    assert await funded.balance(GUILD, ALICE) == 990


async def test_settle_with_chip_deltas_and_twice_changes_nothing(funded):
    game = await _new(funded, players=FOUR, stake=100)
    deltas = {0: 150, 1: -100, 2: -50, 3: 0}
    out = await funded.finish_game(game.game_id, _results(0, 4), chip_deltas=deltas,
                                   state_json='{"final": true}', state_version=3)
    assert out.payouts == {0: 250, 1: 0, 2: 50, 3: 100} and not out.replayed
    balances = [await funded.balance(GUILD, u) for u in FOUR]
    assert balances == [1150, 900, 950, 1000]
    transfers = await count(funded, "transfers")
    again = await funded.finish_game(game.game_id, _results(1, 4), chip_deltas={0: 0})
    assert again.replayed and again.payouts == out.payouts and again.results == out.results
    assert [await funded.balance(GUILD, u) for u in FOUR] == balances
    assert await count(funded, "transfers") == transfers
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert loaded.status == "finished" and loaded.state == {"final": True}
    with pytest.raises(GameNotRunning):
        await funded.cancel_game(game.game_id)
    with pytest.raises(GameNotRunning):
        await funded.record_action(game.game_id, 1, ALICE, "late", [], "{}", 3)
    assert (await funded.audit()).ok


async def test_settle_with_pot_shares(funded):
    game = await _new(funded, players=FOUR[:3], stake=100)
    out = await funded.finish_game(game.game_id, _results(0, 3),
                                   pot_shares=[(ALICE, 200), (CAROL, 100)])
    assert out.payouts == {0: 200, 1: 0, 2: 100}
    assert [await funded.balance(GUILD, u) for u in FOUR[:3]] == [1100, 900, 1000]


async def test_default_settlement_splits_the_pot_among_winners(funded):
    game = await _new(funded, players=FOUR[:3], stake=5)
    results = [SeatResult(0, 3, "won"), SeatResult(1, 3, "won"), SeatResult(2, 0, "lost")]
    out = await funded.finish_game(game.game_id, results)
    assert out.payouts == {0: 8, 1: 7, 2: 0}  # 15 chips: the odd chip goes to the lower seat
    draw = await _new(funded, stake=5)
    assert (await funded.finish_game(draw.game_id, _results(0, 2, draw=True))).payouts == {0: 5, 1: 5}


async def test_ai_seats_stake_and_win_for_the_house(funded):
    issued = (await funded.audit()).issued
    game = await _new(funded, players=(ALICE, "ai:hard"), stake=100)
    out = await funded.finish_game(game.game_id, _results(1, 2))
    assert out.payouts == {0: 0, 1: 200}
    assert [r.seat for r in out.results] == [0]  # AI seats have no result row
    assert out.results[0].rating_before is None  # and a game against AI is not rated
    assert await funded.balance(GUILD, ALICE) == 900
    report = await funded.audit()
    assert report.ok and report.issued == issued - 100  # the house won Alice's stake


async def test_bad_results_are_refused_and_the_game_stays_running(funded):
    game = await _new(funded, players=FOUR[:3], stake=100)
    bad = [
        dict(results=_results(0, 2)),
        dict(results=[*_results(0, 2), SeatResult(0, 1, "won")]),
        dict(results=[SeatResult(0, 1, "won"), SeatResult(1, 1, "lost"), SeatResult(2, 0, "tie")]),
        dict(results=_results(0, 3), chip_deltas={0: 10, 1: -5}),
        dict(results=_results(0, 3), chip_deltas={0: 150, 1: -150}),  # beyond a stake
        dict(results=_results(0, 3), chip_deltas={0: 10, 7: -10}),
        dict(results=_results(0, 3), chip_deltas={0: 1.5, 1: -1.5}),
        dict(results=_results(0, 3), pot_shares=[(ALICE, 299)]),
        dict(results=_results(0, 3), pot_shares=[(999, 300)]),
        dict(results=_results(0, 3), pot_shares=[(ALICE, 300)], chip_deltas={}),
    ]
    for kwargs in bad:
        with pytest.raises(InvalidResult) as info:
            await funded.finish_game(game.game_id, **kwargs)
        assert sentence(info.value)
    assert (await funded.load_game(game.game_id, scope=EVERY_SERVER)).status == "running"
    assert await funded.balance(GUILD, ALICE) == 900
    unstaked = await _new(funded)
    with refused(InvalidResult, "no stake"):
        await funded.finish_game(unstaked.game_id, _results(0, 2), chip_deltas={0: 5, 1: -5})
    with pytest.raises(UnknownGame):
        await funded.finish_game(4242, _results(0, 2))


async def test_cancel_refunds_every_stake_once(funded):
    game = await _new(funded, players=(ALICE, BOB, "ai:easy"), stake=300)
    await funded.record_action(game.game_id, 1, ALICE, "play", [], "{}", 3)
    out = await funded.cancel_game(game.game_id, actor=ALICE, reason="vote to stop")
    assert out.status == "cancelled" and out.payouts == {0: 300, 1: 300, 2: 300}
    again = await funded.cancel_game(game.game_id)
    assert again.replayed and again.payouts == out.payouts
    assert [await funded.balance(GUILD, u) for u in (ALICE, BOB)] == [1000, 1000]
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert loaded.end_reason == "vote to stop" and len(loaded.events) == 1
    with pytest.raises(GameNotRunning):
        await funded.finish_game(game.game_id, _results(0, 3))
    report = await funded.audit()
    assert report.ok and report.issued == 4000


@pytest.mark.parametrize("kwargs", [
    dict(players=[]), dict(players=[ALICE, ALICE]), dict(players=[ALICE, 0]),
    dict(players=[ALICE, ""]), dict(players=[ALICE, 1.5]), dict(players=list(range(1, 10))),
    dict(rules=["not", "a", "mapping"]), dict(rules={"x": object()}), dict(seed=1.5),
    dict(state_json={"not": "text"}), dict(stake=-5), dict(stake=1.0), dict(game=""),
])
async def test_bad_new_games_are_refused(funded, kwargs):
    args = dict(rules={}, players=[ALICE, BOB], seed=1, state_json="{}", state_version=1,
                game="koikoi") | kwargs
    game = args.pop("game")
    with pytest.raises(InvalidInput):
        await funded.create_game(GUILD, 55, game, **args)
    assert await funded.list_running_games(EVERY_SERVER) == []


async def test_unknown_game_and_other_servers_game(funded):
    game = await _new(funded)
    with refused(UnknownGame, "does not exist"):
        await funded.load_game(999, scope=EVERY_SERVER)
    with pytest.raises(UnknownGame):
        await funded.load_game(game.game_id, scope=OTHER_GUILD)
    assert (await funded.load_game(game.game_id, scope=GUILD, with_events=False)).rules == {
        "preset": "nintendo"}
    assert json.loads((await funded.load_game(game.game_id, scope=EVERY_SERVER)).state_json) == {"s": 0}


async def test_double_clicks_racing_apply_once(funded):
    game = await _new(funded, players=FOUR, stake=100)
    outcomes = await asyncio.gather(*(
        funded.record_action(game.game_id, 1, ALICE, f"click{i}", [], '{"s": 1}', 3)
        for i in range(6)
    ), return_exceptions=True)
    assert sum(o is None for o in outcomes) == 1
    assert all(isinstance(o, DuplicateAction) for o in outcomes if o is not None)
    assert len((await funded.load_game(game.game_id, scope=EVERY_SERVER)).events) == 1
    finished = await asyncio.gather(*(
        funded.finish_game(game.game_id, _results(0, 4)) for _ in range(4)))
    # one of the racing calls finishes it (which one is the database's order), the rest replay
    assert sorted(e.replayed for e in finished) == [False, True, True, True]
    with pytest.raises(GameNotRunning):
        await funded.cancel_game(game.game_id)
    assert await funded.balance(GUILD, ALICE) == 1300
    assert (await funded.audit()).ok


async def test_an_ended_game_is_shown_again_until_marked_shown(store):
    game = await _new(store)
    assert await store.unshown_ended_games() == []  # a running game is not an end to show
    outcome = await store.finish_game(game.game_id, _results(0, 2))
    assert [g.game_id for g in await store.unshown_ended_games()] == [game.game_id]
    assert (await store.ended_outcome(game.game_id)).results == outcome.results
    await store.mark_final_shown(game.game_id)
    assert await store.unshown_ended_games() == []
