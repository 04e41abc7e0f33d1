"""Games: creation with stake escrow, the append-only action log, and the end of a game.

``record_action`` appends the action and saves the new state in one transaction and refuses any
sequence number not above the last one, so a double click or a retried interaction can never apply
a move twice. Finishing stores the results, updates the ratings and pays the pot out of the game's
escrow in the same transaction as the status change; cancelling refunds every stake the same way.
Ending an ended game again returns what the first call did and changes nothing. A betting
game's buy-in is its stake: its bets move inside the escrow, and it names what the escrow pays
each seat at its end (see bot.settlement).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import aiosqlite

from bot.fairness import FairDeal, Input

from . import achievements, daily, guests, seasons
from .db import IntegrityError, dialect_of
from .errors import (
    DuplicateAction,
    GameNotRunning,
    InvalidGame,
    InvalidResult,
    NotDriven,
    StoreError,
    UnknownGame,
    refuse_nul,
)
from .ledger import (
    Acct,
    check_amount,
    escrow_account,
    house_account,
    move,
    scoped_key,
    user_account,
)
from .models import (
    MAX_AMOUNT,
    GameEvent,
    GameOutcome,
    GameRecord,
    PlayerResult,
    Seat,
    SeatResult,
    Series,
    ms_to_datetime,
)
from .ratings import Placing, apply_ratings, seat_teams
from .records import holds_user
from .scope import EVERY_SERVER, Scope

ChipMove = tuple[str, int, int]
"""("stake", seat, chips) into the game's escrow or ("payout", seat, chips) out of it."""

__all__ = ["NewGame", "validate_new_game", "create_game", "record_action", "load_game",
           "running_games", "finish_game", "cancel_game", "compute_payouts",
           "move_chips", "ChipMove"]

MAX_SEATS = 8
_GAME_COLUMNS = ("game_id, guild_id, channel_id, message_id, game, rules, players, stake, status, "
                 "state, state_version, last_seq, seed, created_at, updated_at, ended_at, end_reason, "
                 "replays_game_id, shard_key")


def _json(value: Any, what: str, error: type[StoreError]) -> str:
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise error(f"{what} must be plain JSON values ({exc}).") from None
    return refuse_nul(text, what, error)


def _check_int(value: Any, what: str, low: int, high: int, error: type[StoreError]) -> int:
    if type(value) is not int or not low <= value <= high:
        raise error(f"{what} must be a whole number from {low:,} to {high:,}.")
    return value


#: The validated, serialised columns of a game about to be created.
NewGame = dict[str, Any]


def validate_new_game(guild_id: int, channel_id: int, game: str, rules: Mapping[str, Any],
                      players: Sequence[Seat], seed: int | str, state_json: str,
                      state_version: int, stake: int, message_id: int | None) -> NewGame:
    for value, what in ((guild_id, "The server id"), (channel_id, "The channel id")):
        _check_int(value, what, 1, 2**63 - 1, InvalidGame)
    if message_id is not None:
        _check_int(message_id, "The message id", 1, 2**63 - 1, InvalidGame)
    if not isinstance(game, str) or not game:
        raise InvalidGame("The game needs a name.")
    if not isinstance(rules, Mapping):
        raise InvalidGame("The rules must be a mapping of options.")
    players = list(players)
    if not 1 <= len(players) <= MAX_SEATS:
        raise InvalidGame(f"A game has 1 to {MAX_SEATS} seats.")
    users = [p for p in players if type(p) is int]
    if any(not (type(p) is int and p > 0 or isinstance(p, str) and 0 < len(p) <= 32)
           for p in players):
        raise InvalidGame("Each seat holds a user id or the name of an AI level.")
    if len(set(users)) != len(users):
        raise InvalidGame("A player can take only one seat at a table.")
    if not (type(seed) is int or isinstance(seed, str)):
        raise InvalidGame("The seed must be an integer or a text.")
    if not isinstance(state_json, str):
        raise InvalidGame("The state must be given as JSON text.")
    for text, what in ((game, "The game name"), (state_json, "The state"),
                       *((p, "An AI seat") for p in players if isinstance(p, str))):
        refuse_nul(text, what, InvalidGame)
    if isinstance(seed, str):
        refuse_nul(seed, "The seed", InvalidGame)
    _check_int(state_version, "The state version", 0, 2**31, InvalidGame)
    if stake != 0:
        check_amount(stake, stake=True)
    return {"guild_id": guild_id, "channel_id": channel_id, "message_id": message_id, "game": game,
            "rules": _json(dict(rules), "The rules", InvalidGame),
            "players": _json(players, "The players", InvalidGame), "stake": stake,
            "state": state_json, "state_version": state_version, "seed": json.dumps(seed)}


