from __future__ import annotations

import pytest

from bot.store import Store

from ._storm import FakeClock

GUILD = 900
OTHER_GUILD = 901
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path, clock):
    s = await Store.open(tmp_path / "store.sqlite3", clock=clock)
    yield s
    await s.close()


@pytest.fixture
async def funded(store):
    """A store where four users of GUILD hold the default 1,000 chips."""
    for user in (ALICE, BOB, CAROL, DAVE):
        await store.open_account(GUILD, user)
    return store
