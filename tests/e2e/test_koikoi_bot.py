"""The real bot plays Koi-Koi end to end against the local Discord stand-in."""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.games import koikoi
from bot.store import EVERY_SERVER
from tests.discord_standin import StandIn
from tests.e2e.playing import (
    Player,
    controls,
    game_over,
    hand_message,
    is_closed,
    move_of,
    play_out,
    reply_text,
    section,
    table_messages,
    table_move,
    table_posted,
)

pytestmark = pytest.mark.asyncio

__all__ = ["make_bot", "play_out", "reply_text", "table_messages", "table_posted"]


def make_bot(standin: StandIn, db, guild_id: int) -> HanafudaBot:
    return HanafudaBot(Settings(token=standin.token, database_path=db, dev_guild_id=guild_id))


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    return bot


async def running(bot) -> list:
    return await bot.store.list_running_games(EVERY_SERVER)


# A seed whose deal gives the first turn to seat 0, the player who starts a game against the AI.
HUMAN_FIRST_SEED = next(seed for seed in range(64)
                        if koikoi.new_match(2, koikoi.Rules(teyaku="off"), seed).current_player == 0)


async def human_moves_first(bot, world) -> None:
    """Koi-Koi tests that need moves make sure a human moves before the round can end. The
    dealt-hand yaku (teshi, kuttsuki) end a round at the deal: they are turned off. A table's seed
    is random, and an AI that deals can end a one-round match in its first turn (two flower or
    moon viewing cards taken, then stop), before the test could press anything: the tables' seed
    is pinned to a deal where the player who starts the game (seat 0) plays first."""
    await bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    bot.tables.new_seed = lambda: HUMAN_FIRST_SEED