def _actor_of(stored: int | str) -> int | str:
    """A stored actor: a user id, or a label such as "ai:normal" (PostgreSQL keeps both as text)."""
    if isinstance(stored, str) and stored.removeprefix("-").isdigit():
        return int(stored)  # a user id, or a forgotten member's pseudonym (negative)
    return stored


def _record(row: sqlite3.Row, events: list[GameEvent] | None = None) -> GameRecord:
    return GameRecord(
        game_id=row["game_id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], game=row["game"], rules=json.loads(row["rules"]),
        players=json.loads(row["players"]), stake=row["stake"], status=row["status"],
        state_json=row["state"], state_version=row["state_version"], last_seq=row["last_seq"],
        seed=json.loads(row["seed"]), created_at=ms_to_datetime(row["created_at"]),
        updated_at=ms_to_datetime(row["updated_at"]), ended_at=ms_to_datetime(row["ended_at"]),
        end_reason=row["end_reason"], events=events or [], replays_game_id=row["replays_game_id"],
        shard_key=row["shard_key"],
    )


async def _game_row(conn: aiosqlite.Connection, game_id: int, scope: Scope) -> sqlite3.Row:
    """The game's row if ``scope`` may read it: a game it may not read is as unknown as one that
    does not exist, so a refusal tells nothing of another server's games."""
    rows = list(await conn.execute_fetchall(
        f"SELECT {_GAME_COLUMNS}, payouts FROM games WHERE game_id = ?", (game_id,)
    ))
    if not rows or not scope.admits(rows[0]["guild_id"], _seated(rows[0])):
        raise UnknownGame(game_id)
    return rows[0]


def _seated(row: sqlite3.Row) -> list[Seat]:
    try:
        return list(json.loads(row["players"]))
    except (TypeError, ValueError):
        return []


async def _seat_account(conn: aiosqlite.Connection, guild_id: int, player: Seat, now: int) -> Acct:
    """AI seats stake from and are paid to the house: the house plays them."""
    if isinstance(player, int):
        return await user_account(conn, guild_id, player)
    return await house_account(conn, guild_id, now)


async def create_game(conn: aiosqlite.Connection, new: NewGame, *, key: str | None, actor: int,
                      now: int, moves: Sequence[ChipMove] = (),
                      deal: FairDeal | None = None, replays: int | None = None) -> GameRecord:
    """Insert the game and escrow every seat's stake (a betting game's buy-in): all seats pay or
    the game is not created. ``moves``: first movements made as the game's move 0 (the antes of a
    betting game of the older code, which moved its bets one by one; see :func:`move_chips`).
    ``deal``: the commitment the game was dealt from, kept with it (its server seed included).
    ``replays``: the ended game of the same server and game this one plays again (a cancelled
    one links the chain but counts in no series)."""
    if moves and new["stake"]:
        raise InvalidGame(_BETS_INSIDE)
    if replays is not None:
        before = await conn.execute_fetchall(
            "SELECT 1 FROM games WHERE game_id = ? AND guild_id = ? AND game = ? AND status <> 'running'",
            (replays, new["guild_id"], new["game"]))
        if not before:
            raise InvalidGame("A game is played again only once it has ended, as a game of its own.")
    start_key = scoped_key(new["guild_id"], "start", key) if key is not None else None
    if start_key is not None:
        rows = list(await conn.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE start_key = ?", (start_key,)
        ))
        if rows:
            return _record(rows[0])
    row = list(await conn.execute_fetchall(
        f"INSERT INTO games (guild_id, channel_id, message_id, game, rules, players, stake, state, "
        f"state_version, seed, start_key, created_at, updated_at, replays_game_id, shard_key) "
        f"VALUES (:guild_id, :channel_id, :message_id, :game, :rules, :players, :stake, :state, "
        f":state_version, :seed, :start_key, :now, :now, :replays, :shard_key) RETURNING {_GAME_COLUMNS}",
        {**new, "start_key": start_key, "now": now, "replays": replays,
         "shard_key": await guests.home_of(conn, new["guild_id"])},
    ))[0]
    if new["stake"]:
        game_id, guild_id = row["game_id"], new["guild_id"]
        escrow = await escrow_account(conn, guild_id, game_id, now, create=True)
        for seat, player in enumerate(json.loads(new["players"])):
            await move(
                conn, guild_id=guild_id, key=scoped_key(guild_id, "stake", f"{game_id}:{seat}"),
                kind="stake", src=await _seat_account(conn, guild_id, player, now), dst=escrow,
                amount=new["stake"], actor=actor, reason=f"stake for game #{game_id}", now=now,
                game_id=game_id,
            )
    if moves:
        await move_chips(conn, row["game_id"], new["guild_id"], json.loads(new["players"]), 0, moves,
                         actor, now)
    if deal is not None:
        await conn.execute(
            "INSERT INTO game_deals (game_id, server_seed, commitment, inputs, derivation, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (row["game_id"], deal.server_seed, deal.commitment, json.dumps(deal.inputs_json()),
             deal.derivation, now))
        return replace(_record(row), deal=deal.sealed())
    return _record(row)


