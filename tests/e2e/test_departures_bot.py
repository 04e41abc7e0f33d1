"""A server removes the bot (GUILD_DELETE): its running staked game is cancelled with the stake
refunded and the server marked departed; added back (GUILD_CREATE), the mark is cleared. The
real bot against the Discord stand-in."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.test_running_games import hbot, start_ai_game  # noqa: F401  (the fixture)

pytestmark = pytest.mark.asyncio


def noting(bot, name: str) -> asyncio.Event:
    """An event set once ``bot.departures.<name>`` has run to its end."""
    done = asyncio.Event()
    original = getattr(bot.departures, name)

    async def wrapped(guild_id):
        try:
            return await original(guild_id)
        finally:
            done.set()
    setattr(bot.departures, name, wrapped)
    return done


async def test_removed_then_added_back(hbot, standin, world):  # noqa: F811
    store, guild = hbot.store, world.guild.id
    other = standin.create_guild("Other Club")
    elsewhere = standin.create_channel(other, "hanafuda")
    await hbot.store.set_house_rules(other.id, "koikoi", {"teyaku": "off"})
    await store.open_account(guild, world.admin.id)
    await store.open_account(other.id, world.admin.id)
    staked = await start_ai_game(standin, world.admin, world.channel, 1, stake=10)
    standin.add_member(other, world.admin)
    there = await start_ai_game(standin, world.admin, elsewhere, 1, stake=10)
    assert await store.balance(guild, world.admin.id) == 990

    left = noting(hbot, "left")
    standin.remove_bot(world.guild)
    await standin.flush_events()
    await asyncio.wait_for(left.wait(), standin.wait_timeout)  # a hang only

    assert (await store.load_game(staked, with_events=False)).status == "cancelled"
    assert staked not in hbot.tables.tables
    assert await store.balance(guild, world.admin.id) == 1000  # the stake came back
    assert await store.departed_guilds() == [guild]
    assert (await store.load_game(there, with_events=False)).status == "running"  # another server
    assert await store.balance(other.id, world.admin.id) == 990
    assert (await store.audit()).ok

    returned = noting(hbot, "returned")
    standin.add_bot_back(world.guild)
    await standin.flush_events()
    await asyncio.wait_for(returned.wait(), standin.wait_timeout)
    assert await store.departed_guilds() == []
    assert await hbot.departures.purge_due(now=4e9) == []
    assert await store.balance(guild, world.admin.id) == 1000
