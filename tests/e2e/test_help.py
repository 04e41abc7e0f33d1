"""/help through Discord: every command the asker can use where they ask, each a link carrying
the id Discord gave it when it was synced, in the asker's language."""

from __future__ import annotations

import re

import discord
import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.i18n import speaking, tp
from tests.e2e.community_data import only_private, start_hbot
from tests.e2e.playing import reply_text

pytestmark = pytest.mark.asyncio

GUILD_COMMANDS = "GET /applications/{application_id}/guilds/{guild_id}/commands"
LINK = re.compile(r"</([a-z-]+(?: [a-z_]+)?):(\d+)>")


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def page(record) -> dict:
    (message,) = record.messages
    (embed,) = message.embeds
    return embed


def links(embed: dict) -> dict[str, int]:
    return {name: int(command_id) for name, command_id in LINK.findall(embed["description"])}


def synced_ids(standin, key) -> dict[str, int]:
    return {c["name"]: int(c["id"]) for c in standin.commands.get(key, []) if c.get("type", 1) == 1}


async def test_a_member_gets_every_players_command_as_a_link_to_the_synced_command(hbot, standin, world):
    record = await world.player.slash(world.channel, "help")
    assert only_private(record)
    embed = page(record)
    assert embed["title"] == "Hanafuda: the commands"
    ids = synced_ids(standin, world.guild.id)
    shown = links(embed)
    for name in ("koikoi", "gostop", "mushi", "sakura", "hanaawase", "firstbloom", "seotda", "rules",
                 "games", "stats", "history", "replay", "review", "verify", "export", "leaderboard",
                 "season list", "tournament leave", "chips balance", "chips daily", "language",
                 "privacy show", "help"):
        assert shown[name] == ids[name.split()[0]], name
    assert "Play Koi-Koi: challenge someone, open a lobby, or play the AI" in embed["description"]
    assert not any(name.split()[0] in ("settings", "chips-admin", "privacy-admin") for name in shown)
    assert "Staff" not in embed["description"]
    assert "servers that added the bot" not in embed["description"]  # it is one of them
    # links that add the app: to a server with the permissions the bot uses, or to one's account
    buttons = [c for row in record.messages[0].components for c in row["components"]]
    app = standin.application_id
    assert [(b["label"], b["style"], b["url"]) for b in buttons] == [
        ("Add to a server", 5, f"https://discord.com/oauth2/authorize?client_id={app}"
                               "&scope=bot+applications.commands&permissions=117760"),
        ("Add to my apps", 5, f"https://discord.com/oauth2/authorize?client_id={app}"
                              "&integration_type=1&scope=applications.commands")]


async def test_staff_also_get_the_staff_commands(hbot, standin, world):
    embed = page(await world.admin.slash(world.channel, "help"))
    shown = links(embed)
    ids = synced_ids(standin, world.guild.id)
    assert "**Staff (Manage Server)**" in embed["description"]
    for name in ("settings show", "settings rules", "settings hints", "chips-admin grant", "privacy-admin forget"):
        assert shown[name] == ids[name.split()[0]], name


async def test_the_page_speaks_the_askers_language(hbot, standin, world):
    world.player.locale = "ja"
    embed = page(await world.player.slash(world.channel, "help"))
    assert embed["title"] == "花札：コマンド一覧"
    with speaking("ja"):
        koikoi = tp("command description", "Play Koi-Koi: challenge someone, open a lobby, or play the AI")
    assert koikoi != "Play Koi-Koi: challenge someone, open a lobby, or play the AI"
    assert koikoi in embed["description"] and "**遊ぶ**" in embed["description"]
    world.player.locale = "ko"
    embed = page(await world.player.slash(world.channel, "help"))
    assert embed["title"] == "화투: 명령어 목록" and "**게임하기**" in embed["description"]


async def test_without_the_ids_commands_are_named_plainly_and_discord_is_not_asked_again_at_once(
        hbot, standin, world):
    standin.fail_next(GUILD_COMMANDS, status=403, guild_id=world.guild.id)
    embed = page(await world.player.slash(world.channel, "help"))
    assert links(embed) == {}
    assert "`/koikoi` Play Koi-Koi" in embed["description"]
    assert "`/chips balance` `/chips daily`" in embed["description"]
    asked = len(standin.requests_to(GUILD_COMMANDS))
    embed = page(await world.player.slash(world.channel, "help"))  # within the pause after a failure
    assert links(embed) == {} and len(standin.requests_to(GUILD_COMMANDS)) == asked


