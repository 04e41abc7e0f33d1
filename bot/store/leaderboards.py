"""Leaderboards per server: by rating, wins, points or win streak (per game or all games), by
chips and by achievements (of every game and season; the 30-day board counts those earned in
the window), and by days on the deal of the day (per game or all games, of every season: the
days a member finished one within its day; the 30-day board counts the window's).

Ranks are competition ranks ("1, 2, 2, 4"): ties share a rank, ordered by user id for a stable
page. The 30-day period ranks wins and points earned in the window, chips gained in the window,
and for rating the current rating of the players who played a rated game in the window. A win
streak is a player's most games won in a row among the results the board reads (in the order
they finished; a draw or a loss ends one), so the 30-day board counts the streaks of the window.
Wins, points and ratings are of one season (``season``) or, for wins and points, of every season
(None); ratings are kept per season. Chips are not seasonal: the ledger carries over. A member
who asked to be forgotten (a negative pseudonym, :mod:`bot.store.privacy`) is on no board.
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from .errors import InvalidInput
from .models import Honours, LeaderboardPage, LeaderboardRow, Metric, Period

__all__ = ["board_source", "leaderboard", "rank_of", "honours", "DAY_MS"]

DAY_MS = 86_400_000
METRICS = ("rating", "wins", "points", "streak", "chips", "achievements", "days")
PERIODS = ("all", "30d")


def board_source(guild_id: int, metric: Metric, game: str | None, period: Period, now: int,
                 season: int | None = None) -> tuple[str, list[Any]]:
    """A SELECT of (user_id, value, games, spread) for one board, with its parameters; spread
    is a rating's uncertainty sigma (NULL on the other boards)."""
    if metric not in METRICS:
        raise InvalidInput(code="unknown_metric", metric=metric, metrics=tuple(METRICS))
    if period not in PERIODS:
        raise InvalidInput(code="unknown_period", period=period)
    since = now - 30 * DAY_MS if period == "30d" else None
    if metric == "rating":
        if not game:
            raise InvalidInput(code="rating_needs_game")
        if season is None:
            raise InvalidInput(code="rating_needs_season")
        sql = ("SELECT user_id, rating AS value, games, sigma AS spread FROM ratings WHERE guild_id = ? AND game = ?"
               " AND season = ? AND user_id > 0")
        params: list[Any] = [guild_id, game, season]
        if since is not None:
            sql += (" AND user_id IN (SELECT user_id FROM results WHERE guild_id = ? AND game = ?"
                    " AND season = ? AND rated = 1 AND finished_at >= ?)")
            params += [guild_id, game, season, since]
        return sql, params
    if metric == "achievements":  # earned once and kept: of every game and season
        sql = ("SELECT user_id, COUNT(*) AS value, NULL AS games, NULL AS spread FROM achievements "
               "WHERE guild_id = ? AND user_id > 0")
        if since is None:
            return sql + " GROUP BY user_id", [guild_id]
        return sql + " AND earned_at >= ? GROUP BY user_id", [guild_id, since]
    if metric == "days":  # the deal of the day is not seasonal: every day counts
        where, params = _of_members(guild_id, game, None, since)
        return ("SELECT user_id, COUNT(DISTINCT day) AS value, COUNT(*) AS games, NULL AS spread "
                f"FROM daily_entries WHERE {where} AND margin IS NOT NULL GROUP BY user_id"), params
    if metric == "chips":
        if since is None:
            return ("SELECT user_id, balance AS value, NULL AS games, NULL AS spread FROM accounts "
                    "WHERE guild_id = ? AND kind = 'user' AND user_id > 0", [guild_id])
        return ("SELECT a.user_id, SUM(e.amount) AS value, NULL AS games, NULL AS spread "
                "FROM accounts a "
                "JOIN entries e ON e.account_id = a.account_id AND e.created_at >= ? "
                "WHERE a.guild_id = ? AND a.kind = 'user' AND a.user_id > 0 GROUP BY a.user_id",
                [since, guild_id])
    where, params = _of_members(guild_id, game, season, since)
    if metric == "streak":
        return _STREAKS.format(where=where), params
    value = "SUM(outcome = 'won')" if metric == "wins" else "SUM(points)"
    return (f"SELECT user_id, {value} AS value, COUNT(*) AS games, NULL AS spread FROM results "
            f"WHERE {where} GROUP BY user_id"), params


