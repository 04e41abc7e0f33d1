"""What lobbies and challenges show before the game starts: every setting the table will play
with, by readable names, the stake in the server's own (escaped) currency, and the seats taken of
those the rules allow. The real bot against the Discord stand-in."""

from __future__ import annotations

import pytest

from tests.e2e.test_koikoi_bot import reply_text
from tests.e2e.test_start_safety import cid, make_bot

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "lobbies.sqlite3", world.guild.id))
    await standin.settle()
    return bot


def fields(message) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0]["fields"]}


def all_text(message) -> str:
    embed = message.embeds[0]
    return " ".join([embed.get("title", ""), embed.get("description", ""),
                     *(f"{f['name']} {f['value']}" for f in embed.get("fields", [])),
                     (embed.get("footer") or {}).get("text", "")])


async def test_a_lobby_shows_game_length_rules_stake_and_seats(hbot, standin, world):
    await hbot.store.update_settings(world.guild.id, currency_name="**petals** @everyone")
    record = await world.admin.slash(world.channel, "gostop", rounds=3, preset="seed", stake=5)
    shown = fields(record.original)
    assert shown["Game"] == "Go-Stop" and shown["Match"] == "3 rounds"
    assert shown["Rules"] == "Seed 000"
    # the currency is the server's, escaped: no bold, no ping
    assert shown["Stake"].startswith("5 \\*\\*petals\\*\\* @\u200beveryone per point")
    assert shown["Seats"] == "1/3 · 2 or 3 players"
    await world.player.click(record.original, cid(record.original, "hf:lb:join:"))
    assert fields(standin.message(record.original))["Seats"] == "2/3 · 2 or 3 players"


async def test_sakura_pairs_seat_four_or_six_and_no_more(hbot, standin, world):
    record = await world.admin.slash(world.channel, "sakura", target=50, teams="pairs")
    lobby = record.original
    shown = fields(lobby)
    assert shown["Match"] == "first to 50 points" and shown["Teams"] == "Pairs (teams of two)"
    assert shown["Rules"] == "Hawaiian (Fuda Wiki), the server's house rules"
    assert shown["Seats"] == "1/6 · 4 or 6 players"
    guests = [standin.create_user(f"guest{i}") for i in range(6)]
    for guest in guests:
        standin.add_member(world.guild, guest)
    for guest in guests[:5]:
        await guest.click(lobby, cid(lobby, "hf:lb:join:"))
    assert fields(standin.message(lobby))["Seats"] == "6/6 · 4 or 6 players"
    full = await guests[5].click(lobby, cid(lobby, "hf:lb:join:"))
    assert "full" in reply_text(full)
    assert f"<@{guests[5].id}>" not in standin.message(lobby).embeds[0]["description"]


async def test_house_rules_show_their_preset_by_name(hbot, standin, world):
    await hbot.store.set_house_rules(world.guild.id, "shedding", {"preset_name": "seed002_batsu", "rounds": 4})
    record = await world.admin.slash(world.channel, "firstbloom")
    shown = fields(record.original)
    assert shown["Rules"] == "Standard with the batsu penalty, the server's house rules"
    assert shown["Match"] == "4 rounds" and shown["Stake"] == "no stake"
    assert shown["Seats"] == "1/5 · 2 to 5 players" and "Teams" not in shown
    assert "seed002" not in all_text(record.original)


async def test_a_challenge_shows_its_settings_too(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=6,
                                     preset="modern", stake=10)
    shown = fields(record.original)
    assert shown["Game"] == "Koi-Koi" and shown["Match"] == "6 rounds"
    assert shown["Rules"] == "Modern (Fuda Wiki)"
    assert shown["Stake"] == "stake 10 chips each, the winner takes the pot"
    assert "Seats" not in shown  # the two players are named above
    assert "challenges" in record.original.embeds[0]["description"]
    assert "<t:" in record.original.embeds[0]["description"]
