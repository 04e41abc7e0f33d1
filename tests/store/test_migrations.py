"""Schema migrations: from an empty file, from every released level with the rows its code
wrote (tests/store/upgrade_fixtures.py), and refusals."""

from __future__ import annotations

import asyncio
import functools
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from bot.checkup import check_store
from bot.store import (
    EVERY_SERVER,
    MigrationError,
    Store,
    default_db_path,
    default_migrations_dir,
    postgres,
)
from bot.store.db import PROJECT_ROOT, apply_migrations, load_migrations
from bot.store.ratings import Placing, rate
from bot.store.steps import Step, run_postgresql, run_sqlite
from bot.tables import STATE_VERSION, Table

from .upgrade_fixtures import (
    BEHIND_LOBBY,
    BEHIND_TOURNAMENT,
    DM,
    ELSEWHERE,
    FINISHED_2,
    GROUP_DM,
    LEVELS,
    OLD_STREET,
    STREET,
    U1,
    U2,
)

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


def test_every_migration_has_its_upgrade_fixture():
    assert sorted(LEVELS) == [m.version for m in MIGRATIONS], (
        "a new migration adds what its code writes to tests/store/upgrade_fixtures.py LEVELS")


# Columns a migration computes again by design (009 rates every stored result by OpenSkill):
# the rows stay, these values change when an upgrade passes that migration.
REWRITTEN = {9: {"ratings": {"rating", "games", "wins", "losses", "draws", "updated_at"},
                 "results": {"rated", "rating_before", "rating_after"}}}


def _filled_sqlite(path: Path, start: int) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        ids: dict = {}
        for version in range(1, start + 1):  # each level's rows written while it was the latest
            assert apply_migrations(conn, MIGRATIONS, upto=version) == version
            conn.execute("BEGIN")
            run_sqlite(conn, Step(f"level {version}", functools.partial(LEVELS[version], ids)))
            conn.execute("COMMIT")


async def _filled_postgres(url: str, start: int) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        ids: dict = {}
        for version in range(1, start + 1):
            assert await postgres.migrate(conn, MIGRATIONS, upto=version) == version
            async with conn.transaction():
                await run_postgresql(conn, Step(f"level {version}", functools.partial(LEVELS[version], ids)),
                                     postgres._bound)


