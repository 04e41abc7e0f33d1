"""The secret a game is dealt from, in the store: committed when a lobby opens, noted with the
presses that seat its members, moved into the game, durable across a restart, read only by the
game's own server and given out only once the game has ended (both databases)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.fairness import FairDeal, Input, commitment_of, derive_seed
from bot.replay import deal_document
from bot.store import EVERY_SERVER, InvalidInput, SeatResult, Store, UnknownGame
from bot.store.errors import InvalidGame
from bot.tables import Table
from bot.verify import verify_document

from . import upgrade_fixtures as fixtures
from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD
from .played import play, store_played
from .test_migrations import _filled_postgres, _filled_sqlite

CHANNEL = 77
JOIN, START = 1400000000000000001, 1400000000000000002


async def _secret_of(store: Store, lobby_id: str) -> str | None:
    row = await store._db.fetchone("SELECT server_seed FROM lobbies WHERE lobby_id = ?", (lobby_id,))
    return row[0]


async def _started_lobby(store: Store):
    lobby = await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                     max_seats=2)
    await store.join_lobby(lobby.lobby_id, BOB, press=JOIN)
    return await store.begin_lobby_start(lobby.lobby_id, ALICE)


async def test_a_lobby_commits_to_a_secret_it_never_shows(store):
    lobby = await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                     max_seats=2)
    secret = await _secret_of(store, lobby.lobby_id)
    assert lobby.commitment == commitment_of(secret)
    assert secret not in repr(lobby) and secret not in repr(await store.get_lobby(lobby.lobby_id))
    assert not any(f.name == "server_seed" for f in dataclasses.fields(lobby))
    other = await store.create_lobby("challenge", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                     max_seats=2, opponent_id=BOB)
    assert other.commitment not in (None, lobby.commitment)  # every lobby its own secret


async def test_the_presses_that_seat_members_are_noted_and_a_leave_takes_its_own_back(store):
    lobby = await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="sakura", min_seats=2,
                                     max_seats=4)
    await store.join_lobby(lobby.lobby_id, BOB, press=11)
    await store.join_lobby(lobby.lobby_id, CAROL, press=12)
    left = await store.leave_lobby(lobby.lobby_id, BOB)
    assert left.seat_presses == ((CAROL, "12"),)
    again = await store.join_lobby(lobby.lobby_id, BOB, press=13)
    assert again.seat_presses == ((CAROL, "12"), (BOB, "13"))
    with pytest.raises(InvalidInput):
        await store.join_lobby(lobby.lobby_id, 99, press=-5)


async def test_only_the_starting_lobby_of_the_same_server_gives_its_secret(store):
    lobby = await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                     max_seats=2)
    await store.join_lobby(lobby.lobby_id, BOB, press=JOIN)
    start = Input("start", str(START))
    assert await store.lobby_deal(lobby.lobby_id, GUILD, start) is None  # still open
    await store.begin_lobby_start(lobby.lobby_id, ALICE)
    assert await store.lobby_deal(lobby.lobby_id, OTHER_GUILD, start) is None
    deal = await store.lobby_deal(lobby.lobby_id, GUILD, start)
    assert deal.commitment == lobby.commitment
    assert deal.inputs == (Input("join", str(JOIN)), start)
    assert deal.seed == derive_seed(deal.server_seed, [str(JOIN), str(START)])


async def test_a_started_game_keeps_the_secret_and_reveals_it_only_at_its_end(database, clock):
    store = await Store.open(database, clock=clock)
    try:
        lobby = await _started_lobby(store)
        deal = await store.lobby_deal(lobby.lobby_id, GUILD, Input("start", str(START)))
        played = play([ALICE, BOB], deal.seed, moves=0)
        game = await store.create_game(GUILD, CHANNEL, "koikoi", rules=played.rules,
                                       players=[ALICE, BOB], seed=deal.seed,
                                       state_json=played.state_json, state_version=1,
                                       key=lobby.start_key, deal=deal)
        await store.finish_lobby_start(lobby.lobby_id, game.game_id)
        assert await _secret_of(store, lobby.lobby_id) is None  # the game holds it now
        assert game.deal == deal.sealed()
    finally:
        await store.close()
    store = await Store.open(database, clock=clock)  # a restart
    try:
        running = await store.load_game(game.game_id, scope=GUILD)
        assert running.deal == deal.sealed() and running.deal.server_seed is None
        assert Table.from_record(running).deal == deal.sealed()  # the resumed table shows it
        assert await store.fair_deal(game.game_id, scope=GUILD) == deal.sealed()
        with pytest.raises(UnknownGame):
            await store.fair_deal(game.game_id, scope=OTHER_GUILD)
        with pytest.raises(UnknownGame):
            await store.load_game(game.game_id, scope=OTHER_GUILD)
        await store.finish_game(game.game_id, [SeatResult(0, 1, "won"), SeatResult(1, 0, "lost")])
        assert (await store.fair_deal(game.game_id, scope=GUILD)) == deal
        assert (await store.load_game(game.game_id, scope=EVERY_SERVER)).deal == deal
        with pytest.raises(UnknownGame):
            await store.fair_deal(game.game_id, scope=OTHER_GUILD)
    finally:
        await store.close()


async def test_a_cancelled_game_reveals_its_secret_too(store):
    deal = FairDeal.fresh([Input("command", "1400000000000000009")])
    game = await store.create_game(GUILD, CHANNEL, "koikoi", rules={}, players=[ALICE, "ai:easy"],
                                   seed=deal.seed, state_json="{}", state_version=1, deal=deal)
    assert (await store.fair_deal(game.game_id, scope=GUILD)).server_seed is None
    await store.cancel_game(game.game_id)
    assert (await store.fair_deal(game.game_id, scope=GUILD)) == deal


async def test_a_seed_its_commitment_does_not_derive_is_refused(store):
    deal = FairDeal.fresh()
    with pytest.raises(InvalidGame):
        await store.create_game(GUILD, CHANNEL, "koikoi", rules={}, players=[ALICE, BOB],
                                seed=deal.seed + 1, state_json="{}", state_version=1, deal=deal)
    with pytest.raises(InvalidGame):
        await store.create_game(GUILD, CHANNEL, "koikoi", rules={}, players=[ALICE, BOB],
                                seed=deal.seed, state_json="{}", state_version=1, deal=deal.sealed())
    assert await store.game_statuses() == []


async def test_a_rematch_commits_and_notes_the_accepts_before_the_last(store):
    played = play([ALICE, BOB, CAROL], 5, game="sakura", rules={"rounds": 1})
    source = await store_played(store, GUILD, played)
    args = dict(game="sakura", stake=0, seats=3, ais=[], channel_id=CHANNEL, expires_at=10**10)
    lobby, step = await store.request_rematch(source, ALICE, press=21, **args)
    assert step == "created" and lobby.commitment and lobby.seat_presses == ()
    lobby, step = await store.request_rematch(source, BOB, press=22, **args)
    assert step == "confirmed" and lobby.seat_presses == ((BOB, "22"),)
    lobby, step = await store.request_rematch(source, CAROL, press=23, **args)
    assert step == "start" and lobby.seat_presses == ((BOB, "22"),)
    deal = await store.lobby_deal(lobby.lobby_id, GUILD, Input("accept", "23"))
    assert deal.inputs == (Input("accept", "22"), Input("accept", "23"))


async def test_forgetting_a_member_leaves_no_id_of_theirs_among_the_presses(store):
    lobby = await _started_lobby(store)
    await store.settle_lobby_start(lobby.lobby_id)  # back to open: no game came of it
    await store.close_lobby(lobby.lobby_id, ALICE)
    done = await store.forget_member(GUILD, BOB)
    presses = (await store.get_lobby(lobby.lobby_id)).seat_presses
    assert presses == ((done.pseudonym, str(JOIN)),)


@pytest.mark.parametrize("level", [15, 16])
async def test_an_upgrade_keeps_older_games_uncommitted_and_committed_ones_verifiable(bare_database, level):
    database = bare_database
    if isinstance(database, str):
        await _filled_postgres(database, level)
    else:
        _filled_sqlite(database, level)
    async with await Store.open(database) as store:
        statuses = dict(await store.game_statuses())
        records = [await store.load_game(g, scope=EVERY_SERVER) for g in statuses]
        committed = [r for r in records if r.deal is not None]
        if level == 15:
            assert committed == []
            lobby = await store.get_lobby("seotda-lobby-0000001")
            assert lobby.commitment is None and lobby.seat_presses == ()
            return
        assert {r.status for r in committed} == {"running", "finished"}
        for record in committed:
            if record.status == "running":
                assert record.deal.server_seed is None
            else:
                assert verify_document(deal_document(record)).agrees
        lobby = await store.get_lobby("fair-lobby-00000001")
        assert lobby.commitment == commitment_of(fixtures.FAIR_SEEDS[2])
        assert lobby.seat_presses == ((fixtures.U2, "1200000000000000003"),)
        deal = await store.lobby_deal(lobby.lobby_id, fixtures.G1, Input("start", "5"))
        assert deal is None  # open, not starting: its secret stays in
