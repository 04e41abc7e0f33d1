"""Players learn that it is their turn and until when, through the stand-in.

Edits do not notify in Discord, so a turn that passes to a human who is not looking brings one
short new message (a DM, or a ping in the channel for players without DMs) and the previous one
is deleted: a table never has more than one turn alert alive. The move's deadline shows as a
Discord timestamp.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.discord_standin import Message, StandIn
from tests.discord_standin.limits import RouteLimit
from tests.e2e.playing import (
    Player,
    game_over,
    hand_message,
    reply_text,
    section,
    table_messages,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot

pytestmark = pytest.mark.asyncio

TURN_DM = "Your turn in"


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    every_turn(bot)
    await human_moves_first(bot, world)
    return bot


def every_turn(bot) -> None:
    """Alert on every turn, as these tests count alerts coming and going; when an alert is held
    back (the player is looking) is tests/e2e/test_turn_notices.py's subject."""
    bot.publisher.looking_seconds = 0.0
    bot.publisher.channel_wait = 0.0


def sent_by_bot(standin: StandIn) -> list[Message]:
    """Every message the bot created, deleted ones included, oldest first."""
    return sorted((m for m in standin.messages.values() if m.author is standin.bot_user),
                  key=lambda m: m.id)


def turn_dms(standin: StandIn, user) -> list[Message]:
    return [m for m in sent_by_bot(standin) if m.channel.recipient is user
            and (TURN_DM in m.content or "is due" in m.content)]


def channel_alerts(standin: StandIn, channel, user) -> list[Message]:
    return [m for m in sent_by_bot(standin) if m.channel is channel and f"<@{user.id}>" in m.content
            and ("your turn" in m.content or "is due" in m.content)]


def most_alive(standin: StandIn, monkeypatch, alerts: Callable[[], list[Message]]) -> list[int]:
    """Counts of live alerts after every request the bot made (the stand-in's change hook)."""
    counts: list[int] = []
    notify = standin.notify_change

    def counted() -> None:
        counts.append(sum(not m.deleted for m in alerts()))
        notify()

    monkeypatch.setattr(standin, "notify_change", counted)
    return counts


async def test_turn_dm_is_replaced_as_the_turn_comes_back(hbot, standin, world, monkeypatch):
    alive = most_alive(standin, monkeypatch, lambda: turn_dms(standin, world.admin))
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=12)
    [table] = await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.admin])
    while len(turn_dms(standin, world.admin)) < 3:
        assert await player.step(), "twelve rounds give the admin more than three turns"
    sent = turn_dms(standin, world.admin)
    first = sent[0]
    assert f"<#{world.channel.id}>" in first.content and "<t:" in first.content
    assert f"/channels/{world.guild.id}/{world.channel.id}/{table.id}" in first.content
    assert first.deleted and sent[1].deleted, "each turn DM goes when the next one comes"
    await world.admin.click(standin.message(table), next(c for c in table.custom_ids()
                                                         if c.startswith("hf:cancel:")))
    await standin.wait_for(lambda: all(m.deleted for m in turn_dms(standin, world.admin)),
                           "the last turn DM deleted when the game is cancelled")
    assert alive and max(alive) == 1, "never two turn DMs of one table at once"
    # the hand DM itself is never deleted: the alerts come and go below it
    assert any("hand.png" in m.files for m in standin.dms(world.admin))


async def test_one_channel_alert_per_table_for_a_player_without_dms(hbot, standin, world, monkeypatch):
    # Against an AI that moves at once, twelve rounds pass in seconds and their summaries fill the
    # channel's message bucket (5 per 5 s), so alerts would wait out the bucket until the match is
    # over; people play ~50 times slower. This test is about one alert alive at a time: a roomier
    # bucket (the pacing under Discord's own bucket is tested with the stand-in's defaults).
    roomy = RouteLimit(100, 5.0)
    for method in ("POST", "PATCH", "DELETE"):
        template = "/channels/{channel_id}/messages" + ("" if method == "POST" else "/{message_id}")
        standin.limits.routes[(method, template)] = roomy
    alive = most_alive(standin, monkeypatch, lambda: channel_alerts(standin, world.channel, world.shy))
    await world.shy.slash(world.channel, "koikoi", ai="normal", rounds=12)
    [table] = await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.shy])
    while len(channel_alerts(standin, world.channel, world.shy)) < 3:
        assert await player.step(), "twelve rounds give carol more than three turns"
    sent = channel_alerts(standin, world.channel, world.shy)
    assert all(m.deleted for m in sent[:-1])
    assert all("My hand" in m.content and "<t:" in m.content for m in sent), [m.content for m in sent]
    await world.shy.click(standin.message(table), next(c for c in table.custom_ids()
                                                       if c.startswith("hf:cancel:")))
    await standin.wait_for(
        lambda: all(m.deleted for m in channel_alerts(standin, world.channel, world.shy)),
        "the last channel alert deleted when the game is cancelled", channels=[world.channel])
    assert alive and max(alive) == 1, "never two turn alerts of one table at once"
    # each alert pinged exactly its player and nobody else
    posts = [r.body for r in standin.requests if r.method == "POST" and isinstance(r.body, dict)
             and "your turn" in str(r.body.get("content"))]
    assert posts and all([int(u) for u in b["allowed_mentions"]["users"]] == [world.shy.id]
                         and not b["allowed_mentions"].get("parse") for b in posts)


