"""Achievements: marks a member earns on a server by playing there, kept once earned.

Each is checked as a game finishes, in the transaction that stores its results, for every member
who played it: from what the store holds of them on that server (their results) and from the
game itself (its players, the events of its moves). So an achievement is earned exactly once,
with the game that earned it, and a crash either keeps the game's end with its achievements or
neither. Achievements that count results (games, wins, a run of wins, every game played) look
at every result of the member there, so a member who played before achievements existed earns
those with their next game; each game's feat of play (its descriptor's: all five brights, a
basa in Higo-Bana, 38 gwang-ttaeng shown in Seotda, a hand hiki in First Bloom) and the
opponent are of the game being finished; ``daily_run`` counts the member's days in a row on the
deal of the day, as the finish passes them in. ``champion`` is earned as a tournament's places are
stored, by its winner.

The store knows achievements by code only; their names and descriptions are the surfaces'
(:mod:`bot.achievement_text`), a feat's from its game's descriptor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiosqlite

from bot.games.descriptor import Feat, descriptor, descriptors

from .models import ms_to_datetime
from .records import GUEST_PLACES

__all__ = ["CODES", "ALL_GAMES", "DAILY_RUN", "FEATS", "Earned", "award", "of_game", "of_member"]

ALL_GAMES = len(descriptors())
"""How many games the bot has: finishing one of each earns ``all_games``."""
GAMES_FEW, GAMES_MANY, WINS_MANY, RUN = 10, 100, 50, 5
DAILY_RUN = 7
"""Days in a row on the server's deal of the day that earn ``daily_run``."""

FEATS: dict[str, Feat] = {}
"""Each game's feat of play (:class:`bot.games.descriptor.Feat`) by its code, a code that
games share (all five brights) once."""
for _game in descriptors():
    if _game.feat is not None:
        FEATS.setdefault(_game.feat.code, _game.feat)

CODES: tuple[str, ...] = ("first_win", "games_10", "games_100", "wins_50", "all_games", "run_5",
                          "beat_expert", *FEATS, "daily_run", "champion")
"""Every achievement, in the order they are listed."""


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement a member holds on a server, and the game or the tournament that earned it."""

    user_id: int
    code: str
    game_id: int | None
    earned_at: datetime
    tournament_id: int | None = None


_MINE = "FROM results WHERE guild_id = ? AND user_id = ?"
# Every read below seeks the index of a member's results (results_achieved) and stops at what an
# achievement asks for, so a finish costs the same for a member of 20,000 games as of 20.
_GAMES = f"SELECT COUNT(*) FROM (SELECT 1 {_MINE} LIMIT {GAMES_MANY}) AS g"
_KINDS = (  # the games they played, one index seek each (a loose index scan)
    "WITH RECURSIVE kinds(game) AS ("
    f"SELECT MIN(game) {_MINE} UNION ALL "
    f"SELECT (SELECT MIN(game) {_MINE} AND game > kinds.game) FROM kinds WHERE kinds.game IS NOT NULL"
    ") SELECT game FROM kinds WHERE game IS NOT NULL")
_WINS = f"SELECT COUNT(*) FROM (SELECT 1 {_MINE} AND game = ? AND outcome = 'won' LIMIT ?) AS w"
_COUNTED = {"first_win", "games_10", "games_100", "wins_50"}


async def _facts(conn: aiosqlite.Connection, guild_id: int, user_id: int,
                 held: set[str]) -> tuple[int, int, int]:
    """The member's games and wins there (each counted up to what an achievement asks) and how
    many of the games they played; nothing is read when every achievement they count is held."""
    if _COUNTED | {"all_games"} <= held:
        return 0, 0, 0
    mine = (guild_id, user_id)
    kinds = [r[0] for r in await conn.execute_fetchall(_KINDS, mine * 2)]
    games = int((await conn.execute_fetchall(_GAMES, mine))[0][0])
    wins = 0
    for game in kinds:
        if wins >= WINS_MANY:
            break
        wins += int((await conn.execute_fetchall(_WINS, (*mine, game, WINS_MANY - wins)))[0][0])
    return games, wins, len(kinds)


async def _run(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> bool:
    """Whether the member's latest :data:`RUN` results are all wins."""
    rows = await conn.execute_fetchall(
        "SELECT outcome FROM results WHERE guild_id = ? AND user_id = ? "
        "ORDER BY finished_at DESC, game_id DESC LIMIT ?", (guild_id, user_id, RUN))
    return len(rows) == RUN and all(r[0] == "won" for r in rows)


