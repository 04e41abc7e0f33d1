"""Backups taken while the store is being written, restored into empty databases and verified."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from bot.__main__ import main
from bot.checkup import check_store
from bot.store import EVERY_SERVER, Store
from bot.store.backup import (
    BackupError,
    backup_database,
    prune_backups,
    restore_database,
    scheduled_name,
)

from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD
from .played import play, store_played


async def _history(store: Store) -> None:
    """Accounts, a finished staked game and two running ones, on two servers."""
    for guild in (GUILD, OTHER_GUILD):
        for user in (ALICE, BOB, CAROL):
            await store.open_account(guild, user)
    await store_played(store, GUILD, play([ALICE, BOB], 7), stake=20)
    await store_played(store, GUILD, play([BOB, CAROL], 8, moves=3), stake=10)
    await store_played(store, OTHER_GUILD, play([ALICE, "ai:easy"], 9, moves=2))


async def _keep_writing(store: Store, started: asyncio.Event, stop: asyncio.Event) -> int:
    """Transfers back and forth until told to stop (the bot at work meanwhile)."""
    moved = 0
    while not stop.is_set():
        sender, receiver = (ALICE, BOB) if moved % 2 == 0 else (BOB, ALICE)
        await store.transfer(OTHER_GUILD, sender, receiver, 1, key=f"w-{moved}")
        moved += 1
        started.set()
    return moved


async def test_a_backup_taken_during_writes_restores_and_verifies(tmp_path):
    live = tmp_path / "live.sqlite3"
    async with await Store.open(live) as store:
        await _history(store)
        started, stop = asyncio.Event(), asyncio.Event()
        writer = asyncio.create_task(_keep_writing(store, started, stop))
        await started.wait()
        (tmp_path / "b").mkdir()
        backup = await backup_database(str(live), tmp_path / "b" / "backup.sqlite3")
        stop.set()
        moved = await writer
        assert moved >= 1 and backup.size > 0
        assert not list((tmp_path / "b").glob("*.partial"))

    restored = tmp_path / "restored.sqlite3"
    assert await restore_database(backup.path, str(restored)) > 0
    async with await Store.open(restored) as copy:
        report = await check_store(copy)
        assert report.ok, report.problems
        assert (report.replayed, report.resumed) == (1, 2)
        assert {g.game_id for g in await copy.list_running_games(EVERY_SERVER)} == {2, 3}

    with pytest.raises(BackupError, match="not empty"):
        await restore_database(backup.path, str(restored))
    with pytest.raises(BackupError, match="exists already"):
        await backup_database(str(live), backup.path)
    with pytest.raises(BackupError, match="does not exist: create it"):
        await backup_database(str(live), tmp_path / "typo" / "backup.sqlite3")
    assert not (tmp_path / "typo").exists()  # a mistyped folder is never made in passing
    with pytest.raises(BackupError, match="is a file, not a folder"):
        await backup_database(str(live), backup.path / "backup.sqlite3")


async def _live(path) -> None:
    async with await Store.open(path) as store:
        await _history(store)


def test_the_commands_back_up_restore_and_report(tmp_path, capsys):
    live = tmp_path / "live.sqlite3"
    asyncio.run(_live(live))
    backup, restored = tmp_path / "backup.sqlite3", tmp_path / "restored.sqlite3"
    assert main(["db", "backup", str(backup), "--database-url", str(live)]) == 0
    assert main(["db", "restore", str(backup), "--database-url", str(restored)]) == 0
    out = capsys.readouterr().out
    assert "verified: ledger:" in out and "1 ended replayed, 2 running resumed" in out
    assert main(["db", "restore", str(backup), "--database-url", str(restored)]) == 2
    assert "not empty" in capsys.readouterr().err


def test_a_restore_that_does_not_verify_exits_non_zero(tmp_path, capsys):
    live = tmp_path / "live.sqlite3"
    asyncio.run(_live(live))
    with closing(sqlite3.connect(live)) as conn:  # a damaged log: a move the engine refuses
        conn.execute("DROP TRIGGER game_events_append_only_u")
        conn.execute("UPDATE game_events SET action = 'play:999' WHERE game_id = 1 AND seq = 1")
        conn.execute("UPDATE games SET state = (SELECT state FROM games WHERE game_id = 3) "
                     "WHERE game_id = 2")  # a state that is not where its log leads
        conn.commit()
    backup = tmp_path / "backup.sqlite3"
    assert main(["db", "backup", str(backup), "--database-url", str(live)]) == 0
    assert main(["db", "restore", str(backup), "--database-url", str(tmp_path / "r.sqlite3")]) == 1
    out = capsys.readouterr().out
    assert "problem: game #1 (finished): does not replay" in out
    assert "problem: game #2 (running): replays to another state than the stored one" in out
    assert "problem: game #3" not in out


async def test_postgresql_backs_up_with_pg_dump_and_restores_into_an_empty_database(
        empty_postgres, tmp_path, monkeypatch):
    from tests import pgserver

    async with await Store.open(empty_postgres) as store:
        await _history(store)
    monkeypatch.setenv("PATH", str(pgserver.bin_dir()))
    archive = tmp_path / "pg.dump"
    backup = await backup_database(empty_postgres, archive)
    assert backup.kind == "pg_dump" and archive.read_bytes().startswith(b"PGDMP")
    server = pgserver.server()
    name = server.new_database()
    try:
        target = server.url(name)
        await restore_database(archive, target)
        async with await Store.open(target) as copy:
            report = await check_store(copy)
            assert report.ok and (report.replayed, report.resumed) == (1, 2), report.problems
        with pytest.raises(BackupError, match="not empty"):
            await restore_database(archive, target)
    finally:
        server.drop_database(name)
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump anywhere
    with pytest.raises(BackupError, match="pg_dump is not on the PATH"):
        await backup_database(empty_postgres, tmp_path / "again.dump")


def test_scheduled_backups_are_named_by_time_and_pruned_to_the_newest(tmp_path):
    start = datetime(2027, 1, 1, 3, tzinfo=UTC)
    for hour in range(4):
        (tmp_path / scheduled_name(start + timedelta(hours=hour))).write_bytes(b"x")
    (tmp_path / "other.sqlite3").write_bytes(b"kept: not a scheduled backup")
    removed = prune_backups(tmp_path, 2)
    assert [p.name for p in removed] == ["hanafuda-20270101T030000Z.sqlite3",
                                         "hanafuda-20270101T040000Z.sqlite3"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "hanafuda-20270101T050000Z.sqlite3", "hanafuda-20270101T060000Z.sqlite3", "other.sqlite3"]


async def test_the_scheduled_backup_writes_into_its_folder_and_keeps_the_newest(tmp_path):
    from bot.backups import ScheduledBackups

    live = tmp_path / "live.sqlite3"
    moments = iter(datetime(2027, 5, 1, hour, tzinfo=UTC) for hour in range(3))
    async with await Store.open(live) as store:
        await _history(store)
        backups = ScheduledBackups(str(live), tmp_path / "kept", keep=2, interval_s=3600,
                                   clock=lambda: next(moments))
        for _ in range(3):
            await backups.run_once()
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == [
        "hanafuda-20270501T010000Z.sqlite3", "hanafuda-20270501T020000Z.sqlite3"]


async def test_what_is_not_a_backup_or_not_empty_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all, only words")
    with pytest.raises(BackupError, match="neither an SQLite database nor a pg_dump archive"):
        await restore_database(junk, str(tmp_path / "r.sqlite3"))
    with pytest.raises(BackupError, match="is not an SQLite database"):
        await backup_database(str(junk), tmp_path / "b.sqlite3")
    foreign = tmp_path / "foreign.sqlite3"
    with closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE notes (x)")
    with pytest.raises(BackupError, match="not one of this bot"):
        await restore_database(foreign, str(tmp_path / "r.sqlite3"))
    async with await Store.open(tmp_path / "live.sqlite3"):
        pass
    backup = await backup_database(str(tmp_path / "live.sqlite3"), tmp_path / "b.sqlite3")
    with pytest.raises(BackupError, match="is a file but not an SQLite database"):
        await restore_database(backup.path, str(junk))
    assert junk.read_bytes() == b"not a database at all, only words"
