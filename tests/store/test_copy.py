"""``python -m bot db copy``: a whole SQLite history moved to PostgreSQL, row for row, verified."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.__main__ import main
from bot.store import EVERY_SERVER, SeatResult, Store
from bot.store.copy import COPIED_TABLES, CopyError, copy_database
from bot.store.models import ALL_SEASONS

from ._storm import FakeClock, Tally, open_all, storm_task
from .conftest import ALICE, BOB, GUILD

GROUP_DM = 5_200_000_000_000_001


async def _history(path) -> None:
    """A busy server's life: transfers, dailies, staked games won and cancelled, a running game
    with its moves, ratings, lobbies, settings and languages."""
    clock = FakeClock()
    async with await Store.open(path, clock=clock) as store:
        await open_all(store)
        tally = Tally()
        await asyncio.gather(*(storm_task(store, random.Random(i), 60, tally, clock) for i in range(6)))
        await store.update_settings(GUILD, currency_name="gold coins", language="ja")
        await store.set_house_rules(GUILD, "koikoi", {"preset_name": "modern"})
        for user in (ALICE, BOB):
            await store.open_account(GUILD, user)
        game = await store.create_game(GUILD, 5, "koikoi", rules={"rounds": 3}, players=[ALICE, BOB],
                                       seed=7, state_json='{"turn": 1}', state_version=1, stake=20)
        await store.record_action(game.game_id, 1, ALICE, "play:crane", [{"type": "play"}], "{}", 1)
        await store.record_action(game.game_id, 2, "ai:hard", "draw", [{"type": "round_over"}], "{}", 1)
        finished = await store.create_game(GUILD, 5, "gostop", rules={}, players=[ALICE, BOB], seed=8,
                                           state_json="{}", state_version=1, stake=30)
        await store.finish_game(finished.game_id, [SeatResult(0, 7, "won"), SeatResult(1, 0, "lost")])
        await store.start_season(GUILD, "Spring", actor=ALICE, key="season-1")
        later = await store.create_game(GUILD, 5, "gostop", rules={}, players=[ALICE, BOB], seed=9,
                                        state_json="{}", state_version=1)
        await store.finish_game(later.game_id, [SeatResult(0, 1, "lost"), SeatResult(1, 4, "won")])
        await store.create_lobby("lobby", GUILD, 5, ALICE, game="koikoi", min_seats=2, max_seats=2)
        await store.claim_daily(GUILD, ALICE)
        await store.note_guest_place(GROUP_DM, "group_dm")  # a game where the app was a guest
        guest = await store.create_game(GROUP_DM, GROUP_DM, "koikoi", rules={}, players=[ALICE, BOB],
                                        seed=10, state_json='{"home":"guest"}', state_version=1)
        await store.finish_game(guest.game_id, [SeatResult(0, 3, "won"), SeatResult(1, 0, "lost")])


def test_a_whole_sqlite_history_moves_to_postgresql_and_verifies(tmp_path, empty_postgres, capsys):
    source = tmp_path / "bot.sqlite3"
    asyncio.run(_history(source))
    assert main(["db", "copy", "--from", f"sqlite:///{source}", "--to", empty_postgres]) == 0
    out = capsys.readouterr().out
    assert "copied and verified" in out and "balances equal" in out

    async def compare() -> None:
        async with await Store.open(source) as old, await Store.open(empty_postgres) as new:
            assert (await new.audit()).ok
            for user in (ALICE, BOB):
                assert await new.balance(GUILD, user) == await old.balance(GUILD, user)
                assert await new.history(GUILD, user, limit=100) == await old.history(GUILD, user, limit=100)
                assert await new.guest_record(user) == await old.guest_record(user)
                assert (await new.guest_record(user)).games == 1
                for season in (0, 1, ALL_SEASONS):
                    assert await new.user_stats(GUILD, user, season=season) == \
                           await old.user_stats(GUILD, user, season=season)
            for running in await old.list_running_games(EVERY_SERVER):
                copied = await new.load_game(running.game_id, scope=EVERY_SERVER)
                assert copied == await old.load_game(running.game_id, scope=EVERY_SERVER)
            assert [g.events for g in await new.list_running_games(EVERY_SERVER)] == \
                   [g.events for g in await old.list_running_games(EVERY_SERVER)]
            assert await new.get_settings(GUILD) == await old.get_settings(GUILD)
            assert await new.leaderboard(GUILD, "chips") == await old.leaderboard(GUILD, "chips")
            assert await new.seasons(GUILD) == await old.seasons(GUILD)
            for season in (0, 1):
                assert await new.leaderboard(GUILD, "rating", game="gostop", season=season) == \
                       await old.leaderboard(GUILD, "rating", game="gostop", season=season)
            # the copy goes on: new ids follow the copied ones, the ledger still balances
            t = await new.transfer(GUILD, ALICE, BOB, 1, key="after-copy")
            assert not t.replayed and t.transfer_id > max(
                line.transfer_id for line in await old.history(GUILD, ALICE, limit=100))
            game = await new.create_game(GUILD, 5, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                         state_json="{}", state_version=1)
            assert game.game_id > max(g.game_id for g in (await old.game_history(GUILD, limit=100)).rows)
            assert (await new.audit()).ok
    asyncio.run(compare())


def test_a_copy_refuses_a_destination_in_use_and_a_source_not_up_to_date(tmp_path, empty_postgres):
    source = tmp_path / "bot.sqlite3"
    asyncio.run(_history(source))
    asyncio.run(copy_database(str(source), empty_postgres))
    with pytest.raises(CopyError, match="not empty"):
        asyncio.run(copy_database(str(source), empty_postgres))
    with pytest.raises(CopyError, match="no SQLite database|schema version 0"):
        asyncio.run(copy_database(str(tmp_path / "missing.sqlite3"), empty_postgres))
    with pytest.raises(CopyError, match="postgresql://"):
        asyncio.run(copy_database(str(source), str(tmp_path / "other.sqlite3")))
    assert set(COPIED_TABLES) >= {"accounts", "transfers", "entries", "games", "game_events"}
