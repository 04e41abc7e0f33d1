"""The deal of the day through the real bot and the Discord stand-in: every member meets the
same cards against the AI at a table only they see; one game a day; the board; the cards, the
replay and the seed sealed until the day is over, then revealed and verifiable; a restart
brings the table back with /deal play."""

from __future__ import annotations

import asyncio
import json
import sys

import discord
import pytest

from bot.fairness import commitment_of, derive_seed
from bot.games import GAMES, game_module
from bot.store import EVERY_SERVER
from bot.store.daily import DAY_MS, day_end
from bot.tables.rules import table_rules
from cogs.daily import RETRY_SECONDS
from rendering import CardView
from tests.e2e.playing import answer_fault, hand_message, is_closed, move_of, reply_text
from tests.e2e.test_guest_tables import gbot, play_alone  # noqa: F401  (the fixture)
from tests.e2e.test_input_safety import message_bodies
from tests.e2e.test_start_safety import forged_press, make_bot
from tests.e2e.test_table_safety import WAIT

pytestmark = pytest.mark.asyncio


def server_seed_where_the_member_moves_first(rules) -> str:
    """A day's seed whose deal lets the member (seat 0) move first, so a test has moves to
    press (a deal whose first move is the AI's may end a one-round match before any)."""
    module = game_module("koikoi")
    for i in range(1, 500):
        seed = f"{i:064x}"
        match = module.new_match(2, rules, derive_seed(seed, []))
        if match.current_player == 0 and not match.is_over:
            return seed
    raise AssertionError("no such seed in the first 500")


async def pin_the_day(bot, guild: int) -> str:
    """Today's Koi-Koi deal of ``guild``, drawn from a chosen seed (as the first look would draw
    one, with the house rules then in force); its seed."""
    await bot.store.set_house_rules(guild, "koikoi", {"teyaku": "off"})
    settings = await bot.store.get_settings(guild)
    rules = table_rules(settings, "koikoi", 2, {"rounds": 1})
    seed = server_seed_where_the_member_moves_first(rules)
    day = bot.store.daily_deal_day()
    async with bot.store._db.write() as conn:  # the bot's own writer
        await conn.execute(
            "INSERT INTO daily_deals (guild_id, game, day, server_seed, commitment, rules, "
            "created_at) VALUES (?, 'koikoi', ?, ?, ?, ?, 0)",
            (guild, day, seed, commitment_of(seed), json.dumps(rules.to_dict(), sort_keys=True)))
    return seed


@pytest.fixture
async def dbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "daily.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await standin.settle()
    return bot


def the_table(record):
    return next(m for m in record.messages if "table.png" in m.files)


