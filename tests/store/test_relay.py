"""Between the processes of a sharded bot: presses queued for a shard's process, in order, until
played or answered, and PostgreSQL's announcements of them and of a member's language."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import InvalidInput, Store, StoreError, UserLanguage, relay

from .conftest import ALICE, BOB
from .refusals import refused


def press(n: int) -> dict:
    return {"kind": "move", "game": 7, "seq": n, "key": "draw", "user": ALICE, "application": 1,
            "token": f"token-{n}", "language": "ja", "at": 1.5}


async def test_presses_wait_for_their_shard_in_order_until_played_or_dropped(store):
    for n, shard in ((1, 1), (2, 0), (3, 1)):
        await store.relay_press(shard, 7, press(n))
    assert await store.queued_relayed_presses([2, 3]) == []
    queued = await store.queued_relayed_presses([1])
    assert [p["seq"] for p in queued] == [1, 3]
    assert await store.queued_relayed_presses([1]) == queued  # a crash while playing loses none
    await store.drop_relayed_press(queued[0]["press_id"])
    assert [p["seq"] for p in await store.queued_relayed_presses([0, 1])] == [2, 3]
    assert {k: v for k, v in (await store.queued_relayed_presses([0]))[0].items()
            if k != "press_id"} == press(2)


async def test_a_relayed_press_leaves_the_queue_with_its_move_and_only_then(store):
    game = await store.create_game(900, 55, "koikoi", rules={"preset": "nintendo"}, players=[ALICE, BOB],
                                   seed=1, state_json='{"s": 0}', state_version=1)
    await store.relay_press(0, game.game_id, press(1))
    (queued,) = await store.queued_relayed_presses([0])
    await store.record_action(game.game_id, 1, ALICE, "draw", [], '{"s": 1}', 1,
                              relayed_press=queued["press_id"])
    assert await store.queued_relayed_presses([0]) == []
    await store.relay_press(0, game.game_id, press(2))
    (again,) = await store.queued_relayed_presses([0])
    with pytest.raises(StoreError):  # the move is refused: the press stays for its answer
        await store.record_action(game.game_id, 1, ALICE, "draw", [], '{"s": 2}', 1,
                                  relayed_press=again["press_id"])
    assert await store.queued_relayed_presses([0]) == [again]


async def test_a_press_is_refused_without_a_shard_or_a_game(store):
    with pytest.raises(InvalidInput):
        await store.relay_press(-1, 7, press(1))
    with pytest.raises(InvalidInput):
        await store.relay_press(0, 0, press(1))


async def test_only_postgresql_carries_messages_between_processes(tmp_path):
    async with await Store.open(tmp_path / "one.sqlite3") as store:
        with refused(InvalidInput, "DATABASE_URL"):
            store.listening()


async def test_announcements_reach_every_other_process(empty_postgres):
    async with await Store.open(empty_postgres) as listener, await Store.open(empty_postgres) as speaker:
        async with listener.listening() as messages:
            await speaker.relay_press(1, 7, press(1))
            await speaker.save_user_language(UserLanguage(BOB, "ko", "ja"))
            heard = [await anext(messages), await anext(messages)]
        assert heard == [{"kind": "press", "shard": 1, "from": speaker.origin},
                         {"kind": "language", "user": BOB, "from": speaker.origin}]
        assert listener.origin != speaker.origin
        assert await listener.user_language(BOB) == UserLanguage(BOB, "ko", "ja")
        assert [{k: v for k, v in p.items() if k != "press_id"}
                for p in await listener.queued_relayed_presses([1])] == [press(1)]


async def test_a_write_rolled_back_announces_nothing(empty_postgres):
    async with await Store.open(empty_postgres) as listener, await Store.open(empty_postgres) as speaker:
        async def announce_then_fail(conn):
            await relay.announce(conn, "postgresql", {"kind": "press", "shard": 5, "from": "x"})
            raise RuntimeError("the write fails after its announcement")

        async with listener.listening() as messages:
            with pytest.raises(RuntimeError):
                await speaker._db.transact(announce_then_fail)
            await speaker.relay_press(0, 7, press(2))  # so the next announcement is this one
            assert await asyncio.wait_for(anext(messages), 30) == {"kind": "press", "shard": 0,
                                                                   "from": speaker.origin}


async def test_a_stored_language_is_read_back_for_one_user(store):
    assert await store.user_language(ALICE) is None
    await store.save_user_language(UserLanguage(ALICE, "en", "ko"))
    assert await store.user_language(ALICE) == UserLanguage(ALICE, "en", "ko")
