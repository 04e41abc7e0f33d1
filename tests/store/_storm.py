"""A random mix of ledger and game operations from many tasks, and the invariant checks.

Used by the concurrency storm test in-process, and run as a separate writer process by the crash
test: ``python -m tests.store._storm DB_PATH SEED OPS TASKS`` prints one line per committed
operation ("T <transfer_id> <amount>" or "G <game_id> <status>") so the parent can check that
everything reported committed survives a SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import psycopg

from bot.store import (
    AlreadyClaimed,
    InsufficientFunds,
    SeatResult,
    Store,
    StoreError,
)
from bot.store.postgres import is_postgres_url

GUILDS = (111, 222)
USERS = tuple(range(5001, 5013))


class FakeClock:
    """A clock the storm pushes forward so dailies span several UTC days."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Tally:
    committed: list[tuple[int, int]] = field(default_factory=list)  # (transfer_id, amount)
    games: dict[int, str] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)


async def storm_task(store: Store, rng: random.Random, ops: int, tally: Tally,
                     clock: FakeClock | None, report: Callable[[str], None] | None = None) -> None:
    for _ in range(ops):
        guild = rng.choice(GUILDS)
        a, b = rng.sample(USERS, 2)
        pick = rng.random()
        try:
            if pick < 0.55:
                key = f"k{rng.getrandbits(48)}"
                t = await store.transfer(guild, a, b, rng.randint(1, 400), key=key, reason="storm")
                tally.committed.append((t.transfer_id, t.amount))
                if report:
                    report(f"T {t.transfer_id} {t.amount}")
                if rng.random() < 0.2:  # a retry of the same request must not move chips again
                    again = await store.transfer(guild, a, b, t.amount, key=key, reason="storm")
                    assert again.replayed and again.transfer_id == t.transfer_id
            elif pick < 0.65:
                if clock is not None and rng.random() < 0.3:
                    clock.advance(rng.randint(3600, 40000))
                t = await store.claim_daily(guild, a)
                tally.committed.append((t.transfer_id, t.amount))
                if report:
                    report(f"T {t.transfer_id} {t.amount}")
            elif pick < 0.72:
                op = store.grant if rng.random() < 0.6 else store.revoke
                t = await op(guild, a, rng.randint(1, 300), key=f"adm{rng.getrandbits(48)}",
                             actor=42, reason="storm admin")
                tally.committed.append((t.transfer_id, t.amount))
                if report:
                    report(f"T {t.transfer_id} {t.amount}")
            else:
                await _game(store, rng, guild, tally, report)
        except (InsufficientFunds, AlreadyClaimed) as exc:
            tally.refused[type(exc).__name__] = tally.refused.get(type(exc).__name__, 0) + 1
        await asyncio.sleep(0)


async def _game(store: Store, rng: random.Random, guild: int, tally: Tally,
                report: Callable[[str], None] | None) -> None:
    seats = rng.randint(2, 4)
    players: list[int | str] = list(rng.sample(USERS, seats))
    if rng.random() < 0.25:
        players[-1] = "ai:normal"
    game = await store.create_game(guild, 9, rng.choice(["koikoi", "hana_awase"]), rules={},
                                   players=players, seed=rng.getrandbits(64), state_json="{}",
                                   state_version=1, stake=rng.choice([0, 10, 50, 200]))
    for seq in range(1, rng.randint(1, 4)):
        await store.record_action(game.game_id, seq, players[0], f"play:{seq}", [], "{}", 1)
    if rng.random() < 0.2:
        out = await store.cancel_game(game.game_id, reason="storm cancel")
    else:
        winner = rng.randrange(seats)
        results = [SeatResult(s, rng.randint(0, 30), "won" if s == winner else "lost")
                   for s in range(seats)]
        deltas = None
        if game.stake and rng.random() < 0.5:
            deltas = {s: (game.stake * (seats - 1) if s == winner else -game.stake)
                      for s in range(seats)}
        out = await store.finish_game(game.game_id, results, chip_deltas=deltas)
        again = await store.finish_game(game.game_id, results, chip_deltas=deltas)
        assert again.replayed and again.payouts == out.payouts
    tally.games[game.game_id] = out.status
    if report:
        report(f"G {game.game_id} {out.status}")


async def open_all(store: Store) -> None:
    for guild in GUILDS:
        for user in USERS:
            await store.open_account(guild, user)


@contextlib.contextmanager
def plain_connection(target: str):
    """A plain synchronous connection to the store's database (an SQLite file or a PostgreSQL
    URL), bypassing the store: ``q(sql)`` returns a query's rows as tuples."""
    if is_postgres_url(target):
        with psycopg.connect(target, autocommit=True) as conn:
            yield lambda sql: [tuple(row) for row in conn.execute(sql).fetchall()]
    else:
        conn = sqlite3.connect(target)
        try:
            yield lambda sql: conn.execute(sql).fetchall()
        finally:
            conn.close()


def check_invariants(target: str) -> dict[str, int]:
    """The ledger invariants, computed with a plain connection straight from the database."""
    with plain_connection(target) as q:
        assert q("SELECT account_id FROM accounts WHERE kind <> 'house' AND balance < 0") == []
        assert q("""SELECT a.account_id FROM accounts a WHERE a.balance <>
                    (SELECT COALESCE(SUM(amount), 0) FROM entries e
                     WHERE e.account_id = a.account_id)""") == []
        # chips are only created by the house: everything outside it equals what it issued
        for guild, outside, house in q("""SELECT guild_id,
                    SUM(CASE WHEN kind <> 'house' THEN balance ELSE 0 END),
                    SUM(CASE WHEN kind = 'house' THEN balance ELSE 0 END)
                    FROM accounts GROUP BY guild_id"""):
            assert outside == -house, (guild, outside, house)
        assert q("SELECT idem_key FROM transfers GROUP BY idem_key HAVING COUNT(*) > 1") == []
        assert q("""SELECT transfer_id FROM entries GROUP BY transfer_id
                    HAVING COUNT(*) <> 2 OR SUM(amount) <> 0""") == []
        assert q("SELECT COUNT(*) FROM transfers")[0][0] * 2 == q("SELECT COUNT(*) FROM entries")[0][0]
        assert q("""SELECT a.account_id FROM accounts a JOIN games g USING (game_id)
                    WHERE a.kind = 'escrow' AND g.status <> 'running' AND a.balance <> 0""") == []
        if not is_postgres_url(target):  # PostgreSQL checks its pages and foreign keys itself
            assert q("PRAGMA integrity_check") == [("ok",)]
            assert q("PRAGMA foreign_key_check") == []
        return {"transfers": q("SELECT COUNT(*) FROM transfers")[0][0],
                "games": q("SELECT COUNT(*) FROM games")[0][0]}


async def _child(path: str, seed: int, ops: int, tasks: int) -> None:
    clock = FakeClock()
    async with await Store.open(path, clock=clock) as store:
        await open_all(store)
        print("READY", flush=True)
        tally = Tally()

        def report(line: str) -> None:
            print(line, flush=True)

        await asyncio.gather(*(
            storm_task(store, random.Random(seed * 1000 + i), ops, tally, clock, report)
            for i in range(tasks)
        ))
    print("DONE", flush=True)


if __name__ == "__main__":
    db, seed_arg, ops_arg, tasks_arg = sys.argv[1:5]
    try:
        asyncio.run(_child(db, int(seed_arg), int(ops_arg), int(tasks_arg)))
    except StoreError as exc:  # an unexpected refusal fails the parent's test loudly
        print(f"ERROR {type(exc).__name__}: {exc}", flush=True)
        raise