async def test_everyone_plays_the_same_deal_alone_and_the_board_ranks_them(dbot, standin, world):
    alice, bob, carol = world.admin, world.player, world.shy
    seed = await pin_the_day(dbot, world.guild.id)
    started = await alice.slash(world.channel, "deal play", game="koikoi")
    table = the_table(started)
    assert table.ephemeral and table.is_visible_to(alice) and not table.is_visible_to(bob)
    assert "Deal of the day" in table.text() and "revealed when the day ends" in table.text()
    hand = await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand")
    assert hand.ephemeral and move_of(hand) is not None

    other = the_table(await bob.slash(world.channel, "deal play"))
    assert other.ephemeral and not other.is_visible_to(alice)
    running = await dbot.store.list_running_games(world.guild.id)
    assert len(running) == 2 and running[0].seed == running[1].seed == derive_seed(seed, [])
    assert all(json.loads(r.state_json)["home"] == "private" for r in running)
    game_a = next(r.game_id for r in running if r.players[0] == alice.id)

    await play_alone(standin, table.id, alice)
    text = standin.message(table.id).text()
    assert "Deal of the day:" in text and "place 1 of 1 so far" in text
    assert "revealed when the day ends" in text  # the final table keeps the seed sealed
    assert standin.channel_messages(world.channel) == []  # nothing anyone else could see

    # Share: the result, and no card, posted to the channel once; nobody else can share it.
    final = standin.message(table.id)
    share = next(c for c in final.custom_ids() if c.startswith("hf:dshare:"))
    forged = await forged_press(standin, bob, final, share)
    assert "Only the member who played" in reply_text(forged) and forged.messages[0].ephemeral
    shared = await alice.click(final, share)
    [post] = shared.messages
    assert not post.ephemeral and f"<@{alice.id}>" in post.content and "place 1 of 1" in post.content
    assert "deal play" in post.content and "yaku" not in post.content.lower()
    [body] = [b for r in standin.requests for b in message_bodies(r) if b.get("content") == post.content]
    assert body["allowed_mentions"] == {"parse": []}
    again_shared = await alice.click(final, share)
    assert "shared this result already" in reply_text(again_shared)
    assert len(standin.channel_messages(world.channel)) == 1

    again = await alice.slash(world.channel, "deal play")
    assert "You played today's Koi-Koi deal" in reply_text(again) and again.messages[0].ephemeral
    for command in ("replay", "verify"):
        sealed = await alice.slash(world.channel, command, game_id=game_a)
        assert "once the day is over" in reply_text(sealed) and sealed.messages[0].ephemeral

    board = await carol.slash(world.channel, "deal board")
    shown = json.dumps(board.messages[0].embeds)
    assert not board.messages[0].ephemeral and f"<@{alice.id}>" in shown and f"<@{bob.id}>" not in shown
    assert "1 player of 2 finished" in shown
    assert "deal.png" in board.messages[0].files  # the board drawn as a picture too
    assert seed not in shown  # the commitment only, today
    [sent] = [b for r in standin.requests for b in message_bodies(r) if "Deal of the day ·" in json.dumps(b, ensure_ascii=False)]
    assert sent["allowed_mentions"] == {"parse": []}  # names members, pings nobody

    # /stats tells the member's deals of the day; bob, who has not finished his, has none.
    stats = json.dumps((await carol.slash(world.channel, "stats", user=alice)).messages[0].embeds)
    assert "Deal of the day" in stats and "1 day played" in stats
    assert "first on the day's board once" in stats and "Best place: 1 of 1 (Koi-Koi," in stats
    bobs = json.dumps((await bob.slash(world.channel, "stats")).messages[0].embeds)
    assert "Deal of the day" not in bobs
    # the board of days on the deal: alice, one day and one deal, on no season's label
    days = (await carol.slash(world.channel, "leaderboard", order="days")).messages[0]
    assert f"**#1** <@{alice.id}> — 1 day · 1 deal" in days.embeds[0]["description"]
    assert "by days on the deal" in days.embeds[0]["title"] and "leaderboard.png" in days.files
    community = sys.modules["cogs.community"]  # as the bot loaded the extension
    record = await dbot.store.daily_record(world.guild.id, alice.id)
    stats_now = await dbot.store.user_stats(world.guild.id, alice.id)
    card = await community.stats_card(dbot.store, world.guild.id, "alice", stats_now, "chips",
                                      None, None, daily=record)
    assert ("Deal of the day", "1 day") in card.totals  # the card's tile

    # The day ends: yesterday's board reveals the seed, the game can be replayed and verified.
    clock = dbot.store._db.clock
    dbot.store._db.clock = lambda: clock() + DAY_MS / 1000
    try:
        past = await carol.slash(world.channel, "deal board", day=1)
        assert seed in json.dumps(past.messages[0].embeds)
        verified = await alice.slash(world.channel, "verify", game_id=game_a)
        assert "once the day is over" not in reply_text(verified)
        assert "agree" in json.dumps([m.embeds for m in verified.messages]).lower()
        fresh = await carol.slash(world.channel, "deal board")  # a new day: nobody looked yet
        assert "Nobody here looked" in reply_text(fresh)
    finally:
        dbot.store._db.clock = clock


async def test_the_same_moves_meet_the_same_ai_on_the_same_deal(dbot, standin, world):
    alice, bob = world.admin, world.player
    await pin_the_day(dbot, world.guild.id)
    for user in (alice, bob):  # each presses the first move offered, so both play alike
        table = the_table(await user.slash(world.channel, "deal play"))
        await play_alone(standin, table.id, user)
    day = dbot.store.daily_deal_day()
    games = []
    for user in (alice, bob):
        entry = await dbot.store.claim_daily_deal(world.guild.id, "koikoi", day, user.id)
        games.append(await dbot.store.load_game(entry.game_id, scope=EVERY_SERVER))
    assert [(e.actor == alice.id, e.action) for e in games[0].events] == \
        [(e.actor == bob.id, e.action) for e in games[1].events]  # the AI answered alike
    board = await dbot.store.daily_deal_board(world.guild.id, "koikoi", day)
    assert [r.margin for r in board.rows] == [board.rows[0].margin] * 2  # a tie, one place


