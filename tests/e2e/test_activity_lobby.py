"""The lobby inside the Activity, through the stand-in: a page in a channel with no game picks a
game and plays the AI, or opens seats that another user of the same Activity takes; each start
goes the slash commands' way (stored, its deal committed, once)."""

from __future__ import annotations

import time

import pytest

from bot.config import Settings
from bot.fairness import commitment_of
from bot.games.descriptor import descriptors
from bot.store.lobbies import start_key
from bot.tables import HOME_ACTIVITY, AlreadyStarted
from tests.e2e.activity import activity_bot, joined
from tests.e2e.playing import table_messages

pytestmark = pytest.mark.asyncio


class PlayersPace:
    """The Activity server's clock here: every message arrives a quarter second after the last,
    as a player's do. These pages press the moment a turn is offered, which on a fast machine
    outruns the messages a second the server allows any page (its rate refusal answers no
    press by number, so a test waiting for the answer to that press would wait forever)."""

    def __init__(self, step: float = 0.25) -> None:
        self.now = time.monotonic()
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
async def lbot(start_bot, standin, world, tmp_path):
    """The bot with its Activity, dealing committed games as it does for players."""
    settings = Settings(token=standin.token, database_path=tmp_path / "bot.sqlite3",
                        dev_guild_id=world.guild.id, activity_port=0,
                        client_secret=standin.oauth.client_secret)
    bot = await start_bot(activity_bot(settings))
    bot.activity_server.clock = PlayersPace()
    bot.tables.ai_delay = 0.01
    await bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    return bot


def base(bot) -> str:
    return f"http://127.0.0.1:{bot.activity_server.port}"


async def lobby_of(page, want=lambda lobby: True, what="the lobby") -> dict:
    idle = await page.next(lambda m: m["type"] == "idle" and m["lobby"] and want(m["lobby"]), what)
    return idle["lobby"]


async def send(page, **message) -> dict:
    """A lobby message and the server's answer to it."""
    page.nonce += 1
    await page.send(n=page.nonce, **message)
    return await page.answer(page.nonce)


