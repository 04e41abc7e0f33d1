"""Ratings per server and game: Elo, pairwise for more than two players.

Why Elo: players know it, one number per player is easy to show and to audit in the results table
(rating before/after), and the pairwise form (each pair of rated players is one Elo game, K divided
by the number of opponents) is the usual generalisation to 3-7 players: it is zero-sum and reduces
to plain Elo for two. Glicko-2 or TrueSkill converge faster for rare players but need rating
periods or a variance per player that is harder to explain on a leaderboard. Only the outcome
(won / draw / lost) counts, not the point margin: teammates who both won draw with each other, and
two losers of a three-player game draw with each other. AI seats are not rated, and a game with
fewer than two humans changes no rating.
"""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite

__all__ = ["INITIAL_RATING", "K_FACTOR", "expected_score", "pairwise_elo", "apply_ratings"]

INITIAL_RATING = 1500.0
K_FACTOR = 32.0
_SCORE = {"won": 2, "draw": 1, "lost": 0}


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of ``rating`` against ``opponent`` (0..1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pairwise_elo(ratings: Mapping[int, float], outcomes: Mapping[int, str],
                 k: float = K_FACTOR) -> dict[int, float]:
    """New ratings: every pair of players is one Elo game, scored by comparing outcomes."""
    players = sorted(ratings)
    if len(players) < 2:
        return dict(ratings)
    k_pair = k / (len(players) - 1)
    delta = dict.fromkeys(players, 0.0)
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            sa, sb = _SCORE[outcomes[a]], _SCORE[outcomes[b]]
            actual = 1.0 if sa > sb else 0.5 if sa == sb else 0.0
            change = k_pair * (actual - expected_score(ratings[a], ratings[b]))
            delta[a] += change
            delta[b] -= change
    return {p: ratings[p] + delta[p] for p in players}


async def apply_ratings(conn: aiosqlite.Connection, guild_id: int, game: str, season: int,
                        outcomes: Mapping[int, str], now: int
                        ) -> dict[int, tuple[float, float]]:
    """Update the ``season``'s ratings of ``outcomes``' users (user -> outcome); user ->
    (before, after). A season's ratings start afresh at :data:`INITIAL_RATING`.

    Returns an empty mapping (and changes nothing) when fewer than two distinct humans played.
    """
    if len(outcomes) < 2:
        return {}
    marks = ", ".join("?" * len(outcomes))
    rows = await conn.execute_fetchall(
        f"SELECT user_id, rating FROM ratings WHERE guild_id = ? AND game = ? AND season = ? "
        f"AND user_id IN ({marks})", (guild_id, game, season, *outcomes),
    )
    before = dict.fromkeys(outcomes, INITIAL_RATING)
    before.update({r[0]: r[1] for r in rows})
    after = pairwise_elo(before, outcomes)
    await conn.executemany(
        "INSERT INTO ratings (guild_id, game, season, user_id, rating, games, wins, losses, draws, "
        "updated_at) VALUES (?1, ?2, ?9, ?3, ?4, 1, ?5, ?6, ?7, ?8) "
        "ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET rating = excluded.rating, "
        "games = ratings.games + 1, wins = ratings.wins + excluded.wins, "
        "losses = ratings.losses + excluded.losses, "
        "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at",
        [
            (guild_id, game, user, after[user], int(o == "won"), int(o == "lost"),
             int(o == "draw"), now, season)
            for user, o in outcomes.items()
        ],
    )
    return {user: (before[user], after[user]) for user in outcomes}