async def test_a_second_play_while_the_game_runs_shows_its_table_again(dbot, standin, world):
    alice = world.admin
    await pin_the_day(dbot, world.guild.id)
    first = the_table(await alice.slash(world.channel, "deal play"))
    await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand")
    again = await alice.slash(world.channel, "deal play")
    table = the_table(again)
    assert table.id != first.id and table.ephemeral
    assert len(await dbot.store.list_running_games(world.guild.id)) == 1  # still one game
    await play_alone(standin, table.id, alice)
    assert is_closed(standin.message(table.id))


async def test_a_restart_resumes_the_game_and_play_brings_its_table_back(start_bot, standin, world,
                                                                         tmp_path):
    alice, db = world.admin, tmp_path / "restart.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    await pin_the_day(first, world.guild.id)
    the_table(await alice.slash(world.channel, "deal play"))
    hand = await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand")
    pressed = move_of(hand)
    await alice.click(hand, next(c for c in hand.custom_ids() if c.startswith("hf:act:")))
    await standin.wait_for(lambda: (h := hand_message(standin, alice)) and move_of(h) > pressed and h,
                           "the move stored and the next one offered")
    [game] = await first.store.list_running_games(world.guild.id)
    await first.close()

    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    assert second.tables.drives(game.game_id)  # resumed
    back = the_table(await alice.slash(world.channel, "deal play"))
    assert back.ephemeral
    await play_alone(standin, back.id, alice, pressed=move_of(hand_message(standin, alice)) - 1)
    record = await second.store.load_game(game.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and record.sealed_until == day_end(second.store.daily_deal_day())


async def test_each_game_has_its_own_deal_of_the_day(dbot, standin, world):
    for user in (world.admin, world.player):
        assert the_table(await user.slash(world.channel, "deal play", game="gostop")).ephemeral
    day, guild = dbot.store.daily_deal_day(), world.guild.id
    records = []
    for user in (world.admin, world.player):
        entry = await dbot.store.claim_daily_deal(guild, "gostop", day, user.id)
        records.append(await dbot.store.load_game(entry.game_id, scope=EVERY_SERVER, with_events=False))
    assert records[0].game == records[1].game == "gostop" and records[0].seed == records[1].seed
    assert records[0].rules["rounds"] == 1 and records[0].players[1] == "ai:hard"
    assert await dbot.store.daily_deal(guild, "koikoi", day) is None  # only the game asked for
    # every game deals one: a table only its player sees, its deal sealed with the day
    for game in GAMES:
        if game in ("gostop", "koikoi"):
            continue
        table = the_table(await world.shy.slash(world.channel, "deal play", game=game))
        assert table.ephemeral and "revealed when the day ends" in table.text(), game
    assert standin.channel_messages(world.channel) == []
    odd = await world.shy.slash(world.channel, "deal board", day=5)  # not a choice Discord offers
    assert "today's deal or yesterday's" in reply_text(odd) and odd.messages[0].ephemeral


def deal_posts(standin, channel) -> list:
    return [m for m in standin.channel_messages(channel)
            if m.embeds and m.embeds[0].get("title", "").startswith("🌅 The deals of")]


async def test_staff_have_the_new_deals_posted_every_day_with_yesterdays_podiums(dbot, standin, world):
    alice, bob, guild, cog = world.admin, world.player, world.guild.id, dbot.get_cog("DailyCog")
    refused = await bob.slash(world.channel, "deal announce", post="on")
    assert "Manage Server" in reply_text(refused) and await dbot.store.daily_post(guild) is None
    cog.watch.looked.clear()
    answer = await alice.slash(world.channel, "deal announce", post="on")
    assert answer.messages[0].ephemeral and "every day at 00:00 UTC" in reply_text(answer)
    await asyncio.wait_for(cog.watch.looked.wait(), WAIT)
    assert deal_posts(standin, world.channel) == []  # from tomorrow on

    await pin_the_day(dbot, guild)  # today's Koi-Koi deal, played by alice to its end
    table = the_table(await alice.slash(world.channel, "deal play"))
    await play_alone(standin, table.id, alice)
    margin = (await dbot.store.daily_deal_board(guild, "koikoi", dbot.store.daily_deal_day())).rows[0].margin

    # The next day: Discord fails the first post; it is posted at the next look, once.
    clock = dbot.store._db.clock
    dbot.store._db.clock = lambda: clock() + DAY_MS / 1000
    noon = (clock() // 86400 + 1) * 86400 + 12 * 3600
    cog.clock = lambda: noon  # the watch's waits, read far from any hour it looks at
    try:
        fault = standin.fail_next("POST /channels/{channel_id}/messages", status=503,
                                  channel_id=world.channel.id, where=lambda call: "🌅" in str(call.body))
        assert await cog.run_posts() == RETRY_SECONDS
        assert fault.remaining == 0 and deal_posts(standin, world.channel) == []
        assert await cog.run_posts() > RETRY_SECONDS
        [post] = deal_posts(standin, world.channel)
        fields = {f["name"]: f["value"] for f in post.embeds[0]["fields"]}
        podium = fields["Yesterday's Koi-Koi deal"].split("\n")
        assert podium[0] == f"🥇 <@{alice.id}> · {margin:+d} point{'s' if abs(margin) != 1 else ''}"
        assert podium[1] == "1 player of 1 finished."
        tries = [r for r in standin.requests if r.method == "POST" and isinstance(r.body, dict)
                 and "🌅" in str(r.body.get("embeds"))]
        assert [r.status for r in tries] == [503, 200] and len({r.body["nonce"] for r in tries}) == 1
        assert all(r.body["allowed_mentions"] == {"parse": []} for r in tries)  # named, not pinged
        await cog.run_posts()
        assert len(deal_posts(standin, world.channel)) == 1  # once a day

        shown = await alice.slash(world.channel, "settings show")
        assert f"posted in <#{world.channel.id}> every day" in json.dumps(shown.messages[0].embeds)
    finally:
        dbot.store._db.clock = clock
    off = await alice.slash(world.channel, "deal announce", post="off")
    assert "not posted in a channel" in reply_text(off) and await dbot.store.daily_post(guild) is None


async def test_a_place_where_the_app_is_a_guest_has_a_deal_of_its_own(gbot, standin):  # noqa: F811
    """Through a user's own install: a group DM's friends play one deal and its board ranks them;
    the DM with the bot has another; staff's daily post stays a server's."""
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    for user in (alice, bob):
        standin.install_for(user)
    group = standin.create_group_dm("friends", alice, bob)
    seed = await pin_the_day(gbot, group.id)
    table = the_table(await alice.slash(group, "deal play"))
    assert table.ephemeral and table.is_visible_to(alice) and not table.is_visible_to(bob)
    await play_alone(standin, table.id, alice)
    assert "place 1 of 1 so far" in standin.message(table.id).text()
    the_table(await bob.slash(group, "deal play"))
    [running] = await gbot.store.list_running_games(group.id)
    assert running.seed == derive_seed(seed, [])  # the cards alice had
    kinds = await gbot.store._db.fetchall("SELECT scope_id, kind FROM guest_scopes")
    assert [tuple(row) for row in kinds] == [(group.id, "group_dm")]  # found by a member's forget

    final = standin.message(table.id)
    shared = await alice.click(final, next(c for c in final.custom_ids() if c.startswith("hf:dshare:")))
    [post] = shared.messages
    assert not post.ephemeral and "place 1 of 1" in post.content
    board = await bob.slash(group, "deal board")
    shown = json.dumps(board.messages[0].embeds)
    assert not board.messages[0].ephemeral and f"<@{alice.id}>" in shown and "1 player of 2 finished" in shown
    stats = json.dumps((await bob.slash(group, "stats", user=alice)).messages[0].embeds)
    assert "Deal of the day" in stats and "1 day played" in stats

    # the DM with the bot: a deal of its own, a board without alice's group
    alone = the_table(await bob.slash(None, "deal play"))
    assert alone.ephemeral
    scopes = {row[0] for row in await gbot.store._db.fetchall("SELECT guild_id FROM daily_deals")}
    assert len(scopes) == 2 and group.id in scopes
    theirs = await bob.slash(None, "deal board")
    assert f"<@{alice.id}>" not in json.dumps([m.embeds for m in theirs.messages])
    refused = await bob.slash(None, "deal announce", post="on")
    assert "Use this command in a server" in reply_text(refused) and refused.messages[0].ephemeral


async def test_your_own_stats_where_the_app_is_a_guest_count_your_days(gbot, standin,  # noqa: F811
                                                                      monkeypatch):
    """Your own /stats in the DM with the bot shows your deals of the day in every guest place,
    in the embed and as the card's tile, as a server's /stats shows the server's: a day played
    in a group DM and in the DM is one day of two deals; a server's deal stays the server's."""
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    for user in (alice, bob):
        standin.install_for(user)
    club = standin.create_guild("Club")  # a server that added the bot
    standin.add_member(club, alice)
    hall = standin.create_channel(club, "hall")
    group = standin.create_group_dm("friends", alice, bob)
    dm = alice.dm_channel
    cards = []
    draw = gbot.render_pool.run

    async def drawing(render, view, *args):  # each card as it is drawn, read from its view
        if isinstance(view, CardView):
            cards.append(view)
        return await draw(render, view, *args)

    monkeypatch.setattr(gbot.render_pool, "run", drawing)

    async def play_the_day(place, scope: int) -> None:
        await pin_the_day(gbot, scope)
        table = the_table(await alice.slash(place, "deal play"))
        await play_alone(standin, table.id, alice)

    async def own_stats(place) -> tuple[str, dict]:
        record = await alice.slash(place, "stats")
        await standin.wait_for(lambda: any("stats.png" in m.files for m in record.messages),
                               "the record with its card", channels=[place])
        return (json.dumps([m.embeds for m in record.messages], ensure_ascii=False),
                dict(cards[-1].totals))

    for place, scope in ((group, group.id), (dm, dm.id), (hall, club.id)):
        await play_the_day(place, scope)
    embeds, tiles = await own_stats(dm)
    assert "Your games in DMs, group DMs and servers without the bot" in embeds
    assert "1 day played · 2 deals · first on the day's board 2 times" in embeds
    assert "Best place: 1 of 1 (Koi-Koi," in embeds
    assert tiles["Deal of the day"] == "1 day"
    embeds, tiles = await own_stats(hall)  # the server's days alone, as before
    assert "1 day played" in embeds and "2 deals" not in embeds
    assert tiles["Deal of the day"] == "1 day"

    clock = gbot.store._db.clock
    gbot.store._db.clock = lambda: clock() + DAY_MS / 1000  # the next day, in the DM
    try:
        await play_the_day(dm, dm.id)
        embeds, tiles = await own_stats(dm)
    finally:
        gbot.store._db.clock = clock
    assert "2 days played · 3 deals · first on the day's board 3 times" in embeds
    assert "2 days in a row now" in embeds
    assert tiles["Deal of the day"] == "2 days, 2 in a row"


async def test_where_apps_may_not_post_the_deal_is_played_and_never_shared(gbot, standin):  # noqa: F811
    alice = standin.create_user("alice")
    standin.install_for(alice)
    quiet = standin.create_guild("Quiet", with_bot=False)
    standin.add_member(quiet, alice, permissions=discord.Permissions(manage_guild=True))
    street = standin.create_channel(quiet, "street")
    street.external_apps = False
    await pin_the_day(gbot, street.id)
    table = the_table(await alice.slash(street, "deal play"))
    assert table.ephemeral
    await play_alone(standin, table.id, alice)
    final = standin.message(table.id)
    share = await alice.click(final, next(c for c in final.custom_ids() if c.startswith("hf:dshare:")))
    assert "cannot be shared here" in reply_text(share) and share.messages[0].ephemeral
    board = await alice.slash(street, "deal board")
    assert board.messages[0].ephemeral  # the board too is for the asker alone there
    # a server without the bot has no daily post, even for its staff
    refused = await alice.slash(street, "deal announce", post="on")
    assert "Only a server that added the bot" in reply_text(refused)
    assert standin.channel_messages(street) == []


def reminders_to(standin, user) -> list:
    return [m for m in standin.dms(user) if m.content.startswith("🌅")]


async def test_a_member_who_asks_is_reminded_by_dm_at_eight_until_they_stop(dbot, standin, world):
    alice, bob, guild, cog = world.admin, world.player, world.guild.id, dbot.get_cog("DailyCog")
    answer = await alice.slash(world.channel, "deal remind", when="on")
    first = day_end(dbot.store.daily_deal_day()) // 1000 + 20 * 3600  # tomorrow 20:00 UTC
    assert answer.messages[0].ephemeral and f"at <t:{first}:t> your time (4 hours before" in reply_text(answer)
    late = await bob.slash(world.channel, "deal remind", when="on", hours_left=1)
    assert f"at <t:{first + 3 * 3600}:t> your time (1 hour before" in reply_text(late)
    await bob.slash(world.channel, "deal remind", when="on")  # asked again: 20:00 after all
    await pin_the_day(dbot, guild)
    table = the_table(await bob.slash(world.channel, "deal play"))
    await play_alone(standin, table.id, bob)  # bob's run: one day

    # The next day at 20:00 UTC: alice, who has no run, and bob, whose day is at stake.
    clock = dbot.store._db.clock
    now = clock()
    eight = (now // 86400 + 1) * 86400 + 20 * 3600 + 60
    dbot.store._db.clock = lambda: clock() + (eight - now)
    cog.clock = lambda: eight  # the watch's next look: the next full hour, a minute on
    try:
        fault = standin.fail_next("POST /channels/{channel_id}/messages", status=503,
                                  channel_id=standin.dm_channel(alice).id)
        assert await cog.run_reminders() == RETRY_SECONDS  # alice's DM failed once: again soon
        assert fault.remaining == 0 and reminders_to(standin, alice) == []
        [bobs] = reminders_to(standin, bob)
        assert "Your run of 1 day on the deal of the day in" in bobs.content
        assert f"**{world.guild.name}**" in bobs.content and "unless you play" in bobs.content
        go = next(c for row in bobs.components for c in row["components"] if c.get("url"))
        assert go["url"] == f"https://discord.com/channels/{guild}"
        await cog.run_reminders()
        [alices] = reminders_to(standin, alice)
        assert "Today's deals in **" in alices.content and "`/deal play`" in alices.content
        assert len(reminders_to(standin, bob)) == 1  # once a day
        tries = [r for r in standin.requests if r.method == "POST" and isinstance(r.body, dict)
                 and str(r.body.get("content", "")).startswith("🌅 Today's deals")]
        assert [r.status for r in tries] == [503, 200] and len({r.body["nonce"] for r in tries}) == 1
        assert all(r.body["allowed_mentions"] == {"parse": []} for r in tries)

        # Stop: only alice's press ends hers; it says so in place of the button.
        stop = next(c for c in alices.custom_ids() if c.startswith("hf:dstop:"))
        assert str(guild) not in stop and str(alice.id) not in stop  # an opaque key
        forged = await forged_press(standin, bob, alices, stop)
        assert "off already" in reply_text(forged)
        await alice.click(alices, stop)
        assert "are off" in standin.message(alices.id).content and not standin.message(alices.id).custom_ids()
        assert await dbot.store.daily_reminder(guild, alice.id) is None
    finally:
        dbot.store._db.clock = clock


async def test_a_member_whose_dms_are_closed_is_not_asked_every_day(dbot, standin, world):
    shy, guild, cog = world.shy, world.guild.id, dbot.get_cog("DailyCog")
    shy.refuses_dms = True
    await shy.slash(world.channel, "deal remind", when="on")
    clock = dbot.store._db.clock
    now = clock()
    eight = (now // 86400 + 1) * 86400 + 20 * 3600 + 60
    cog.clock = lambda: eight
    try:
        dbot.store._db.clock = lambda: clock() + (eight - now)
        assert await cog.run_reminders() > RETRY_SECONDS  # refused for good: no retry
        assert (await dbot.store.daily_reminder(guild, shy.id)).refused_day is not None
        dbot.store._db.clock = lambda: clock() + (eight - now) + 86400
        before = len(standin.requests)
        await cog.run_reminders()
        assert len(standin.requests) == before  # not tried again until asked again
    finally:
        dbot.store._db.clock = clock
    refused = await shy.slash(None, "deal remind", when="on")  # in the DM with the bot
    assert "servers that added the bot" in reply_text(refused)


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["cut before twice", "cut after"])
async def test_a_share_cut_off_on_its_way_is_shown_once_or_called_off(dbot, standin, world, fault):
    """The connection is cut on the Share press's answer, which is the post. Cut after Discord
    posted it, the bot finds it shown: shared once, a second press says so. Cut before, and
    again when it is sent once more, nothing was shown: the share is called off, the member
    told so, and a second press shares it."""
    alice = world.admin
    await pin_the_day(dbot, world.guild.id)
    table = the_table(await alice.slash(world.channel, "deal play", game="koikoi"))
    await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand")
    await play_alone(standin, table.id, alice)
    final = standin.message(table.id)
    share = next(c for c in final.custom_ids() if c.startswith("hf:dshare:"))
    cut = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                            where=lambda call: "place 1 of 1" in str(call.body), **answer_fault(fault))
    first = await alice.click(final, share)
    posts = lambda: [m for m in standin.channel_messages(world.channel)  # noqa: E731
                     if "place 1 of 1" in m.content]
    again = await alice.click(final, share)
    assert cut.remaining == 0
    if fault == "cut before twice":
        assert first.original.flags & 64 and reply_text(first) == (
            "Discord did not take my answer, so I called off what you asked: please try again.")
        assert again.original in posts()
    else:
        assert "shared this result already" in reply_text(again)
    assert len(posts()) == 1
