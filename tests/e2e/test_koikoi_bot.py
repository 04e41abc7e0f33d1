"""The real bot plays Koi-Koi end to end against the local Discord stand-in."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.client import HanafudaBot
from bot.config import Settings
from tests.discord_standin import StandIn

pytestmark = pytest.mark.asyncio


def make_bot(standin: StandIn, db, guild_id: int) -> HanafudaBot:
    bot = HanafudaBot(Settings(token=standin.token, database_path=db, dev_guild_id=guild_id))
    return bot


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await standin.settle()
    return bot


def table_messages(standin, channel):
    return [m for m in standin.channel_messages(channel) if any(a.filename == "table.png" for a in m.attachments)]


async def table_posted(standin, channel, count=1):
    await standin.wait_until(lambda: len(table_messages(standin, channel)) >= count, timeout=10)
    await standin.settle()


def reply_text(record) -> str:
    """Everything the bot answered to one interaction, as text."""
    return " ".join(m.content for m in record.messages)


def controls(message) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith("hf:act:")]


def hand_message(standin, user):
    """The newest private message (DM or ephemeral) of ``user`` that offers moves."""
    for m in reversed(standin.dms(user) + standin.ephemerals(user)):
        if controls(m):
            return m
    return None


def current_hand(standin, user, table):
    """The private message of ``user`` offering moves for the table's current move, if any."""
    for m in reversed(standin.dms(user) + standin.ephemerals(user)):
        if any(c.startswith(f"hf:act:{table.game_id}:{table.seq}:") for c in controls(m)):
            return m
    return None


async def running(bot) -> list:
    return await bot.store.list_running_games()


async def play_out(bot, standin, users, limit=400, seconds=120.0) -> None:
    """Each user to act presses the first offered move until the game ends (or ``limit`` moves).

    Waiting for the AI's turns counts against ``seconds`` of wall clock, not against ``limit``:
    on a loaded machine the AI's moves (rendered tables) took more than the move budget."""
    deadline = time.monotonic() + seconds
    moves = 0
    while moves < limit and time.monotonic() < deadline:
        await standin.settle()
        if not bot.tables.tables:
            return
        table = next(iter(bot.tables.tables.values()))
        seat = table.match.current_player
        if seat is None or isinstance(table.players[seat], str):
            await asyncio.sleep(0.02)
            continue
        moves += 1
        user = next(u for u in users if u.id == table.players[seat])
        msg = current_hand(standin, user, table)
        if msg is None and seat not in table.dm_failed:
            await asyncio.sleep(0.02)  # the DM of this move is still on its way
            msg = current_hand(standin, user, table)
        if msg is None:
            table_msg = table_messages(standin, table.channel_id)[-1]
            record = await user.click(table_msg, f"hf:hand:{table.game_id}")
            msg = record.messages[-1]
            assert msg.ephemeral and "hand.png" in msg.files
        await user.click(msg, controls(msg)[0])
    if limit >= 400:
        raise AssertionError("the game did not finish")


