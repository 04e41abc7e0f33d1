"""Each player's hand: its message (a DM, or a private answer to the player's own press) kept at
the table's state, the moves it offers as its controls, and the DM that first deals it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot import presenter
from bot.discord_ui.controls import ActionButton, MoveSelect, SlapButton, action_key, hint_buttons
from bot.discord_ui.delivery import Coalescer, fixed_nonce
from bot.discord_ui.feeds import Feed, Marks, Shown, Update, Via, _first, _hash, _when, ping
from bot.discord_ui.layout import Card, layout, text_of
from bot.discord_ui.parts import ACCENT, png
from bot.discord_ui.tokens import Token
from bot.games.base import Action
from bot.i18n import speaking, t
from bot.presenters.base import LABEL_MAX
from bot.tables import Table, is_ai
from bot.words import shorten
from rendering import render_hand
from rendering.view import GAME_NAMES

BUTTONS = 25
"""Discord's limit of components on one message (five rows of five)."""


class Hands:
    """The hands of :class:`~bot.discord_ui.publisher.TablePublisher`, one of its mixins."""

    # The publisher's and its alerts' own, typed here: importing them from here would be a cycle.
    bot: discord.Client
    _updates: Coalescer
    feed: Callable[[Table], Feed]
    marks: Callable[[Table], Marks]
    _load: Callable[[Table], Awaitable[Marks]]
    _save: Callable[[Table], None]
    draw: Callable[[Update], Awaitable[bytes]]
    _apply: Callable[..., Awaitable[int | None]]
    _send: Callable[..., Awaitable[discord.Message]]
    public_language: Callable[[Table], str]
    owner_language: Callable[[Table, int], str]
    _dealt: Callable[[Table, int], asyncio.Event]
    _alert_wanted: Callable[[Table], tuple[int, int, int | None] | None]
    _replace_alert: Callable[[Table, tuple[int, int, int | None] | None, discord.Message | None],
                             Awaitable[None]]

    @staticmethod
    def via_press(interaction: discord.Interaction) -> Via:
        """A press on a hand as a way to update that hand, once the press is answered (the
        caller sets ``answered``, or ``withdrawn`` when it answered with a message of its own,
        whose token then edits that message, not the hand)."""
        message = interaction.message  # the hand the control was on: the token edits that one
        return Via(Token(interaction), message.id if message else None, answered=asyncio.Event())

    def _hand_moves_to(self, table: Table, seat: int, via: Via) -> None:
        """``via``'s message is the seat's hand from now on. The copy it replaces, if its token
        still reaches it, is marked to lose its controls: a player with two copies open (a press
        on an older one while My hand sent a newer) must never read a copy that stopped moving."""
        feed = self.feed(table)
        previous = feed.hand_via.get(seat)
        feed.hand_via[seat] = via
        if seat in feed.marks.private:
            self._save(table)  # the way in, kept at once: a crash may come before any update
        if previous is not None and previous is not via and previous.message_id == via.message_id:
            # One older way in is enough: each press links only the one before it (or, when
            # that one does not reach the hand for sure, the one it kept).
            doubtful = previous.withdrawn or (previous.unsettled and previous.instead is not None)
            via.instead = previous.instead if doubtful else previous
            previous.instead = None
        elif previous is not None and previous.message_id is not None \
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
        copy = Via(Token(interaction), msg.id)
        if seat in marks.private:  # the private copy is this player's hand from now on
            self._adopt(table, seat, copy)
        elif seat not in marks.hands:  # the DM not tried yet: this copy, should it be refused
            feed.early_copy[seat] = copy

    def _adopt(self, table: Table, seat: int, copy: Via) -> None:
        """A private copy of the hand is the seat's hand from now on."""
        self._hand_moves_to(table, seat, copy)
        # A move made while this copy was drawn went to the previous copy: catch up.
        self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))

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
            via = self._instead(feed, seat, via)
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
                spare = self._instead(feed, seat, via)
                if spare is not None:
                    done = await self._apply(feed, spare.message_id, update, spare, None)
            if done is None and seat not in marks.private:
                done = await self._apply(feed, ref[1] if ref else None, update, None, target)
        if seat in marks.private:
            self._save(table)  # the way in that reached the copy, for a start after a crash
        elif done is None and not table.finished:
            await self._send_dm(table, seat, update)

    @staticmethod
    def _instead(feed: Feed, seat: int, via: Via) -> Via | None:
        """The seat's way in once ``via`` (a press answered with a message of its own or not at
        all, or a token past its time) no longer reaches the hand: the older token it kept
        into the same copy, while that one still does."""
        spare = via.instead
        if spare is None or not spare.fresh:
            feed.hand_via.pop(seat, None)
            return None
        feed.hand_via[seat] = spare
        return spare

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
            copy = self.feed(table).early_copy.pop(seat, None)
            if copy is not None and copy.fresh:  # My hand was pressed before: it shows the hand
                self._adopt(table, seat, copy)
            with speaking(self.public_language(table)):
                notice = t("<@{user}>, I can't send you direct messages, so press **My hand** on the table "
                           "to see your cards and play (only you can see it).", user=user_id)
            msg = await self._send(table, content=notice, allowed_mentions=ping(user_id),
                                   nonce=fixed_nonce("hn", table.game_id, seat))
            want = self._alert_wanted(table)
            if want is not None and want[0] == seat:  # it tells them it is their turn as well
                await self._replace_alert(table, want, msg)
            self._dealt(table, seat).set()  # only now: the waiting alert sees the notice
            return
        marks.hands[seat] = [msg.channel.id, msg.id]
        feed = self.feed(table)
        feed.early_copy.pop(seat, None)
        feed.notified[seat] = time.monotonic()  # a new DM notifies: the first notice
        feed.alerted.discard(seat)
        self._save(table)
        self._dealt(table, seat).set()
        if shows(msg, update):
            feed.shown[msg.id] = Shown(update.digest(_hash(image)), _hash(image),
                                                   _first(msg.attachments))
        else:  # the hand sent before a stop, as it was then: brought to the table's state
            self._updates.mark(("hand", table.game_id, seat), lambda: self._update_hand(table, seat))


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
    return fixed_nonce("hh", game_id, seat, replaced)


def shows(message: discord.Message, update: Update) -> bool:
    """Whether a message returned for a send shows ``update`` (Discord returns the message first
    sent under a nonce as it was, which may be an older state)."""
    got = text_of(component.to_dict() for component in message.components)
    return bool(got) and got == text_of(update.view.to_components())
