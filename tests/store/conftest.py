from __future__ import annotations

import pytest

from bot.store import Store
from tests import pgserver

from ._storm import FakeClock

GUILD = 900
OTHER_GUILD = 901
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _database(request, tmp_path, *, migrated: bool):
    if request.param == "sqlite":
        yield tmp_path / "store.sqlite3"
        return
    server = pgserver.server()
    name = server.new_database(migrated=migrated)
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where a store is opened: an SQLite file, or a fresh database of the test PostgreSQL server
    (skipped without one, locally; required in CI). A PostgreSQL one already has the schema, as
    a store's first open would leave it: migrating each test's database took most of its time."""
    yield from _database(request, tmp_path, migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_database(request, tmp_path):
    """Like ``database``, but a PostgreSQL one is empty: for the tests of migrating itself."""
    yield from _database(request, tmp_path, migrated=False)


@pytest.fixture
def empty_postgres():
    """A fresh, empty PostgreSQL database (for what only PostgreSQL does)."""
    server = pgserver.server()
    name = server.new_database()
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture
async def store(database, clock):
    s = await Store.open(database, clock=clock)
    yield s
    await s.close()


@pytest.fixture
async def funded(store):
    """A store where four users of GUILD hold the default 1,000 chips."""
    for user in (ALICE, BOB, CAROL, DAVE):
        await store.open_account(GUILD, user)
    return store


async def count(store: Store, table: str) -> int:
    """Rows of ``table``, read through the store's own database (either backend)."""
    row = await store._db.fetchone(f"SELECT COUNT(*) FROM {table}")
    return row[0]


async def write_directly(store: Store, sql: str) -> None:
    """Run ``sql`` in a write transaction of the store's database, past the store's checks: for
    tests that the schema itself refuses what the code never does."""
    await store._db.transact(lambda conn: conn.execute(sql))
