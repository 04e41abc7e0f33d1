"""Presses and languages between the processes of a sharded bot (see :mod:`bot.store.relay`).

Discord sends every direct message to shard 0, the controls on the hands among them; a game is
driven only by the process of its guild's shard. So shard 0's process acknowledges a press on a
hand whose game another process drives, and queues it for that process; the owner plays it as
if pressed there, answering through the press's token. A game that the process of its presses
takes up from another (:meth:`Relay.take_up_place`) is announced too, and the other lets it go.
A process that runs every shard (the usual single process) needs none of this and starts nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.tokens import followup_webhook
from bot.i18n import current, speaking
from bot.store import Scope, StoreError, UnknownGame

log = logging.getLogger(__name__)

INTERACTION_SECONDS = 15 * 60  # an interaction's token answers this long, then Discord refuses it
RETRY_SECONDS = (1, 2, 5, 10, 30)  # waits before listening again after the database was lost
ACK_SECONDS = 3.0  # Discord's window to acknowledge a press: after it the token is settled either way


class NotPassedOn(Exception):
    """A press on another process's game that could not be queued for it: nothing was played."""

    def __init__(self, shard: int) -> None:
        super().__init__(f"the press could not be queued for shard {shard}")
        self.shard = shard


@dataclass(frozen=True, slots=True)
class RelayedPress:
    """A press on a hand, received by another process: who pressed what, and the token that
    answers them."""

    kind: str  # "move" (a move control: seq and key as in its custom id) or "slap"
    game_id: int
    seq: int
    key: str
    user_id: int
    application_id: int
    token: str
    language: str
    at: float  # when it was pressed (unix seconds)
    press_id: int | None = None  # its place in the queue, once queued
    interaction_id: int = 0  # the press itself (0: queued by an older version)

    @classmethod
    def from_message(cls, data: dict[str, Any]) -> RelayedPress:
        if data["kind"] not in ("move", "slap"):
            raise ValueError(f"no press of kind {data['kind']!r}")
        return cls(str(data["kind"]), int(data["game"]), int(data["seq"]), str(data["key"]), int(data["user"]),
                   int(data["application"]), str(data["token"]), str(data.get("language", "")),
                   float(data["at"]), data.get("press_id"), int(data.get("interaction", 0)))

    def message(self) -> dict[str, Any]:
        return {"kind": self.kind, "game": self.game_id, "seq": self.seq, "key": self.key, "user": self.user_id,
                "application": self.application_id, "token": self.token,
                "language": self.language, "at": self.at, "interaction": self.interaction_id}

    def followup(self, bot: discord.Client) -> discord.Webhook:
        """The press's own webhook (as ``interaction.followup``): private answers to the presser."""
        return followup_webhook(bot, self.application_id, self.token)


