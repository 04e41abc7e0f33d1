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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import metrics, presenter
from bot.achievement_text import daily_line, earned_line, series_line
from bot.discord_ui.controls import (
    ActionButton,
    ActivityButton,
    CancelButton,
    ForfeitButton,
    HandButton,
    MoveSelect,
    RulesButton,
    SlapButton,
    action_key,
    hint_buttons,
)
from bot.discord_ui.delivery import Coalescer, RestBudget, Retry, Sequencer, passing
from bot.discord_ui.fair import add_deal
from bot.discord_ui.layout import Card, layout, text_of
from bot.discord_ui.parts import ACCENT, controls, png, rematch_face, share_face
from bot.discord_ui.text import shown
from bot.discord_ui.tokens import Token
from bot.games.base import Action
from bot.i18n import number, speaking, t
from bot.presenters.base import LABEL_MAX, final_table, result_headline, score_line
from bot.settlement import is_betting, stake_text
from bot.store import GameEvent, StoreError
from bot.store.surfaces import TABLE_ROW, SurfaceNotes
from bot.tables import HOME_CHANNEL, HOME_PRIVATE, LOG_LENGTH, RETRY_DELAYS, Table, is_ai
from bot.words import plural, shorten
from rendering import render_hand, render_summary, render_table
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

SURFACE = "discord"
"""This surface's name in the store's notes (:mod:`bot.store.surfaces`)."""

INTERACTION_SECONDS = 14 * 60
"""How long an interaction's token is used to edit its message: Discord accepts it for 15 minutes."""


def token_clock() -> float:
    """The clock a token's age is read on (monotonic; tests that let tokens expire replace it)."""
    return time.monotonic()
BUTTONS = 25
"""Discord's limit of components on one message (five rows of five)."""
ALERT_SPACING = 1.0
"""Seconds between two turn alerts of one table: a DM channel takes five messages in five seconds
(against the AI, a fast player's turn can come back several times a second)."""
FIRST_HAND_WAIT = 10.0
"""Seconds a turn alert waits for the player's first hand DM, so that it comes below the hand."""


def ping(*user_ids: int) -> discord.AllowedMentions:
    """Mentions that notify exactly these users and nobody else (no @everyone, no roles)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


def summary_title(game: str, event: dict, picture_title: str) -> str:
    """The title of a round's summary message, in the words of its table: a betting game's
    rounds are hands; a showdown within a hand (a Seotda redeal) takes the picture's title."""
    game_name = GAME_NAMES.get(game, game)
    if "round" not in event:
        return f"{game_name} · {picture_title}"
    if is_betting(game):
        return t("{game} · hand {round}", game=game_name, round=event["round"])
    return t("{game} · round {round}", game=game_name, round=event["round"])


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

    @property
    def fresh(self) -> bool:
        return not self.withdrawn and token_clock() - self.since < INTERACTION_SECONDS

    async def edit(self, **fields: Any) -> discord.Message:
        """Edit the message through the token: the interaction's answer, or its follow-up."""
        if self.followup and self.message_id is not None:
            return await self.token.followup.edit_message(self.message_id, **fields)
        return await self.token.edit_original_response(**fields)

    async def ready(self) -> bool:
        """Whether the token may edit the message now (waiting for the press's answer)."""
        if self.answered is not None and not self.answered.is_set():
            await self.answered.wait()
        return self.fresh


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
    shown: dict[int, Shown] = field(default_factory=dict)  # message id -> what it shows
    drawn: dict[str, tuple[Any, bytes]] = field(default_factory=dict)  # slot -> (model, PNG)
    alert_queued: bool = False  # a turn alert job waits in the table's posts (one is enough)
    dealt: dict[int, asyncio.Event] = field(default_factory=dict)  # seat -> first hand DM tried
    alert_sent_at: float = float("-inf")  # monotonic time of the table's last turn alert
    warned_seq: int | None = None  # the move whose timeout warning is due or shown
    # Monotonic times, per seat, of the player's last press at this table and of the last
    # message that notified them (their first hand DM, a turn alert): see TablePublisher.quiet.
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


