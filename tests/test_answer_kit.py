"""The late acknowledgement of a slow command and the answer that follows it never both become
the interaction's first response (bot.discord_ui.answer)."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.discord_ui import answer

pytestmark = pytest.mark.asyncio


class Response:
    """What discord.py's InteractionResponse does that the kit relies on: one first response."""

    def __init__(self, calls: list, release: asyncio.Event) -> None:
        self.calls, self.release, self.done = calls, release, False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.done, "a second first response"
        self.calls.append(("defer", ephemeral) if thinking else ("update later", ephemeral))
        await self.release.wait()  # Discord is slow to take it
        self.done = True

    async def edit_message(self, **fields) -> None:
        assert not self.done, "a second first response"
        self.calls.append(("edit pressed", None))
        self.done = True

    async def send_message(self, content=None, **kwargs) -> None:
        assert not self.done, "a second first response"
        self.calls.append(("message", kwargs.get("ephemeral", False)))
        self.done = True


class Followup:
    def __init__(self, calls: list) -> None:
        self.calls = calls

    async def send(self, content=None, *, wait=False, **kwargs):
        self.calls.append(("followup", kwargs.get("ephemeral", False)))
        return SimpleNamespace(id=len(self.calls))


def interaction(private: bool | None):
    calls: list = []
    release = asyncio.Event()
    command = SimpleNamespace(extras={} if private is None else
                              {answer.ANSWER: "private" if private else "public"})

    async def delete_original_response() -> None:
        calls.append(("delete", None))

    async def edit_original_response(**fields) -> None:
        calls.append(("edit original", None))

    # In a server that added the bot (a member place: answers may be public).
    it = SimpleNamespace(extras={}, command=command, response=Response(calls, release),
                         followup=Followup(calls), delete_original_response=delete_original_response,
                         edit_original_response=edit_original_response,
                         guild_id=1, channel_id=2, client=SimpleNamespace(get_guild=lambda _: object()))
    return it, calls, release


def as_guest(it, *, external_apps: bool):
    """The same interaction where the app is a guest (a server that never added the bot)."""
    it.client = SimpleNamespace(get_guild=lambda _: None)
    it.context = SimpleNamespace(dm_channel=False)
    it.app_permissions = SimpleNamespace(use_external_apps=external_apps)
    return it


async def test_an_answer_while_the_acknowledgement_is_on_its_way_follows_it(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=False)
    answer.watch(it)
    await asyncio.sleep(0)  # the timer's turn: the acknowledgement starts
    while not calls:
        await asyncio.sleep(0)
    sending = asyncio.ensure_future(answer.send(it, "board"))
    await asyncio.sleep(0)
    assert calls == [("defer", False)]  # the answer waits for the acknowledgement
    release.set()
    await sending
    assert calls == [("defer", False), ("followup", False)]


async def test_a_refusal_after_a_public_thinking_removes_it_first(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=False)
    release.set()
    answer.watch(it)
    while not it.response.done:
        await asyncio.sleep(0)
    await answer.send_private(it, "You have 3, not 5.")
    assert calls == [("defer", False), ("delete", None), ("followup", True)]


async def test_a_quick_answer_is_the_first_response_and_no_acknowledgement_follows(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=True)
    answer.watch(it)
    await answer.send(it, "saved", ephemeral=True)
    for _ in range(5):  # the timer fires after the answer and does nothing
        await asyncio.sleep(0)
    assert calls == [("message", True)]


async def test_a_command_that_declared_nothing_is_not_acknowledged_for_it(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=None)
    answer.watch(it)
    for _ in range(5):
        await asyncio.sleep(0)
    assert calls == []


async def test_answers_goes_above_the_command_decorator():
    with pytest.raises(TypeError):
        answer.answers(private=True)(lambda interaction: None)


async def test_where_only_private_answers_are_allowed_every_answer_is_private(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=False)
    as_guest(it, external_apps=False)
    release.set()
    answer.watch(it)
    await answer.acknowledge(it)
    await answer.send(it, "board")
    assert calls == [("defer", True), ("followup", True)]
    it, calls, release = interaction(private=False)
    as_guest(it, external_apps=True)
    await answer.send(it, "board")
    assert calls == [("message", False)]


async def test_a_slow_press_is_acknowledged_as_an_update_and_its_update_edits_the_pressed_message(
        monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=None)
    answer.watch_press(it)
    while not calls:  # the timer's turn: the acknowledgement starts
        await asyncio.sleep(0)
    updating = asyncio.ensure_future(answer.press_update(it, content="bob joined"))
    await asyncio.sleep(0)
    assert calls == [("update later", False)]  # the answer waits for the acknowledgement
    release.set()
    await updating
    await answer.press_defer(it)  # acknowledged already: nothing more
    assert await answer.press_reply(it, "seated") == 3
    assert calls == [("update later", False), ("edit original", None), ("followup", False)]
    assert await answer.landed(it, OSError("cut")) is None  # the pressed message is no answer


async def test_a_private_press_is_acknowledged_with_a_private_thinking_its_answer_replaces(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=None)
    release.set()
    answer.watch_press(it, private=True)
    while not it.response.done:
        await asyncio.sleep(0)
    await answer.press_defer(it, ephemeral=True, thinking=True)
    await answer.send_private(it, "the yaku sheet")
    assert calls == [("defer", True), ("followup", True)]


async def test_a_press_answered_in_time_takes_no_late_acknowledgement(monkeypatch):
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    it, calls, release = interaction(private=None)
    answer.watch_press(it)
    await answer.press_update(it, content="bob joined")
    answer.done_pressing(it)
    for _ in range(5):  # nothing fires after the answer
        await asyncio.sleep(0)
    assert calls == [("edit pressed", None)]
    assert it.extras[answer.KEY].timer is None


class CutResponse(Response):
    """The first answer's connection is cut (whether Discord took it, its original response
    says); the next goes through. What each upload held is noted."""

    def __init__(self, calls: list) -> None:
        super().__init__(calls, asyncio.Event())
        self.cuts = 1

    async def send_message(self, content=None, **kwargs) -> None:
        file = kwargs.get("file")
        self.calls.append(("message", file.fp.read() if file is not None else None))
        if self.cuts:
            self.cuts -= 1
            raise aiohttp.ServerDisconnectedError()
        self.done = True


def cut_interaction(*, taken: bool, askable: bool = True):
    it, calls, _ = interaction(private=None)
    it.response = CutResponse(calls)

    async def original_response():
        calls.append(("asked", None))
        if not askable:
            raise aiohttp.ClientConnectionError("still cut")
        if not taken:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Webhook")
        return discord.Message.__new__(discord.InteractionMessage)

    it.original_response = original_response
    return it, calls


async def test_a_first_response_cut_before_discord_took_it_is_sent_again_whole():
    it, calls = cut_interaction(taken=False)
    await answer.send(it, file=discord.File(io.BytesIO(b"picture"), "board.png"))
    assert calls == [("message", b"picture"), ("asked", None), ("message", b"picture")]
    assert answer.responded(it)


async def test_a_first_response_discord_took_before_the_cut_is_not_sent_again():
    it, calls = cut_interaction(taken=True)
    await answer.send_private(it, "saved")
    await answer.send_private(it, "and this too")  # a follow-up: the first response went
    assert calls == [("message", None), ("asked", None), ("followup", True)]
    assert answer.responded(it) and not it.response.is_done()


async def test_a_cut_first_response_discord_cannot_be_asked_about_is_raised():
    it, calls = cut_interaction(taken=False, askable=False)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await answer.send(it, "board")
    assert calls == [("message", None), ("asked", None)] and not answer.responded(it)
