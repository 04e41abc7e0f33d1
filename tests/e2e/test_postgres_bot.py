"""The whole bot on PostgreSQL: a staked match through the stand-in, a restart in the middle,
and the ledger balanced at the end (the store's own tests cover the rest on both databases)."""

from __future__ import annotations

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.store import EVERY_SERVER
from tests import pgserver
from tests.e2e.playing import (
    controls,
    hand_message,
    move_of,
    play_out,
    table_messages,
    table_move,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first


def postgres_bot(standin, url: str, guild_id: int) -> HanafudaBot:
    return HanafudaBot(Settings(token=standin.token, database_path=None, database_url=url,
                                dev_guild_id=guild_id))


async def test_a_staked_match_on_postgresql_survives_a_restart(start_bot, standin, world):
    server = pgserver.server()
    name = server.new_database()
    url = server.url(name)
    try:
        first = await start_bot(postgres_bot(standin, url, world.guild.id))
        assert first.store.dialect == "postgresql"
        first.tables.ai_delay = 0.01
        await human_moves_first(first, world)
        await world.admin.slash(world.channel, "chips balance")
        await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3, stake=50)
        await table_posted(standin, world.channel)
        msg = await standin.wait_for(lambda: hand_message(standin, world.admin), "the admin's moves")
        first.tables.ai_delay = 3600  # the AI waits: the restart comes on the admin's move
        seq = int(controls(msg)[0].split(":")[3])
        await world.admin.click(msg, controls(msg)[0])
        await standin.wait_for(lambda: table_move(table_messages(standin, world.channel)[-1]) == seq + 1
                               and move_of(standin.message(msg)) != seq,
                               f"the table and the admin's hand showing move {seq + 1}")
        await first.close()

        second = await start_bot(postgres_bot(standin, url, world.guild.id))
        second.tables.ai_delay = 0.01
        [table] = second.tables.tables.values()
        assert table.seq == seq + 1 and table.stake == 50
        await play_out(standin, world.channel, [world.admin])
        assert not await second.store.list_running_games(EVERY_SERVER)
        report = await second.store.audit()
        assert report.ok and report.total == 0, report.problems
        balance = await second.store.balance(world.guild.id, world.admin.id)
        assert balance in (950, 1000, 1050)  # lost the stake, a tie split the pot, or won it
    finally:
        server.drop_database(name)
