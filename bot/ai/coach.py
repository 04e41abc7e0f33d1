"""The coach's arithmetic: what each legal move of a decision is worth, and what a game's
decisions cost the player who made them.

:func:`price` values every candidate of one decision by the search's determinized rollouts
(:mod:`bot.ai.search`): worlds sampled from the seat's observation alone, each candidate played
in the same worlds with the same rollout seeds (common random numbers), every seat then playing
on like the greedy player. Unlike the search player it spends the same number of rollouts on
every candidate, so each gets an estimate: the expected round points (this seat's points minus
the best other seat's, the ``points`` of a round) and the chance to win the round (to end it
with more points than every other seat). The raw chance goes through the game's calibration
map (``calibration.json``, fitted by ``python -m bot.ai calibration --fit``; see
docs/coach.md), so a "60 %" means the round is won about 60 times in 100.

:func:`decisions` lists the decisions a seat made in a stored game (from its seed and action
log, like a replay); :func:`assess` turns their prices into the moments that cost the most.
Everything here takes and returns plain data, so it runs in the AI worker processes; the same
observation, legal moves, seed and budget always give the same numbers.
"""

from __future__ import annotations

import bisect
import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.games.base import Action
from bot.games.descriptor import descriptor, resolve
from bot.games.rng import Rng

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")

REVIEW_ROLLOUTS = 600
"""Rollouts per candidate move in a review where the game has a dedicated rollout loop (the hard
level spends 400 on all candidates together); a third of it elsewhere (:func:`budget`)."""
HINT_ROLLOUTS = 150
"""Rollouts per candidate move in a hint, likewise a third of it where rollouts run the engine:
measured to answer within a second (docs/coach.md)."""


def budget(game: str, rollouts: int) -> int:
    """The rollouts per move the coach spends in ``game``: ``rollouts`` where the game's search
    profile names a dedicated rollout loop (Koi-Koi's), a third of it where rollouts run the
    engine, several times slower (measured: docs/coach.md)."""
    try:
        fast = descriptor(game).search.rollout is not None
    except KeyError:
        fast = False
    return rollouts if fast else max(1, rollouts // 3)


def searchable(game: str) -> bool:
    """Whether ``game`` has a search AI (its descriptor names a world builder): only those games
    are reviewed."""
    try:
        return descriptor(game).search.worlds is not None
    except KeyError:
        return False


def hintable(game: str) -> bool:
    """Whether the coach can price ``game``'s decisions for a hint: a search AI, or a pricer of
    its own in its descriptor (Seotda's equity)."""
    try:
        profile = descriptor(game).search
    except KeyError:
        return False
    return profile.worlds is not None or profile.pricer is not None


@functools.cache
def _calibration() -> dict[str, Any]:
    try:
        return json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def calibrated_win(game: str, raw: float) -> float:
    """The chance to win the round that the raw rollout share ``raw`` stands for in ``game``: a
    piecewise-linear monotone map through the fitted knots (none fitted: ``raw`` itself)."""
    knots = _calibration().get(game, {}).get("win")
    if not knots:
        return raw
    xs = [k[0] for k in knots]
    ys = [k[1] for k in knots]
    if raw <= xs[0]:
        return ys[0]
    if raw >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, raw)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 == x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def calibrated_points(game: str, raw: float) -> float:
    """The expected round points that the raw rollout mean ``raw`` stands for in ``game``
    (a fitted ``scale * raw + shift``; none fitted: ``raw`` itself)."""
    fit = _calibration().get(game, {}).get("points")
    if not fit:
        return raw
    return fit[0] * raw + fit[1]


def _margin(points: Sequence[int], seat: int) -> int:
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def price(game: str, observation: dict[str, Any], legal: Sequence[str], seed: int,
          rollouts: int, *, raw: bool = False) -> list[dict[str, Any]]:
    """Every legal move of one decision with its expected round points (``points``) and its
    chance to win the round (``win``), best first; empty when this phase is not rebuilt from
    an observation. ``rollouts`` per candidate; ``raw`` skips the calibration map."""
    from bot.ai.search import Sampler, SearchPlayer

    pricer = descriptor(game).search.pricer
    if pricer is not None:  # a game the search does not play prices its own decisions
        return resolve(pricer)(observation, list(legal), seed, rollouts)
    actions = [Action.parse(a) for a in legal]
    sampler = Sampler(observation)
    if not sampler.ok or not actions:
        return []
    player = SearchPlayer(game, iterations=rollouts)
    seat = observation["seat"]
    rng = Rng(seed)
    totals = [0.0] * len(actions)
    wins = [0] * len(actions)
    for _ in range(rollouts):
        world = sampler.world(rng)
        rollout_seed = rng.next64()
        for i, action in enumerate(actions):
            margin = _margin(player.play_out(world, action, Rng(rollout_seed)), seat)
            totals[i] += margin
            wins[i] += margin > 0
    out = []
    for i, action in enumerate(actions):
        points, win = totals[i] / rollouts, wins[i] / rollouts
        if not raw:
            points, win = calibrated_points(game, points), calibrated_win(game, win)
        out.append({"action": str(action), "points": points, "win": win})
    out.sort(key=lambda p: (-p["points"], -p["win"]))
    return out


