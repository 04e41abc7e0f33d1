"""/leaderboard, /stats and /chips end to end through the Discord stand-in, including paging that
only the asker may use and another server's data staying invisible."""

from __future__ import annotations

import asyncio
import io
import sys

import discord
import pytest
from PIL import Image

from rendering.board import board_height
from rendering.view import BoardRow, BoardView
from tests.e2e.community_data import (
    assert_anywhere,
    assert_guild_only,
    embed,
    field,
    finish_quick,
    footer_has,
    only_private,
    pager_ids,
    play_game,
    start_hbot,
    turn_page,
)
from tests.e2e.playing import answer_fault
from tests.e2e.test_koikoi_bot import reply_text
from tests.e2e.test_start_safety import watch_calls

pytestmark = pytest.mark.asyncio

OTHERS = list(range(7001, 7025))  # 24 players who are not members: mentions still render


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def page_height(rows: int, note: str = "") -> int:
    """The height of a board's image with ``rows`` rows (and a note under them)."""
    return board_height(BoardView("", "", "", tuple(BoardRow(i, "", "") for i in range(rows)),
                                  note=note))


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


async def test_community_commands_are_registered_for_everyone_chips_in_servers_only(hbot, standin,
                                                                                   world):
    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    assert_guild_only(commands["chips"])
    for name in ("leaderboard", "stats"):  # a group DM has its own board and records
        assert_anywhere(commands[name])
    chips = {o["name"] for o in commands["chips"]["options"]}
    assert chips == {"balance", "daily", "give", "history"}
    assert commands["chips"]["default_member_permissions"] is None
    assert commands["leaderboard"]["default_member_permissions"] is None


