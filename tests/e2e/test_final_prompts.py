"""Every message knows when its game is over (issue 45, item 11): once a game ends, by a forfeit
or played to the end, no hand still asks for a move, offers a choice or says what going out
now would cost."""

from __future__ import annotations

import pytest

from bot.games import game_module
from tests.e2e.playing import game_over, hands, table_posted
from tests.e2e.test_koikoi_bot import make_bot
from tests.e2e.test_table_safety import play_out, start

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "final.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    return bot


def last_hand(standin, user):
    return [m for m in hands(standin, user) if "hand.png" in m.files][-1]


def says_over(message) -> bool:
    lines = [line for line in message.text().splitlines() if not line.startswith(("## ", "-# "))]
    return bool(lines) and all(line.endswith("game over") for line in lines) and not message.custom_ids()


async def test_after_a_forfeit_no_hand_asks_for_a_move(hbot, standin, world):
    challenge = (await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=3)).original
    await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    [table] = await table_posted(standin, world.channel)
    forfeit = next(c for c in table.custom_ids() if c.startswith("hf:forfeit:"))
    asked = await world.player.click(table, forfeit)
    await world.player.click(asked.messages[0], forfeit + ":sure")
    await game_over(standin, world.channel)
    await hbot.publisher.drain()
    for user in (world.admin, world.player):
        hand = last_hand(standin, user)
        assert says_over(hand), hand.text()
        assert "play a card" not in hand.text()


async def test_a_first_bloom_hand_at_the_end_says_no_more_what_going_out_costs(hbot, standin, world):
    rules = game_module("shedding").Rules.preset(next(iter(game_module("shedding").Rules.PRESETS)),
                                                 rounds=1)
    table = await start(hbot, world, "shedding", [world.admin.id, "ai:easy", "ai:easy"],
                        ["alice", "AI 1 (easy)", "AI 2 (easy)"], rules, 11)
    await play_out(hbot, standin, world.admin, table)
    await hbot.publisher.drain()
    hand = last_hand(standin, world.admin)
    assert says_over(hand), hand.text()