async def test_full_match_against_the_ai_with_private_hands(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    assert record.response_type == 5
    await table_posted(standin, world.channel)
    [table_msg] = table_messages(standin, world.channel)
    assert {"hf:hand:", "hf:rules:koikoi", "hf:forfeit:", "hf:cancel:"} <= {
        c if c.startswith("hf:rules") else c.rsplit(":", 1)[0] + ":" for c in table_msg.custom_ids()}
    hand = hand_message(standin, world.admin)
    assert hand is not None and "hand.png" in hand.files
    await play_out(hbot, standin, [world.admin])
    [game] = [g for g in await hbot.store.list_running_games()] or [None]
    assert game is None
    final = standin.message(table_msg)
    assert not final.components and any(f["name"] == "Result" for f in final.embeds[0]["fields"])
    # privacy: the channel never received a hand picture
    assert all("hand.png" not in m.files for m in standin.channel_messages(world.channel))


async def test_challenge_accept_wrong_user_stale_and_double_click(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1)
    challenge = record.original
    refused = await world.shy.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    assert "not for you" in reply_text(refused) and refused.messages[0].ephemeral
    await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    await table_posted(standin, world.channel)
    assert len(table_messages(standin, world.channel)) == 1
    table = next(iter(hbot.tables.tables.values()))
    first = world.admin if table.match.current_player == 0 else world.player
    other = world.player if first is world.admin else world.admin
    msg = hand_message(standin, first)
    move = controls(msg)[0]
    # someone else's turn
    other_msg = hand_message(standin, other)
    assert other_msg is None or not controls(other_msg)
    # a double click: both presses arrive before the hand is redrawn; only one acts
    a, b = await asyncio.gather(first.click(msg, move), first.click(msg, move))
    await standin.settle()
    assert "earlier turn" in reply_text(a) + reply_text(b)
    game = await hbot.store.load_game(table.game_id)
    assert [e.actor for e in game.events].count(first.id) == 1
    await play_out(hbot, standin, [world.admin, world.player])
    assert not hbot.tables.tables


async def test_closed_dms_use_the_ephemeral_hand(hbot, standin, world):
    await world.shy.slash(world.channel, "koikoi", ai="easy", rounds=1)
    await table_posted(standin, world.channel)
    notices = [m for m in standin.channel_messages(world.channel) if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    table = next(iter(hbot.tables.tables.values()))
    table_msg = table_messages(standin, world.channel)[-1]
    stranger = await world.player.click(table_msg, f"hf:hand:{table.game_id}")
    assert "not playing" in reply_text(stranger)
    # A private hand follows the game through the player's latest copy; an older copy keeps its
    # old controls, and pressing one later is refused politely.
    await play_out(hbot, standin, [world.shy], limit=3)
    old = None
    if hbot.tables.tables:
        old = (await world.shy.click(table_msg, f"hf:hand:{table.game_id}")).messages[-1]
        await world.shy.click(table_msg, f"hf:hand:{table.game_id}")  # the newer copy
    await play_out(hbot, standin, [world.shy], limit=3)
    if hbot.tables.tables and old is not None and len(controls(old)) > 1:
        late = await world.shy.click(old, controls(old)[-1])
        assert "earlier turn" in reply_text(late) or "not your turn" in reply_text(late)
    await play_out(hbot, standin, [world.shy])
    mine = standin.ephemerals(world.shy)
    assert mine and all(m.ephemeral_for.id == world.shy.id for m in mine)
    # bob sees only his own refusal, never carol's private hands
    seen_by_bob = [m for m in standin.visible_to(world.player) if m.ephemeral]
    assert all(m.ephemeral_for.id == world.player.id and "hand.png" not in m.files for m in seen_by_bob)


async def test_stake_is_escrowed_and_settled(hbot, standin, world):
    store = hbot.store
    before = await store.open_account(world.guild.id, world.admin.id)
    start_balance = await store.balance(world.guild.id, world.admin.id)
    await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=1, stake=100)
    await table_posted(standin, world.channel)
    assert await store.balance(world.guild.id, world.admin.id) == start_balance - 100
    await play_out(hbot, standin, [world.admin])
    after = await store.balance(world.guild.id, world.admin.id)
    assert after in (start_balance - 100, start_balance + 100, start_balance)
    assert (await store.audit()).ok
    del before


async def test_restart_mid_match_resumes_and_finishes(start_bot, standin, world, tmp_path):
    db = tmp_path / "restart.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    await table_posted(standin, world.channel)
    # the AI may deal and move first: wait for the admin's turn
    await standin.wait_until(lambda: hand_message(standin, world.admin) is not None, timeout=10)
    msg = hand_message(standin, world.admin)
    await world.admin.click(msg, controls(msg)[0])
    await standin.settle()
    seq = next(iter(first.tables.tables.values())).seq
    await first.close()
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    await standin.settle()
    [table] = second.tables.tables.values()
    assert table.seq == seq
    await play_out(second, standin, [world.admin])
    assert not await second.store.list_running_games()


async def test_timeouts_play_for_the_absent_player_then_forfeit(hbot, standin, world):
    hbot.tables.timeout_override = 0.2
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=12)
    for _ in range(100):
        await asyncio.sleep(0.1)
        if not hbot.tables.tables:
            break
    await standin.settle()
    texts = [m.content for m in standin.channel_messages(world.channel)]
    assert any("seconds left" in t for t in texts)
    assert not hbot.tables.tables
    final = table_messages(standin, world.channel)[-1]
    result = [f for f in final.embeds[0]["fields"] if f["name"] == "Result"][0]["value"]
    assert "forfeited" in result


async def test_lobby_join_leave_start(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", rounds=1)
    lobby = record.original
    ids = {c.split(":")[2]: c for c in lobby.custom_ids()}
    started = await world.admin.click(lobby, ids["start"])
    assert "at least 2" in reply_text(started)
    await world.player.click(lobby, ids["join"])
    assert f"<@{world.player.id}>" in standin.message(lobby).embeds[0]["description"]
    await world.player.click(lobby, ids["leave"])
    assert f"<@{world.player.id}>" not in standin.message(lobby).embeds[0]["description"]
    await world.player.click(lobby, ids["join"])
    await world.admin.click(lobby, ids["start"])
    await table_posted(standin, world.channel)
    assert len(table_messages(standin, world.channel)) == 1
    assert not standin.message(lobby).components


async def test_challenge_declined_and_expired(hbot, standin, world, monkeypatch):
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player)
    decline = next(c for c in record.original.custom_ids() if ":decline:" in c)
    await world.player.click(record.original, decline)
    closed = standin.message(record.original)
    assert closed.embeds[0]["title"] == "Challenge declined" and not closed.components
    import sys
    monkeypatch.setattr(sys.modules["cogs.play"], "CHALLENGE_SECONDS", 1)  # the loaded extension
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player)
    await standin.wait_until(lambda: not standin.message(record.original).components, timeout=5)
    assert standin.message(record.original).embeds[0]["title"] == "Challenge expired"
    assert not hbot.tables.tables and not table_messages(standin, world.channel)


async def test_only_host_or_manager_cancels_and_stakes_come_back(hbot, standin, world):
    store = hbot.store
    await store.open_account(world.guild.id, world.player.id)
    start = await store.balance(world.guild.id, world.player.id)
    await world.player.slash(world.channel, "koikoi", ai="normal", stake=50)
    await table_posted(standin, world.channel)
    assert await store.balance(world.guild.id, world.player.id) == start - 50
    table = next(iter(hbot.tables.tables.values()))
    table_msg = table_messages(standin, world.channel)[-1]
    refused = await world.shy.click(table_msg, f"hf:cancel:{table.game_id}")
    assert "Only the player who started" in reply_text(refused)
    await world.admin.click(table_msg, f"hf:cancel:{table.game_id}")  # Manage Server
    await standin.settle()
    assert not hbot.tables.tables
    assert await store.balance(world.guild.id, world.player.id) == start
    assert (await store.audit()).ok


async def test_stake_larger_than_the_balance_is_refused(hbot, standin, world):
    await hbot.store.open_account(world.guild.id, world.player.id)
    record = await world.player.slash(world.channel, "koikoi", ai="easy", stake=999_999)
    await standin.settle()
    assert not hbot.tables.tables and not table_messages(standin, world.channel)
    assert record.messages and "chip" in reply_text(record).lower()
