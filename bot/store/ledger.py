"""The double-entry chip ledger.

Every movement is a transfer between two accounts with two entries (-amount, +amount) that record
the balance after them. A user account is debited with a conditional UPDATE (``balance >= amount``)
backed by a CHECK, so no interleaving can take it below zero; the house is the issuer and may go
negative, so the sum of all balances of a server is always exactly zero. Each transfer carries a
unique idempotency key: a retried request returns the original transfer instead of moving chips
again. All functions here run inside a write transaction opened by the caller.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import aiosqlite

from .db import CheckFailed, IntegrityError, Overtaken, dialect_of
from .errors import (
    AlreadyClaimed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    InvalidSetting,
    UnknownAccount,
    refuse_nul,
)
from .models import MAX_AMOUNT, AuditReport, LedgerLine, Transfer, ms_to_datetime
from .settings import currency, load_settings

__all__ = ["Acct", "check_amount", "move", "replay", "user_transfer", "open_account",
           "claim_daily", "user_account", "house_account", "escrow_account", "transfers_where",
           "audit", "history"]


class Acct(NamedTuple):
    account_id: int
    user_id: int | None  # None for the house and escrow accounts


def check_amount(amount: Any, stake: bool = False) -> int:
    """Refuse anything but a whole number of chips from 1 to MAX_AMOUNT (bool and float too);
    ``stake`` names the amount a stake in the refusal."""
    if type(amount) is not int:
        raise InvalidAmount(code="stake_not_whole" if stake else "amount_not_whole", value=amount)
    if amount <= 0:
        raise InvalidAmount(code="stake_not_positive" if stake else "amount_not_positive", value=amount)
    if amount > MAX_AMOUNT:
        raise InvalidAmount(code="stake_too_large" if stake else "amount_too_large", value=amount,
                            most=MAX_AMOUNT)
    return amount


def scoped_key(guild_id: int, kind: str, key: str) -> str:
    """Idempotency keys are unique per server and operation kind, whatever the caller passes."""
    if not isinstance(key, str) or not key:
        raise InvalidInput("A request key is required.")  # a programming error, never a user's
    return f"g{guild_id}:{kind}:{refuse_nul(key, 'The request key')}"


async def _one(conn: aiosqlite.Connection, sql: str, params: Any = ()) -> sqlite3.Row | None:
    rows = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def user_account(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> Acct:
    row = await _one(
        conn, "SELECT account_id FROM accounts WHERE guild_id = ? AND kind = 'user' AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        raise UnknownAccount(user_id)
    return Acct(row[0], user_id)


async def house_account(conn: aiosqlite.Connection, guild_id: int, now: int) -> Acct:
    row = await _one(
        conn, "SELECT account_id FROM accounts WHERE guild_id = ? AND kind = 'house'", (guild_id,)
    )
    if row is None:
        row = await _one(
            conn, "INSERT INTO accounts (guild_id, kind, created_at) VALUES (?, 'house', ?) "
            "RETURNING account_id", (guild_id, now),
        )
    return Acct(row[0], None)


async def escrow_account(conn: aiosqlite.Connection, guild_id: int, game_id: int, now: int,
                         create: bool = False) -> Acct | None:
    row = await _one(
        conn, "SELECT account_id FROM accounts WHERE game_id = ? AND kind = 'escrow'", (game_id,)
    )
    if row is None and create:
        row = await _one(
            conn, "INSERT INTO accounts (guild_id, kind, game_id, created_at) "
            "VALUES (?, 'escrow', ?, ?) RETURNING account_id", (guild_id, game_id, now),
        )
    return None if row is None else Acct(row[0], None)


_TRANSFER_SELECT = """
SELECT t.transfer_id, t.guild_id, t.kind, t.amount, t.actor, t.reason, t.game_id, t.created_at,
       t.from_account, t.to_account, fa.user_id AS from_user, ta.user_id AS to_user,
       (SELECT balance_after FROM entries
         WHERE transfer_id = t.transfer_id AND account_id = t.from_account) AS from_balance,
       (SELECT balance_after FROM entries
         WHERE transfer_id = t.transfer_id AND account_id = t.to_account) AS to_balance