_BETS_INSIDE = "A game that escrowed its stakes bets inside its escrow; it moves no chips as it is played."


async def move_chips(conn: aiosqlite.Connection, game_id: int, guild_id: int, players: list[Seat],
                     seq: int, moves: Sequence[ChipMove], actor: int, now: int) -> None:
    """The movements of move ``seq`` of a betting game of the older code, which escrowed nothing
    at sit-down (bot.settlement.bets_from_balance): bets ("stake") from a seat into the game's
    escrow, winnings ("payout") out of it. Each is keyed by game, move and its place in the move,
    so a retried or resumed move never moves chips twice; a seat that cannot cover its bet raises
    InsufficientFunds and the caller's transaction (the move itself) rolls back. Games created now
    escrow the buy-in instead and bet inside it, so they never call this."""
    escrow = await escrow_account(conn, guild_id, game_id, now, create=True)
    assert escrow is not None
    for i, (kind, seat, amount) in enumerate(moves):
        if kind not in ("stake", "payout") or type(seat) is not int or not 0 <= seat < len(players):
            raise InvalidResult(f"Chip movement {i} of move {seq} names no seat of this game.")
        _check_int(amount, "A bet", 1, MAX_AMOUNT, InvalidResult)
        account = await _seat_account(conn, guild_id, players[seat], now)
        src, dst = (account, escrow) if kind == "stake" else (escrow, account)
        await move(conn, guild_id=guild_id, key=scoped_key(guild_id, kind, f"{game_id}:{seq}:{i}"),
                   kind=kind, src=src, dst=dst, amount=amount, actor=actor,
                   reason=f"{'bet in' if kind == 'stake' else 'pot of'} game #{game_id}", now=now,
                   game_id=game_id)


#: Which games a process may write the moves and the end of (their shard key), None: every game.
Drives = Callable[[int | None], bool] | None


def fence(game_id: int, shard_key: int | None, drives: Drives) -> None:
    """Refuse a write to a running game that another process drives now (its shard key moved
    there, :func:`claim_games`): the write rolls back, and its process lets the table go. Every
    write transaction runs after the ones before it (one writer at a time), so the key read here
    is the one its transaction commits against."""
    if drives is not None and not drives(shard_key):
        raise NotDriven(game_id, shard_key)


