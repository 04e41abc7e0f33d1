"""Read-only queries behind the community commands: per-user statistics, game history, the best
yaku a player formed, a finished game's stored outcome and the size of a chip history.

Every query is scoped by the server id first, so no answer mixes in another server's data.
All functions run on a read snapshot opened by the caller (``Store``).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import aiosqlite

from bot.games.events import round_yaku
from bot.games.sakura.rules import TEAM_SIZES

from .db import dialect_of
from .errors import UnknownGame
from .models import (
    GameOutcome,
    Outcome,
    PlayerResult,
    Seat,
    former_member,
    is_pseudonym,
    ms_to_datetime,
)

__all__ = [
    "RatingLine", "RecentResult", "YakuTally", "UserStats", "GameSummary", "HistoryPage",
    "HeadToHead", "GUEST_PLACES", "holds_user", "round_yaku", "user_stats", "guest_record",
    "head_to_head", "game_history",
    "game_outcome", "ledger_count",
]

#: How many of a player's latest finished games are scanned for their best yaku.
YAKU_SCAN_GAMES = 500


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player's rating and record in one game on one server."""

    game: str
    rating: float  # the conservative rating mu - 3 sigma, as boards show it
    games: int
    wins: int
    losses: int
    draws: int
    sigma: float = 0.0  # its uncertainty
    season: int = 0  # the season it belongs to (ratings start afresh each season)


@dataclass(frozen=True, slots=True)
class RecentResult:
    game_id: int
    game: str
    outcome: Outcome
    points: int
    finished_at: datetime
    rating_before: float | None
    rating_after: float | None

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class YakuTally:
    """A yaku the player formed in one game: its best value and how many rounds had it."""

    game: str
    slug: str
    best_points: int
    times: int


@dataclass(frozen=True, slots=True)
class UserStats:
    """A player's record on one server, or in every guest place together (``guild_id``
    :data:`GUEST_PLACES`); finished games only, and AI seats are never players."""

    guild_id: int
    user_id: int
    games: int
    wins: int
    draws: int
    losses: int
    points: int
    games_by_game: dict[str, int]
    ratings: list[RatingLine]
    recent: list[RecentResult]
    yaku: list[YakuTally] = field(default_factory=list)
    # game -> (won, drawn, lost) over every finished game, rated or not (a rating line counts
    # only the rated ones)
    record_by_game: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    # games won in a row up to the latest one (0: the latest was not won), and the most ever,
    # in the order the games finished; a draw or a loss ends a streak
    streak: int = 0
    best_streak: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def favourite_game(self) -> str | None:
        """The game played most often (on a tie, the one played most recently)."""
        if not self.games_by_game:
            return None
        recent_order = [r.game for r in self.recent]
        return max(self.games_by_game, key=lambda g: (
            self.games_by_game[g], -recent_order.index(g) if g in recent_order else -10**9))

    def best_yaku(self, game: str | None = None) -> YakuTally | None:
        """The most valuable yaku formed (in ``game``, or in the favourite game), then the most
        frequent one."""
        game = game or self.favourite_game
        found = [y for y in self.yaku if y.game == game]
        return max(found, key=lambda y: (y.best_points, y.times, y.slug)) if found else None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of a server's game history (from the stored game, without its event log)."""

    game_id: int
    game: str
    status: str
    players: list[Seat]
    names: list[str]
    scores: list[int] | None
    outcomes: dict[int, Outcome]  # seat -> outcome, human seats of finished games
    stake: int
    moves: int
    created_at: datetime
    ended_at: datetime | None
    end_reason: str | None
    teams: str | None = None  # Sakura's team option ("pairs", "triples"; "off" or None: no teams)

    def team_of(self, seat: int) -> list[int]:
        """The seats playing on ``seat``'s side (just ``seat`` without teams)."""
        count = len(self.players) // TEAM_SIZES.get(self.teams or "off", 1)  # as Rules.sides seats them
        return [s for s in range(len(self.players)) if s % count == seat % count]

    @property
    def team_won(self) -> bool:
        """A team won together (several winners that are one side, not a tie)."""
        won = self.winners
        return len(won) > 1 and won == self.team_of(won[0])

    @property
    def winners(self) -> list[int]:
        """Seats that won: humans from the results (with their whole team), else (every human
        lost) the best AI seats."""
        won = [s for s, o in self.outcomes.items() if o == "won"]
        if won and self.teams not in (None, "off"):
            won = sorted({t for s in won for t in self.team_of(s)})
        if won or self.status != "finished":
            return sorted(won)
        if any(o == "draw" for o in self.outcomes.values()):
            return []
        ai = [s for s, p in enumerate(self.players) if not isinstance(p, int)]
        if not ai or not self.scores:
            return []
        best = max(self.scores[s] for s in ai)
        return [s for s in ai if self.scores[s] == best]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    rows: list[GameSummary]
    total: int


