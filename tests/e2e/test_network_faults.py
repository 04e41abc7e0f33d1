"""The connection to Discord cut in the middle of a table's delivery, before Discord took the
request or after it did (the answer lost on the way): the delivery is tried again, an edit
lands once and a post is kept once by its nonce, the table never stays behind its game, and a
game whose first table could not be shown goes on.
The real bot against the Discord stand-in, which cuts the connection where a test says."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_ui import controls as controls_module
from bot.metrics import REGISTRY
from tests.e2e.playing import (
    Player,
    controls,
    hand_message,
    move_of,
    reply_text,
    table_messages,
    table_move,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot
from tests.e2e.test_slow_database import hang
from tests.e2e.test_start_safety import cid
from tests.e2e.test_turn_alerts import TURN_DM, turn_dms

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    """A bot whose AI thinks for an hour: after the player's move nothing else redraws the
    table, so only the delivery's own retry can bring it up to date."""
    bot = await start_bot(make_bot(standin, tmp_path / "faults.sqlite3", world.guild.id))
    bot.tables.ai_delay = 3600.0
    await human_moves_first(bot, world)
    return bot


async def a_table(standin, world):
    """A one-round Koi-Koi game of the admin against the AI: the command's interaction, its
    table message and the admin's hand."""
    record = await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_for(lambda: table_messages(standin, world.channel), "the table")
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the hand")
    return record, table, hand


def live_tables(standin, channel) -> list:
    return [m for m in table_messages(standin, channel) if not m.deleted]


CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def first_responses(standin, record) -> list[tuple[int, int]]:
    """The first responses the bot sent an interaction: (type, status), 499 for a cut."""
    return [(r.body.get("type"), r.status) for r in standin.requests_to(CALLBACK)
            if f"/interactions/{record.id}/" in r.path]


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_a_table_edit_cut_off_is_tried_again(hbot, standin, world, drop):
    record, table, hand = await a_table(standin, world)
    cut = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            drop=drop, webhook_token=record.token)
    await world.admin.click(hand, controls(hand)[0])
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after the move", channels=[world.channel])
    assert cut.remaining == 0 and live_tables(standin, world.channel) == [standin.message(table)]


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_a_table_posted_anew_and_cut_off_is_kept_once(hbot, standin, world, drop):
    """The table's message was deleted, so the move's delivery posts it anew; the connection is
    cut on that post. Tried again under the same nonce, Discord keeps one message (the one it
    took, when it took it), and the bot keeps that one up to date."""
    record, table, hand = await a_table(standin, world)
    standin.message(table).deleted = True
    cut = standin.fail_next("POST /channels/{channel_id}/messages", drop=drop,
                            channel_id=world.channel.id, where=lambda call: "table.png" in str(call.files))
    await world.admin.click(hand, controls(hand)[0])
    [posted] = await standin.wait_for(
        lambda: (found := live_tables(standin, world.channel)) and (table_move(found[-1]) or 0) > 0
        and hbot.publisher.where(int(cid_game(found[-1]))) == (world.channel.id, found[-1].id) and found,
        "the table posted anew, once, and noted", channels=[world.channel])
    assert cut.remaining == 0
    nonces = {r.body.get("nonce") for r in standin.requests if r.method == "POST"
              and r.path.endswith(f"/channels/{world.channel.id}/messages") and isinstance(r.body, dict)
              and "table.png" in str(r.body)}
    assert len(nonces) == 1 and None not in nonces


def cid_game(message) -> str:
    """The game id in a table message's controls (hf:hand:<gid>)."""
    return next(c for c in message.custom_ids() if c.startswith("hf:hand:")).rsplit(":", 1)[1]


async def test_a_turn_alert_cut_off_after_discord_took_it_is_sent_once(hbot, standin, world):
    """The turn DM is taken by Discord and its answer lost: tried again under the same nonce, it
    is the DM already sent (one notice, not two), and the bot notes that one as the alert."""
    hbot.tables.ai_delay = 0.01
    hbot.publisher.looking_seconds = 0.5
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
    await table_posted(standin, world.channel)
    cut = standin.fail_next("POST /channels/{channel_id}/messages", drop="after",
                            where=lambda call: TURN_DM in str(call.body))
    player = Player(standin, world.channel, [world.admin])
    assert await player.step()  # one press, then they look away
    table = next(iter(hbot.tables.tables.values()))
    await standin.wait_for(lambda: cut.remaining == 0, "the turn DM, cut off")
    alert = await standin.wait_for(
        lambda: (alert := hbot.publisher.marks(table).alert) and alert["message"], "the alert noted")
    assert [m.id for m in turn_dms(standin, world.admin)] == [alert]