@dataclass
class Decision:
    """One decision a reviewed seat made: where (``seq`` of its stored action, ``round``), what
    it could do and did, and the data a worker needs to price it."""

    seq: int
    round: int
    chosen: str
    legal: list[str]
    observation: dict[str, Any]
    seed: int
    call: bool  # a call (koi-koi, go/stop...), not a card play: no legal move names a card

    def job(self, game: str, rollouts: int) -> tuple[Any, ...]:
        return (game, self.observation, self.legal, self.seed, rollouts)


def decisions(game: str, new_match: Any, actions: Iterable[tuple[int, str, Any]], seat: int,
              actor: Any, seed: int) -> list[Decision]:
    """The decisions ``seat`` made itself in a stored game: every stored action whose actor is
    ``actor`` (not the bot moving for a timeout) where more than one move was legal and the
    position can be searched. ``actions`` are (seq, action text, actor) in order;
    ``new_match()`` deals the game afresh. Each decision gets its own rollout seed from
    ``seed`` and its ``seq``, so a review is the same every time."""
    from bot.ai.search import Sampler

    match = new_match()
    found = []
    for seq, text, who in actions:
        if match.current_player == seat and who == actor:
            legal = match.legal_actions()
            if len(legal) > 1:
                obs = match.observation(seat)
                if Sampler(obs).ok:
                    found.append(Decision(
                        seq=seq, round=match.round_number, chosen=str(Action.parse(text)),
                        legal=[str(a) for a in legal], observation=obs,
                        seed=Rng(seed).fork(seq).next64(),
                        call=all(a.card is None for a in legal)))
        match.apply(text)
    return found


@dataclass
class Moment:
    """A decision that cost points: the move made, the better one, and what the choice cost."""

    seq: int
    round: int
    call: bool
    chosen: str
    best: str
    points: float  # expected round points lost (best minus chosen)
    win: float  # chance to win the round lost (best minus chosen), 0..1
    chosen_points: float
    best_points: float
    chosen_win: float
    best_win: float


@dataclass
class Review:
    """What a game's decisions cost: the total, by kind, and the costliest moments."""

    decisions: int
    lost: float
    moments: list[Moment] = field(default_factory=list)
    calls_lost: float = 0.0
    plays_lost: float = 0.0
    call_rounds: list[int] = field(default_factory=list)
    play_rounds: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


MOMENTS = 3
"""Moments a review shows."""
WORTH = 0.5
"""Expected points a moment must cost to be shown: below that the rollouts' noise could explain it."""


def assess(found: Sequence[Decision], prices: Sequence[list[dict[str, Any]]]) -> Review:
    """The review of ``found`` decisions given their ``prices`` (from :func:`price`)."""
    moments = []
    for decision, priced in zip(found, prices, strict=True):
        if not priced:
            continue
        by_action = {p["action"]: p for p in priced}
        mine = by_action.get(decision.chosen)
        if mine is None:
            continue
        best = priced[0]
        moments.append(Moment(
            seq=decision.seq, round=decision.round, call=decision.call, chosen=decision.chosen,
            best=best["action"], points=max(0.0, best["points"] - mine["points"]),
            win=best["win"] - mine["win"], chosen_points=mine["points"],
            best_points=best["points"], chosen_win=mine["win"], best_win=best["win"]))
    review = Review(decisions=len(moments), lost=sum(m.points for m in moments))
    costly = sorted((m for m in moments if m.points >= WORTH), key=lambda m: (-m.points, m.seq))
    review.moments = costly[:MOMENTS]
    for m in costly:
        if m.call:
            review.calls_lost += m.points
            review.call_rounds.append(m.round)
        else:
            review.plays_lost += m.points
            review.play_rounds.append(m.round)
    review.call_rounds = sorted(set(review.call_rounds))
    review.play_rounds = sorted(set(review.play_rounds))
    return review
