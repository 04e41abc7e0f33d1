"""The chip ledger: accounts, the daily chips, transfers between members, an admin's grants and
revokes, a member's ledger lines and the audit of every invariant.
"""

from __future__ import annotations

from .. import ledger
from ..db import Database
from ..errors import InvalidInput, SelfTransfer, UnknownAccount
from ..models import AuditReport, LedgerLine, Transfer
from .checks import _actor, _id, _text


class ChipLedger:
    """The chip ledger of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- chip ledger -----------------------------------------------------------------------------
    async def open_account(self, guild_id: int, user_id: int, *, actor: int | None = None
                           ) -> tuple[int, bool]:
        """Ensure the user's account exists (new ones get the starting chips):
        (balance, created). Safe to call on every interaction."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        actor = _actor(user_id if actor is None else actor)
        return await self._db.transact(lambda conn: ledger.open_account(conn, guild_id, user_id, actor, self._db.now_ms()))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The user's chips on this server; :class:`UnknownAccount` if they have no account."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        row = await self._db.fetchone(
            "SELECT balance FROM accounts WHERE guild_id = ? AND kind = 'user' AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            raise UnknownAccount(user_id)
        return row[0]

    async def claim_daily(self, guild_id: int, user_id: int) -> Transfer:
        """The daily chips, once per UTC day (:class:`AlreadyClaimed` after that)."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        return await self._db.transact(
            lambda conn: ledger.claim_daily(conn, guild_id, user_id, self._db.now_ms()), concurrent=True)

    async def transfer(self, guild_id: int, from_user: int, to_user: int, amount: int, *,
                       key: str, reason: str = "", actor: int | None = None,
                       open_accounts: bool = False) -> Transfer:
        """Send chips between two users; ``key`` (e.g. the interaction id) makes retries safe.
        With ``open_accounts``, missing accounts are opened in the same transaction, so a refused
        transfer opens none."""
        _id(guild_id, "The server id")
        _id(from_user, "The sender")
        _id(to_user, "The recipient")
        ledger.check_amount(amount)
        if from_user == to_user:
            raise SelfTransfer()
        _text(reason, "The reason")
        actor = _actor(from_user if actor is None else actor)
        scoped = ledger.scoped_key(guild_id, "transfer", key)
        async def work(conn):
            if open_accounts:
                now = self._db.now_ms()
                await ledger.open_account(conn, guild_id, from_user, from_user, now)
                await ledger.open_account(conn, guild_id, to_user, actor, now)
            return await ledger.user_transfer(
                conn, guild_id=guild_id, key=scoped, from_user=from_user, to_user=to_user,
                amount=amount, actor=actor, reason=reason, now=self._db.now_ms(),
            )
        return await self._db.transact(work, concurrent=True)  # see ledger: row locks suffice

    async def grant(self, guild_id: int, user_id: int, amount: int, *, key: str, actor: int,
                    reason: str, open_account: bool = False) -> Transfer:
        """An admin gives chips from the house (the issuer); with ``open_account``, a member
        without an account gets one (starting chips included) in the same transaction."""
        return await self._admin(guild_id, user_id, amount, key, actor, reason, "grant",
                                 open_account)

    async def revoke(self, guild_id: int, user_id: int, amount: int, *, key: str, actor: int,
                     reason: str) -> Transfer:
        """An admin takes chips back to the house; never below zero (:class:`InsufficientFunds`)."""
        return await self._admin(guild_id, user_id, amount, key, actor, reason, "revoke")

    async def _admin(self, guild_id: int, user_id: int, amount: int, key: str, actor: int,
                     reason: str, kind: str, open_account: bool = False) -> Transfer:
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        ledger.check_amount(amount)
        _actor(actor)
        _text(reason, "The reason")
        now = self._db.now_ms()
        async def work(conn):
            if open_account:
                await ledger.open_account(conn, guild_id, user_id, actor, now)
            user = await ledger.user_account(conn, guild_id, user_id)
            house = await ledger.house_account(conn, guild_id, now)
            src, dst = (house, user) if kind == "grant" else (user, house)
            return await ledger.move(
                conn, guild_id=guild_id, key=ledger.scoped_key(guild_id, kind, key), kind=kind,
                src=src, dst=dst, amount=amount, actor=actor, reason=reason, now=now,
            )
        return await self._db.transact(work, concurrent=True)

    async def history(self, guild_id: int, user_id: int, *, offset: int = 0, limit: int = 20
                      ) -> list[LedgerLine]:
        """The user's ledger lines, newest first, one page."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if type(offset) is not int or type(limit) is not int or offset < 0 or not 1 <= limit <= 100:
            raise InvalidInput("Pages start at offset 0 and hold 1 to 100 lines.")
        async with self._db.snapshot() as conn:
            return await ledger.history(conn, guild_id, user_id, offset, limit)

    async def audit(self) -> AuditReport:
        """Check every ledger invariant over the whole file (for admins, tests and monitoring)."""
        async with self._db.snapshot() as conn:
            return await ledger.audit(conn)
