"""Which process of a sharded bot takes up a guest place's games, lobbies and reviews: the one
Discord sends the place's interactions to. A guest place keeps its rows under its channel's id,
so the store keeps the server it is in (none for a DM or a group DM, whose go to shard 0)."""

from __future__ import annotations

import pytest

from bot.shards import ShardPlan, shard_of
from bot.store import EVERY_SERVER, InvalidInput, NotDriven, SeatResult

from .conftest import ALICE, BOB, GUILD
from .test_records import play_game

SHARDS = 2


def on_shard(shard: int, base: int) -> int:
    """An id the shard formula puts on ``shard`` of two, from ``base`` on."""
    found = base << 22
    while shard_of(found, SHARDS) != shard:
        found += 1 << 22
    return found


# Every place's id falls to shard 1; Discord sends each one's interactions elsewhere but for
# the server's own.
SERVER = on_shard(1, 700_000)  # the bot's server: its games are its own shard's
GROUP_DM = on_shard(1, 700_100)  # shard 0
DM = on_shard(1, 700_200)  # shard 0
ACTIVITY_DM = on_shard(1, 700_300)  # an Activity in a private channel: no kind, shard 0
ELSEWHERE = on_shard(0, 700_400)  # a server without the bot, on shard 0
STREET = on_shard(1, 700_500)  # its channel: shard 0
OLD_STREET = on_shard(1, 700_600)  # a server's guest place noted before its server was kept


async def noted(store) -> None:
    await store.note_guest_place(GROUP_DM, "group_dm")
    await store.note_guest_place(DM, "dm")
    await store.note_guest_place(ACTIVITY_DM, None)
    await store.note_guest_place(STREET, "server", ELSEWHERE)
    await store._db.transact(lambda conn: conn.execute(
        "INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, 'server', 1)", (OLD_STREET,)))


async def test_each_place_is_taken_up_where_its_interactions_arrive(store):
    await noted(store)
    assert [await store.home_of(scope) for scope in (SERVER, GROUP_DM, DM, ACTIVITY_DM, STREET, OLD_STREET)] \
        == [SERVER, None, None, None, ELSEWHERE, OLD_STREET]
    places = (SERVER, GROUP_DM, DM, ACTIVITY_DM, STREET, OLD_STREET)
    running = {}
    for place in places:
        game_id, _ = await play_game(store, place, "koikoi", [ALICE, BOB], ["alice", "bob"], finish=False)
        running[place] = game_id
    for place in places:  # an ended game whose end the stop kept from its messages
        await play_game(store, place, "koikoi", [ALICE, BOB], ["alice", "bob"])
    for place in places:
        await store.note_review(place, running[place], ALICE, "en")
        await store.create_lobby("challenge", place, place, ALICE, game="koikoi", min_seats=2,
                                 max_seats=2, opponent_id=BOB, expires_at=store._db.now_ms() / 1000 + 600)
        await store.create_lobby("lobby", place, place + 1, BOB, game="koikoi", min_seats=2, max_seats=2)
    wants = {0: {GROUP_DM, DM, ACTIVITY_DM, STREET}, 1: {SERVER, OLD_STREET}}
    for shard, want in wants.items():
        owns = ShardPlan((shard,), SHARDS).owns
        assert {g.guild_id for g in await store.list_running_games(EVERY_SERVER, owns=owns)} == want
        assert {g.guild_id for g in await store.unshown_ended_games(owns)} == want
        assert {r.guild_id for r in await store.pending_reviews(owns)} == want
        assert {lobby.guild_id for lobby in await store.open_challenges(owns)} == want
        assert {lobby.guild_id for lobby in await store.open_activity_lobbies(owns)} == want
    # A process running every shard, and a caller that asks for no process, take every place.
    whole = ShardPlan((0, 1), SHARDS).owns
    assert len(await store.list_running_games(EVERY_SERVER, owns=whole)) == len(places)
    assert len(await store.list_running_games(EVERY_SERVER)) == len(places)


async def test_a_game_keeps_the_shard_it_started_on_for_its_life(store):
    await noted(store)
    keys, games = {}, {}
    for place in (SERVER, GROUP_DM, DM, ACTIVITY_DM, STREET, OLD_STREET):
        games[place], _ = await play_game(store, place, "koikoi", [ALICE, BOB], ["alice", "bob"],
                                          finish=False)
        keys[place] = (await store.load_game(games[place], scope=EVERY_SERVER, with_events=False)).shard_key
    assert keys == {SERVER: SERVER, GROUP_DM: None, DM: None, ACTIVITY_DM: None, STREET: ELSEWHERE,
                    OLD_STREET: OLD_STREET}
    # The old place's server is noted by its next table: that table is driven by the server's
    # shard, the one already running there stays with the shard that took it up.
    await store.note_guest_place(OLD_STREET, "server", ELSEWHERE)
    later, _ = await play_game(store, OLD_STREET, "koikoi", [ALICE, BOB], ["alice", "bob"], finish=False)
    by_shard = {shard: {g.game_id for g in await store.list_running_games(
        EVERY_SERVER, owns=ShardPlan((shard,), SHARDS).owns) if g.guild_id == OLD_STREET} for shard in (0, 1)}
    assert by_shard == {0: {later}, 1: {games[OLD_STREET]}}
    assert (await store.load_game(later, scope=EVERY_SERVER, with_events=False)).shard_key == ELSEWHERE


