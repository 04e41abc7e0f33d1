"""Property test: random ledger operations agree with a plain Python model of the rules."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import (
    AlreadyClaimed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    SelfTransfer,
    Store,
    UnknownAccount,
)

from ._storm import FakeClock

G = 1
USERS = st.integers(1, 4)
AMOUNTS = st.one_of(st.integers(-5, 1500), st.just(0))
KEYS = st.sampled_from(["a", "b", "c", "d", "e", "f"])
OPS = st.one_of(
    st.tuples(st.just("open"), USERS),
    st.tuples(st.just("transfer"), USERS, USERS, AMOUNTS, KEYS),
    st.tuples(st.just("grant"), USERS, AMOUNTS, KEYS),
    st.tuples(st.just("revoke"), USERS, AMOUNTS, KEYS),
    st.tuples(st.just("daily"), USERS),
    st.tuples(st.just("advance"), st.integers(1, 30)),
)


class Model:
    def __init__(self) -> None:
        self.balances: dict[int, int] = {}
        self.keys: dict[tuple[str, str], tuple] = {}
        self.claims: set[tuple[int, int]] = set()
        self.hours = 0

    def apply(self, op: tuple, day: int) -> type[Exception] | None:
        kind = op[0]
        if kind == "open":
            self.balances.setdefault(op[1], 1000)
            return None
        if kind == "daily":
            if op[1] not in self.balances:
                return UnknownAccount
            if (op[1], day) in self.claims:
                return AlreadyClaimed
            self.claims.add((op[1], day))
            self.balances[op[1]] += 100
            return None
        if kind == "transfer":
            _, a, b, amount, key = op
            if amount <= 0:
                return InvalidAmount
            if a == b:
                return SelfTransfer
            src, dst = a, b
        else:
            _, user, amount, key = op
            if amount <= 0:
                return InvalidAmount
            src, dst = (None, user) if kind == "grant" else (user, None)
        for u in (src, dst):
            if u is not None and u not in self.balances:
                return UnknownAccount
        if (kind, key) in self.keys:
            return None if self.keys[(kind, key)] == (src, dst, amount) else IdempotencyConflict
        if src is not None and self.balances[src] < amount:
            return InsufficientFunds
        self.keys[(kind, key)] = (src, dst, amount)
        if src is not None:
            self.balances[src] -= amount
        if dst is not None:
            self.balances[dst] += amount
        return None


async def _run(ops: list[tuple], directory: str) -> None:
    clock = FakeClock(1_700_000_000.0)
    model = Model()
    async with await Store.open(Path(directory) / "m.sqlite3", clock=clock) as store:
        for op in ops:
            if op[0] == "advance":
                clock.advance(op[1] * 3600)
                continue
            expected = model.apply(op, int(clock.now // 86400))
            try:
                if op[0] == "open":
                    await store.open_account(G, op[1])
                elif op[0] == "daily":
                    await store.claim_daily(G, op[1])
                elif op[0] == "transfer":
                    await store.transfer(G, op[1], op[2], op[3], key=op[4])
                else:
                    method = store.grant if op[0] == "grant" else store.revoke
                    await method(G, op[1], op[2], key=op[3], actor=9, reason="model")
            except Exception as exc:  # compared with the model's verdict just below
                assert type(exc) is expected, (op, exc)
            else:
                assert expected is None, (op, expected)
            for user, balance in model.balances.items():
                assert await store.balance(G, user) == balance, op
        report = await store.audit()
        assert report.ok, report.problems
        assert report.issued == sum(model.balances.values())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=1, max_size=40))
def test_ledger_agrees_with_the_model(ops):
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(_run(ops, directory))
