"""Members' data: what the bot keeps about a member on a server or in the guest places, its
export, and forgetting the member.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .. import privacy
from ..db import Database
from ..privacy import Forgotten, MemberData
from .checks import _id, _text

log = logging.getLogger("bot.store.store")  # the store's lines keep one logger name


class Privacy:
    """Members' data of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- members' data (bot.store.privacy) -------------------------------------------------------
    async def member_data(self, guild_id: int, user_id: int) -> MemberData:
        """What the bot keeps about a member on this server."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.member_data(conn, guild_id, user_id)

    async def export_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """Every row of this server holding the member's id, as a JSON-ready dict."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.export(conn, guild_id, user_id, self._db.now_ms())

    async def forget_member(self, guild_id: int, user_id: int, *, names: Sequence[str] = (),
                            staff: int | None = None, reason: str = "") -> Forgotten | None:
        """Replace the member by a pseudonym on this server (see :mod:`bot.store.privacy`);
        None if nothing here identifies them (so a repeated request changes nothing).
        ``staff``: the manager who did it for them, with ``reason``, both written to the log."""
        _id(guild_id, "The server id")
        _id(user_id, "The user id")
        if staff is not None:
            _id(staff, "The staff member")
        _text(reason, "The reason")
        names = [_text(name, "A name") for name in names]
        done = await self._db.transact(lambda conn: privacy.forget(
            conn, guild_id, user_id, names=names, now=self._db.now_ms()))
        if done is not None:  # the member's id is not logged: that is what they asked
            log.info("server %s: a member is forgotten, now %s (%s)", guild_id, done.pseudonym,
                     "at their request" if staff is None
                     else f"by staff {staff}: {reason!r}")
        return done

    async def guest_places_of(self, user_id: int) -> list[int]:
        """The guest places where anything identifies the member (:mod:`bot.store.guests`)."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.guest_places_of(conn, user_id)

    async def guest_member_data(self, user_id: int) -> MemberData:
        """What the bot keeps about the member in every guest place, added up."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.guest_member_data(conn, user_id)

    async def export_guest_member(self, user_id: int) -> dict[str, Any]:
        """Every row of every guest place holding the member's id, as a JSON-ready dict."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await privacy.export_guest(conn, user_id, self._db.now_ms())

    async def forget_guest_member(self, user_id: int, *, names: Sequence[str] = ()
                                  ) -> list[Forgotten]:
        """Replace the member by a pseudonym in every guest place, all or none (see
        :mod:`bot.store.privacy`); [] when nothing there identifies them."""
        _id(user_id, "The user id")
        names = [_text(name, "A name") for name in names]
        done = await self._db.transact(lambda conn: privacy.forget_in_guest_places(
            conn, user_id, names=names, now=self._db.now_ms()))
        if done:  # the member's id is not logged: that is what they asked
            log.info("a member is forgotten in %d guest places, now %s", len(done),
                     ", ".join(str(d.pseudonym) for d in done))
        return done
