"""The Activity as a surface of the tables: every open page is a :class:`Viewer` of the table of
its Activity's channel, and each change the table service reports is pushed to those pages as
one state message per viewer (built once per seat and language).

Nothing here calls Discord: a move reaches the pages over their sockets alone. The surface keeps
no memory of its own beyond the open sockets: a page's whole view is rebuilt from the table,
so a page that reconnects (or a bot that restarts) needs nothing stored to show it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.activity.protocol import Bucket
from bot.activity.state import idle_state, table_state
from bot.i18n import speaking, t
from bot.tables import HOME_ACTIVITY, HOME_PRIVATE
from bot.tables.hints import offered_at

if TYPE_CHECKING:
    from bot.activity.sessions import Session
    from bot.store.models import GameEvent
    from bot.tables import Table, TableManager

log = logging.getLogger(__name__)


class Viewer:
    """One open page: its socket, who signed in, the channel of its Activity and the table it
    shows. What it is sent goes out in order, except that a state waiting to be sent is
    replaced by a newer one (a slow page skips states, never gets an old one last)."""

    def __init__(self, ws: web.WebSocketResponse, session: Session, instance_id: str,
                 channel_id: int, language: str, now: float) -> None:
        self.ws = ws
        self.session = session
        self.instance_id = instance_id
        self.channel_id = channel_id
        self.guild_id: int | None = None  # the Activity's server, where Discord said it runs in one
        self.language = language
        self.table: Table | None = None
        self.bucket = Bucket(now)
        self.last_nonce = -1
        self.pressing: asyncio.Task | None = None
        self.hinting: asyncio.Task | None = None  # a hint being priced (one at a time)
        self.reading: asyncio.Task | None = None  # the rules or a board being read (one at a time)
        self.last_hint: tuple[tuple[int, int, str], dict[str, Any]] | None = None  # its turn and words
        # How its user stands with today's deals (the day, a line per game), as last read for
        # this page: read again on a new day, or once it has shown one of their games of a deal.
        self.standing: tuple[str, dict[str, str]] | None = None
        self._queue: deque[str] = deque()
        self._state: str | None = None
        self._writer: asyncio.Task | None = None

    @property
    def user_id(self) -> int:
        return self.session.user_id

    @property
    def seat(self) -> int | None:
        return None if self.table is None else self.table.seat_of(self.user_id)

    def send(self, message: dict[str, Any]) -> None:
        self._put(json.dumps(message, separators=(",", ":"), ensure_ascii=False), state=False)

    def send_state(self, text: str) -> None:
        self._put(text, state=True)

    def _put(self, text: str, *, state: bool) -> None:
        if self.ws.closed:
            return
        if state:
            self._state = text
        else:
            self._queue.append(text)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while not self.ws.closed:
            if self._queue:
                text = self._queue.popleft()
            elif self._state is not None:
                text, self._state = self._state, None
            else:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):  # the page went away meanwhile
                return

    async def flushed(self) -> None:
        """Wait until everything queued was written (a close comes after the last word)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)


class ActivityPress:
    """A press made on a page: the handle the table service hands back to this surface."""

    __slots__ = ("viewer", "nonce")

    def __init__(self, viewer: Viewer, nonce: int) -> None:
        self.viewer, self.nonce = viewer, nonce


