"""A round's summary is never lost to a stop, nor posted twice (issue 43): a summary due when the
bot stopped goes out at the next start, and one that went out just before the stop, though the
store never heard of it, is not repeated (its nonce makes Discord return the first message)."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import game_module
from tests.e2e.test_koikoi_bot import make_bot
from tests.e2e.test_table_safety import WAIT, live_hand, move_controls, start

pytestmark = pytest.mark.asyncio


def summaries(standin, channel) -> list:
    return [m for m in standin.channel_messages(channel)
            if any(a.filename == "summary.png" for a in m.attachments)]


async def play_until(standin, user, table, done: asyncio.Event) -> None:
    """``user`` presses the first move their hand offers, turn after turn, until ``done``."""
    while not done.is_set():
        await standin.wait_until(
            lambda: done.is_set() or (table.match.current_player == table.seat_of(user.id)
                                      and live_hand(standin, user, table.game_id, table.seq) is not None),
            "the player's turn or the summary", timeout=WAIT)
        if done.is_set():
            break
        hand = live_hand(standin, user, table.game_id, table.seq)
        await user.click(hand, move_controls(hand, table.game_id, table.seq)[0])


async def first_round(start_bot, standin, world, db, rounds: int, *, sent: bool):
    """A bot plays until the first round's summary is due and stops: before sending it
    (``sent=False``), or after sending it without the store hearing of it (``sent=True``)."""
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    due = asyncio.Event()
    real_post = first.publisher._post_summary

    async def post(table, event, nonce):
        if sent:
            await real_post(table, event, nonce)
        due.set()
        await asyncio.Event().wait()  # the process stops here: nothing after it happens

    first.publisher._post_summary = post
    rules = game_module("koikoi").Rules.preset("nintendo", rounds=rounds)
    table = await start(first, world, "koikoi", [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                        rules, 31)
    await play_until(standin, world.admin, table, due)
    game_id = table.game_id
    await first.close()
    return game_id


def sends_of(standin, message) -> list:
    """The bot's requests that created ``message`` or sent it again (same nonce)."""
    return [r for r in standin.requests
            if r.method == "POST" and r.path.endswith(f"/channels/{message.channel.id}/messages")
            and isinstance(r.body, dict) and r.body.get("nonce") == message.nonce]


@pytest.mark.parametrize("rounds", [1, 2], ids=["last round", "round of a running match"])
async def test_a_summary_due_at_a_stop_is_posted_at_the_next_start(start_bot, standin, world, tmp_path,
                                                                   rounds):
    db = tmp_path / "posts.sqlite3"
    game_id = await first_round(start_bot, standin, world, db, rounds, sent=False)
    assert not summaries(standin, world.channel)
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 3600  # nothing more is played: only what is owed goes out
    await second.publisher.drain()
    [summary] = summaries(standin, world.channel)
    assert summary.embeds[0]["title"] == "Koi-Koi · round 1"
    prefix, seq, _ = summary.nonce.split(".")  # the game, its move, the event
    assert prefix == f"hf{game_id}"
    # noted as sent: a later start owes nothing up to that move
    assert all(move.seq > int(seq) for move in await second.store.unposted_events(game_id))
    if rounds == 1:  # the match ended with it, and its end is shown
        assert not await second.store.unshown_ended_games()


async def test_a_summary_sent_just_before_a_stop_is_not_posted_again(start_bot, standin, world, tmp_path):
    db = tmp_path / "posts.sqlite3"
    game_id = await first_round(start_bot, standin, world, db, 2, sent=True)
    [summary] = summaries(standin, world.channel)
    assert len(sends_of(standin, summary)) == 1
    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 3600
    await second.publisher.drain()
    # the store did not know it went out, so it was sent again, and Discord kept the first
    assert len(sends_of(standin, summary)) == 2
    assert summaries(standin, world.channel) == [summary]
    seq = int(summary.nonce.split(".")[1])
    assert all(move.seq > seq for move in await second.store.unposted_events(game_id))