async def test_full_match_against_the_ai_with_private_hands(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    assert record.response_type == 5
    await table_posted(standin, world.channel)
    [table_msg] = table_messages(standin, world.channel)
    assert {"hf:hand:", "hf:rules:koikoi", "hf:forfeit:", "hf:cancel:"} <= {
        c if c.startswith("hf:rules") else c.rsplit(":", 1)[0] + ":" for c in table_msg.custom_ids()}
    # the hand comes by DM (it offers no move when a dealt-hand yaku ends the round at once)
    [hand] = await standin.wait_for(lambda: standin.dms(world.admin), "the admin's hand")
    assert "hand.png" in hand.files
    await play_out(standin, world.channel, [world.admin])
    [game] = [g for g in await hbot.store.list_running_games(EVERY_SERVER)] or [None]
    assert game is None
    final = standin.message(table_msg)
    # the game's controls are gone; only Rematch remains
    assert [c.rsplit(":", 1)[0] for c in final.custom_ids()] == ["hf:rematch"]
    assert section(final, "Result")
    # privacy: the channel never received a hand picture
    assert all("hand.png" not in m.files for m in standin.channel_messages(world.channel))


async def test_challenge_accept_wrong_user_stale_and_double_click(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1)
    challenge = record.original
    refused = await world.shy.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    await standin.answered(refused)
    assert "not for you" in reply_text(refused) and refused.messages[0].ephemeral
    await world.player.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    await table_posted(standin, world.channel)
    assert len(table_messages(standin, world.channel)) == 1
    table = next(iter(hbot.tables.tables.values()))
    first = world.admin if table.match.current_player == 0 else world.player
    other = world.player if first is world.admin else world.admin
    msg = await standin.wait_for(lambda: hand_message(standin, first), "the first player's moves")
    move = controls(msg)[0]
    # someone else's turn
    other_msg = hand_message(standin, other)
    assert other_msg is None or not controls(other_msg)
    # a double click: both presses reach the bot before the hand is redrawn; only one acts
    a, b = [await first.press(msg, move), await first.press(msg, move)]
    await asyncio.gather(standin.finish_interaction(a), standin.finish_interaction(b))
    await standin.wait_for(lambda: any("earlier turn" in reply_text(r) for r in (a, b)),
                           "the refusal of one of the two presses")
    # both answered as an update of the hand pressed, which shows the newest moves
    assert [r.initial.type for r in (a, b)] == [6, 6]
    game = await hbot.store.load_game(table.game_id, scope=EVERY_SERVER)
    assert [e.actor for e in game.events].count(first.id) == 1
    await play_out(standin, world.channel, [world.admin, world.player])
    assert not hbot.tables.tables


async def test_closed_dms_use_the_ephemeral_hand(hbot, standin, world):
    await human_moves_first(hbot, world)
    await world.shy.slash(world.channel, "koikoi", ai="easy", rounds=1)
    await table_posted(standin, world.channel)
    table = next(iter(hbot.tables.tables.values()))
    # The hand goes out after the table: the DM is refused, then the notice follows.
    notices = await standin.wait_for(
        lambda: [m for m in standin.channel_messages(world.channel) if "can't send you direct messages" in m.content],
        "the notice that carol's DMs are closed")
    await hbot.publisher.drain()
    notices = [m for m in standin.channel_messages(world.channel) if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    table_msg = table_messages(standin, world.channel)[-1]
    stranger = await world.player.click(table_msg, f"hf:hand:{table.game_id}")
    assert "not playing" in reply_text(stranger)
    player = Player(standin, world.channel, [world.shy])
    while (await standin.wait_for(player.next_step, "carol's first move"))[0] == "ask":
        await player.step()  # the bot asks her to press My hand
    assert player.next_step()[0] == "move"
    # she opens her hand a second time and plays from it: the first copy loses its controls
    stale = hand_message(standin, world.shy)
    stale_move = controls(stale)[-1]
    again = await world.shy.click(table_msg, f"hf:hand:{table.game_id}")
    assert again.messages[-1] is hand_message(standin, world.shy) and again.messages[-1] is not stale
    await hbot.publisher.drain()
    assert not controls(stale) and "this copy no longer takes moves" in stale.text()
    await player.step()
    moved = player.pressed + 1  # the move is stored before it is shown: wait until it is shown
    await standin.wait_for(lambda: is_closed(last := table_messages(standin, world.channel)[-1])
                           or table_move(last) >= moved, f"the table showing move {moved}")
    late = await world.shy.press_gone(stale, stale_move)  # her client still showed it
    await standin.wait_for(lambda: "no longer in use" in reply_text(late), "the refusal of a stale move")
    await player.play()
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
    await play_out(standin, world.channel, [world.admin])
    after = await store.balance(world.guild.id, world.admin.id)
    assert after in (start_balance - 100, start_balance + 100, start_balance)
    assert (await store.audit()).ok
    del before


async def test_restart_mid_match_resumes_and_finishes(start_bot, standin, world, tmp_path):
    db = tmp_path / "restart.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    await human_moves_first(first, world)
    # Three rounds: the AI may move first and win a round before the admin's first move (a stress
    # run saw a one-round match end so); the match then goes on and the admin's turn comes.
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
    await table_posted(standin, world.channel)
    # the AI may deal and move first: wait for the admin's turn
    msg = await standin.wait_for(lambda: hand_message(standin, world.admin), "the admin's moves")
    first.tables.ai_delay = 3600  # the AI does not answer before the restart: the move is known
    seq = int(controls(msg)[0].split(":")[3])
    await world.admin.click(msg, controls(msg)[0])
    # stop the bot only once the move is shown everywhere: a hand left offering the pressed move
    # would stay so after the restart (resuming does not redraw hands)
    await standin.wait_for(lambda: table_move(table_messages(standin, world.channel)[-1]) == seq + 1
                           and move_of(standin.message(msg)) != seq,
                           f"the table and the admin's hand showing move {seq + 1}")
    await first.close()
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    [table] = second.tables.tables.values()
    assert table.seq == seq + 1
    await play_out(standin, world.channel, [world.admin])
    assert not await second.store.list_running_games(EVERY_SERVER)


async def test_timeouts_play_for_the_absent_player_then_forfeit(hbot, standin, world):
    hbot.tables.timeout_override = 0.2
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=12)
    await game_over(standin, world.channel)
    # the warning came as the admin's turn DM (replaced since), saying when the move was due
    texts = [m.content for m in standin.messages.values() if m.channel.recipient is world.admin]
    assert any("safe move" in t and "<t:" in t for t in texts)
    assert not hbot.tables.tables
    final = table_messages(standin, world.channel)[-1]
    result = section(final, "Result")
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
    closed = standin.message(lobby)
    assert not closed.components
    assert closed.embeds[0]["title"] == "Koi-Koi lobby: started"
    assert "Join to take a seat" not in str(closed.embeds[0].get("footer"))  # no stale prompt


async def test_challenge_declined_and_expired(hbot, standin, world, monkeypatch):
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player)
    decline = next(c for c in record.original.custom_ids() if ":decline:" in c)
    await world.player.click(record.original, decline)
    closed = standin.message(record.original)
    assert closed.embeds[0]["title"] == "Challenge declined" and not closed.components
    monkeypatch.setattr(sys.modules["cogs.play.cog"], "CHALLENGE_SECONDS", 1)  # the loaded extension
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player)
    await standin.wait_for(lambda: not standin.message(record.original).components,
                           "the challenge to expire", channels=[world.channel])
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
    assert not hbot.tables.tables
    assert await store.balance(world.guild.id, world.player.id) == start
    assert (await store.audit()).ok


