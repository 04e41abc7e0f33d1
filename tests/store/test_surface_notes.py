"""What a surface keeps about the games it shows: its own rows per game and seat, read back at a
start, gone with a forgotten member's seat, and carried over from the state of older games."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

from bot.store import Store
from bot.store.db import apply_migrations, load_migrations
from bot.store.errors import InvalidInput
from bot.store.scope import EVERY_SERVER
from bot.store.surfaces import TABLE_ROW

from .conftest import ALICE, BOB, GUILD
from .test_games import _new, _results
from .test_migrations import _filled_sqlite


async def test_a_surface_reads_back_the_rows_it_wrote_and_only_those_it_replaces(store):
    notes = store.surface_notes("discord")
    game = await _new(store)
    assert await notes.read(game.game_id) == {}
    await notes.write(game.game_id, {TABLE_ROW: {"table": [55, 900]}, 0: {"hand": [70, 71]},
                                     1: {"private": True}})
    await notes.write(game.game_id, {0: {"hand": [70, 72]}})  # seat 1 and the table stay
    assert await notes.read(game.game_id) == {TABLE_ROW: {"table": [55, 900]}, 0: {"hand": [70, 72]},
                                              1: {"private": True}}
    assert await store.surface_notes("activity").read(game.game_id) == {}  # another surface's own


async def test_a_start_reads_the_notes_of_running_games_and_of_ends_not_shown_yet(store):
    notes = store.surface_notes("discord")
    running, ended, shown = [await _new(store) for _ in range(3)]
    for game in (running, ended, shown):
        await notes.write(game.game_id, {TABLE_ROW: {"table": [55, game.game_id]}})
    await store.finish_game(ended.game_id, _results(0, 2))
    await store.finish_game(shown.game_id, _results(1, 2))
    await store.mark_final_shown(shown.game_id)
    assert sorted(await notes.live()) == [running.game_id, ended.game_id]


@pytest.mark.parametrize("rows", [{-2: {}}, {64: {}}, {0: ["not", "an", "object"]}, {"0": {}}])
async def test_notes_that_name_no_seat_are_refused(store, rows):
    game = await _new(store)
    with pytest.raises(InvalidInput):
        await store.surface_notes("discord").write(game.game_id, rows)
    assert await store.surface_notes("discord").read(game.game_id) == {}


def test_a_surface_has_a_short_name():
    with pytest.raises(InvalidInput):
        Store.surface_notes(None, "")  # type: ignore[arg-type]


async def test_a_forgotten_member_takes_their_seats_rows_with_them(store):
    notes = store.surface_notes("discord")
    game = await _new(store, players=(ALICE, BOB))
    await notes.write(game.game_id, {TABLE_ROW: {"table": [55, 900]}, 0: {"hand": [70, 71]},
                                     1: {"hand": [80, 81], "alert": {"seat": 1, "message": 82}}})
    await store.finish_game(game.game_id, _results(0, 2))  # a member is forgotten between games
    await store.forget_member(GUILD, BOB)
    assert await notes.read(game.game_id) == {TABLE_ROW: {"table": [55, 900]}, 0: {"hand": [70, 71]}}


async def test_a_purged_server_leaves_no_notes(store):
    notes = store.surface_notes("discord")
    game = await _new(store)
    await notes.write(game.game_id, {TABLE_ROW: {"table": [55, 900]}})
    await store.purge_guild(GUILD)
    assert await notes.read(game.game_id) == {}


async def test_the_upgrade_carries_the_notes_older_code_kept_in_the_state(tmp_path):
    path = tmp_path / "old.sqlite3"
    _filled_sqlite(path, 14)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        game_id, state = conn.execute("SELECT game_id, state FROM games WHERE status = 'running' "
                                      "ORDER BY game_id LIMIT 1").fetchone()
        state = json.loads(state)
        state.update(hand_messages={"0": [70, 71]}, dm_failed=[1],
                     turn_alert={"seat": 0, "since": 2, "warned": None, "channel": 70, "message": 72})
        conn.execute("UPDATE games SET state = ?, message_id = 900 WHERE game_id = ?",
                     (json.dumps(state), game_id))
        finished = conn.execute("SELECT game_id FROM games WHERE status = 'finished' AND final_shown = 1 "
                                "LIMIT 1").fetchone()[0]
    async with await Store.open(path) as store:
        notes = store.surface_notes("discord")
        assert await notes.read(game_id) == {
            TABLE_ROW: {"table": [55, 900]}, 0: {"hand": [70, 71], "alert": state["turn_alert"]},
            1: {"private": True}}
        assert await notes.read(finished) == {}  # an end already shown needs no notes
        assert (await store.load_game(game_id, scope=EVERY_SERVER)).state_json  # still loads


def test_the_migration_runs_on_an_empty_database(tmp_path):
    migrations = load_migrations()
    assert any(m.name == "015_surface_notes.sql" for m in migrations)
    with closing(sqlite3.connect(tmp_path / "empty.sqlite3", isolation_level=None)) as conn:
        assert apply_migrations(conn, migrations) == migrations[-1].version
        assert conn.execute("SELECT COUNT(*) FROM surface_notes").fetchone() == (0,)