async def test_leaderboard_pages_only_for_the_asker_and_shows_their_rank(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    # 24 others beat each other in a ladder; bob (the asker) wins once, alice twice
    for i, user in enumerate(OTHERS):
        for _ in range(3 + i % 7):
            await finish_quick(store, guild, "koikoi", [user, OTHERS[(i + 1) % len(OTHERS)]],
                               ["won", "lost"])
    await finish_quick(store, guild, "koikoi", [world.player.id, world.admin.id], ["won", "lost"])
    for _ in range(2):
        await finish_quick(store, guild, "koikoi", [world.admin.id, OTHERS[0]], ["won", "lost"])

    record = await world.player.slash(world.channel, "leaderboard", game="koikoi", order="wins")
    board = record.original
    assert not board.ephemeral
    e = embed(board)
    assert "Koi-Koi" in e["title"] and "wins" in e["title"]
    assert e["description"].count("**#") == 10
    assert f"<@{world.player.id}>" not in e["description"]  # bob is far down the board
    assert field(board, "Your rank").startswith("#") and " of 26 — 1 win" in field(board, "Your rank")
    # the page as an image in the embed, the text kept beside it for screen readers
    assert e["image"]["url"] == "attachment://leaderboard.png"
    assert png_size(board.files["leaderboard.png"]) == (1000, page_height(10))
    assert "page 1 of 3" in e["footer"]["text"]
    ids = pager_ids(board)
    # someone else cannot turn the pages
    refused = await world.admin.click(board, ids["n"])
    assert only_private(refused) and "Only the member who asked" in reply_text(refused)
    leaderboard = next(c["id"] for c in standin.commands[world.guild.id] if c["name"] == "leaderboard")
    assert f"run </leaderboard:{leaderboard}> for your own view" in reply_text(refused)  # a link to theirs
    assert "page 1 of 3" in embed(standin.message(board))["footer"]["text"]
    # the asker can; each page comes with its image redrawn
    first_image = board.files["leaderboard.png"]
    second = await turn_page(standin, world.player, board, ids["n"], footer_has("page 2 of 3"))
    assert second.files["leaderboard.png"] != first_image
    mine = await turn_page(standin, world.player, second, pager_ids(second)["m"],
                           lambda m: "➤" in embed(m)["description"])
    [marked] = [line for line in embed(mine)["description"].split("\n") if line.startswith("➤")]
    assert f"<@{world.player.id}>" in marked
    assert next(c for c in mine.components[0]["components"] if c["custom_id"].endswith(":m"))["disabled"]
    # previous goes back a page
    page = embed(mine)["footer"]["text"]
    await turn_page(standin, world.player, mine, pager_ids(mine)["p"],
                    lambda m: embed(m)["footer"]["text"] != page)

    # rating needs a game; chips are per server
    refused = await world.player.slash(world.channel, "leaderboard", order="rating")
    assert only_private(refused) and "choose a game" in reply_text(refused)
    rated = await world.player.slash(world.channel, "leaderboard", game="koikoi")
    assert "by rating" in embed(rated.original)["title"]
    lines = embed(rated.original)["description"].split("\n")
    assert len(lines) == 10 and all("(still settling)" in x or "(± " in x for x in lines)
    assert "cautious estimates" in embed(rated.original)["footer"]["text"]
    assert "cautious estimates" not in embed(board)["footer"]["text"]
    assert png_size(rated.original.files["leaderboard.png"]) == (1000, page_height(10, "note"))
    await store.open_account(guild, world.player.id)
    chips = await world.player.slash(world.channel, "leaderboard", order="chips", period="30d")
    assert "chips" in embed(chips.original)["description"]
    assert "Last 30 days" in embed(chips.original)["footer"]["text"]
    empty = await world.player.slash(world.channel, "leaderboard", game="mushi", order="wins")
    assert "Nobody is on this board yet" in embed(empty.original)["description"]
    assert field(empty.original, "Your rank") == "You are not on this board yet."


async def test_stats_show_record_best_yaku_ratings_and_recent_results(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    gids = []
    for seed in (3, 4, 5):
        gid, _ = await play_game(store, guild, "koikoi", [world.player.id, world.admin.id],
                                 ["bob", "alice"], seed=seed, rounds=3)
        gids.append(gid)
    await play_game(store, guild, "mushi", [world.player.id, "ai:normal"], ["bob", "AI (normal)"])
    stats = await store.user_stats(guild, world.player.id)
    record = await world.admin.slash(world.channel, "stats", user=world.player)
    msg = record.original
    assert not msg.ephemeral and embed(msg)["title"] == "📊 bob"
    assert field(msg, "Games").startswith("4 played")
    assert f"{stats.wins} won" in field(msg, "Games")
    assert field(msg, "Win rate") == f"{stats.wins / 4:.0%}"
    assert field(msg, "Points") == (f"{stats.points:+,}" if stats.points else "0")  # zero has no sign
    assert field(msg, "Favourite game") == "Koi-Koi (3 games)"
    best = stats.best_yaku("koikoi")
    if best is not None:
        assert f"{best.best_points} points" in field(msg, "Best yaku")
    assert "Koi-Koi: **" in field(msg, "Rating per game") and "3 rated games" in field(msg, "Rating per game")
    recent = field(msg, "Recent results")
    assert recent.index(f"#{gids[-1]}") < recent.index(f"#{gids[0]}") and "Mushi" in recent
    assert field(msg, "Chips") == "No account yet."
    assert "Koi-Koi: **" in field(msg, "Rating per game") and "(still settling)" in field(msg, "Rating per game")
    assert "cautious estimates" in embed(msg)["footer"]["text"]
    # the asker's own games with bob, both named (the record is posted for everyone)
    versus = await store.head_to_head(guild, world.admin.id, world.player.id)
    assert versus.games == 3 and versus.ahead + versus.behind > 0
    assert field(msg, "alice and bob") == (f"3 games together · alice finished ahead in {versus.ahead} "
                                           f"· bob in {versus.behind}")
    community = sys.modules["cogs.community"]  # as the bot loaded the extension
    card = await community.stats_card(store, guild, "bob", stats, "chips", None, None,
                                      versus=versus, asker="alice")
    assert card.totals[-1] == ("vs alice", f"{versus.behind}–{versus.ahead}")  # from bob's side
    assert "vs" not in str((await community.stats_card(store, guild, "bob", stats, "chips", None,
                                                       None)).totals)
    strangers = await world.shy.slash(world.channel, "stats", user=world.player)
    assert not any(" and " in f["name"] for f in embed(strangers.original)["fields"])
    # the card as an image in the embed, the text kept
    assert embed(msg)["image"]["url"] == "attachment://stats.png"
    assert png_size(msg.files["stats.png"])[0] == 1000
    # your own, with no games yet
    mine = await world.shy.slash(world.channel, "stats")
    assert embed(mine.original)["description"] == "No finished games on this server yet."
    own = await world.player.slash(world.channel, "stats")
    assert not any(" and " in f["name"] for f in embed(own.original)["fields"])
    bot_stats = await world.player.slash(world.channel, "stats", user=standin.bot_user)
    assert only_private(bot_stats) and "Bots keep no record" in reply_text(bot_stats)


async def test_stats_show_the_games_won_in_a_row_now_and_at_most(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    community = sys.modules["cogs.community"]  # as the bot loaded the extension
    for outcome in ["won", "won", "won", "lost", "won", "won"]:
        await finish_quick(store, guild, "koikoi", [world.player.id, "ai:easy"],
                           [outcome, "lost" if outcome == "won" else "won"])
    record = (await world.admin.slash(world.channel, "stats", user=world.player)).original
    assert field(record, "Win streak") == "2 wins in a row now\nBest: 3"
    stats = await store.user_stats(guild, world.player.id)
    card = await community.stats_card(store, guild, "bob", stats, "chips", None, None)
    assert ("Win streak", "2 (best 3)") in card.totals
    # a loss ends the streak; the best stays
    await finish_quick(store, guild, "mushi", [world.player.id, "ai:easy"], ["lost", "won"])
    record = (await world.admin.slash(world.channel, "stats", user=world.player)).original
    assert field(record, "Win streak") == "Best: 3"
    # one won game is no streak: no field, no tile
    await finish_quick(store, guild, "koikoi", [world.admin.id, "ai:easy"], ["won", "lost"])
    mine = (await world.admin.slash(world.channel, "stats")).original
    assert not any(f["name"] == "Win streak" for f in embed(mine)["fields"])
    alone = await community.stats_card(store, guild, "alice", await store.user_stats(guild, world.admin.id),
                                       "chips", None, None)
    assert not any("streak" in label for label, _ in alone.totals)
    # the board of the longest streaks: bob's three, then alice's one game
    board = (await world.shy.slash(world.channel, "leaderboard", order="streak")).original
    assert embed(board)["title"] == "🏆 Leaderboard · all games · by win streak"
    assert embed(board)["description"].split("\n") == [
        f"**#1** <@{world.player.id}> — 3 wins in a row · 7 games",
        f"**#2** <@{world.admin.id}> — 1 win in a row · 1 game"]
    assert field(board, "Your rank") == "You are not on this board yet."
    assert png_size(board.files["leaderboard.png"])[0] == 1000
    mushi = (await world.player.slash(world.channel, "leaderboard", game="mushi", order="streak")).original
    assert "Nobody is on this board yet" in embed(mushi)["description"]  # bob lost his one Mushi game
    # past ten players the board pages, and its buttons keep its order
    for user in OTHERS[:10]:
        await finish_quick(store, guild, "koikoi", [user, "ai:easy"], ["won", "lost"])
    board = (await world.player.slash(world.channel, "leaderboard", order="streak")).original
    assert "page 1 of 2" in embed(board)["footer"]["text"]
    turned = await turn_page(standin, world.player, board, pager_ids(board)["n"],
                             lambda m: "page 2 of 2" in embed(m)["footer"]["text"])
    assert embed(turned)["title"] == "🏆 Leaderboard · all games · by win streak"
    assert all("1 win in a row" in line for line in embed(turned)["description"].split("\n"))


async def test_chips_balance_daily_give_and_history(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    first = await world.player.slash(world.channel, "chips balance")
    assert "You have **1,000** chips" in reply_text(first) and not first.original.ephemeral
    other = await world.player.slash(world.channel, "chips balance", user=world.shy)
    assert only_private(other) and "has no chips here yet" in reply_text(other)
    daily = await world.player.slash(world.channel, "chips daily")
    assert "**100** chips" in reply_text(daily) and "**1,100**" in reply_text(daily)
    again = await world.player.slash(world.channel, "chips daily")
    assert only_private(again) and "already claimed" in reply_text(again)
    give = await world.player.slash(world.channel, "chips give", user=world.shy, amount=300)
    assert not give.original.ephemeral and "gave **300** chips" in reply_text(give)
    assert await store.balance(guild, world.shy.id) == 1300
    assert await store.balance(guild, world.player.id) == 800
    too_much = await world.player.slash(world.channel, "chips give", user=world.shy, amount=5000)
    assert only_private(too_much) and reply_text(too_much) == (
        "You have 800 chips, not 5,000; give less, or claim /chips daily first.")
    itself = await world.player.slash(world.channel, "chips give", user=world.player, amount=5)
    assert only_private(itself) and "yourself" in reply_text(itself)
    to_bot = await world.player.slash(world.channel, "chips give", user=standin.bot_user, amount=5)
    assert only_private(to_bot) and "Bots" in reply_text(to_bot)
    assert await store.balance(guild, world.player.id) == 800
    seen = await world.admin.slash(world.channel, "chips balance", user=world.player)
    assert "bob has **800** chips" in reply_text(seen)

    for i in range(11):  # enough lines for two pages
        await store.grant(guild, world.player.id, 1 + i, key=f"g{i}", actor=world.admin.id,
                          reason=f"prize {i}")
    record = await world.player.slash(world.channel, "chips history")
    history = record.original
    assert history.ephemeral and history.ephemeral_for.id == world.player.id
    text = embed(history)["description"]
    assert text.count("\n") == 9 and "**+11** granted by staff · prize 10" in text
    assert "page 1 of 2 · 14 entries" in embed(history)["footer"]["text"]
    await world.player.click(history, pager_ids(history)["n"])
    page2 = embed(standin.message(history))
    assert "page 2 of 2" in page2["footer"]["text"]
    assert "starting chips" in page2["description"] and "**-300** to <@" in page2["description"]
    assert (await store.audit()).ok


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["token gone", "cut before twice", "cut after"])
async def test_a_gift_whose_answer_discord_refuses_is_posted_by_the_bot(hbot, standin, world,
                                                                        monkeypatch, fault):
    """The chips are given before the answer tells the channel; when Discord refuses the answer
    (the token gone) or the connection is cut before Discord took it (and again when it is
    sent once more), the bot posts it itself,
    pinging the receiver, so the giver does not give again thinking it failed. Cut after Discord
    took it, the bot finds the answer shown and says it once."""
    store, guild = hbot.store, world.guild.id
    await store.open_account(guild, world.player.id)
    asked = watch_calls(monkeypatch, discord.Interaction, "original_response")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=lambda call: "gave" in str(call.body), **answer_fault(fault))
    await world.player.slash(world.channel, "chips give", user=world.shy, amount=300)
    if fault != "cut after":
        assert standin.take_violations("no-ack")  # what Discord showed the giver in its place
    gifts = lambda: [m for m in standin.channel_messages(world.channel)  # noqa: E731
                     if "gave **300** chips" in m.content]
    [posted] = await standin.wait_for(gifts, "the gift, shown", channels=[world.channel])
    assert answer.remaining == 0 and f"<@{world.shy.id}>" in posted.content
    by_bot = [r for r in standin.requests if r.method == "POST" and r.path.endswith("/messages")
              and "gave" in str(r.body)]
    if fault == "cut after":
        await asyncio.wait_for(asked.wait(), standin.wait_timeout)  # the bot asked, and found it
        assert by_bot == [] and posted.interaction is not None
    else:
        [sent] = by_bot
        assert [int(u) for u in sent.body["allowed_mentions"]["users"]] == [world.shy.id]
        assert sent.body["allowed_mentions"]["parse"] == []
    assert len(gifts()) == 1
    assert (await store.balance(guild, world.player.id), await store.balance(guild, world.shy.id)) == (700, 1300)


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["refused", "cut before twice", "cut after"])
async def test_a_grant_whose_answer_discord_refuses_is_told_as_done(hbot, standin, world, monkeypatch,
                                                                    fault):
    """A staff grant is made before its private answer; when Discord refuses that answer, or the
    connection is cut before Discord took it (and again when it is sent once more), the bot
    says in its place that the grant is done
    (never "try again", nor "check first": it stands). Cut after Discord took it, the bot finds
    the answer shown and says nothing more."""
    store, guild = hbot.store, world.guild.id
    asked = watch_calls(monkeypatch, discord.Interaction, "original_response")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=lambda call: "Granted" in str(call.body), **answer_fault(fault))
    told = await world.admin.slash(world.channel, "chips-admin grant", user=world.player, amount=50,
                                   reason="prize")
    assert answer.remaining == 0 and only_private(told)
    granted = f"✅ Granted **50** chips to <@{world.player.id}> (prize); their balance is 1,050."
    if fault == "cut after":
        await asyncio.wait_for(asked.wait(), standin.wait_timeout)  # the bot asked, and found it
        assert reply_text(told) == granted and told.followups == []
    else:
        assert reply_text(told) == f"Discord did not take my first answer; this is done: {granted}"
    assert await store.balance(guild, world.player.id) == 1050