async def record_action(conn: aiosqlite.Connection, game_id: int, seq: int, actor: int | str,
                        action: str, events_json: str, state_json: str, state_version: int,
                        now: int, moves: Sequence[ChipMove] = (), drives: Drives = None) -> None:
    try:
        updated = list(await conn.execute_fetchall(
            "UPDATE games SET state = ?, state_version = ?, last_seq = ?, updated_at = ? "
            "WHERE game_id = ? AND status = 'running' AND last_seq < ? RETURNING shard_key",
            (state_json, state_version, seq, now, game_id, seq),
        ))
    except IntegrityError:
        raise InvalidGame("The new state is not valid JSON.") from None
    if not updated:
        row = await _game_row(conn, game_id, EVERY_SERVER)
        if row["status"] != "running":
            raise GameNotRunning(game_id, row["status"])
        raise DuplicateAction(game_id, seq, row["last_seq"])
    fence(game_id, updated[0]["shard_key"], drives)
    await conn.execute(
        "INSERT INTO game_events (game_id, seq, actor, action, events, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seq, actor, action, events_json, now),
    )
    if moves:
        row = await _game_row(conn, game_id, EVERY_SERVER)
        if row["stake"]:
            raise InvalidResult(_BETS_INSIDE)
        await move_chips(conn, game_id, row["guild_id"], json.loads(row["players"]), seq, moves,
                         actor if type(actor) is int else 0, now)


async def fair_deal(conn: aiosqlite.Connection, game_id: int, status: str, now: int) -> FairDeal | None:
    """How the game's deal was committed; the server seed only once it is no longer running,
    and for a game of the day's deal only once its day has ended (:mod:`bot.store.daily`)."""
    rows = list(await conn.execute_fetchall(
        "SELECT server_seed, commitment, inputs, derivation FROM game_deals WHERE game_id = ?",
        (game_id,)))
    if not rows:
        return None
    row = rows[0]
    deal = FairDeal(commitment=row["commitment"],
                    inputs=tuple(Input.from_dict(i) for i in json.loads(row["inputs"])),
                    server_seed=row["server_seed"], derivation=row["derivation"])
    until = await daily.sealed_until(conn, game_id, now)
    if until is not None:
        return replace(deal.sealed(), reveal_at=until)
    return deal.sealed() if status == "running" else deal


async def scoped_fair_deal(conn: aiosqlite.Connection, game_id: int, scope: Scope,
                           now: int) -> FairDeal | None:
    """:func:`fair_deal` of a game ``scope`` may read (UnknownGame otherwise)."""
    row = await _game_row(conn, game_id, scope)
    return await fair_deal(conn, game_id, row["status"], now)


async def load_game(conn: aiosqlite.Connection, game_id: int, scope: Scope,
                    with_events: bool, now: int) -> GameRecord:
    row = await _game_row(conn, game_id, scope)
    events = []
    if with_events:
        events = [
            GameEvent(seq=r[0], actor=_actor_of(r[1]), action=r[2], events=json.loads(r[3]),
                      created_at=ms_to_datetime(r[4]))
            for r in await conn.execute_fetchall(
                "SELECT seq, actor, action, events, created_at FROM game_events "
                "WHERE game_id = ? ORDER BY seq", (game_id,),
            )
        ]
    return replace(_record(row, events), deal=await fair_deal(conn, game_id, row["status"], now),
                   sealed_until=await daily.sealed_until(conn, game_id, now))


async def running_games(conn: aiosqlite.Connection, scope: Scope) -> list[GameRecord]:
    """The running games ``scope`` may read, oldest first."""
    where, params = "status = 'running'", ()
    if scope.guild_id is not None:
        where, params = "status = 'running' AND guild_id = ?", (scope.guild_id,)
    elif not scope.every_server:  # a direct message: the games the presser sits at
        where, params = f"status = 'running' AND {holds_user('players', dialect_of(conn))}", \
            (scope.user_id,)
    rows = await conn.execute_fetchall(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY game_id", params
    )
    return [_record(r) for r in rows]


async def unclaimed(conn: aiosqlite.Connection, scope: int, guild_id: int) -> list[int]:
    """The running games of the place ``scope`` whose shard key is not ``guild_id``'s."""
    rows = await conn.execute_fetchall(
        "SELECT game_id FROM games WHERE guild_id = ? AND status = 'running' "
        "AND (shard_key IS NULL OR shard_key <> ?) ORDER BY game_id", (scope, guild_id))
    return [row[0] for row in rows]


