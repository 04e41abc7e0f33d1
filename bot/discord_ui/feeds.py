"""What the table publisher remembers of each table's messages (:class:`Feed`, with the
:class:`Marks` it keeps in the store), how it reaches a message through an interaction's token
(:class:`Via`), and what it brings a message to (:class:`Update`); with the few helpers that
every part of the publisher shares.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui.tokens import ORIGINAL, Token
from bot.store.surfaces import TABLE_ROW

INTERACTION_SECONDS = 14 * 60
"""How long an interaction's token is used to edit its message: Discord accepts it for 15 minutes."""


def token_clock() -> float:
    """The clock a token's age is read on (monotonic; tests that let tokens expire replace it)."""
    return time.monotonic()


def ping(*user_ids: int) -> discord.AllowedMentions:
    """Mentions that notify exactly these users and nobody else (no @everyone, no roles)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


@dataclass
class Via:
    """A message reachable through an interaction's token (exempt from the global rate limit)."""

    token: Token
    message_id: int | None
    since: float = field(default_factory=lambda: token_clock())
    # Set once the press is answered: its token edits the message only after the answer (a press
    # is answered once its move is stored), and not at all if it was answered by a new message.
    answered: asyncio.Event | None = None
    withdrawn: bool = False
    followup: bool = False  # the message is a follow-up of the interaction, not its answer
    # An older token into the same message (My hand's, an earlier press's), kept for when this
    # press answered with a message of its own or not at all: a private hand has no other way.
    instead: Via | None = None
    at: float = field(default_factory=time.time)  # when the token was taken, as the store keeps it
    # The press's answer was lost on its way and Discord could not be asked whether it took it:
    # the token is used once Discord says it did (:meth:`ready`), unless an older way is kept.
    unsettled: bool = False

    @property
    def fresh(self) -> bool:
        return not self.withdrawn and token_clock() - self.since < INTERACTION_SECONDS

    def note(self) -> dict[str, Any] | None:
        """What the store keeps of this way in, for a start after a crash: its token, message
        and age; while its press is unanswered (it may yet answer apart) or once it no longer
        reaches the message, the older way it keeps into the same message (None without)."""
        if self.fresh and (self.answered is None or self.answered.is_set()) \
                and not (self.unsettled and self.instead is not None):
            return {**self.token.note(), "message": self.message_id, "followup": self.followup,
                    "at": self.at, **({"unsettled": True} if self.unsettled else {})}
        return self.instead.note() if self.instead is not None else None

    @classmethod
    def kept(cls, bot: discord.Client, note: dict[str, Any]) -> Via | None:
        """The way in a :meth:`note` was taken of, while its token still lives; None after, or
        when the note is not one."""
        try:
            at = float(note["at"])
            via = cls(Token.kept(bot, note), None if note.get("message") is None else int(note["message"]),
                      since=token_clock() - max(0.0, time.time() - at),
                      followup=bool(note.get("followup")), at=at,
                      unsettled=bool(note.get("unsettled")))
        except (KeyError, TypeError, ValueError):
            return None
        return via if via.fresh else None

    async def edit(self, **fields: Any) -> discord.Message:
        """Edit the message through the token: the interaction's answer, or its follow-up."""
        if self.followup and self.message_id is not None:
            return await self.token.followup.edit_message(self.message_id, **fields)
        return await self.token.edit_original_response(**fields)

    async def ready(self) -> bool:
        """Whether the token may edit the message now (waiting for the press's answer, and
        asking Discord whether it took an answer whose fate was lost)."""
        if self.answered is not None and not self.answered.is_set():
            await self.answered.wait()
        if self.unsettled and self.fresh:
            await self._settle()
        return self.fresh

    async def _settle(self) -> None:
        """Ask Discord whether it took the press's answer (only then does the token edit the
        message); an older way into the same message is used instead, with nothing to ask.
        A failure on the way is raised: the update that needs the answer is tried again."""
        if self.instead is not None and self.instead.fresh:
            self.withdrawn = True
            return
        try:
            await self.token.followup.fetch_message(ORIGINAL)  # type: ignore[arg-type]
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                raise
            self.withdrawn = True  # never answered: Discord shows nothing through the token
            return
        self.unsettled = False


@dataclass
class Shown:
    """What one message shows now."""

    digest: str = ""  # of the whole update (embed, controls, image)
    image: str = ""  # of the image bytes
    attachment: discord.Attachment | None = None


