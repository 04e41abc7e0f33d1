"""A turn notifies a player only when they are not already looking (issue 45, item 10).

Through the stand-in, counting the messages that notify (new messages; edits do not notify):
a player who keeps pressing gets no turn DM at all, only their hand; one who stops gets one
alert once a quiet spell has passed, and no other while it stays unanswered; and a player without DMs is not pinged in the channel on
every turn while they play."""

from __future__ import annotations

import pytest

from tests.e2e.playing import Player, table_posted
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot
from tests.e2e.test_turn_alerts import channel_alerts, sent_by_bot, turn_dms

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "notices.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    return bot


def notices(standin, user) -> list:
    """Every message the bot created in ``user``'s DMs: each one notified them once."""
    return [m for m in sent_by_bot(standin) if m.channel.recipient is user]


async def test_a_player_who_keeps_pressing_gets_no_turn_dm(hbot, standin, world):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
    await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.admin])
    for _ in range(12):
        if not await player.step():
            break
    assert player.pressed >= 6
    assert turn_dms(standin, world.admin) == []
    assert len(notices(standin, world.admin)) == 1  # the hand, edited move after move


async def test_a_player_who_stops_pressing_is_alerted_once_the_quiet_spell_ends(hbot, standin, world):
    hbot.publisher.looking_seconds = 0.5
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
    await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.admin])
    assert await player.step()  # one press: they answered their hand
    table = next(iter(hbot.tables.tables.values()))
    await standin.wait_for(lambda: table.turn_seat == 0, "the player's turn again")
    [alert] = await standin.wait_for(lambda: turn_dms(standin, world.admin), "the turn DM")
    assert not alert.deleted and hbot.publisher.marks(table).alert["message"] == alert.id


async def test_an_unanswered_alert_is_not_followed_by_another(hbot, standin, world):
    hbot.publisher.looking_seconds = 0.0
    hbot.tables.timeout_override = 0.6  # the player is away: their turns time out
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=12)
    await table_posted(standin, world.channel)
    assert await Player(standin, world.channel, [world.admin]).step()  # then they leave
    table = next(iter(hbot.tables.tables.values()))
    await standin.wait_for(lambda: turn_dms(standin, world.admin), "the first turn DM")
    timed_out = table.timeouts[0]
    await standin.wait_for(lambda: table.finished or table.timeouts[0] >= timed_out + 3,
                           "three more of their turns timed out", timeout=60)
    await hbot.publisher.drain()
    assert len(turn_dms(standin, world.admin)) == 1  # neither alert nor warning again
    assert len(notices(standin, world.admin)) == 2  # their hand and that one alert


async def test_a_player_without_dms_is_not_pinged_on_every_turn(hbot, standin, world):
    await world.shy.slash(world.channel, "koikoi", ai="normal", rounds=3)
    await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.shy])
    for _ in range(10):
        if not await player.step():
            break
    assert player.pressed >= 5
    assert channel_alerts(standin, world.channel, world.shy) == []
