"""The table where the app is only a guest: a DM, a group DM, a server that never added the bot.

Discord lets an app there answer interactions and nothing else: no post, edit or DM of its own,
and at most five follow-ups per interaction. So the table is one message, the answer to the
command (or the Accept or Start press) that began the game, and every press on it shows it again
through that press's token, which edits it for 15 minutes. Hands are private answers to each
player's own presses (the same token brings them up to date); round summaries are follow-ups of
the latest press that may still send one. When every token of a table has expired, its moves are
stored all the same and the next press on the table shows it again: nothing is lost, and no
request is made that Discord would refuse.

A private table (a game of the day's deal, in a server the bot is in) is shown the same way, so
that only its player ever sees it: the command's answer is private, and so is every follow-up.

The drawing, the controls and the pacing are the channel surface's
(:class:`~bot.discord_ui.publisher.TablePublisher`); this class changes only how messages are
reached.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_ui.answer import press_defer
from bot.discord_ui.parts import png
from bot.discord_ui.places import scope_of
from bot.discord_ui.publisher import (
    INTERACTION_SECONDS,
    Feed,
    Shown,
    TablePublisher,
    Via,
    _first,
    _hash,
    token_clock,
)
from bot.discord_ui.tokens import Token
from bot.store import StoreError
from bot.store.surfaces import TABLE_ROW
from bot.tables import ANSWERED_HOMES, HOME_GUEST, HOME_PRIVATE, Table, is_ai

log = logging.getLogger(__name__)

FOLLOWUPS = 5
"""Follow-ups Discord allows an app per interaction where it is not a member."""


class NoToken(Exception):
    """No press of the table has a live token with a follow-up left."""


class GuestSurface(TablePublisher):
    """Shows the tables whose home is a guest place, through interaction tokens only."""

    surface_name = HOME_GUEST

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sent: dict[int, tuple[float, int]] = {}  # interaction id -> (since, follow-ups sent)
        self._owed: dict[int, list[Callable[[], Awaitable[None]]]] = {}  # game id -> posts kept

    def shows(self, table: Table) -> bool:
        return table.home in ANSWERED_HOMES

    def let_go(self, table: Table) -> None:
        super().let_go(table)
        self._owed.pop(table.game_id, None)

    def _kept_ways(self, feed: Feed) -> dict[int, dict[str, Any]]:
        """The hands' ways in, and the table's: here no message has another."""
        ways = super()._kept_ways(feed)
        note = feed.table_via.note() if feed.table_via is not None else None
        return {**ways, TABLE_ROW: note} if note is not None else ways

    def public_language(self, table: Table) -> str:
        """A guest place has no server language: the table speaks its host's."""
        languages = getattr(self.bot, "languages", None)
        return languages.of_user(table.host_id) if languages is not None else "en"

    # -- the port ---------------------------------------------------------------------------
    async def _show_first(self, table: Table, via: discord.Interaction | None) -> None:
        """The start's answer (or the lobby message the start was pressed on) becomes the table."""
        feed = self.feed(table)
        feed.loaded = True
        feed.marks.private = {s for s, p in enumerate(table.players) if not is_ai(p)}
        if via is None:
            # A private table started on another surface (the Activity's lobby) is shown here
            # once its player asks for it (show_again); a guest table starts by an interaction.
            if table.home != HOME_PRIVATE:
                log.error("game %s: a guest table started without an interaction", table.game_id)
            return
        await self._answer_with_table(table, via)

    async def show_again(self, table: Table, via: discord.Interaction) -> None:
        """A private table's player asked for it again (its message gone from their screen, or
        every token of it expired): ``via``'s deferred answer becomes the table from now on, and
        their hand follows privately, both drawn from the state the table service holds."""
        await self._load(table)
        await table.settled.wait()
        token = await self._answer_with_table(table, via)
        self._token_came(table)
        seat = table.seat_of(token.user_id)
        if seat is not None and not table.finished:
            self._posts.queue(("hand", table.game_id),
                              lambda: self.show_hand_privately(table, seat, token))

    async def _answer_with_table(self, table: Table, via: discord.Interaction) -> Token:
        """The table as ``via``'s deferred answer, whose token shows it from now on."""
        update = self._table_update(table)
        image = await self.draw(update)
        msg = await via.edit_original_response(
            **update.fields, attachments=[png(image, update.filename)],
            allowed_mentions=discord.AllowedMentions.none())
        feed = self.feed(table)
        token = Token(via)
        feed.table_via = Via(token, msg.id)
        feed.marks.table = [msg.channel.id, msg.id]
        feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))
        self._save(table)
        return token

    def deliver_hands(self, table: Table) -> None:
        """The player whose press started the game gets their hand at once, privately; the
        others open theirs with My hand (the app cannot send them anything unasked)."""
        via = self.feed(table).table_via
        seat = table.seat_of(via.token.user_id) if via is not None else None
        if seat is not None:
            self._posts.queue(("hand", table.game_id),
                              lambda: self.show_hand_privately(table, seat, via.token))

    def refresh(self, table: Table) -> None:
        super().refresh(table)
        self._posts.queue(("hand", table.game_id), lambda: self._deal_unknown_hand(table))

    async def _deal_unknown_hand(self, table: Table) -> None:
        """The hand of the player whose press is the table's way in, when nothing reaches their
        hand: the follow-up that press sent it by was cut after Discord took it and a stop came
        before it was sent again (follow-ups take no nonce, so the bot never learnt of it). It
        is sent again through that press; a copy the bot never learnt of that is pressed on
        becomes the hand (:meth:`pressed_earlier`) and this one loses its controls."""
        feed = self.feed(table)
        await self._load(table)
        via = feed.table_via
        seat = table.seat_of(via.token.user_id) if via is not None and via.fresh else None
        if seat is None or table.finished or seat not in feed.marks.private or seat in feed.dealing:
            return
        hand = feed.hand_via.get(seat)
        if hand is None or not hand.fresh:
            await self.show_hand_privately(table, seat, via.token)

    def show_move(self, table: Table, events: list[dict]) -> None:
        self._queue_event_posts(table, events)
        seat = table.match.current_player
        if seat is not None and is_ai(table.players[seat]) and not table.match.is_over \
                and not table.in_race:
            return  # the AI answers at once: its move and this one show in one update
        self._mark_hands(table)
        self._mark_table(table)

    def pressed(self, table: Table, seat: int, via: Via) -> None:
        super().pressed(table, seat, via)
        self._token_came(table)

    # -- presses on the table -----------------------------------------------------------------
    def table_pressed(self, table: Table, interaction: discord.Interaction) -> Token:
        """A press on the table message, answered with a deferred update: its token shows the
        table from now on (brought to the stored state at once, after a restart or a long wait).
        Returns that token, which the player's private hand is sent with."""
        token = Token(interaction)
        message = interaction.message
        if message is None:
            return token
        feed = self.feed(table)
        feed.table_via = Via(token, message.id)
        if feed.loaded and feed.marks.table is None:
            feed.marks.table = [message.channel.id, message.id]
        self._save(table)  # and the token, the table's way in after a crash
        self._mark_table(table)
        self._token_came(table)
        return token

    async def show_hand_privately(self, table: Table, seat: int, token: Token) -> None:
        """The hand as a private follow-up of the player's own press; that press's token keeps it
        up to date from then on."""
        feed = self.feed(table)
        feed.dealing.add(seat)
        try:
            await self._load(table)
            await table.settled.wait()  # moves offered under the number they will be stored with
            update = self._hand_update(table, seat)
            image = await self.draw(update)
            self._count(token)
            msg = await token.followup.send(ephemeral=True, wait=True, view=update.view,
                                            file=png(image, update.filename))
        finally:
            feed.dealing.discard(seat)
        self._hand_moves_to(table, seat, Via(token, msg.id, followup=True))
        feed.looking[seat] = time.monotonic()
        feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))
        # A move made while this copy was drawn went to no copy at all: catch up.
        self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))

    async def show_ended(self, interaction: discord.Interaction, game_id: int) -> bool:
        """A press on the table of a game that ended while no token could show it (a turn timer,
        a forfeit or the AI ended it while the table was left alone): the press's answer shows
        the final table, from how the store kept the game's end. False, with nothing answered,
        when the game is not an ended guest game of this place shown on this message."""
        message = interaction.message
        store = getattr(self.bot, "store", None)
        if message is None or store is None:
            return False
        try:
            record = await store.load_game(game_id, scope=scope_of(interaction), with_events=False)
        except StoreError:
            return False
        if record.status == "running" or record.channel_id != interaction.channel_id:
            return False
        table = Table.from_record(record)
        if table.home not in ANSWERED_HOMES or table.closing is None:
            return False
        await press_defer(interaction)
        try:
            update = self._table_update(table)
            image = await self.draw(update)
            await interaction.edit_original_response(**update.fields,
                                                     attachments=[png(image, update.filename)])
        finally:
            self._feeds.pop(game_id, None)  # an ended game keeps no memory here
        return True

    # -- what a guest cannot do ---------------------------------------------------------------
    def _queue_turn_alert(self, table: Table) -> None:
        """No alerts: a guest may not post or send DMs. The table says whose turn it is, and the
        player's own hand, while its token lives, shows their moves."""

    async def _bring_table_up_to_date(self, table: Table) -> None:
        feed = self.feed(table)
        marks = await self._load(table)
        via = feed.table_via if feed.table_via is not None and feed.table_via.fresh else None
        if via is None:
            return  # every token has expired: the next press on the table shows it
        await table.settled.wait()
        update = self._table_update(table)
        shown = await self._apply(feed, marks.table_message, update, via, None, self._table_key(table))
        if shown is None:
            feed.table_via = None
            self._save(table)  # its token, kept for a start, no longer reaches it
        elif marks.table_message is None:  # the start's answer, shown by this try
            marks.table = [table.channel_id, shown]
            self._save(table)

    async def _send(self, table: Table, **kwargs: Any) -> discord.Message:
        """A one-off post as a follow-up of the table's latest press that may still send one,
        once that press is answered; :class:`NoToken` when there is none (the post waits for the
        next press, which flushes it while its own answer may still be on its way)."""
        via = self._sender(table)
        if via is None:
            raise NoToken()
        if via.answered is not None:  # Discord refuses a follow-up before the press's answer
            await via.answered.wait()
        token = via.token
        kwargs.pop("nonce", None)  # follow-ups take none; the store's note keeps them single
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        self._count(token)
        if not token.public or table.home == HOME_PRIVATE:
            kwargs["ephemeral"] = True  # a table only its player may see
        return await token.followup.send(wait=True, **kwargs)

    def _queue_post(self, table: Table, job: Callable[[], Awaitable[None]]) -> None:
        self._posts.queue(table.game_id, lambda: self._or_later(table, job))

    async def _or_later(self, table: Table, job: Callable[[], Awaitable[None]]) -> None:
        """Run a post now, or keep it, in its order, for the next press when no token can send it."""
        owed = self._owed.get(table.game_id)
        if owed:
            owed.append(job)
            return
        try:
            await job()
        except NoToken:
            self._owed.setdefault(table.game_id, []).append(job)

    async def _forget_when_done(self, table: Table) -> None:
        await super()._forget_when_done(table)
        if table.finished:  # no press of a game over brings a token: what it still owes goes too
            self._owed.pop(table.game_id, None)

    async def _flush(self, table: Table) -> None:
        """The posts kept for want of a token, in order, now that a press brought one."""
        owed = self._owed.pop(table.game_id, [])
        while owed:
            try:
                await owed[0]()
            except NoToken:
                self._owed[table.game_id] = owed + self._owed.pop(table.game_id, [])
                return
            owed.pop(0)

    # -- tokens -------------------------------------------------------------------------------
    def _sender(self, table: Table) -> Via | None:
        """The freshest token of the table with a follow-up left (Discord allows five each): a
        press's, perhaps, still on its way to its answer (:attr:`Via.answered`)."""
        feed = self.feed(table)
        best: Via | None = None
        for via in [feed.table_via, *feed.hand_via.values()]:
            if via is None or not via.fresh:
                continue
            sent = self._sent.get(via.token.id, (0.0, 0))[1]
            if sent < FOLLOWUPS and (best is None or via.since > best.since):
                best = via
        return best

    def _count(self, token: Token) -> None:
        now = token_clock()
        since, sent = self._sent.get(token.id, (now, 0))
        self._sent[token.id] = (since, sent + 1)
        if len(self._sent) > 256:  # a token's count outlives it by no more than its 15 minutes
            self._sent = {k: v for k, v in self._sent.items() if now - v[0] < INTERACTION_SECONDS}

    def _token_came(self, table: Table) -> None:
        if table.game_id in self._owed:
            self._posts.queue(table.game_id, lambda: self._flush(table))
