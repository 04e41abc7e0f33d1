"""pytest glue: the spec gate (skip locally, fail in CI) and running a discord.py bot against a stand-in."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import TypeVar

import discord
import pytest
import yarl

from .server import StandIn
from .spec import REQUIRE_ENV, SpecIndex, SpecMissing, load_spec

ClientT = TypeVar("ClientT", bound=discord.Client)


def spec_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0", "false", "no")


def spec_or_skip() -> SpecIndex:
    """The loaded spec; without it, skip (locally) or fail (HANAFUDA_REQUIRE_SPEC=1, as in CI)."""
    try:
        return load_spec()
    except SpecMissing as exc:
        if spec_required():
            pytest.fail(f"{exc}; {REQUIRE_ENV}=1 makes the spec mandatory", pytrace=False)
        pytest.skip(f"{exc}; the e2e tests validate requests against it")


def point_discord_at(monkeypatch: pytest.MonkeyPatch, standin: StandIn) -> None:
    """Aim discord.py's REST base and default gateway at the stand-in (undone by monkeypatch)."""
    monkeypatch.setattr(discord.http.Route, "BASE", standin.api_url)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(standin.gateway_url)
    )


class BotRunner:
    """Starts discord.py clients against a stand-in and closes them again."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self._running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(self, bot: ClientT, *, timeout: float | None = None) -> ClientT:
        """Log in with the stand-in's token, connect in a task, return once `on_ready` fired.

        discord.py waits `guild_ready_timeout` (2 s) after the last GUILD_CREATE before READY;
        the stand-in sends all guilds at once, so that wait is shortened to keep tests fast.
        """
        bot._connection.guild_ready_timeout = 0.05
        timeout = self.standin.wait_timeout if timeout is None else timeout
        await bot.login(self.standin.token)
        task = asyncio.create_task(bot.connect(reconnect=True))
        self._running.append((bot, task))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise why the connection ended
            raise TimeoutError(f"bot did not become ready within {timeout}s")
        return bot

    async def close(self) -> None:
        while self._running:
            bot, task = self._running.pop()
            await bot.close()
            with contextlib.suppress(
                asyncio.CancelledError, asyncio.TimeoutError, discord.DiscordException
            ):
                await asyncio.wait_for(task, 5)
