"""Open lobbies and challenges, kept in the database rather than in their buttons.

A lobby or challenge message carries only an opaque random id; everything a press is checked
against (server, channel, host, opponent, stake, rules, seats, expiry) is read from this row.
Each change is one write transaction that re-reads the row under the write lock, so two members
joining at once both get in, and of any number of Start presses exactly one moves the row from
``open`` to ``starting``. A start that fails goes back to ``open``; a crash in between is settled
at the next start-up from whether the game (found by its start key) exists.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Literal

import aiosqlite

from . import guests, revisions
from .errors import StoreError
from .ledger import scoped_key
from .models import is_pseudonym

__all__ = [
    "Lobby", "LobbyError", "LobbyNotOpen", "LobbyAlreadyStarted", "LobbyExpired", "LobbyRefused",
    "new_lobby_id", "is_lobby_id", "start_key", "create", "get", "set_message", "join", "leave",
    "add_ai", "begin_start", "deal_secret", "finish_start", "settle_start", "close", "expire", "recover",
    "open_challenges", "mark_shown", "unshown", "request_rematch", "decline_rematch", "live_rematch",
]

Kind = Literal["lobby", "challenge", "rematch"]
_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The server seed is not among them: it is read only by the start that deals with it (deal_secret).
_COLUMNS = ("lobby_id, kind, guild_id, channel_id, message_id, host_id, opponent_id, game, stake, "
            "rounds, target, preset, teams, min_seats, max_seats, humans, ais, status, game_id, "
            "expires_at, source_game_id, options, commitment, seat_presses, revision, origin_id, "
            "replays_game_id")


class LobbyError(StoreError):
    """A refused lobby or challenge operation, named by its ``code`` or class (the Discord side
    phrases it for the presser); the Discord side also raises it with a sentence of its own."""


class LobbyNotOpen(LobbyError):
    """The lobby is unknown, closed or expired (also what a forged id gets)."""

    def __init__(self, message: str = "", /, *, code: str = "", **facts: Any) -> None:
        super().__init__(message, code=code or ("" if message else "lobby_not_open"), **facts)


class LobbyAlreadyStarted(LobbyNotOpen):
    """Another press started (or is starting) the game of this lobby."""

    def __init__(self) -> None:
        super().__init__("the game of this lobby has already started")


class LobbyExpired(LobbyNotOpen):
    """A challenge pressed after its expiry (the row is still ``open`` until :func:`expire`)."""

    def __init__(self) -> None:
        super().__init__("the challenge has expired")


class LobbyRefused(LobbyError):
    """The presser may not do this now (not the host, lobby full, already seated...)."""


@dataclass(frozen=True, slots=True)
class Lobby:
    """One lobby or challenge as stored; ``expires_at`` in seconds since the epoch."""

    lobby_id: str
    kind: Kind
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    opponent_id: int | None
    game: str
    stake: int
    rounds: int | None
    target: int | None
    preset: str | None
    teams: str | None
    min_seats: int
    max_seats: int
    humans: tuple[int, ...]
    ais: tuple[str, ...]
    status: str
    game_id: int | None
    expires_at: float | None
    source_game_id: int | None = None  # a rematch: the finished game it plays again
    options: dict[str, Any] = field(default_factory=dict)  # game rules over the house rules (ante...)
    # The SHA-256 of the secret its game will be dealt from (None: opened before there was one).
    commitment: str | None = None
    # The presses that seated a member after the commitment was shown: (user id, interaction id).
    seat_presses: tuple[tuple[int, str], ...] = ()
    # Counts the changes of the row: the Discord side notes the revision its message shows.
    revision: int = 0
    # The interaction whose answer posted its message (None: opened from an Activity's page).
    origin_id: int | None = None
    # A lobby whose seats are for the players of this finished game, to play it again by its rules.
    replays_game_id: int | None = None

    @property
    def seats(self) -> int:
        """Seats taken (humans and AI players)."""
        return len(self.humans) + len(self.ais)

    @property
    def start_key(self) -> str:
        return start_key(self.lobby_id)


def new_lobby_id() -> str:
    """An unguessable id (128 random bits) that fits a custom id with room to spare."""
    return secrets.token_urlsafe(16)


def is_lobby_id(text: str) -> bool:
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def start_key(lobby_id: str) -> str:
    """The idempotency key of the lobby's game: one game per lobby, even across restarts."""
    return f"lobby:{lobby_id}"