async def test_a_server_claims_the_games_of_its_guest_channel_and_fences_out_the_old_process(store):
    """A place noted before its server was kept has its games driven by its channel's shard; a
    press from its server, on the server's shard, claims them: the old process's writes are
    refused from then on, the new one's go through."""
    await noted(store)
    running, _ = await play_game(store, OLD_STREET, "koikoi", [ALICE, BOB], ["alice", "bob"], finish=False)
    ended, _ = await play_game(store, OLD_STREET, "koikoi", [ALICE, BOB], ["alice", "bob"])
    last = (await store.load_game(running, scope=EVERY_SERVER, with_events=False)).last_seq
    old, new = ShardPlan((1,), SHARDS).owns, ShardPlan((0,), SHARDS).owns  # OLD_STREET's, ELSEWHERE's
    store.drives = old
    await store.record_action(running, last + 1, ALICE, "a move before the claim", [], "{}", 1)

    assert await store.claim_games(OLD_STREET, ELSEWHERE) == [running]
    assert (await store.load_game(running, scope=EVERY_SERVER, with_events=False)).shard_key == ELSEWHERE
    assert (await store.load_game(ended, scope=EVERY_SERVER, with_events=False)).shard_key == OLD_STREET
    assert await store.home_of(OLD_STREET) == ELSEWHERE
    assert await store.claim_games(OLD_STREET, ELSEWHERE) == []  # nothing left to claim
    results = [SeatResult(0, 1, "won"), SeatResult(1, 0, "lost")]
    for write in (lambda: store.record_action(running, last + 2, ALICE, "late", [], "{}", 1),
                  lambda: store.finish_game(running, results),
                  lambda: store.cancel_game(running)):
        with pytest.raises(NotDriven) as refused:
            await write()
        assert (refused.value.game_id, refused.value.shard_key) == (running, ELSEWHERE)
    after = await store.load_game(running, scope=EVERY_SERVER)
    assert (after.status, after.last_seq, len(after.events)) == ("running", last + 1, last + 1)
    store.drives = new
    await store.record_action(running, last + 2, ALICE, "the new process's move", [], "{}", 1)
    await store.finish_game(running, results)
    assert (await store.load_game(running, scope=EVERY_SERVER, with_events=False)).status == "finished"


async def test_only_a_guest_channel_of_that_server_is_claimed(store):
    await noted(store)
    games = {}
    for place in (SERVER, GROUP_DM, DM, STREET, OLD_STREET):
        games[place], _ = await play_game(store, place, "koikoi", [ALICE, BOB], ["alice", "bob"],
                                          finish=False)
    # a DM and a group DM are no server's; a member server is not a guest place; a channel
    # noted in another server stays there
    for place in (SERVER, GROUP_DM, DM, STREET):
        assert await store.claim_games(place, GUILD) == []
    assert await store.claim_games(OLD_STREET, ELSEWHERE) == [games[OLD_STREET]]
    keys = {place: (await store.load_game(game, scope=EVERY_SERVER, with_events=False)).shard_key
            for place, game in games.items()}
    assert keys == {SERVER: SERVER, GROUP_DM: None, DM: None, STREET: ELSEWHERE, OLD_STREET: ELSEWHERE}
    for scope, server in ((0, GUILD), (OLD_STREET, -1), ("5", GUILD)):
        with pytest.raises(InvalidInput):
            await store.claim_games(scope, server)


async def test_a_place_keeps_the_first_server_noted_and_gets_one_it_lacked(store):
    await store._db.transact(lambda conn: conn.execute(
        "INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, 'server', 1)", (OLD_STREET,)))
    await store.note_guest_place(OLD_STREET, "server", ELSEWHERE)  # its next table says where it is
    await store.note_guest_place(OLD_STREET, "server")
    await store.note_guest_place(OLD_STREET, "server", GUILD)  # an id never moves to another server
    assert await store.home_of(OLD_STREET) == ELSEWHERE


@pytest.mark.parametrize("server", [0, -1, "5"])
async def test_a_bad_server_is_refused(store, server):
    with pytest.raises(InvalidInput):
        await store.note_guest_place(STREET, "server", server)
    assert await store.home_of(STREET) == STREET
