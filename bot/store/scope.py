"""Whose stored records a read may return: every read of a game or a tournament names one.

A press or a command reads as :meth:`Scope.press`: from a server, only that server's records;
from a direct message (no server), only the records the presser took part in (sat at the game,
signed up for the tournament). The bot's own work (resuming tables, advancing tournaments,
checking a database) reads with :data:`EVERY_SERVER`, which has to be written out where it is
meant, so no missing server id can quietly widen a read to every server.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import InvalidInput

__all__ = ["Scope", "EVERY_SERVER", "scope_of"]


@dataclass(frozen=True, slots=True)
class Scope:
    """``guild_id``: the server whose records may be read (None: a direct message, where only
    ``user_id``'s own records may); ``every_server``: the bot's own reads, of any server."""

    guild_id: int | None
    user_id: int | None = None
    every_server: bool = False

    @classmethod
    def server(cls, guild_id: int) -> Scope:
        """The records of one server."""
        if type(guild_id) is not int or not 0 < guild_id < 2**63:
            raise InvalidInput("The server id must be a Discord id.")
        return cls(guild_id)

    @classmethod
    def press(cls, guild_id: int | None, user_id: int) -> Scope:
        """What a member pressing or typing in ``guild_id`` (None: a direct message) may read."""
        if type(user_id) is not int or not 0 < user_id < 2**63:
            raise InvalidInput("The user id must be a Discord id.")
        if guild_id is not None:
            return cls(cls.server(guild_id).guild_id, user_id)
        return cls(None, user_id)

    def admits(self, guild_id: int, members: Iterable[Any]) -> bool:
        """Whether a record of ``guild_id`` that ``members`` took part in may be read."""
        if self.every_server:
            return True
        if self.guild_id is not None:
            return guild_id == self.guild_id
        return self.user_id is not None and self.user_id in set(members)


EVERY_SERVER = Scope(None, None, every_server=True)
"""The bot's own reads (resuming, advancing tournaments, checks): records of any server."""


def scope_of(value: Any) -> Scope:
    """A :class:`Scope`, or a server id meaning that server's records; anything else (a missing
    server id above all) is refused rather than read as "any server"."""
    if isinstance(value, Scope):
        return value
    if type(value) is int:
        return Scope.server(value)
    raise InvalidInput("Say whose records to read: a server id, a press's scope or EVERY_SERVER.")
