"""Servers that remove the bot: running games cancelled with stakes refunded, the server's data
kept through the grace period, purged after it, and kept for good when the bot comes back."""

from __future__ import annotations

from types import SimpleNamespace

from bot.departures import Departures
from bot.store import EVERY_SERVER, Store
from tests.store.played import play, store_played

DAY = 86400.0
GONE, STAYS = 700, 701
ALICE, BOB = 11, 12


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _two_servers(tmp_path, clock):
    store = await Store.open(tmp_path / "bot.sqlite3", clock=clock)
    for guild in (GONE, STAYS):
        for user in (ALICE, BOB):
            await store.open_account(guild, user)
        await store_played(store, guild, play([ALICE, BOB], 3, moves=2), stake=40)
    departures = Departures(store, SimpleNamespace(tables={}), grace_seconds=30 * DAY, clock=clock)
    return store, departures


async def test_the_data_goes_only_after_the_grace_period(tmp_path):
    clock = Clock()
    store, departures = await _two_servers(tmp_path, clock)
    async with store:
        assert await departures.left(GONE) == 1
        assert await store.list_running_games(GONE) == []
        assert await store.balance(GONE, ALICE) == 1000  # the stake came back
        assert await store.balance(STAYS, ALICE) == 960  # the other server's game goes on
        clock.now += 30 * DAY - 1
        assert await departures.purge_due() == []
        assert await store.history_count(GONE, ALICE) > 0
        assert await departures.purge_due(now=clock.now + 2) == [GONE]
        assert await store._db.fetchall("SELECT 1 FROM accounts WHERE guild_id = ?", (GONE,)) == []
        assert [g.guild_id for g in await store.list_running_games(EVERY_SERVER)] == [STAYS]
        assert await store.balance(STAYS, ALICE) == 960
        assert (await store.audit()).ok


async def test_coming_back_before_the_purge_keeps_everything(tmp_path):
    clock = Clock()
    store, departures = await _two_servers(tmp_path, clock)
    async with store:
        await departures.left(GONE)
        clock.now += DAY
        await departures.returned(GONE)
        assert await departures.purge_due(now=clock.now + 365 * DAY) == []
        assert await store.balance(GONE, ALICE) == 1000
        assert await store.history_count(GONE, ALICE) > 0


async def test_another_process_s_servers_are_left_to_it(tmp_path):
    clock = Clock()
    store, departures = await _two_servers(tmp_path, clock)
    async with store:
        departures.owns = lambda guild_id: guild_id != GONE
        assert await departures.left(GONE) == 0
        assert len(await store.list_running_games(GONE)) == 1
        await store.mark_departed(GONE)  # as the process that drives it would
        assert await departures.purge_due(now=clock.now + 31 * DAY) == []


async def test_a_departed_server_s_tournaments_are_called_off_with_fees_refunded(tmp_path):
    clock = Clock()
    store, departures = await _two_servers(tmp_path, clock)
    async with store:
        cups = {}
        for guild in (GONE, STAYS):
            cup = await store.create_tournament(guild, 55, created_by=ALICE, game="koikoi",
                                                format="swiss", rules={"rounds": 1}, fee=25,
                                                key=f"cup-{guild}")
            for user in (ALICE, BOB):
                await store.join_tournament(cup.tournament_id, guild, user, f"user {user}")
            cups[guild] = cup.tournament_id
        assert await store.balance(GONE, BOB) == 960 - 25
        await departures.left(GONE)
        assert (await store.tournament(cups[GONE], scope=EVERY_SERVER)).status == "cancelled"
        assert await store.balance(GONE, BOB) == 1000  # the fee and the stake came back
        assert (await store.tournament(cups[STAYS], scope=EVERY_SERVER)).status == "open"
        assert await store.balance(STAYS, BOB) == 960 - 25
        assert (await store.audit()).ok