async def claim_games(conn: aiosqlite.Connection, scope: int, guild_id: int, now: int) -> list[int]:
    """Give ``guild_id``'s shard the running games of ``scope``, a guest place in that server,
    that another shard drives (a place noted before its server was kept: 031), and note the
    server; the ids of those games. Nothing for a place that is not a guest channel of that
    server (a DM, a group DM, another server's channel, a server's own id)."""
    place = list(await conn.execute_fetchall(
        "SELECT kind, guild_id FROM guest_scopes WHERE scope_id = ?", (scope,)))
    if not place or place[0]["kind"] not in (None, "server") or place[0]["guild_id"] not in (None, guild_id):
        return []
    await guests.note(conn, scope, "server", guild_id, now)
    moved = await unclaimed(conn, scope, guild_id)
    if moved:
        await conn.execute(
            "UPDATE games SET shard_key = ? WHERE guild_id = ? AND status = 'running' "
            "AND (shard_key IS NULL OR shard_key <> ?)", (guild_id, scope, guild_id))
    return moved


async def unshown_ended_games(conn: aiosqlite.Connection) -> list[GameRecord]:
    rows = await conn.execute_fetchall(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE final_shown = 0 AND status <> 'running' "
        "ORDER BY game_id")
    return [_record(r) for r in rows]


async def mark_final_shown(conn: aiosqlite.Connection, game_id: int) -> None:
    await conn.execute("UPDATE games SET final_shown = 1 WHERE game_id = ? AND status <> 'running'",
                       (game_id,))


async def unposted_events(conn: aiosqlite.Connection, game_id: int) -> list[GameEvent]:
    rows = await conn.execute_fetchall(
        "SELECT e.seq, e.actor, e.action, e.events, e.created_at FROM game_events e "
        "JOIN games g ON g.game_id = e.game_id WHERE e.game_id = ? AND e.seq > g.posted_seq "
        "ORDER BY e.seq", (game_id,))
    return [GameEvent(seq=r[0], actor=_actor_of(r[1]), action=r[2], events=json.loads(r[3]),
                      created_at=ms_to_datetime(r[4])) for r in rows]


async def mark_posted(conn: aiosqlite.Connection, game_id: int, seq: int) -> None:
    await conn.execute("UPDATE games SET posted_seq = ? WHERE game_id = ? AND posted_seq < ?",
                       (seq, game_id, seq))


async def ended_outcome(conn: aiosqlite.Connection, game_id: int) -> GameOutcome:
    row = await _game_row(conn, game_id, EVERY_SERVER)
    if row["status"] == "running":
        raise GameNotRunning(game_id, row["status"])
    return await _stored_outcome(conn, row)


def _seat_results(players: list[Seat], results: Sequence[SeatResult]) -> dict[int, SeatResult]:
    by_seat: dict[int, SeatResult] = {}
    for r in results:
        if not isinstance(r, SeatResult):
            raise InvalidResult("Each result must be a SeatResult.")
        if type(r.seat) is not int or not 0 <= r.seat < len(players) or r.seat in by_seat:
            raise InvalidResult(f"Seat {r.seat!r} is not a seat of this game or appears twice.")
        if r.outcome not in ("won", "lost", "draw"):
            raise InvalidResult(f"Outcome {r.outcome!r} must be won, lost or draw.")
        _check_int(r.points, "Points", -MAX_AMOUNT, MAX_AMOUNT, InvalidResult)
        by_seat[r.seat] = r
    if len(by_seat) != len(players):
        raise InvalidResult("Every seat of the game needs a result.")
    return by_seat


