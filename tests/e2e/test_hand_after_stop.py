"""A hand sent just before a stop is found again (issue 43, "stale tables after a kill"): a hand
DM whose message id the store never heard of (the process stopped, or the database refused the
write) is not followed by a second hand at the next start, which would leave the first one
offering moves forever. Its nonce, fixed by the stored state, makes Discord return it; and the
write the database refused is tried again until it is stored. A table that the start's answer
became, whose id a cut connection hid before the stop, is found in its channel and kept."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import game_module
from bot.store.errors import StoreUnavailable
from tests.e2e.test_koikoi_bot import make_bot
from tests.e2e.test_table_safety import WAIT, live_hand, start

pytestmark = pytest.mark.asyncio


def hands_of(standin, user, gid: int) -> list:
    return [m for m in standin.dms(user) if any(f":{gid}:" in c for c in m.custom_ids())
            or any(a.filename == "hand.png" for a in m.attachments)]


async def human_first(bot, world):
    """A Koi-Koi game against the AI whose first move is the human's (so no move is stored
    after the hand is dealt)."""
    module = game_module("koikoi")
    rules = module.Rules.preset("nintendo", rounds=2)
    seed = next(s for s in range(1, 100) if module.new_match(2, rules, s).current_player == 0)
    return await start(bot, world, "koikoi", [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                       rules, seed)


async def test_a_hand_sent_before_a_stop_is_the_hand_after_it(start_bot, standin, world, tmp_path):
    db = tmp_path / "hands.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 3600

    async def refused(*args, **kwargs):
        raise StoreUnavailable("locked")

    first.publisher.notes.write = refused  # where the hand is never reaches the store
    table = await human_first(first, world)
    gid = table.game_id
    hand = await standin.wait_until(lambda: live_hand(standin, world.admin, gid, table.seq),
                                    "the first hand", timeout=WAIT)
    await first.close()

    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 3600
    await second.publisher.drain()
    again = second.tables.tables[gid]
    assert second.publisher.marks(again).hands[0][1] == hand.id  # the hand already sent, not a second one
    assert [m.id for m in hands_of(standin, world.admin, gid)] == [hand.id]
    assert live_hand(standin, world.admin, gid, again.seq).id == hand.id


async def test_a_refused_save_of_a_hand_is_tried_again(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "retry.sqlite3", world.guild.id))
    bot.tables.ai_delay = 3600
    real = bot.publisher.notes.write
    tries, saved = [], asyncio.Event()

    async def flaky(game_id, rows):
        tries.append(dict(rows))
        if len(tries) <= 2:
            raise StoreUnavailable("locked")
        await real(game_id, rows)
        if any("hand" in row for row in rows.values()):
            saved.set()

    bot.publisher.notes.write = flaky
    table = await human_first(bot, world)
    await asyncio.wait_for(saved.wait(), WAIT)
    assert len(tries) >= 3
    hand = bot.publisher.marks(table).hands[0]
    assert (await bot.store.surface_notes("discord").read(table.game_id))[0]["hand"] == hand


async def test_a_new_hand_is_sent_once_and_not_edited_again(start_bot, standin, world, tmp_path):
    """The nonce costs nothing on the way in: the first hand is sent and left as it is."""
    bot = await start_bot(make_bot(standin, tmp_path / "once.sqlite3", world.guild.id))
    bot.tables.ai_delay = 3600
    table = await human_first(bot, world)
    hand = await standin.wait_until(lambda: live_hand(standin, world.admin, table.game_id, table.seq),
                                    "the first hand", timeout=WAIT)
    await bot.publisher.drain()
    assert [r.method for r in standin.requests if r.path.endswith(f"/messages/{hand.id}")] == []


async def test_a_table_whose_id_a_cut_hid_before_a_stop_is_the_table_after_it(start_bot, standin,
                                                                               world, tmp_path):
    """The start's answer became the table, but every edit through its token lost its reply on
    the way back (Discord took them), so the store never heard which message it is, and the
    token went with the stopped process. The next start finds it among the channel's messages
    and keeps it up to date, rather than posting a second table beside it."""
    db = tmp_path / "table.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 3600
    cut = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            drop="after", times=1000, where=lambda call: "table.png" in str(call.files))
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_until(
        lambda: [m for m in standin.channel_messages(world.channel) if "table.png" in m.files],
        "the table, shown by the start's answer", timeout=WAIT)
    [gid] = first.tables.tables
    assert first.publisher.marks(first.tables.tables[gid]).table is None  # its id never came back
    await first.close()
    cut.remaining = 0

    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 3600
    await second.publisher.drain()
    assert second.publisher.where(gid) == (world.channel.id, table.id)
    assert (await second.store.surface_notes("discord").read(gid))[-1]["table"] == [world.channel.id,
                                                                                   table.id]
    assert [m.id for m in standin.channel_messages(world.channel) if "table.png" in m.files] == [table.id]


async def test_a_private_copy_of_a_hand_follows_its_game_after_a_crash(start_bot, standin, world,
                                                                       tmp_path):
    """carol's DMs are closed: she reads her hand in My hand's private copy, which only the
    token of an interaction of hers reaches. The first process stops (no clean stop) before the
    AI's move; the second plays it, and her copy shows it by the token the store kept, with no
    press of hers."""
    db = tmp_path / "copy.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 3600
    carol = world.shy
    module = game_module("koikoi")
    rules = module.Rules.preset("nintendo", rounds=1)
    seed = next(s for s in range(1, 100) if module.new_match(2, rules, s).current_player == 0)
    table = await start(first, world, "koikoi", [carol.id, "ai:normal"], ["carol", "AI (normal)"],
                        rules, seed)
    notice = await standin.wait_until(
        lambda: next((m for m in standin.channel_messages(world.channel)
                      if f"<@{carol.id}>" in m.content and "My hand" in m.content), None),
        "the notice to press My hand", timeout=WAIT)
    assert notice is not None
    shown = next(m for m in standin.channel_messages(world.channel) if "table.png" in m.files)
    await carol.click(shown, f"hf:hand:{table.game_id}")
    pressed = -1
    while table.match.current_player == 0:  # until the AI is to move
        copy = await standin.wait_until(lambda: live_hand(standin, carol, table.game_id, table.seq),
                                        "carol's copy offering her move", timeout=WAIT)
        pressed = table.seq
        await carol.click(copy, next(c for c in copy.custom_ids() if c.startswith("hf:act:")))
    await first.publisher.drain()
    await first.close()

    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    presses = len(standin.interactions)
    again = second.tables.tables[table.game_id]
    copy = await standin.wait_until(
        lambda: again.seq > pressed + 1 and live_hand(standin, carol, again.game_id, again.seq),
        "carol's copy offering her move after the AI's", timeout=WAIT)
    assert copy.ephemeral and len(standin.interactions) == presses  # nobody pressed anything
    assert [m.id for m in standin.ephemerals(carol) if "hand.png" in m.files] == [copy.id]
