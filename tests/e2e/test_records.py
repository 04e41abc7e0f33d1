"""/rules, /history, /replay and /export end to end through the Discord stand-in, on a game the
bot really played and on stored games of other kinds; another server's games stay invisible."""

from __future__ import annotations

import json

import discord
import pytest

from bot.games import GAMES
from bot.replay import action_words
from bot.rules_text import CHIPS, HOW_TO_PLAY, TITLES, editable_options, parse_value, rules_summary
from bot.store import EVERY_SERVER
from bot.words import plural
from tests.e2e.community_data import (
    assert_anywhere,
    assert_guild_only,
    embed,
    field,
    only_private,
    pager_ids,
    play_game,
    start_hbot,
)
from tests.e2e.playing import play_out, reply_text, table_posted
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


async def test_every_game_has_its_texts_and_editable_options():
    assert set(HOW_TO_PLAY) == set(CHIPS) == set(TITLES) == set(GAMES)
    for game in GAMES:
        options = editable_options(game)
        assert "rounds" in options and "preset_name" not in options
        assert rules_summary(game, {}).startswith("Preset **")
    assert parse_value("koikoi", "ameshiko_enabled", "Off") is False
    assert parse_value("koikoi", "hand_size", " 10 ") == 10
    with pytest.raises(ValueError, match="8, 10"):
        parse_value("koikoi", "hand_size", "ten")


def footer(message) -> str:
    return embed(message)["footer"]["text"]


async def answer(standin, record, filename):
    """The bot's reply to ``record`` once it carries ``filename`` (the bot acknowledges first and
    renders in a worker thread)."""
    return await standin.wait_for(
        lambda: next((m for m in record.messages if filename in m.files), None),
        f"a reply carrying {filename}", channels=[record.channel])


async def step_to(standin, user, message, custom_id, footer_start):
    """Press a replay button and wait for the redrawn step."""
    await user.click(message, custom_id)
    await standin.wait_for(lambda: footer(standin.message(message)).startswith(footer_start),
                           f"the replay step {footer_start!r}", channels=[message.channel])
    return standin.message(message)


async def test_record_commands_are_registered_in_servers_only_and_rules_anywhere(hbot, standin, world):
    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    for name in ("rules", "history", "replay", "export", "verify"):
        (assert_anywhere if name == "rules" else assert_guild_only)(commands[name])
        assert commands[name]["default_member_permissions"] is None


async def test_rules_explain_the_game_sheet_house_rules_and_chips(hbot, standin, world):
    listing = await world.player.slash(world.channel, "rules")
    assert only_private(listing)
    names = [f["name"] for f in embed(listing.messages[0])["fields"]]
    assert len(names) == len(GAMES) and names[0].startswith("Koi-Koi · 2 players")
    await hbot.store.set_house_rules(world.guild.id, "koikoi",
                                     {"preset_name": "modern", "koikoi_limit": "once"})
    record = await world.player.slash(world.channel, "rules", game="koikoi")
    msg = await answer(standin, record, "yaku.png")
    assert only_private(record)
    assert embed(msg)["image"]["url"] == "attachment://yaku.png"
    # and the cards by month, a picture of their own under the rules
    assert "cards.png" in msg.files and msg.embeds[1]["image"]["url"] == "attachment://cards.png"
    assert msg.embeds[1]["title"] == "🎴 Koi-Koi · the cards"
    assert embed(msg)["description"] == HOW_TO_PLAY["koikoi"]
    house = field(msg, "House rules on this server")
    assert "(`modern`)" in house and "`koikoi_limit` = once" in house
    assert field(msg, "Playing for chips") == CHIPS["koikoi"]
    assert "winner takes the pot" in CHIPS["koikoi"]
    bloom = await answer(standin, await world.player.slash(world.channel, "rules",
                                                            game="shedding"), "yaku.png")
    assert "in the spirit of UNO" in embed(bloom)["description"]
    assert "seed" not in embed(bloom)["description"].lower()  # no design notes for players
    assert "escrows 30 × the stake" in field(bloom, "Playing for chips")
    assert "First Bloom" in embed(bloom)["title"]
    for game in GAMES:  # every game's text fits Discord's limits and renders
        shown = await answer(standin, await world.admin.slash(world.channel, "rules", game=game),
                             "yaku.png")
        assert len(embed(shown)["description"]) <= 4096


