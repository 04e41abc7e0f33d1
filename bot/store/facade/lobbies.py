"""Lobbies, challenges and rematches: opening them, seats, their messages, and starting,
closing or expiring them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from bot.fairness import FairDeal, Input, commitment_of, new_server_seed

from .. import games, guests, ledger, lobbies
from ..db import Database
from ..errors import InvalidInput
from ..lobbies import Lobby
from .checks import _id, _text


class Lobbies:
    """The lobbies and challenges of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database

    # -- lobbies and challenges ------------------------------------------------------------------
    async def create_lobby(
        self, kind: str, guild_id: int, channel_id: int, host_id: int, *, game: str,
        min_seats: int, max_seats: int, stake: int = 0, rounds: int | None = None,
        target: int | None = None, preset: str | None = None, teams: str | None = None,
        opponent_id: int | None = None, expires_at: float | None = None,
        options: dict[str, int] | None = None, origin_id: int | None = None,
        replays_game_id: int | None = None,
    ) -> Lobby:
        """A new open lobby (the host seated) or challenge under a fresh random id. ``options``:
        the game's own rules for this table (Seotda's ante...), names to whole numbers;
        ``origin_id``: the interaction whose answer posts its message; ``replays_game_id``: a
        finished game of this server whose players (the host one of them), and only they, take
        the seats to play it again."""
        if kind not in ("lobby", "challenge"):
            raise InvalidInput("A lobby is a 'lobby' or a 'challenge'.")
        for value, what in ((guild_id, "The server id"), (channel_id, "The channel id"),
                            (host_id, "The host")):
            _id(value, what)
        if (kind == "challenge") != (opponent_id is not None):
            raise InvalidInput("A challenge, and only a challenge, names an opponent.")
        if opponent_id is not None and _id(opponent_id, "The opponent") == host_id:
            raise InvalidInput("The host cannot challenge themselves.")
        _text(game, "The game name", allow_empty=False)
        for value, what in ((preset, "The preset"), (teams, "The teams")):
            if value is not None and not (isinstance(value, str) and 0 < len(value) <= 32):
                raise InvalidInput(f"{what} must be a name of at most 32 characters.")
        if stake != 0:
            ledger.check_amount(stake, stake=True)
        for value, what in ((rounds, "The rounds"), (target, "The target")):
            if value is not None and (type(value) is not int or not 0 < value <= 1_000_000):
                raise InvalidInput(f"{what} must be a positive whole number.")
        if type(min_seats) is not int or type(max_seats) is not int or not 1 <= min_seats <= max_seats:
            raise InvalidInput("The seat limits must be whole numbers with 1 <= min <= max.")
        if expires_at is not None and not isinstance(expires_at, int | float):
            raise InvalidInput("The expiry must be a time in seconds.")
        if origin_id is not None:
            _id(origin_id, "The interaction id")
        if replays_game_id is not None:
            _id(replays_game_id, "The game id")
            if kind != "lobby":
                raise InvalidInput("Only a lobby plays a finished game again.")
        options = dict(options or {})
        if len(options) > 8 or not all(isinstance(name, str) and 0 < len(name) <= 32 and type(value) is int
                                       and abs(value) <= 10_000_000 for name, value in options.items()):
            raise InvalidInput("The options must be a few rule names with whole numbers.")
        server_seed = new_server_seed()
        values = {
            "server_seed": server_seed, "commitment": commitment_of(server_seed),
            "lobby_id": lobbies.new_lobby_id(), "kind": kind, "guild_id": guild_id,
            "channel_id": channel_id, "host_id": host_id, "opponent_id": opponent_id, "game": game,
            "stake": stake, "rounds": rounds, "target": target, "preset": preset, "teams": teams,
            "min_seats": min_seats, "max_seats": max_seats, "humans": json.dumps([host_id]),
            "expires_at": None if expires_at is None else int(expires_at * 1000),
            "options": json.dumps(options, sort_keys=True), "origin_id": origin_id,
            "replays_game_id": replays_game_id,
        }
        return await self._db.transact(lambda conn: lobbies.create(conn, values, self._db.now_ms()))

    async def get_lobby(self, lobby_id: str) -> Lobby | None:
        """The stored lobby, or None for an unknown (or malformed, e.g. forged) id."""
        async with self._db.snapshot() as conn:
            return await lobbies.get(conn, lobby_id)

    async def set_lobby_message(self, lobby_id: str, message_id: int, *, shown: int = 0) -> None:
        """Remember the message that shows the lobby (presses on any other message are refused);
        ``shown``: the revision of the lobby it was sent with."""
        _id(message_id, "The message id")
        await self._db.transact(lambda conn: lobbies.set_message(conn, lobby_id, message_id,
                                                                 self._db.now_ms(), shown))

    async def lobby_shown(self, lobby_id: str, revision: int) -> None:
        """The lobby's message now shows its state at ``revision``."""
        await self._db.transact(lambda conn: lobbies.mark_shown(conn, lobby_id, revision))

    async def unshown_lobbies(self, owns: Callable[[int | None], bool] | None = None) -> list[Lobby]:
        """The lobbies whose message a stop left behind what is stored (of the places ``owns``
        says are this process's, :func:`bot.store.guests.owned`): a start brings each up to date."""
        async with self._db.snapshot() as conn:
            return await guests.owned(conn, await lobbies.unshown(conn), owns)

    async def join_lobby(self, lobby_id: str, user_id: int, *, press: int | None = None) -> Lobby:
        """Seat a member (:class:`~bot.store.lobbies.LobbyError` if full, closed, seated...);
        ``press``: the id of their Join interaction, which the game's deal mixes in."""
        _id(user_id, "The user id")
        pressed = None if press is None else str(_id(press, "The interaction id"))
        return await self._db.transact(lambda conn: lobbies.join(conn, lobby_id, user_id, self._db.now_ms(),
                                                                 pressed))

    async def leave_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.leave(conn, lobby_id, user_id, self._db.now_ms()))

    async def add_lobby_ai(self, lobby_id: str, user_id: int, level: str) -> Lobby:
        """The host adds an AI player of ``level``."""
        _id(user_id, "The user id")
        if not isinstance(level, str) or not 0 < len(level) <= 16:
            raise InvalidInput("The AI level must be a short name.")
        return await self._db.transact(lambda conn: lobbies.add_ai(conn, lobby_id, user_id, level, self._db.now_ms()))

    async def begin_lobby_start(self, lobby_id: str, user_id: int) -> Lobby:
        """open -> starting: of any number of presses, exactly one gets the lobby back; the
        others get :class:`~bot.store.lobbies.LobbyAlreadyStarted`."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.begin_start(conn, lobby_id, user_id, self._db.now_ms()))

    async def lobby_deal(self, lobby_id: str, guild_id: int, start: Input) -> FairDeal | None:
        """The deal of a lobby being started in ``guild_id``: its server seed with the seat
        presses noted so far and ``start``, the press that starts it. None for a lobby opened
        before commitments (its game commits at the start instead)."""
        _id(guild_id, "The server id")
        async with self._db.snapshot() as conn:
            found = await lobbies.deal_secret(conn, lobby_id, guild_id)
        if found is None:
            return None
        server_seed, presses = found
        return FairDeal.of(server_seed, [*(Input("accept" if start.role == "accept" else "join", p)
                                          for p in presses), start])

    async def finish_lobby_start(self, lobby_id: str, game_id: int) -> Lobby:
        """starting -> started with the game just created."""
        return await self._db.transact(lambda conn: lobbies.finish_start(conn, lobby_id, game_id, self._db.now_ms()))

    async def settle_lobby_start(self, lobby_id: str) -> Lobby | None:
        """After a failed start: ``started`` if the game exists after all, else ``open`` again."""
        return await self._db.transact(lambda conn: lobbies.settle_start(conn, lobby_id, self._db.now_ms()))

    async def close_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        """The host cancels the lobby, or the challenged member declines the challenge."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.close(conn, lobby_id, user_id, self._db.now_ms()))

    async def withdraw_lobby(self, lobby_id: str) -> Lobby:
        """Call off a lobby or challenge nobody was shown (its command's answer late or refused)."""
        return await self._db.transact(lambda conn: lobbies.withdraw(conn, lobby_id, self._db.now_ms()))

    async def expire_lobby(self, lobby_id: str) -> Lobby | None:
        """Mark an open lobby past its expiry as expired; None if it was not (or not open)."""
        return await self._db.transact(lambda conn: lobbies.expire(conn, lobby_id, self._db.now_ms()))

    async def recover_lobbies(self, owns: Callable[[int | None], bool] | None = None) -> list[Lobby]:
        """At start-up: settle every lobby a crash left ``starting`` (only in the places ``owns``
        says are this process's: another process may be starting its own right now)."""
        return await self._db.transact(lambda conn: lobbies.recover(conn, self._db.now_ms(), owns))

    async def open_activity_lobbies(self, owns: Callable[[int | None], bool] | None = None
                                    ) -> list[Lobby]:
        """Every open lobby opened from an Activity's page (one with no message), oldest first,
        of the places ``owns`` says are this process's: a restart shows their seats again."""
        async with self._db.snapshot() as conn:
            return await guests.owned(conn, await lobbies.open_activity_lobbies(conn), owns)

    async def open_challenges(self, owns: Callable[[int | None], bool] | None = None) -> list[Lobby]:
        """Every open challenge and rematch, soonest expiry first (of the places ``owns`` says
        are this process's)."""
        async with self._db.snapshot() as conn:
            return await guests.owned(conn, await lobbies.open_challenges(conn), owns)

    async def request_rematch(self, source_game_id: int, user_id: int, *, game: str, stake: int,
                              seats: int, ais: Sequence[str], channel_id: int,
                              rounds: int | None = None, target: int | None = None,
                              preset: str | None = None, teams: str | None = None,
                              expires_at: float, answering: str | None = None,
                              press: int | None = None) -> tuple[Lobby, str]:
        """A player of the finished game asks for its rematch or confirms it (see
        :func:`bot.store.lobbies.request_rematch`); ``"start"`` for the one press that starts it."""
        _id(source_game_id, "The game id")
        _id(user_id, "The user id")
        _id(channel_id, "The channel id")
        _text(game, "The game name", allow_empty=False)
        if stake != 0:
            ledger.check_amount(stake, stake=True)
        if type(seats) is not int or not 1 <= seats <= games.MAX_SEATS:
            raise InvalidInput("The seat count must be a whole number of seats.")
        if not isinstance(expires_at, int | float):
            raise InvalidInput("The expiry must be a time in seconds.")
        pressed = None if press is None else str(_id(press, "The interaction id"))
        server_seed = new_server_seed()  # used only if this request opens the rematch
        values = {"game": game, "stake": stake, "seats": seats, "ais": json.dumps(list(ais)),
                  "channel_id": channel_id, "rounds": rounds or None, "target": target or None,
                  "preset": preset, "teams": teams, "expires_at": int(expires_at * 1000),
                  "server_seed": server_seed, "commitment": commitment_of(server_seed)}
        return await self._db.transact(lambda conn: lobbies.request_rematch(conn, source_game_id, user_id, values,
                                                 self._db.now_ms(), answering, pressed))

    async def live_rematch(self, source_game_id: int) -> Lobby | None:
        """The open, starting or started rematch of a finished game, if any."""
        async with self._db.snapshot() as conn:
            return await lobbies.live_rematch(conn, source_game_id)

    async def decline_rematch(self, lobby_id: str, user_id: int) -> Lobby:
        """A player of the finished game declines its open rematch."""
        _id(user_id, "The user id")
        return await self._db.transact(lambda conn: lobbies.decline_rematch(conn, lobby_id, user_id, self._db.now_ms()))