def _lobby(row: sqlite3.Row) -> Lobby:
    return Lobby(
        lobby_id=row["lobby_id"], kind=row["kind"], guild_id=row["guild_id"],
        channel_id=row["channel_id"], message_id=row["message_id"], host_id=row["host_id"],
        opponent_id=row["opponent_id"], game=row["game"], stake=row["stake"], rounds=row["rounds"],
        target=row["target"], preset=row["preset"], teams=row["teams"],
        min_seats=row["min_seats"], max_seats=row["max_seats"],
        humans=tuple(json.loads(row["humans"])), ais=tuple(json.loads(row["ais"])),
        status=row["status"], game_id=row["game_id"],
        expires_at=None if row["expires_at"] is None else row["expires_at"] / 1000,
        source_game_id=row["source_game_id"], options=json.loads(row["options"]),
        commitment=row["commitment"],
        seat_presses=tuple((int(user), str(press)) for user, press in json.loads(row["seat_presses"])),
        revision=row["revision"], origin_id=row["origin_id"], replays_game_id=row["replays_game_id"],
    )


async def get(conn: aiosqlite.Connection, lobby_id: str) -> Lobby | None:
    if not is_lobby_id(lobby_id):
        return None
    rows = list(await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM lobbies WHERE lobby_id = ?", (lobby_id,)))
    return _lobby(rows[0]) if rows else None


async def create(conn: aiosqlite.Connection, values: dict[str, Any], now: int) -> Lobby:
    """Insert a new open lobby; ``values`` are the validated columns (see ``Store.create_lobby``).
    A lobby with a ``replays_game_id`` seats the players of that finished game of its server
    again (the host among them), and its game will be played by that game's rules."""
    source = values.get("replays_game_id")
    if source is not None:
        row, humans = await _source_humans(conn, source)
        if row["guild_id"] != values["guild_id"]:
            raise LobbyNotOpen(code="no_such_game")
        if values["host_id"] not in humans:
            raise LobbyRefused(code="rematch_players_only")
    row = list(await conn.execute_fetchall(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, opponent_id, game, "
        "stake, rounds, target, preset, teams, min_seats, max_seats, humans, ais, expires_at, "
        "created_at, updated_at, options, server_seed, commitment, origin_id, replays_game_id) "
        "VALUES (:lobby_id, :kind, :guild_id, :channel_id, :host_id, :opponent_id, :game, :stake, "
        ":rounds, :target, :preset, :teams, :min_seats, :max_seats, :humans, '[]', :expires_at, "
        ":now, :now, :options, :server_seed, :commitment, :origin_id, :replays_game_id) "
        f"RETURNING {_COLUMNS}",
        {"replays_game_id": None, **values, "now": now},
    ))[0]
    return _lobby(row)


async def _pending(conn: aiosqlite.Connection, lobby_id: str) -> Lobby:
    """The row to change; any state but ``open`` (or an unknown id) refuses."""
    lobby = await get(conn, lobby_id)
    if lobby is None or lobby.status in ("closed", "expired"):
        raise LobbyNotOpen()
    if lobby.status != "open":
        raise LobbyAlreadyStarted()
    return lobby


async def _open(conn: aiosqlite.Connection, lobby_id: str, now: int) -> Lobby:
    lobby = await _pending(conn, lobby_id)
    if lobby.expires_at is not None and now >= lobby.expires_at * 1000:
        raise LobbyExpired()
    return lobby


async def _save_seats(conn: aiosqlite.Connection, lobby: Lobby, humans: list[int], ais: list[str],
                      now: int, presses: list[tuple[int, str]] | None = None) -> Lobby:
    presses = list(lobby.seat_presses) if presses is None else presses
    row = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET humans = ?, ais = ?, seat_presses = ?, updated_at = ?, "
        f"revision = revision + 1 WHERE lobby_id = ? "
        f"RETURNING {_COLUMNS}",
        (json.dumps(humans), json.dumps(ais), _presses_json(presses), now, lobby.lobby_id),
    ))[0]
    return _lobby(row)