async def test_the_ids_are_asked_for_once(hbot, standin, world):
    await world.player.slash(world.channel, "help")
    asked = len(standin.requests_to(GUILD_COMMANDS))
    assert asked == 1
    embed = page(await world.admin.slash(world.channel, "help"))
    assert links(embed) and len(standin.requests_to(GUILD_COMMANDS)) == asked


async def test_in_the_dm_with_the_bot_only_the_commands_offered_there(start_bot, standin, tmp_path):
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "g.sqlite3")))
    await bot.tree.sync()  # the commands users install are global
    alice = standin.create_user("alice")
    standin.install_for(alice)
    record = await alice.slash(None, "help")
    assert only_private(record)
    embed = page(record)
    shown, ids = links(embed), synced_ids(standin, None)
    for name in ("koikoi", "seotda", "rules", "stats", "leaderboard", "language", "privacy show", "help",
                 "deal play", "deal board"):
        assert shown[name] == ids[name.split()[0]], name
    assert "deal announce" not in shown and "deal remind" not in shown  # a server's DMs and posts
    assert shown["tournament leave"] == ids["tournament"]  # a member who left a server withdraws here
    assert "tournament create" not in shown
    for name in ("chips", "season", "games", "history", "replay", "settings"):
        assert not any(shown_name.split()[0] == name for shown_name in shown), name
    assert embed["description"].endswith(
        "Chips, seasons, tournaments and a server's own records are in the servers that added the bot.")


async def test_in_a_server_without_the_bot_only_what_a_users_install_offers(start_bot, standin, tmp_path):
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "g.sqlite3")))
    await bot.tree.sync()
    alice = standin.create_user("alice")
    standin.install_for(alice)
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice, permissions=discord.Permissions(manage_guild=True))
    street = standin.create_channel(elsewhere, "street")
    embed = page(await alice.slash(street, "help"))
    shown = links(embed)
    assert {"koikoi", "rules", "stats", "leaderboard", "language", "privacy show", "help", "deal play",
            "deal board"} <= set(shown)
    assert "deal announce" not in shown  # the server did not add the bot: nothing to post
    # a server's own commands, staff's included, are not the app's to offer there
    assert not {name.split()[0] for name in shown} & {"chips", "season", "tournament", "games", "history",
                                                      "settings", "chips-admin", "privacy-admin"}
    assert "Staff" not in embed["description"]
    assert embed["description"].endswith("in the servers that added the bot.")


@pytest.fixture
async def global_bot(start_bot, standin, tmp_path):
    """The bot with its commands synced globally, as a published bot has them."""
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "w.sqlite3")))
    await bot.tree.sync()
    return bot


async def test_a_server_that_adds_the_bot_is_greeted_once_where_discord_greets_members(global_bot, standin):
    owner = standin.create_user("owner")
    guild = standin.create_guild("Tea House", owner=owner, system_channel="welcome", joins=True)
    (welcome,) = guild.channels
    hello = await standin.wait_for(lambda: standin.channel_messages(welcome), "the hello", channels=[welcome])
    (message,) = hello
    (embed,) = message.embeds
    assert embed["title"] == "Hanafuda is here"
    shown, ids = links(embed), synced_ids(standin, None)
    for name in ("koikoi", "gostop", "mushi", "sakura", "hanaawase", "firstbloom", "seotda", "help",
                 "deal play", "deal board", "settings show"):
        assert shown[name] == ids[name.split()[0]], name
    (sent,) = [r for r in standin.requests if r.method == "POST" and str(welcome.id) in r.path]
    assert sent.body["allowed_mentions"] == {"parse": []}  # nobody is pinged


async def test_the_hello_speaks_the_servers_language(global_bot, standin):
    guild = standin.create_guild("茶屋", system_channel="ようこそ", locale="ja", joins=True)
    (welcome,) = guild.channels
    (message,) = await standin.wait_for(lambda: standin.channel_messages(welcome), "the hello",
                                        channels=[welcome])
    assert message.embeds[0]["title"] == "花札がやって来ました"
    assert "</help:" in message.embeds[0]["description"]


