"""Rematches in the store: one live rematch per finished game, each human confirms once, and of
any number of confirmations exactly one moves it open -> starting."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

import pytest

from bot.store import EVERY_SERVER, InvalidInput, SeatResult, Store
from bot.store.db import apply_migrations, load_migrations
from bot.store.lobbies import LobbyAlreadyStarted, LobbyExpired, LobbyNotOpen, LobbyRefused

from .conftest import ALICE, BOB, CAROL, GUILD
from .refusals import refused

CHANNEL = 55


async def _finished(store, players=(ALICE, BOB), stake=0, status="finished"):
    game = await store.create_game(GUILD, CHANNEL, "koikoi", rules={"preset": "nintendo"},
                                   players=list(players), seed=7, state_json="{}", state_version=1,
                                   stake=stake)
    if status == "finished":
        await store.finish_game(game.game_id, [SeatResult(s, 10 - s, "won" if s == 0 else "lost")
                                               for s in range(len(players))])
    elif status == "cancelled":
        await store.cancel_game(game.game_id)
    return game.game_id


def _ask(store, clock, game_id, user, seconds=300, ais=()):
    return store.request_rematch(game_id, user, game="koikoi", stake=5, seats=2, ais=list(ais),
                                 channel_id=CHANNEL, rounds=3, preset="nintendo",
                                 expires_at=clock.now + seconds)


async def test_each_player_confirms_and_the_last_one_starts(funded, clock):
    gid = await _finished(funded)
    lobby, step = await _ask(funded, clock, gid, ALICE)
    assert step == "created" and lobby.kind == "rematch" and lobby.status == "open"
    assert (lobby.humans, lobby.source_game_id, lobby.host_id) == ((ALICE,), gid, ALICE)
    assert (lobby.stake, lobby.rounds, lobby.preset, lobby.max_seats) == (5, 3, "nintendo", 2)
    again, step = await _ask(funded, clock, gid, ALICE)
    assert step == "waiting" and again.lobby_id == lobby.lobby_id and again.humans == (ALICE,)
    started, step = await _ask(funded, clock, gid, BOB)
    assert step == "start" and started.status == "starting" and set(started.humans) == {ALICE, BOB}
    with pytest.raises(LobbyAlreadyStarted):
        await _ask(funded, clock, gid, BOB)


async def test_only_players_of_a_finished_game_may_ask(funded, clock):
    gid = await _finished(funded)
    with refused(LobbyRefused, "Only the players"):
        await _ask(funded, clock, gid, CAROL)
    for status in ("running", "cancelled"):
        other = await _finished(funded, status=status)
        with refused(LobbyRefused, "finished match"):
            await _ask(funded, clock, other, ALICE)
    with pytest.raises(LobbyNotOpen):
        await _ask(funded, clock, 10**9, ALICE)


async def test_twenty_concurrent_confirmations_start_once(funded, clock):
    gid = await _finished(funded)
    results = await asyncio.gather(*(_ask(funded, clock, gid, user) for user in [ALICE, BOB] * 10),
                                   return_exceptions=True)
    steps = [r[1] for r in results if not isinstance(r, BaseException)]
    assert steps.count("start") == 1 and steps.count("created") == 1
    assert all(isinstance(r, LobbyAlreadyStarted) for r in results if isinstance(r, BaseException))
    rows = await funded._db.fetchall("SELECT count(*) FROM lobbies WHERE source_game_id = ?", (gid,))
    assert rows[0][0] == 1


async def test_an_ai_game_starts_at_the_first_press(funded, clock):
    gid = await _finished(funded, players=(ALICE, "ai:easy"))
    lobby, step = await _ask(funded, clock, gid, ALICE, ais=["easy"])
    assert step == "start" and lobby.status == "starting" and lobby.ais == ("easy",)


async def test_an_expired_rematch_makes_room_for_a_new_one(funded, clock):
    gid = await _finished(funded)
    first, _ = await _ask(funded, clock, gid, ALICE, seconds=10)
    clock.advance(11)
    with pytest.raises(LobbyExpired):
        await _ask(funded, clock, gid, BOB)
    assert (await funded.expire_lobby(first.lobby_id)).status == "expired"
    second, step = await _ask(funded, clock, gid, BOB)
    assert step == "created" and second.lobby_id != first.lobby_id and second.humans == (BOB,)


async def test_a_failed_start_takes_back_the_last_confirmation(funded, clock):
    gid = await _finished(funded)
    await _ask(funded, clock, gid, ALICE)
    lobby, step = await _ask(funded, clock, gid, BOB)
    assert step == "start"
    reopened = await funded.settle_lobby_start(lobby.lobby_id)
    assert reopened.status == "open" and reopened.humans == (ALICE,)
    _, step = await _ask(funded, clock, gid, BOB)
    assert step == "start"


async def test_a_player_declines_and_others_cannot(funded, clock):
    gid = await _finished(funded)
    lobby, _ = await _ask(funded, clock, gid, ALICE)
    with pytest.raises(LobbyRefused):
        await funded.decline_rematch(lobby.lobby_id, CAROL)
    closed = await funded.decline_rematch(lobby.lobby_id, BOB)
    assert closed.status == "closed"
    with pytest.raises(LobbyNotOpen):
        await funded.decline_rematch(lobby.lobby_id, BOB)
    assert [c.kind for c in await funded.open_challenges()] == []
    fresh, step = await _ask(funded, clock, gid, BOB)
    assert step == "created" and [c.lobby_id for c in await funded.open_challenges()] == [fresh.lobby_id]


async def test_an_answer_confirms_its_own_rematch_or_none(funded, clock):
    gid = await _finished(funded)
    first, _ = await _ask(funded, clock, gid, ALICE, seconds=10)
    await funded.decline_rematch(first.lobby_id, BOB)
    second, _ = await _ask(funded, clock, gid, ALICE)
    with pytest.raises(LobbyNotOpen):  # Accept on the declined request's message
        await funded.request_rematch(gid, BOB, game="koikoi", stake=5, seats=2, ais=[],
                                     channel_id=CHANNEL, expires_at=clock.now + 300,
                                     answering=first.lobby_id)
    _, step = await funded.request_rematch(gid, BOB, game="koikoi", stake=5, seats=2, ais=[],
                                           channel_id=CHANNEL, expires_at=clock.now + 300,
                                           answering=second.lobby_id)
    assert step == "start"


async def test_lobbies_of_version_4_survive_the_upgrade(tmp_path):
    path = tmp_path / "v4.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        assert apply_migrations(conn, load_migrations(), upto=4) == 4
        conn.execute("INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, opponent_id, "
                     "game, stake, min_seats, max_seats, humans, expires_at, created_at, updated_at) "
                     "VALUES ('abcdefghijklmnopqrst', 'challenge', 1, 2, 3, 4, 'koikoi', 5, 2, 2, "
                     "'[3]', 99000, 1, 1)")
    async with await Store.open(path) as store:
        lobby = await store.get_lobby("abcdefghijklmnopqrst")
        assert (lobby.kind, lobby.opponent_id, lobby.stake, lobby.humans) == ("challenge", 4, 5, (3,))
        assert lobby.source_game_id is None and lobby.expires_at == 99.0


async def test_each_confirmation_counts_the_rematch_revision(funded, clock):
    gid = await _finished(funded, players=(ALICE, BOB, CAROL))
    asked, step = await funded.request_rematch(gid, ALICE, game="koikoi", stake=5, seats=3, ais=[],
                                               channel_id=CHANNEL, expires_at=clock.now + 300,
                                               press=1_200_000_000_000_000_007)
    assert step == "created" and asked.revision == 1  # created with its asker confirmed
    assert asked.origin_id == 1_200_000_000_000_000_007  # the Rematch press that posts its message
    await funded.set_lobby_message(asked.lobby_id, 5001, shown=asked.revision)
    assert await funded.unshown_lobbies() == []
    confirmed, step = await _ask(funded, clock, gid, BOB)
    assert step == "confirmed" and confirmed.revision == 2
    assert [found.lobby_id for found in await funded.unshown_lobbies()] == [asked.lobby_id]
    declined = await funded.decline_rematch(asked.lobby_id, CAROL)
    assert declined.status == "closed" and declined.revision == 3


async def test_seats_that_replay_a_game_are_for_its_players_alone(funded):
    """Seats opened to play a finished game again (an Activity's Rematch among members): its
    players open and take them, nobody else; the game must be this server's and finished."""
    gid = await _finished(funded, players=(ALICE, BOB))

    def open_(host, game_id=gid, guild=GUILD, kind="lobby"):
        return funded.create_lobby(kind, guild, CHANNEL, host, game="koikoi", min_seats=2, max_seats=2,
                                   replays_game_id=game_id,
                                   opponent_id=BOB if kind == "challenge" else None)

    with refused(LobbyRefused, "Only the players"):
        await open_(CAROL)
    with pytest.raises(LobbyNotOpen):  # another server's game is as if missing
        await open_(ALICE, guild=GUILD + 1)
    with pytest.raises(LobbyNotOpen):
        await open_(ALICE, game_id=10**9)
    with refused(LobbyRefused, "finished match"):
        await open_(ALICE, game_id=await _finished(funded, status="running"))
    with pytest.raises(InvalidInput):
        await open_(ALICE, kind="challenge")
    lobby = await open_(ALICE)
    assert (lobby.kind, lobby.replays_game_id, lobby.source_game_id, lobby.humans) == ("lobby", gid, None, (ALICE,))
    assert (await funded.get_lobby(lobby.lobby_id)).replays_game_id == gid
    with refused(LobbyRefused, "the players of the last game"):
        await funded.join_lobby(lobby.lobby_id, CAROL)
    with refused(LobbyRefused, "the players of the last game"):  # no AI takes a player's seat
        await funded.add_lobby_ai(lobby.lobby_id, ALICE, "easy")
    full = await funded.join_lobby(lobby.lobby_id, BOB)
    assert full.humans == (ALICE, BOB) and full.replays_game_id == gid
    # an ordinary lobby still seats anyone
    other = await funded.create_lobby("lobby", GUILD, CHANNEL, ALICE, game="koikoi", min_seats=2, max_seats=2)
    assert other.replays_game_id is None
    assert (await funded.join_lobby(other.lobby_id, CAROL)).humans == (ALICE, CAROL)


async def _replay(store, before, players, outcomes, game="koikoi"):
    """A game playing ``before`` again, finished with each seat's outcome."""
    g = await store.create_game(GUILD, CHANNEL, game, rules={}, players=list(players), seed=1,
                                state_json="{}", state_version=1, replays=before)
    return await store.finish_game(g.game_id, [SeatResult(s, 1, o) for s, o in enumerate(outcomes)])


async def test_a_series_of_rematches_is_tallied_on_each_end(funded):
    first = await _finished(funded)  # alice won
    assert (await funded.ended_outcome(first)).series is None  # it plays nothing again
    second = await _replay(funded, first, [ALICE, BOB], ["lost", "won"])
    assert (second.series.games, second.series.wins, second.series.draws) == (2, {ALICE: 1, BOB: 1}, 0)
    record = await funded.load_game(second.game_id, scope=EVERY_SERVER, with_events=False)
    assert record.replays_game_id == first  # what the export names
    third = await _replay(funded, second.game_id, [ALICE, BOB], ["draw", "draw"])
    assert (third.series.games, third.series.wins, third.series.draws) == (3, {ALICE: 1, BOB: 1}, 1)
    fourth = await _replay(funded, third.game_id, [ALICE, BOB], ["won", "lost"])
    assert fourth.series.wins == {ALICE: 2, BOB: 1} and fourth.series.games == 4
    # a restart reads the same tally to show the final table again; the second keeps its own
    assert (await funded.ended_outcome(fourth.game_id)).series == fourth.series
    assert (await funded.ended_outcome(second.game_id)).series.games == 2


async def test_a_series_against_the_ai_counts_its_wins(funded):
    first = await _finished(funded, players=(CAROL, "ai:normal"))  # carol won
    lost = await _replay(funded, first, [CAROL, "ai:normal"], ["lost", "won"])
    assert (lost.series.wins, lost.series.draws) == ({CAROL: 1, "ai": 1}, 0)
    # a cancelled game in the chain links it and counts in no tally
    cancelled = await _finished(funded, players=(CAROL, "ai:normal"), status="cancelled")
    again = await _replay(funded, cancelled, [CAROL, "ai:normal"], ["won", "lost"])
    assert again.series is None  # the cancelled game alone before it: no series of two
    more = await _replay(funded, again.game_id, [CAROL, "ai:normal"], ["won", "lost"])
    assert (more.series.games, more.series.wins) == (2, {CAROL: 2})


async def test_only_an_ended_game_of_the_server_and_game_is_played_again(funded):
    running = await funded.create_game(GUILD, CHANNEL, "koikoi", rules={}, players=[ALICE, BOB],
                                       seed=1, state_json="{}", state_version=1)
    done = await _finished(funded)
    for before, guild, game in ((running.game_id, GUILD, "koikoi"), (done, GUILD + 1, "koikoi"),
                                (done, GUILD, "gostop"), (10**9, GUILD, "koikoi")):
        with refused(InvalidInput, "played again only once it has ended"):
            await funded.create_game(guild, CHANNEL, game, rules={}, players=[ALICE, BOB], seed=1,
                                     state_json="{}", state_version=1, replays=before)