async def test_another_server_sees_none_of_it(hbot, standin, world):
    store = hbot.store
    other = standin.create_guild("Other Club")
    channel = standin.create_channel(other, "hanafuda")
    standin.add_member(other, world.player)
    standin.add_member(other, world.admin, permissions=discord.Permissions(manage_guild=True))
    await play_game(store, world.guild.id, "koikoi", [world.player.id, world.admin.id],
                    ["bob", "alice"], seed=3)
    await store.open_account(world.guild.id, world.player.id)
    await store.grant(world.guild.id, world.player.id, 5000, key="big", actor=world.admin.id,
                      reason="rich here")
    await store.update_settings(world.guild.id, currency_name="ryo")

    board = await world.player.slash(channel, "leaderboard", order="wins")
    assert "Nobody is on this board yet" in embed(board.original)["description"]
    chips_board = await world.player.slash(channel, "leaderboard", order="chips")
    assert "6,000" not in embed(chips_board.original)["description"]
    stats = await world.player.slash(channel, "stats")
    assert embed(stats.original)["description"] == "No finished games on this server yet."
    assert field(stats.original, "Chips") == "No account yet."
    balance = await world.player.slash(channel, "chips balance")
    assert "You have **1,000** chips" in reply_text(balance)  # a fresh account, default currency
    history = await world.player.slash(channel, "chips history")
    text = embed(history.original)["description"]
    assert "rich here" not in text and text.count("\n") == 0
    # and the first server still has its own
    home = await world.player.slash(world.channel, "chips balance")
    assert "**6,000** ryo" in reply_text(home)


