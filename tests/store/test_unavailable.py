"""A read-only, full, corrupt or locked database: one StoreUnavailable, nothing written, one log
line per episode, and reads that still work where SQLite can still read."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.discord_ui.errors import sentence
from bot.store import EVERY_SERVER, Store, StoreError, StoreUnavailable
from bot.store.health import classify

from .conftest import ALICE, BOB, GUILD
from .faults import (
    corrupt_table,
    counts,
    fill_up,
    hold_write_lock,
    make_read_only,
    make_writable,
    problem_lines,
)

SENTENCE = "The bot's database is having trouble; nothing was changed. Please try again later."


@pytest.fixture
def database(tmp_path):
    """These faults are made on an SQLite file (its permissions, its pages, its lock)."""
    return tmp_path / "store.sqlite3"


@pytest.fixture(autouse=True)
def _capture(caplog):
    caplog.set_level(logging.INFO, logger="bot.store")


async def _game(store: Store, stake: int = 0):
    return await store.create_game(GUILD, 55, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                   state_json='{"s": 0}', state_version=1, stake=stake)


def test_the_error_is_a_store_error_with_the_sentence():
    error = StoreUnavailable("full", "database or disk is full")
    assert isinstance(error, StoreError) and sentence(error) == SENTENCE
    assert (error.problem, error.detail) == ("full", "database or disk is full")


@pytest.mark.parametrize(("code", "message", "problem"), [
    (10 | (4 << 8), "disk I/O error", "I/O error"),       # SQLITE_IOERR_SHORT_READ
    (13, "database or disk is full", "full"),
    (8, "attempt to write a readonly database", "read-only"),
    (5, "database is locked", "locked"),
    (26, "file is not a database", "corrupt"),
    (11, "database disk image is malformed", "corrupt"),
    (None, "disk I/O error", "I/O error"),                 # no result code: SQLite's words
    (None, "database disk image is malformed", "corrupt"),
])
def test_classify_by_result_code_or_message(code, message, problem):
    exc = sqlite3.DatabaseError(message) if problem == "corrupt" else \
        sqlite3.OperationalError(message)
    if code is not None:
        exc.sqlite_errorcode = code
    assert classify(exc) == problem


def test_errors_of_the_caller_are_not_the_databases():
    assert classify(sqlite3.IntegrityError("CHECK constraint failed")) is None
    assert classify(sqlite3.OperationalError("no such table: nowhere")) is None
    assert classify(sqlite3.ProgrammingError("closed")) is None
    assert classify(ValueError("database or disk is full")) is None


async def test_read_only_refuses_writes_keeps_reads_and_logs_once(funded, caplog):
    before = counts(funded.path)
    await make_read_only(funded)
    for attempt in (lambda: funded.grant(GUILD, ALICE, 5, key="k1", actor=BOB, reason="r"),
                    lambda: funded.transfer(GUILD, ALICE, BOB, 5, key="k2"),
                    lambda: funded.update_settings(GUILD, turn_timeout_s=30),
                    lambda: _game(funded, stake=10)):
        with pytest.raises(StoreUnavailable) as info:
            await attempt()
        assert info.value.problem == "read-only" and sentence(info.value) == SENTENCE
    assert await funded.balance(GUILD, ALICE) == 1000  # reads go on
    assert (await funded.get_settings(GUILD)).turn_timeout_s == 120
    assert counts(funded.path) == before
    [line] = problem_lines(caplog.records)
    assert "read-only" in line and funded.path in line
    assert all(r.exc_info is None for r in caplog.records)

    await make_writable(funded)
    await funded.grant(GUILD, ALICE, 5, key="k3", actor=BOB, reason="r")
    assert "works again" in problem_lines(caplog.records)[-1]
    await make_read_only(funded)
    with pytest.raises(StoreUnavailable):
        await funded.grant(GUILD, ALICE, 5, key="k4", actor=BOB, reason="r")
    assert len(problem_lines(caplog.records)) == 3  # failed, recovered, failed anew
    assert (await funded.audit()).ok


async def test_full_database_keeps_moves_and_game_starts_whole(funded, caplog):
    game = await _game(funded)
    await funded.record_action(game.game_id, 1, ALICE, "play", [{"t": 1}], '{"s": 1}', 1)
    await fill_up(funded)
    before = counts(funded.path)
    big_state = '{"s": "' + "x" * 20_000 + '"}'  # needs pages the file cannot grow
    with pytest.raises(StoreUnavailable) as info:
        await funded.record_action(game.game_id, 2, BOB, "draw", [{"t": 2}], big_state, 1)
    assert info.value.problem == "full"
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert loaded.last_seq == 1 and loaded.state == {"s": 1} and len(loaded.events) == 1
    with pytest.raises(StoreUnavailable):
        await funded.create_game(GUILD, 55, "koikoi", rules={}, players=[ALICE, BOB], seed=2,
                                 state_json=big_state, state_version=1, stake=100)
    assert counts(funded.path) == before
    assert (await funded.balance(GUILD, ALICE), await funded.balance(GUILD, BOB)) == (1000, 1000)
    assert (await funded.audit()).ok
    [line] = problem_lines(caplog.records)
    assert "full" in line and "free disk space" in line


async def test_corrupt_table_fails_its_reads_and_writes_but_not_the_rest(funded, caplog):
    await funded.update_settings(GUILD, currency_name="ryo")
    await corrupt_table(funded, "guild_settings")
    # Settings are kept once read or written: the damage shows at the next use of the table...
    assert (await funded.get_settings(GUILD)).currency_name == "ryo"
    with pytest.raises(StoreUnavailable) as info:
        await funded.update_settings(GUILD, turn_timeout_s=30)
    assert info.value.problem == "corrupt"
    # ...and from then on nothing is answered from memory that the database cannot confirm.
    with pytest.raises(StoreUnavailable):
        await funded.get_settings(GUILD)
    with pytest.raises(StoreUnavailable):
        await funded.claim_daily(GUILD, ALICE)  # reads the daily amount from the settings
    assert await funded.balance(GUILD, ALICE) == 1000
    assert (await funded.audit()).ok
    [line] = problem_lines(caplog.records)  # reads elsewhere do not announce a recovery
    assert "corrupt" in line and "backup" in line


async def test_a_file_that_is_not_a_database_is_refused_at_open(tmp_path, caplog):
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not SQLite at all " * 200)
    with pytest.raises(StoreUnavailable) as info:
        await Store.open(path)
    assert info.value.problem == "corrupt"
    [line] = problem_lines(caplog.records)
    assert str(path) in line and "file is not a database" in line


async def test_locked_past_the_busy_timeout_then_free_again(tmp_path, caplog):
    store = await Store.open(tmp_path / "locked.sqlite3", busy_timeout_ms=50)
    try:
        await store.open_account(GUILD, ALICE)
        other = hold_write_lock(store.path)
        try:
            with pytest.raises(StoreUnavailable) as info:
                await store.claim_daily(GUILD, ALICE)
            assert info.value.problem == "locked"
            assert await store.balance(GUILD, ALICE) == 1000  # WAL readers never wait
        finally:
            other.close()
        assert (await store.claim_daily(GUILD, ALICE)).to_balance == 1100
        failed, recovered = problem_lines(caplog.records)
        assert "locked" in failed and "works again" in recovered
    finally:
        await store.close()