def _presses_json(presses: list[tuple[int, str]]) -> str:
    return json.dumps([[user, press] for user, press in presses])


def _with_press(lobby: Lobby, user_id: int, press: str | None) -> list[tuple[int, str]]:
    """The lobby's seat presses with ``user_id``'s press (None: the caller knows of none)."""
    presses = [(u, p) for u, p in lobby.seat_presses if u != user_id]
    return presses if press is None else [*presses, (user_id, press)]


async def set_message(conn: aiosqlite.Connection, lobby_id: str, message_id: int, now: int,
                      shown: int = 0) -> None:
    """``shown``: the revision the message was sent with."""
    await revisions.set_message(conn, "lobbies", lobby_id, message_id, now, shown)


async def mark_shown(conn: aiosqlite.Connection, lobby_id: str, revision: int) -> None:
    await revisions.mark_shown(conn, "lobbies", lobby_id, revision)


async def unshown(conn: aiosqlite.Connection) -> list[Lobby]:
    """Lobbies whose message is behind the stored state (a stop came between a change and its
    edit), oldest change first. Not those being started, nor a guest's, whose message only the
    press that posted it could edit (and which may have become its table)."""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM lobbies WHERE shown < revision AND message_id IS NOT NULL "
        f"AND status <> 'starting' AND guild_id <> channel_id ORDER BY updated_at")
    return [_lobby(r) for r in rows]


async def join(conn: aiosqlite.Connection, lobby_id: str, user_id: int, now: int,
               press: str | None = None) -> Lobby:
    """Seat ``user_id``; ``press``: the id of their Join interaction, mixed into the deal."""
    lobby = await _open(conn, lobby_id, now)
    if lobby.kind != "lobby":
        raise LobbyRefused(code="challenged_only")
    if user_id in lobby.humans:
        raise LobbyRefused(code="already_in_lobby")
    if lobby.seats >= lobby.max_seats:
        raise LobbyRefused(code="lobby_full")
    if lobby.replays_game_id is not None and user_id not in (await _source_humans(conn, lobby.replays_game_id))[1]:
        raise LobbyRefused(code="rematch_seats_players_only")
    return await _save_seats(conn, lobby, [*lobby.humans, user_id], list(lobby.ais), now,
                             _with_press(lobby, user_id, press))


async def leave(conn: aiosqlite.Connection, lobby_id: str, user_id: int, now: int) -> Lobby:
    lobby = await _open(conn, lobby_id, now)
    if user_id not in lobby.humans:
        raise LobbyRefused(code="not_in_lobby")
    if user_id == lobby.host_id:
        raise LobbyRefused(code="host_cannot_leave")
    return await _save_seats(conn, lobby, [h for h in lobby.humans if h != user_id],
                             list(lobby.ais), now, _with_press(lobby, user_id, None))


async def add_ai(conn: aiosqlite.Connection, lobby_id: str, user_id: int, level: str,
                 now: int) -> Lobby:
    lobby = await _open(conn, lobby_id, now)
    if user_id != lobby.host_id or lobby.kind != "lobby":
        raise LobbyRefused(code="host_adds_ai")
    if lobby.replays_game_id is not None:
        raise LobbyRefused(code="rematch_seats_players_only")
    if lobby.seats >= lobby.max_seats:
        raise LobbyRefused(code="lobby_full")
    return await _save_seats(conn, lobby, list(lobby.humans), [*lobby.ais, level], now)


