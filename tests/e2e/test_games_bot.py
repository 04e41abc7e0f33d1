"""Every game besides Koi-Koi, played end to end by the real bot against the Discord stand-in:
Go-Stop with three users, Sakura with five players and with teams, Mushi, Hana-Awase, and First
Bloom with four users and its Slap! race."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.settlement import ESCROW_POINTS
from bot.store import EVERY_SERVER
from bot.tables import TableError
from tests.e2e.playing import play_out, reply_text, said, small_print, table_messages, table_posted
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "g.sqlite3",
                                               dev_guild_id=world.guild.id)))
    bot.tables.ai_delay = 0.01
    return bot


@pytest.fixture
def dave(standin, world):
    user = standin.create_user("dave")
    standin.add_member(world.guild, user)
    return user


def cid(message, prefix):
    return next(c for c in message.custom_ids() if c.startswith(prefix))


async def open_lobby(world, standin, game, joiners, ais=(), **options):
    """The admin opens a lobby, ``joiners`` join, the host adds ``ais`` and starts it."""
    record = await world.admin.slash(world.channel, game, **options)
    lobby = record.original
    for user in joiners:
        await user.click(lobby, cid(lobby, "hf:lb:join:"))
    for level in ais:
        await world.admin.select(lobby, cid(lobby, "hf:lbai:"), [level])
    started = await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    # the reply follows the table and the hands, which may take longer than the settle
    await standin.wait_until(lambda: "game is on" in reply_text(started), timeout=10)
    await table_posted(standin, world.channel)
    return lobby


async def test_gostop_three_users_with_a_stake_per_point(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    users = [world.admin, world.player, world.shy]
    before = {u.id: (await store.open_account(guild, u.id))[0] for u in users}
    await open_lobby(world, standin, "gostop", [world.player, world.shy], rounds=1, stake=2)
    table = next(iter(hbot.tables.tables.values()))
    assert table.game == "gostop" and len(table.players) == 3
    for u in users:  # escrow: 30 points' worth at 2 chips a point
        assert await store.balance(guild, u.id) == before[u.id] - 2 * ESCROW_POINTS
    first = table_messages(standin, world.channel)[0]
    assert "per point" in small_print(first)
    await play_out(standin, world.channel, users)
    game = await store.load_game(table.game_id, scope=EVERY_SERVER)
    scores = table.match.scores
    after = {u.id: await store.balance(guild, u.id) for u in users}
    change = [after[p] - before[p] for p in table.players]
    assert sum(change) == 0 and sum(scores) == 0
    for seat, points in enumerate(scores):
        if points <= 0:  # a loser pays 2 chips a point, never more than the escrow
            assert change[seat] == max(2 * points, -2 * ESCROW_POINTS)
        else:  # a winner collects at most 2 chips a point
            assert 0 <= change[seat] <= 2 * points
    assert game.status == "finished" and (await store.audit()).ok
    assert all("hand.png" not in m.files for m in standin.channel_messages(world.channel))


async def test_sakura_five_players_with_ai_levels_in_their_names(hbot, standin, world):
    await open_lobby(world, standin, "sakura", [world.player], ais=["easy", "normal", "normal"], rounds=1)
    table = next(iter(hbot.tables.tables.values()))
    assert len(table.players) == 5
    assert table.names[2:] == ["AI (easy)", "AI 1 (normal)", "AI 2 (normal)"]
    assert table.players[2:] == ["ai:easy", "ai:normal", "ai:normal"]
    await play_out(standin, world.channel, [world.admin, world.player])
    assert not hbot.tables.tables


async def test_sakura_teams_of_two_win_together(hbot, standin, world):
    await open_lobby(world, standin, "sakura", [world.player, world.shy], ais=["easy"], rounds=1, teams="pairs")
    table = next(iter(hbot.tables.tables.values()))
    assert table.match.rules.teams == "pairs"
    await play_out(standin, world.channel, [world.admin, world.player, world.shy])
    rows = await hbot.store._db.fetchall("SELECT seat, outcome FROM results WHERE game_id = ?", (table.game_id,))
    outcome = {r["seat"]: r["outcome"] for r in rows}
    assert len(outcome) == 3
    sides = table.match.rules.sides(4)
    for side in sides:  # partners share a pile, so they win or lose together
        assert len({outcome[s] for s in side if s in outcome}) == 1
        assert len({table.match.scores[s] for s in side}) == 1
    # The sides split win/loss, unless the deal left them level (the game's seed is random).
    by_side = [{outcome[s] for s in side if s in outcome}.pop() for side in sides]
    assert sorted(by_side) in (["lost", "won"], ["draw", "draw"])


async def test_sakura_teams_need_four_or_six_players(hbot, standin, world):
    record = await world.admin.slash(world.channel, "sakura", ai="normal", players=5, teams="pairs")
    assert "don't work" in reply_text(record) and not hbot.tables.tables


async def test_mushi_against_the_ai(hbot, standin, world):
    await world.admin.slash(world.channel, "mushi", ai="easy", rounds=1)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    assert not hbot.tables.tables


async def test_hana_awase_three_seats_against_two_ais(hbot, standin, world):
    record = await world.admin.slash(world.channel, "hanaawase", ai="normal", players=3, rounds=1)
    assert "AI 1 (normal), AI 2 (normal)" in said(record)  # the table's headline
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    assert not hbot.tables.tables


async def test_challenge_refused_for_a_game_of_three_or_more(hbot, standin, world):
    # Go-Stop may be two players, so a challenge works; a five-seat table against one member does not.
    record = await world.admin.slash(world.channel, "gostop", ai="normal", players=4)
    assert "2 to 3 players" in reply_text(record)


async def test_first_bloom_four_users_race_by_order_of_presses(hbot, standin, world, dave):
    # One racer never presses; the window closes once the others' presses are in (an event, not
    # a clock: the window itself is set far longer than any run).
    hbot.tables.race_seconds = 3600
    users = [world.admin, world.player, world.shy, dave]
    await open_lobby(world, standin, "firstbloom", [world.player, world.shy, dave], rounds=1, stake=1)
    table = next(iter(hbot.tables.tables.values()))
    seen = {}

    async def slappers(race_message):
        race = table.match.observation(0)["race_seats"]
        by_seat = {table.seat_of(u.id): u for u in users}
        order = [by_seat[s] for s in race]
        seen["winner"] = table.match.round.winner
        seen["order"] = [table.seat_of(u.id) for u in order]

        async def close_when_pressed():
            await standin.wait_for(lambda: not table.in_race
                                   or table.match.observation(0)["race_seats"] == seen["order"][-1:],
                                   "every racer but the last one slapped")
            await hbot.tables.end_race(table)

        seen["closer"] = asyncio.ensure_future(close_when_pressed())
        return order[:-1]  # the last one never presses: the window closes and they pay in full

    played = await play_out(standin, world.channel, users, on_race=slappers)
    assert len(played.races) >= 1
    # each presser is told their place in the order the bot received the presses
    for place, record in enumerate(played.races[-1], start=1):
        said = reply_text(record)
        assert ("You were first." in said) if place == 1 else \
            (f"You were number {place}: you still pay" in said), said
    game = await hbot.store.load_game(table.game_id, scope=EVERY_SERVER)
    end = [e for ev in game.events for e in ev.events if e["type"] == "round_end"][-1]
    assert end["exempt"] == seen["order"][0]
    assert end["slap_order"] == seen["order"][:-1]
    race_end = [e for ev in game.events for e in ev.events if e["type"] == "race_end"][-1]
    assert race_end["missing"] == [seen["order"][-1]]
    assert end["points"][seen["order"][0]] == 0
    assert (await hbot.store.audit()).ok
    # the race message names the player who went out and offered Slap! in the channel
    race_msgs = [m for m in standin.channel_messages(world.channel) if "is out!" in m.content]
    assert race_msgs and not any("hand.png" in m.files for m in race_msgs)


async def test_first_bloom_against_ais_who_slap_like_people(hbot, standin, world, dave):
    # The AIs slap after 1-1.5 s, so the presses below (milliseconds) come first; the window
    # closes after 2.5 s, and asyncio wakes the AI slaps (queued on the table's lock) before it.
    hbot.tables.slap_delays = (1.0, 1.5)
    hbot.tables.race_seconds = 2.5
    await world.admin.slash(world.channel, "firstbloom", ai="normal", players=3, rounds=1)
    await table_posted(standin, world.channel)
    table = next(iter(hbot.tables.tables.values()))
    with pytest.raises(TableError, match="no hand to slap"):
        await hbot.tables.slap(table, 0, world.admin.id)
    checked = {}

    async def on_race(race_msg):
        slap = cid(race_msg, "hf:slap:")
        outsider = await dave.press(race_msg, slap)
        mine = await world.admin.press(race_msg, slap) if table.seat_of(
            world.admin.id) == table.match.round.winner else None
        checked["seats"] = list(table.match.observation(0)["race_seats"])
        checked["outsider"] = reply_text(await standin.finish_interaction(outsider))
        if mine is not None:
            checked["winner"] = reply_text(await standin.finish_interaction(mine))
        return []  # the admin never slaps: the AI seats do, after a human-like delay

    await play_out(standin, world.channel, [world.admin], on_race=on_race)
    assert "not playing" in checked["outsider"]
    game = await hbot.store.load_game(table.game_id, scope=EVERY_SERVER)
    flat = [e for ev in game.events for e in ev.events]
    end = [e for e in flat if e["type"] == "round_end"][-1]
    if "winner" in checked:
        assert "already slapped" in checked["winner"] or "went out" in checked["winner"]
        assert sorted(end["slap_order"]) == [1, 2]  # both AI seats slapped in time
    else:
        assert 0 not in end["slap_order"] and end["exempt"] in (1, 2)
        assert [e for e in flat if e["type"] == "race_end"][-1]["missing"] == [0]


async def test_hard_ai_thinks_in_a_worker_process(hbot, standin, world):
    await human_moves_first(hbot, world)
    searched: list[str] = []
    run = hbot.ai_pool.run

    async def spy(fn, *args):
        searched.append(args[0])
        return await run(fn, *args)

    hbot.ai_pool.run = spy
    record = await world.admin.slash(world.channel, "koikoi", ai="hard", rounds=1)
    assert "AI (hard)" in said(record)
    await table_posted(standin, world.channel)
    table = next(iter(hbot.tables.tables.values()))
    assert table.players[1] == "ai:hard"
    await play_out(standin, world.channel, [world.admin])
    assert searched and set(searched) == {"hard"}  # the search ran in the AI workers, off the loop
    assert hbot.ai_pool.completed >= len(searched)
    game = await hbot.store.load_game(table.game_id, scope=EVERY_SERVER)
    assert any(e.actor == "ai:hard" for e in game.events)
