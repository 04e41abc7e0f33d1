"""Operating the bot while it plays: a backup taken while games start restores and verifies; a
server removes the bot (GUILD_DELETE): its running staked game is cancelled with the stake
refunded and the server marked departed; added back (GUILD_CREATE), the mark is cleared. The
real bot against the Discord stand-in."""

from __future__ import annotations

import asyncio

import pytest

from bot.backups import ScheduledBackups
from bot.checkup import check_store
from bot.store import EVERY_SERVER, Store
from bot.store.backup import restore_database
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

    assert (await store.load_game(staked, scope=EVERY_SERVER, with_events=False)).status == "cancelled"
    assert staked not in hbot.tables.tables
    assert await store.balance(guild, world.admin.id) == 1000  # the stake came back
    assert await store.departed_guilds() == [guild]
    assert (await store.load_game(there, scope=EVERY_SERVER, with_events=False)).status == "running"  # another server
    assert await store.balance(other.id, world.admin.id) == 990
    assert (await store.audit()).ok

    returned = noting(hbot, "returned")
    standin.add_bot_back(world.guild)
    await standin.flush_events()
    await asyncio.wait_for(returned.wait(), standin.wait_timeout)
    assert await store.departed_guilds() == []
    assert await hbot.departures.purge_due(now=4e9) == []
    assert await store.balance(guild, world.admin.id) == 1000


async def test_a_backup_taken_while_the_bot_plays_restores_and_verifies(hbot, standin, world, tmp_path):  # noqa: F811
    await hbot.store.open_account(world.guild.id, world.admin.id)
    first = await start_ai_game(standin, world.admin, world.channel, 1, stake=10)
    backups = ScheduledBackups(hbot.store.path, tmp_path / "backups", keep=3, interval_s=3600)
    backup, second = await asyncio.gather(backups.run_once(),
                                          start_ai_game(standin, world.player, world.channel, 2))
    restored = tmp_path / "restored.sqlite3"
    await restore_database(backup.path, str(restored))
    async with await Store.open(restored) as copy:
        report = await check_store(copy)
        assert report.ok, report.problems
        running = {g.game_id for g in await copy.list_running_games(EVERY_SERVER)}
        assert first in running and running <= {first, second}
        assert report.resumed == len(running)
        assert await copy.balance(world.guild.id, world.admin.id) == 990


async def test_a_stop_before_discord_says_ready_leaves_on_ready_quiet(hbot, monkeypatch):  # noqa: F811
    """discord.py calls on_ready once the servers have come in, which can be after a stop
    closed the store: the check of the servers marked departed is left to the next start."""
    closing, reads = False, []

    async def closed_under_it(**_):
        nonlocal closing
        reads.append("read")
        closing = True
        raise ValueError("no active connection")  # what a closed SQLite connection says

    monkeypatch.setattr(hbot.store, "departed_guilds", closed_under_it)
    monkeypatch.setattr(hbot, "is_closed", lambda: closing)
    await hbot.on_ready()  # the store closed under it by a stop: no traceback
    await hbot.on_ready()  # once closed it does not reach the store at all
    assert reads == ["read"]

    async def broken(**_):
        raise ValueError("a fault while running")

    closing = False
    monkeypatch.setattr(hbot.store, "departed_guilds", broken)
    with pytest.raises(ValueError):  # while running, a fault is no stop and is not hidden
        await hbot.on_ready()