async def test_no_hello_without_a_system_channel_or_leave_to_post_there(global_bot, standin):
    quiet = standin.create_guild("No system channel", joins=True)
    quiet_channel = standin.create_channel(quiet, "general")
    read_only = discord.Permissions(view_channel=True, read_message_history=True)
    mute = standin.create_guild("Read only", owner=standin.create_user("owner"), system_channel="welcome",
                                joins=True, everyone_permissions=read_only, bot_permissions=read_only)
    # a third server's hello comes after the first two were handled (the events come in order)
    loud = standin.create_guild("Loud", system_channel="welcome", joins=True)
    await standin.wait_for(lambda: standin.channel_messages(loud.channels[0]), "the third server's hello",
                           channels=[loud.channels[0]])
    assert standin.channel_messages(quiet_channel) == [] and standin.channel_messages(mute.channels[0]) == []
    assert not [r for r in standin.requests if r.method == "POST" and str(mute.channels[0].id) in r.path]


async def test_answers_that_point_to_a_command_link_it(hbot, standin, world):
    ids = synced_ids(standin, world.guild.id)
    games = page(await world.player.slash(world.channel, "games"))
    assert f"Start one with </koikoi:{ids['koikoi']}>, </gostop:{ids['gostop']}> or another game." \
        in games["description"]
    history = page(await world.player.slash(world.channel, "history"))
    assert f"No games yet: start one with </koikoi:{ids['koikoi']}>." in history["description"]
    mine = page(await world.player.slash(world.channel, "history", user=world.admin))
    assert f"start one with </koikoi:{ids['koikoi']}>." in mine["description"]
    board = await world.player.slash(world.channel, "leaderboard", order="chips")
    assert f"Nobody has chips here yet: try </chips daily:{ids['chips']}>." in board.messages[0].embeds[0]["description"]


async def test_the_tournament_note_in_a_dm_links_the_global_leave_command(global_bot, standin, world):
    await global_bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="single_elimination", rounds=1)
    message = record.original
    join = next(c for c in message.custom_ids() if c.startswith("hf:tn:join:"))
    await world.player.click(message, join)
    note = await standin.wait_for(lambda: next(iter(standin.dms(world.player)), None), "the note")
    assert f"use </tournament leave:{synced_ids(standin, None)['tournament']}>, from anywhere" in note.content


async def test_the_bot_shows_a_status_that_points_to_help(hbot, standin):
    (session,) = standin.gateway.sessions.values()
    presence = session.presence  # discord.py names the activity of IDENTIFY "game"
    (activity,) = presence.get("activities") or [presence["game"]]
    assert activity["type"] == 4  # a custom status: the text alone, under the bot's name
    assert activity["state"] == "🎴 Hanafuda: /koikoi to play, /help for the rest"
    assert len(activity["state"]) <= 128  # Discord's longest custom status


async def test_refusals_and_notes_that_name_a_command_link_it(hbot, standin, world):
    ids = synced_ids(standin, world.guild.id)
    refused = await world.player.slash(world.channel, "replay", game_id=424242)
    assert reply_text(refused) == (f"No game #424242 on this server; </history:{ids['history']}> lists "
                                   "this server's games.")
    seasons = await world.admin.slash(world.channel, "season list")
    assert (f"Staff start one with </season start:{ids['season']}>, or every month with "
            f"</season schedule:{ids['season']}>.") in reply_text(seasons)
    economy = await world.admin.slash(world.channel, "chips-admin config")
    assert f"</chips daily:{ids['chips']}> gives" in reply_text(economy)
    started = await world.admin.slash(world.channel, "season start", name="Spring")
    text = started.messages[0].embeds[0]["description"]
    assert f"</leaderboard:{ids['leaderboard']}> and </stats:{ids['stats']}>" in text
    await world.player.slash(world.channel, "language", language="en")
    privacy = await world.player.slash(world.channel, "privacy show")
    said = next(f["value"] for f in privacy.messages[0].embeds[0]["fields"] if f["name"] == "Settings")
    assert f"</language:{ids['language']}> changes it" in said
