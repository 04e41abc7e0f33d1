"""The Activity of a bot in two processes (one shard each, one PostgreSQL database): a page that
reaches the port of the process that does not drive its channel's table is passed on to the one
that does, found through the store, and plays there as if it had come straight."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from bot.store import EVERY_SERVER, Store
from tests.e2e.activity import joined
from tests.e2e.playing import press_first
from tests.e2e.test_guest_shards import as_before_031, guest_street
from tests.e2e.test_shards import start, two_shards

pytestmark = pytest.mark.asyncio


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow(seconds=70)
async def test_a_page_at_either_process_plays_the_table_of_the_other(standin, tmp_path):
    async with two_shards(standin) as (url, bots):
        bob = standin.create_user("bob")
        guild = standin.create_guild("Club 1", shard=1)  # driven by the process of shard 1
        channel = standin.create_channel(guild, "koikoi")
        standin.add_member(guild, bob)
        ports = [free_port(), free_port()]
        async with await Store.open(url) as store:  # one-round deals must not end before a move
            await store.set_house_rules(guild.id, "koikoi", {"teyaku": "off"})
        for shard in (0, 1):
            bots[shard] = await start(standin, url, shard, tmp_path, sync=shard == 0,
                                      ACTIVITY_PORT=str(ports[shard]), ACTIVITY_HOST="127.0.0.1",
                                      DISCORD_CLIENT_SECRET=standin.oauth.client_secret)
        await standin.wait_for(lambda: standin.find_command("koikoi", guild) is not None,
                               "the commands published")
        await bob.slash(channel, "koikoi", ai="normal", rounds=1)
        instance = standin.oauth.open_activity(channel, bob)
        async with aiohttp.ClientSession() as http:
            # signed in at shard 0's process, which does not drive the game
            page, _ = await joined(http, f"http://127.0.0.1:{ports[0]}", standin, bob, instance)
            state = await page.state(lambda s: s["moves"] or s["game"]["over"], "bob's table, from shard 1")
            assert state["you"]["seat"] == 0
            for _ in range(200):
                if state["game"]["over"]:
                    break
                nonce = await page.press(state)
                assert (await page.answer(nonce))["type"] == "played"
                state = await page.state(
                    lambda s, seq=state["game"]["seq"]: s["game"]["over"] or (s["moves"] and s["game"]["seq"] > seq),
                    "bob's next turn")
            assert state["game"]["over"]
            # a socket with a forged ticket is refused before it opens
            async with http.get(f"http://127.0.0.1:{ports[1]}/ws",
                                headers={"X-Hanafuda-Relay": "e30.0000"}) as refused:
                assert refused.status == 403
        exits = {shard: await bots.pop(shard).stop(standin) for shard in (0, 1)}
        assert exits[0]["drove"] == []  # every move was played by shard 1's process
        assert len(exits[1]["drove"]) == 1


@pytest.mark.slow(seconds=70)
async def test_a_page_in_a_guest_channel_takes_its_game_up_where_its_pages_arrive(standin, tmp_path):
    """A server's guest place as it was before migration 031 (its server unknown): its game is
    taken up by its channel's shard after a restart, while its pages reach the server's. The
    page opening there takes the game up where it arrives, and plays it."""
    async with two_shards(standin) as (url, bots):
        bob = standin.create_user("bob")
        standin.install_for(bob)
        elsewhere, street = await guest_street(standin, url, bob)  # pages: shard 1
        ports = [free_port(), free_port()]
        settings = {"ACTIVITY_HOST": "127.0.0.1", "DISCORD_CLIENT_SECRET": standin.oauth.client_secret}
        for shard in (0, 1):
            bots[shard] = await start(standin, url, shard, tmp_path, sync=shard == 0,
                                      ACTIVITY_PORT=str(ports[shard]), **settings)
        await standin.wait_for(lambda: standin.find_command("koikoi", None) is not None,
                               "the commands published")
        await bob.slash(street, "koikoi", ai="normal", rounds=3)
        await press_first(standin, bob)  # bob's turn: the process that takes it up plays nothing
        for shard in (0, 1):
            await bots.pop(shard).stop(standin)
        game, seq = await as_before_031(url, street.id)
        for shard in (0, 1):
            bots[shard] = await start(standin, url, shard, tmp_path,
                                      ACTIVITY_PORT=str(ports[shard]), **settings)
        assert (bots[0].events[0]["resumed"], bots[1].events[0]["resumed"]) == ([game], [])

        instance = standin.oauth.open_activity(street, bob)
        async with aiohttp.ClientSession() as http:
            page, _ = await joined(http, f"http://127.0.0.1:{ports[1]}", standin, bob, instance)
            state = await page.state(lambda s: s["moves"], "bob's table, taken up by shard 1")
            assert state["you"]["seat"] == 0
            nonce = await page.press(state)
            assert (await page.answer(nonce))["type"] == "played"
        await standin.wait_for(
            lambda: f"[shard 0 game {game}] bot.tables: let go" in bots[0].log.read_text(),
            "the process that had the game letting it go")
        exits = {shard: await bots.pop(shard).stop(standin) for shard in (0, 1)}
        assert exits[0]["drove"] == []
        async with await Store.open(url) as store:
            record = await store.load_game(game, scope=EVERY_SERVER, with_events=False)
            assert record.shard_key == elsewhere.id and record.last_seq > seq
