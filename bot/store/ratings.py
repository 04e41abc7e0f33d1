"""Ratings per server, game and season: OpenSkill over the full placing.

Why OpenSkill: measured against the bot's earlier pairwise Elo with the AI levels as players of
known strength (``python -m bot.ai ratings``, docs/ai.md "Which rating to show"), it ranks them right
with fewer games, because each player's uncertainty narrows as their games come in. It rates a
game as the game ended: every placing at once (a 5-player Go-Stop game is one result, not ten
duels), by outcome and then by points, and teams as teams (Sakura's pairs and triples), so
teammates share their side's result instead of drawing with each other.

Which OpenSkill model: Bradley-Terry with full pairing (each side compared with every other, all
in one update with their uncertainties). For two players it makes Plackett-Luce's update exactly
(the study measured both the same). With three or more sides and a tie, OpenSkill's Plackett-Luce
can let a side placed behind the tied ones gain as much as they do, or more, and the models with
partial pairing (each side against its neighbours only) give tied players different changes;
full pairing keeps every tied side equal and every better place ahead (tested).

Each player has a skill ``mu`` and an uncertainty ``sigma``. Boards show and rank by the
conservative rating ``mu - 3 sigma``: the skill the bot is nearly sure a player has at least, 0
for a newcomer, rising with wins and as the bot learns more. The model's defaults are scaled by
60 (mu 1500, sigma 500), the same model on a scale players know from chess ratings.

AI seats are not rated, and a game with fewer than two sides of humans changes no rating.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
from openskill.models import BradleyTerryFull

from bot.games.sakura.rules import TEAM_SIZES

from .steps import ExecuteMany, Fetch, StepRequest

__all__ = ["INITIAL", "Placing", "Skill", "apply_ratings", "rate", "recompute"]

# OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), times 60.
MODEL = BradleyTerryFull(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
_OUTCOME_ORDER = {"won": 2, "draw": 1, "lost": 0}


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's skill estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def display(self) -> float:
        """The conservative rating boards show and rank by: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


INITIAL = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True, slots=True)
class Placing:
    """How one human finished a game: the outcome, their points and their side (None: alone)."""

    user_id: int
    outcome: str
    points: int
    team: int | None = None


def _sides(placings: Iterable[Placing]) -> list[list[Placing]]:
    """The humans grouped by side: a team's members together, everyone else alone."""
    sides: dict[Any, list[Placing]] = {}
    for p in placings:
        sides.setdefault(("team", p.team) if p.team is not None else ("user", p.user_id), []).append(p)
    return list(sides.values())


def _ranks(sides: Sequence[Sequence[Placing]]) -> list[int]:
    """1 for the best side: by outcome, then by the side's points; equal sides share a rank."""
    keys = [(max(_OUTCOME_ORDER[p.outcome] for p in side), sum(p.points for p in side))
            for side in sides]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate(before: Mapping[int, Skill], placings: Sequence[Placing]) -> dict[int, Skill]:
    """Every placed user's skill after the game (``before``: their skills, newcomers missing).

    Empty when the humans form fewer than two sides: nothing to compare them with.
    """
    sides = _sides(placings)
    if len(sides) < 2:
        return {}
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)
              for skill in (before.get(p.user_id, INITIAL) for p in side)] for side in sides]
    rated = MODEL.rate(teams, ranks=_ranks(sides))
    return {p.user_id: Skill(r.mu, r.sigma)
            for side, new in zip(sides, rated, strict=True) for p, r in zip(side, new, strict=True)}


def seat_teams(rules: Mapping[str, Any], num_players: int) -> list[int | None]:
    """The side of each seat under a game's stored rules (Sakura's ``teams`` option, seated as
    its ``Rules.sides`` seats them); None for every seat of a game without teams."""
    size = TEAM_SIZES.get(rules.get("teams") or "off", 1)
    if size == 1:
        return [None] * num_players
    count = num_players // size
    return [seat % count for seat in range(num_players)]