async def test_a_played_game_is_listed_replayed_and_exported(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    await human_moves_first(hbot, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    await table_posted(standin, world.channel)
    [running] = await store.list_running_games(guild)
    gid = running.game_id
    for command in ("replay", "export"):  # a game in play would reveal its cards
        early = await world.admin.slash(world.channel, command, game_id=gid)
        assert only_private(early) and "still being played" in reply_text(early)
    await play_out(standin, world.channel, [world.admin])
    record = await store.load_game(gid, scope=EVERY_SERVER)
    assert record.status == "finished" and record.events

    listed = await world.player.slash(world.channel, "history")
    text = embed(listed.original)["description"]
    assert f"**#{gid}** Koi-Koi" in text and "alice" in text and "AI (normal)" in text
    assert not listed.original.ephemeral
    assert "No games yet" in embed((await world.player.slash(
        world.channel, "history", user=world.player)).original)["description"]

    # /replay: private, stepping from the deal to the end
    shown = await world.player.slash(world.channel, "replay", game_id=gid)
    assert only_private(shown)
    replay = await answer(standin, shown, "replay.png")
    total = len(record.events)
    assert footer(replay) == f"Move 0 of {total} · Koi-Koi"
    assert "replay.png" in replay.files and "The cards are dealt." in embed(replay)["description"]
    ids = pager_ids(replay)
    assert ids["n"] == f"hf:rp:{gid}:1:n" and ids["l"] == f"hf:rp:{gid}:{total}:l"
    first_image = replay.files["replay.png"]
    step1 = await step_to(standin, world.player, replay, ids["n"], "Move 1 ")
    assert footer(step1) == f"Move 1 of {total} · Koi-Koi"
    said = embed(step1)["description"]
    assert action_words("koikoi", record.events[0].action) in said  # the move as its button read
    assert "`" not in said and record.events[0].action not in said
    assert step1.files["replay.png"] != first_image
    last = await step_to(standin, world.player, step1, pager_ids(step1)["l"], f"Move {total} ")
    assert footer(last) == f"Move {total} of {total} · Koi-Koi"
    assert field(last, "End") == "Played to the end"
    assert all(c.get("disabled") for c in last.components[0]["components"][2:])
    scores = json.loads(record.state_json)["match"]["scores"]
    assert [f["value"] for f in embed(last)["fields"][:2]] == [plural(s, "point") for s in scores]
    first = await step_to(standin, world.player, last, pager_ids(last)["f"], "Move 0 ")
    assert footer(first) == f"Move 0 of {total} · Koi-Koi"

    # /export: a JSON file that documents its own format
    exported = await world.player.slash(world.channel, "export", game_id=gid)
    assert only_private(exported)
    msg = await answer(standin, exported, f"hanafuda-game-{gid}.json")
    doc = json.loads(msg.files[f"hanafuda-game-{gid}.json"])
    documented = set(doc["format"]["fields"])
    assert set(doc) <= documented and set(documented) <= set(doc)
    assert doc["format"]["version"] == 4 and doc["game"] == "koikoi" and doc["game_id"] == gid
    assert doc["replays_game_id"] is None  # a game of its own
    assert doc["seed"] == record.seed and doc["rules"] == record.rules
    assert doc["players"][0] == {"seat": 0, "kind": "human", "user_id": str(world.admin.id),
                                 "ai_level": None, "name": "alice"}
    assert doc["players"][1]["kind"] == "ai" and doc["players"][1]["ai_level"] == "normal"
    assert [a["seq"] for a in doc["actions"]] == list(range(1, total + 1))
    assert [a["action"] for a in doc["actions"]] == [e.action for e in record.events]
    assert {a["actor"] for a in doc["actions"]} <= {str(world.admin.id), "ai:normal", "timeout"}
    assert all(isinstance(a["events"], list) and a["seat"] in (0, 1) for a in doc["actions"])
    assert doc["result"]["scores"] == scores and doc["replay"]["final_scores_match"]
    assert doc["result"]["seats"][0]["outcome"] in ("won", "lost", "draw")
    assert doc["status"] == "finished" and doc["ended_at"].endswith("Z")


async def test_other_games_replay_and_history_pages(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    p, a, s = world.player.id, world.admin.id, world.shy.id
    bloom, _ = await play_game(store, guild, "shedding", [p, a, s], ["bob", "alice", "carol"],
                               seed=11)
    gostop, _ = await play_game(store, guild, "gostop", [p, "ai:normal"], ["bob", "AI (normal)"],
                                seed=12)
    for game, gid in (("shedding", bloom), ("gostop", gostop)):
        shown = await world.player.slash(world.channel, "replay", game_id=gid)
        msg = await answer(standin, shown, "replay.png")
        total = int(footer(msg).split(" of ")[1].split(" ")[0])
        assert total == len((await store.load_game(gid, scope=EVERY_SERVER)).events) > 0
        await step_to(standin, world.player, msg, pager_ids(msg)["l"], f"Move {total} of {total}")
        name = f"hanafuda-game-{gid}.json"
        exported = await world.player.slash(world.channel, "export", game_id=gid)
        doc = json.loads((await answer(standin, exported, name)).files[name])
        assert doc["replay"]["final_scores_match"] and doc["game"] == game
    for seed in range(9):
        await play_game(store, guild, "mushi", [a, "ai:easy"], ["alice", "AI (easy)"], seed=seed)
    listed = await world.player.slash(world.channel, "history")
    board = listed.original
    assert "Page 1 of 2 · 11 games" in footer(board)
    assert embed(board)["description"].count("**#") == 8
    refused = await world.admin.click(board, pager_ids(board)["n"])
    assert only_private(refused) and "Only the member who asked" in reply_text(refused)
    await world.player.click(board, pager_ids(board)["n"])
    page2 = standin.message(board)
    assert "Page 2 of 2" in footer(page2) and f"**#{bloom}** First Bloom" in embed(page2)["description"]
    only_bloom = await world.shy.slash(world.channel, "history", user=world.shy)
    assert "Page 1 of 1 · 1 game ·" in footer(only_bloom.original)
    gostop_only = await world.shy.slash(world.channel, "history", game="gostop")
    assert f"**#{gostop}** Go-Stop" in embed(gostop_only.original)["description"]
    missing = await world.player.slash(world.channel, "replay", game_id=10**6)
    assert only_private(missing) and reply_text(missing).startswith("No game #1000000 on this server")


async def test_another_servers_games_are_not_on_this_server(hbot, standin, world):
    store = hbot.store
    gid, _ = await play_game(store, world.guild.id, "koikoi", [world.player.id, world.admin.id],
                             ["bob", "alice"], seed=5)
    other = standin.create_guild("Other Club")
    channel = standin.create_channel(other, "hanafuda")
    standin.add_member(other, world.player)
    standin.add_member(other, world.admin, permissions=discord.Permissions(manage_guild=True))
    for command in ("replay", "export"):
        record = await world.player.slash(channel, command, game_id=gid)
        assert only_private(record)
        # named plainly: the commands are published to the development server alone here
        assert reply_text(record) == (f"No game #{gid} on this server; `/history` lists this "
                                      "server's games.")
    listed = await world.player.slash(channel, "history")
    assert "No games yet" in embed(listed.original)["description"]
    mine = await world.player.slash(channel, "history", user=world.player)
    assert "No games yet" in embed(mine.original)["description"]
    # while at home the game is there
    home = await world.player.slash(world.channel, "export", game_id=gid)
    assert await answer(standin, home, f"hanafuda-game-{gid}.json")