class TablePublisher:
    """Renders and sends what tables show: the Discord surface of :class:`bot.tables.surface.TableSurface`.

    Turn alerts notify a player only when they are not already looking: not within
    :attr:`looking_seconds` of their last press at the table, not while an earlier notice of
    this table is unanswered (that one is edited instead: an edit does not notify), and a player
    without DMs, whose alert is a ping in the channel, only once their turn has waited
    :attr:`channel_wait` seconds."""

    looking_seconds: float = 60.0
    channel_wait: float = 30.0
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
                feed.marks, feed.loaded, feed.saved = Marks.from_rows(rows or {}), True, dict(rows or {})
        return feed

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
                feed.marks, feed.loaded, feed.saved = Marks.from_rows(rows), True, dict(rows)
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
        with it (then its token keeps the table up to date for a while)."""
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
            msg = await self.bot.get_partial_messageable(table.channel_id).send(view=update.view, file=file)
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

    @staticmethod
    def via_press(interaction: discord.Interaction) -> Via:
        """A press on a hand as a way to update that hand, once the press is answered (the
        caller sets ``answered``, or ``withdrawn`` when it answered with a message of its own,
        whose token then edits that message, not the hand)."""
        message = interaction.message  # the hand the control was on: the token edits that one
        return Via(Token(interaction), message.id if message else None, answered=asyncio.Event())

    def pressed(self, table: Table, seat: int, via: Via) -> None:
        """The player pressed a control on their hand: they are looking, and their hand is
        updated through the press (:meth:`via_press`)."""
        feed = self.feed(table)
        self._hand_moves_to(table, seat, via)
        feed.looking[seat] = time.monotonic()
        feed.pressed_at[seat] = table.seq

    def _hand_moves_to(self, table: Table, seat: int, via: Via) -> None:
        """``via``'s message is the seat's hand from now on. The copy it replaces, if its token
        still reaches it, is marked to lose its controls: a player with two copies open (a press
        on an older one while My hand sent a newer) must never read a copy that stopped moving."""
        feed = self.feed(table)
        previous = feed.hand_via.get(seat)
        feed.hand_via[seat] = via
        if previous is not None and previous.message_id is not None \
                and previous.message_id != via.message_id and previous.fresh:
            feed.superseded.setdefault(seat, []).append(previous)
            self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))

    async def show_hand_via(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        """'My hand': the hand as the answer to a deferred, private interaction."""
        marks = await self._load(table)
        await table.settled.wait()
        update = self._hand_update(table, seat)
        image = await self.draw(update)
        msg = await interaction.edit_original_response(**update.fields,
                                                       attachments=[png(image, update.filename)])
        feed = self.feed(table)
        feed.looking[seat] = time.monotonic()
        feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))
        if seat in marks.private:  # the private copy is this player's hand from now on
            self._hand_moves_to(table, seat, Via(Token(interaction), msg.id))
            # A move made while this copy was drawn went to the previous copy: catch up.
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
        target = channel.get_partial_message(shown_id) if shown_id else None
        turn = self._table_key(table)
        new_id = await self._apply(feed, shown_id, update, via, target, turn)
        if via is not None and new_id is None:
            feed.table_via = None  # the token no longer works: edit as the bot from now on
            new_id = await self._apply(feed, shown_id, update, None, target, turn)
        if new_id is None:  # the message is gone: post the table anew
            image = await self.draw(update)
            with self.budget.then(lambda: self._updates.release(turn)):
                msg = await channel.send(view=update.view, file=png(image, update.filename))
            marks.table = [msg.channel.id, msg.id]
            self._save(table)
            feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image), _first(msg.attachments))

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

    # -- hands ------------------------------------------------------------------------------
    def _mark_hands(self, table: Table) -> None:
        for seat, player in enumerate(table.players):
            if not is_ai(player):
                self._updates.mark(("hand", table.game_id, seat),
                                   lambda seat=seat: self._update_hand(table, seat))

    async def _update_hand(self, table: Table, seat: int) -> None:
        feed = self.feed(table)
        marks = await self._load(table)
        await table.settled.wait()  # moves offered under the number they will be stored with
        update = self._hand_update(table, seat)
        retired = self._hand_update(table, seat, superseded=True) if feed.superseded.get(seat) else None
        while feed.superseded.get(seat):  # each taken off once shown (a failed edit is retried)
            old = feed.superseded[seat][0]
            if old is not feed.hand_via.get(seat) and old.fresh:  # not pressed again meanwhile
                retired = retired or self._hand_update(table, seat, superseded=True)
                await self._apply(feed, old.message_id, retired, old, None)
            feed.superseded[seat].remove(old)
        via = feed.hand_via.get(seat)
        if via is not None and not via.fresh:
            feed.hand_via.pop(seat, None)
            via = None
        if seat in marks.private and via is None:
            return  # a private hand without a live interaction: the player opens it with My hand
        ref = marks.hands.get(seat)
        target = None
        if ref is not None and seat not in marks.private:
            target = self.bot.get_partial_messageable(ref[0]).get_partial_message(ref[1])
        shown_id = via.message_id if via is not None else (ref[1] if ref else None)
        done = await self._apply(feed, shown_id, update, via, target if via is None else None)
        if done is None and via is not None:
            if feed.hand_via.get(seat) is via:  # not a newer copy that came meanwhile
                feed.hand_via.pop(seat, None)
            if seat in marks.private:
                return
            done = await self._apply(feed, ref[1] if ref else None, update, None, target)
        if done is None and seat not in marks.private and not table.finished:
            await self._send_dm(table, seat, update)

    def _hand_update(self, table: Table, seat: int, superseded: bool = False) -> Update:
        with speaking(self.owner_language(table, seat)) as language:
            return self._hand_update_in(table, seat, language, superseded)

    def _hand_update_in(self, table: Table, seat: int, language: str,
                        superseded: bool = False) -> Update:
        """The hand message; ``superseded``: a copy another copy replaced, the same picture
        without controls and with a line that says where the hand went."""
        obs = table.match.observation(seat)
        view_model = replace(presenter.hand_view(obs), language=language)
        if table.finished:  # no prompt, choice or "if someone goes out now" outlives the game
            view_model = replace(view_model, title=t("Your hand · {question}", question=t("game over")),
                                 playable=(), decision=(), legend="")
        description = view_model.title
        if table.deadline is not None and not table.finished and table.turn_seat == seat:
            description += "\n" + t("Your move is due {when}.", when=_when(table.deadline))
        if superseded:
            description += "\n" + t("Your hand is now shown in another message; this copy no "
                                    "longer takes moves.")
        card = Card(title=t("{game} · your hand", game=GAME_NAMES.get(table.game, table.game)),
                     colour=ACCENT, description=description, image="hand.png", alt=view_model.title)
        for name, value in () if table.finished else presenter.hand_fields(obs):
            card.add_field(name=name[:256], value=value[:1024])
        footer = t("Game #{game} · move {move}", game=table.game_id, move=table.seq)
        if table.finished:
            footer += " · " + t("game over")
        card.set_footer(text=footer)
        controls = [] if superseded else self._hand_controls(table, seat, obs)
        return Update(layout(card, controls), render_hand, view_model,
                      "hand.png", self.feed(table), f"hand:{seat}")

    def _hand_controls(self, table: Table, seat: int, obs: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        if table.finished:
            return []
        if table.in_race:
            return [SlapButton(table.game_id)] if seat in obs.get("race_seats", []) else []
        if not obs.get("legal_actions"):
            return []
        moves = presenter.hand_actions(obs)
        labelled = []
        for i, (pos, action) in enumerate(moves):
            label = move_label(table.game, action, obs)
            labelled.append((f"{pos}. {label}" if pos is not None else label, action, i))
        if len(labelled) <= BUTTONS:
            return [*(ActionButton(table.game_id, table.seq, action_key(table.game_id, table.seq, action, i),
                                   label, getattr(discord.ButtonStyle, presenter.action_style(table.game, action)),
                                   row=i // 5)
                      for label, action, i in labelled),
                    *hint_buttons(self.bot, table, (len(labelled) + 4) // 5)]
        # More moves than buttons fit: menus of 25, every move reachable (at most 5 menus).
        menus = []
        for part in range(0, min(len(labelled), BUTTONS * 5), BUTTONS):
            chunk = labelled[part:part + BUTTONS]
            options = [discord.SelectOption(label=label[:100], value=action_key(table.game_id, table.seq, a, i))
                       for label, a, i in chunk]
            menus.append(MoveSelect(table.game_id, table.seq, part // BUTTONS, options,
                                    t("Moves {first}-{last} of {total}", first=part + 1, last=part + len(chunk), total=len(labelled))))
        return [*menus, *hint_buttons(self.bot, table, len(menus))]

    async def _send_dm(self, table: Table, seat: int, update: Update) -> None:
        user_id = table.players[seat]
        marks = self.marks(table)
        image = await self.draw(update)
        try:
            ref = marks.hands.get(seat)
            if ref is None:  # open the DM channel by the user's id alone (no user lookup)
                ref = [int((await self.bot.http.start_private_message(user_id))["id"]), 0]
            channel = self.bot.get_partial_messageable(ref[0])
            # Sent with a nonce that the stored state fixes (the hand message it replaces): sent
            # again after a stop that came before its id was stored, it returns the message
            # already sent instead of a second hand that keeps its controls forever.
            nonce = hand_nonce(table.game_id, seat, ref[1])
            msg = await channel.send(view=update.view, file=png(image, update.filename), nonce=nonce)
        except discord.Forbidden:
            marks.private.add(seat)
            self._save(table)
            with speaking(self.public_language(table)):
                notice = t("<@{user}>, I can't send you direct messages, so press **My hand** on the table "
                           "to see your cards and play (only you can see it).", user=user_id)
            msg = await self._send(table, content=notice, allowed_mentions=ping(user_id))
            want = self._alert_wanted(table)
            if want is not None and want[0] == seat:  # it tells them it is their turn as well
                await self._replace_alert(table, want, msg)
            self._dealt(table, seat).set()  # only now: the waiting alert sees the notice
            return
        marks.hands[seat] = [msg.channel.id, msg.id]
        feed = self.feed(table)
        feed.notified[seat] = time.monotonic()  # a new DM notifies: the first notice
        feed.alerted.discard(seat)
        self._save(table)
        self._dealt(table, seat).set()
        if shows(msg, update):
            feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image),
                                                   _first(msg.attachments))
        else:  # the hand sent before a stop, as it was then: brought to the table's state
            self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))

    # -- turn alerts -------------------------------------------------------------------------
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
        if seat not in marks.private:
            try:
                msg = await self._send_turn_dm(table, seat, warned=want[2] is not None)
            except discord.Forbidden:
                marks.private.add(seat)
                self._save(table)
        if msg is None:
            msg = await self.bot.get_partial_messageable(table.channel_id).send(
                content=self._channel_alert_text(table, seat, want), allowed_mentions=ping(user))
        feed.alert_sent_at = feed.notified[seat] = sent_at
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

    async def _send_turn_dm(self, table: Table, seat: int, warned: bool) -> discord.Message:
        """The turn DM, in the DM channel of the player's hand (opened first when there is none)."""
        ref = self.marks(table).hands.get(seat)
        if ref is None:  # no hand DM yet: open the DM channel by the user's id alone
            ref = [int((await self.bot.http.start_private_message(table.players[seat]))["id"]), 0]
        return await self.bot.get_partial_messageable(ref[0]).send(
            content=self._turn_dm_text(table, seat, warned),
            allowed_mentions=discord.AllowedMentions.none())

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

    # -- one-off posts ----------------------------------------------------------------------
    def _queue_event_posts(self, table: Table, events: list[dict], seq: int | None = None) -> None:
        """The one-off posts of the move ``seq`` (the table's last one by default). Once its
        summaries went out the store notes it, so a start sends only those still owed
        (:meth:`post_owed`); each carries a nonce that Discord keeps unique, so one sent just
        before the process stopped is not sent twice."""
        seq = table.seq if seq is None else seq
        summaries = 0
        for i, e in enumerate(events):
            if presenter.posts_summary(table.game, e):
                nonce = f"hf{table.game_id}.{seq}.{i}"
                self._queue_post(table, lambda e=e, n=nonce: self._post_summary(table, e, n))
                summaries += 1
            elif e["type"] == "race":
                self._queue_post(table, lambda e=e: self._post_race(table, e))
        if summaries:
            self._queue_post(table, lambda: self._mark_posted(table, seq))

    def _queue_post(self, table: Table, job: Callable[[], Awaitable[None]]) -> None:
        """One of the table's one-off posts, after those queued before it."""
        self._posts.queue(table.game_id, job)

    def post_owed(self, table: Table, moves: Iterable[GameEvent]) -> None:
        """After a restart: the round summaries of stored moves that may not have gone out."""
        for move in moves:
            if any(presenter.posts_summary(table.game, e) for e in move.events):
                self._queue_event_posts(table, [e for e in move.events if e["type"] != "race"],
                                        seq=move.seq)

    async def _mark_posted(self, table: Table, seq: int) -> None:
        if self.notes is None:
            return
        try:
            await self.notes.posted(table.game_id, seq)
        except StoreError:  # sent again at the next start, and Discord drops the repeat by nonce
            log.warning("could not note the posts of game %d up to move %d", table.game_id, seq)

    async def _post_race(self, table: Table, event: dict) -> None:
        """The Slap! message: everyone but the player who went out races to press it."""
        humans = [table.players[s] for s in event["seats"] if not is_ai(table.players[s])]
        view = controls(SlapButton(table.game_id))
        pings = " ".join(f"<@{u}>" for u in humans)
        with speaking(self.public_language(table)):
            text = t("**{name} is out!** Slap their hand: the first to press pays nothing. {pings}",
                     name=shown(table.names[event["winner"]]), pings=pings)
        await self._send(table, content=text[:2000], view=view, allowed_mentions=ping(*humans))

    async def _post_summary(self, table: Table, event: dict, nonce: str) -> None:
        with speaking(self.public_language(table)) as language:
            view = replace(presenter.summary_view(table.game, event, table.names), language=language)
            names = [shown(n) for n in table.names]
            shown_view = presenter.summary_view(table.game, event, names)
            # The picture's words again for screen readers: a banner, the result, who took each pot.
            lines = [*filter(None, [shown_view.banner]), *shown_view.result_lines, *shown_view.pots]
            title = summary_title(table.game, event, view.title)
        image = await self.render(render_summary, view)
        embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=ACCENT)
        embed.set_image(url="attachment://summary.png")
        await self._send(table, embed=embed, file=png(image, "summary.png"), nonce=nonce)

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


