"""What a running table shows in Discord: the channel message, each player's hand, one-off posts.

:class:`bot.tables.TableManager` tells the publisher *that* something changed and goes on; the
publisher brings each message to the table's current state later (:mod:`bot.discord_ui.delivery`): images
are drawn in worker processes, an update identical to what a message shows is skipped, an image
identical to the one on the message is not uploaded again, and every request subject to Discord's
global rate limit waits, in the bot's HTTP client, for the shared
:class:`~bot.discord_ui.delivery.RestBudget`. Messages reachable
through a recent interaction (the table as the answer to the command that started it, a hand
through the player's last press) are edited with that interaction's token, which Discord does not
count against the global limit.

This module is the table message and the surface's entry points; :class:`TablePublisher` is put
together from mixins by concern: the hands (:mod:`bot.discord_ui.hands`), the turn alerts
(:mod:`bot.discord_ui.alerts`) and the one-off posts (:mod:`bot.discord_ui.posts`). What it
remembers of each table is in :mod:`bot.discord_ui.feeds`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace
from typing import Any

import discord

from bot import metrics, presenter
from bot.achievement_text import daily_line, earned_line, series_line
from bot.discord_ui.alerts import TurnAlerts
from bot.discord_ui.controls import (
    ActivityButton,
    CancelButton,
    ForfeitButton,
    HandButton,
    RulesButton,
)
from bot.discord_ui.delivery import Coalescer, RestBudget, Retry, Sequencer, fixed_nonce, passing
from bot.discord_ui.fair import add_deal
from bot.discord_ui.feeds import (
    INTERACTION_SECONDS,
    Feed,
    Marks,
    Shown,
    Update,
    Via,
    _first,
    _hash,
    _when,
    ping,
    token_clock,
)
from bot.discord_ui.hands import Hands, shows
from bot.discord_ui.layout import Card, components_of, layout
from bot.discord_ui.parts import ACCENT, png, rematch_face, share_face
from bot.discord_ui.posts import Posts, summary_title
from bot.discord_ui.text import shown
from bot.discord_ui.tokens import Token
from bot.i18n import number, speaking, t
from bot.presenters.base import final_table, result_headline, score_line
from bot.settlement import is_betting, stake_text
from bot.store import StoreError
from bot.store.surfaces import TABLE_ROW, SurfaceNotes
from bot.tables import HOME_CHANNEL, HOME_PRIVATE, LOG_LENGTH, RETRY_DELAYS, Table, is_ai
from bot.words import plural
from rendering import render_table

# What other modules import from here, part of it defined in the modules of its mixins.
__all__ = ["INTERACTION_SECONDS", "SURFACE", "Feed", "Marks", "Shown", "TablePublisher", "Update",
           "Via", "ping", "summary_title", "token_clock"]

log = logging.getLogger(__name__)

SURFACE = "discord"
"""This surface's name in the store's notes (:mod:`bot.store.surfaces`)."""
FIND_TABLE_AMONG = 50  # the channel's latest messages a table with no note is looked for among


class TablePublisher(Hands, TurnAlerts, Posts):
    """Renders and sends what tables show: the Discord surface of :class:`bot.tables.surface.TableSurface`.

    Its hands, turn alerts and one-off posts are its mixins (:class:`~bot.discord_ui.hands.Hands`,
    :class:`~bot.discord_ui.alerts.TurnAlerts`, :class:`~bot.discord_ui.posts.Posts`)."""

    surface_name: str = SURFACE  # its notes' name in the store

    def __init__(self, bot: discord.Client, budget: RestBudget | None = None,
                 retry: Retry | None = None, notes: SurfaceNotes | None = None) -> None:
        self.bot = bot
        self.budget = budget or RestBudget()
        self.retry = retry or Retry(passing)
        self._feeds: dict[int, Feed] = {}
        # Table pictures take turns (gated, see table_turns), hands never do, and under load a
        # table's pending states merge into one drawing. A turn ends once the picture is drawn
        # and the edit paid (_apply).
        self._updates = Coalescer(self.retry, gate=self.table_turns)
        self._posts = Sequencer(self.retry)
        store = getattr(bot, "store", None)
        # Where games are shown is this surface's own memory, kept through its part of the store.
        self.notes: SurfaceNotes | None = notes or (store.surface_notes(self.surface_name) if store else None)
        self._restored: dict[int, dict[int, dict[str, Any]]] = {}  # notes read at start, by game
        self._saving: dict[int, asyncio.Future[None]] = {}  # games whose notes are being stored
        self._closed = False

    # -- rendering --------------------------------------------------------------------------
    def table_turns(self) -> int:
        """How many table pictures may be drawn at once: one per render worker while no drawing
        waits for a worker, one fewer while one does. A hand then waits behind one table
        picture at most, and when the machine is full (every worker busy) the tables' pending
        states merge while the hands go first."""
        pool = getattr(self.bot, "render_pool", None)
        workers = getattr(pool, "processes", 2)
        return workers - 1 if getattr(pool, "waiting", 0) else workers

    async def render(self, draw: Callable[..., bytes], *args: Any) -> bytes:
        """Pixels in the bot's worker processes (never on the event loop's GIL)."""
        pool = getattr(self.bot, "render_pool", None)
        with metrics.rendering():
            if pool is not None:
                return await pool.run(draw, *args)
            return await asyncio.to_thread(draw, *args)

    async def draw(self, update: Update) -> bytes:
        """The update's image, drawn once per distinct picture of a message: a hand that an
        opponent's move did not change is not drawn again."""
        last = update.feed.drawn.get(update.slot) if update.feed is not None else None
        if last is not None and last[0] == update.model:
            return last[1]
        image = await self.render(update.draw, update.model)
        if update.feed is not None:
            update.feed.drawn[update.slot] = (update.model, image)
        return image

    def feed(self, table: Table) -> Feed:
        feed = self._feeds.get(table.game_id)
        if feed is None:
            feed = self._feeds[table.game_id] = Feed()
            rows = self._restored.pop(table.game_id, None)
            if rows is not None or self.notes is None:
                self._remember(feed, rows or {})
        return feed

    def _remember(self, feed: Feed, rows: dict[int, dict[str, Any]]) -> None:
        """The feed's memory from the store's notes: where the game is shown, and the ways in
        that a stop or a crash left behind while their tokens live."""
        feed.marks, feed.loaded, feed.saved = Marks.from_rows(rows), True, dict(rows)
        for row, notes in rows.items():
            via = Via.kept(self.bot, notes["way"]) if isinstance(notes.get("way"), dict) else None
            if via is None:
                continue
            if row == TABLE_ROW:
                feed.table_via = feed.table_via or via
            else:
                feed.hand_via.setdefault(row, via)

    def _kept_ways(self, feed: Feed) -> dict[int, dict[str, Any]]:
        """The ways in the store keeps, by row: a private hand's, which nothing else reaches."""
        return {seat: note for seat in feed.marks.private
                if (via := feed.hand_via.get(seat)) is not None and (note := via.note()) is not None}

    def marks(self, table: Table) -> Marks:
        """Where the game is shown (read from the store first: see :meth:`_load`)."""
        return self.feed(table).marks

    async def restore(self) -> None:
        """Read where every game still to be shown is shown (at start, before the tables resume)."""
        if self.notes is not None:
            self._restored = await self.notes.live()

    async def _load(self, table: Table) -> Marks:
        """The game's marks, read from the store when this process has not shown it yet."""
        feed = self.feed(table)
        if not feed.loaded:
            assert self.notes is not None
            rows = await self.notes.read(table.game_id)
            if not feed.loaded:  # another job may have read them meanwhile
                self._remember(feed, rows)
        return feed.marks

    def where(self, game_id: int) -> tuple[int, int] | None:
        """The channel and message of a game's table, when this process shows it."""
        feed = self._feeds.get(game_id)
        ref = feed.marks.table if feed is not None and feed.loaded else None
        return (ref[0], ref[1]) if ref else None

    def _save(self, table: Table) -> None:
        """Store the game's marks that changed, in the background, one write at a time per game
        (a write under way stores what changed meanwhile once it is done); while the database
        refuses, keep trying (a restart must find every message it has to bring up to date)."""
        if self.notes is not None and table.game_id not in self._saving:
            self._saving[table.game_id] = asyncio.ensure_future(
                self._store_marks(table.game_id, len(table.players), self.feed(table)))

    async def _store_marks(self, game_id: int, seats: int, feed: Feed) -> None:
        assert self.notes is not None
        try:
            for attempt in itertools.count():
                rows = feed.marks.rows(seats)
                for row, way in self._kept_ways(feed).items():
                    rows[row] = {**rows.get(row, {}), "way": way}
                changed = {seat: row for seat, row in rows.items() if feed.saved.get(seat, {}) != row}
                if not changed:
                    return
                try:
                    await self.notes.write(game_id, changed)
                except StoreError:
                    if attempt == 0:
                        log.warning("could not store where game %d is shown; trying again", game_id)
                    if self._closed or self._feeds.get(game_id) is not feed:
                        return  # stopping, or its end is shown: a start needs none of it
                    await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
                    continue
                feed.saved.update(changed)
        finally:  # at once, not in a callback: a change noted after this point starts a new save
            if self._saving.get(game_id) is asyncio.current_task():
                del self._saving[game_id]

    # -- languages --------------------------------------------------------------------------
    def public_language(self, table: Table) -> str:
        """What the table's channel reads: the server's language (``/settings language``, else
        the server's Discord locale)."""
        languages = getattr(self.bot, "languages", None)
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        locale = guild.preferred_locale if guild is not None else None
        return languages.of_guild_now(table.guild_id, locale) if languages is not None else "en"

    def owner_language(self, table: Table, seat: int) -> str:
        """What a seat's own messages read: its player's language (chosen, else their client's)."""
        languages = getattr(self.bot, "languages", None)
        player = table.players[seat]
        return languages.of_user(player) if languages is not None and isinstance(player, int) else "en"

    # -- what the table manager calls ---------------------------------------------------------
    def shows(self, table: Table) -> bool:
        """Every table started in a server channel the bot is a member of is shown here."""
        return table.home == HOME_CHANNEL

    def owns(self, via: Any) -> bool:
        return isinstance(via, (Via, discord.Interaction))

    async def post_table(self, table: Table, via: discord.Interaction | None = None) -> None:
        """The table message of a new game; ``via`` a publicly deferred interaction to answer
        with it (then its token keeps the table up to date for a while). The game is stored by
        now and goes on whatever Discord says: a table that could not be shown (a cut
        connection, a refusal) is left to the deliveries' tries, through ``via``'s token while
        it lives (an edit Discord may already have made), else posted anew as the bot."""
        try:
            await self._show_first(table, via)
        except Exception as exc:
            log.warning("the table of game %d could not be shown at its start (%s); it is tried "
                        "again", table.game_id, exc, exc_info=not passing(exc))
            feed = self.feed(table)
            if via is not None and feed.table_via is None:
                feed.table_via = Via(Token(via), None)
            self._mark_table(table)

    async def _show_first(self, table: Table, via: discord.Interaction | None) -> None:
        feed = self.feed(table)
        feed.loaded = True  # a new game: nothing is shown anywhere yet
        if await self._private_hands(table):
            feed.marks.private = {s for s, p in enumerate(table.players) if not is_ai(p)}
        update = self._table_update(table)
        image = await self.draw(update)
        file = png(image, update.filename)
        if via is not None:
            msg = await via.edit_original_response(**update.fields, attachments=[file],
                                                   allowed_mentions=discord.AllowedMentions.none())
            feed.table_via = Via(Token(via), msg.id)
        else:
            # The nonce a retry's post of the table uses (post_table): one table, should a cut
            # connection have hidden that Discord took this one.
            msg = await self.bot.get_partial_messageable(table.channel_id).send(
                view=update.view, file=file, nonce=fixed_nonce("ht", table.game_id, 0))
        feed.marks.table = [msg.channel.id, msg.id]
        feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))
        self._save(table)

    async def _private_hands(self, table: Table) -> bool:
        """Whether the server shows hands privately rather than by direct message (as last read
        when the database does not answer: it has just been read to start the game)."""
        if self.notes is None:
            return False
        try:
            return await self.notes.private_hands(table.guild_id)
        except StoreError:
            return False

    def deliver_hands(self, table: Table) -> None:
        """Deal the hands: a DM to every human (players whose hands are private, by the server's setting or closed DMs,
        use the My hand button and are pinged on their turn)."""
        self._mark_hands(table)
        self._queue_turn_alert(table)

    def show_move(self, table: Table, events: list[dict]) -> None:
        self._mark_hands(table)
        self._mark_table(table)
        self._queue_event_posts(table, events)
        self._queue_turn_alert(table)

    def show_last_move(self, table: Table, events: list[dict]) -> None:
        """Nothing yet: the final table shows the last move and the result in one update."""

    def show_end(self, table: Table, events: Iterable[dict] = ()) -> None:
        """The final table (drawn once, naming the result) and hands without controls."""
        self._mark_table(table)
        self._mark_hands(table)
        self._queue_event_posts(table, list(events))
        self._queue_turn_alert(table)  # the last alert goes with the game
        self._posts.queue(table.game_id, lambda: self._forget_when_done(table))

    def refresh(self, table: Table) -> None:
        """Bring the table and every hand to the table's state (after a restart, or when the
        move's deadline changed); the turn alert too."""
        self._mark_table(table)
        self._mark_hands(table)
        self._queue_turn_alert(table)

    def warn(self, table: Table, seat: int, seconds: int) -> None:
        """The move's time is nearly up: the turn alert is replaced by a warning saying when."""
        if table.turn_seat == seat:
            self.feed(table).warned_seq = table.seq
            self._queue_turn_alert(table)

    def let_go(self, table: Table) -> None:
        """Another process shows the table from now on: its feed goes, and with it its turn
        alert's timer; an update still queued finds no table message or token to show it by."""
        feed = self._feeds.pop(table.game_id, None)
        if feed is not None and feed.alert_timer is not None:
            feed.alert_timer.cancel()

    def pressed(self, table: Table, seat: int, via: Via) -> None:
        """The player pressed a control on their hand: they are looking, and their hand is
        updated through the press (:meth:`via_press`)."""
        feed = self.feed(table)
        self._hand_moves_to(table, seat, via)
        feed.looking[seat] = time.monotonic()
        feed.pressed_at[seat] = table.seq

    def pressed_earlier(self, table: Table, seat: int, via: Via) -> None:
        """A move pressed on a copy of the hand that fell behind (an update a crash or a lost
        answer kept from it, a copy the bot never learnt of): that copy, reached through the
        press once it is answered, is the seat's hand from now on and shows the table's state."""
        self._hand_moves_to(table, seat, via)
        self.feed(table).looking[seat] = time.monotonic()
        self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))

    async def drain(self) -> None:
        """Wait until everything marked or queued was delivered (tests, shutdown)."""
        while self._updates.pending() or self._posts._tails or self._saving:
            await self._updates.drain()
            await self._posts.drain()
            await asyncio.gather(*list(self._saving.values()), return_exceptions=True)

    def close(self) -> None:
        self._closed = True
        for feed in self._feeds.values():
            if feed.alert_timer is not None:
                feed.alert_timer.cancel()
        self._updates.cancel()
        self._posts.cancel()
        for task in self._saving.values():
            task.cancel()

    async def _forget_when_done(self, table: Table) -> None:
        """A finished table's memory goes once its last updates went out."""
        keys = [("table", table.game_id), *(("hand", table.game_id, s) for s in range(len(table.players)))]
        await self._updates.settle(keys)
        await self._posts.settle(("alert", table.game_id))  # the last alert goes with the game
        if table.finished:
            feed = self._feeds.pop(table.game_id, None)
            if feed is not None and feed.alert_timer is not None:
                feed.alert_timer.cancel()
            try:
                if self.notes is not None:
                    await self.notes.end_shown(table.game_id)
            except StoreError:  # shown again at the next start: no harm but a repeated edit
                log.warning("could not note that game %d shows its end", table.game_id)

    # -- the table message ------------------------------------------------------------------
    @staticmethod
    def _table_key(table: Table) -> tuple[str, int]:
        return ("table", table.game_id)

    def _mark_table(self, table: Table) -> None:
        self._updates.mark(self._table_key(table), lambda: self._bring_table_up_to_date(table),
                           gated=True)

    async def _bring_table_up_to_date(self, table: Table) -> None:
        feed = self.feed(table)
        marks = await self._load(table)
        await table.settled.wait()  # never a move the store has not taken yet
        update = self._table_update(table)
        via = feed.table_via if feed.table_via and feed.table_via.fresh else None
        channel = self.bot.get_partial_messageable(table.channel_id)
        shown_id = marks.table_message
        if shown_id is None and via is None and (shown_id := await self._find_table(table, channel)):
            marks.table = [table.channel_id, shown_id]
            self._save(table)
        target = channel.get_partial_message(shown_id) if shown_id else None
        turn = self._table_key(table)
        new_id = await self._apply(feed, shown_id, update, via, target, turn)
        if via is not None and new_id is None:
            feed.table_via = None  # the token no longer works: edit as the bot from now on
            new_id = await self._apply(feed, shown_id, update, None, target, turn)
        if new_id is not None and shown_id is None:  # the start's answer, shown by this try
            marks.table = [table.channel_id, new_id]
            self._save(table)
        if new_id is None:  # the message is gone: post the table anew
            image = await self.draw(update)
            # Under a nonce fixed by the message it replaces: tried again after a cut connection
            # that Discord had taken it before, it is the message already posted, not a second.
            nonce = fixed_nonce("ht", table.game_id, shown_id or 0)
            with self.budget.then(lambda: self._updates.release(turn)):
                msg = await channel.send(view=update.view, file=png(image, update.filename), nonce=nonce)
            marks.table = [msg.channel.id, msg.id]
            self._save(table)
            if shows(msg, update):
                feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))
            else:  # the one posted by the try that was cut, as it was then: brought up to date
                self._mark_table(table)

    async def _find_table(self, table: Table, channel: discord.PartialMessageable) -> int | None:
        """The table message of a game that has none noted, among the channel's latest: the
        start's answer that became the table, whose id a cut connection hid before the process
        stopped (its token went with it). Only asking Discord tells; without it a second table
        would be posted beside the first."""
        me = self.bot.user.id if self.bot.user is not None else None
        mine = f"hf:hand:{table.game_id}"
        try:
            async for message in channel.history(limit=FIND_TABLE_AMONG):
                if message.author.id == me and any(getattr(c, "custom_id", None) == mine
                                                   for c in components_of(message)):
                    log.info("found the table of game %d in its channel", table.game_id)
                    return message.id
        except (discord.Forbidden, discord.NotFound):  # may not read it: the table is posted
            pass
        return None

    def _table_update(self, table: Table) -> Update:
        with speaking(self.public_language(table)) as language:
            return self._table_update_in(table, language)

    def _table_update_in(self, table: Table, language: str) -> Update:
        obs = table.match.observation(0)
        names = [shown(n) for n in table.names]
        log = [*table.legacy_log, *presenter.log_lines(table.game, table.recent, names)][-LOG_LENGTH:]
        # The picture and its description read names as typed (neither renders markdown).
        plain = [*table.legacy_log, *presenter.log_lines(table.game, table.recent, table.names)]
        closing = table.closing
        if closing is None:
            last = plain[-1] if plain else t("The cards are dealt.")
            model = presenter.table_view(obs, table.names, last_move=plain[-1] if plain else "")
        else:  # the final picture names the result instead of a turn
            last = self._result_line(table, closing)
            model = final_table(presenter.table_view(obs, table.names), last, closing.get("winners", ()))
        model = replace(model, language=language)
        lines = [*filter(None, [table.headline[:1000]]), *(log or [t("The cards are dealt.")])]
        card = Card(title=model.title, colour=ACCENT, description="\n".join(lines), image="table.png",
                     alt=f"{model.title}. {last}")
        unit = "chip" if is_betting(table.game) else "point"  # a betting game's score is its chips
        for seat, name in enumerate(names):
            card.add_field(name=name[:256], value=plural(table.match.scores[seat], unit), inline=True)
        race = getattr(presenter.for_game(table.game), "race_prompt", None)
        if race and table.in_race and closing is None:
            card.add_field(name=t("Slap race"), value=race(obs, names)[:1024], inline=False)
        if closing is not None:
            card.add_field(name=t("Result"), value=self._result_text(table, closing)[:1024], inline=False)
        add_deal(card, table.deal, table.game_id, ended=closing is not None)
        if closing is None:
            seat = table.match.current_player
            if seat is not None:
                turn = t("Slap race!") if table.in_race else t("{name} to play", name=names[seat])
                footer = t("{turn} · move {move}", turn=turn, move=table.seq)
                if table.stake:
                    footer += f" · {stake_text(table.game, table.stake)}"
                card.set_footer(text=footer)
            due = table.turn_seat
            if due is not None and table.deadline is not None:
                card.add_field(name=t("Turn"), inline=False, value=t(
                    "**{name}** to play, due {when}", name=names[due][:900], when=_when(table.deadline)))
        items = self._final_view(table) if closing is not None else self._table_view(table)
        return Update(layout(card, items), render_table, model, "table.png", self.feed(table))

    def _table_view(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The same buttons for the whole game; Play in the Activity where the bot serves one (not
        for a private table, which only its player may see, on Discord)."""
        launch = [ActivityButton(table.game_id)] if getattr(self.bot, "activity_server", None) \
            and table.home != HOME_PRIVATE else []
        return [HandButton(table.game_id), RulesButton(table.game), ForfeitButton(table.game_id),
                CancelButton(table.game_id), *launch]

    @staticmethod
    def _final_view(table: Table) -> list[discord.ui.Item[Any]]:
        """The final table's controls: Rematch after a finished match (none after a cancelled one
        or one that only AI seats played); a private one, a game of the day's deal, played once,
        offers to share its result with the channel instead."""
        closing = table.closing or {}
        if table.home == HOME_PRIVATE:
            place = getattr(closing.get("outcome"), "daily", None)
            return [share_face(table.game_id)] if place is not None and place.margin is not None else []
        if closing.get("cancelled") or not any(isinstance(p, int) for p in table.players):
            return []
        return [rematch_face(table.game_id)]

    def _result_line(self, table: Table, closing: dict[str, Any]) -> str:
        """The result on the final image: who won and the score (plain text, raw names)."""
        headline = result_headline(closing, table.names)
        if closing.get("cancelled"):
            return headline
        return f"{headline} · {score_line(table.match.scores, table.names)}"

    def _result_text(self, table: Table, closing: dict[str, Any]) -> str:
        names = [shown(n) for n in table.names]
        lines = [f"**{result_headline(closing, names)}**"]
        if not closing.get("cancelled"):
            order = sorted(range(len(names)), key=lambda s: -table.match.scores[s])
            lines += [f"{i + 1}. {names[s]}: {plural(table.match.scores[s], 'point')}" for i, s in enumerate(order)]
            outcome = closing.get("outcome")
            if outcome is not None and table.escrow:
                # Net of what each member put in escrow: a payout that returns the stake too
                # is not all a gain ("+40" for a net 20).
                paid = getattr(outcome, "payouts", {})
                net = {s: paid.get(s, 0) - table.escrow for s, p in enumerate(table.players)
                       if not is_ai(p)}
                if any(net.values()):
                    lines.append(t("Chips: {payouts}", payouts=", ".join(
                        f"{names[s]} {number(v, signed=True)}" for s, v in net.items() if v)))
            if outcome is not None and (earned := getattr(outcome, "achievements", None)):
                members = {p: names[s] for s, p in enumerate(table.players) if not is_ai(p)}
                lines.append(earned_line(earned, members))
            if outcome is not None and (series := getattr(outcome, "series", None)):
                lines.append(series_line(series, table.players, names))
            if outcome is not None and (place := getattr(outcome, "daily", None)):
                lines.append(daily_line(place))
        return "\n".join(lines)

    # -- sending ----------------------------------------------------------------------------
    async def _send(self, table: Table, **kwargs: Any) -> discord.Message:
        """A one-off post of the table's (a summary, the race's call) in its channel."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        return await self.bot.get_partial_messageable(table.channel_id).send(**kwargs)

    async def _apply(self, feed: Feed, message_id: int | None, update: Update, via: Via | None,
                     target: discord.PartialMessage | None, turn: Hashable | None = None) -> int | None:
        """Bring one message to ``update`` through ``via`` (its token) or as the bot (``target``);
        the id of the message shown, or None when it could not be reached. A gated job passes
        its key as ``turn``: its turn ends once the picture is drawn and the edit has its budget
        token, so neither the channel's bucket nor Discord's answer holds up another table."""
        if via is None and target is None:
            return None
        image = await self.draw(update)
        image_hash = _hash(image)
        digest = update.digest(image_hash)
        current = feed.shown.get(message_id) if message_id is not None else None
        if current is not None and current.digest == digest:
            return message_id  # it already shows exactly this
        same_image = current is not None and current.image == image_hash and current.attachment is not None
        attachments = [current.attachment] if same_image else [png(image, update.filename)]
        if via is not None and not await via.ready():
            return None
        # Until Discord answers, what the message shows is unknown: an edit it took before the
        # connection was cut replaced the picture, whose old attachment a retry must not keep.
        feed.shown.pop(message_id, None)
        try:
            if via is not None:  # an interaction's webhook: no token to wait for
                self._updates.release(turn)
                msg = await via.edit(**update.fields, attachments=attachments)
            else:
                with self.budget.then(lambda: self._updates.release(turn)):
                    msg = await target.edit(**update.fields, attachments=attachments)
        except (discord.NotFound, discord.Forbidden):
            return None
        except discord.HTTPException as exc:
            if via is not None and exc.status in (401, 404):
                return None
            raise
        feed.shown[msg.id] = Shown(digest, image_hash, _first(msg.attachments))
        return msg.id
