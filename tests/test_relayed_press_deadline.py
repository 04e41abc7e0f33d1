"""A press in a DM on a game another process drives (a sharded bot) is queued in the database for
that process before it is acknowledged, and under the same deadline as a move played here: while
the database hangs, the presser is told the move is not saved yet within Discord's window, and
the owner is told of the acknowledgement only once Discord has it (bot.discord_ui.controls)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.discord_ui import controls
from bot.discord_ui.relay import Relay
from bot.store import StoreError

pytestmark = pytest.mark.asyncio

OWNER_SHARD = 1
DISCORD_WINDOW = 3.0


class Response:
    """discord.py's InteractionResponse as far as a press uses it: one first response."""

    def __init__(self, calls: list) -> None:
        self.calls, self.done = calls, False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.done, "a second first response"
        self.calls.append(("thinking" if thinking else "acknowledged", ephemeral))
        self.done = True

    async def send_message(self, content=None, *, ephemeral: bool = False, **kwargs) -> None:
        assert not self.done, "a second first response"
        self.calls.append(("message", content, ephemeral))
        self.done = True


class Followup:
    def __init__(self, calls: list) -> None:
        self.calls = calls

    async def send(self, content=None, *, ephemeral: bool = False, **kwargs) -> None:
        self.calls.append(("followup", content, ephemeral))


class Store:
    """The shared database: every call waits for ``gate`` (open: a database that answers)."""

    def __init__(self, *, hanging: bool = False, refusing: bool = False) -> None:
        self.gate = asyncio.Event()
        if not hanging:
            self.gate.set()
        self.refusing = refusing
        self.queued: list[tuple[int, int, dict]] = []
        self.announced: list[tuple[int, int]] = []
        self.origin = "receiver"

    async def load_game(self, gid, *, scope, with_events):
        await self.gate.wait()
        return SimpleNamespace(status="running", shard_key=OWNER_SHARD)

    async def relay_press(self, shard, gid, message):
        await self.gate.wait()
        if self.refusing:
            raise StoreError("the database went away")
        self.queued.append((shard, gid, message))

    async def announce_acknowledged(self, shard, interaction_id):
        self.announced.append((shard, interaction_id))


class Tables:
    """This process's tables: it drives no game, so a press here would be a bug."""

    def drives(self, gid: int) -> bool:
        return False

    async def press(self, *args, **kwargs):
        raise AssertionError("a game another process drives was played here")

    async def slap_by(self, *args, **kwargs):
        raise AssertionError("a game another process drives was played here")


def pressing(store: Store):
    """A DM press on a hand at the process of shard 0, and what it answered."""
    calls: list = []
    plan = SimpleNamespace(whole=False, ids=(0,), owns=lambda key: key == 0, shard_of=lambda key: key)
    client = SimpleNamespace(tables=Tables(), store=store, shard_plan=plan,
                             publisher=SimpleNamespace(via_press=lambda it: SimpleNamespace(
                                 answered=asyncio.Event(), withdrawn=False)))
    client.relay = Relay(client, play=None)  # type: ignore[arg-type]
    it = SimpleNamespace(extras={}, response=Response(calls), followup=Followup(calls), client=client,
                         guild_id=None, channel_id=5, user=SimpleNamespace(id=42), id=1001,
                         token="token", application_id=99, created_at=None,
                         context=SimpleNamespace(dm_channel=True))
    return it, calls


async def first_response(calls: list) -> None:
    """Return once the press has its first response; fail past Discord's window for it."""
    async def answered() -> None:
        while not calls:
            await asyncio.sleep(0)
    await asyncio.wait_for(answered(), DISCORD_WINDOW)


async def test_a_passed_on_move_is_acknowledged_once_queued_and_its_owner_told_after():
    store = Store()
    it, calls = pressing(store)
    await controls.press_move(it, 7, 3, "#0")
    assert calls == [("acknowledged", False)]
    assert [(shard, gid, m["seq"], m["key"]) for shard, gid, m in store.queued] == [
        (OWNER_SHARD, 7, 3, "#0")]
    assert store.announced == [(OWNER_SHARD, 1001)]


async def test_a_move_waiting_on_the_database_says_so_in_time_then_is_queued(monkeypatch):
    monkeypatch.setattr(controls, "ACK_SECONDS", 0.01)  # the deadline passes while the gate is shut
    store = Store(hanging=True)
    it, calls = pressing(store)
    pressed = asyncio.ensure_future(controls.press_move(it, 7, 3, "#0"))
    await first_response(calls)
    assert calls[0][0] == "message" and "not saved yet" in calls[0][1] and calls[0][2]
    assert store.queued == [] and store.announced == []  # nothing told before it is queued
    store.gate.set()
    await pressed
    assert len(store.queued) == 1 and store.announced == [(OWNER_SHARD, 1001)]
    assert len(calls) == 1  # the owner answers through the token: a refusal, or the hand moves


async def test_a_move_that_cannot_be_queued_is_refused_and_nothing_is_told(monkeypatch):
    store = Store(refusing=True)
    it, calls = pressing(store)
    await controls.press_move(it, 7, 3, "#0")
    assert calls == [("message", "The move could not be passed on to its table; try again in a moment.",
                      True)]
    assert store.announced == []

    monkeypatch.setattr(controls, "ACK_SECONDS", 0.01)
    store = Store(hanging=True, refusing=True)
    it, calls = pressing(store)
    pressed = asyncio.ensure_future(controls.press_move(it, 7, 3, "#0"))
    await first_response(calls)
    store.gate.set()
    await pressed
    assert [c[0] for c in calls] == ["message", "followup"]
    assert "could not be passed on" in calls[1][1] and calls[1][2]
    assert store.announced == []


async def test_a_passed_on_slap_thinks_privately_for_its_owner_to_answer(monkeypatch):
    for hanging in (False, True):
        monkeypatch.setattr(controls, "ACK_SECONDS", 0.01 if hanging else 2.0)
        store = Store(hanging=hanging)
        it, calls = pressing(store)
        slapping = asyncio.ensure_future(controls.SlapButton(7).callback(it))
        await first_response(calls)
        assert calls == [("thinking", True)]
        if hanging:
            assert store.queued == [] and store.announced == []  # told once the slap is queued
        store.gate.set()
        await slapping
        assert [m["kind"] for _, _, m in store.queued] == ["slap"]
        assert store.announced == [(OWNER_SHARD, 1001)]
        assert calls == [("thinking", True)]  # the owner sends the slap's place