def _starter(lobby: Lobby) -> tuple[int, str]:
    if lobby.kind == "challenge":
        assert lobby.opponent_id is not None
        return lobby.opponent_id, "challenge_not_yours"
    return lobby.host_id, "host_starts"


async def begin_start(conn: aiosqlite.Connection, lobby_id: str, user_id: int, now: int) -> Lobby:
    """open -> starting, for the host of a lobby or the challenged member; the winning press."""
    lobby = await _open(conn, lobby_id, now)
    allowed, refusal = _starter(lobby)
    if user_id != allowed:
        raise LobbyRefused(code=refusal)
    humans = list(lobby.humans)
    if lobby.kind == "challenge" and lobby.opponent_id not in humans:
        humans.append(lobby.opponent_id)  # accepting takes the seat
    if len(humans) + len(lobby.ais) < lobby.min_seats:
        raise LobbyRefused(code="needs_players", least=lobby.min_seats)
    row = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET status = 'starting', humans = ?, updated_at = ?, revision = revision + 1 "
        f"WHERE lobby_id = ? AND status = 'open' RETURNING {_COLUMNS}",
        (json.dumps(humans), now, lobby_id),
    ))[0]
    return _lobby(row)


async def deal_secret(conn: aiosqlite.Connection, lobby_id: str, guild_id: int
                      ) -> tuple[str, list[str]] | None:
    """The server seed of a lobby being started in ``guild_id`` and the ids of its seat presses,
    in order; None for a lobby from before commitments (or another server's, or not starting)."""
    lobby = await get(conn, lobby_id)
    if lobby is None or lobby.guild_id != guild_id or lobby.status != "starting":
        return None
    rows = list(await conn.execute_fetchall(
        "SELECT server_seed FROM lobbies WHERE lobby_id = ?", (lobby_id,)))
    if not rows or rows[0]["server_seed"] is None:
        return None
    return rows[0]["server_seed"], [press for _, press in lobby.seat_presses]


async def finish_start(conn: aiosqlite.Connection, lobby_id: str, game_id: int, now: int) -> Lobby:
    """starting -> started with the game it created, which keeps the server seed from now on."""
    rows = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET status = 'started', game_id = ?, server_seed = NULL, updated_at = ?, "
        f"revision = revision + CASE WHEN status = 'starting' THEN 1 ELSE 0 END "
        f"WHERE lobby_id = ? AND status IN ('starting', 'started') RETURNING {_COLUMNS}",
        (game_id, now, lobby_id),
    ))
    if not rows:
        raise LobbyNotOpen()
    return _lobby(rows[0])


async def settle_start(conn: aiosqlite.Connection, lobby_id: str, now: int) -> Lobby | None:
    """A ``starting`` lobby whose start did not finish: ``started`` if its game exists (found by
    the start key), else back to ``open`` so it can be started again. Other states unchanged."""
    lobby = await get(conn, lobby_id)
    if lobby is None or lobby.status != "starting":
        return lobby
    key = scoped_key(lobby.guild_id, "start", lobby.start_key)
    games = list(await conn.execute_fetchall("SELECT game_id FROM games WHERE start_key = ?", (key,)))
    if games:
        return await finish_start(conn, lobby_id, games[0]["game_id"], now)
    if lobby.kind == "rematch":  # the confirmation that tried to start it is taken back
        humans = list(lobby.humans[:-1])
    else:
        humans = [h for h in lobby.humans if lobby.kind == "lobby" or h == lobby.host_id]
    row = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET status = 'open', humans = ?, updated_at = ?, revision = revision + 1 "
        f"WHERE lobby_id = ? "
        f"RETURNING {_COLUMNS}", (json.dumps(humans), now, lobby_id),
    ))[0]
    return _lobby(row)


async def _set_closed(conn: aiosqlite.Connection, lobby_id: str, now: int) -> Lobby:
    row = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET status = 'closed', updated_at = ?, revision = revision + 1 "
        f"WHERE lobby_id = ? "
        f"RETURNING {_COLUMNS}", (now, lobby_id),
    ))[0]
    return _lobby(row)