def _of_members(guild_id: int, game: str | None, season: int | None, since: int | None
                ) -> tuple[str, list[Any]]:
    """The WHERE of a board's rows: the server's members (never a pseudonym), of ``game``, of
    ``season`` and finished since ``since``, each where given."""
    where, params = "guild_id = ? AND user_id > 0", [guild_id]
    if game:
        where += " AND game = ?"
        params.append(game)
    if season is not None:
        where += " AND season = ?"
        params.append(season)
    if since is not None:
        where += " AND finished_at >= ?"
        params.append(since)
    return where, params


# Each player's longest run of won games: along a run, a won game's place among the player's
# games less its place among their won games stays the same (bot.store.records reads one
# player's the same way). A player who won nothing is not on the board.
_STREAKS = """
    SELECT user_id, MAX(length) AS value, MAX(total) AS games, NULL AS spread
    FROM (SELECT user_id, COUNT(*) AS length, MAX(total) AS total
          FROM (SELECT user_id, outcome, COUNT(*) OVER (PARTITION BY user_id) AS total,
                       ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at, game_id)
                       - ROW_NUMBER() OVER (PARTITION BY user_id, outcome
                                            ORDER BY finished_at, game_id) AS run
                FROM results WHERE {where}) AS ordered
          WHERE outcome = 'won' GROUP BY user_id, run) AS runs
    GROUP BY user_id"""


def _ranked(source: str) -> str:
    return (f"SELECT RANK() OVER (ORDER BY value DESC) AS rank, user_id, value, games, spread, "
            f"COUNT(*) OVER () AS total FROM ({source}) AS board")


def _row(r: Any) -> LeaderboardRow:
    return LeaderboardRow(rank=r["rank"], user_id=r["user_id"], value=r["value"], games=r["games"],
                          spread=r["spread"])


async def leaderboard(conn: aiosqlite.Connection, source: tuple[str, list[Any]], offset: int,
                      limit: int) -> LeaderboardPage:
    if type(offset) is not int or type(limit) is not int or offset < 0 or not 1 <= limit <= 100:
        raise InvalidInput(code="page_range", offset=offset, limit=limit)
    sql, params = source
    rows = list(await conn.execute_fetchall(
        f"{_ranked(sql)} ORDER BY rank, user_id LIMIT ? OFFSET ?", [*params, limit, offset]
    ))
    if rows:
        total = rows[0]["total"]
    else:
        (total,), = await conn.execute_fetchall(f"SELECT COUNT(*) FROM ({sql}) AS board", params)
    return LeaderboardPage(rows=[_row(r) for r in rows], total=total)


async def rank_of(conn: aiosqlite.Connection, source: tuple[str, list[Any]], user_id: int
                  ) -> LeaderboardRow | None:
    sql, params = source
    rows = list(await conn.execute_fetchall(
        f"SELECT * FROM ({_ranked(sql)}) AS ranked WHERE user_id = ?", [*params, user_id]
    ))
    return _row(rows[0]) if rows else None


async def honours(conn: aiosqlite.Connection, guild_id: int, season: int, now: int,
                  podium: int = 3) -> Honours:
    """The boards' leaders of one season (:class:`~bot.store.models.Honours`): the most wins
    over every game, the longest run of wins and the best rating of each game played."""

    async def top(metric: Metric, game: str | None = None, limit: int = 1) -> list[LeaderboardRow]:
        source = board_source(guild_id, metric, game, "all", now, season)
        return (await leaderboard(conn, source, 0, limit)).rows

    wins = [row for row in await top("wins", limit=podium) if row.value > 0]
    streak = next((row for row in await top("streak") if row.value >= 2), None)
    played = await conn.execute_fetchall(
        "SELECT DISTINCT game FROM ratings WHERE guild_id = ? AND season = ? AND user_id > 0 "
        "ORDER BY game", (guild_id, season))
    ratings = {}
    for (game,) in played:
        best = await top("rating", game)
        if best:
            ratings[game] = best[0]
    return Honours(season, wins, streak, ratings)
