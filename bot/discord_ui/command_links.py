"""Command mentions: a command named in a message as a link that opens it.

Discord shows ``</name:id>`` (``</group sub:id>`` for a subcommand) as the command's name, in
the reader's language, and opens the command when it is pressed. The id is the one Discord gave
the command when it was synced, which only Discord knows: :class:`CommandIds` asks for them when
first needed and keeps them, so an answer costs no request after the first. A command Discord
gave no id (not synced yet, or the answer failed) is named in plain text: an answer never waits
on Discord for more than a moment, and never shows a link that opens nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

KEEP_SECONDS = 3600.0
"""How long fetched ids are kept (a sync by another process may add commands meanwhile)."""

RETRY_SECONDS = 60.0
"""After a failed fetch, how long plain names are used before Discord is asked again."""

FETCH_SECONDS = 2.0
"""The longest a page waits for the ids; past it, plain names (the fetch goes on for later)."""


async def links_for(interaction: Any) -> dict[str, int]:
    """The ids an answer to ``interaction`` can link to (the bot's :class:`CommandIds`)."""
    return await interaction.client.command_ids.of(interaction.guild_id)


def mention(qualified: str, ids: Mapping[str, int]) -> str:
    """``qualified`` (``"chips balance"``) as a link to the command, or as plain text when its
    top-level command has no id."""
    command_id = ids.get(qualified.split()[0])
    return f"</{qualified}:{command_id}>" if command_id else f"`/{qualified}`"


class CommandIds:
    """The ids of the synced slash commands by name: the global ones, and for the development
    server (whose commands are copies with ids of their own) that server's over them.

    ``fetch(guild_id)`` is the bot's ``tree.fetch_commands`` (one request to Discord). Fetches
    of the same place share one request; ids are kept :data:`KEEP_SECONDS`."""

    def __init__(self, fetch: Callable[[int | None], Any], dev_guild_id: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self._dev_guild_id = dev_guild_id
        self._clock = clock
        self._kept: dict[int | None, tuple[float, dict[str, int]]] = {}
        self._asking: dict[int | None, asyncio.Task[dict[str, int]]] = {}

    async def of(self, guild_id: int | None) -> dict[str, int]:
        """The ids a message in ``guild_id`` (None: outside a server) can link to."""
        ids = dict(await self._place(None))
        if guild_id is not None and guild_id == self._dev_guild_id:
            ids.update(await self._place(guild_id))
        return ids

    async def _place(self, guild_id: int | None) -> dict[str, int]:
        kept = self._kept.get(guild_id)
        if kept is not None and self._clock() < kept[0]:
            return kept[1]
        task = self._asking.get(guild_id)
        if task is None:
            task = self._asking[guild_id] = asyncio.create_task(
                self._ask(guild_id), name=f"command ids {guild_id}")
        try:  # shielded: a page that stops waiting leaves the answer to the next one
            return await asyncio.wait_for(asyncio.shield(task), FETCH_SECONDS)
        except TimeoutError:
            log.warning("Discord did not give the command ids within %g s; naming them plainly",
                        FETCH_SECONDS)
            return kept[1] if kept is not None else {}

    async def _ask(self, guild_id: int | None) -> dict[str, int]:
        try:
            commands = await self._fetch(guild_id)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            log.warning("cannot fetch the command ids (%s); naming them plainly for %g s",
                        exc, RETRY_SECONDS)
            self._kept[guild_id] = (self._clock() + RETRY_SECONDS, {})
            return {}
        finally:
            self._asking.pop(guild_id, None)
        ids = {c.name: c.id for c in commands
               if getattr(c, "type", None) is discord.AppCommandType.chat_input}
        self._kept[guild_id] = (self._clock() + KEEP_SECONDS, ids)
        return ids