FROM transfers t
JOIN accounts fa ON fa.account_id = t.from_account
JOIN accounts ta ON ta.account_id = t.to_account
"""


def _transfer(row: sqlite3.Row, replayed: bool) -> Transfer:
    return Transfer(
        transfer_id=row["transfer_id"], guild_id=row["guild_id"], kind=row["kind"],
        amount=row["amount"], from_user=row["from_user"], to_user=row["to_user"],
        from_balance=row["from_balance"], to_balance=row["to_balance"], actor=row["actor"],
        reason=row["reason"], game_id=row["game_id"], created_at=ms_to_datetime(row["created_at"]),
        replayed=replayed,
    )


async def transfers_where(conn: aiosqlite.Connection, where: str, params: Any) -> list[sqlite3.Row]:
    return list(await conn.execute_fetchall(
        f"{_TRANSFER_SELECT} WHERE {where} ORDER BY t.transfer_id", params
    ))


async def replay(conn: aiosqlite.Connection, *, key: str, kind: str, src: Acct, dst: Acct,
                 amount: int, game_id: int | None) -> Transfer | None:
    """The transfer already made under ``key`` (None if the key is new); a different operation
    under the same key is an :class:`IdempotencyConflict`."""
    rows = await transfers_where(conn, "t.idem_key = ?", (key,))
    if not rows:
        return None
    old = rows[0]
    same = (old["kind"], old["from_account"], old["to_account"], old["amount"], old["game_id"])
    if same != (kind, src.account_id, dst.account_id, amount, game_id):
        raise IdempotencyConflict(key)
    return _transfer(old, replayed=True)


async def move(
    conn: aiosqlite.Connection, *, guild_id: int, key: str, kind: str, src: Acct, dst: Acct,
    amount: int, actor: int, reason: str, now: int, game_id: int | None = None,
    key_is_new: bool = False,
) -> Transfer:
    """Move ``amount`` from ``src`` to ``dst`` once per ``key`` (a replay returns the original).

    One conditional UPDATE debits and credits: the debit only if the source is the house or holds
    enough. On refusal the credit may already be applied, so the caller's transaction must roll
    back, which every StoreError raised inside ``Database.write`` does. ``key_is_new`` skips the
    key lookup when the caller has just done it.
    """
    if not key_is_new:
        done = await replay(conn, key=key, kind=kind, src=src, dst=dst, amount=amount,
                            game_id=game_id)
        if done is not None:
            return done
    try:  # the CHECKs bound every balance; only the house may go below zero
        rows = await conn.execute_fetchall(
            "UPDATE accounts SET balance = balance + CASE account_id WHEN ?1 THEN -?3 ELSE ?3 END "
            "WHERE (account_id = ?1 AND (kind = 'house' OR balance >= ?3)) OR account_id = ?2 "
            "RETURNING account_id, balance",
            (src.account_id, dst.account_id, amount),
        )
    except IntegrityError:
        raise InvalidAmount(code="balance_overflow", most=MAX_AMOUNT) from None
    after = {r[0]: r[1] for r in rows}
    if src.account_id not in after:
        row = await _one(conn, "SELECT balance FROM accounts WHERE account_id = ?",
                         (src.account_id,))
        raise InsufficientFunds(src.user_id or 0, row[0], amount, await currency(conn, guild_id))
    transfer_id = await _insert_transfer(conn, key, guild_id, kind, src.account_id, dst.account_id,
                                         amount, actor, reason, game_id, now)
    return Transfer(
        transfer_id=transfer_id, guild_id=guild_id, kind=kind, amount=amount,
        from_user=src.user_id, to_user=dst.user_id, from_balance=after[src.account_id],
        to_balance=after[dst.account_id], actor=actor, reason=reason, game_id=game_id,
        created_at=ms_to_datetime(now),
    )


_INSERT_TRANSFER = ("INSERT INTO transfers (idem_key, guild_id, kind, from_account, to_account, "
                    "amount, actor, reason, game_id, created_at) ")


async def _insert_transfer(conn: aiosqlite.Connection, key: str, guild_id: int, kind: str,
                           src: int, dst: int, amount: int, actor: int, reason: str,
                           game_id: int | None, now: int) -> int:
    """The transfer's row (its two entries are written by the database's trigger); its id."""
    return (await _one(
        conn, _INSERT_TRANSFER + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING transfer_id",
        (key, guild_id, kind, src, dst, amount, actor, reason, game_id, now),
    ))[0]


# A user transfer's debit, credit and key check in one UPDATE; parameters: guild, sender,
# recipient, amount, key (then actor, reason, time for the row).
_DEBIT_CREDIT = (
    "UPDATE accounts SET balance = balance + CASE user_id WHEN ?2 THEN -?4 ELSE ?4 END "
    "WHERE guild_id = ?1 AND kind = 'user' AND ((user_id = ?2 AND balance >= ?4) OR user_id = ?3) "
    "AND NOT EXISTS (SELECT 1 FROM transfers WHERE idem_key = ?5) "
    "RETURNING account_id, user_id, balance"
)
# On PostgreSQL the transfer's row goes in the same statement (a data-modifying WITH, which
# SQLite lacks; there a statement is a call, not a round trip), written only when both moved.
_DEBIT_CREDIT_ROW = (
    f"WITH moved AS ({_DEBIT_CREDIT}), made AS ({_INSERT_TRANSFER}"
    "SELECT ?5, ?1, 'transfer', s.account_id, d.account_id, ?4, ?6, ?7, NULL, ?8 "
    "FROM moved s JOIN moved d ON s.user_id = ?2 AND d.user_id = ?3 RETURNING transfer_id) "
    "SELECT account_id, user_id, balance, (SELECT transfer_id FROM made) FROM moved"
)


async def user_transfer(conn: aiosqlite.Connection, *, guild_id: int, key: str, from_user: int,
                        to_user: int, amount: int, actor: int, reason: str, now: int) -> Transfer:
    """A transfer between two users.

    The usual case is one statement on PostgreSQL (the debit, the credit, the key's check and the
    transfer's row; round trips are most of a transfer's cost there) and two on SQLite. When it
    moves nothing (a replay, a missing account, too few chips), :func:`move` tells which, as it
    always did; when it moved only half, the transaction is rolled back with the reason."""
    one_statement = dialect_of(conn) == "postgresql"
    sql, params = _DEBIT_CREDIT, (guild_id, from_user, to_user, amount, key)
    if one_statement:
        sql, params = _DEBIT_CREDIT_ROW, (*params, actor, reason, now)
    try:  # as in move: the CHECKs bound every balance
        rows = await conn.execute_fetchall(sql, params)
    except CheckFailed:
        raise InvalidAmount(code="balance_overflow", most=MAX_AMOUNT) from None
    moved = {r[1]: (r[0], r[2]) for r in rows}
    if len(moved) == 2:
        (src, src_balance), (dst, dst_balance) = moved[from_user], moved[to_user]
        transfer_id = rows[0][3] if one_statement else await _insert_transfer(
            conn, key, guild_id, "transfer", src, dst, amount, actor, reason, None, now)
        return Transfer(
            transfer_id=transfer_id, guild_id=guild_id, kind="transfer", amount=amount,
            from_user=from_user, to_user=to_user, from_balance=src_balance,
            to_balance=dst_balance, actor=actor, reason=reason, game_id=None,
            created_at=ms_to_datetime(now),
        )
    row = await _one(
        conn, "SELECT (SELECT account_id FROM accounts WHERE guild_id = ?1 AND kind = 'user' "
        "AND user_id = ?2), (SELECT account_id FROM accounts WHERE guild_id = ?1 "
        "AND kind = 'user' AND user_id = ?3), EXISTS (SELECT 1 FROM transfers WHERE idem_key = ?4)",
        (guild_id, from_user, to_user, key),
    )
    for user, account in ((from_user, row[0]), (to_user, row[1])):
        if account is None:
            raise UnknownAccount(user)
    if moved:  # half a transfer (the debit refused): it must not commit
        if row[2]:
            raise Overtaken()  # a twin under the same key committed meanwhile: its replay, anew
        balance = (await _one(conn, "SELECT balance FROM accounts WHERE account_id = ?",
                              (row[0],)))[0]
        raise InsufficientFunds(from_user, balance, amount, await currency(conn, guild_id))
    return await move(conn, guild_id=guild_id, key=key, kind="transfer",
                      src=Acct(row[0], from_user), dst=Acct(row[1], to_user), amount=amount,
                      actor=actor, reason=reason, now=now, key_is_new=not row[2])


async def open_account(conn: aiosqlite.Connection, guild_id: int, user_id: int, actor: int,
                       now: int) -> tuple[int, bool]:
    """Create the user's account with the server's starting chips; (balance, created)."""
    row = await _one(
        conn, "SELECT balance FROM accounts WHERE guild_id = ? AND kind = 'user' AND user_id = ?",
        (guild_id, user_id),
    )
    if row is not None:
        return row[0], False
    account_id = (await _one(
        conn, "INSERT INTO accounts (guild_id, kind, user_id, created_at) "
        "VALUES (?, 'user', ?, ?) RETURNING account_id", (guild_id, user_id, now),
    ))[0]
    chips = (await load_settings(conn, guild_id)).starting_chips
    if chips == 0:
        return 0, True
    done = await move(
        conn, guild_id=guild_id, key=scoped_key(guild_id, "open", str(user_id)), kind="open",
        src=await house_account(conn, guild_id, now), dst=Acct(account_id, user_id),
        amount=chips, actor=actor, reason="starting chips", now=now,
    )
    return done.to_balance, True


def utc_day(now_ms: int) -> datetime:
    moment = datetime.fromtimestamp(now_ms / 1000, tz=UTC)
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


async def claim_daily(conn: aiosqlite.Connection, guild_id: int, user_id: int, now: int
                      ) -> Transfer:
    """The daily chips, once per UTC day: the day is part of the idempotency key."""
    dst = await user_account(conn, guild_id, user_id)
    day = utc_day(now)
    key = scoped_key(guild_id, "daily", f"{user_id}:{day:%Y-%m-%d}")
    if await _one(conn, "SELECT 1 FROM transfers WHERE idem_key = ?", (key,)):
        raise AlreadyClaimed(day + timedelta(days=1))
    amount = (await load_settings(conn, guild_id)).daily_amount
    if amount == 0:
        raise InvalidSetting(code="daily_off")
    # key_is_new: a claim committed since the check above must fail this one (AlreadyClaimed,
    # when the store runs it again), never come back as this claim's replay
    return await move(
        conn, guild_id=guild_id, key=key, kind="daily", src=await house_account(conn, guild_id, now),
        dst=dst, amount=amount, actor=user_id, reason="daily chips", now=now, key_is_new=True,
    )


async def history(conn: aiosqlite.Connection, guild_id: int, user_id: int, offset: int,
                  limit: int) -> list[LedgerLine]:
    rows = await conn.execute_fetchall(
        """
        SELECT e.transfer_id, e.created_at, t.kind, e.amount, e.balance_after, t.actor, t.reason,
               t.game_id, o.kind AS other_kind, o.user_id AS other_user
        FROM accounts a
        JOIN entries e ON e.account_id = a.account_id
        JOIN transfers t ON t.transfer_id = e.transfer_id
        JOIN accounts o ON o.account_id = CASE WHEN t.from_account = a.account_id
                                               THEN t.to_account ELSE t.from_account END
        WHERE a.guild_id = ? AND a.kind = 'user' AND a.user_id = ?
        ORDER BY e.created_at DESC, e.entry_id DESC
        LIMIT ? OFFSET ?
        """,
        (guild_id, user_id, limit, offset),
    )
    return [
        LedgerLine(
            transfer_id=r["transfer_id"], created_at=ms_to_datetime(r["created_at"]),
            kind=r["kind"], amount=r["amount"], balance_after=r["balance_after"],
            counterparty=r["other_user"], counterparty_kind=r["other_kind"],
            game_id=r["game_id"], actor=r["actor"], reason=r["reason"],
        )
        for r in rows
    ]


_AUDIT_CHECKS = (
    ("balance differs from the sum of its entries",
     """SELECT a.account_id FROM accounts a
        WHERE a.balance <> (SELECT COALESCE(SUM(amount), 0) FROM entries e
                            WHERE e.account_id = a.account_id)"""),
    ("balance_after does not follow the running sum",
     """SELECT DISTINCT account_id FROM (
          SELECT account_id, balance_after,
                 SUM(amount) OVER (PARTITION BY account_id ORDER BY entry_id) AS running
          FROM entries) AS checked WHERE running <> balance_after"""),
    ("negative balance outside the house",
     "SELECT account_id FROM accounts WHERE kind <> 'house' AND balance < 0"),
    ("transfer without exactly its two matching entries",
     """SELECT t.transfer_id FROM transfers t
        WHERE (SELECT COUNT(*) FROM entries e WHERE e.transfer_id = t.transfer_id) <> 2
           OR NOT EXISTS (SELECT 1 FROM entries e WHERE e.transfer_id = t.transfer_id
                          AND e.account_id = t.from_account AND e.amount = -t.amount)
           OR NOT EXISTS (SELECT 1 FROM entries e WHERE e.transfer_id = t.transfer_id
                          AND e.account_id = t.to_account AND e.amount = t.amount)"""),
    ("transfer between accounts of different servers",
     """SELECT t.transfer_id FROM transfers t
        JOIN accounts f ON f.account_id = t.from_account
        JOIN accounts o ON o.account_id = t.to_account
        WHERE f.guild_id <> t.guild_id OR o.guild_id <> t.guild_id"""),
    ("server whose balances do not sum to zero",
     "SELECT guild_id FROM accounts GROUP BY guild_id HAVING SUM(balance) <> 0"),
    ("idempotency key used more than once",
     "SELECT idem_key FROM transfers GROUP BY idem_key HAVING COUNT(*) > 1"),
    ("escrow still holding chips after its game ended",
     """SELECT a.account_id FROM accounts a JOIN games g ON g.game_id = a.game_id
        WHERE a.kind = 'escrow' AND g.status <> 'running' AND a.balance <> 0"""),
)


async def audit(conn: aiosqlite.Connection) -> AuditReport:
    """Check every ledger invariant from the stored rows (run inside one read snapshot)."""
    problems = []
    for label, sql in _AUDIT_CHECKS:
        bad = [r[0] for r in await conn.execute_fetchall(sql)]
        if bad:
            problems.append(f"{label}: {bad[:10]}")
    (accounts, total, issued), = await conn.execute_fetchall(
        "SELECT COUNT(*), COALESCE(SUM(balance), 0), "
        "COALESCE(-SUM(CASE WHEN kind = 'house' THEN balance END), 0) FROM accounts"
    )
    (transfers,), = await conn.execute_fetchall("SELECT COUNT(*) FROM transfers")
    return AuditReport(accounts=accounts, transfers=transfers, issued=issued, total=total,
                       problems=problems)
