"""The port between a table and the places it is shown.

:class:`bot.tables.TableManager` decides, stores and schedules; a *surface* only shows. The
manager tells its surface what happened at a table, always after it is stored, and never waits
for the showing: each call returns at once except :meth:`TableSurface.post_table`, the first
picture of a new game. A surface reads the :class:`~bot.tables.Table` it is handed (the match,
its public and private observations, whose turn and until when, the recent events to narrate
with :func:`bot.presenter.log_lines`) and draws it in its own language.

The surfaces are the Discord channel and its direct messages (``bot.discord_ui.publisher``), the
one-message table of a guest place (``bot.discord_ui.guest``) and the Activity's pages
(``bot.activity.surface``); each implements this port. One table may be shown in several places at once (a
channel message and a web page): :class:`Surfaces` hands each call to every surface that shows
the table, so the manager still talks to one port.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.store.models import GameEvent
    from bot.tables.table import Table

__all__ = ["Surfaces", "TableSurface"]


class TableSurface(Protocol):
    """What a table's manager asks of the place it is shown."""

    def shows(self, table: Table) -> bool:
        """Whether this surface shows ``table`` (a table reaches only the surfaces that show it)."""

    def owns(self, via: Any) -> bool:
        """Whether ``via`` (a start's or a press's handle) is this surface's own: only the
        surface a handle came from is given it."""

    async def post_table(self, table: Table, via: Any = None) -> None:
        """Show a new game's table (``via``: the start command's deferred answer, when the
        surface can answer through it)."""

    def deliver_hands(self, table: Table) -> None:
        """Give each human seat its private hand."""

    def pressed(self, table: Table, seat: int, via: Any) -> None:
        """``seat`` pressed a control this surface showed, its move about to be played (``via``:
        the surface's own handle of the press, such as a token that edits the presser's hand)."""

    def pressed_earlier(self, table: Table, seat: int, via: Any) -> None:
        """``seat`` pressed a move on a control of an earlier move (``via`` as for
        :meth:`pressed`): what it was pressed on fell behind the table and is shown the table's
        state through the press."""

    def show_move(self, table: Table, events: list[dict]) -> None:
        """A stored move: the table, the hands and any round summary it produced."""

    def show_last_move(self, table: Table, events: list[dict]) -> None:
        """The move that ended the match is stored, and its result is being settled;
        :meth:`show_end` follows. A surface that shows a move at no cost shows it now; one whose
        every update costs a request waits for the end and shows both in one."""

    def show_end(self, table: Table, events: Iterable[dict] = ()) -> None:
        """The game is over (``table.closing`` says how): the final table and hands with no
        controls, and the summaries of ``events``."""

    def refresh(self, table: Table) -> None:
        """Bring everything shown to the table's state (after a restart, or a new deadline)."""

    def warn(self, table: Table, seat: int, seconds: int) -> None:
        """``seat``'s time for the move is nearly up: ``seconds`` are left."""

    def post_owed(self, table: Table, moves: Iterable[GameEvent]) -> None:
        """After a restart: the round summaries of stored ``moves`` that may not have been
        shown (a surface that shows one twice must recognise it)."""

    def let_go(self, table: Table) -> None:
        """Another process drives and shows the table from now on: forget what is kept of it
        here, and show nothing more of it."""


class Surfaces:
    """Every surface of one process, as one: each call reaches the surfaces that show the table,
    and a handle (``via``) only the surface that owns it; the others show the same change their
    own way. The first picture of a new game is awaited on every surface that shows it."""

    def __init__(self, *surfaces: TableSurface) -> None:
        self.surfaces: list[TableSurface] = list(surfaces)

    def add(self, surface: TableSurface) -> None:
        self.surfaces.append(surface)

    def showing(self, table: Table) -> list[TableSurface]:
        return [surface for surface in self.surfaces if surface.shows(table)]

    def shows(self, table: Table) -> bool:
        return bool(self.showing(table))

    def owns(self, via: Any) -> bool:
        return any(surface.owns(via) for surface in self.surfaces)

    def _own(self, surface: TableSurface, via: Any) -> Any:
        return via if via is not None and surface.owns(via) else None

    async def post_table(self, table: Table, via: Any = None) -> None:
        for surface in self.showing(table):
            await surface.post_table(table, via=self._own(surface, via))

    def deliver_hands(self, table: Table) -> None:
        for surface in self.showing(table):
            surface.deliver_hands(table)

    def pressed(self, table: Table, seat: int, via: Any) -> None:
        for surface in self.showing(table):
            if surface.owns(via):
                surface.pressed(table, seat, via)

    def pressed_earlier(self, table: Table, seat: int, via: Any) -> None:
        for surface in self.showing(table):
            if surface.owns(via):
                surface.pressed_earlier(table, seat, via)

    def show_move(self, table: Table, events: list[dict]) -> None:
        for surface in self.showing(table):
            surface.show_move(table, events)

    def show_last_move(self, table: Table, events: list[dict]) -> None:
        for surface in self.showing(table):
            surface.show_last_move(table, events)

    def show_end(self, table: Table, events: Iterable[dict] = ()) -> None:
        events = list(events)
        for surface in self.showing(table):
            surface.show_end(table, events)

    def refresh(self, table: Table) -> None:
        for surface in self.showing(table):
            surface.refresh(table)

    def warn(self, table: Table, seat: int, seconds: int) -> None:
        for surface in self.showing(table):
            surface.warn(table, seat, seconds)

    def post_owed(self, table: Table, moves: Iterable[GameEvent]) -> None:
        moves = list(moves)
        for surface in self.showing(table):
            surface.post_owed(table, moves)

    def let_go(self, table: Table) -> None:
        for surface in self.surfaces:  # whether it shows the table now or not: all it kept goes
            surface.let_go(table)