def compute_payouts(players: list[Seat], stake: int, outcomes: Mapping[int, str],
                    chip_deltas: Mapping[int, int] | None,
                    pot_shares: Mapping[int, int] | Sequence[tuple[int, int]] | None
                    ) -> dict[int, int]:
    """seat -> chips paid out of the pot (``stake`` per seat). With neither deltas nor shares the
    pot is split evenly among the winners (odd chips to the lowest seats), or returned if none won.
    AI seats' winnings go to the house, which staked for them."""
    if stake == 0:
        if chip_deltas or pot_shares:
            raise InvalidResult("This game has no stake, so no chips can be settled.")
        return {}
    if chip_deltas is not None and pot_shares is not None:
        raise InvalidResult("Give chip deltas or pot shares, not both.")
    seats = range(len(players))
    pot = stake * len(players)
    if chip_deltas is not None:
        if any(type(s) is not int or s not in seats for s in chip_deltas):
            raise InvalidResult("Chip deltas name a seat that is not in this game.")
        for d in chip_deltas.values():
            _check_int(d, "A chip delta", -stake, pot - stake, InvalidResult)
        if sum(chip_deltas.values()) != 0:
            raise InvalidResult("Chip deltas must add up to zero.")
        return {s: stake + chip_deltas.get(s, 0) for s in seats}
    if pot_shares is not None:
        pairs = list(pot_shares.items() if isinstance(pot_shares, Mapping) else pot_shares)
        seat_of = {p: s for s, p in enumerate(players) if isinstance(p, int)}
        payouts = dict.fromkeys(seats, 0)
        for user, amount in pairs:
            if user not in seat_of or payouts[seat_of[user]]:
                raise InvalidResult(f"User {user} is not a player of this game or appears twice.")
            payouts[seat_of[user]] = _check_int(amount, "A pot share", 0, pot, InvalidResult)
        rest = pot - sum(payouts.values())
        ai_seats = [s for s in seats if not isinstance(players[s], int)]
        if rest < 0 or (rest and not ai_seats):
            raise InvalidResult(f"Pot shares must add up to the pot of {pot:,}.")
        if rest:
            payouts[ai_seats[0]] += rest
        return payouts
    winners = [s for s in seats if outcomes[s] == "won"]
    if not winners:
        return dict.fromkeys(seats, stake)
    share, odd = divmod(pot, len(winners))
    payouts = dict.fromkeys(seats, 0)
    for i, s in enumerate(winners):
        payouts[s] = share + (1 if i < odd else 0)
    return payouts


async def _pay_out(conn: aiosqlite.Connection, row: sqlite3.Row, payouts: Mapping[int, int],
                   kind: str, actor: int, now: int) -> None:
    game_id, guild_id = row["game_id"], row["guild_id"]
    escrow = await escrow_account(conn, guild_id, game_id, now)
    players = json.loads(row["players"])
    for seat, amount in sorted(payouts.items()):
        if amount:
            await move(
                conn, guild_id=guild_id, key=scoped_key(guild_id, kind, f"{game_id}:{seat}"),
                kind=kind, src=escrow, dst=await _seat_account(conn, guild_id, players[seat], now),
                amount=amount, actor=actor, reason=f"{kind} of game #{game_id}", now=now,
                game_id=game_id,
            )
    if escrow is not None:
        (left,), = await conn.execute_fetchall(
            "SELECT balance FROM accounts WHERE account_id = ?", (escrow.account_id,)
        )
        if left != 0:  # compute_payouts guarantees this; refuse rather than strand chips
            raise InvalidResult(f"The payouts leave {left:,} chips in the pot.")


def _escrow_payouts(players: list[Seat], payouts: Mapping[int, int]) -> dict[int, int]:
    """Checked payouts a betting game names itself (seat -> chips); :func:`_pay_out` then refuses
    any that do not empty the escrow."""
    out = {}
    for seat, amount in payouts.items():
        if type(seat) is not int or not 0 <= seat < len(players):
            raise InvalidResult(f"Seat {seat!r} is not a seat of this game.")
        out[seat] = _check_int(amount, "A payout", 0, MAX_AMOUNT, InvalidResult)
    return out


async def _unreturned(conn: aiosqlite.Connection, row: sqlite3.Row, now: int) -> dict[int, int]:
    """seat -> chips it has in the pot under way of a betting game of the older code, from the
    ledger: its bets since the escrow last paid out (a hand's pots are paid before the next
    hand's antes, by the same move). The AI seats' go together to the first of them, as they all
    bet the house's chips."""
    game_id, guild_id = row["game_id"], row["guild_id"]
    escrow = await escrow_account(conn, guild_id, game_id, now)
    if escrow is None:
        return {}
    put: dict[int, int] = {}
    for account, amount in await conn.execute_fetchall(
            "SELECT from_account, amount FROM transfers WHERE to_account = ?1 AND transfer_id > "
            "(SELECT COALESCE(MAX(transfer_id), 0) FROM transfers WHERE from_account = ?1)",
            (escrow.account_id,)):
        put[account] = put.get(account, 0) + amount
    refunds = {}
    for seat, player in enumerate(json.loads(row["players"])):
        account = (await _seat_account(conn, guild_id, player, now)).account_id
        if account in put:
            refunds[seat] = put.pop(account)
    return refunds


