"""Turn alerts: the one short new message that tells a player their turn began (a DM when their
hand comes by DM, else a ping in the channel), since the edits that keep the table and the hands
up to date notify nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_ui.delivery import RestBudget, Sequencer, fixed_nonce
from bot.discord_ui.feeds import Feed, Marks, _when, ping
from bot.i18n import speaking, t
from bot.tables import Table

ALERT_SPACING = 1.0
"""Seconds between two turn alerts of one table: a DM channel takes five messages in five seconds
(against the AI, a fast player's turn can come back several times a second)."""
FIRST_HAND_WAIT = 10.0
"""Seconds a turn alert waits for the player's first hand DM, so that it comes below the hand."""


class TurnAlerts:
    """The turn alerts of :class:`~bot.discord_ui.publisher.TablePublisher`, one of its mixins.

    Turn alerts notify a player only when they are not already looking: not within
    :attr:`looking_seconds` of their last press at the table, not while an earlier notice of
    this table is unanswered (that one is edited instead: an edit does not notify), and a player
    without DMs, whose alert is a ping in the channel, only once their turn has waited
    :attr:`channel_wait` seconds."""

    looking_seconds: float = 60.0
    channel_wait: float = 30.0

    # The publisher's own, typed here: importing its module from here would be a cycle.
    bot: discord.Client
    budget: RestBudget
    _feeds: dict[int, Feed]
    _posts: Sequencer
    feed: Callable[[Table], Feed]
    marks: Callable[[Table], Marks]
    _load: Callable[[Table], Awaitable[Marks]]
    _save: Callable[[Table], None]
    public_language: Callable[[Table], str]
    owner_language: Callable[[Table, int], str]

    # Edits do not notify, so a player whose turn begins gets one short new message: a DM when
    # their hand comes by DM, else a ping in the channel. Each table keeps at most one alert
    # alive (the previous one is deleted as the turn passes on, the last one at the end), and
    # the alert is keyed by whose turn began at which move, so moves within one turn do not
    # alert again and alerts queued under load collapse into the newest one. Alerts keep their
    # own order per table: a DM channel's rate limit must not hold up a race call or a summary.
    def _queue_turn_alert(self, table: Table) -> None:
        # Every call of the port queues one, so the game's memory exists from then until its end
        # is shown: an alert job finding none knows the game's last alert went with it.
        feed = self.feed(table)
        if not feed.alert_queued:
            feed.alert_queued = True
            self._posts.queue(("alert", table.game_id), lambda: self._turn_alert(table))

    def _dealt(self, table: Table, seat: int) -> asyncio.Event:
        return self.feed(table).dealt.setdefault(seat, asyncio.Event())

    def _alert_wanted(self, table: Table) -> tuple[int, int, int | None] | None:
        """The alert the table should show now: (seat, move the turn began, warned move)."""
        seat = table.turn_seat  # read with the deadline, never from a move being stored
        if table.finished or seat is None:
            return None
        warned = self.feed(table).warned_seq
        return seat, table.turn_since, warned if warned == table.seq else None

    async def _turn_alert(self, table: Table) -> None:
        feed = self._feeds.get(table.game_id)
        if feed is None:
            return  # its end is shown: its last alert went with it
        feed.alert_queued = False
        marks = await self._load(table)
        want = self._alert_wanted(table)
        seat = want[0] if want is not None else None
        if seat is not None and seat not in marks.private and seat not in marks.hands:
            # The first hand DM first (the alert sits below it; a refused DM is known by then).
            # Bounded: a hand that cannot be sent must not hold up the table's other posts.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dealt(table, seat).wait(), FIRST_HAND_WAIT)
            want = self._alert_wanted(table)
        # A timeout warning never waits: it comes once a move, seconds before the move is played.
        pause = ALERT_SPACING - (time.monotonic() - feed.alert_sent_at)
        if want is not None and want[2] is None and _alert_key(marks.alert) != want and pause > 0:
            await asyncio.sleep(pause)  # alerts keep their pace; the turn may move on meanwhile
            want = self._alert_wanted(table)
        if _alert_key(marks.alert) == want:
            return
        if want is None:
            await self._replace_alert(table, None, None)
            return
        seat = want[0]
        old = marks.alert
        mine = old is not None and old["seat"] == seat  # the alert alive is this player's
        if self._answered(feed, want):
            if old is not None and not mine:
                await self._replace_alert(table, None, None)
            return
        now = time.monotonic()
        quiet = self.quiet(table, feed, want, now)
        if quiet > now:  # they are looking, or their channel ping waits: look again then
            if old is not None and not (mine and self._unanswered(feed, seat)):
                await self._replace_alert(table, None, None)  # it no longer says anything true
            self._look_again(table, feed, quiet - now)
            return
        if self._unanswered(feed, seat) and (want[2] is None or seat in feed.alerted):
            # One unanswered notice per player and table: the alert they have is brought up to
            # date (an edit does not notify), or, gone as the turn passed, not sent again; their
            # first hand DM, when that was the notice, already shows the turn and its deadline
            # (only the warning that the bot will play for them comes after it).
            if mine:
                await self._edit_alert(table, want, old)
            else:
                await self._replace_alert(table, None, None)
            return
        await self._replace_alert(table, None, None)  # the previous alert goes first
        await self.budget.ready()  # under load the turn may move on while this waits
        if self._alert_wanted(table) != want or self._answered(feed, want):
            return  # the turn moved on while this waited: the job queued since sends the newest
        user = table.players[seat]
        msg = None
        sent_at = time.monotonic()  # a press while the send is under way answers it
        # One nonce per alert: tried again after a cut connection that Discord had taken it
        # before, it is the alert already sent, not a second ping.
        nonce = fixed_nonce("ha", table.game_id, *want, feed.alerts_sent)
        if seat not in marks.private:
            try:
                msg = await self._send_turn_dm(table, seat, warned=want[2] is not None, nonce=nonce)
            except discord.Forbidden:
                marks.private.add(seat)
                self._save(table)
        if msg is None:
            msg = await self.bot.get_partial_messageable(table.channel_id).send(
                content=self._channel_alert_text(table, seat, want), allowed_mentions=ping(user),
                nonce=nonce)
        feed.alert_sent_at = feed.notified[seat] = sent_at
        feed.alerts_sent += 1
        feed.alerted.add(seat)
        await self._replace_alert(table, want, msg)

    @staticmethod
    def _answered(feed: Feed, want: tuple[int, int, int | None]) -> bool:
        """Whether the player already pressed during the turn ``want`` alerts them to (the alert
        waited in the lane meanwhile): they are at the table, and their move is on its way. A
        timeout warning is never answered so."""
        return want[2] is None and feed.pressed_at.get(want[0], -1) >= want[1]

    def quiet(self, table: Table, feed: Feed, want: tuple[int, int, int | None], now: float) -> float:
        """Until when the alert ``want`` must not notify: a minute after the player's last press
        at this table (they are looking at it), and for a ping in the channel, until their turn
        has waited a while. A timeout warning is never held back."""
        if want[2] is not None:
            return now
        seat = want[0]
        until = feed.looking.get(seat, float("-inf")) + self.looking_seconds
        if seat in self.marks(table).private:
            key = (seat, want[1])
            if feed.turn_began is None or feed.turn_began[0] != key:
                feed.turn_began = (key, now)
            until = max(until, feed.turn_began[1] + self.channel_wait)
        return until

    @staticmethod
    def _unanswered(feed: Feed, seat: int) -> bool:
        """The player was notified by this table and has not pressed anything at it since."""
        return feed.notified.get(seat, float("-inf")) > feed.looking.get(seat, float("-inf"))

    def _look_again(self, table: Table, feed: Feed, delay: float) -> None:
        if feed.alert_timer is not None:
            feed.alert_timer.cancel()
        feed.alert_timer = asyncio.get_running_loop().call_later(
            delay, self._queue_turn_alert, table)

    async def _edit_alert(self, table: Table, want: tuple[int, int, int | None],
                          old: dict[str, int]) -> None:
        """Bring the player's unanswered alert to the turn ``want`` without notifying them."""
        seat = want[0]
        dm = seat not in self.marks(table).private and old["channel"] != table.channel_id
        text = (self._turn_dm_text(table, seat, warned=want[2] is not None) if dm
                else self._channel_alert_text(table, seat, want))
        try:
            msg = await self.bot.get_partial_messageable(old["channel"]).get_partial_message(
                old["message"]).edit(content=text)
        except (discord.NotFound, discord.Forbidden):  # gone: the next alert job sends anew
            await self._replace_alert(table, None, None)
            return
        await self._replace_alert(table, want, msg)

    def _channel_alert_text(self, table: Table, seat: int, want: tuple[int, int, int | None]) -> str:
        user = table.players[seat]
        with speaking(self.public_language(table)):
            if want[2] is not None and folds_on_timeout(table):
                return t("<@{user}>, your move is due {when}: press **My hand**, or you die (fold) "
                         "then.", user=user, when=_when(table.deadline))
            if want[2] is not None:
                return t("<@{user}>, your move is due {when}: press **My hand**, or I play a safe move "
                         "for you then.", user=user, when=_when(table.deadline))
            if table.deadline is not None:
                return t("<@{user}>, it's your turn (due {when}): press **My hand**.", user=user,
                         when=_when(table.deadline))
            return t("<@{user}>, it's your turn: press **My hand**.", user=user)

    async def _send_turn_dm(self, table: Table, seat: int, warned: bool, nonce: str) -> discord.Message:
        """The turn DM, in the DM channel of the player's hand (opened first when there is none)."""
        ref = self.marks(table).hands.get(seat)
        if ref is None:  # no hand DM yet: open the DM channel by the user's id alone
            ref = [int((await self.bot.http.start_private_message(table.players[seat]))["id"]), 0]
        return await self.bot.get_partial_messageable(ref[0]).send(
            content=self._turn_dm_text(table, seat, warned),
            allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)

    def _turn_dm_text(self, table: Table, seat: int, warned: bool) -> str:
        """Where, until when, and a link to the table message."""
        where = f"<#{table.channel_id}>"
        message = self.marks(table).table_message
        with speaking(self.owner_language(table, seat)):
            link = (" " + t("[Go to the table]({url})", url=f"https://discord.com/channels/{table.guild_id}/"
                                                               f"{table.channel_id}/{message}")
                    if message else "")
            if warned and folds_on_timeout(table):
                text = t("⏰ Your move in {channel} is due {when}; then you die (fold this hand).",
                         channel=where, when=_when(table.deadline))
            elif warned:
                text = t("⏰ Your move in {channel} is due {when}; then I play a safe move for you.",
                         channel=where, when=_when(table.deadline))
            elif table.deadline is not None:
                text = t("Your turn in {channel}, due {when}.", channel=where, when=_when(table.deadline))
            else:
                text = t("Your turn in {channel}.", channel=where)
        return text + link

    async def _replace_alert(self, table: Table, key: tuple[int, int, int | None] | None,
                             msg: discord.Message | None) -> None:
        """Delete the table's alert unless it is ``msg``, then remember ``msg`` (None: no alert).
        Which message is the alert is stored, so a restart deletes it when the turn passes
        instead of leaving it behind."""
        marks = self.marks(table)
        old = marks.alert
        if old is not None and (msg is None or old["message"] != msg.id):
            marks.alert = None
            with contextlib.suppress(discord.NotFound, discord.Forbidden):  # already gone
                await self.bot.get_partial_messageable(old["channel"]).get_partial_message(
                    old["message"]).delete()
        if key is not None and msg is not None:
            marks.alert = {"seat": key[0], "since": key[1], "warned": key[2],
                           "channel": msg.channel.id, "message": msg.id}
        if marks.alert != old:
            self._save(table)


def folds_on_timeout(table: Table) -> bool:
    """Whether the player to act dies when their time runs out (the engine's timeout rule)."""
    rule = getattr(table.match.round, "timeout_action", None)
    action = rule() if rule is not None and not table.finished else None
    return action is not None and action.kind == "die"


def _alert_key(alert: dict[str, Any] | None) -> tuple[int, int, int | None] | None:
    return None if alert is None else (alert["seat"], alert["since"], alert.get("warned"))
