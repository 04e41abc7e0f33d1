"""The places where the app plays as a guest: a DM, a group DM, a server that never added the bot.

A guest place keeps its games under its channel's id (its *scope*) instead of a server's id, so
its records stay apart from every server's. Noting each such scope as its first table starts
lets a player's own record (:func:`bot.store.records.guest_record`) add up their games in all of
them and never read a server's: a scope is read there only when it is noted here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any, TypeVar

__all__ = ["GUEST_KINDS", "home_of", "homes", "note", "owned"]

T = TypeVar("T")

#: What a guest place is: the DM with the bot or between two users, a group DM, or a channel of a
#: server that did not add the bot.
GUEST_KINDS = ("dm", "group_dm", "server")

_CHUNK = 500  # scopes per read: far under either database's bound on a statement's parameters


async def note(conn: Any, scope_id: int, kind: str | None, guild_id: int | None, now: int) -> None:
    """Note ``scope_id`` as a guest place of ``kind`` in server ``guild_id`` (None: a DM or a
    group DM). A second note changes nothing, except to give a place noted without them its kind
    and its server. ``kind`` None: not known to whoever notes it (the upgrade, which could not
    tell; an Activity in a private channel, which Discord does not say is a DM or a group DM)."""
    await conn.execute(
        "INSERT INTO guest_scopes (scope_id, kind, first_seen, guild_id) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (scope_id) DO UPDATE SET kind = COALESCE(guest_scopes.kind, excluded.kind), "
        "guild_id = COALESCE(guest_scopes.guild_id, excluded.guild_id)",
        (scope_id, kind, now, guild_id))


async def homes(conn: Any, scopes: Iterable[int]) -> dict[int, int | None]:
    """For each of ``scopes`` that is a guest place, the server whose shard Discord sends its
    interactions to, or None for a private channel (a DM or a group DM: shard 0). A scope not in
    the answer is a server's, its own home; so is a server's guest place noted before its server
    was kept (:file:`031_guest_homes.sql`), the best left to go by."""
    wanted = sorted(set(scopes))
    found: dict[int, int | None] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start:start + _CHUNK]
        rows = await conn.execute_fetchall(
            f"SELECT scope_id, kind, guild_id FROM guest_scopes WHERE scope_id IN "
            f"({', '.join('?' * len(chunk))})", chunk)
        for scope, kind, guild in rows:
            if guild is not None:
                found[scope] = guild
            elif kind != "server":
                found[scope] = None
    return found


async def home_of(conn: Any, scope: int) -> int | None:
    """:func:`homes` of one scope: the server whose shard receives its interactions, None for a
    private channel, the scope itself for a server (a game keeps it for its life: 032)."""
    return (await homes(conn, (scope,))).get(scope, scope)


async def owned(conn: Any, items: list[T], owns: Callable[[int | None], bool] | None,
                scope_of: Callable[[T], int] = attrgetter("guild_id")) -> list[T]:
    """Those of ``items`` (games, lobbies, reviews: kept under a scope, their ``guild_id``) that
    ``owns`` says this process drives, asked of the server whose shard receives their place's
    interactions (``owns`` None: every one)."""
    if owns is None:
        return items
    found = await homes(conn, (scope_of(item) for item in items))
    return [item for item in items if owns(found.get(scope_of(item), scope_of(item)))]