async def close(conn: aiosqlite.Connection, lobby_id: str, user_id: int, now: int) -> Lobby:
    """The host cancels a lobby, or the challenged member declines: open -> closed."""
    lobby = await _open(conn, lobby_id, now)
    if lobby.kind == "lobby" and user_id != lobby.host_id:
        raise LobbyRefused(code="host_cancels")
    if lobby.kind == "challenge" and user_id != lobby.opponent_id:
        raise LobbyRefused(code="challenge_not_yours")
    return await _set_closed(conn, lobby_id, now)


async def withdraw(conn: aiosqlite.Connection, lobby_id: str, now: int) -> Lobby:
    """The bot calls off a lobby or challenge that nobody was shown (its command's answer came
    too late, or Discord refused it): open -> closed, whoever hosts it."""
    await _pending(conn, lobby_id)
    return await _set_closed(conn, lobby_id, now)


async def expire(conn: aiosqlite.Connection, lobby_id: str, now: int) -> Lobby | None:
    """open -> expired once the expiry has passed; the changed lobby, or None if nothing changed."""
    rows = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET status = 'expired', updated_at = ?, revision = revision + 1 "
        f"WHERE lobby_id = ? "
        f"AND status = 'open' AND expires_at IS NOT NULL AND expires_at <= ? RETURNING {_COLUMNS}",
        (now, lobby_id, now),
    ))
    return _lobby(rows[0]) if rows else None


async def recover(conn: aiosqlite.Connection, now: int,
                  owns: Callable[[int | None], bool] | None = None) -> list[Lobby]:
    """Settle every ``starting`` lobby left by a crash (see :func:`settle_start`), of the
    places ``owns`` accepts (:func:`bot.store.guests.owned`; all without it)."""
    rows = await guests.owned(conn, list(await conn.execute_fetchall(
        "SELECT lobby_id, guild_id FROM lobbies WHERE status = 'starting'")), owns, itemgetter("guild_id"))
    settled = []
    for row in rows:
        lobby = await settle_start(conn, row["lobby_id"], now)
        if lobby is not None:
            settled.append(lobby)
    return settled


async def open_activity_lobbies(conn: aiosqlite.Connection) -> list[Lobby]:
    """Open lobbies with no message: the seats opened from an Activity's page, oldest first."""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM lobbies WHERE status = 'open' AND kind = 'lobby' "
        f"AND message_id IS NULL ORDER BY created_at")
    return [_lobby(r) for r in rows]


async def open_challenges(conn: aiosqlite.Connection) -> list[Lobby]:
    """Open challenges and rematches (their expiry timers are restarted after a restart)."""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM lobbies WHERE status = 'open' AND kind IN ('challenge', 'rematch') "
        f"AND expires_at IS NOT NULL ORDER BY expires_at")
    return [_lobby(r) for r in rows]


# -- rematches ------------------------------------------------------------------------------------
RematchStep = Literal["created", "confirmed", "waiting", "start"]


async def _source_humans(conn: aiosqlite.Connection, game_id: int) -> tuple[sqlite3.Row, list[int]]:
    """The finished game a rematch repeats and its human players; LobbyRefused otherwise."""
    rows = list(await conn.execute_fetchall(
        "SELECT game_id, guild_id, status, players FROM games WHERE game_id = ?", (game_id,)))
    if not rows:
        raise LobbyNotOpen(code="no_such_game")
    if rows[0]["status"] != "finished":
        raise LobbyRefused(code="rematch_finished_only")
    players = json.loads(rows[0]["players"])
    humans = [p for p in players if isinstance(p, int) and not isinstance(p, bool)]
    if any(is_pseudonym(p) for p in humans):  # they can never confirm it
        raise LobbyRefused(code="rematch_forgotten_player")
    return rows[0], humans


