"""A simulated Koi-Koi player of the load benchmark.

It opens a table against the AI with ``/koikoi ai:LEVEL`` in its own channel, waits until its
hand (a DM whose buttons carry ``hf:act:<game>:<move>:<action>``) offers moves for a new move
number, presses one at random (after ``think`` seconds, if set) and starts a new match when the
table message is closed. When the bot's answer comes too late (Discord shows "This interaction
failed"), it tries again after ``RETRY_PAUSE``, as a person would. The stand-in's hooks call :meth:`on_hand`, :meth:`on_table` and
:meth:`on_callback`; the player only reacts to what a real user would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.discord_standin import Channel, InteractionRecord, Message, SimUser
from tests.discord_standin.users import INTERACTION_APPLICATION_COMMAND, INTERACTION_COMPONENT

if TYPE_CHECKING:
    from bot.bench._loadstandin import LoadStandIn

_ACTION = re.compile(r"hf:act:(\d+):(\d+):")
_TABLE = re.compile(r"hf:hand:(\d+)")
_FOOTER_MOVE = re.compile(r"move (\d+)")
RETRY_PAUSE = 2.0  # after "This interaction failed" (a refused answer), a user tries again
STUCK_SECONDS = 60.0  # a /koikoi whose table never came is sent again after this long


@dataclass(eq=False)
class Press:
    """One interaction a player sent, and when the bot answered it and showed its effect."""

    record: InteractionRecord
    sent: float  # monotonic
    move: int | None  # the move number pressed; None for the slash command
    acked: float | None = None
    refused: bool = False  # the callback was rejected (e.g. later than Discord's 3 s)
    visible: float | None = None
    on_table: float | None = None  # when the table message first showed a later move

    @property
    def table_seconds(self) -> float | None:
        return None if self.on_table is None else self.on_table - self.sent

    @property
    def ack_seconds(self) -> float | None:
        return None if self.acked is None else self.acked - self.sent

    @property
    def visible_seconds(self) -> float | None:
        return None if self.visible is None else self.visible - self.sent


@dataclass
class Offer:
    game: int
    move: int
    custom_ids: list[str]
    message: Message


class Budget:
    """How many more presses the run allows, and when the run must stop pressing."""

    def __init__(self, until: float, presses: int) -> None:
        self.until = until
        self.left = presses

    def open(self) -> bool:
        return self.left > 0 and time.monotonic() < self.until

    def take(self) -> bool:
        if not self.open():
            return False
        self.left -= 1
        return True


class LoadPlayer:
    def __init__(self, standin: LoadStandIn, user: SimUser, channel: Channel, *, level: str,
                 rounds: int | None, think: float, rng: random.Random, presses: list[Press],
                 by_interaction: dict[int, tuple[LoadPlayer, Press]]) -> None:
        self.standin = standin
        self.user = user
        self.channel = channel
        self.level = level
        self.rounds = rounds  # the /koikoi rounds option; None: the server's default
        self.think = think
        self.rng = rng
        self.presses = presses  # shared by every player of the run
        self.by_interaction = by_interaction  # interaction id -> (player, press), shared too
        self.game: int | None = None
        self.table_message: int | None = None
        self.over = False
        self.offer: Offer | None = None
        self.pressed: tuple[int, int] | None = None  # (game, move) of the last accepted press
        self.pending: Press | None = None  # a move press whose effect is not visible yet
        self.off_table: list[Press] = []  # move presses the table message does not show yet
        self.starting = False  # a /koikoi was sent and its table is not posted yet
        self.games_finished = 0
        self.retry_at = 0.0  # monotonic time before which a failed interaction is not retried
        self.changed = asyncio.Event()

    # -- what the player sees (called by the stand-in's hooks) ---------------------------------
    def on_hand(self, msg: Message, at: float) -> None:
        ids = [c for c in msg.custom_ids() if c.startswith("hf:act:")]
        found = _ACTION.match(ids[0]) if ids else None
        if found is not None:
            self.offer = Offer(int(found[1]), int(found[2]), ids, msg)
        elif self.offer is None or self.offer.message.id == msg.id:
            self.offer = None
        pending = self.pending
        if pending is not None and (found is None or int(found[2]) != pending.move):
            self._seen(at)
        self.changed.set()

    def on_table(self, msg: Message, at: float) -> None:
        opened = next((m for c in msg.custom_ids() if (m := _TABLE.fullmatch(c))), None)
        if opened is not None and int(opened[1]) != self.game:
            self.game, self.table_message, self.over = int(opened[1]), msg.id, False
            self.starting = False
        elif msg.id != self.table_message:
            return  # a summary, a notice or the command's reply
        if opened is None:  # the game's controls are gone (a finished table keeps only Rematch)
            self.over = True
            self._seen(at)
        else:
            footer = [line for line in msg.text().splitlines() if line.startswith("-# ")]
            shown = _FOOTER_MOVE.search(footer[-1]) if footer else None
            if shown is not None:
                if self.pending is not None and self.pending.move is not None \
                        and int(shown[1]) > self.pending.move:
                    self._seen(at)
                for press in [p for p in self.off_table if int(shown[1]) > p.move]:
                    press.on_table = at
                    self.off_table.remove(press)
        self.changed.set()

    def on_callback(self, press: Press, at: float, status: int) -> None:
        press.acked = at
        if status >= 400:
            press.refused = True
            self.retry_at = at + RETRY_PAUSE
            if press is self.pending:  # the move was not made: press again
                self.pending = None
                self.pressed = None
            elif press.move is None and self.game is None:  # the command failed: send it again
                self.starting = False
        self.changed.set()

    def _seen(self, at: float) -> None:
        if self.pending is not None:
            self.pending.visible = at
            self.pending = None

    # -- playing -------------------------------------------------------------------------------
    async def play(self, budget: Budget) -> None:
        waiting_since = time.monotonic()
        while budget.open():
            self.changed.clear()
            step = self._next_step()
            now = time.monotonic()
            if step is None and self.starting and now - waiting_since >= STUCK_SECONDS:
                step = "start"  # the command got lost: send it again
            if step is None:
                deadline = budget.until
                if self.starting:
                    deadline = min(deadline, waiting_since + STUCK_SECONDS)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - now))
                continue
            if now < self.retry_at:
                await asyncio.sleep(min(self.retry_at, budget.until) - now)
                continue
            if isinstance(step, Offer) and self.think > 0:
                await asyncio.sleep(self.think)
                if self._next_step() is not step:
                    continue  # the table moved on while thinking (e.g. the turn timed out)
            if not budget.take():
                break
            await (self._start() if step == "start" else self._press(step))
            waiting_since = time.monotonic()

    def _next_step(self) -> Offer | str | None:
        """``"start"`` (a new match), the offer to answer, or None (wait for the bot)."""
        if self.over or (self.game is None and not self.starting):
            return "start"
        offer = self.offer
        if offer is None or offer.game != self.game or (offer.game, offer.move) == self.pressed:
            return None
        return offer

    async def _start(self) -> None:
        if self.over:
            self.games_finished += 1
        self.game = self.table_message = self.offer = self.pressed = self.pending = None
        self.off_table = []  # a finished table shows its last moves in a summary instead
        self.over = False
        self.starting = True
        options: dict = {"ai": self.level}
        if self.rounds is not None:
            options["rounds"] = self.rounds
        data = self.user._command_data(self.channel, "koikoi", options, focused=None)
        await self._send(self.channel, INTERACTION_APPLICATION_COMMAND, data, None, None)

    async def _press(self, offer: Offer) -> None:
        self.pressed = (offer.game, offer.move)
        data = {"custom_id": self.rng.choice(offer.custom_ids), "component_type": 2}
        await self._send(offer.message.channel, INTERACTION_COMPONENT, data, offer.message, offer.move)

    async def _send(self, channel: Channel, kind: int, data: dict, target: Message | None,
                    move: int | None) -> None:
        def register(record: InteractionRecord) -> None:
            # Before the event leaves: the bot's answer may come back before dispatch returns.
            press = Press(record, record.created_at, move)
            self.presses.append(press)
            self.by_interaction[record.id] = (self, press)
            if move is not None:
                self.pending = press
                self.off_table.append(press)

        await self.standin.send_interaction(self.user, channel, kind, data, target, register)
