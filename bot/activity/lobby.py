"""The Activity's lobby: what a page opened in a channel with no game offers. Pick a game, then
play the AI at once or open seats that others in the same Activity take; the game starts when
the last seat is taken.

Every start goes through the same path as the slash commands (:func:`bot.tables.starting.start_at`
and :meth:`bot.tables.TableManager.start`): the game is stored, its deal committed
(:mod:`bot.fairness`) and the start idempotent. Open seats are a stored lobby
(:mod:`bot.store.lobbies`) like a ``/koikoi lobby``: its server seed is committed when it opens
and every seat taken is a press its deal mixes in. Which lobby is open in which channel is kept
in memory by the process that serves the channel's pages.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.daily_words import finished_text, margin_text, shown_places
from bot.fairness import FairDeal, Input
from bot.games.descriptor import descriptors
from bot.i18n import DEFAULT, number, speaking, t, tp
from bot.names import board_names
from bot.refusal_text import Markup, sentence
from bot.store import StoreError
from bot.store.lobbies import Lobby, LobbyError, LobbyRefused, start_key
from bot.tables import AI_LEVELS, HOME_ACTIVITY, AlreadyStarted, Table, TableError, ai_seat, is_ai
from bot.tables.daily import DailyGame, play_daily
from bot.tables.starting import Place, ai_names, lobby_spec, start_at, stored_rules
from bot.words import NAME, day_text, plural
from rendering.view import GAME_NAMES

ROUNDS = (0, 1)
"""What a page may ask for a match's length: the game's own (0) or a single round."""


@dataclass(frozen=True, slots=True)
class Where:
    """The place a page's Activity runs in, as a start needs it."""

    place: Place
    language: str  # the server's, for the names every seat sees (the AI's)


def press_id() -> str:
    """An id for a press made on a page, mixed into a deal as a button press's interaction id
    is (a positive 62-bit number, like a snowflake)."""
    return str(secrets.randbits(62) | 1)


def replayable(table: Table, user_id: int) -> bool:
    """Whether ``user_id`` may ask for ``table`` again: a finished game of the Activity's own
    (as its lobby starts them: no stake, no tournament) in which they played."""
    return (table.finished and table.home == HOME_ACTIVITY and not table.stake
            and user_id in table.players)


def offer(language: str, lobby: Lobby | None, names: dict[int, str], viewer_id: int,
          players: frozenset[int] | None = None) -> dict[str, Any]:
    """The lobby as a page shows it: the games with their seats, the AI levels, and the seats
    open in this channel (who took them). ``players``: who alone may take them (a rematch's)."""
    with speaking(language):
        games = [{"id": d.slug, "name": GAME_NAMES[d.slug], "low": d.seats[0], "high": d.seats[1]}
                 for d in descriptors()]
        levels = [{"id": level, "name": tp("choice", level)} for level in AI_LEVELS]
        seats = None
        if lobby is not None:
            game = GAME_NAMES.get(lobby.game, lobby.game)
            again = lobby.replays_game_id is not None
            seats = {"game": lobby.game, "name": t("{game} rematch", game=game) if again else game,
                     "seats": lobby.max_seats, "taken": [names.get(u, "?") for u in lobby.humans],
                     "mine": viewer_id in lobby.humans, "host": viewer_id == lobby.host_id,
                     "rematch": again,
                     "text": t("{game}: {taken} of {seats} seats taken", game=game,
                               taken=len(lobby.humans), seats=lobby.max_seats),
                     # why this page has no Take a seat, if it may not take one
                     "closed": (sentence(LobbyRefused(code="rematch_seats_players_only"))
                                if players is not None and viewer_id not in players else None)}
    return {"games": games, "levels": levels, "open": seats}


def played_words(found: DailyGame) -> str:
    """What a member who has had today's game of a deal is told on asking for it again (a page
    has no command to link nor a Discord timestamp: midnight UTC is said as such)."""
    game = GAME_NAMES.get(found.deal.game, found.deal.game)
    margin = found.entry.margin
    if margin is not None:
        return t("You played today's {game} deal: {margin} against the AI. The next deal comes at "
                 "midnight UTC.", game=game, margin=plural(margin, "point", signed=True))
    if found.status == "cancelled":
        return t("Your game of today's {game} deal was called off; the next deal comes at "
                 "midnight UTC.", game=game)
    return t("Your game of today's {game} deal cannot be reached just now; try again in a "
             "moment.", game=game)


