"""Schema migrations: from an empty file, from every earlier version, and refusals."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import MigrationError, Store, default_db_path, default_migrations_dir
from bot.store.db import PROJECT_ROOT, apply_migrations, load_migrations
from bot.store.ratings import Placing, rate

MIGRATIONS = load_migrations()
LATEST = MIGRATIONS[-1].version


def _schema(path: Path) -> set[tuple[str, str, str]]:
    with closing(sqlite3.connect(path)) as conn:
        return set(conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall())


def _version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


# Rows that each version can hold, inserted before upgrading, checked after.
SEED_ROWS = {
    1: [
        "INSERT INTO guild_settings (guild_id, currency_name, updated_at) VALUES (7, 'petals', 1)",
        "INSERT INTO games (guild_id, channel_id, game, rules, players, state, state_version, seed,"
        " created_at, updated_at) VALUES (7, 8, 'koikoi', '{}', '[1, 2]', '{}', 1, '42', 1, 1)",
        "INSERT INTO game_events (game_id, seq, actor, action, events, created_at)"
        " VALUES (1, 1, 1, 'play:crane', '[]', 1)",
    ],
    2: [  # the game finished, rated by the Elo of that time
        "UPDATE games SET status = 'finished', ended_at = 2 WHERE game_id = 1",
        "INSERT INTO ratings (guild_id, game, user_id, rating, games, wins, updated_at)"
        " VALUES (7, 'koikoi', 1, 1516.0, 1, 1, 2), (7, 'koikoi', 2, 1484.0, 1, 0, 2)",
        "INSERT INTO results (game_id, seat, guild_id, game, user_id, points, outcome, rated,"
        " rating_before, rating_after, finished_at) VALUES (1, 0, 7, 'koikoi', 1, 6, 'won', 1,"
        " 1500.0, 1516.0, 2), (1, 1, 7, 'koikoi', 2, 0, 'lost', 1, 1500.0, 1484.0, 2)",
    ],
}
# After 009 the ratings are OpenSkill's, computed again from the stored results.
RATED = rate({}, [Placing(1, "won", 6), Placing(2, "lost", 0)])


def test_migrations_are_found_next_to_the_package():
    assert default_migrations_dir() == PROJECT_ROOT / "data" / "migrations"
    assert (PROJECT_ROOT / "bot" / "store" / "db.py").is_file()
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
    assert default_db_path().parent == PROJECT_ROOT / "data"


async def test_fresh_and_empty_files_reach_the_latest_version(tmp_path):
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    for path in (tmp_path / "new" / "dir" / "fresh.sqlite3", empty):
        async with await Store.open(path) as store:
            assert (await store.audit()).ok
        assert _version(path) == LATEST
        with closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("start", range(LATEST))
async def test_upgrade_from_every_earlier_version(tmp_path, start):
    fresh = tmp_path / "fresh.sqlite3"
    async with await Store.open(fresh):
        pass
    old = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(old, isolation_level=None)) as conn:
        for version in range(1, start + 1):  # each version's rows made while it was the latest
            assert apply_migrations(conn, MIGRATIONS, upto=version) == version
            for sql in SEED_ROWS.get(version, []):
                conn.execute(sql)
    async with await Store.open(old) as store:
        if start >= 1:
            assert (await store.get_settings(7)).currency_name == "petals"
            game = await store.load_game(1)
            assert game.players == [1, 2] and game.events[0].action == "play:crane"
        if start >= 2:
            row = await store.user_rank(7, 1, "rating", game="koikoi")  # season 0: before any
            assert row is not None and row.value == pytest.approx(RATED[1].display)
            assert row.spread == pytest.approx(RATED[1].sigma)
            stats = await store.user_stats(7, 1, season=0)
            assert (stats.games, stats.wins) == (1, 1)
            assert stats.ratings[0].rating == pytest.approx(RATED[1].display)
            recent = stats.recent[0]
            assert recent.rating_before == 0.0
            assert recent.rating_after == pytest.approx(RATED[1].display)
            loser = await store.user_stats(7, 2, season=0)
            assert loser.ratings[0].rating == pytest.approx(RATED[2].display)
            assert (loser.ratings[0].losses, loser.ratings[0].games) == (1, 1)
        await store.open_account(7, 1)
        assert (await store.audit()).ok
    assert _version(old) == LATEST
    assert _schema(old) == _schema(fresh)


async def test_two_openers_at_once_migrate_once(tmp_path):
    path = tmp_path / "race.sqlite3"
    stores = await asyncio.gather(*(Store.open(path) for _ in range(4)))
    for store in stores:
        await store.close()
    assert _version(path) == LATEST


async def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "future.sqlite3"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(MigrationError, match="newer than this code"):
        await Store.open(path)


async def test_failed_migration_rolls_back_and_keeps_the_old_version(tmp_path):
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    shutil.copy(default_migrations_dir() / MIGRATIONS[0].name, migrations)
    (migrations / "002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nCREATE TABLE oops (;\n", encoding="utf-8"
    )
    path = tmp_path / "broken.sqlite3"
    with pytest.raises(MigrationError, match="002_broken.sql"):
        await Store.open(path, migrations_dir=migrations)
    assert _version(path) == 1
    assert "half_done" not in {name for _, name, _ in _schema(path)}


def test_migration_files_must_be_numbered_without_gaps(tmp_path):
    (tmp_path / "001_a.sql").write_text("CREATE TABLE a (x);", encoding="utf-8")
    (tmp_path / "003_c.sql").write_text("CREATE TABLE c (x);", encoding="utf-8")
    with pytest.raises(MigrationError, match="without gaps"):
        load_migrations(tmp_path)
    with pytest.raises(MigrationError, match="not found"):
        load_migrations(tmp_path / "missing")


async def test_migrations_dir_override_from_the_environment(tmp_path, monkeypatch):
    copy = tmp_path / "elsewhere"
    shutil.copytree(default_migrations_dir(), copy)
    monkeypatch.setenv("HANAFUDA_MIGRATIONS_DIR", str(copy))
    monkeypatch.setenv("HANAFUDA_DB_PATH", str(tmp_path / "env.sqlite3"))
    assert default_migrations_dir() == copy
    async with await Store.open() as store:
        assert Path(store.path) == tmp_path / "env.sqlite3"
    assert _version(tmp_path / "env.sqlite3") == LATEST


async def test_memory_path_is_a_private_temporary_file():
    async with await Store.open(":memory:") as store:
        path = Path(store.path)
        assert path.exists()
        await store.open_account(1, 2)
        assert await store.balance(1, 2) == 1000
    assert not path.exists()