def _outcomes(raw: str | None) -> dict[int, Outcome]:
    if not raw:
        return {}
    out: dict[int, Outcome] = {}
    for item in raw.split(","):
        seat, _, outcome = item.partition(":")
        out[int(seat)] = outcome  # type: ignore[assignment]
    return out


async def user_stats(conn: aiosqlite.Connection, guild_id: int, user_id: int, recent: int,
                     season: int | None = None) -> UserStats:
    """The record of one ``season`` (None: every season); ratings are per season (None: the
    latest season each game was rated in)."""
    seasons = _season_range(season)
    ratings = [
        RatingLine(game=r["game"], rating=r["rating"], games=r["games"], wins=r["wins"],
                   losses=r["losses"], draws=r["draws"], sigma=r["sigma"], season=r["season"])
        for r in await conn.execute_fetchall(
            "SELECT game, season, rating, sigma, games, wins, losses, draws FROM ratings r "
            "WHERE guild_id = ? AND user_id = ? AND season = (SELECT MAX(season) FROM ratings l "
            "WHERE l.guild_id = r.guild_id AND l.game = r.game AND l.user_id = r.user_id "
            "AND l.season BETWEEN ? AND ?) ORDER BY games DESC, game",
            (guild_id, user_id, *seasons),
        )
    ]
    return await _record(conn, guild_id, user_id, _OF_SERVER, (guild_id, user_id, *seasons),
                         recent, ratings)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' finished games together in one place, seen from the first: how often each
    finished ahead of the other (won where the other lost). The rest were even: a draw, two
    partners of one team, or both beaten by a third player."""

    games: int
    ahead: int  # the first won and the second lost
    behind: int  # the second won and the first lost


async def head_to_head(conn: aiosqlite.Connection, guild_id: int, user_id: int, other_id: int,
                       season: int | None = None) -> HeadToHead:
    """The finished games of one ``season`` (None: every season) where both sat, here."""
    rows = await conn.execute_fetchall(
        "SELECT a.outcome, b.outcome, COUNT(*) FROM results a JOIN results b "
        "ON b.game_id = a.game_id AND b.user_id = ? "
        "WHERE a.guild_id = ? AND a.user_id = ? AND a.season BETWEEN ? AND ? "
        "GROUP BY a.outcome, b.outcome", (other_id, guild_id, user_id, *_season_range(season)))
    counts = {(mine, theirs): count for mine, theirs, count in rows}
    return HeadToHead(games=sum(counts.values()), ahead=counts.get(("won", "lost"), 0),
                      behind=counts.get(("lost", "won"), 0))


#: The results of one player on one server in a range of seasons.
_OF_SERVER = "guild_id = ? AND user_id = ? AND season BETWEEN ? AND ?"
#: The results of one player in every place where the app is a guest (bot.store.guests), and
#: in no server: a scope is read only when it is noted as a guest place.
_OF_GUEST_PLACES = "user_id = ? AND guild_id IN (SELECT scope_id FROM guest_scopes)"
#: The ``guild_id`` of a record that adds up every guest place (no server has id 0).
GUEST_PLACES = 0


async def guest_record(conn: aiosqlite.Connection, user_id: int, recent: int, *,
                       yaku: bool = True) -> UserStats:
    """A player's own record: their finished games in every place where the app is a guest (a
    DM, a group DM, a server without the bot), together. It has no ratings (each place rates
    apart) and no seasons (only a server has them). Without ``yaku`` its totals alone (the
    yaku are read from the games' logs)."""
    return await _record(conn, GUEST_PLACES, user_id, _OF_GUEST_PLACES, (user_id,), recent, [],
                         yaku=yaku)


async def _record(conn: aiosqlite.Connection, guild_id: int, user_id: int, where: str,
                  params: tuple[int, ...], recent: int, ratings: list[RatingLine], *,
                  yaku: bool = True) -> UserStats:
    """The totals, latest results, yaku and win streaks of the results ``where`` (with
    ``params``) picks; without ``yaku`` the totals and latest results alone."""
    rows = list(await conn.execute_fetchall(
        "SELECT game, COUNT(*) AS games, SUM(outcome = 'won') AS wins, "
        "SUM(outcome = 'draw') AS draws, SUM(outcome = 'lost') AS losses, SUM(points) AS points "
        f"FROM results WHERE {where} GROUP BY game", params,
    ))
    by_game = {r["game"]: r["games"] for r in rows}
    last = [
        RecentResult(game_id=r["game_id"], game=r["game"], outcome=r["outcome"],
                     points=r["points"], finished_at=ms_to_datetime(r["finished_at"]),
                     rating_before=r["rating_before"], rating_after=r["rating_after"])
        for r in await conn.execute_fetchall(
            "SELECT game_id, game, outcome, points, finished_at, rating_before, rating_after "
            f"FROM results WHERE {where} ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (*params, recent),
        )
    ]
    return UserStats(
        guild_id=guild_id, user_id=user_id, games=sum(by_game.values()),
        wins=sum(r["wins"] for r in rows), draws=sum(r["draws"] for r in rows),
        losses=sum(r["losses"] for r in rows), points=sum(r["points"] for r in rows),
        games_by_game=by_game, ratings=ratings, recent=last,
        yaku=await _yaku_tallies(conn, where, params) if yaku else [],
        record_by_game={r["game"]: (r["wins"], r["draws"], r["losses"]) for r in rows},
        **(await _streaks(conn, where, params) if yaku else {}),
    )


# The runs of won games among the results {where} picks, in the order they finished: each won
# game's place in that order less its place among the won games is the same along a run.
_STREAKS = """
    SELECT COALESCE(MAX(length), 0) AS best,
           COALESCE(MAX(CASE WHEN last = total THEN length END), 0) AS current
    FROM (SELECT COUNT(*) AS length, MAX(place) AS last, MAX(total) AS total
          FROM (SELECT outcome, COUNT(*) OVER () AS total,
                       ROW_NUMBER() OVER (ORDER BY finished_at, game_id) AS place,
                       ROW_NUMBER() OVER (ORDER BY finished_at, game_id)
                       - ROW_NUMBER() OVER (PARTITION BY outcome ORDER BY finished_at, game_id) AS run
                FROM results WHERE {where}) AS ordered
          WHERE outcome = 'won' GROUP BY run) AS runs"""


async def _streaks(conn: aiosqlite.Connection, where: str, params: tuple[int, ...]) -> dict[str, int]:
    """The player's current and longest runs of won games (one query over their results)."""
    row = (await conn.execute_fetchall(_STREAKS.format(where=where), params))[0]
    return {"streak": int(row["current"]), "best_streak": int(row["best"])}


# The round_over events of a player's latest games: the one query that walks a JSON array, which
# each database does with its own table function. {where} picks the results.
_YAKU_SCAN = {
    "sqlite": """
        SELECT r.game, r.seat, je.value AS event
        FROM (SELECT game_id, game, seat FROM results WHERE {where}
              ORDER BY finished_at DESC LIMIT ?) r
        JOIN game_events ge ON ge.game_id = r.game_id AND ge.events LIKE '%round_over%'
        JOIN json_each(ge.events) je
        WHERE json_extract(je.value, '$.type') = 'round_over'
        """,
    "postgresql": """
        SELECT r.game, r.seat, je.value::text AS event
        FROM (SELECT game_id, game, seat FROM results WHERE {where}
              ORDER BY finished_at DESC LIMIT ?) r
        JOIN game_events ge ON ge.game_id = r.game_id AND ge.events LIKE '%round_over%'
        CROSS JOIN LATERAL jsonb_array_elements(ge.events::jsonb) AS je(value)
        WHERE je.value ->> 'type' = 'round_over'
        """,
}


def holds_user(column: str, dialect: str) -> str:
    """A condition: the JSON array ``column`` (user ids and AI levels) holds the user id bound
    to its one ``?``."""
    if dialect == "postgresql":
        return f"{column}::jsonb @> jsonb_build_array(?::bigint)"
    return f"EXISTS (SELECT 1 FROM json_each({column}) p WHERE p.value = ?)"


def _season_range(season: int | None) -> tuple[int, int]:
    """The seasons a record reads, as the bounds of ``season BETWEEN ? AND ?``."""
    return (0, 2**62) if season is None else (season, season)


async def _yaku_tallies(conn: aiosqlite.Connection, where: str, params: tuple[int, ...]
                        ) -> list[YakuTally]:
    """Scan the ``round_over`` events of the player's latest finished games (those ``where``
    picks)."""
    rows = await conn.execute_fetchall(_YAKU_SCAN[dialect_of(conn)].format(where=where),
                                       (*params, YAKU_SCAN_GAMES))
    best: dict[tuple[str, str], int] = {}
    times: Counter[tuple[str, str]] = Counter()
    for row in rows:
        try:
            entries = round_yaku(json.loads(row["event"])).get(row["seat"], [])
        except (ValueError, TypeError, AttributeError):
            continue  # a malformed event must not hide the rest of the record
        for entry in entries:
            if not isinstance(entry, list | tuple) or len(entry) < 2:
                continue
            slug, points = str(entry[0]), entry[1]
            if type(points) is not int:
                continue
            key = (row["game"], slug)
            best[key] = max(best.get(key, points), points)
            times[key] += 1
    return sorted(
        (YakuTally(game=g, slug=s, best_points=p, times=times[(g, s)]) for (g, s), p in best.items()),
        key=lambda y: (y.game, -y.best_points, -y.times, y.slug),
    )


_SUMMARY_SELECT = """
SELECT g.game_id, g.game, g.status, g.players, g.stake, g.last_seq, g.created_at, g.ended_at,
       g.end_reason, json_extract(g.state, '$.names') AS names,
       json_extract(g.state, '$.match.scores') AS scores,
       json_extract(g.state, '$.match.rules.teams') AS teams,
       (SELECT group_concat(r.seat || ':' || r.outcome) FROM results r
         WHERE r.game_id = g.game_id) AS outcomes
FROM games g
"""


def _json_list(raw: Any) -> list[Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return None
    return value if isinstance(value, list) else None


def _summary(row: sqlite3.Row) -> GameSummary:
    players = json.loads(row["players"])
    names = _json_list(row["names"])
    if not names or len(names) != len(players) or not all(isinstance(n, str) for n in names):
        names = [f"<@{p}>" if isinstance(p, int) else f"AI ({str(p).partition(':')[2] or p})"
                 for p in players]
    names = [former_member() if is_pseudonym(p) else name for p, name in zip(players, names, strict=True)]
    scores = _json_list(row["scores"])
    if scores is not None and (len(scores) != len(players)
                               or not all(type(s) is int for s in scores)):
        scores = None
    return GameSummary(
        game_id=row["game_id"], game=row["game"], status=row["status"], players=players,
        names=names, scores=scores, outcomes=_outcomes(row["outcomes"]), stake=row["stake"],
        moves=row["last_seq"], created_at=ms_to_datetime(row["created_at"]),
        ended_at=ms_to_datetime(row["ended_at"]), end_reason=row["end_reason"],
        teams=row["teams"] if isinstance(row["teams"], str) else None,
    )


async def game_history(conn: aiosqlite.Connection, guild_id: int, user_id: int | None,
                       game: str | None, offset: int, limit: int) -> HistoryPage:
    """The server's games, newest first (those ``user_id`` sat in, of ``game`` when given)."""
    where, params = ["g.guild_id = ?"], [guild_id]
    if user_id is not None:
        where.append(holds_user("g.players", dialect_of(conn)))  # a game they sat in
        params.append(user_id)
    if game is not None:
        where.append("g.game = ?")
        params.append(game)
    clause = " AND ".join(where)
    (total,), = await conn.execute_fetchall(
        f"SELECT COUNT(*) FROM games g WHERE {clause}", params)
    rows = await conn.execute_fetchall(
        f"{_SUMMARY_SELECT} WHERE {clause} ORDER BY g.game_id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    return HistoryPage(rows=[_summary(r) for r in rows], total=total)


async def game_outcome(conn: aiosqlite.Connection, game_id: int, guild_id: int) -> GameOutcome:
    """The stored results and payouts of a game of this server (empty while it runs)."""
    found = list(await conn.execute_fetchall(
        "SELECT status, payouts FROM games WHERE game_id = ? AND guild_id = ?", (game_id, guild_id)
    ))
    if not found:
        raise UnknownGame(game_id)
    results = [
        PlayerResult(game_id=game_id, seat=r[0], user_id=r[1], points=r[2], outcome=r[3],
                     rating_before=r[4], rating_after=r[5], finished_at=ms_to_datetime(r[6]))
        for r in await conn.execute_fetchall(
            "SELECT seat, user_id, points, outcome, rating_before, rating_after, finished_at "
            "FROM results WHERE game_id = ? ORDER BY seat", (game_id,),
        )
    ]
    payouts = {int(s): a for s, a in json.loads(found[0]["payouts"] or "{}").items()}
    return GameOutcome(game_id=game_id, status=found[0]["status"], results=results,
                       payouts=payouts, replayed=True)


async def ledger_count(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> int:
    """How many lines the user's chip history has on this server."""
    (count,), = await conn.execute_fetchall(
        "SELECT COUNT(*) FROM accounts a JOIN entries e ON e.account_id = a.account_id "
        "WHERE a.guild_id = ? AND a.kind = 'user' AND a.user_id = ?", (guild_id, user_id),
    )
    return count