async def test_unexpected_failures_get_one_friendly_private_line(hbot, standin, world,
                                                                 monkeypatch):
    for i, user in enumerate(OTHERS[:12]):
        await finish_quick(hbot.store, world.guild.id, "koikoi", [user, OTHERS[i + 1]],
                           ["won", "lost"])
    board = (await world.player.slash(world.channel, "leaderboard", order="wins")).original

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    # Pictures that cannot be drawn leave the text: the board and the record still answer.
    with monkeypatch.context() as patch:
        patch.setattr(hbot.render_pool, "run", broken)
        plain = (await world.player.slash(world.channel, "leaderboard", order="wins")).original
        record = (await world.player.slash(world.channel, "stats")).original
        assert not plain.files and not record.files and not plain.ephemeral
        assert embed(plain)["description"].count("**#") == 10 and "image" not in embed(plain)
        assert embed(record)["title"] == "📊 bob"

    monkeypatch.setattr(hbot.store, "user_stats", broken)
    monkeypatch.setattr(hbot.store, "leaderboard", broken)
    for record in (await world.player.slash(world.channel, "stats"),
                   await world.player.click(board, pager_ids(board)["n"])):
        assert only_private(record)
        assert reply_text(record) == "Something went wrong on my side; please try again in a moment."
    assert "page 1 of 2" in embed(standin.message(board))["footer"]["text"]


async def test_a_chips_board_asked_for_one_game_says_it_counts_them_all(hbot, standin, world):
    await hbot.store.open_account(world.guild.id, world.player.id)
    record = await world.player.slash(world.channel, "leaderboard", game="seotda", order="chips")
    await standin.wait_until(lambda: record.original is not None and record.original.embeds,
                             timeout=30)
    assert "this board counts them all" in embed(record.original)["description"]