_UPSERT = (
    "INSERT INTO ratings (guild_id, game, season, user_id, rating, mu, sigma, games, wins, losses, "
    "draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET rating = excluded.rating, "
    "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
    "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
    "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at"
)


def _upsert_rows(guild_id: int, game: str, season: int, placings: Iterable[Placing],
                 after: Mapping[int, Skill], now: int) -> list[tuple]:
    return [(guild_id, game, season, p.user_id, after[p.user_id].display, after[p.user_id].mu,
             after[p.user_id].sigma, int(p.outcome == "won"), int(p.outcome == "lost"),
             int(p.outcome == "draw"), now) for p in placings]


async def apply_ratings(conn: aiosqlite.Connection, guild_id: int, game: str, season: int,
                        placings: Sequence[Placing], now: int) -> dict[int, tuple[float, float]]:
    """Rate a finished game in ``season``: user -> (rating before, after), as boards show them.
    A season's ratings start afresh at :data:`INITIAL`; nothing changes (and the mapping is
    empty) when the humans form fewer than two sides."""
    if len(_sides(placings)) < 2:
        return {}
    marks = ", ".join("?" * len(placings))
    rows = await conn.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND season = ? "
        f"AND user_id IN ({marks})", (guild_id, game, season, *(p.user_id for p in placings)),
    )
    before = {r[0]: Skill(r[1], r[2]) for r in rows}
    after = rate(before, placings)
    await conn.executemany(_UPSERT, _upsert_rows(guild_id, game, season, placings, after, now))
    return {p.user_id: (before.get(p.user_id, INITIAL).display, after[p.user_id].display)
            for p in placings}


def recompute() -> Generator[StepRequest, Any, None]:
    """Migration 009's step: every server's ratings from its stored results, game by game in the
    order they finished, as :func:`apply_ratings` would have rated them; each result's rating
    before and after with them (the results keep the history the boards and cards show)."""
    results = yield Fetch(
        "SELECT game_id, seat, guild_id, game, user_id, points, outcome, finished_at, season "
        "FROM results ORDER BY finished_at, game_id, seat")
    team_rules = {game_id: seat_teams({"teams": teams}, players) for game_id, teams, players in (
        yield Fetch("SELECT game_id, json_extract(rules, '$.teams'), json_array_length(players) "
                    "FROM games WHERE game = 'sakura'"))}
    skills: dict[tuple[int, str, int, int], Skill] = {}
    records: dict[tuple[int, str, int, int], list[int]] = {}  # games, wins, losses, draws, at
    changes: list[tuple[Any, ...]] = []
    for game_id, seats in itertools.groupby(results, key=lambda r: r[0]):
        rows = list(seats)
        _, _, guild_id, game, _, _, _, now, season = rows[0]
        teams = team_rules.get(game_id)
        placings = [Placing(user, outcome, points, teams[seat] if teams else None)
                    for _, seat, _, _, user, points, outcome, _, _ in rows]
        board = (guild_id, game, season)
        before = {p.user_id: skills[(*board, p.user_id)] for p in placings
                  if (*board, p.user_id) in skills}
        after = rate(before, placings)
        for (_, seat, *_), p in zip(rows, placings, strict=True):
            if not after:
                changes.append((0, None, None, game_id, seat))
                continue
            key = (*board, p.user_id)
            changes.append((1, before.get(p.user_id, INITIAL).display, after[p.user_id].display,
                            game_id, seat))
            skills[key] = after[p.user_id]
            record = records.setdefault(key, [0, 0, 0, 0, now])
            record[0] += 1
            record[1 + ("won", "lost", "draw").index(p.outcome)] += 1
            record[4] = now
    yield ExecuteMany("DELETE FROM ratings")
    yield ExecuteMany(
        "INSERT INTO ratings (guild_id, game, season, user_id, rating, mu, sigma, games, wins, "
        "losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(*key, skill.display, skill.mu, skill.sigma, *records[key]) for key, skill in skills.items()])
    yield ExecuteMany("UPDATE results SET rated = ?, rating_before = ?, rating_after = ? "
                      "WHERE game_id = ? AND seat = ?", changes)