class ActivityLobbies:
    """The open seats of each channel with pages, and the starts the pages ask for."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.open: dict[int, Lobby] = {}  # channel id -> the stored lobby open there, as last written
        self.names: dict[int, str] = {}  # user id -> the name they signed in with
        # lobby id -> the players of the game a rematch's seats are for (the store checks it;
        # this is what the pages are shown)
        self.players: dict[str, frozenset[int]] = {}
        self.markup = Markup(member=self.name_of)  # how this surface's refusals name a member

    def name_of(self, user_id: int) -> str:
        """A member as a page shows them: the name they signed in with, if they have."""
        return self.names.get(user_id) or t("someone")

    def where(self, guild_id: int | None, channel_id: int, language: str) -> Where:
        """Where a page's Activity runs: a channel of a server the bot is in (its records the
        server's, the AI named in the server's language), or a place where the app is a guest (a
        DM, a group DM, a server without the bot), kept under the channel's id as its commands'
        games are, the AI named in ``language``, the page's. A table started from a page there
        lives in the Activity, which needs nothing of Discord to show it."""
        get_guild = getattr(self.bot, "get_guild", None)
        if guild_id is not None and get_guild is not None and get_guild(guild_id) is not None:
            languages = getattr(self.bot, "languages", None)
            spoken = languages.of_guild_now(guild_id) if languages is not None else DEFAULT
            return Where(Place(guild_id, channel_id, guest=False, public=True, guild_id=guild_id,
                               activity=True), spoken)
        # Discord says a private channel's instance is in one, not whether a DM or a group DM.
        kind = "server" if guild_id is not None else ""
        return Where(Place(channel_id, channel_id, guest=True, public=True, kind=kind,
                           guild_id=guild_id, activity=True), language)

    async def recover(self, owns: Callable[[int | None], bool]) -> None:
        """After a restart: the seats still open in the channels whose pages this process
        serves (kept in the store; who took them is named again as their pages come back)."""
        for lobby in await self.bot.store.open_activity_lobbies(owns):
            self.open[lobby.channel_id] = lobby
            if lobby.replays_game_id is not None:
                await self._note_players(lobby)

    async def _note_players(self, lobby: Lobby) -> None:
        if lobby.replays_game_id is None:
            return
        try:
            record = await self.bot.store.load_game(lobby.replays_game_id, scope=lobby.guild_id,
                                                    with_events=False)
        except StoreError:  # the store refuses anyone else in any case
            return
        self.players[lobby.lobby_id] = frozenset(p for p in record.players if not is_ai(p))

    def seen(self, user_id: int, name: str) -> None:
        """A page signed in as ``user_id``: the name its seats are shown under."""
        self.names[user_id] = name

    def _forget(self, channel_id: int) -> None:
        """The channel's seats are no longer open."""
        lobby = self.open.pop(channel_id, None)
        if lobby is not None:
            self.players.pop(lobby.lobby_id, None)

    def offer(self, channel_id: int, language: str, viewer_id: int) -> dict[str, Any]:
        lobby = self.open.get(channel_id)
        return offer(language, lobby, self.names, viewer_id,
                     None if lobby is None else self.players.get(lobby.lobby_id))

    async def lobby_in(self, channel_id: int) -> Lobby | None:
        """The open lobby of a channel, read again from the store (forgotten once it is no
        longer open there)."""
        known = self.open.get(channel_id)
        if known is None:
            return None
        try:
            lobby = await self.bot.store.get_lobby(known.lobby_id)
        except StoreError:
            return known
        if lobby is None or lobby.status != "open":
            self._forget(channel_id)
            return None
        self.open[channel_id] = lobby
        return lobby

    def _check_game(self, game: str, seats: int, rounds: int) -> None:
        found = {d.slug: d for d in descriptors()}.get(game)
        if found is None:
            raise TableError(t("There is no such game."))
        low, high = found.seats
        if not low <= seats <= high:
            raise TableError(t("{game} is played by {low} to {players}.", game=GAME_NAMES[game],
                               low=low, players=plural(high, "player")))
        if rounds not in ROUNDS:
            raise TableError(t("A match is the game's own length or a single round."))

    async def play_ai(self, where: Where, user_id: int, name: str, game: str, level: str,
                      rounds: int, press: str) -> Table:
        """A game against the AI, started at once (one AI seat; the game's fewest players)."""
        low = {d.slug: d.seats[0] for d in descriptors()}.get(game, 2)
        self._check_game(game, max(2, low), rounds)
        if level not in AI_LEVELS:
            raise TableError(t("Choose one of the AI's levels."))
        levels = [level] * (max(2, low) - 1)
        with speaking(where.language):
            names = [name, *ai_names(levels)]
        return await start_at(self.bot.store, self.bot.tables, where.place, game,
                              [user_id, *(ai_seat(lv) for lv in levels)], names, user_id,
                              {"rounds": rounds or None}, 0, key=f"activity:{press}",
                              deal=FairDeal.fresh([Input("command", press)]))

    async def daily(self, where: Where, user_id: int, name: str, game: str) -> Table:
        """The member's game of today's deal of ``game`` here, as ``/deal play`` has it
        (:func:`bot.tables.daily.play_daily`): started now, private to them, or the one they
        have running; TableError saying how it went once they had it."""
        if game not in GAME_NAMES:
            raise TableError(t("There is no such game."))
        # the table's headline is also shown in Discord, should they ask for it there
        shown = discord.utils.escape_markdown(discord.utils.escape_mentions(name[:NAME]))
        try:
            found = await play_daily(self.bot.store, self.bot.tables, where.place, user_id, name,
                                     shown, game)
        except AlreadyStarted:  # a second press while the first was starting it
            raise TableError(t("Your game of today's deal is starting.")) from None
        except StoreError as exc:
            raise TableError(sentence(exc, self.markup)) from None
        if found.table is None:
            raise TableError(played_words(found))
        return found.table

    async def today(self, where: Where, user_id: int) -> dict[str, str]:
        """How the member stands with today's deal of each game they have started here, in a
        line per game (a game they have not started has none): what the lobby's deal box says
        under the game chosen, so nobody presses to learn they played it already."""
        lines = {}
        for game, (margin, status) in (await self.bot.store.daily_entries_today(
                where.place.scope, user_id)).items():
            if margin is not None:
                lines[game] = t("Played today: {margin} against the AI.", margin=margin_text(margin))
            elif status == "running":
                lines[game] = t("Your game of today's deal is running: Play today's deal takes "
                                "you back to it.")
            elif status == "cancelled":
                lines[game] = t("Your game of today's deal was called off.")
        return lines

    async def board(self, where: Where, user_id: int, game: str) -> dict[str, Any]:
        """The board of today's deal of ``game`` here, as ``/deal board`` lists it
        (its first places and the asker's), each member by the name they signed in with or had
        at their latest table here; its seed sealed until the day is over."""
        if game not in GAME_NAMES:
            raise TableError(t("There is no such game."))
        store = self.bot.store
        scope, day = where.place.scope, store.daily_deal_day()
        board = await store.daily_deal_board(scope, game, day)
        if board is None:
            raise TableError(t("Nobody here has played today's {game} deal yet.",
                               game=GAME_NAMES[game]))
        places = shown_places(board, user_id)
        names = await board_names(store, scope, [row.user_id for _, row in places], self.names.get)
        return {"type": "board", "game": game,
                "title": t("🌅 Deal of the day · {game} · {day}", game=GAME_NAMES[game],
                           day=day_text(day)),
                "subtitle": finished_text(board),
                "rows": [{"place": number(place), "name": names[row.user_id],
                          "value": margin_text(row.margin or 0), "me": row.user_id == user_id}
                         for place, row in places],
                "note": "" if places else t("Nobody has finished this deal yet."),
                "seal": t("Commitment (SHA-256): {commitment}. The secret seed behind it deals "
                          "everyone's game of today's deal; it is revealed at midnight UTC.",
                          commitment=board.deal.commitment)}

    async def again(self, where: Where, user_id: int, name: str, table: Table | None,
                    press: str) -> Lobby | Table:
        """``table`` once more (:func:`replayable`). Against the AI it starts at once: the same
        game, seats, AI levels and rules, a fresh committed deal, started once (``press``).
        Among members it is their seats again: the first to ask opens as many, for them alone,
        and each other's ask takes one, the last starting the game by the same rules."""
        if table is None or not replayable(table, user_id):
            raise TableError(t("Only a finished game you played, started here, can be played "
                               "again; start a new one below."))
        if sum(1 for p in table.players if not is_ai(p)) > 1:
            lobby = await self.lobby_in(where.place.channel_id)
            if lobby is None:
                return await self.open_seats(where, user_id, name, table.game, len(table.players),
                                             replays=table.game_id)
            if lobby.replays_game_id != table.game_id:
                raise TableError(t("Seats are already open in this channel; take one of them."))
            return await self.sit(where, user_id, name, press)
        levels = [str(p).split(":", 1)[1] for p in table.players if is_ai(p)]
        with speaking(where.language):
            shown = iter(ai_names(levels))
            names = [name if p == user_id else next(shown) for p in table.players]
        return await start_at(self.bot.store, self.bot.tables, where.place, table.game,
                              list(table.players), names, user_id, {}, 0, key=f"activity:{press}",
                              deal=FairDeal.fresh([Input("command", press)]), rules=table.match.rules,
                              replays=table.game_id)

    async def open_seats(self, where: Where, user_id: int, name: str, game: str, seats: int,
                         rounds: int = 0, replays: int | None = None) -> Lobby:
        """Open ``seats`` seats in the channel, the first taken by the host. ``replays``: a
        finished game whose players alone take them, to play it again by its own rules."""
        self._check_game(game, seats, rounds)
        channel_id = where.place.channel_id
        if await self.lobby_in(channel_id) is not None:
            raise TableError(t("Seats are already open in this channel; take one of them."))
        try:
            lobby = await self.bot.store.create_lobby(
                "lobby", where.place.scope, channel_id, user_id, game=game, min_seats=seats,
                max_seats=seats, rounds=rounds or None, replays_game_id=replays)
        except StoreError as exc:
            raise TableError(sentence(exc, self.markup)) from None
        self.names[user_id] = name
        self.open[channel_id] = lobby
        await self._note_players(lobby)
        return lobby

    async def sit(self, where: Where, user_id: int, name: str, press: str) -> Lobby | Table:
        """Take a seat in the channel's open lobby: the lobby, or the game its last seat started."""
        channel_id = where.place.channel_id
        lobby = await self.lobby_in(channel_id)
        if lobby is None:
            raise TableError(t("No seats are open in this channel."))
        try:
            lobby = await self.bot.store.join_lobby(lobby.lobby_id, user_id, press=int(press))
        except StoreError as exc:  # seated already, full, closed: the store's refusal
            raise TableError(sentence(exc, self.markup)) from None
        self.names[user_id] = name
        self.open[channel_id] = lobby
        if len(lobby.humans) < lobby.max_seats:
            return lobby
        return await self._start(where, lobby, press)

    async def unseat(self, where: Where, user_id: int) -> None:
        """Give up a seat taken in the channel's open lobby; the host's giving up closes the
        seats (nobody is left waiting on seats no game can start from)."""
        channel_id = where.place.channel_id
        lobby = await self.lobby_in(channel_id)
        if lobby is None:
            raise TableError(t("No seats are open in this channel."))
        try:
            if user_id == lobby.host_id:
                await self.bot.store.close_lobby(lobby.lobby_id, user_id)
                self._forget(channel_id)
            else:
                self.open[channel_id] = await self.bot.store.leave_lobby(lobby.lobby_id, user_id)
        except StoreError as exc:  # not seated, or the seats just started or closed
            raise TableError(sentence(exc, self.markup)) from None

    async def _start(self, where: Where, lobby: Lobby, press: str) -> Table:
        """The game of a full lobby: of any number of last seats, one start (the store's
        ``starting`` state and the lobby's start key), its deal the lobby's committed seed."""
        store = self.bot.store
        try:
            lobby = await store.begin_lobby_start(lobby.lobby_id, lobby.host_id)
        except LobbyError as exc:
            raise TableError(sentence(exc, self.markup)) from None
        self._forget(where.place.channel_id)
        try:
            deal = await store.lobby_deal(lobby.lobby_id, where.place.scope, Input("start", press))
            names = [self.names.get(u, "?") for u in lobby.humans]
            rules = None if lobby.replays_game_id is None else await stored_rules(
                store, lobby.replays_game_id, where.place.scope)
            table = await start_at(self.bot.store, self.bot.tables, where.place, lobby.game,
                                   list(lobby.humans), names, lobby.host_id, lobby_spec(lobby), 0,
                                   key=start_key(lobby.lobby_id),
                                   deal=deal or FairDeal.fresh([Input("start", press)]), rules=rules,
                                   replays=lobby.replays_game_id)
        except (TableError, StoreError, AlreadyStarted):
            await store.settle_lobby_start(lobby.lobby_id)
            raise
        await store.finish_lobby_start(lobby.lobby_id, table.game_id)
        return table