async def _feat_seats(conn: aiosqlite.Connection, game_id: int, game: str) -> set[int]:
    """The seats that did the game's feat of play (its descriptor's), read from its events."""
    feat = descriptor(game).feat
    if feat is None:
        return set()
    seats: set[int] = set()
    for (raw,) in await conn.execute_fetchall(
            "SELECT events FROM game_events WHERE game_id = ? AND events LIKE ?",
            (game_id, f'%"{feat.event}"%')):
        for event in json.loads(raw):
            if isinstance(event, dict) and event.get("type") == feat.event:
                seats.update(feat.seats(event))
    return seats


async def award(conn: aiosqlite.Connection, game: dict[str, Any], outcomes: dict[int, str],
                now: int, daily_streak: int = 0) -> dict[int, tuple[str, ...]]:
    """The achievements the members of a game just finished earn by it (user id -> codes, in
    :data:`CODES` order), stored. ``game``: its row (``game_id``, ``guild_id``, ``game``,
    ``players`` as JSON); ``outcomes``: seat -> outcome of every member's seat;
    ``daily_streak``: for a game of the day's deal, its member's days in a row with it. Run after
    the game's results are stored, in the same transaction."""
    if not outcomes:  # the AI alone played it: nobody to earn anything, nothing to read
        return {}
    guild_id, game_id = game["guild_id"], game["game_id"]
    players = json.loads(game["players"])
    experts = any(p == "ai:expert" for p in players)
    feat = descriptor(game["game"]).feat
    did = await _feat_seats(conn, game_id, game["game"])
    earned: dict[int, tuple[str, ...]] = {}
    for seat, outcome in sorted(outcomes.items()):
        user = players[seat]
        held = {r[0] for r in await conn.execute_fetchall(
            "SELECT code FROM achievements WHERE guild_id = ? AND user_id = ?", (guild_id, user))}
        if held >= set(CODES):
            continue
        games, wins, kinds = await _facts(conn, guild_id, user, held)
        won = outcome == "won"
        met = {"first_win": wins >= 1, "games_10": games >= GAMES_FEW, "games_100": games >= GAMES_MANY,
               "wins_50": wins >= WINS_MANY, "all_games": kinds >= ALL_GAMES,
               "run_5": won and await _run(conn, guild_id, user),
               "beat_expert": won and experts, "daily_run": daily_streak >= DAILY_RUN}
        if feat is not None:
            met[feat.code] = seat in did
        new = tuple(code for code in CODES if met.get(code) and code not in held)
        if new:
            await conn.executemany(
                "INSERT INTO achievements (guild_id, user_id, code, game_id, earned_at) "
                "VALUES (?, ?, ?, ?, ?)", [(guild_id, user, code, game_id, now) for code in new])
            earned[user] = new
    return earned


async def champion(conn: aiosqlite.Connection, guild_id: int, user_id: int, tournament_id: int,
                   now: int) -> bool:
    """The member won a tournament of the server (its first place, stored in the same
    transaction): ``champion`` the first time. Whether it was earned now."""
    rows = await conn.execute_fetchall(
        "INSERT INTO achievements (guild_id, user_id, code, tournament_id, earned_at) "
        "VALUES (?, ?, 'champion', ?, ?) ON CONFLICT (guild_id, user_id, code) DO NOTHING "
        "RETURNING code", (guild_id, user_id, tournament_id, now))
    return bool(list(rows))


async def of_game(conn: aiosqlite.Connection, game_id: int) -> dict[int, tuple[str, ...]]:
    """What a finished game earned its members (as :func:`award` returned it)."""
    found: dict[int, list[str]] = {}
    for user, code in await conn.execute_fetchall(
            "SELECT user_id, code FROM achievements WHERE game_id = ?", (game_id,)):
        found.setdefault(int(user), []).append(code)
    return {user: tuple(c for c in CODES if c in codes) for user, codes in found.items()}


async def of_member(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> list[Earned]:
    """A member's achievements on a server (or, for :data:`~bot.store.records.GUEST_PLACES`,
    in the places the app is a guest in, each the first time earned), in :data:`CODES` order."""
    where = ("guild_id IN (SELECT scope_id FROM guest_scopes)" if guild_id == GUEST_PLACES
             else "guild_id = ?")
    rows = await conn.execute_fetchall(
        f"SELECT user_id, code, game_id, earned_at, tournament_id FROM achievements WHERE {where} "
        f"AND user_id = ? ORDER BY earned_at DESC",
        (user_id,) if guild_id == GUEST_PLACES else (guild_id, user_id))
    held = {r[1]: Earned(int(r[0]), r[1], r[2], ms_to_datetime(r[3]), r[4]) for r in rows}
    return [held[c] for c in CODES if c in held]