@dataclass
class Marks:
    """Where this surface shows one game: its own notes, kept through the store's
    :class:`~bot.store.surfaces.SurfaceNotes` so that a restart edits the same messages."""

    table: list[int] | None = None  # [channel, message] of the table
    hands: dict[int, list[int]] = field(default_factory=dict)  # seat -> its hand's [DM channel, message]
    private: set[int] = field(default_factory=set)  # seats reading their hand privately (no DMs)
    alert: dict[str, Any] | None = None  # the live turn alert: seat, since, warned, channel, message

    @property
    def table_message(self) -> int | None:
        return self.table[1] if self.table else None

    def rows(self, seats: int) -> dict[int, dict[str, Any]]:
        """The notes as the store keeps them: one row for the table, one per seat."""
        out: dict[int, dict[str, Any]] = {TABLE_ROW: {"table": self.table} if self.table else {}}
        for seat in range(seats):
            row: dict[str, Any] = {}
            if seat in self.hands:
                row["hand"] = list(self.hands[seat])
            if seat in self.private:
                row["private"] = True
            if self.alert is not None and self.alert.get("seat") == seat:
                row["alert"] = dict(self.alert)
            out[seat] = row
        return out

    @classmethod
    def from_rows(cls, rows: dict[int, dict[str, Any]]) -> Marks:
        marks = cls(table=(rows.get(TABLE_ROW) or {}).get("table"))
        for seat, row in rows.items():
            if seat == TABLE_ROW:
                continue
            if row.get("hand"):
                marks.hands[seat] = list(row["hand"])
            if row.get("private"):
                marks.private.add(seat)
            if row.get("alert"):
                marks.alert = dict(row["alert"])
        return marks


@dataclass
class Feed:
    """The publisher's memory of one table's messages (in memory: a restart redraws them all)."""

    marks: Marks = field(default_factory=Marks)
    loaded: bool = False  # whether ``marks`` holds what the store has (else read before use)
    saved: dict[int, dict[str, Any]] = field(default_factory=dict)  # the rows last stored
    table_via: Via | None = None
    hand_via: dict[int, Via] = field(default_factory=dict)
    # Seat -> copies of the hand that another copy has replaced, still reachable by their token:
    # each loses its controls at the hand's next update, so only one copy ever takes moves.
    superseded: dict[int, list[Via]] = field(default_factory=dict)
    # Seat -> the copy My hand showed before the seat's hand DM was tried: its way in, should
    # that DM be refused (the player reads privately from then on).
    early_copy: dict[int, Via] = field(default_factory=dict)
    dealing: set[int] = field(default_factory=set)  # seats whose hand a follow-up is on its way to
    shown: dict[int, Shown] = field(default_factory=dict)  # message id -> what it shows
    drawn: dict[str, tuple[Any, bytes]] = field(default_factory=dict)  # slot -> (model, PNG)
    alert_queued: bool = False  # a turn alert job waits in the table's posts (one is enough)
    dealt: dict[int, asyncio.Event] = field(default_factory=dict)  # seat -> first hand DM tried
    alert_sent_at: float = float("-inf")  # monotonic time of the table's last turn alert
    alerts_sent: int = 0  # turn alerts Discord took: a new alert's nonce, a retry's the same
    warned_seq: int | None = None  # the move whose timeout warning is due or shown
    # Monotonic times, per seat, of the player's last press at this table and of the last
    # message that notified them (their first hand DM, a turn alert): see TurnAlerts.quiet.
    looking: dict[int, float] = field(default_factory=dict)
    notified: dict[int, float] = field(default_factory=dict)
    alerted: set[int] = field(default_factory=set)  # seats whose last notice was a turn alert
    pressed_at: dict[int, int] = field(default_factory=dict)  # seat -> the move of their last press
    turn_began: tuple[tuple[int, int], float] | None = None  # (seat, move) and when first seen
    alert_timer: asyncio.TimerHandle | None = None  # looks at the alert again when quiet ends


@dataclass
class Update:
    """One message's new content, laid out as one container (:mod:`bot.discord_ui.layout`):
    its words and controls, and the image to draw for it (off the event loop)."""

    view: discord.ui.LayoutView
    draw: Callable[..., bytes]
    model: Any
    filename: str
    feed: Feed | None = None
    slot: str = "table"  # whose picture: "table" or "hand:<seat>" (one drawing kept per slot)

    def digest(self, image: str) -> str:
        parts = {"view": self.view.to_components(), "image": image}
        return hashlib.blake2b(json.dumps(parts, sort_keys=True, default=str).encode(),
                               digest_size=16).hexdigest()

    @property
    def fields(self) -> dict[str, Any]:
        """The message's fields for a send or an edit. An edit of a message from before
        one-message tables (content and an embed) clears both: a laid-out message has neither."""
        return {"view": self.view, "content": None, "embed": None}


def _when(unix: float | None) -> str:
    """A moment as a Discord timestamp each reader sees relative to now ("in 2 minutes")."""
    return f"<t:{int(unix or 0)}:R>"


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _first(attachments: list[discord.Attachment]) -> discord.Attachment | None:
    return attachments[0] if attachments else None
