"""Fair deals end to end through the Discord stand-in: the commitment on the lobby or challenge
and on the table, the server seed revealed on the final table and in /replay, /verify agreeing,
and ``python -m bot.verify`` agreeing on the /export file and disagreeing once it is tampered."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

from tests.e2e.community_data import embed, only_private, start_hbot
from tests.e2e.playing import game_over, play_out, reply_text, section, table_messages, table_posted

pytestmark = pytest.mark.asyncio

HEX = re.compile(r"`([0-9a-f]{64})`")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_hbot(start_bot, standin, world, tmp_path)
    # a dealt hand yaku would end the one round at the deal, before the table could be looked at
    await bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    return bot


def fair_field(message) -> str:
    """The Fair deal field of a lobby or challenge (an embed), or section of a table (laid out)."""
    if message.laid_out:
        return section(message, "Fair deal")
    return next(f["value"] for f in embed(message).get("fields", []) if f["name"] == "Fair deal")


def commitment_on(message) -> str:
    [commitment] = HEX.findall(fair_field(message))
    return commitment


def revealed(message) -> tuple[str, str, str]:
    """(server seed, commitment, derivation text) a final table or replay shows."""
    value = fair_field(message)
    seed, commitment = HEX.findall(value)[:2]
    text = re.search(r"`(hanafuda-deal-1:[0-9a-f:]+)`", value)[1]
    return seed, commitment, text


async def private_answer(standin, record):
    return await standin.wait_for(lambda: next((m for m in record.messages if m.embeds), None),
                                  "the private answer", channels=[record.channel])


async def checked(standin, user, channel, game_id: int) -> str:
    asked = await user.slash(channel, "verify", game_id=game_id)
    assert only_private(asked)
    return embed(await private_answer(standin, asked))["description"]


async def run_verify(path) -> tuple[int, str, str]:
    """``python -m bot.verify FILE`` as anyone would run it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.verify", str(path), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT)
    out, err = await process.communicate()
    return process.returncode, out.decode(), err.decode()


async def test_a_lobby_game_commits_reveals_and_verifies(hbot, standin, world, tmp_path):
    opened = await world.admin.slash(world.channel, "koikoi", rounds=1)
    lobby = opened.original
    commitment = commitment_on(lobby)
    join = await world.player.click(lobby, next(c for c in lobby.custom_ids() if c.startswith("hf:lb:join:")))
    assert commitment_on(standin.message(lobby)) == commitment  # one secret for the lobby's life
    start = await world.admin.click(standin.message(lobby),
                                    next(c for c in lobby.custom_ids() if c.startswith("hf:lb:start:")))
    [table] = await table_posted(standin, world.channel)
    assert commitment_on(table) == commitment
    [running] = await hbot.store.list_running_games(world.guild.id)
    early = await world.player.slash(world.channel, "verify", game_id=running.game_id)
    assert "still being played" in reply_text(early)  # nothing revealed before the end

    await play_out(standin, world.channel, [world.admin, world.player])
    final = await game_over(standin, world.channel)
    seed, shown, text = revealed(final)
    assert shown == commitment == hashlib.sha256(seed.encode()).hexdigest()
    assert text == f"hanafuda-deal-1:{seed}:{join.id}:{start.id}"
    gid = running.game_id
    record = await hbot.store.load_game(gid, scope=world.guild.id)
    assert record.seed == int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1

    said = await checked(standin, world.player, world.channel, gid)
    assert said.startswith("Agree") and "Note:" not in said

    replay = await world.player.slash(world.channel, "replay", game_id=gid)
    shown_again = await standin.wait_for(lambda: next((m for m in replay.messages if "replay.png" in m.files), None),
                                         "the replay", channels=[replay.channel])
    assert revealed(shown_again) == (seed, commitment, text)

    exported = await world.player.slash(world.channel, "export", game_id=gid)
    name = f"hanafuda-game-{gid}.json"
    message = await standin.wait_for(lambda: next((m for m in exported.messages if name in m.files), None),
                                     "the export", channels=[exported.channel])
    doc = json.loads(message.files[name])
    assert doc["fair_deal"]["server_seed"] == seed and doc["fair_deal"]["commitment"] == commitment
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    code, out, err = await run_verify(path)
    assert (code, err) == (0, "") and out.startswith("Agree")
    first = doc["fair_deal"]["deals"][0]
    first["hands"][0][0], first["hands"][1][0] = first["hands"][1][0], first["hands"][0][0]
    path.write_text(json.dumps(doc))
    code, out, err = await run_verify(path)
    assert code == 1 and out.startswith("Disagree") and "seat 1's hand" in out
    path.write_text("{ not json")
    code, out, err = await run_verify(path)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


async def test_a_forfeited_challenge_reveals_its_seed_and_verifies(hbot, standin, world):
    asked = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=3)
    challenge = asked.original
    commitment = commitment_on(challenge)
    accept = await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    [table] = await table_posted(standin, world.channel)
    assert commitment_on(table) == commitment
    forfeit = next(c for c in table.custom_ids() if c.startswith("hf:forfeit:"))
    gid = int(forfeit.rsplit(":", 1)[1])
    sure = await world.player.click(table, forfeit)
    await world.player.click(sure.messages[0], forfeit + ":sure")
    final = await game_over(standin, world.channel)
    seed, shown, text = revealed(final)
    assert shown == commitment == hashlib.sha256(seed.encode()).hexdigest()
    assert text == f"hanafuda-deal-1:{seed}:{accept.id}"
    assert (await checked(standin, world.admin, world.channel, gid)).startswith("Agree")
    assert len(table_messages(standin, world.channel)) == 1
    for locale, agree in (("ja", "一致："), ("ko", "일치:")):  # each in the asker's language
        world.player.locale = locale
        assert (await checked(standin, world.player, world.channel, gid)).startswith(agree)


async def test_a_game_against_the_ai_commits_with_its_command(hbot, standin, world):
    started = await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=1)
    [table] = await table_posted(standin, world.channel)
    commitment = commitment_on(table)
    [running] = await hbot.store.list_running_games(world.guild.id)
    await world.admin.click(table, f"hf:cancel:{running.game_id}")
    final = await game_over(standin, world.channel)
    seed, shown, text = revealed(final)
    assert shown == commitment and text == f"hanafuda-deal-1:{seed}:{started.id}"
    said = await checked(standin, world.admin, world.channel, running.game_id)
    assert said.startswith("Agree") and "Note:" in said  # the bot knew the command's id
