"""Every press is answered, even on a control no longer in use: a button removed a moment
before the press arrived, or one of an older version whose custom id no control matches.
discord.py drops such presses, so without the bot's own answer Discord would show "This
interaction failed"; a press a control takes is answered once, by that control."""

from __future__ import annotations

import pytest

from tests.e2e.community_data import start_hbot
from tests.e2e.test_start_safety import cid

pytestmark = pytest.mark.asyncio

NO_LONGER = "That control is no longer in use"


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def said(record) -> str:
    return "\n".join(m.content for m in record.messages)


async def test_a_press_on_a_removed_button_is_answered(hbot, standin, world):
    lobby = (await world.admin.slash(world.channel, "gostop", rounds=1)).original
    join = cid(lobby, "hf:lb:join:")
    await world.admin.click(lobby, cid(lobby, "hf:lb:cancel:"))  # the host closes the lobby
    closed = await standin.wait_for(
        lambda: not standin.message(lobby).custom_ids() and standin.message(lobby),
        "the closed lobby without its buttons", channels=[world.channel])
    pressed = await world.player.press_gone(closed, join)  # pressed as the buttons went
    [answer] = await standin.answered(pressed)
    assert answer.ephemeral and answer.ephemeral_for is world.player
    assert said(pressed).startswith(NO_LONGER)


async def test_a_press_on_an_unknown_control_is_answered_once(hbot, standin, world):
    old = standin.bot_message(world.channel, [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Deal again", "custom_id": "hf:deal:again:7"},
        {"type": 3, "custom_id": "nothing-of-this-bot", "options": [{"label": "x", "value": "x"}]},
    ]}])
    for custom_id, kind in (("hf:deal:again:7", 2), ("nothing-of-this-bot", 3)):
        pressed = await world.player.press_gone(old, custom_id, kind, ["x"])
        [answer] = await standin.answered(pressed)
        assert answer.ephemeral and said(pressed).startswith(NO_LONGER), custom_id
    # a press a control takes gets that control's answer only (the stand-in refuses a second
    # callback, which the test teardown would report)
    rules = standin.bot_message(world.channel, [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Rules", "custom_id": "hf:rules:nosuchgame"}]}])
    pressed = await world.player.click(rules, "hf:rules:nosuchgame")
    assert said(pressed) == "There is no such game."
    assert [r for r in standin.requests if r.status >= 400] == []
