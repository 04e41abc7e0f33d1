"""What a surface keeps about the games it shows, apart from the games themselves.

A surface (the Discord channel and its direct messages, and any other place a table is shown)
needs to remember where it showed a game: which message is the table, which hold the hands,
which is the turn alert. That memory is the surface's, not the table's: the table service never
reads it, and the surface never writes a game. Each surface is handed a :class:`SurfaceNotes`,
the narrow part of the store it may use, and keeps one small JSON object per game and seat (seat
:data:`TABLE_ROW` for the table itself), so that forgetting a member removes their seat's rows
alone (:mod:`bot.store.privacy`).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping
from typing import Any, Protocol

from .errors import InvalidInput
from .settings import GuildSettings
from .steps import ExecuteMany, Fetch, StepRequest

__all__ = ["TABLE_ROW", "NotesStore", "SurfaceNotes", "from_state"]

TABLE_ROW = -1
"""The seat number of a game's own notes (its table message, say)."""

Notes = dict[int, dict[str, Any]]
"""One game's notes of one surface: seat (or :data:`TABLE_ROW`) -> that row's JSON object."""


async def read(conn: Any, surface: str, game_ids: list[int] | None) -> dict[int, Notes]:
    """The notes of ``game_ids`` (None: of every game still running or whose end is not shown)."""
    if game_ids is None:
        rows = await conn.execute_fetchall(
            "SELECT n.game_id, n.seat, n.notes FROM surface_notes n JOIN games g "
            "ON g.game_id = n.game_id WHERE n.surface = ? AND (g.status = 'running' OR "
            "g.final_shown = 0)", (surface,))
    else:
        rows = []
        for game_id in game_ids:
            rows += await conn.execute_fetchall(
                "SELECT game_id, seat, notes FROM surface_notes WHERE surface = ? AND game_id = ?",
                (surface, game_id))
    out: dict[int, Notes] = {game_id: {} for game_id in game_ids or ()}
    for game_id, seat, notes in rows:
        out.setdefault(game_id, {})[seat] = json.loads(notes)
    return out


async def write(conn: Any, surface: str, game_id: int, rows: Mapping[int, Mapping[str, Any]],
                now: int) -> None:
    for seat, notes in rows.items():
        await conn.execute(
            "INSERT INTO surface_notes (game_id, surface, seat, notes, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, surface, seat) DO UPDATE SET "
            "notes = excluded.notes, updated_at = excluded.updated_at",
            (game_id, surface, seat, json.dumps(notes, separators=(",", ":")), now))


async def forget_seat(conn: Any, game_id: int, seat: int) -> None:
    """Every surface's notes about one seat of a game (its member is being forgotten)."""
    await conn.execute("DELETE FROM surface_notes WHERE game_id = ? AND seat = ?", (game_id, seat))


class NotesStore(Protocol):
    """What :class:`SurfaceNotes` reads and writes through (:class:`bot.store.Store` has it all):
    named here so that this module, which the store's migrations use, needs nothing of the store."""

    async def read_surface_notes(self, surface: str, game_ids: list[int] | None) -> dict[int, Notes]: ...

    async def write_surface_notes(self, surface: str, game_id: int,
                                  rows: Mapping[int, Mapping[str, Any]]) -> None: ...

    async def get_settings(self, guild_id: int) -> GuildSettings: ...

    async def mark_posted(self, game_id: int, seq: int) -> None: ...

    async def mark_final_shown(self, game_id: int) -> None: ...


class SurfaceNotes:
    """The part of the store one surface is handed: its notes about each game, and the marks
    that a game's posts went out and that its end is shown (a start sends what is still owed)."""

    def __init__(self, store: NotesStore, surface: str) -> None:
        if not isinstance(surface, str) or not 1 <= len(surface) <= 32:
            raise InvalidInput("A surface's name is 1 to 32 characters.")
        self._store = store
        self.surface = surface

    async def live(self) -> dict[int, Notes]:
        """The notes of every game still running or whose end is not shown yet (read at start)."""
        return await self._store.read_surface_notes(self.surface, None)

    async def read(self, game_id: int) -> Notes:
        """One game's notes ({} when the surface has none)."""
        return (await self._store.read_surface_notes(self.surface, [game_id]))[game_id]

    async def write(self, game_id: int, rows: Mapping[int, Mapping[str, Any]]) -> None:
        """Replace the rows of the seats in ``rows`` (the others stay as they are)."""
        await self._store.write_surface_notes(self.surface, game_id, rows)

    async def private_hands(self, guild_id: int) -> bool:
        """Whether the server asks for hands shown privately rather than by direct message."""
        return (await self._store.get_settings(guild_id)).hand_delivery == "ephemeral"

    async def posted(self, game_id: int, seq: int) -> None:
        """The posts of the game's moves up to ``seq`` went out."""
        await self._store.mark_posted(game_id, seq)

    async def end_shown(self, game_id: int) -> None:
        """Every message of the ended game shows its end."""
        await self._store.mark_final_shown(game_id)


def from_state() -> Generator[StepRequest, Any, None]:
    """Migration 015's step: the Discord surface's notes out of the games that still need them
    (running, or ended with the end not shown yet), where older code kept them in the state."""
    rows = yield Fetch("SELECT game_id, channel_id, message_id, state, updated_at FROM games "
                       "WHERE status = 'running' OR final_shown = 0")
    notes: list[tuple[Any, ...]] = []
    for game_id, channel_id, message_id, state_json, now in rows:
        try:
            state = json.loads(state_json)
        except ValueError:
            continue
        if not isinstance(state, dict):
            continue
        seats: dict[int, dict[str, Any]] = {}
        for seat, ref in (state.get("hand_messages") or {}).items():
            seats.setdefault(int(seat), {})["hand"] = list(ref)
        for seat in state.get("dm_failed") or ():
            seats.setdefault(int(seat), {})["private"] = True
        alert = state.get("turn_alert")
        if isinstance(alert, dict) and isinstance(alert.get("seat"), int):
            seats.setdefault(alert["seat"], {})["alert"] = alert
        if message_id:
            seats[TABLE_ROW] = {"table": [channel_id, message_id]}
        notes += [(game_id, "discord", seat, json.dumps(row, separators=(",", ":")), now)
                  for seat, row in seats.items()]
    yield ExecuteMany("INSERT INTO surface_notes (game_id, surface, seat, notes, updated_at) "
                      "VALUES (?, ?, ?, ?, ?)", notes or [])
