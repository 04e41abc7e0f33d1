"""Fixtures for end-to-end tests against the local Discord stand-in.

`standin` gives a started stand-in with discord.py aimed at it, enforcing Discord's rate limits
and interaction deadlines; at teardown it fails the test if the bot sent anything Discord would
refuse, acknowledged an interaction late or overflowed a rate limit. `start_bot` connects any `discord.Client` /
`commands.Bot` to it. `world` adds a small guild with an admin and a player.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest

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


@pytest.fixture
async def start_bot(standin: StandIn) -> AsyncIterator[Callable[[Any], Awaitable[Any]]]:
    """`bot = await start_bot(MyBot(...))`: logged in, connected and ready; closed at teardown."""
    runner = BotRunner(standin)

    async def start(bot: Any) -> Any:
        # One image worker and one AI worker per bot: every test starts its own bots, and
        # spawning and warming up a worker per core for each would be most of the suite's time.
        settings = getattr(bot, "settings", None)
        if dataclasses.is_dataclass(settings) and hasattr(settings, "render_workers"):
            bot.settings = dataclasses.replace(settings, render_workers=1, ai_workers=1)
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