async def test_deadline_on_table_and_hand_and_warning_says_when(hbot, standin, world):
    challenge = (await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1)).original
    await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    [table] = await table_posted(standin, world.channel)

    def turn_field() -> str:
        return section(standin.message(table), "Turn") or ""

    await standin.wait_for(lambda: "<t:" in turn_field(), "the deadline on the table",
                           channels=[world.channel])
    due = int(turn_field().split("<t:")[1].split(":")[0])
    to_play = next(u for u in (world.admin, world.player) if u.name in turn_field())
    hand = await standin.wait_for(
        lambda: (m := hand_message(standin, to_play)) and "<t:" in m.text() and m,
        "the hand of the player to move, with the deadline")
    assert f"<t:{due}:R>" in hand.text()
    # the warning before the timeout says when: from the next move on it comes at once
    hbot.tables.timeout_override = 60.0
    hbot.tables.warning_fraction = 0.0
    record = await to_play.click(hand, next(c for c in hand.custom_ids() if c.startswith("hf:act:")))
    assert not reply_text(record)  # a move is answered by the hand itself, not by a message
    # whoever moves next (the same player when the move asks them for a choice) is warned
    warning, warned = await standin.wait_for(
        lambda: next(((m, u) for u in (world.admin, world.player) for m in standin.dms(u)
                      if "is due" in m.content), None),
        "the timeout warning of the next move")
    assert "<t:" in warning.content and "safe move" in warning.content
    assert [m for u in (world.admin, world.player) for m in turn_dms(standin, u)
            if not m.deleted] == [warning], "the warning replaced the turn DM"
    await standin.wait_for(lambda: f"**{warned.name}**" in turn_field() and "<t:" in turn_field(),
                           "the table showing the warned player's deadline", channels=[world.channel])


async def test_forfeit_reads_naturally_and_the_final_table_names_the_winner(hbot, standin, world):
    challenge = (await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=3)).original
    await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    [table] = await table_posted(standin, world.channel)
    forfeit = next(c for c in table.custom_ids() if c.startswith("hf:forfeit:"))
    asked = await world.player.click(table, forfeit)
    await world.player.click(asked.messages[0], forfeit + ":sure")
    final = await game_over(standin, world.channel)
    result = section(final, "Result")
    assert result.startswith("**bob forfeited; alice wins**"), result
    assert "forfeits:" not in result and section(final, "Turn") is None
    await standin.wait_for(lambda: all(m.deleted for m in turn_dms(standin, world.admin)
                                       + turn_dms(standin, world.player)),
                           "no turn DM left once the game is over")
    assert len(table_messages(standin, world.channel)) == 1


async def test_a_restart_leaves_no_turn_dm_behind(start_bot, standin, world, tmp_path):
    db = tmp_path / "alerts.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    every_turn(first)
    await human_moves_first(first, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=12)
    await table_posted(standin, world.channel)
    player = Player(standin, world.channel, [world.admin])
    while len(turn_dms(standin, world.admin)) < 2:  # an alert sent after its move was stored
        assert await player.step(), "twelve rounds give the admin more than two turns"
    # the newest alert is saved with the table, so the bot after the restart knows to delete it
    await standin.wait_for(lambda: (t := next(iter(first.tables.tables.values()), None)) is not None
                           and (alert := first.publisher.marks(t).alert) is not None
                           and alert["message"] == turn_dms(standin, world.admin)[-1].id,
                           "the newest turn DM remembered by its table")
    await first.publisher.drain()
    await first.close()
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    every_turn(second)
    await Player(standin, world.channel, [world.admin], pressed=player.pressed).play()
    await standin.wait_for(lambda: all(m.deleted for m in turn_dms(standin, world.admin)),
                           "every turn DM deleted by the end of the match")
