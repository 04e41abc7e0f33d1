"""Lobbies and challenges in the store: one transaction per change, one winner per start."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import InvalidInput, Store
from bot.store.lobbies import (
    LobbyAlreadyStarted,
    LobbyExpired,
    LobbyNotOpen,
    LobbyRefused,
    is_lobby_id,
    start_key,
)

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD, OTHER_GUILD
from .refusals import refused

CHANNEL = 77


async def _lobby(store, *, max_seats=7, min_seats=2, **kw):
    return await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="sakura",
                                    min_seats=min_seats, max_seats=max_seats, **kw)


async def _challenge(store, clock, seconds=300, **kw):
    return await store.create_lobby("challenge", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                    max_seats=2, opponent_id=BOB,
                                    expires_at=clock.now + seconds, **kw)


async def test_a_new_lobby_seats_its_host_under_an_unguessable_id(store):
    lobby = await _lobby(store, stake=5, rounds=3, preset="seed", teams="pairs")
    assert is_lobby_id(lobby.lobby_id) and len(lobby.lobby_id) >= 20
    again = await store.get_lobby(lobby.lobby_id)
    assert again == lobby
    assert (lobby.humans, lobby.ais, lobby.status) == ((ALICE,), (), "open")
    assert (lobby.stake, lobby.rounds, lobby.preset, lobby.teams) == (5, 3, "seed", "pairs")
    other = await _lobby(store)
    assert other.lobby_id != lobby.lobby_id


async def test_a_lobby_keeps_its_own_game_options(store):
    lobby = await store.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="seotda", min_seats=2,
                                     max_seats=6, stake=200, options={"ante": 7, "max_raises": 2})
    assert (await store.get_lobby(lobby.lobby_id)).options == {"ante": 7, "max_raises": 2}
    joined = await store.join_lobby(lobby.lobby_id, BOB)
    assert joined.options == {"ante": 7, "max_raises": 2}
    assert (await _lobby(store)).options == {}
    for bad in ({"ante": "7"}, {"ante": 1.5}, {"ante": True}, {"": 1}, {f"o{i}": 1 for i in range(9)}):
        with refused(InvalidInput, "options"):
            await store.create_lobby("lobby", GUILD, CHANNEL, CAROL, game="seotda", min_seats=2,
                                     max_seats=6, options=bad)


@pytest.mark.parametrize("forged", ["", "koikoi:11:1:500:0:-", "x" * 200, "a/b" * 8, "nope-but-long-enough"])
async def test_unknown_or_malformed_ids_find_nothing(store, forged):
    assert await store.get_lobby(forged) is None
    with refused(LobbyNotOpen, "no longer open"):
        await store.join_lobby(forged, BOB)
    with pytest.raises(LobbyNotOpen):
        await store.begin_lobby_start(forged, ALICE)


async def test_bad_lobby_input_is_refused(store):
    with pytest.raises(InvalidInput):
        await store.create_lobby("party", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2, max_seats=2)
    with pytest.raises(InvalidInput):
        await store.create_lobby("challenge", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2, max_seats=2)
    with pytest.raises(InvalidInput):
        await store.create_lobby("challenge", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2,
                                 max_seats=2, opponent_id=ALICE)
    with pytest.raises(InvalidInput):
        await _lobby(store, preset="p" * 33)
    with pytest.raises(InvalidInput):
        await _lobby(store, min_seats=3, max_seats=2)
    for origin in (0, -5, "123", 2**64):
        with pytest.raises(InvalidInput):
            await _lobby(store, origin_id=origin)


async def test_a_lobby_keeps_the_interaction_that_posted_its_message(store):
    lobby = await _lobby(store, origin_id=1_200_000_000_000_000_001)
    assert (await store.get_lobby(lobby.lobby_id)).origin_id == 1_200_000_000_000_000_001
    assert (await _lobby(store)).origin_id is None  # opened from an Activity's page: no message


async def test_members_joining_at_once_are_all_seated_up_to_the_limit(store):
    lobby = await _lobby(store, max_seats=4)
    users = list(range(100, 110))
    results = await asyncio.gather(*(store.join_lobby(lobby.lobby_id, u) for u in users),
                                   return_exceptions=True)
    seated = [u for u, r in zip(users, results, strict=True) if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(seated) == 3 and all(isinstance(r, LobbyRefused) and "full" in str(r) for r in refused)
    final = await store.get_lobby(lobby.lobby_id)
    # seated in the order their joins committed (on PostgreSQL not always the order of gather)
    assert final.humans[0] == ALICE and sorted(final.humans[1:]) == seated


async def test_join_leave_and_ai_rules(store):
    lobby = await _lobby(store, max_seats=3)
    await store.join_lobby(lobby.lobby_id, BOB)
    with refused(LobbyRefused, "already in"):
        await store.join_lobby(lobby.lobby_id, BOB)
    with refused(LobbyRefused, "host cannot leave"):
        await store.leave_lobby(lobby.lobby_id, ALICE)
    with refused(LobbyRefused, "not in this lobby"):
        await store.leave_lobby(lobby.lobby_id, CAROL)
    with refused(LobbyRefused, "Only the host"):
        await store.add_lobby_ai(lobby.lobby_id, BOB, "easy")
    full = await store.add_lobby_ai(lobby.lobby_id, ALICE, "hard")
    assert full.ais == ("hard",) and full.seats == 3
    with refused(LobbyRefused, "full"):
        await store.join_lobby(lobby.lobby_id, CAROL)
    left = await store.leave_lobby(lobby.lobby_id, BOB)
    assert left.humans == (ALICE,)


async def test_of_twenty_presses_exactly_one_starts(store):
    lobby = await _lobby(store)
    await store.join_lobby(lobby.lobby_id, BOB)
    results = await asyncio.gather(*(store.begin_lobby_start(lobby.lobby_id, ALICE) for _ in range(20)),
                                   return_exceptions=True)
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1 and winners[0].status == "starting"
    assert all(isinstance(r, LobbyAlreadyStarted) for r in results if r not in winners)
    with refused(LobbyAlreadyStarted, "already started"):
        await store.join_lobby(lobby.lobby_id, CAROL)


async def test_only_the_host_starts_a_lobby_with_enough_players(store):
    lobby = await _lobby(store)
    with refused(LobbyRefused, "at least 2"):
        await store.begin_lobby_start(lobby.lobby_id, ALICE)
    await store.join_lobby(lobby.lobby_id, BOB)
    with refused(LobbyRefused, "Only the host"):
        await store.begin_lobby_start(lobby.lobby_id, BOB)
    assert (await store.get_lobby(lobby.lobby_id)).status == "open"


async def test_a_failed_start_reopens_the_lobby(store):
    lobby = await _lobby(store)
    await store.join_lobby(lobby.lobby_id, BOB)
    await store.begin_lobby_start(lobby.lobby_id, ALICE)
    settled = await store.settle_lobby_start(lobby.lobby_id)
    assert settled.status == "open" and settled.game_id is None and settled.humans == (ALICE, BOB)
    assert (await store.begin_lobby_start(lobby.lobby_id, ALICE)).status == "starting"


async def _game_for(store, lobby):
    return await store.create_game(GUILD, CHANNEL, lobby.game, rules={}, players=list(lobby.humans),
                                   seed=1, state_json="{}", state_version=1,
                                   key=start_key(lobby.lobby_id))


async def test_recovery_after_a_crash_mid_start(store, tmp_path, clock):
    started = await _lobby(store)
    await store.join_lobby(started.lobby_id, BOB)
    lost = await _lobby(store)
    await store.join_lobby(lost.lobby_id, CAROL)
    for lobby in (started, lost):
        await store.begin_lobby_start(lobby.lobby_id, ALICE)
    game = await _game_for(store, await store.get_lobby(started.lobby_id))  # the crash came after this
    path = store.path
    await store.close()
    reopened = await Store.open(path, clock=clock)
    try:
        settled = {lb.lobby_id: lb for lb in await reopened.recover_lobbies()}
        assert settled[started.lobby_id].status == "started"
        assert settled[started.lobby_id].game_id == game.game_id
        assert settled[lost.lobby_id].status == "open"
        assert await reopened.recover_lobbies() == []
        # the retried start finds the game its key already created: still one game
        again = await _game_for(reopened, settled[started.lobby_id])
        assert again.game_id == game.game_id
    finally:
        await reopened.close()


async def test_a_challenge_is_accepted_by_its_opponent_before_it_expires(store, clock):
    challenge = await _challenge(store, clock)
    assert challenge.humans == (ALICE,) and challenge.opponent_id == BOB
    with refused(LobbyRefused, "not for you"):
        await store.begin_lobby_start(challenge.lobby_id, CAROL)
    with refused(LobbyRefused, "not for you"):
        await store.close_lobby(challenge.lobby_id, ALICE)
    with pytest.raises(LobbyRefused):
        await store.join_lobby(challenge.lobby_id, DAVE)
    accepted = await store.begin_lobby_start(challenge.lobby_id, BOB)
    assert accepted.humans == (ALICE, BOB)
    reopened = await store.settle_lobby_start(challenge.lobby_id)
    assert reopened.humans == (ALICE,) and reopened.status == "open"


async def test_an_expired_challenge_refuses_and_is_marked_expired(store, clock):
    challenge = await _challenge(store, clock, seconds=10)
    assert await store.expire_lobby(challenge.lobby_id) is None  # not yet
    clock.advance(10)
    with refused(LobbyExpired, "expired"):
        await store.begin_lobby_start(challenge.lobby_id, BOB)
    assert [c.lobby_id for c in await store.open_challenges()] == [challenge.lobby_id]
    expired = await store.expire_lobby(challenge.lobby_id)
    assert expired.status == "expired"
    assert await store.expire_lobby(challenge.lobby_id) is None
    assert await store.open_challenges() == []
    with refused(LobbyNotOpen, "no longer open"):
        await store.close_lobby(challenge.lobby_id, BOB)


async def test_cancel_and_decline_close_once(store, clock):
    lobby = await _lobby(store)
    with refused(LobbyRefused, "Only the host"):
        await store.close_lobby(lobby.lobby_id, BOB)
    assert (await store.close_lobby(lobby.lobby_id, ALICE)).status == "closed"
    with pytest.raises(LobbyNotOpen):
        await store.close_lobby(lobby.lobby_id, ALICE)
    challenge = await _challenge(store, clock)
    assert (await store.close_lobby(challenge.lobby_id, BOB)).status == "closed"
    with pytest.raises(LobbyNotOpen):
        await store.begin_lobby_start(challenge.lobby_id, BOB)


async def test_the_bot_withdraws_a_lobby_or_challenge_nobody_was_shown(store, clock):
    lobby, challenge = await _lobby(store), await _challenge(store, clock)
    for each in (lobby, challenge):  # whoever hosts it, and however it would be closed by hand
        withdrawn = await store.withdraw_lobby(each.lobby_id)
        assert withdrawn.status == "closed" and withdrawn.revision == each.revision + 1
        with pytest.raises(LobbyNotOpen):
            await store.withdraw_lobby(each.lobby_id)
    started = await _lobby(store)
    await store.join_lobby(started.lobby_id, BOB)
    await store.begin_lobby_start(started.lobby_id, ALICE)
    with pytest.raises(LobbyAlreadyStarted):
        await store.withdraw_lobby(started.lobby_id)
    with pytest.raises(LobbyNotOpen):
        await store.withdraw_lobby("no-such-lobby")


async def test_finish_start_records_the_game(store):
    lobby = await _lobby(store)
    await store.join_lobby(lobby.lobby_id, BOB)
    starting = await store.begin_lobby_start(lobby.lobby_id, ALICE)
    game = await _game_for(store, starting)
    done = await store.finish_lobby_start(lobby.lobby_id, game.game_id)
    assert (done.status, done.game_id) == ("started", game.game_id)
    assert (await store.settle_lobby_start(lobby.lobby_id)).status == "started"
    await store.set_lobby_message(lobby.lobby_id, 4242)
    assert (await store.get_lobby(lobby.lobby_id)).message_id == 4242


async def test_recovery_settles_only_the_lobbies_of_its_own_guilds(store):
    """A sharded bot's process settles its own guilds' half-started lobbies: another process may
    be starting its own at this very moment."""
    mine = await _lobby(store)
    theirs = await store.create_lobby("lobby", OTHER_GUILD, CHANNEL, CAROL, game="sakura",
                                      min_seats=2, max_seats=7)
    await store.join_lobby(mine.lobby_id, BOB)
    await store.join_lobby(theirs.lobby_id, DAVE)
    await store.begin_lobby_start(mine.lobby_id, ALICE)
    await store.begin_lobby_start(theirs.lobby_id, CAROL)
    settled = await store.recover_lobbies(lambda guild_id: guild_id == GUILD)
    assert [lobby.lobby_id for lobby in settled] == [mine.lobby_id]
    assert (await store.get_lobby(theirs.lobby_id)).status == "starting"  # left to its process


async def test_every_change_counts_the_revision_its_message_must_show(store, clock):
    """Each change of a lobby counts its revision up, and the lobbies whose message shows an older
    revision are found at start; noting the message shown never goes back."""
    lobby = await _lobby(store, max_seats=4)
    assert lobby.revision == 0
    await store.set_lobby_message(lobby.lobby_id, 4001, shown=lobby.revision)
    assert await store.unshown_lobbies() == []
    revisions = [(await store.join_lobby(lobby.lobby_id, BOB)).revision,
                 (await store.add_lobby_ai(lobby.lobby_id, ALICE, "easy")).revision,
                 (await store.leave_lobby(lobby.lobby_id, BOB)).revision]
    assert revisions == [1, 2, 3]
    assert [found.lobby_id for found in await store.unshown_lobbies()] == [lobby.lobby_id]
    await store.lobby_shown(lobby.lobby_id, 3)
    await store.lobby_shown(lobby.lobby_id, 2)  # an older edit that finished late
    assert await store.unshown_lobbies() == []

    await store.join_lobby(lobby.lobby_id, CAROL)
    starting = await store.begin_lobby_start(lobby.lobby_id, ALICE)
    assert starting.revision == 5 and await store.unshown_lobbies() == []  # its start shows it
    game = await _game_for(store, starting)
    started = await store.finish_lobby_start(lobby.lobby_id, game.game_id)
    again = await store.finish_lobby_start(lobby.lobby_id, game.game_id)
    assert started.revision == again.revision == 6  # finishing twice changes nothing shown
    assert [found.revision for found in await store.unshown_lobbies()] == [6]
    await store.lobby_shown(lobby.lobby_id, 6)

    challenge = await _challenge(store, clock, seconds=10)
    declined = await _challenge(store, clock)
    cancelled = await _lobby(store)
    for each in (challenge, declined, cancelled):
        await store.set_lobby_message(each.lobby_id, 4100 + each.revision)
    clock.advance(10)
    assert (await store.expire_lobby(challenge.lobby_id)).revision == 1
    assert (await store.close_lobby(declined.lobby_id, BOB)).revision == 1
    assert (await store.close_lobby(cancelled.lobby_id, ALICE)).revision == 1
    assert {found.lobby_id for found in await store.unshown_lobbies()} == {
        challenge.lobby_id, declined.lobby_id, cancelled.lobby_id}
    # only those with a message, and of the servers the process owns
    silent = await _lobby(store)
    await store.join_lobby(silent.lobby_id, BOB)
    assert await store.unshown_lobbies(lambda guild_id: guild_id != GUILD) == []


async def test_a_crash_mid_start_or_a_guest_lobby_is_not_drawn_as_the_bot(store):
    """A lobby being started shows it once the start settles; a guest's lobby (kept under its
    channel's id) has a message only its own press could edit."""
    lobby = await _lobby(store)
    await store.set_lobby_message(lobby.lobby_id, 4200)
    await store.join_lobby(lobby.lobby_id, BOB)
    await store.lobby_shown(lobby.lobby_id, 1)
    await store.begin_lobby_start(lobby.lobby_id, ALICE)
    assert await store.unshown_lobbies() == []
    [settled] = await store.recover_lobbies()
    assert settled.status == "open" and settled.revision == 3
    assert [found.lobby_id for found in await store.unshown_lobbies()] == [lobby.lobby_id]

    guest = await store.create_lobby("lobby", CHANNEL, CHANNEL, CAROL, game="sakura", min_seats=2,
                                     max_seats=7)
    await store.set_lobby_message(guest.lobby_id, 4201)
    await store.join_lobby(guest.lobby_id, DAVE)
    assert [found.lobby_id for found in await store.unshown_lobbies()] == [lobby.lobby_id]
