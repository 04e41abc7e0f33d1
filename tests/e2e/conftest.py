"""Fixtures for end-to-end tests against the local Discord stand-in.

`standin` gives a started stand-in with discord.py aimed at it, enforcing Discord's rate limits
and interaction deadlines; at teardown it fails the test if the bot sent anything Discord would
refuse, acknowledged an interaction late or overflowed a rate limit. `start_bot` connects any `discord.Client` /
`commands.Bot` to it. `world` adds a small guild with an admin and a player.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from bot.discord_ui import answer as answer_kit
from tests.discord_standin import Channel, Guild, SimUser, SpecIndex, StandIn
from tests.discord_standin.testing import BotRunner, point_discord_at, spec_or_skip


@pytest.fixture(scope="session")
def discord_spec() -> SpecIndex:
    """Discord's OpenAPI spec, loaded and indexed once per session."""
    return spec_or_skip()


@pytest.fixture
async def standin(
    discord_spec: SpecIndex, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[StandIn]:
    server = StandIn(discord_spec)  # with Discord's rate limits and interaction deadlines
    await server.start()
    point_discord_at(monkeypatch, server)
    try:
        yield server
    finally:
        await server.stop()
    server.assert_no_violations()  # a late or missing acknowledgement included
    server.assert_no_rate_limits()  # injected 429s aside, the bot kept within Discord's limits
    server.assert_no_mass_mentions()  # no message of any test could ping everyone or a role


class ThreadPool:
    """What the bot asks of a worker pool (``bot.workers.WorkerPool``: start, run, close), run in
    threads of the test's own process. Every test starts its own bots; spawning and warming up
    worker processes for each would be most of the suite's time. The processes themselves are
    tested where they matter: the worker tests, and the bot run as a process of its own (the
    crash, clean-stop, shard and load-bench tests)."""

    def __init__(self, initializer: Callable[[], object] | None = None) -> None:
        self.initializer = initializer
        self.completed = 0

    async def start(self) -> None:
        if self.initializer is not None:
            await asyncio.to_thread(self.initializer)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self.completed += 1

    async def close(self) -> None:
        pass

    def pids(self) -> list[int]:
        return []


async def threaded_pools(bot: Any) -> None:
    from rendering import warm_up

    bot.render_pool, bot.ai_pool = ThreadPool(warm_up), ThreadPool()
    await asyncio.gather(bot.render_pool.start(), bot.ai_pool.start())


@pytest.fixture
async def start_bot(standin: StandIn) -> AsyncIterator[Callable[[Any], Awaitable[Any]]]:
    """`bot = await start_bot(MyBot(...))`: logged in, connected and ready; closed at teardown."""
    runner = BotRunner(standin)

    async def start(bot: Any) -> Any:
        if hasattr(bot, "start_pools"):
            bot.start_pools = functools.partial(threaded_pools, bot)
        return await runner.start(bot)

    try:
        yield start
    finally:
        await runner.close()


@dataclass
class Club:
    guild: Guild
    channel: Channel
    admin: SimUser
    player: SimUser
    shy: SimUser


@pytest.fixture
def world(standin: StandIn) -> Club:
    """A guild "Hanafuda Club" with #koikoi, an admin (manage_guild), a player and a user who refuses DMs."""
    admin = standin.create_user("alice")
    player = standin.create_user("bob")
    shy = standin.create_user("carol", refuses_dms=True)
    guild = standin.create_guild("Hanafuda Club")
    channel = standin.create_channel(guild, "koikoi")
    standin.add_member(guild, admin, permissions=discord.Permissions(manage_guild=True))
    standin.add_member(guild, player)
    standin.add_member(guild, shy)
    return Club(guild, channel, admin, player, shy)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client for a test's own requests (the Activity's pages), closed at teardown."""
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
def no_late_acks(monkeypatch) -> None:
    """The answer a test refuses or cuts off is the interaction's first response: no late
    acknowledgement takes its place, as it would on a machine busy enough to hold the command or
    press past 1.5 s (the fault, aimed at the answer, would then meet a follow-up instead)."""
    monkeypatch.setattr(answer_kit, "DEFER_AFTER", 60.0)