@pytest.mark.parametrize("fault", ["cut before", "cut after", "token gone"])
async def test_a_game_whose_first_table_could_not_be_shown_goes_on(hbot, standin, world, fault):
    """The start's answer that becomes the table is cut off (or its token is gone): the game is
    stored, so it goes on and its table is shown by the next try (through the token while it
    lives, else posted by the bot), the hand is dealt, and nobody is told to try again."""
    kw = {"status": 404} if fault == "token gone" else {"drop": fault.split()[1]}
    cut = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            where=lambda call: "table.png" in str(call.body), **kw)
    record = await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_for(lambda: live_tables(standin, world.channel), "the table")
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the hand")
    assert cut.remaining == 0
    assert "try again" not in " ".join(m.content for m in record.messages)
    await world.admin.click(hand, controls(hand)[0])
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after the first move", channels=[world.channel])
    assert live_tables(standin, world.channel) == [standin.message(table)]


async def test_a_lobby_s_table_posted_as_the_bot_and_cut_after_is_kept_once(hbot, standin, world):
    """A lobby's start posts the table as the bot's own message; the connection is cut after
    Discord took it: the next try posts under the same nonce and gets that message back, so the
    channel holds one table, the one the bot keeps up to date."""
    lobby = (await world.admin.slash(world.channel, "koikoi", rounds=1)).original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    cut = standin.fail_next("POST /channels/{channel_id}/messages", drop="after",
                            channel_id=world.channel.id, where=lambda call: "table.png" in str(call.files))
    await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    [table] = await standin.wait_for(
        lambda: (found := live_tables(standin, world.channel)) and hbot.publisher.where(1) and found,
        "the table, noted", channels=[world.channel])
    assert cut.remaining == 0 and hbot.publisher.where(1) == (world.channel.id, table.id)
    await standin.settle()
    assert live_tables(standin, world.channel) == [standin.message(table)]


async def test_a_table_outlasting_every_listed_pause_is_shown_once_discord_is_back(hbot, standin, world):
    """Discord out of reach for longer than the delivery's listed pauses (an outage of minutes,
    shortened here; the connection fails each time): the delivery is not dropped, it keeps trying
    after the last pause, and the table shows the move once Discord is back."""
    hbot.publisher.retry.delays = (0.01, 0.01)
    retried = REGISTRY.get_sample_value("hanafuda_deliveries_retried_total")
    record, table, hand = await a_table(standin, world)
    outage = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                               drop="before", times=6, webhook_token=record.token)
    await world.admin.click(hand, controls(hand)[0])
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after the outage", channels=[world.channel])
    assert outage.remaining == 0 and live_tables(standin, world.channel) == [standin.message(table)]
    assert REGISTRY.get_sample_value("hanafuda_deliveries_retried_total") >= retried + 6


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_a_move_whose_answer_is_cut_is_played_and_never_refused(hbot, standin, world, drop):
    """The move is stored, then its acknowledgement is cut off, before Discord took it or after:
    the move stands and the table shows it, and the presser is never told something went wrong
    (nor answered a second time, which Discord refuses)."""
    record, table, hand = await a_table(standin, world)
    cut = standin.fail_next(CALLBACK, drop=drop, where=lambda call: call.body.get("type") == 6)
    pressed = await world.admin.press(hand, controls(hand)[0])
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after the move", channels=[world.channel])
    assert cut.remaining == 0
    game = next(iter(hbot.tables.tables.values()))
    assert game.seq == 1 and (await hbot.store.load_game(game.game_id, scope=world.guild.id)).last_seq == 1
    await hbot.publisher.drain()  # whatever the bot had to say, said
    # Cut before Discord took it, the acknowledgement is sent again; cut after, the bot asks
    # Discord and finds it taken. Never an apology, never a second first response.
    assert first_responses(standin, pressed) == ([(6, 499), (6, 200)] if drop == "before"
                                                  else [(6, 499)])
    assert pressed.initial is not None and pressed.initial.type == 6 and not pressed.errors


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_a_command_s_answer_cut_off_is_shown_once(hbot, standin, world, drop):
    """A command's answer (/rules, its page at once) is cut off on its way. Before Discord took
    it, it is sent again and shown; after, the bot asks Discord, finds it shown and says no
    more: no "something went wrong" over an answer that stands, no second first response
    (which Discord refuses)."""
    cut = standin.fail_next(CALLBACK, drop=drop)
    record = await world.admin.slash(world.channel, "rules")
    await standin.wait_for(lambda: cut.remaining == 0 and record.original is not None, "the answer")
    await hbot.publisher.drain()
    assert first_responses(standin, record) == ([(4, 499), (4, 200)] if drop == "before"
                                                 else [(4, 499)])
    assert [m.embeds[0]["title"] for m in record.messages] == ["🎴 Hanafuda games on this bot"]
    assert record.original.flags & 64 and not record.errors


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_my_hand_whose_acknowledgement_is_cut_off_still_shows_the_hand(hbot, standin, world,
                                                                            drop):
    """My hand is acknowledged with a private "thinking", then the hand replaces it. The
    acknowledgement cut off before Discord took it is sent again; cut after, it is found taken
    and the hand follows it: either way the presser gets the hand, once."""
    record, table, hand = await a_table(standin, world)
    cut = standin.fail_next(CALLBACK, drop=drop, where=lambda call: call.body.get("type") == 5)
    pressed = await world.admin.click(table, f"hf:hand:{cid_game(table)}")
    assert cut.remaining == 0
    assert first_responses(standin, pressed) == ([(5, 499), (5, 200)] if drop == "before"
                                                  else [(5, 499)])
    [shown] = pressed.messages
    assert shown is hand_message(standin, world.admin) and controls(shown) and not shown.loading
    assert not pressed.errors


