"""A bot in two processes (one shard each, one PostgreSQL database) where the app is a guest:
Discord sends a group DM's interactions to shard 0 and a server's to that server's shard, while
a guest place keeps its games under its channel's id, which the shard formula may put anywhere.
Each game is driven, and after a restart resumed, by the process that receives its presses."""

from __future__ import annotations

import pytest

from bot.store import EVERY_SERVER, Store
from tests.e2e.playing import play_out, press_first, table_messages, table_move
from tests.e2e.test_shards import start, two_shards

pytestmark = pytest.mark.asyncio


@pytest.mark.slow(seconds=90)
async def test_guest_games_are_driven_where_their_presses_arrive(standin, tmp_path):
    async with two_shards(standin) as (url, bots):
        alice, bob, carol = (standin.create_user(n) for n in ("alice", "bob", "carol"))
        for user in (alice, bob):
            standin.install_for(user)
        # Each place's id falls to the other process than the one Discord sends its presses to.
        group = standin.create_group_dm("friends", alice, carol, shard=1)  # presses: shard 0
        elsewhere = standin.create_guild("Elsewhere", with_bot=False, shard=1)  # presses: shard 1
        standin.add_member(elsewhere, bob)
        street = standin.create_channel(elsewhere, "street", shard=0)
        async with await Store.open(url) as store:  # one-round deals must not end before a move
            for place in (group, street):
                await store.set_house_rules(place.id, "koikoi", {"teyaku": "off"})
        bots[0] = await start(standin, url, 0, tmp_path, sync=True)
        bots[1] = await start(standin, url, 1, tmp_path)
        await standin.wait_for(lambda: standin.find_command("koikoi", None) is not None,
                               "the commands published")
        await alice.slash(group, "koikoi", ai="normal", rounds=3)
        await bob.slash(street, "koikoi", ai="normal", rounds=3)
        for user in (alice, bob):
            await press_first(standin, user)
        async with await Store.open(url) as store:
            games = {g.guild_id: g.game_id for g in await store.list_running_games(EVERY_SERVER)}
        assert set(games) == {group.id, street.id}

        # Each process restarts in turn and takes up the game whose presses it receives.
        for shard, place in ((0, group), (1, street)):
            await bots.pop(shard).stop(standin)
            bots[shard] = await start(standin, url, shard, tmp_path)
            assert bots[shard].events[0]["resumed"] == [games[place.id]]
            # its log lines name the shard that drives it, not the one its channel's id falls to
            assert f"[shard {shard} game {games[place.id]}] bot.tables: resumed at move" \
                in bots[shard].log.read_text()

        for user, place in ((alice, group), (bob, street)):
            shown = table_messages(standin, place)[-1]
            await user.click(shown, next(c for c in shown.custom_ids() if c.startswith("hf:hand:")))
            await standin.wait_for(lambda p=place: table_move(table_messages(standin, p)[-1]) is not None,
                                   "the table shown again after the restart")
            await press_first(standin, user)
        await play_out(standin, group, [alice])
        await play_out(standin, street, [bob])
        exits = {shard: await bots.pop(shard).stop(standin) for shard in (0, 1)}
        assert exits[0]["drove"] == [games[group.id]]
        assert exits[1]["drove"] == [games[street.id]]
        async with await Store.open(url) as store:
            assert not await store.list_running_games(EVERY_SERVER)
