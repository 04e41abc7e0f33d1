"""The chip ledger: accounts, dailies, transfers, admin grants, refusals, history."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.discord_ui.errors import sentence
from bot.store import (
    EVERY_SERVER,
    MAX_AMOUNT,
    AlreadyClaimed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    InvalidSetting,
    SelfTransfer,
    Store,
    StoreError,
    UnknownAccount,
)
from bot.store.db import IntegrityError

from .conftest import ALICE, BOB, CAROL, GUILD, count, write_directly
from .refusals import refused


async def _counts(store) -> tuple[int, ...]:
    return tuple([await count(store, t) for t in ("accounts", "transfers", "entries", "games")])


async def test_open_account_gives_starting_chips_once(store):
    assert await store.open_account(GUILD, ALICE) == (1000, True)
    assert await store.open_account(GUILD, ALICE) == (1000, False)
    assert await store.balance(GUILD, ALICE) == 1000
    report = await store.audit()
    assert report.ok and report.issued == 1000 and report.total == 0


async def test_starting_chips_follow_the_server_setting(store):
    await store.update_settings(GUILD, starting_chips=0)
    assert await store.open_account(GUILD, ALICE) == (0, True)
    await store.update_settings(GUILD, starting_chips=250)
    assert await store.open_account(GUILD, BOB) == (250, True)


async def test_daily_once_per_utc_day(store, clock):
    clock.now = 1_700_006_400.0 - 60  # 2023-11-15 23:59:00 UTC
    await store.open_account(GUILD, ALICE)
    first = await store.claim_daily(GUILD, ALICE)
    assert (first.amount, first.to_balance) == (100, 1100)
    with pytest.raises(AlreadyClaimed) as info:
        await store.claim_daily(GUILD, ALICE)
    assert info.value.next_claim_at.timestamp() == 1_700_006_400
    assert "already claimed" in sentence(info.value)
    assert await store.balance(GUILD, ALICE) == 1100
    clock.advance(61)  # a new UTC day, two minutes after the first claim
    assert (await store.claim_daily(GUILD, ALICE)).to_balance == 1200
    with pytest.raises(AlreadyClaimed):
        await store.claim_daily(GUILD, ALICE)


async def test_daily_turned_off(store):
    await store.update_settings(GUILD, daily_amount=0)
    await store.open_account(GUILD, ALICE)
    with refused(InvalidSetting, "turned off"):
        await store.claim_daily(GUILD, ALICE)


async def test_transfer_moves_chips_and_retry_is_idempotent(funded):
    t = await funded.transfer(GUILD, ALICE, BOB, 300, key="interaction-1", reason="lunch")
    assert (t.from_user, t.to_user, t.from_balance, t.to_balance) == (ALICE, BOB, 700, 1300)
    assert not t.replayed
    again = await funded.transfer(GUILD, ALICE, BOB, 300, key="interaction-1", reason="lunch")
    assert again.replayed and again.transfer_id == t.transfer_id and again.to_balance == 1300
    assert (await funded.balance(GUILD, ALICE), await funded.balance(GUILD, BOB)) == (700, 1300)
    with pytest.raises(IdempotencyConflict):
        await funded.transfer(GUILD, ALICE, CAROL, 300, key="interaction-1")


async def test_retry_after_spending_everything_still_returns_the_original(funded):
    await funded.transfer(GUILD, ALICE, BOB, 1000, key="all-in")
    again = await funded.transfer(GUILD, ALICE, BOB, 1000, key="all-in")
    assert again.replayed and await funded.balance(GUILD, ALICE) == 0


@pytest.mark.parametrize("amount", [0, -1, -10**6, 1.5, 10.0, True, "10", None,
                                    MAX_AMOUNT + 1, 2**70])
async def test_bad_amounts_are_refused_and_nothing_is_written(funded, amount):
    before = await _counts(funded)
    with pytest.raises(InvalidAmount) as info:
        await funded.transfer(GUILD, ALICE, BOB, amount, key="bad")
    assert sentence(info.value)
    with pytest.raises(InvalidAmount):
        await funded.grant(GUILD, ALICE, amount, key="bad", actor=1, reason="x")
    assert await _counts(funded) == before


async def test_refusals_name_the_problem_and_write_nothing(funded):
    before = await _counts(funded)
    with refused(SelfTransfer, "yourself"):
        await funded.transfer(GUILD, ALICE, ALICE, 5, key="self")
    with refused(UnknownAccount, "no account") as info:
        await funded.transfer(GUILD, ALICE, 999, 5, key="nobody")
    assert info.value.user_id == 999
    with pytest.raises(UnknownAccount):
        await funded.transfer(GUILD, 999, ALICE, 5, key="nobody2")
    with pytest.raises(InsufficientFunds) as info:
        await funded.transfer(GUILD, ALICE, BOB, 1001, key="too-much")
    assert (info.value.balance, info.value.needed) == (1000, 1001)
    assert "1,000 chips" in sentence(info.value)
    with pytest.raises(InvalidInput):
        await funded.transfer(GUILD, ALICE, -5, 5, key="neg-id")
    with pytest.raises(InvalidInput):
        await funded.transfer(GUILD, ALICE, BOB, 5, key="")
    assert await _counts(funded) == before
    assert all(issubclass(e, StoreError) for e in (SelfTransfer, UnknownAccount, InvalidAmount))


async def test_error_messages_use_the_server_currency(funded):
    await funded.update_settings(GUILD, currency_name="petals")
    with refused(InsufficientFunds, "1,000 petals"):
        await funded.transfer(GUILD, ALICE, BOB, 5000, key="x")


async def test_grant_and_revoke(funded):
    g = await funded.grant(GUILD, ALICE, 500, key="g1", actor=77, reason="tournament prize")
    assert (g.from_user, g.to_balance, g.actor) == (None, 1500, 77)
    assert (await funded.grant(GUILD, ALICE, 500, key="g1", actor=77, reason="x")).replayed
    r = await funded.revoke(GUILD, ALICE, 1500, key="r1", actor=77, reason="cheating")
    assert r.from_balance == 0
    with pytest.raises(InsufficientFunds):
        await funded.revoke(GUILD, ALICE, 1, key="r2", actor=77, reason="again")
    report = await funded.audit()
    assert report.ok and report.issued == 3000  # four accounts of 1000, minus Alice's


async def test_history_is_paged_newest_first(funded):
    for i in range(7):
        await funded.transfer(GUILD, ALICE, BOB, i + 1, key=f"h{i}", reason=f"#{i}")
    first = await funded.history(GUILD, ALICE, limit=3)
    assert [line.amount for line in first] == [-7, -6, -5]
    assert first[0].counterparty == BOB and first[0].counterparty_kind == "user"
    assert first[0].balance_after == 1000 - sum(range(1, 8))
    rest = await funded.history(GUILD, ALICE, offset=3, limit=10)
    assert [line.amount for line in rest] == [-4, -3, -2, -1, 1000]
    assert rest[-1].kind == "open" and rest[-1].counterparty_kind == "house"
    assert (await funded.history(GUILD, BOB, limit=1))[0].amount == 7
    with pytest.raises(InvalidInput):
        await funded.history(GUILD, ALICE, limit=0)


WEIRD = [
    "Robert'); DROP TABLE transfers;--",
    'quote " and \' and `tick`',
    "🎴🌸 花札 こいこい 🀄",
    "line\nbreak\ttab \\ backslash %s ?1 :name",
    "\u202eright-to-left",
]


@pytest.mark.parametrize("text", WEIRD)
async def test_reasons_and_names_are_stored_verbatim(funded, text):
    t = await funded.transfer(GUILD, ALICE, BOB, 1, key=text, reason=text)
    assert t.reason == text
    assert (await funded.history(GUILD, BOB, limit=1))[0].reason == text
    assert (await funded.transfer(GUILD, ALICE, BOB, 1, key=text, reason=text)).replayed
    settings = await funded.set_house_rules(GUILD, text, {"note": text})
    assert (await funded.get_settings(GUILD)).rules_for(text) == {"note": text}
    assert settings.house_rules[text]["note"] == text
    ai = text[:32]
    game = await funded.create_game(GUILD, 5, text, rules={text: text}, players=[ALICE, ai],
                                    seed=text, state_json="{}", state_version=1)
    await funded.record_action(game.game_id, 1, text, text, [{"type": text}],
                               json.dumps({"t": text}), 1)
    loaded = await funded.load_game(game.game_id, scope=EVERY_SERVER)
    assert (loaded.game, loaded.rules, loaded.players, loaded.seed) == (text, {text: text},
                                                                         [ALICE, ai], text)
    assert loaded.state == {"t": text}
    assert loaded.events[0].actor == text and loaded.events[0].action == text
    assert loaded.events[0].events == [{"type": text}]
    assert (await funded.audit()).ok


async def test_balances_cannot_exceed_the_ledger_limit(funded):
    for i in range(1000):
        try:
            await funded.grant(GUILD, ALICE, MAX_AMOUNT, key=f"big{i}", actor=1, reason="x")
        except InvalidAmount as exc:
            assert "largest amount" in sentence(exc)
            break
    else:
        pytest.fail("no limit reached")
    assert (await funded.audit()).ok


async def test_a_refused_transfer_leaves_nothing_behind_not_even_its_key(funded):
    # The credit is applied before the debit is refused (one statement on PostgreSQL, with the
    # transfer's row): the whole transaction must roll back and the connection stay usable.
    for _ in range(3):
        with pytest.raises(InsufficientFunds):
            await funded.transfer(GUILD, ALICE, BOB, 1001, key="all-in")
    assert (await funded.balance(GUILD, ALICE), await funded.balance(GUILD, BOB)) == (1000, 1000)
    done = await funded.transfer(GUILD, ALICE, BOB, 1000, key="all-in")
    assert (done.from_balance, done.to_balance) == (0, 2000)
    assert (await funded.audit()).ok


async def test_ledger_rows_are_immutable(funded):
    await funded.transfer(GUILD, ALICE, BOB, 5, key="imm")
    for sql in ("UPDATE transfers SET amount = 1", "DELETE FROM entries",
                "DELETE FROM accounts", "UPDATE accounts SET user_id = 1",
                "UPDATE accounts SET balance = -1 WHERE kind = 'user'"):
        with pytest.raises(IntegrityError):
            await write_directly(funded, sql)
    assert (await funded.audit()).ok


async def test_racing_daily_claims_pay_once(funded):
    outcomes = await asyncio.gather(*(funded.claim_daily(GUILD, ALICE) for _ in range(8)),
                                    return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert sum(isinstance(o, AlreadyClaimed) for o in outcomes) == 7
    assert await funded.balance(GUILD, ALICE) == 1100


async def test_racing_transfers_never_overdraw(funded):
    outcomes = await asyncio.gather(*(
        funded.transfer(GUILD, ALICE, BOB if i % 2 else CAROL, 300, key=f"race{i}")
        for i in range(10)
    ), return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 3
    assert all(isinstance(o, InsufficientFunds) for o in outcomes if isinstance(o, Exception))
    assert await funded.balance(GUILD, ALICE) == 100
    assert (await funded.audit()).ok


async def test_the_nul_character_is_refused_everywhere_and_nothing_is_written(funded):
    """PostgreSQL cannot store NUL, so neither backend takes it: a clear refusal, no change."""
    before = await _counts(funded)
    attempts = [
        funded.transfer(GUILD, ALICE, BOB, 1, key="k", reason="a\x00b"),
        funded.transfer(GUILD, ALICE, BOB, 1, key="k\x00", reason="r"),
        funded.set_house_rules(GUILD, "koikoi", {"note": "a\x00b"}),
        funded.update_settings(GUILD, currency_name="gold\x00"),
        funded.create_game(GUILD, 5, "koikoi", rules={"x": "\x00"}, players=[ALICE, "ai:easy"],
                           seed=1, state_json="{}", state_version=1),
        funded.create_game(GUILD, 5, "koikoi", rules={}, players=[ALICE, "ai:easy"], seed=1,
                           state_json='{"name": "a\\u0000b"}', state_version=1),
    ]
    for attempt in attempts:
        with refused(StoreError, "NUL"):
            await attempt
    assert await _counts(funded) == before
    game = await funded.create_game(GUILD, 5, "koikoi", rules={}, players=[ALICE, "ai:easy"],
                                    seed=1, state_json="{}", state_version=1)
    with refused(StoreError, "NUL"):
        await funded.record_action(game.game_id, 1, ALICE, "play", [{"name": "\x00"}], "{}", 1)
    assert (await funded.load_game(game.game_id, scope=EVERY_SERVER)).last_seq == 0
    assert (await funded.audit()).ok


async def test_racing_retries_of_one_transfer_move_the_chips_once(funded):
    """The same request arriving eight times at once (PostgreSQL runs them side by side): one
    transfer, and every caller gets that one back."""
    outcomes = await asyncio.gather(*(funded.transfer(GUILD, ALICE, BOB, 70, key="one press")
                                      for _ in range(8)))
    assert len({o.transfer_id for o in outcomes}) == 1
    assert (await funded.balance(GUILD, ALICE), await funded.balance(GUILD, BOB)) == (930, 1070)


async def test_transfers_both_ways_at_once_stay_balanced(funded):
    """Opposite transfers between the same accounts at once: no deadlock left unresolved, no
    chip lost or made."""
    await asyncio.gather(*(funded.transfer(GUILD, *((ALICE, BOB) if i % 2 else (BOB, ALICE)), 5,
                                           key=f"both ways {i}") for i in range(40)))
    assert (await funded.balance(GUILD, ALICE), await funded.balance(GUILD, BOB)) == (1000, 1000)
    report = await funded.audit()
    assert report.ok and report.total == 0, report.problems


async def _until_a_statement_waits_on_a_lock(url: str) -> None:
    """Return once PostgreSQL records a statement of this database waiting on a lock."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url) as watcher:
        while not (await (await watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()")).fetchone())[0]:
            await asyncio.sleep(0.01)  # polls the server's own record of the wait


async def test_a_twin_committed_while_a_transfer_waited_is_returned_not_refused(empty_postgres):
    """PostgreSQL only: the same request, committed by a twin while this one waited on the
    sender's row, spent the whole balance. This one's debit is refused but its credit went
    through; it must roll that back and return the twin's transfer, not a refusal."""
    import psycopg

    store = await Store.open(empty_postgres)
    try:
        for user in (ALICE, BOB):
            await store.open_account(GUILD, user)
        async with await psycopg.AsyncConnection.connect(empty_postgres) as twin:
            await twin.execute(
                "UPDATE accounts SET balance = balance + CASE user_id WHEN %s THEN -1000 ELSE 1000 "
                "END WHERE guild_id = %s AND kind = 'user' AND user_id IN (%s, %s)",
                (ALICE, GUILD, ALICE, BOB))
            inserted = await twin.execute(
                "INSERT INTO transfers (idem_key, guild_id, kind, from_account, to_account, amount, "
                "actor, reason, game_id, created_at) SELECT %s, %s, 'transfer', f.account_id, "
                "t.account_id, 1000, %s, '', NULL, 1 FROM accounts f, accounts t "
                "WHERE f.user_id = %s AND t.user_id = %s AND f.guild_id = %s AND t.guild_id = %s "
                "RETURNING transfer_id",
                (f"g{GUILD}:transfer:spend it all", GUILD, ALICE, ALICE, BOB, GUILD, GUILD))
            (twins_id,) = await inserted.fetchone()
            waiting = asyncio.create_task(
                store.transfer(GUILD, ALICE, BOB, 1000, key="spend it all"))
            await _until_a_statement_waits_on_a_lock(empty_postgres)
            await twin.commit()
        done = await waiting
        assert done.replayed and done.transfer_id == twins_id
        assert (await store.balance(GUILD, ALICE), await store.balance(GUILD, BOB)) == (0, 2000)
        assert store._db.retries >= 1
        report = await store.audit()
        assert report.ok and report.transfers == 3, report.problems
    finally:
        await store.close()


async def test_a_transfer_cancelled_while_it_waits_leaves_the_store_working(empty_postgres):
    """PostgreSQL only: a transfer cancelled (a timeout, a shutdown) while its statement waits on
    a row lock in the pipeline commits nothing, and the connections the store hands out next,
    with their prepared statements, still work."""
    import psycopg

    store = await Store.open(empty_postgres)
    try:
        for user in (ALICE, BOB):
            await store.open_account(GUILD, user)
        for i in range(8):  # past psycopg's prepare threshold: the statements are prepared
            await store.transfer(GUILD, ALICE, BOB, 1, key=f"warm {i}")
        async with await psycopg.AsyncConnection.connect(empty_postgres) as holder:
            await holder.execute("SELECT 1 FROM accounts WHERE user_id = %s FOR UPDATE", (ALICE,))
            waiting = asyncio.create_task(store.transfer(GUILD, ALICE, BOB, 5, key="cancelled"))
            await _until_a_statement_waits_on_a_lock(empty_postgres)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            await holder.rollback()
        for i in range(20):
            await store.transfer(GUILD, ALICE if i % 2 else BOB, BOB if i % 2 else ALICE, 1,
                                 key=f"after {i}")
        assert (await store.balance(GUILD, ALICE), await store.balance(GUILD, BOB)) == (992, 1008)
        assert (await store.audit()).ok
    finally:
        await store.close()