def folds_on_timeout(table: Table) -> bool:
    """Whether the player to act dies when their time runs out (the engine's timeout rule)."""
    rule = getattr(table.match.round, "timeout_action", None)
    action = rule() if rule is not None and not table.finished else None
    return action is not None and action.kind == "die"


def move_label(game: str, action: Action, obs: dict[str, Any]) -> str:
    """A move's button text; a bet shows the chips it puts in ("Call (20 chips)"), from the
    engine's ``costs`` in the player's own observation."""
    costs = obs.get("costs")
    game_presenter = presenter.for_game(game)
    if costs and hasattr(game_presenter, "priced_label"):
        return shorten(game_presenter.priced_label(action, costs), LABEL_MAX)
    return presenter.action_label(game, action)


def hand_nonce(game_id: int, seat: int, replaced: int) -> str:
    """The nonce of a hand message: fixed by the game, the seat and the message it replaces (0
    for the first), so that the same send after a restart is recognised; within Discord's 25
    characters."""
    digest = hashlib.blake2b(f"{game_id}.{seat}.{replaced}".encode(), digest_size=10).hexdigest()
    return f"hh{digest}"


def shows(message: discord.Message, update: Update) -> bool:
    """Whether a message returned for a send shows ``update`` (Discord returns the message first
    sent under a nonce as it was, which may be an older state)."""
    got = text_of(component.to_dict() for component in message.components)
    return bool(got) and got == text_of(update.view.to_components())


def _when(unix: float | None) -> str:
    """A moment as a Discord timestamp each reader sees relative to now ("in 2 minutes")."""
    return f"<t:{int(unix or 0)}:R>"


def _alert_key(alert: dict[str, Any] | None) -> tuple[int, int, int | None] | None:
    return None if alert is None else (alert["seat"], alert["since"], alert.get("warned"))


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _first(attachments: list[discord.Attachment]) -> discord.Attachment | None:
    return attachments[0] if attachments else None