async def live_rematch(conn: aiosqlite.Connection, source_game_id: int) -> Lobby | None:
    """The rematch of a game that is open, starting or started, if any."""
    rows = list(await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM lobbies WHERE kind = 'rematch' AND source_game_id = ? "
        f"AND status IN ('open', 'starting', 'started')", (source_game_id,)))
    return _lobby(rows[0]) if rows else None


async def request_rematch(conn: aiosqlite.Connection, source_game_id: int, user_id: int,
                          values: dict[str, Any], now: int,
                          answering: str | None = None, press: str | None = None
                          ) -> tuple[Lobby, RematchStep]:
    """A player of a finished game asks for (or confirms) its rematch, in one transaction.

    The first request creates the one live rematch of that game (``values``: its game, stake,
    settings, AI levels, seat count and expiry) with the requester confirmed; each further player
    confirms. The confirmation that completes the humans moves the row open -> starting and gets
    ``"start"``: of any number of presses, exactly one. ``"waiting"``: this player had confirmed.
    ``answering``: the press answers that rematch, so it confirms that one or none. ``press``: the
    id of this interaction, noted as a seat press when it confirms a rematch opened before it (the
    one that completes it is mixed in by the start itself)."""
    source, humans = await _source_humans(conn, source_game_id)
    if user_id not in humans:
        raise LobbyRefused(code="rematch_players_only")
    live = await live_rematch(conn, source_game_id)
    if answering is not None and (live is None or live.lobby_id != answering):
        raise LobbyNotOpen(code="rematch_not_open")
    if live is not None:
        lobby = live
        if lobby.status != "open":
            raise LobbyAlreadyStarted()
        if lobby.expires_at is not None and now >= lobby.expires_at * 1000:
            raise LobbyExpired()
        if user_id in lobby.humans:
            return lobby, "waiting"
        step: RematchStep = "confirmed"
    else:
        lobby = _lobby(list(await conn.execute_fetchall(
            "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, game, stake, rounds, "
            "target, preset, teams, min_seats, max_seats, humans, ais, expires_at, source_game_id, "
            "created_at, updated_at, server_seed, commitment, origin_id) VALUES (:lobby_id, "
            "'rematch', :guild_id, :channel_id, :host_id, :game, :stake, :rounds, :target, :preset, "
            ":teams, :seats, :seats, '[]', :ais, :expires_at, :source_game_id, :now, :now, "
            f":server_seed, :commitment, :origin_id) RETURNING {_COLUMNS}",
            {**values, "lobby_id": new_lobby_id(), "guild_id": source["guild_id"], "host_id": user_id,
             "source_game_id": source_game_id, "now": now,
             "origin_id": None if press is None else int(press)},
        ))[0])
        step = "created"
    confirmed = [*lobby.humans, user_id]
    complete = set(humans) <= set(confirmed)
    presses = list(lobby.seat_presses)
    if step == "confirmed" and not complete and press is not None:
        presses = _with_press(lobby, user_id, press)
    row = list(await conn.execute_fetchall(
        f"UPDATE lobbies SET humans = ?, status = ?, seat_presses = ?, updated_at = ?, "
        f"revision = revision + 1 "
        f"WHERE lobby_id = ? RETURNING {_COLUMNS}",
        (json.dumps(confirmed), "starting" if complete else "open", _presses_json(presses), now,
         lobby.lobby_id),
    ))[0]
    return _lobby(row), "start" if complete else step


async def decline_rematch(conn: aiosqlite.Connection, lobby_id: str, user_id: int, now: int) -> Lobby:
    """A player of the finished game declines its open rematch: open -> closed."""
    lobby = await _open(conn, lobby_id, now)
    if lobby.kind != "rematch" or lobby.source_game_id is None:
        raise LobbyNotOpen()
    _, humans = await _source_humans(conn, lobby.source_game_id)
    if user_id not in humans:
        raise LobbyRefused(code="rematch_players_answer")
    return await _set_closed(conn, lobby_id, now)