class ActivitySurface:
    """The port's Activity side: pushes each table's state to the pages open on it."""

    def __init__(self, tables: Callable[[], TableManager | None], clock: Callable[[], float] = time.time) -> None:
        self._tables = tables
        self.clock = clock
        self.viewers: dict[int, set[Viewer]] = {}  # by channel id
        # by user id: a private table (a game of the day's deal) reaches its player's pages
        # wherever in its place they are open, and no one else's
        self.pages: dict[int, set[Viewer]] = {}
        self._dirty: dict[int, Table] = {}
        self._flush_soon: asyncio.Handle | None = None
        self.pushed = 0  # states sent, for the tests and the bench
        self._settling: set[asyncio.Future[None]] = set()  # pushes waiting for a move's store
        self.idle: Callable[[Viewer], dict[str, Any]] = lambda viewer: idle_state(viewer.language)
        """What a page in a channel with no game is sent (the server adds its lobby)."""

    # -- pages --------------------------------------------------------------------------------
    def join(self, viewer: Viewer) -> None:
        """A page joined its channel: it shows the table there (or that there is none)."""
        self.viewers.setdefault(viewer.channel_id, set()).add(viewer)
        self.pages.setdefault(viewer.user_id, set()).add(viewer)
        viewer.table = self._table_in(viewer)
        if viewer.table is None:
            viewer.send(self.idle(viewer))
        else:
            self._push(viewer.table, [viewer])

    def show(self, viewer: Viewer, table: Table) -> None:
        """A page asked for a table its user plays in (their game of the day's deal, asked for
        again): it shows that one from now on."""
        self._bind(viewer, table)
        self._push(table, [viewer])

    @staticmethod
    def _bind(viewer: Viewer, table: Table) -> None:
        viewer.table = table
        if table.home == HOME_PRIVATE:  # a game of the day's deal: what the lobby said may change
            viewer.standing = None

    def to_lobby(self, viewer: Viewer) -> None:
        """A page leaves its finished game for the lobby."""
        viewer.table = None
        viewer.send(self.idle(viewer))

    def idle_viewers(self, channel_id: int) -> list[Viewer]:
        """The pages of a channel that show no game (or a game that is over) but the lobby."""
        return [v for v in self.viewers.get(channel_id, ()) if v.table is None]

    def leave(self, viewer: Viewer) -> None:
        for index, key in ((self.viewers, viewer.channel_id), (self.pages, viewer.user_id)):
            found = index.get(key)
            if found is not None:
                found.discard(viewer)
                if not found:
                    del index[key]

    @staticmethod
    def _in_place(viewer: Viewer, table: Table) -> bool:
        """Whether a page is open in the place a table is kept under: its channel, or another
        channel of the same server (a guest place is its channel alone)."""
        return viewer.channel_id == table.channel_id or (viewer.guild_id is not None
                                                         and viewer.guild_id == table.guild_id)

    def _pages_of(self, table: Table) -> Iterable[Viewer]:
        """The pages that may show ``table``: those open in its channel, or for a private table
        its player's own pages in its place and no others."""
        if table.home != HOME_PRIVATE:
            return self.viewers.get(table.channel_id, ())
        return [viewer for user in table.players if isinstance(user, int)
                for viewer in self.pages.get(user, ()) if self._in_place(viewer, table)]

    def _table_in(self, viewer: Viewer) -> Table | None:
        """The running table a page opening shows: the user's own first (their game of the
        day's deal anywhere in the place among them), else the channel's newest."""
        manager = self._tables()
        if manager is None:
            return None
        user = viewer.user_id
        found = [table for table in manager.tables.values() if not table.finished and (
            table.channel_id == viewer.channel_id and table.home != HOME_PRIVATE
            or table.home == HOME_PRIVATE and table.seat_of(user) is not None
            and self._in_place(viewer, table))]
        if not found:
            return None
        return max(found, key=lambda table: (table.seat_of(user) is not None, table.game_id))

    # -- what the table manager calls -----------------------------------------------------------
    def shows(self, table: Table) -> bool:
        """A table started in the Activity is shown only here; any other while a page that may
        show it is open (a private one's: its player's own)."""
        return table.home == HOME_ACTIVITY or any(True for _ in self._pages_of(table))

    def owns(self, via: Any) -> bool:
        return isinstance(via, ActivityPress)

    async def post_table(self, table: Table, via: Any = None) -> None:
        """A new game in a channel with pages open: they show it (unless already at another
        game they play in)."""
        self._mark(table)

    def deliver_hands(self, table: Table) -> None:
        self._mark(table)

    def pressed(self, table: Table, seat: int, via: ActivityPress) -> None:
        """A press from a page: the page learns the move was taken from the state that follows
        it and from the answer to its press, so nothing is shown before the move is stored."""

    def pressed_earlier(self, table: Table, seat: int, via: ActivityPress) -> None:
        """Nothing to catch up: a page follows the table's state whatever it pressed, and the
        answer to its press says the move was of an earlier turn."""

    def show_move(self, table: Table, events: list[dict]) -> None:
        self._mark(table)

    def show_last_move(self, table: Table, events: list[dict]) -> None:
        """The last move goes to the pages at once; the result follows once it is settled."""
        self._mark(table)

    def show_end(self, table: Table, events: Iterable[dict] = ()) -> None:
        self._mark(table)

    def refresh(self, table: Table) -> None:
        self._mark(table)

    def warn(self, table: Table, seat: int, seconds: int) -> None:
        for viewer in self._pages_of(table):
            if viewer.table is table and viewer.seat == seat:
                with speaking(viewer.language):
                    viewer.send({"type": "warn", "seconds": seconds,
                                 "text": t("Hurry: {seconds} seconds left for your move.", seconds=seconds)})

    def post_owed(self, table: Table, moves: Iterable[GameEvent]) -> None:
        """After a restart: a page shows the latest round's summary from the table itself, so
        what is owed is only the table brought up to date."""
        self._mark(table)

    def let_go(self, table: Table) -> None:
        """Another process drives the table now (whose pages are its own): no push of it is
        left to send from here."""
        self._dirty.pop(table.game_id, None)

    # -- pushing ------------------------------------------------------------------------------
    def _mark(self, table: Table) -> None:
        """Push ``table`` soon: every change reported within one turn of the event loop goes
        out as one state."""
        self._dirty[table.game_id] = table
        if self._flush_soon is None:
            self._flush_soon = asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_soon = None
        dirty, self._dirty = self._dirty, {}
        for table in dirty.values():
            viewers = [viewer for viewer in self._pages_of(table) if self._binds(viewer, table)]
            for viewer in viewers:
                self._bind(viewer, table)
            self._push(table, viewers)

    @staticmethod
    def _binds(viewer: Viewer, table: Table) -> bool:
        """Whether a page in the table's channel shows it: its own table, or a new one unless
        the page is at another running game the user plays in."""
        current = viewer.table
        if current is None or current.game_id == table.game_id or current.finished:
            return True
        if current.seat_of(viewer.user_id) is not None:
            return False
        return table.seat_of(viewer.user_id) is not None or table.game_id > current.game_id

    def _push(self, table: Table, viewers: Iterable[Viewer]) -> None:
        """One state per seat and language, sent to every page that reads it."""
        if not table.settled.is_set():  # a move is being stored: its state follows once it is
            waiting = asyncio.ensure_future(self._after_store(table, list(viewers)))
            self._settling.add(waiting)
            waiting.add_done_callback(self._settling.discard)
            return
        built: dict[tuple[int | None, str], str] = {}
        now = self.clock()
        manager = self._tables()
        offered = manager is not None and offered_at(manager.store, table)
        for viewer in viewers:
            key = (viewer.seat, viewer.language)
            if key not in built:
                try:
                    built[key] = json.dumps(table_state(table, key[0], key[1], now, hints=offered),
                                            separators=(",", ":"), ensure_ascii=False)
                except Exception:  # one table's fault must not stop the other tables' pages
                    log.exception("cannot describe game %s for its pages", table.game_id)
                    return
            viewer.send_state(built[key])
            self.pushed += 1

    async def _after_store(self, table: Table, viewers: list[Viewer]) -> None:
        await table.settled.wait()
        self._push(table, viewers)

    async def close(self) -> None:
        """Close every page (the bot is stopping: they reconnect to the next start)."""
        if self._flush_soon is not None:
            self._flush_soon.cancel()
        for viewer in [v for watching in self.viewers.values() for v in watching]:
            with contextlib.suppress(Exception):
                await viewer.ws.close(code=1012, message=b"restarting")
        self.viewers.clear()