async def test_a_page_with_no_game_plays_the_ai_from_the_lobby(lbot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    page, _ = await joined(http, base(lbot), standin, world.admin, instance)
    watcher, _ = await joined(http, base(lbot), standin, world.player, instance)
    lobby = await lobby_of(page)
    assert [g["id"] for g in lobby["games"]] == [d.slug for d in descriptors()]
    assert {"id": "koikoi", "name": "Koi-Koi", "low": 2, "high": 2} in lobby["games"]
    assert [level["id"] for level in lobby["levels"]] == ["easy", "normal", "hard", "expert"]
    assert lobby["open"] is None
    # what the lobby refuses, with a sentence and nothing started
    for bad, code in (({"play": "chess", "level": "normal", "rounds": 1}, "lobby"),
                      ({"play": "koikoi", "level": "godlike", "rounds": 1}, "lobby"),
                      ({"play": "koikoi", "level": "normal", "rounds": 7}, "lobby")):
        answer = await send(page, type="ai", **bad)
        assert answer["type"] == "refused" and answer["code"] == code and answer["text"], bad
    assert (await send(page, type="sit"))["text"] == "No seats are open in this channel."
    assert not lbot.tables.tables
    # the AI, one round: the page plays it, the spectator's page shows it; it lives in the
    # Activity, so nothing is posted in the channel for it
    asked = len(standin.requests)
    assert (await send(page, type="ai", play="koikoi", level="normal", rounds=1))["type"] == "played"
    state = await page.state(lambda s: s["you"]["seat"] == 0, "the game against the AI")
    assert [p["name"] for p in state["players"]] == ["alice", "AI (normal)"]
    assert (await watcher.state())["you"]["seat"] is None
    table = lbot.tables.get(state["game"]["id"])
    assert table.channel_id == world.channel.id and table.match.rules.rounds == 1
    assert table.home == HOME_ACTIVITY
    record = await lbot.store.load_game(table.game_id, scope=world.guild.id)
    assert record.deal is not None and record.deal.commitment  # committed, as a command's game
    # a second start while it runs is refused
    answer = await send(page, type="ai", play="koikoi", level="easy", rounds=1)
    assert answer["text"] == "A game is running in this channel already."
    assert len(lbot.tables.tables) == 1
    assert (await send(page, type="lobby"))["text"] == ("This game is still running; the lobby "
                                                        "opens when it ends.")
    await play_to_the_end(page, state)
    await lbot.publisher.drain()
    assert not table_messages(standin, world.channel)  # no table, no round summary, no alert
    assert standin.requests[asked:] == []  # not one request to Discord for the whole game
    await send(page, type="lobby")  # New game: back to the lobby
    assert (await lobby_of(page, what="the lobby after the game"))["open"] is None


async def test_a_finished_game_against_the_ai_is_played_again_with_one_press(lbot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    page, _ = await joined(http, base(lbot), standin, world.admin, instance)
    watcher, _ = await joined(http, base(lbot), standin, world.player, instance)
    await lobby_of(page)
    await lbot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off", "rounds": 3})
    assert (await send(page, type="ai", play="koikoi", level="hard", rounds=0))["type"] == "played"
    first = await page.state(lambda s: s["you"]["seat"] == 0, "the game against the AI")
    assert first["again"] is False  # not while it runs
    assert (await send(page, type="again"))["text"] == "A game is running in this channel already."
    await lbot.tables.forfeit_by(first["game"]["id"], world.admin.id)
    over = await page.state(lambda s: s["game"]["over"] and s["again"], "the finished game")
    spectator = await watcher.state(lambda s: s["game"]["over"], "the finished game, watched")
    assert spectator["again"] is False  # the watcher did not play it
    assert (await send(watcher, type="again"))["text"].startswith("Only a finished game you played")
    # the house rules change between the games: the rematch keeps the first game's
    await lbot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off", "rounds": 6})
    assert (await send(page, type="again"))["type"] == "played"
    second = await page.state(lambda s: s["game"]["id"] != over["game"]["id"], "the game again")
    old, new = lbot.store, lbot.tables.get(second["game"]["id"])
    first_record = await old.load_game(first["game"]["id"], scope=world.guild.id)
    assert new.players == [world.admin.id, "ai:hard"] and new.game == "koikoi"
    assert new.match.rules.to_dict() == first_record.rules and new.match.rules.rounds == 3
    assert new.home == HOME_ACTIVITY and [p["name"] for p in second["players"]] == ["alice", "AI (hard)"]
    record = await lbot.store.load_game(new.game_id, scope=world.guild.id)
    assert record.deal is not None and record.deal.commitment != first_record.deal.commitment
    assert second["again"] is False and len(lbot.tables.tables) == 1
    assert over["result"]["series"] == ""  # the first game plays nothing again
    # a game started by a command is played again with the table's own Rematch, not here
    await lbot.tables.forfeit_by(new.game_id, world.admin.id)
    ended = await page.state(lambda s: s["game"]["over"] and s["game"]["id"] == new.game_id,
                             "the second, over")
    assert ended["result"]["series"] == "Series of 2 games: alice 0 · AI (hard) 2"  # two forfeits
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    command = await page.state(lambda s: s["game"]["id"] not in (first["game"]["id"], new.game_id)
                               and s["you"]["seat"] == 0, "the command's game")
    await lbot.tables.forfeit_by(command["game"]["id"], world.admin.id)
    ended = await page.state(lambda s: s["game"]["over"] and s["game"]["id"] == command["game"]["id"],
                             "the command's game, over")
    assert ended["again"] is False


async def play_to_the_end(page, state: dict) -> dict:
    """From ``state``, the newest the page has read, the page presses the first move offered
    each turn until the game is over."""
    while not state["game"]["over"]:
        seen = state["game"]["seq"]
        if state["moves"]:
            answer = await page.answer(await page.press(state))
            assert answer["type"] == "played" or "earlier turn" in answer["text"], answer
        state = await page.state(
            lambda s, p=seen: s["game"]["over"] or (s["moves"] and s["game"]["seq"] > p),
            f"a turn after move {seen} or the end")
    return state


async def test_seats_opened_in_the_activity_are_taken_by_a_friend_and_the_game_starts(
        lbot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    host, _ = await joined(http, base(lbot), standin, world.admin, instance)
    friend, _ = await joined(http, base(lbot), standin, world.player, instance)
    await lobby_of(friend)
    answer = await send(host, type="open", play="koikoi", seats=3, rounds=1)
    assert answer["text"] == "Koi-Koi is played by 2 to 2 players."
    assert (await send(host, type="open", play="koikoi", seats=2, rounds=1))["type"] == "played"
    seen = await lobby_of(friend, lambda lobby: lobby["open"], "the open seats")
    assert seen["open"]["taken"] == ["alice"] and seen["open"]["seats"] == 2
    assert not seen["open"]["mine"] and seen["open"]["text"] == "Koi-Koi: 1 of 2 seats taken"
    mine = await lobby_of(host, lambda lobby: lobby["open"], "the host's open seats")
    assert mine["open"]["mine"]
    assert (await send(host, type="sit"))["type"] == "refused"  # seated already
    assert (await send(host, type="open", play="koikoi", seats=2, rounds=0))["text"] == (
        "Seats are already open in this channel; take one of them.")
    # the last seat starts the game, through the stored lobby: committed, started once
    lobby_id = lbot.activity_server.lobbies.open[world.channel.id].lobby_id
    assert (await send(friend, type="sit"))["type"] == "played"
    theirs = await friend.state(lambda s: s["you"]["seat"] == 1, "the friend's seat")
    ours = await host.state(lambda s: s["you"]["seat"] == 0, "the host's seat")
    assert theirs["game"]["id"] == ours["game"]["id"]
    assert [p["name"] for p in ours["players"]] == ["alice", "bob"]
    lobby = await lbot.store.get_lobby(lobby_id)
    assert lobby.status == "started" and lobby.game_id == ours["game"]["id"]
    record = await lbot.store.load_game(ours["game"]["id"], scope=world.guild.id)
    assert record.deal.commitment == lobby.commitment != commitment_of("0" * 64)
    assert [i.role for i in record.deal.inputs] == ["join", "start"]
    with pytest.raises(AlreadyStarted):  # the lobby's start key holds its one game
        await lbot.tables.start(guild_id=world.guild.id, channel_id=world.channel.id, game="koikoi",
                                players=[world.admin.id, world.player.id], names=["a", "b"],
                                host_id=world.admin.id, rules=lbot.tables.get(record.game_id).match.rules,
                                stake=0, key=start_key(lobby_id))
    assert not lbot.activity_server.lobbies.open
    # the game over, each asks for a rematch: the first opens the same seats, for the two of
    # them alone, the second's takes the last one and starts the game again by the same rules,
    # though the house rules changed meanwhile
    await lbot.tables.forfeit_by(ours["game"]["id"], world.player.id)
    over = await host.state(lambda s: s["game"]["over"] and s["again"], "the host's finished game")
    assert over["result"]["achievements"] == "New achievements: alice: 🌱 First win"
    await friend.state(lambda s: s["game"]["over"] and s["again"], "the friend's finished game")
    await lbot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "win", "viewings": "never"})
    assert (await send(host, type="again"))["type"] == "played"
    waiting = await lobby_of(host, lambda lobby: lobby["open"], "the rematch's seats")
    assert waiting["open"]["mine"] and waiting["open"]["game"] == "koikoi" and waiting["open"]["seats"] == 2
    assert waiting["open"]["rematch"] and waiting["open"]["name"] == "Koi-Koi rematch"
    assert waiting["open"]["closed"] is None
    assert (await send(host, type="again"))["type"] == "refused"  # its page is at the lobby now
    # a member who did not play that game sees why they cannot sit, and is refused if they try
    standin.oauth.join_activity(instance, world.shy)
    outsider, _ = await joined(http, base(lbot), standin, world.shy, instance)
    theirs = await lobby_of(outsider, lambda lobby: lobby["open"], "the rematch's seats, from outside")
    assert theirs["open"]["closed"] == "These seats are for the players of the last game."
    assert (await send(outsider, type="sit"))["text"] == "These seats are for the players of the last game."
    assert (await send(friend, type="again"))["type"] == "played"
    again = await friend.state(lambda s: s["game"]["id"] != over["game"]["id"] and s["you"]["seat"] is not None,
                               "the rematch")
    table = lbot.tables.get(again["game"]["id"])
    assert sorted(table.players) == sorted([world.admin.id, world.player.id])
    first_record = await lbot.store.load_game(over["game"]["id"], scope=world.guild.id)
    assert table.match.rules.to_dict() == first_record.rules
    assert table.match.rules.rounds == 1 and table.match.rules.teyaku == "off"
    assert table.home == HOME_ACTIVITY
    assert (await host.state(lambda s: s["game"]["id"] == table.game_id, "the host's rematch"))["again"] is False
    assert not lbot.activity_server.lobbies.players  # nothing kept of seats no longer open


async def test_a_seat_is_given_up_and_the_hosts_giving_up_closes_the_seats(lbot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    host, _ = await joined(http, base(lbot), standin, world.admin, instance)
    friend, _ = await joined(http, base(lbot), standin, world.player, instance)
    await lobby_of(friend)
    assert (await send(host, type="open", play="sakura", seats=3, rounds=1))["type"] == "played"
    assert (await lobby_of(host, lambda lobby: lobby["open"], "the open seats"))["open"]["host"]
    assert (await send(friend, type="sit"))["type"] == "played"
    seated = await lobby_of(friend, lambda lobby: lobby["open"] and lobby["open"]["mine"], "the friend seated")
    assert not seated["open"]["host"] and seated["open"]["taken"] == ["alice", "bob"]
    assert (await send(friend, type="unseat"))["type"] == "played"
    left = await lobby_of(host, lambda lobby: lobby["open"] and lobby["open"]["taken"] == ["alice"],
                          "the seat given up")
    assert left["open"]["text"] == "Sakura (Higo-Bana): 1 of 3 seats taken"
    assert (await send(friend, type="unseat"))["text"] == "You are not in this lobby."
    lobby_id = lbot.activity_server.lobbies.open[world.channel.id].lobby_id
    assert (await send(host, type="unseat"))["type"] == "played"
    await lobby_of(friend, lambda lobby: lobby["open"] is None, "the seats closed")
    assert (await lbot.store.get_lobby(lobby_id)).status == "closed"
    assert (await send(host, type="unseat"))["text"] == "No seats are open in this channel."
    assert not lbot.tables.tables  # nothing started


async def test_where_the_app_is_a_guest_the_lobby_starts_games_kept_under_the_channel(
        lbot, standin, world, http):
    """A DM and a group DM (a user's own install): the lobby plays the AI and opens seats as in
    a server; the games are kept under the channel's id, apart from every server's, count in
    each player's own record, and cost Discord nothing."""
    bob = world.player
    instance = standin.oauth.open_activity(bob.dm_channel, bob)
    page, _ = await joined(http, base(lbot), standin, bob, instance)
    lobby = await lobby_of(page, what="the lobby in bob's DM")
    assert lobby["open"] is None and [g["id"] for g in lobby["games"]][0] == "koikoi"
    asked = len(standin.requests)
    answer = await send(page, type="ai", play="hana_awase", level="easy", rounds=1)
    assert answer["type"] == "played", answer
    state = await page.state(lambda s: s["you"]["seat"] == 0, "bob's game in his DM")
    table = lbot.tables.get(state["game"]["id"])
    dm = bob.dm_channel.id
    assert table.home == HOME_ACTIVITY and table.guild_id == table.channel_id == dm
    # noted as a guest place, its kind left for a command there to give (Discord says only
    # that the Activity runs in a private channel)
    kinds = await lbot.store._db.fetchall("SELECT scope_id, kind FROM guest_scopes")
    assert [tuple(row) for row in kinds] == [(dm, None)]
    rules = await lbot.store.load_game(table.game_id, scope=dm)
    assert rules.rules == lbot.tables.get(table.game_id).match.rules.to_dict()
    if not table.finished:  # else its deal decided the one-round match at once (a dealt yaku)
        await lbot.tables.forfeit_by(table.game_id, bob.id)
    await page.state(lambda s: s["game"]["over"], "the game over")
    assert (await lbot.store.guest_record(bob.id)).games == 1  # his own record counts it
    assert (await lbot.store.user_stats(world.guild.id, bob.id)).games == 0  # no server's does
    assert standin.requests[asked:] == []

    # a group DM: one opens seats, the other takes the last, and the game starts for both
    alice, carol = world.admin, world.shy
    group = standin.create_group_dm("friends", alice, carol)
    together = standin.oauth.open_activity(group, alice, carol)
    host, _ = await joined(http, base(lbot), standin, alice, together)
    friend, _ = await joined(http, base(lbot), standin, carol, together)
    await lobby_of(friend)
    assert (await send(host, type="open", play="koikoi", seats=2, rounds=1))["type"] == "played"
    await lobby_of(friend, lambda lobby: lobby["open"], "the seats open in the group DM")
    assert (await send(friend, type="sit"))["type"] == "played"
    ours = await host.state(lambda s: s["you"]["seat"] == 0, "the group DM's game")
    assert (await friend.state(lambda s: s["you"]["seat"] == 1, "carol's seat"))["game"]["id"] == ours["game"]["id"]
    game = lbot.tables.get(ours["game"]["id"])
    assert game.guild_id == group.id and game.home == HOME_ACTIVITY
    record = await lbot.store.load_game(game.game_id, scope=group.id)
    assert [i.role for i in record.deal.inputs] == ["join", "start"]  # a stored lobby's deal


async def test_seats_open_in_the_activity_stay_open_through_a_restart(start_bot, standin, world,
                                                                       tmp_path, http):
    db = tmp_path / "restart.sqlite3"

    def settings(port: int) -> Settings:
        return Settings(token=standin.token, database_path=db, dev_guild_id=world.guild.id,
                        activity_port=port, client_secret=standin.oauth.client_secret)

    first = await start_bot(activity_bot(settings(0)))
    # A one-round match dealt a hand yaku would be over before its table could be looked at.
    await first.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    host, _ = await joined(http, base(first), standin, world.admin, instance)
    await lobby_of(host)
    assert (await send(host, type="open", play="koikoi", seats=2, rounds=1))["type"] == "played"
    await lobby_of(host, lambda lobby: lobby["open"], "the open seats")
    port = first.activity_server.port
    await first.close()
    assert await host.closed() == 1012

    second = await start_bot(activity_bot(settings(port)))
    second.tables.ai_delay = 0.01
    host, _ = await joined(http, base(second), standin, world.admin, instance)  # it comes back
    friend, _ = await joined(http, base(second), standin, world.player, instance)
    seen = await lobby_of(friend, lambda lobby: lobby["open"], "the seats opened before the restart")
    assert seen["open"]["taken"] == ["alice"] and seen["open"]["seats"] == 2
    assert (await send(friend, type="sit"))["type"] == "played"
    ours = await host.state(lambda s: s["you"]["seat"] == 0, "the host's seat")
    assert [p["name"] for p in ours["players"]] == ["alice", "bob"]
    assert second.tables.get(ours["game"]["id"]).home == HOME_ACTIVITY
