"""One-message tables: the table and each hand are one laid-out message (Components V2) with the
picture, its description for screen readers, the words and the controls; a channel shows one
message per table plus one per round summary; and messages sent before the change keep working
after an upgrade (a press on one is taken, and the bot lays it out anew)."""

from __future__ import annotations

import pytest

from tests.discord_standin.layouts import MESSAGE_FLAG_COMPONENTS_V2
from tests.discord_standin.state import walk_components
from tests.e2e.playing import (
    controls,
    hand_message,
    heading,
    play_out,
    section,
    small_print,
    table_messages,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot

pytestmark = pytest.mark.asyncio


def as_before(message) -> None:
    """Make a laid-out message what the bot sent before one-message tables: an embed with the
    picture, and the same controls in action rows."""
    items = [c for c in walk_components(message.components) if c["type"] in (2, 3)]
    rows: list[dict] = []
    for item in items:
        if item["type"] == 3 or not rows or rows[-1]["components"][0]["type"] == 3 or len(rows[-1]["components"]) == 5:
            rows.append({"type": 1, "components": []})
        rows[-1]["components"].append(item)
    picture = next(a.filename for a in message.attachments)
    message.embeds = [{"type": "rich", "title": heading(message), "description": "as it was",
                       "footer": {"text": small_print(message)}, "image": {"url": f"attachment://{picture}"}}]
    message.components = rows
    message.flags &= ~MESSAGE_FLAG_COMPONENTS_V2


def parts(message) -> list[int]:
    """The component types of a laid-out message's container."""
    [container] = message.components
    assert container["type"] == 17
    return [c["type"] for c in container["components"]]


async def test_the_table_and_the_hand_are_each_one_laid_out_message(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=2)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the admin's hand")
    for message, picture in ((table, "table.png"), (hand, "hand.png")):
        assert message.laid_out and not message.content and not message.embeds
        kinds = parts(message)
        assert kinds[:2] == [10, 12] and kinds[-1] == 1  # heading, picture ... controls
        [item] = message.components[0]["components"][1]["items"]
        assert item["media"]["url"] == f"attachment://{picture}" and item["description"]
        assert list(message.files) == [picture]
    # the picture's description says the game and, once a move is made, that move
    assert heading(table).startswith("Koi-Koi") and "sits down against" in table.text()
    await play_out(standin, world.channel, [world.admin])
    await bot.publisher.drain()
    final = standin.message(table)
    alt = final.components[0]["components"][1]["items"][0]["description"]
    result = section(final, "Result").splitlines()[0].strip("*")
    assert alt.startswith(f"{heading(final)}. {result} · ")  # then the score
    # the channel: one message for the table, one per round summary, nothing else
    channel = standin.channel_messages(world.channel)
    assert channel[0] is final and table_messages(standin, world.channel) == [final]
    summaries = channel[1:]
    assert summaries and all("summary.png" in m.files for m in summaries)
    assert len(summaries) == 2  # a two-round match


async def test_messages_from_before_keep_working_after_an_upgrade(start_bot, standin, world, tmp_path):
    db = tmp_path / "bot.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    await human_moves_first(first, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=2)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the admin's hand")
    await first.publisher.drain()
    # a hand sent before the change: its move buttons are pressed as they are, and the press's
    # answer lays the hand out anew
    as_before(hand)
    assert not hand.laid_out and hand.embeds
    record = await world.admin.click(hand, controls(hand)[0])
    assert record.response_type == 6  # taken, answered by editing the hand
    await standin.wait_for(lambda: standin.message(hand).laid_out or None, "the hand laid out anew")
    assert not standin.message(hand).embeds and not standin.message(hand).content
    assert any(not r.flags & MESSAGE_FLAG_COMPONENTS_V2 and r.embeds for r in hand.history)
    await first.publisher.drain()
    await first.close()
    # a table sent before the change: the restart brings it up to date as one laid-out message
    as_before(standin.message(table))
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    await standin.wait_for(lambda: standin.message(table).laid_out or None, "the table laid out anew",
                           channels=[world.channel])
    assert table_messages(standin, world.channel) == [standin.message(table)]  # edited, not posted again
    await play_out(standin, world.channel, [world.admin])
