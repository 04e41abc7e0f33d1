"""The places where the app plays as a guest: a DM, a group DM, a server that never added the bot.

A guest place keeps its games under its channel's id (its *scope*) instead of a server's id, so
its records stay apart from every server's. Noting each such scope as its first table starts
lets a player's own record (:func:`bot.store.records.guest_record`) add up their games in all of
them and never read a server's: a scope is read there only when it is noted here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GUEST_KINDS", "note"]

#: What a guest place is: the DM with the bot or between two users, a group DM, or a channel of a
#: server that did not add the bot.
GUEST_KINDS = ("dm", "group_dm", "server")


async def note(conn: Any, scope_id: int, kind: str | None, now: int) -> None:
    """Note ``scope_id`` as a guest place of ``kind`` (a second note changes nothing, except to
    give a place noted without one its kind). ``kind`` None: not known to whoever notes it (the
    upgrade, which could not tell; an Activity in a private channel, which Discord does not say
    is a DM or a group DM)."""
    await conn.execute(
        "INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, ?, ?) "
        "ON CONFLICT (scope_id) DO UPDATE SET kind = COALESCE(guest_scopes.kind, excluded.kind)",
        (scope_id, kind, now))
