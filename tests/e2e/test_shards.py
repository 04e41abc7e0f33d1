"""Two bot processes, each running one of the bot's two shards, on one PostgreSQL database: each
drives only its own guilds' games; a press on a hand (a DM, which Discord sends to shard 0) of
the other process's game travels there; one process is killed and started again, a press made
while it was down is played when it is back, every game resumes, and the ledger balances."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import eventloop
from bot.store import EVERY_SERVER, Store
from tests import pgserver
from tests.e2e.playing import (
    controls,
    move_of,
    play_out,
    press_first,
    table_messages,
    table_move,
    table_posted,
)

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class BotProcess:
    """``python -m tests.e2e.shardbot`` running some shards; its JSON lines read as they come."""

    shards: str
    proc: asyncio.subprocess.Process
    log: Path
    events: list[dict[str, Any]] = field(default_factory=list)

    async def next_event(self, standin) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), standin.wait_timeout)
        if not line:
            raise AssertionError(f"the bot of shards {self.shards} ended:\n{self.log.read_text()[-3000:]}")
        event = json.loads(line)
        self.events.append(event)
        return event

    async def stop(self, standin) -> dict[str, Any]:
        """SIGTERM: the bot closes and reports what it drove."""
        self.proc.terminate()
        while (event := await self.next_event(standin))["event"] != "exit":
            pass
        await self.proc.wait()
        return event


async def start(standin, url: str, shard: int, tmp_path: Path, *, sync: bool = False,
                **settings: str) -> BotProcess:
    env = {**os.environ, "DISCORD_TOKEN": standin.token, "DATABASE_URL": url, "SHARDS": str(shard),
           "SHARD_COUNT": "2", "RENDER_WORKERS": "1", "AI_WORKERS": "1",
           "HANAFUDA_STANDIN_API": standin.api_url, "HANAFUDA_STANDIN_GATEWAY": standin.gateway_url,
           "HANAFUDA_SYNC": "1" if sync else "0", "HANAFUDA_AI_DELAY": "0.01", **settings}
    log = tmp_path / f"shard{shard}-{len(list(tmp_path.glob(f'shard{shard}-*')))}.log"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.shardbot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=log.open("w"))
    bot = BotProcess(str(shard), proc, log)
    ready = await bot.next_event(standin)
    assert ready["event"] == "ready", ready
    return bot


@contextlib.asynccontextmanager
async def two_shards(standin) -> AsyncIterator[tuple[str, dict[int, BotProcess]]]:
    """The bot as two shards on a fresh PostgreSQL database: its URL, and the processes a test
    starts on it by shard (killed at the end should the test leave any running)."""
    standin.shard_count = 2
    server = pgserver.server()
    name = server.new_database()
    bots: dict[int, BotProcess] = {}
    try:
        yield server.url(name), bots
    finally:
        for bot in bots.values():
            if bot.proc.returncode is None:
                bot.proc.kill()
                await bot.proc.wait()
        server.drop_database(name)


@pytest.mark.slow(seconds=90)
async def test_two_processes_share_one_database_and_survive_a_kill(standin, tmp_path):
    async with two_shards(standin) as (url, bots):
        alice, bob = standin.create_user("alice"), standin.create_user("bob")
        guilds = [standin.create_guild(f"Club {shard}", shard=shard) for shard in (0, 1)]
        channels = [standin.create_channel(guild, "koikoi") for guild in guilds]
        standin.add_member(guilds[0], alice)
        standin.add_member(guilds[1], bob)
        async with await Store.open(url) as store:  # one-round deals must not end before a move
            for guild in guilds:
                await store.set_house_rules(guild.id, "koikoi", {"teyaku": "off"})
        bots[0] = await start(standin, url, 0, tmp_path, sync=True)
        bots[1] = await start(standin, url, 1, tmp_path)
        # each process is given only its shard's guild
        assert [e["guilds"] for e in (bots[0].events[0], bots[1].events[0])] == \
            [[guilds[0].id], [guilds[1].id]]
        # on the production event loop: uvloop where it is installed
        assert {e["loop"] for e in (bots[0].events[0], bots[1].events[0])} == \
            {"uvloop" if eventloop.default() == "uvloop" else "asyncio"}
        await standin.wait_for(lambda: standin.find_command("koikoi", guilds[0]) is not None,
                               "the commands published")

        for user, channel in ((alice, channels[0]), (bob, channels[1])):
            await user.slash(channel, "chips balance")
            await user.slash(channel, "koikoi", ai="normal", rounds=3, stake=50)
            await table_posted(standin, channel)
        async with await Store.open(url) as store:
            games = {g.guild_id: g.game_id for g in await store.list_running_games(EVERY_SERVER)}
        assert set(games) == {guilds[0].id, guilds[1].id}

        # bob's hand is a DM: Discord sends its press to shard 0, whose process passes it on
        hand = await press_first(standin, bob)

        # shard 1's process dies; bob presses meanwhile: shard 0's process acknowledges and keeps it
        bots[1].proc.kill()
        await bots[1].proc.wait()
        waiting = move_of(hand)
        async with await Store.open(url) as store:
            stored = (await store.load_game(games[guilds[1].id], scope=EVERY_SERVER, with_events=False)).last_seq
            pressed = await bob.click(hand, controls(hand)[0])
            assert pressed.initial is not None and pressed.initial.type == 6
            assert (await store.load_game(games[guilds[1].id], scope=EVERY_SERVER, with_events=False)).last_seq == stored

        bots[1] = await start(standin, url, 1, tmp_path)
        assert bots[1].events[0]["resumed"] == [games[guilds[1].id]]
        await standin.wait_for(
            lambda: (table_move(table_messages(standin, channels[1])[-1]) or 0) > waiting,
            "bob's press, made while his game's process was down, played once it was back")

        await asyncio.gather(play_out(standin, channels[0], [alice]),
                             play_out(standin, channels[1], [bob]))
        exits = {shard: await bots.pop(shard).stop(standin) for shard in (0, 1)}
        assert exits[0]["drove"] == [games[guilds[0].id]]  # never the other process's game
        assert exits[1]["drove"] == [games[guilds[1].id]]
        assert exits[1]["relayed"] >= 1  # bob's presses came through shard 0's process
        # the log says which shard and game a line is about
        assert f"[shard 1 game {games[guilds[1].id]}] bot.tables: resumed at move" in bots_log(tmp_path, 1)

        async with await Store.open(url) as store:
            assert not await store.list_running_games(EVERY_SERVER)
            report = await store.audit()
            assert report.ok and report.total == 0, report.problems
            for guild, user in ((guilds[0], alice), (guilds[1], bob)):
                assert await store.balance(guild.id, user.id) in (950, 1000, 1050)


def bots_log(tmp_path: Path, shard: int) -> str:
    return "\n".join(p.read_text() for p in sorted(tmp_path.glob(f"shard{shard}-*.log")))


def test_a_shard_range_needs_a_shared_database():
    from bot.config import ConfigError, load_settings

    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_settings(env={"SHARDS": "0-1", "SHARD_COUNT": "4"}, dotenv=None, require_token=False)