def _tables(target) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table's columns and rows (sorted), read past the store."""
    if postgres.is_postgres_url(target):
        with psycopg.connect(target) as conn:
            names = [r[0] for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema() AND table_name <> 'hf_schema'")]
            out = {}
            for name in names:
                cursor = conn.execute(f"SELECT * FROM {name}")
                out[name] = ([c.name for c in cursor.description], [tuple(r) for r in cursor])
            return out
    with closing(sqlite3.connect(target)) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        out = {}
        for name in names:
            cursor = conn.execute(f"SELECT * FROM {name}")
            out[name] = ([c[0] for c in cursor.description], cursor.fetchall())
        return out


def _kept(before, after, table: str, rewritten: set[str]) -> tuple[list, list]:
    """The rows of ``table`` before and after, on the columns it had before (less those a
    migration computes again), sorted: equal when nothing was lost or changed."""
    columns = [c for c in before[table][0] if c not in rewritten]
    def project(found):
        index = [found[0].index(c) for c in columns]
        return sorted((tuple(row[i] for i in index) for row in found[1]), key=repr)
    return project(before[table]), project(after[table])


async def _guest_scopes(store: Store) -> list[tuple[int, str | None]]:
    rows = await store._db.fetchall("SELECT scope_id, kind FROM guest_scopes ORDER BY first_seen")
    return [(row[0], row[1]) for row in rows]


@pytest.mark.parametrize("start", range(1, LATEST + 1))
async def test_upgrade_from_every_level_keeps_everything(bare_database, start, tmp_path):
    database = bare_database
    if postgres.is_postgres_url(database):
        await _filled_postgres(database, start)
    else:
        _filled_sqlite(database, start)
    before = _tables(database)
    async with await Store.open(database) as store:
        after = _tables(database)
        crossed = set().union(*(set(REWRITTEN.get(v, {})) for v in range(start + 1, LATEST + 1)))
        for table in before:
            rewritten = set().union(*(REWRITTEN.get(v, {}).get(table, set())
                                      for v in range(start + 1, LATEST + 1)))
            old, new = _kept(before, after, table, rewritten)
            assert old == new, f"{table} changed upgrading from level {start}"
            if table in crossed:
                assert len(old) == len(new)
        assert (await store.get_settings(7)).currency_name == "petals"
        # The announcements owed go where they were owed: a schedule's to its channel (025), a
        # season staff started unseen to where they started it (033).
        owed = {p.guild_id: (p.owed, p.owed_channel) for p in await store.owed_season_announcements()}
        assert owed == ({7: (2, 55)} if start >= 25 else {}) | ({8: (1, 66)} if start >= 33 else {})
        # The guest games stored before 017 count in their players' own records, and no server's.
        guest_games = (start >= 16) + (start >= 17)
        assert (await store.guest_record(U1)).games == guest_games
        assert (await store.guest_record(U2)).games == (start >= 16)
        assert await _guest_scopes(store) == \
            [(GROUP_DM, None), (DM, "dm")][:guest_games] + [(OLD_STREET, "server")] * (start >= 30) \
            + [(STREET, "server")] * (start >= 31)
        # A guest place's games are taken up by the shard of the server it is in (031), where
        # Discord sends their presses: a DM's and a group DM's go to shard 0.
        assert [await store.home_of(scope) for scope in (GROUP_DM, DM, STREET)] == \
            [None if start >= 16 else GROUP_DM, None if start >= 17 else DM,
             ELSEWHERE if start >= 31 else STREET]
        # Each game keeps the shard that drives it (032): a server's game its server's, a private
        # channel's shard 0's, a game of a server's guest place noted without its server the
        # channel's, the shard that took it up before.
        keys = {scope: key for scope, key in await store._db.fetchall(
            "SELECT DISTINCT guild_id, shard_key FROM games")}
        assert keys == {scope: key for scope, key in (
            (7, 7), (8, 8), (GROUP_DM, None), (DM, None), (OLD_STREET, OLD_STREET), (STREET, ELSEWHERE))
            if scope in keys}
        assert [scope for scope in (OLD_STREET, STREET) if scope in keys] == \
            [OLD_STREET] * (start >= 30) + [STREET] * (start >= 32)
        # Lobbies stored before 020 count as shown; one a stop left behind since is drawn again.
        assert [lobby.lobby_id for lobby in await store.unshown_lobbies()] == [BEHIND_LOBBY] * (start >= 20)
        assert await store.unshown_tournaments() == [BEHIND_TOURNAMENT] * (start >= 20)
        assert [(r.user_id, r.language) for r in await store.pending_reviews()] == [(U1, "ja")] * (start >= 21)
        if 2 <= start < 9:  # 009 rated the Elo-era results again, by OpenSkill
            placings = [Placing(FINISHED_2.players[r.seat], r.outcome, r.points)
                        for r in FINISHED_2.results()]
            for user, skill in rate({}, placings).items():
                row = await store.user_rank(8, user, "rating", game="koikoi")
                assert row.value == pytest.approx(skill.display)
                assert row.spread == pytest.approx(skill.sigma)
        report = await check_store(store)
        assert report.ok, report.problems
        statuses = await store.game_statuses()
        running = [game_id for game_id, status in statuses if status == "running"]
        assert (report.replayed, report.resumed) == (len(statuses) - len(running), len(running))
        assert len(running) >= 2 and report.replayed >= 1
        for game_id in running:  # each plays on: its next legal move is stored and loads again
            record = await store.load_game(game_id, scope=EVERY_SERVER)
            table = Table.from_record(record)
            seat = table.match.current_player
            action = table.match.legal_actions()[0]
            events = table.match.apply(action, seat)
            await store.record_action(game_id, record.last_seq + 1, table.players[seat], str(action),
                                      events, table.state_json(), STATE_VERSION)
            assert (await store.load_game(game_id, scope=EVERY_SERVER)).events[-1].action == str(action)
        assert (await store.audit()).ok
    if not postgres.is_postgres_url(database):
        fresh = tmp_path / "fresh.sqlite3"
        async with await Store.open(fresh):
            pass
        assert _version(database) == LATEST and _schema(database) == _schema(fresh)


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
