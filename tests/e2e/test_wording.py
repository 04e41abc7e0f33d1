"""What players read, end to end through the Discord stand-in: every label fits Discord at a
word, no move is offered twice, counts are in the right number and Go-Stop is spelled one way,
in every message and every edit the bot made during whole games."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.words import ELLIPSIS
from tests.discord_standin.state import walk_components
from tests.e2e.playing import play_out, table_posted
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio

ONE_MANY = re.compile(r"(?<![\d.,+-])[+-]?1 (points|games|rounds|cards|moves|wins|pts|turns|players|entries)\b")
NAME = re.compile(r"(?i)\bgo[\s\-/_]?stop\b")


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "w.sqlite3",
                                               dev_guild_id=world.guild.id)))
    bot.tables.ai_delay = 0.01
    return bot


def states(standin) -> Iterator[tuple[str, list, list]]:
    """Every state of every bot message: (content, embeds, components), edits included."""
    for message in standin.messages.values():
        if message.author.id != standin.bot_user.id:
            continue
        yield message.content, message.embeds, message.components
        for earlier in message.history:
            yield earlier.content, earlier.embeds, earlier.components


def words(content: str, embeds: list, components: list) -> str:
    parts = [content]
    for item in walk_components(components):  # text displays and picture descriptions
        parts += [item.get("content") or "", *(i.get("description") or "" for i in item.get("items") or [])]
    for embed in embeds:
        parts += [embed.get("title", ""), embed.get("description", ""),
                  (embed.get("footer") or {}).get("text", "")]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def check_everything_read(standin) -> int:
    seen = 0
    for content, embeds, components in states(standin):
        seen += 1
        text = words(content, embeds, components)
        assert not ONE_MANY.search(text), ONE_MANY.search(text).group(0)
        assert all(m.group(0) in ("Go-Stop", "gostop") for m in NAME.finditer(text)), text
        assert not re.search(r"\(\d[AB]\)", text)
        moves = []
        for item in walk_components(components):
            label = item.get("label")
            if label is not None:
                limit = 80 if item.get("type") == 2 else 100
                assert len(label) <= limit and (ELLIPSIS not in label or label.endswith(ELLIPSIS)), label
                if str(item.get("custom_id", "")).startswith("hf:act:"):
                    moves.append(label)
            for option in item.get("options", []):
                assert len(option["label"]) <= 100
                moves.append(option["label"])
        assert len(moves) == len(set(moves)), f"a move offered twice: {moves}"
    return seen


async def test_a_koikoi_match_reads_right(hbot, standin, world):
    await human_moves_first(hbot, world)
    await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=2)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    assert check_everything_read(standin) > 10


async def test_a_first_bloom_match_reads_right(hbot, standin, world):
    hbot.tables.slap_delays = (0.0, 0.01)
    await world.admin.slash(world.channel, "firstbloom", ai="easy", players=3, rounds=1)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    assert check_everything_read(standin) > 10


async def test_a_go_stop_match_reads_right(hbot, standin, world):
    # A chongtong dealt at the start ends the round before anyone moves: too little to read.
    await hbot.store.set_house_rules(world.guild.id, "gostop", {"chongtong": "off"})
    await world.admin.slash(world.channel, "gostop", ai="easy", rounds=1)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    assert check_everything_read(standin) > 10
