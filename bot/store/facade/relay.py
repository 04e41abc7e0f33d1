"""Between the processes of a sharded bot: presses relayed to the process of their shard, the
acknowledgements it waits for, where each process serves the Activity, and the
announcements they listen to.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from .. import relay
from ..db import Database
from ..errors import InvalidInput
from ..postgres import PostgresDatabase
from .checks import _id


class Relay:
    """The relay between processes of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database
    origin: str
    dialect: str

    # -- between the processes of a sharded bot (bot.store.relay) --------------------------------
    async def relay_press(self, shard: int, game_id: int, press: Mapping[str, Any]) -> None:
        """Queue a press for the process of ``shard`` and tell it (see :mod:`bot.store.relay`)."""
        if type(shard) is not int or shard < 0:
            raise InvalidInput("The shard must be a shard number.")
        _id(game_id, "The game id")
        async def work(conn):
            await relay.queue_press(conn, shard, game_id, press, self._db.now_ms())
            await relay.announce(conn, self.dialect, {"kind": "press", "shard": shard,
                                                      "from": self.origin})
        await self._db.transact(work)

    async def announce_acknowledged(self, shard: int, interaction_id: int) -> None:
        """Tell the process of ``shard`` that the press ``interaction_id`` it was sent is
        acknowledged, so its token may now answer (Discord refuses a followup before the ack)."""
        await self._db.transact(lambda conn: relay.announce(
            conn, self.dialect, {"kind": "acked", "shard": shard, "interaction": interaction_id,
                                 "from": self.origin}))

    async def register_activity(self, shards: Sequence[int], address: str) -> None:
        """This process serves the Activity of ``shards`` at ``address`` (``host:port``), for the
        other processes to pass their pages of those shards on to (bot.activity.server)."""
        if not shards or any(type(s) is not int or s < 0 for s in shards):
            raise InvalidInput("The shards must be shard numbers.")
        if not isinstance(address, str) or not 3 <= len(address) <= 300:
            raise InvalidInput("The address must be a host and a port.")

        async def work(conn):
            for shard in shards:
                await conn.execute(
                    "INSERT INTO activity_addresses (shard, address, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (shard) DO UPDATE SET address = excluded.address, "
                    "updated_at = excluded.updated_at", (shard, address, self._db.now_ms()))
        await self._db.transact(work)

    async def activity_address(self, shard: int) -> str | None:
        """Where the process of ``shard`` serves the Activity (None: no process said)."""
        row = await self._db.fetchone("SELECT address FROM activity_addresses WHERE shard = ?", (shard,))
        return None if row is None else str(row[0])

    async def queued_relayed_presses(self, shards: Sequence[int]) -> list[dict[str, Any]]:
        """The presses queued for ``shards``, oldest first, each with its ``press_id``; each stays
        queued until its move is recorded (``record_action(..., relayed_press=)``) or it is
        dropped (:meth:`drop_relayed_press`)."""
        async with self._db.snapshot() as conn:
            return await relay.queued_presses(conn, list(shards))

    async def drop_relayed_press(self, press_id: int) -> None:
        """A relayed press that was answered without a move (refused, or too old to answer)."""
        await self._db.transact(lambda conn: relay.drop_press(conn, press_id))

    def listening(self) -> AbstractAsyncContextManager[AsyncIterator[dict[str, Any]]]:
        """The announcements of every process (this one's included), from the moment this is
        entered; PostgreSQL only. Ends when the connection does: enter it again to go on."""
        if not isinstance(self._db, PostgresDatabase):
            raise InvalidInput("Only PostgreSQL carries messages between processes; a bot of "
                               "several processes needs DATABASE_URL.")
        return self._db.listening(relay.CHANNEL)