async def test_stake_larger_than_the_balance_is_refused(hbot, standin, world):
    await hbot.store.open_account(world.guild.id, world.player.id)
    record = await world.player.slash(world.channel, "koikoi", ai="easy", stake=999_999)
    assert not hbot.tables.tables and not table_messages(standin, world.channel)
    assert record.messages and "chip" in reply_text(record).lower()


async def test_a_balance_spent_after_the_check_is_refused_by_the_store_in_words(
        hbot, standin, world, monkeypatch):
    # The chips are there when the command checks, and gone (a gift) by the time the game is
    # stored: the store refuses the escrow, the table service passes its refusal on, and the
    # player reads it phrased in Discord's words, privately; the public answer says no more.
    play = sys.modules["cogs.play.cog"]  # as the bot loaded the extension
    store, guild = hbot.store, world.guild.id
    await store.open_account(guild, world.player.id)
    await store.open_account(guild, world.admin.id)
    balance = await store.balance(guild, world.player.id)
    checked = play.check_stakes

    async def check_then_spend(interaction, game, stake, humans):
        await checked(interaction, game, stake, humans)
        await store.transfer(guild, world.player.id, world.admin.id, balance - 10, key="spent")

    monkeypatch.setattr(play, "check_stakes", check_then_spend)
    record = await world.player.slash(world.channel, "koikoi", ai="easy", stake=100)
    await standin.wait_for(lambda: record.followups, "the private reason")
    assert record.original.content == "The game could not start."
    [reason] = record.followups
    assert reason.flags & 64  # ephemeral
    assert reason.content == f"<@{world.player.id}> has 10 chips but 100 are needed."
    assert not hbot.tables.tables and await store.balance(guild, world.player.id) == 10
    assert (await store.audit()).ok


async def test_a_hand_refused_by_a_burst_of_429s_is_delivered_later(hbot, standin, world):
    # More 429s than discord.py retries on its own: the publisher tries the DM again later
    # (after pauses the test shortens) instead of leaving the player without a hand.
    hbot.publisher.retry.delays = (0.05, 0.05, 0.05)
    standin.fail_next("POST /users/@me/channels", status=429, times=6, retry_after=0.01)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [hand] = await standin.wait_for(lambda: standin.dms(world.admin), "the admin's hand, after the 429s")
    assert "hand.png" in hand.files
    opens = [r.status for r in standin.requests_to("POST /users/@me/channels")]
    assert opens[:6] == [429] * 6 and opens[-1] == 200
    assert hbot.publisher.retry.retried >= 1
    standin.accept_rate_limits()


async def test_the_long_lived_heap_is_frozen_once_the_bot_is_ready(start_bot, standin, world, tmp_path,
                                                                 monkeypatch):
    # Full collections then walk only what the tables allocate, not the modules and caches. The
    # freeze is once per process, and a test that ran the load bench's harness in this process
    # undid it when the harness stopped: the bot starts here as in a process of its own.
    import gc

    from bot.discord_ui import client

    gc.unfreeze()
    monkeypatch.setattr(client, "_heap_frozen", False)
    bot = make_bot(standin, tmp_path / "heap.sqlite3", world.guild.id)
    froze, freeze = asyncio.Event(), bot.freeze_heap

    def noted() -> None:
        freeze()
        froze.set()

    bot.freeze_heap = noted
    await start_bot(bot)
    await asyncio.wait_for(froze.wait(), standin.wait_timeout)  # by on_ready
    assert client._heap_frozen and gc.get_freeze_count() > 0
    # A frozen object the bot lets go of leaves the count, so the count alone may fall; what
    # must not happen is a second freeze.
    frozen, again = gc.get_freeze_count(), []
    monkeypatch.setattr(gc, "freeze", lambda: again.append(True))
    bot.freeze_heap()  # a reconnect's on_ready freezes nothing more
    assert again == [] and gc.get_freeze_count() <= frozen
