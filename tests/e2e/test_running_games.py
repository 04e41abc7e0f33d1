"""``/games``: this server's running games only, with players (escaped), round, whose turn, when
they started and a link to each table; staff cancel from the list exactly as the table's Cancel
button does, and nobody else can. The real bot against the Discord stand-in."""

from __future__ import annotations

import sys

import discord
import pytest

from bot.store import EVERY_SERVER
from tests.e2e.playing import table_posted
from tests.e2e.test_koikoi_bot import human_moves_first, reply_text
from tests.e2e.test_start_safety import forged_press, make_bot, private

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "games.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await standin.settle()
    return bot


def listed(message) -> dict[int, str]:
    """game id -> the field's text, for each game the list shows."""
    embed = message.embeds[0]
    return {int(f["name"].split(" ", 1)[0].lstrip("#")): f"{f['name']}\n{f['value']}"
            for f in embed.get("fields", [])}


async def start_ai_game(standin, user, channel, count, **options) -> int:
    await user.slash(channel, "koikoi", ai="easy", rounds=3, **options)
    [*_, table] = await table_posted(standin, channel, count)
    return int(next(c for c in table.custom_ids() if c.startswith("hf:cancel:")).rsplit(":", 1)[1])


async def test_games_lists_only_this_servers_games(hbot, standin, world):
    loud = standin.create_user("**Loud** @everyone")
    standin.add_member(world.guild, loud)
    other = standin.create_guild("Other Club")
    elsewhere = standin.create_channel(other, "hanafuda")
    dave = standin.create_user("dave")
    standin.add_member(other, dave, permissions=discord.Permissions(manage_guild=True))
    await hbot.store.set_house_rules(other.id, "koikoi", {"teyaku": "off"})  # no deal-decided match
    mine = [await start_ai_game(standin, world.admin, world.channel, 1, stake=10),
            await start_ai_game(standin, loud, world.channel, 2)]
    theirs = await start_ai_game(standin, dave, elsewhere, 1)

    record = await world.player.slash(world.channel, "games")
    assert private(record)
    shown = listed(record.original)
    assert sorted(shown) == sorted(mine) and theirs not in shown
    first = shown[mine[0]]
    assert "Koi-Koi" in first and "alice" in first and "AI (easy)" in first
    assert "Round 1 of 3" in first and "to play" in first and "Started <t:" in first and ":R>" in first
    table_message = next(m for m in standin.channel_messages(world.channel) if f"hf:cancel:{mine[0]}" in m.custom_ids())
    assert f"(https://discord.com/channels/{world.guild.id}/{world.channel.id}/{table_message.id})" in first
    assert "\\*\\*Loud\\*\\*" in shown[mine[1]] and "@everyone" not in shown[mine[1]]
    assert not any(c.startswith("hf:gcancel") for c in record.original.custom_ids())  # not staff

    theirs_listed = await dave.slash(elsewhere, "games")
    assert sorted(listed(theirs_listed.original)) == [theirs]


async def test_staff_cancel_from_the_list_and_others_cannot(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    other = standin.create_guild("Other Club")
    elsewhere = standin.create_channel(other, "hanafuda")
    dave = standin.create_user("dave")
    standin.add_member(other, dave, permissions=discord.Permissions(manage_guild=True))
    await store.open_account(guild, world.admin.id)
    staked = await start_ai_game(standin, world.admin, world.channel, 1, stake=10)
    assert await store.balance(guild, world.admin.id) == 990
    plain = await start_ai_game(standin, world.player, world.channel, 2)

    mine = await world.player.slash(world.channel, "games")
    forged = await forged_press(standin, world.player, mine.original, f"hf:gcancel:{plain}:0")
    assert private(forged) and "Manage Server" in reply_text(forged)
    menu = await forged_press(standin, world.player, mine.original, "hf:gcancelsel:0")
    assert private(menu)
    # a manager of another server cannot cancel this server's games either
    staff_there = await forged_press(standin, dave, mine.original, f"hf:gcancel:{plain}:0", channel=elsewhere)
    assert private(staff_there) and "not running on this server" in reply_text(staff_there)
    assert len(await store.list_running_games(guild)) == 2

    listing = await world.admin.slash(world.channel, "games")
    buttons = [c for c in listing.original.custom_ids() if c.startswith("hf:gcancel:")]
    assert buttons == [f"hf:gcancel:{staked}:0", f"hf:gcancel:{plain}:0"]
    await world.admin.click(listing.original, f"hf:gcancel:{staked}:0")
    await standin.wait_until(lambda: "cancelled" in (standin.message(listing.original).embeds[0].get("description") or ""),
                             timeout=10)
    assert sorted(listed(standin.message(listing.original))) == [plain]
    assert (await store.load_game(staked, scope=EVERY_SERVER, with_events=False)).status == "cancelled"
    assert await store.balance(guild, world.admin.id) == 1000  # refunded, as the table's Cancel does
    assert (await store.audit()).ok


async def test_many_games_page_and_share_a_cancel_menu(hbot, standin, world, monkeypatch):
    running = sys.modules["cogs.running"]  # the module the bot loaded as its extension
    monkeypatch.setattr(running, "PAGE", 2)
    monkeypatch.setattr(running, "BUTTONS_UP_TO", 1)
    games = [await start_ai_game(standin, world.admin, world.channel, n) for n in (1, 2, 3)]
    listing = await world.admin.slash(world.channel, "games")
    message = listing.original
    assert sorted(listed(message)) == games[:2]
    assert "Page 1 of 2" in message.embeds[0]["footer"]["text"]
    assert "hf:gcancelsel:0" in message.custom_ids()
    await world.admin.click(message, "hf:games:1:next")
    assert sorted(listed(standin.message(message))) == games[2:]
    assert f"hf:gcancel:{games[2]}:1" in standin.message(message).custom_ids()
    await world.admin.click(message, "hf:games:0:prev")
    await world.admin.select(message, "hf:gcancelsel:0", [str(games[1])])
    await standin.wait_until(lambda: games[1] not in listed(standin.message(message)), timeout=10)
    assert (await hbot.store.load_game(games[1], scope=EVERY_SERVER, with_events=False)).status == "cancelled"
    assert sorted(listed(standin.message(message))) == [games[0], games[2]]


async def test_no_games_says_so(hbot, standin, world):
    record = await world.player.slash(world.channel, "games")
    assert private(record) and "No game is running" in record.original.embeds[0]["description"]
    assert not record.original.custom_ids()
