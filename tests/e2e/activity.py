"""Pages of the Activity as a test drives them: sign in through the stand-in's OAuth2, open the
socket, read what the server pushes and press. Every wait ends on a message from the server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.assembly import assemble
from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from tests.discord_standin import StandIn

WAIT = 60.0  # only a hang reaches it: every wait ends on the message it waits for


def activity_bot(settings: Settings) -> HanafudaBot:
    """The bot as ``python -m bot`` puts it together: with the Activity when the settings ask."""
    return assemble(settings)


async def sign_in(http: aiohttp.ClientSession, base: str, standin: StandIn, user: Any) -> dict:
    """What the page does after the SDK's ``authorize``: the code to the server, a session back."""
    code = standin.oauth.authorize(user)
    async with http.post(f"{base}/api/token", json={"code": code}) as response:
        assert response.status == 200, await response.text()
        return await response.json()


@dataclass
class Page:
    """One open page's socket and every message it was sent."""

    ws: aiohttp.ClientWebSocketResponse
    messages: list[dict] = field(default_factory=list)
    nonce: int = 0

    async def next(self, want: Callable[[dict], Any], what: str) -> dict:
        """The first message from now on (or already read) that ``want`` accepts."""
        for message in self.messages:
            if message.get("_seen") is None and want(message):
                message["_seen"] = True
                return message
        while True:
            received = await asyncio.wait_for(self.ws.receive(), WAIT)
            if received.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket closed ({self.ws.close_code}) while waiting for {what}")
            message = json.loads(received.data)
            self.messages.append(message)
            if want(message):
                message["_seen"] = True
                return message

    async def state(self, want: Callable[[dict], Any] = lambda s: True, what: str = "a state") -> dict:
        return await self.next(lambda m: m["type"] == "state" and want(m), what)

    async def send(self, **message: Any) -> None:
        await self.ws.send_str(json.dumps(message))

    async def press(self, state: dict, move: int = 0) -> int:
        """Press the ``move``-th move the state offers; the nonce it went with."""
        self.nonce += 1
        await self.send(type="press", game=state["game"]["id"], seq=state["game"]["seq"],
                        key=state["moves"][move]["key"], n=self.nonce)
        return self.nonce

    async def answer(self, nonce: int) -> dict:
        return await self.next(lambda m: m["type"] in ("played", "refused") and m.get("n") == nonce,
                               f"the answer to press {nonce}")

    async def closed(self) -> int:
        """Read until the server closes the socket: the close code it sent."""
        while True:
            received = await asyncio.wait_for(self.ws.receive(), WAIT)
            if received.type == aiohttp.WSMsgType.CLOSE:
                # the code in the server's frame (the client's own reply may fail after it)
                return received.data
            if received.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING,
                                 aiohttp.WSMsgType.ERROR):
                return self.ws.close_code
            self.messages.append(json.loads(received.data))


async def open_page(http: aiohttp.ClientSession, base: str, session: str, instance: str) -> Page:
    """A socket that said hello (the caller reads the welcome or the refusal)."""
    ws = await http.ws_connect(f"{base}/ws", max_msg_size=0)
    page = Page(ws)
    await page.send(type="hello", v=1, session=session, instance=instance)
    return page


async def joined(http: aiohttp.ClientSession, base: str, standin: StandIn, user: Any,
                 instance: str) -> tuple[Page, dict]:
    """Sign ``user`` in and open a page in ``instance``: the page and its first state."""
    signed = await sign_in(http, base, standin, user)
    page = await open_page(http, base, signed["session"], instance)
    await page.next(lambda m: m["type"] == "welcome", "the welcome")
    return page, signed