SERIES_LONGEST = 100
"""The most games a series reads back (a chain of rematches longer than this counts its last)."""


async def series_of(conn: aiosqlite.Connection, row: sqlite3.Row) -> Series | None:
    """The series the finished game of ``row`` ends: it and the games it played again, one
    after another (:class:`Series`); None when it plays no game again (read no further)."""
    if row["replays_game_id"] is None:
        return None
    rows = await conn.execute_fetchall(
        "WITH RECURSIVE chain(game_id, back, depth) AS ("
        "SELECT game_id, replays_game_id, 1 FROM games WHERE game_id = ? UNION ALL "
        "SELECT g.game_id, g.replays_game_id, c.depth + 1 FROM games g "
        "JOIN chain c ON g.game_id = c.back WHERE c.depth < ?) "
        "SELECT c.game_id, g.players, r.user_id, r.outcome FROM chain c "
        "JOIN games g ON g.game_id = c.game_id AND g.status = 'finished' "
        "LEFT JOIN results r ON r.game_id = c.game_id ORDER BY c.game_id",
        (row["game_id"], SERIES_LONGEST))
    played: dict[int, tuple[list[Any], dict[int, str]]] = {}
    for r in rows:
        seats, outcomes = played.setdefault(r["game_id"], (json.loads(r["players"]), {}))
        if r["user_id"] is not None:
            outcomes[r["user_id"]] = r["outcome"]
    if len(played) < 2:
        return None
    wins: dict[int | str, int] = {}
    draws = 0
    for seats, outcomes in played.values():
        won = [user for user, outcome in outcomes.items() if outcome == "won"]
        for user in won:
            wins[user] = wins.get(user, 0) + 1
        if not won:
            if any(not isinstance(p, int) for p in seats) and "lost" in outcomes.values():
                wins["ai"] = wins.get("ai", 0) + 1  # every member lost: the AI won it
            else:
                draws += 1
    return Series(games=len(played), wins=wins, draws=draws)


async def _stored_outcome(conn: aiosqlite.Connection, row: sqlite3.Row) -> GameOutcome:
    results = [
        PlayerResult(game_id=r[0], seat=r[1], user_id=r[2], points=r[3], outcome=r[4],
                     rating_before=r[5], rating_after=r[6], finished_at=ms_to_datetime(r[7]))
        for r in await conn.execute_fetchall(
            "SELECT game_id, seat, user_id, points, outcome, rating_before, rating_after, "
            "finished_at FROM results WHERE game_id = ? ORDER BY seat", (row["game_id"],),
        )
    ]
    payouts = {int(s): a for s, a in json.loads(row["payouts"] or "{}").items()}
    return GameOutcome(game_id=row["game_id"], status=row["status"], results=results,
                       payouts=payouts, replayed=True,
                       achievements=await achievements.of_game(conn, row["game_id"]),
                       series=await series_of(conn, row) if row["status"] == "finished" else None,
                       daily=await daily.place_of_game(conn, row["game_id"])
                       if row["status"] == "finished" else None)


async def _end(conn: aiosqlite.Connection, row: sqlite3.Row, status: str, payouts: dict[int, int],
               reason: str, state: tuple[str, int] | None, now: int) -> None:
    state_json, state_version = state if state is not None else (row["state"], row["state_version"])
    try:
        await conn.execute(
            "UPDATE games SET status = ?, payouts = ?, end_reason = ?, ended_at = ?, updated_at = ?, "
            "state = ?, state_version = ?, final_shown = 0 WHERE game_id = ?",
            (status, json.dumps(payouts), reason, now, now, state_json, state_version,
             row["game_id"]),
        )
    except IntegrityError:
        raise InvalidGame("The final state is not valid JSON.") from None


