"""A bot in two processes (one shard each, one PostgreSQL database) where the app is a guest:
Discord sends a group DM's interactions to shard 0 and a server's to that server's shard, while
a guest place keeps its games under its channel's id, which the shard formula may put anywhere.
Each game is driven, and after a restart resumed, by the process that receives its presses."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store import EVERY_SERVER, Store
from tests.e2e.playing import play_out, press_first, table_messages, table_move
from tests.e2e.test_shards import start, two_shards

pytestmark = pytest.mark.asyncio


async def guest_street(standin, url: str, user) -> tuple[Any, Any]:
    """A server without the bot whose presses go to shard 1, ``user`` in it, and its channel
    whose id falls to shard 0, where one-round deals do not end before a move."""
    elsewhere = standin.create_guild("Elsewhere", with_bot=False, shard=1)
    standin.add_member(elsewhere, user)
    street = standin.create_channel(elsewhere, "street", shard=0)
    async with await Store.open(url) as store:
        await store.set_house_rules(street.id, "koikoi", {"teyaku": "off"})
    return elsewhere, street


async def as_before_031(url: str, place: int) -> tuple[int, int]:
    """The place's one running game, and its place, as they were stored before migration 031:
    the place's server unknown, the game kept on its channel's shard (as 032 upgrades it). The
    game's id and its last move."""
    async with await Store.open(url) as store:
        ((game, seq),) = [(g.game_id, g.last_seq) for g in await store.list_running_games(EVERY_SERVER)
                          if g.guild_id == place]
        await store._db.transact(lambda conn: conn.execute(
            "UPDATE guest_scopes SET guild_id = NULL WHERE scope_id = ?", (place,)))
        await store._db.transact(lambda conn: conn.execute(
            "UPDATE games SET shard_key = ? WHERE game_id = ?", (place, game)))
    return game, seq


@pytest.mark.slow(seconds=90)
async def test_guest_games_are_driven_where_their_presses_arrive(standin, tmp_path):
    async with two_shards(standin) as (url, bots):
        alice, bob, carol = (standin.create_user(n) for n in ("alice", "bob", "carol"))
        for user in (alice, bob):
            standin.install_for(user)
        # Each place's id falls to the other process than the one Discord sends its presses to.
        group = standin.create_group_dm("friends", alice, carol, shard=1)  # presses: shard 0
        _, street = await guest_street(standin, url, bob)  # presses: shard 1
        async with await Store.open(url) as store:  # one-round deals must not end before a move
            await store.set_house_rules(group.id, "koikoi", {"teyaku": "off"})
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


@pytest.mark.slow(seconds=90)
async def test_a_game_taken_up_away_from_its_presses_moves_where_they_arrive(standin, tmp_path):
    """A server's guest place noted before its server was kept (migration 031): after the
    upgrade its game is taken up by its channel's shard, while Discord sends its presses to the
    server's. The first press there takes the place's games up where it arrives; the process
    that had them lets them go, and the game is played to its end by the process of its presses."""
    async with two_shards(standin) as (url, bots):
        bob = standin.create_user("bob")
        standin.install_for(bob)
        elsewhere, street = await guest_street(standin, url, bob)  # presses: shard 1
        bots[0] = await start(standin, url, 0, tmp_path, sync=True)
        bots[1] = await start(standin, url, 1, tmp_path)
        await standin.wait_for(lambda: standin.find_command("koikoi", None) is not None,
                               "the commands published")
        await bob.slash(street, "koikoi", ai="normal", rounds=3)
        await press_first(standin, bob)
        for shard in (0, 1):
            await bots.pop(shard).stop(standin)
        game, _ = await as_before_031(url, street.id)

        bots[0] = await start(standin, url, 0, tmp_path)  # its channel's shard takes it up
        bots[1] = await start(standin, url, 1, tmp_path)
        assert (bots[0].events[0]["resumed"], bots[1].events[0]["resumed"]) == ([game], [])
        shown = table_messages(standin, street)[-1]
        await bob.click(shown, next(c for c in shown.custom_ids() if c.startswith("hf:hand:")))
        await standin.wait_for(
            lambda: f"[shard 0 game {game}] bot.tables: let go" in bots[0].log.read_text(),
            "the process that had the game letting it go")
        await standin.wait_for(
            lambda: f"[shard 1 game {game}] bot.tables: taken up at move" in bots[1].log.read_text(),
            "the process of its presses taking it up")
        await press_first(standin, bob)
        await play_out(standin, street, [bob])
        exits = {shard: await bots.pop(shard).stop(standin) for shard in (0, 1)}
        assert (exits[0]["drove"], exits[1]["drove"]) == ([], [game])
        async with await Store.open(url) as store:
            assert not await store.list_running_games(EVERY_SERVER)
            record = await store.load_game(game, scope=EVERY_SERVER, with_events=False)
            assert (record.status, record.shard_key) == ("finished", elsewhere.id)
            assert await store.home_of(street.id) == elsewhere.id
