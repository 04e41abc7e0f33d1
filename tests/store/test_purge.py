"""Servers that removed the bot: marked, cleared, and every row of theirs purged at once."""

from __future__ import annotations

import pytest

from bot.fairness import FairDeal, Input
from bot.store import SeatResult
from bot.store.db import IntegrityError
from bot.store.purge import NOT_SERVER_DATA, PURGE_PLAN
from bot.store.tournaments import Weekly

from .conftest import ALICE, BOB, GUILD, OTHER_GUILD, count, write_directly


async def _server_with_history(store, guild: int) -> list[int]:
    """Settings, accounts and a transfer, a season and a schedule of them, a weekly tournament, a day's
    deal and a member's entry of it, a finished and a running staked game (each
    dealt from a commitment), a review being made, an open lobby, a relayed press and a running
    tournament: a row in every table of a server."""
    await store.update_settings(guild, currency_name="petals")
    for user in (ALICE, BOB):
        await store.open_account(guild, user)
    await store.transfer(guild, ALICE, BOB, 25, key=f"t-{guild}")
    await store.start_season(guild, "Spring", actor=ALICE, key=f"s-{guild}")
    await store.set_season_schedule(guild, "monthly", 55)
    await store.set_weekly_tournament(Weekly(55 + guild, guild, "koikoi", "swiss", 3, 0, None, 4, 19, 60))
    today = store.daily_deal_day()
    await store.daily_deal(guild, "koikoi", today, rules={"rounds": 1})
    await store.claim_daily_deal(guild, "koikoi", today, ALICE)
    await store.set_daily_post(guild, 55)
    await store.set_daily_reminder(guild, ALICE, True)
    games = []
    for _ in range(2):
        deal = FairDeal.fresh([Input("accept", "1300000000000000001")])
        game = await store.create_game(guild, 55, "koikoi", rules={}, players=[ALICE, BOB],
                                       seed=deal.seed, state_json="{}", state_version=1, stake=10,
                                       deal=deal)
        await store.record_action(game.game_id, 1, ALICE, "play:1", [], "{}", 1)
        games.append(game.game_id)
    await store.finish_game(games[0], [SeatResult(0, 6, "won"), SeatResult(1, 0, "lost")])
    await store.note_review(guild, games[0], BOB, "en")
    await store.create_lobby("lobby", guild, 55, ALICE, game="koikoi", min_seats=2, max_seats=2)
    await store.relay_press(0, games[1], {"custom_id": "x"})
    await store.surface_notes("discord").write(games[1], {-1: {"table": [55, 900]}})
    tour = await store.create_tournament(guild, 55, created_by=ALICE, game="koikoi", format="swiss",
                                         rules={"rounds": 1}, fee=5, key=f"cup-{guild}")
    for user in (ALICE, BOB):
        await store.join_tournament(tour.tournament_id, guild, user, f"user {user}")
    await store.start_tournament(tour.tournament_id, guild)
    await store.begin_tournament_round(tour.tournament_id, 1, [(1, 2)], [])
    await store.link_tournament_game(tour.tournament_id, 1, 1, games[1])
    return games


async def _rows(store) -> dict[str, int]:
    return {table: await count(store, table) for table, _ in PURGE_PLAN}


async def test_a_purge_removes_one_server_and_leaves_the_others_balanced(store):
    await _server_with_history(store, GUILD)
    await _server_with_history(store, OTHER_GUILD)
    await store.mark_departed(GUILD)
    before = await _rows(store)
    others = {user: await store.balance(OTHER_GUILD, user) for user in (ALICE, BOB)}

    deleted = await store.purge_guild(GUILD)

    after = await _rows(store)
    assert all(deleted[table] > 0 for table, _ in PURGE_PLAN), deleted
    assert {t: before[t] - deleted[t] for t in before} == after
    assert all(after[t] > 0 for t in after if t != "departed_guilds")  # the other server's rows
    assert {user: await store.balance(OTHER_GUILD, user) for user in (ALICE, BOB)} == others
    assert (await store.get_settings(GUILD)).currency_name == "chips"
    assert (await store.get_settings(OTHER_GUILD)).currency_name == "petals"
    audit = await store.audit()
    assert audit.ok, audit.problems
    assert await store.departed_guilds() == []
    assert await store.purge_guild(GUILD) == {table: 0 for table, _ in PURGE_PLAN}
    # The ledger and the game log are append-only again after the purge's commit.
    for table in ("entries", "transfers", "accounts", "game_events", "results", "seasons"):
        with pytest.raises(IntegrityError):
            await write_directly(store, f"DELETE FROM {table}")


async def test_departure_marks_keep_the_first_time_and_clear_on_return(store, clock):
    await store.mark_departed(GUILD)
    clock.now += 100
    await store.mark_departed(GUILD)  # a second departure keeps the first time
    await store.mark_departed(OTHER_GUILD)
    assert await store.departed_guilds(before=clock.now) == [GUILD]
    assert await store.departed_guilds() == [GUILD, OTHER_GUILD]
    assert await store.clear_departed(GUILD)
    assert not await store.clear_departed(GUILD)
    assert await store.departed_guilds() == [OTHER_GUILD]


async def test_every_table_is_purged_or_known_to_belong_to_no_server(store):
    if store.dialect == "sqlite":
        rows = await store._db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    else:
        rows = await store._db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    tables = {row[0] for row in rows}
    assert tables - {t for t, _ in PURGE_PLAN} - set(NOT_SERVER_DATA) == set(), (
        "a new table must say in bot/store/purge.py whether a purged server's rows go")


def test_the_purge_command_asks_for_yes_first(tmp_path, capsys):
    import asyncio

    from bot.__main__ import main
    from bot.store import Store

    path = tmp_path / "bot.sqlite3"

    async def fill() -> None:
        async with await Store.open(path) as store:
            await _server_with_history(store, GUILD)

    async def games() -> int:
        async with await Store.open(path) as store:
            return await count(store, "games")

    asyncio.run(fill())
    assert main(["db", "purge-guild", str(GUILD), "--database-url", str(path)]) == 2
    assert "--yes" in capsys.readouterr().err and asyncio.run(games()) == 2
    assert main(["db", "purge-guild", str(GUILD), "--yes", "--database-url", str(path)]) == 0
    assert f"purged server {GUILD}: achievements 1, lobbies 1" in capsys.readouterr().out
    assert asyncio.run(games()) == 0