class Relay:
    """This process's side: forward the presses of other processes' games, play the presses
    forwarded here, keep the languages other processes learn."""

    def __init__(self, bot: Any, play: Callable[[RelayedPress], Awaitable[None]]) -> None:
        self.bot = bot
        self.play = play  # bot.discord_ui.controls.play_relayed, bound to the bot
        self.plan = bot.shard_plan
        self._task: asyncio.Task[None] | None = None
        self._playing: set[asyncio.Task[None]] = set()
        self._in_hand: set[int] = set()  # queued presses being played here (taken once)
        # presses the receiving process acknowledged (interaction id -> event, when heard)
        self._acked: dict[int, tuple[asyncio.Event, float]] = {}
        self.listening = asyncio.Event()  # set while announcements reach this process
        self.played = 0  # presses taken from the queue and played here (tests, logs)

    @property
    def needed(self) -> bool:
        """Whether other processes share the bot."""
        return not self.plan.whole

    async def start(self) -> None:
        """Listen for the other processes, and play what was queued for this one meanwhile."""
        if not self.needed:
            return
        self._task = asyncio.create_task(self._listen(), name="relay")
        listening = asyncio.create_task(self.listening.wait())
        await asyncio.wait({self._task, listening}, return_when=asyncio.FIRST_COMPLETED)
        listening.cancel()
        if self._task.done():
            self._task.result()  # why it could not listen

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._playing:
            await asyncio.gather(*self._playing, return_exceptions=True)

    # -- forwarding --------------------------------------------------------------------------
    async def pass_on(self, interaction: discord.Interaction, kind: str, gid: int, seq: int,
                      key: str) -> int | None:
        """The shard a press (a ``"move"`` or a ``"slap"``) was queued for, when another process
        drives its game; None when this process plays it, or says why it cannot be played. The
        press is in the database's queue before its caller acknowledges it, so a press seen taken
        is never lost; :class:`NotPassedOn` when it could not be queued."""
        if not self.needed or interaction.guild_id is not None:
            return None
        store = self.bot.store
        try:
            # a DM press: only a game the presser sits at goes anywhere
            game = await store.load_game(gid, scope=Scope.press(None, interaction.user.id),
                                         with_events=False)
        except (UnknownGame, StoreError):
            return None  # this process says why the game cannot be played
        if game.status != "running" or self.plan.owns(game.shard_key):
            return None  # driven here: its shard key is this process's (a DM game's is shard 0's)
        press = RelayedPress(kind, gid, seq, key, interaction.user.id, interaction.application_id,
                             interaction.token, current(), time.time(), interaction_id=interaction.id)
        shard = self.plan.shard_of(game.shard_key)
        try:
            await store.relay_press(shard, gid, press.message())
        except StoreError as exc:
            raise NotPassedOn(shard) from exc
        return shard

    async def announce(self, shard: int, interaction: discord.Interaction) -> None:
        """Tell the process a press was passed on to that Discord has its acknowledgement, so its
        answer through the press's token may go (:meth:`acknowledged`)."""
        try:
            await self.bot.store.announce_acknowledged(shard, interaction.id)
        except StoreError:  # the owner then waits out Discord's window before answering
            log.warning("could not tell shard %d that a press was acknowledged", shard)

    async def take_up_place(self, interaction: discord.Interaction, game_id: int) -> None:
        """Before a press on a game this process does not drive, in a channel of a server that
        never added the bot: take up that place's games driven elsewhere, since its presses
        come here (a place noted before its server was kept; :meth:`TableManager.claim_place`)."""
        if not self.needed or interaction.guild_id is None or self.bot.tables.drives(game_id):
            return
        if self.bot.get_guild(interaction.guild_id) is None and interaction.channel_id:
            await self.bot.tables.claim_place(interaction.channel_id, interaction.guild_id)

    async def acknowledged(self, press: RelayedPress) -> None:
        """Return once the press's token may answer: the receiving process said it acknowledged
        the press, or Discord's window for that has passed (then it was, or never will be)."""
        left = press.at + ACK_SECONDS - time.time()
        if not press.interaction_id or left <= 0:
            return
        heard, _ = self._acked.setdefault(press.interaction_id, (asyncio.Event(), time.time()))
        try:
            await asyncio.wait_for(heard.wait(), left)
        except TimeoutError:
            pass
        finally:
            self._acked.pop(press.interaction_id, None)

    # -- receiving ---------------------------------------------------------------------------
    async def _listen(self) -> None:
        failures = 0
        while True:
            try:
                async with self.bot.store.listening() as messages:
                    self.listening.set()
                    if failures:
                        log.info("listening to the other processes again")
                    failures = 0
                    await self._take()  # queued while this process was not listening
                    async for message in messages:
                        await self._heard(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: the queue keeps what comes
                self.listening.clear()
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("lost the other processes' messages (%s); listening again in %d s",
                            exc, wait)
                await asyncio.sleep(wait)

    async def _heard(self, message: dict[str, Any]) -> None:
        if message.get("from") == self.bot.store.origin:
            return
        kind = message.get("kind")
        if kind == "press" and message.get("shard") in (self.plan.ids or ()):
            await self._take()
        elif kind == "acked" and message.get("shard") in (self.plan.ids or ()):
            now = time.time()
            for key, (_, since) in list(self._acked.items()):  # acks of presses long played
                if now - since > 60:
                    del self._acked[key]
            if isinstance(message.get("interaction"), int):
                heard, _ = self._acked.setdefault(message["interaction"], (asyncio.Event(), now))
                heard.set()
        elif kind == "let_go" and isinstance(message.get("game"), int):
            self.bot.tables.let_go(message["game"])  # its place's presses arrive elsewhere
        elif kind == "language" and isinstance(message.get("user"), int):
            languages = getattr(self.bot, "languages", None)
            if languages is not None:
                await languages.refresh(message["user"])

    async def _take(self) -> None:
        store = self.bot.store
        for data in await store.queued_relayed_presses(self.plan.ids or ()):
            press_id = data.get("press_id")
            if press_id in self._in_hand:
                continue
            try:
                press = RelayedPress.from_message(data)
            except (KeyError, TypeError, ValueError):
                log.warning("dropped a malformed relayed press: %r", data)
                await store.drop_relayed_press(press_id)
                continue
            if time.time() - press.at > INTERACTION_SECONDS:
                log.info("dropped a press on game %s made %d s ago: its token has expired",
                         press.game_id, time.time() - press.at)
                await store.drop_relayed_press(press_id)
                continue
            self._in_hand.add(press_id)
            task = asyncio.create_task(self._play(press), name=f"relayed press {press.game_id}")
            self._playing.add(task)
            task.add_done_callback(self._playing.discard)

    async def _play(self, press: RelayedPress) -> None:
        """Play a queued press; it leaves the queue with its move, or once it was answered."""
        try:
            with speaking(press.language):
                await self.play(press)
            self.played += 1
            if press.press_id is not None:  # still queued when it made no move (refused)
                await self.bot.store.drop_relayed_press(press.press_id)
        except Exception:
            log.exception("a relayed press on game %s failed", press.game_id)
        finally:
            self._in_hand.discard(press.press_id)
