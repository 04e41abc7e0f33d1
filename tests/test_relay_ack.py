"""A relayed press is answered through its token only after the process that received it
acknowledged it: the owner may take the press from the queue before that ack reached Discord,
which refuses a followup to a press not yet acknowledged."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from bot.discord_ui.relay import ACK_SECONDS, Relay, RelayedPress


def relay() -> Relay:
    bot = SimpleNamespace(shard_plan=SimpleNamespace(ids=(1,), whole=False),
                          store=SimpleNamespace(origin="owner"))
    return Relay(bot, play=None)  # type: ignore[arg-type]


def press(interaction_id: int, at: float) -> RelayedPress:
    return RelayedPress("move", 7, 3, "#0", 42, 99, "token", "en", at, press_id=5,
                        interaction_id=interaction_id)


async def test_the_answer_waits_for_the_receivers_ack():
    owner = relay()
    waiting = asyncio.create_task(owner.acknowledged(press(11, time.time())))
    await asyncio.sleep(0)  # the owner is waiting now
    assert not waiting.done()
    await owner._heard({"kind": "acked", "shard": 2, "interaction": 11, "from": "other"})
    await asyncio.sleep(0)
    assert not waiting.done()  # another shard's ack is not this press's
    await owner._heard({"kind": "acked", "shard": 1, "interaction": 11, "from": "other"})
    await asyncio.wait_for(waiting, ACK_SECONDS)
    assert owner._acked == {}


async def test_an_ack_heard_before_the_press_is_taken_counts():
    owner = relay()
    await owner._heard({"kind": "acked", "shard": 1, "interaction": 12, "from": "other"})
    await asyncio.wait_for(owner.acknowledged(press(12, time.time())), 0.5)
    assert owner._acked == {}


async def test_without_word_the_answer_goes_once_discords_window_passed():
    owner = relay()
    started = time.monotonic()
    await owner.acknowledged(press(13, time.time() - ACK_SECONDS + 0.05))  # the window ends soon
    assert time.monotonic() - started < ACK_SECONDS
    await owner.acknowledged(press(0, time.time()))  # queued by an older version: no id to wait on
    assert owner._acked == {}


def test_the_press_carries_its_interaction_through_the_queue():
    sent = press(14, 1_700_000_000.0)
    assert RelayedPress.from_message({**sent.message(), "press_id": 5}) == sent
    older = {k: v for k, v in sent.message().items() if k != "interaction"}
    assert RelayedPress.from_message(older).interaction_id == 0
