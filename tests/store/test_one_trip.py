"""A write run in one trip to SQLite's writer thread (``Database.transact(one_trip=True)``, how a
move is stored): the same transaction as the usual way, all or nothing, and the writer free for
the next write whatever happened to it."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def db(tmp_path):
    store = await Store.open(tmp_path / "trip.sqlite3")
    await store._db.transact(lambda conn: conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
    yield store._db
    await store.close()


async def rows(db) -> list[tuple[int, str]]:
    return [tuple(r) for r in await db.fetchall("SELECT k, v FROM t ORDER BY k")]


async def test_the_work_commits_as_one_transaction_and_returns_its_result(db):
    async def work(conn):
        await conn.execute("INSERT INTO t VALUES (1, 'a')")
        await conn.executemany("INSERT INTO t VALUES (?, ?)", [(2, "b"), (3, "c")])
        cur = await conn.execute("UPDATE t SET v = 'z' WHERE k > 1")
        found = await conn.execute_fetchall("SELECT v FROM t WHERE k = 1")
        return cur.rowcount, found[0]["v"], conn.in_transaction

    assert await db.transact(work, one_trip=True) == (2, "a", True)
    assert await rows(db) == [(1, "a"), (2, "z"), (3, "z")]


async def test_a_refusal_leaves_nothing_and_the_next_write_goes_through(db):
    async def refused(conn):
        await conn.execute("INSERT INTO t VALUES (1, 'a')")
        await conn.execute("INSERT INTO t VALUES (1, 'again')")  # the key is taken

    with pytest.raises(Exception, match="UNIQUE"):
        await db.transact(refused, one_trip=True)
    assert await rows(db) == []
    await db.transact(lambda conn: conn.execute("INSERT INTO t VALUES (5, 'e')"), one_trip=True)
    await db.transact(lambda conn: conn.execute("INSERT INTO t VALUES (6, 'f')"))  # the usual way
    assert await rows(db) == [(5, "e"), (6, "f")]


async def test_work_that_waits_on_anything_else_is_refused_and_undone(db):
    async def waits(conn):
        await conn.execute("INSERT INTO t VALUES (1, 'a')")
        await asyncio.sleep(0)  # not its connection: it cannot finish in the writer's thread

    with pytest.raises(RuntimeError, match="one trip"):
        await db.transact(waits, one_trip=True)
    assert await rows(db) == []
    await db.transact(lambda conn: conn.execute("INSERT INTO t VALUES (2, 'b')"), one_trip=True)
    assert await rows(db) == [(2, "b")]


async def test_a_cancelled_caller_leaves_a_whole_transaction_and_a_free_writer(db):
    started, release = asyncio.Event(), __import__("threading").Event()
    loop = asyncio.get_running_loop()

    async def slow(conn):
        await conn.execute("INSERT INTO t VALUES (1, 'a')")
        loop.call_soon_threadsafe(started.set)
        release.wait(10)  # the writer's thread, held until the caller has gone
        await conn.execute("INSERT INTO t VALUES (2, 'b')")

    task = asyncio.create_task(db.transact(slow, one_trip=True))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    await db.transact(lambda conn: conn.execute("INSERT INTO t VALUES (3, 'c')"), one_trip=True)
    assert await rows(db) == [(1, "a"), (2, "b"), (3, "c")]  # finished in the thread, whole


async def test_writes_that_come_together_go_in_one_trip_each_its_own_transaction(db):
    trips = []
    run = db._writer._execute

    async def counted(fn, *args):
        trips.append(fn)
        return await run(fn, *args)

    db._writer._execute = counted

    def insert(k):
        async def work(conn):
            await conn.execute("INSERT INTO t VALUES (?, ?)", (k, f"v{k}"))
            if k == 3:
                await conn.execute("INSERT INTO t VALUES (1, 'taken')")  # refused: undone alone
            return k
        return work

    results = await asyncio.gather(*(db.transact(insert(k), one_trip=True) for k in range(1, 7)),
                                   return_exceptions=True)
    assert [r if isinstance(r, int) else "refused" for r in results] == [1, 2, "refused", 4, 5, 6]
    assert await rows(db) == [(k, f"v{k}") for k in (1, 2, 4, 5, 6)]
    assert len(trips) == 1  # six writes that came together: one trip to the thread


async def test_writes_asked_for_before_a_close_are_stored_by_it(tmp_path):
    store = await Store.open(tmp_path / "closing.sqlite3")
    db = store._db
    await db.transact(lambda conn: conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
    writes = [asyncio.ensure_future(db.transact(
        lambda conn, k=k: conn.execute("INSERT INTO t VALUES (?, 'v')", (k,)), one_trip=True))
        for k in range(5)]
    await asyncio.sleep(0)  # one turn of the loop: each write has asked (none is done)
    assert not any(w.done() for w in writes)
    await store.close()
    assert all(w.done() and w.exception() is None for w in writes)
    again = await Store.open(tmp_path / "closing.sqlite3")
    try:
        assert tuple(await again._db.fetchone("SELECT COUNT(*) FROM t")) == (5,)
    finally:
        await again.close()