async def finish_game(conn: aiosqlite.Connection, game_id: int, results: Sequence[SeatResult], *,
                      chip_deltas: Mapping[int, int] | None,
                      pot_shares: Mapping[int, int] | Sequence[tuple[int, int]] | None,
                      state: tuple[str, int] | None, actor: int, reason: str, now: int,
                      escrow_payouts: Mapping[int, int] | None = None,
                      drives: Drives = None) -> GameOutcome:
    """``escrow_payouts``: what a betting game's escrow pays each seat at the end (each seat's
    stack and share of a hand cut short by a forfeit); they must empty it."""
    row = await _game_row(conn, game_id, EVERY_SERVER)
    if row["status"] == "finished":
        return await _stored_outcome(conn, row)
    if row["status"] != "running":
        raise GameNotRunning(game_id, row["status"])
    fence(game_id, row["shard_key"], drives)
    players = json.loads(row["players"])
    by_seat = _seat_results(players, results)
    payouts = compute_payouts(players, row["stake"], {s: r.outcome for s, r in by_seat.items()},
                              chip_deltas, pot_shares)
    if escrow_payouts is not None:
        payouts = _escrow_payouts(players, escrow_payouts)
    await _end(conn, row, "finished", payouts, reason, state, now)
    humans = {seat: p for seat, p in enumerate(players) if isinstance(p, int)}
    season = await seasons.current(conn, row["guild_id"])  # the one the game finishes in
    teams = seat_teams(json.loads(row["rules"]), len(players))
    placings = [Placing(user, by_seat[seat].outcome, by_seat[seat].points, teams[seat])
                for seat, user in sorted(humans.items())]  # a user holds one seat (create_game)
    changes = await apply_ratings(conn, row["guild_id"], row["game"], season, placings, now)
    stored = []
    for seat, user in sorted(humans.items()):
        r = by_seat[seat]
        before, after = changes.get(user, (None, None))
        stored.append(PlayerResult(game_id=game_id, seat=seat, user_id=user, points=r.points,
                                   outcome=r.outcome, rating_before=before, rating_after=after,
                                   finished_at=ms_to_datetime(now)))
    await conn.executemany(
        "INSERT INTO results (game_id, seat, guild_id, game, user_id, points, outcome, rated, "
        "rating_before, rating_after, finished_at, season) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, p.seat, row["guild_id"], row["game"], p.user_id, p.points, p.outcome,
          int(p.rating_before is not None), p.rating_before, p.rating_after, now, season)
         for p in stored],
    )
    await _pay_out(conn, row, payouts, "payout", actor, now)
    of_day = await daily.settle(conn, game_id, players, {s: r.points for s, r in by_seat.items()}, now)
    streak = await daily.streak_of_game(conn, game_id) if of_day else 0
    earned = await achievements.award(conn, row, {p.seat: p.outcome for p in stored}, now,
                                      daily_streak=streak)
    return GameOutcome(game_id=game_id, status="finished", results=stored, payouts=payouts,
                       achievements=earned, series=await series_of(conn, row),
                       daily=await daily.place_of_game(conn, game_id) if of_day else None)


async def cancel_game(conn: aiosqlite.Connection, game_id: int, *, actor: int, reason: str,
                      state: tuple[str, int] | None, now: int,
                      escrow_refunds: Mapping[int, int] | None = None,
                      drives: Drives = None) -> GameOutcome:
    """Refund every seat's stake out of escrow and mark the game cancelled (no results).
    ``escrow_refunds``: a betting game's refunds instead (what each seat holds at the table);
    they must empty the escrow. A game that escrowed no stake yet holds chips (a betting game of
    the older code that no table drives) refunds the pot under way, read from the ledger."""
    row = await _game_row(conn, game_id, EVERY_SERVER)
    if row["status"] == "cancelled":
        return await _stored_outcome(conn, row)
    if row["status"] != "running":
        raise GameNotRunning(game_id, row["status"])
    fence(game_id, row["shard_key"], drives)
    stake = row["stake"]
    players = json.loads(row["players"])
    refunds = {s: stake for s in range(len(players))} if stake else {}
    if escrow_refunds is not None:
        refunds = _escrow_payouts(players, escrow_refunds)
    elif not stake:
        refunds = await _unreturned(conn, row, now)
    await _end(conn, row, "cancelled", refunds, reason, state, now)
    await _pay_out(conn, row, refunds, "refund", actor, now)
    return GameOutcome(game_id=game_id, status="cancelled", results=[], payouts=refunds)