@pytest.mark.parametrize("answer", ["lost", "waiting"])
async def test_a_private_hand_whose_move_was_answered_apart_still_follows_the_game(
        hbot, standin, world, monkeypatch, answer):
    """carol reads her hand privately (her DMs are closed): My hand's answer is its only copy,
    and only a token reaches it. A move whose press cannot edit it (its acknowledgement lost:
    cut before Discord took it, and again when sent once more; or answered with a message of
    its own, that the move waits for a slow database) is played all the same, and her hand
    then shows it through My hand's token, rather than stay as it was until she opens it anew."""
    await world.shy.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_for(lambda: table_messages(standin, world.channel), "the table")
    await standin.wait_for(lambda: [m for m in standin.channel_messages(world.channel)
                                    if "can't send you direct messages" in m.content],
                           "the notice that her DMs are closed", channels=[world.channel])
    opened = await world.shy.click(table, f"hf:hand:{cid_game(table)}")
    [hand] = opened.messages
    assert hand.flags & 64 and move_of(hand) == 0
    if answer == "lost":
        cut = standin.fail_next(CALLBACK, drop="before", times=2,
                                where=lambda call: call.body.get("type") == 6)
    else:
        monkeypatch.setattr(controls_module, "ACK_SECONDS", 0.1)
        back = asyncio.Event()
        hang(hbot.store._db, back)
    pressed = await world.shy.press(hand, controls(hand)[0])
    if answer == "waiting":
        await standin.wait_for(lambda: "waiting for the database" in reply_text(pressed),
                               "the answer that the move waits")
        back.set()
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after the move", channels=[world.channel])
    await standin.wait_for(lambda: not controls(standin.message(hand)), "her hand after the move")
    if answer == "lost":
        assert cut.remaining == 0 and first_responses(standin, pressed) == [(6, 499), (6, 499)]
        await standin.finish_interaction(pressed, reply=False)
        assert pressed.initial is None and standin.take_violations("no-ack")  # "This interaction failed"


async def test_my_hand_pressed_before_the_refused_dm_is_the_hand_from_then_on(hbot, standin, world,
                                                                              monkeypatch):
    """carol presses My hand before the bot has tried her hand's DM (Discord slow to open it),
    and the DM is then refused: the copy she holds is her hand from then on, kept up to date
    (here, shown ended once she cancels the game) rather than left with its moves until she
    opens it anew."""
    opening, real = asyncio.Event(), hbot.http.start_private_message

    async def held(user_id):
        await opening.wait()
        return await real(user_id)

    monkeypatch.setattr(hbot.http, "start_private_message", held)
    await world.shy.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_for(lambda: table_messages(standin, world.channel), "the table")
    [copy] = (await world.shy.click(table, f"hf:hand:{cid_game(table)}")).messages
    assert copy.flags & 64 and controls(copy)
    opening.set()
    await standin.wait_for(lambda: [m for m in standin.channel_messages(world.channel)
                                    if "can't send you direct messages" in m.content],
                           "the notice that her DMs are closed", channels=[world.channel])
    await world.shy.click(table, f"hf:cancel:{cid_game(table)}")
    await standin.wait_for(lambda: not controls(standin.message(copy)), "her copy, shown ended")
