"""Are the coach's numbers honest? Predicted against realised, over AI games.

``python -m bot.ai calibration koikoi --decisions 2500 --seed 2 [--json] [--plot FILE]``

AI players (``--level``, every seat) play default matches of ``GAME``, dealt from ``--seed``.
At every decision with a choice, the coach prices the move the player makes from that seat's
observation only (:func:`bot.ai.coach.price`, ``--rollouts`` per move): a chance to win the
round and the expected round points (the seat's points minus the best other seat's). When the
round ends, the prediction is set against what happened. The report: the Brier score of the
chances, a reliability table (decisions binned by predicted chance, the mean prediction against
the share of rounds won in each bin), and the mean error of the points (predicted minus
realised).

``--fit`` fits the game's calibration map from such a run and writes it to
``bot/ai/calibration.json`` (the chances: a logistic regression of the outcome on the logit of
the raw chance; the points: a least-squares line of realised on predicted).
Fit on one seed and measure on another, so the figures come from games the fit never saw.
Games are played in order and cut at the first game that reaches ``--decisions``, so a seed
always gives the same report whatever ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from dataclasses import asdict, dataclass
from typing import Any

from bot.cliargs import file_to_write
from bot.games.cli import BadInput, checked
from bot.games.rng import Rng

BINS = 10
CLIP = 0.005  # raw chances of 0 or 1 (every rollout agreed) are read as 0.5 % or 99.5 %
ROLLOUTS = 300


@dataclass(frozen=True, slots=True)
class Point:
    """One decision: the raw predictions and what the round brought."""

    win: float
    points: float
    won: bool
    realised: int


def _match_points(game: str, level: str, seed: int, index: int, rollouts: int) -> list[Point]:
    """Play match ``index`` of ``seed`` and price every decision's chosen move (raw)."""
    from bot.ai import make_player
    from bot.ai.coach import _margin, price
    from bot.games import game_module

    module = game_module(game)
    seats = module.PLAYERS[0]
    match = module.new_match(seats, module.Rules(), Rng(seed).fork(index).next64())
    players = [make_player(level, game) for _ in range(seats)]
    for p in players:
        if hasattr(p, "seconds"):
            p.seconds = None  # no wall-clock cap: the same seed plays the same games
    rng = Rng(seed).fork(index + 1_000_000)
    out: list[Point] = []
    pending: list[tuple[int, float, float]] = []
    while not match.is_over:
        seat = match.current_player
        obs, legal = match.observation(seat), match.legal_actions()
        action = legal[0] if len(legal) == 1 else players[seat].choose(obs, legal, rng.fork(1))
        if len(legal) > 1:
            priced = price(game, obs, [str(action)], rng.next64(), rollouts, raw=True)
            if priced:
                pending.append((seat, priced[0]["win"], priced[0]["points"]))
        for event in match.apply(action, seat):
            if event.get("type") == "round_over":
                points = event["points"]
                for s, win, expected in pending:
                    margin = _margin(points, s)
                    out.append(Point(win, expected, margin > 0, margin))
                pending = []
    return out


def _job(args: tuple[str, str, int, int, int]) -> list[Point]:
    return _match_points(*args)


def collect(game: str, decisions: int, *, seed: int = 1, level: str = "hard",
            rollouts: int = ROLLOUTS, workers: int = 1) -> list[Point]:
    """At least ``decisions`` priced decisions, from whole matches in order."""
    points: list[Point] = []

    def jobs():
        index = 0
        while True:
            yield (game, level, seed, index, rollouts)
            index += 1

    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_job, jobs()):
                points.extend(part)
                if len(points) >= decisions:
                    pool.terminate()
                    break
    else:
        for job in jobs():
            points.extend(_job(job))
            if len(points) >= decisions:
                break
    return points


def report(game: str, points: list[Point], *, raw: bool = False) -> dict[str, Any]:
    """The figures of ``points``: Brier score, reliability bins, points mean error."""
    from bot.ai.coach import calibrated_points, calibrated_win

    win = [p.win if raw else calibrated_win(game, p.win) for p in points]
    expected = [p.points if raw else calibrated_points(game, p.points) for p in points]
    n = len(points)
    brier = sum((w - p.won) ** 2 for w, p in zip(win, points, strict=True)) / n if n else 0.0
    bins = []
    for b in range(BINS):
        members = [(w, p.won) for w, p in zip(win, points, strict=True)
                   if min(int(w * BINS), BINS - 1) == b]
        if members:
            bins.append({"n": len(members),
                         "predicted": sum(w for w, _ in members) / len(members),
                         "observed": sum(o for _, o in members) / len(members)})
    error = sum(e - p.realised for e, p in zip(expected, points, strict=True)) / n if n else 0.0
    return {"game": game, "decisions": n, "brier": brier, "bins": bins,
            "points_mean_error": error, "raw": raw}


def _logit(p: float) -> float:
    p = min(1 - CLIP, max(CLIP, p))
    return math.log(p / (1 - p))


def fit(game: str, points: list[Point]) -> dict[str, Any]:
    """The calibration map of ``game`` from ``points`` (raw predictions).

    The chances: logistic regression of the outcome on the logit of the raw chance (two
    numbers, ``a * logit(raw) + b``, fitted by Newton's method; few parameters, so the noise of
    a few thousand correlated decisions does not bend the map), kept as knots every 5 points of
    the raw chance. The points: the least-squares line of realised on predicted.
    """
    xs = [_logit(p.win) for p in points]
    ys = [1.0 if p.won else 0.0 for p in points]
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            q = 1 / (1 + math.exp(-(a * x + b)))
            w = q * (1 - q)
            ga += (y - q) * x
            gb += y - q
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    knots = []
    for k in range(21):
        raw = k / 20
        knots.append([raw, round(1 / (1 + math.exp(-(a * _logit(raw) + b))), 4)])
    n = len(points)
    mx = sum(p.points for p in points) / n
    my = sum(p.realised for p in points) / n
    sxx = sum((p.points - mx) ** 2 for p in points)
    sxy = sum((p.points - mx) * (p.realised - my) for p in points)
    scale = sxy / sxx if sxx else 1.0
    return {"win": knots, "logistic": [round(a, 4), round(b, 4)],
            "points": [round(scale, 4), round(my - scale * mx, 4)]}


def plot(result: dict[str, Any], path: str) -> None:
    """A reliability diagram of ``result`` as a PNG at ``path`` (Pillow)."""
    from PIL import Image, ImageDraw

    size, margin = 480, 60
    image = Image.new("RGB", (size + 2 * margin, size + 2 * margin), "white")
    draw = ImageDraw.Draw(image)

    def at(x: float, y: float) -> tuple[float, float]:
        return margin + x * size, margin + (1 - y) * size

    draw.rectangle([at(0, 1), at(1, 0)], outline="black")
    for k in range(1, 10):
        draw.line([at(k / 10, 0), at(k / 10, 1)], fill=(230, 230, 230))
        draw.line([at(0, k / 10), at(1, k / 10)], fill=(230, 230, 230))
    for k in range(0, 11, 2):
        x, y = at(k / 10, 0)
        draw.text((x - 8, y + 6), f"{k * 10}", fill="black")
        x, y = at(0, k / 10)
        draw.text((x - 26, y - 6), f"{k * 10}", fill="black")
    # Where a bin of 100 decisions may lie and still be within 5 points of the diagonal.
    draw.polygon([at(0, 0.05), at(0.95, 1), at(1, 1), at(1, 0.95), at(0.05, 0), at(0, 0)],
                 fill=(225, 240, 225))
    draw.line([at(0, 0), at(1, 1)], fill=(120, 120, 120), width=2)
    bins = result["bins"]
    line = [at(b["predicted"], b["observed"]) for b in bins]
    if len(line) > 1:
        draw.line(line, fill=(30, 90, 200), width=2)
    for b, (x, y) in zip(bins, line, strict=True):
        r = 3 + min(9, b["n"] ** 0.5 / 5)
        colour = (30, 90, 200) if b["n"] >= 100 else (160, 160, 160)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    head = (f"{result['game']}: {result['decisions']} decisions, Brier {result['brier']:.3f},"
            f" points mean error {result['points_mean_error']:+.2f}")
    draw.text((margin, 20), head, fill="black")
    draw.text((margin + size / 2 - 90, size + margin + 26), "predicted chance to win the round, %",
              fill="black")
    draw.text((8, margin - 20), "won, %", fill="black")
    image.save(path, format="PNG", optimize=True)


def lines(result: dict[str, Any]) -> list[str]:
    out = [f"{result['game']}: {result['decisions']} decisions, Brier score {result['brier']:.4f},"
           f" points mean error {result['points_mean_error']:+.3f}"
           + (" (raw, no calibration map)" if result["raw"] else "")]
    for b in result["bins"]:
        gap = 100 * (b["observed"] - b["predicted"])
        out.append(f"  predicted {100 * b['predicted']:5.1f}%  won {100 * b['observed']:5.1f}%"
                   f"  ({gap:+5.1f})  n={b['n']}")
    return out


def main(argv: list[str]) -> None:
    from bot.ai.coach import CALIBRATION_FILE, searchable

    parser = argparse.ArgumentParser(prog="python -m bot.ai calibration",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, nargs="+", default=[2],
                        help="the games' seed; with --load, the seed of each file, in order")
    parser.add_argument("--level", default="hard", help="the AI level at every seat")
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS, help="rollouts per priced move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=file_to_write, help="write the reliability diagram here (PNG)")
    parser.add_argument("--raw", action="store_true", help="report the raw estimates")
    parser.add_argument("--save", type=file_to_write,
                        help="also write every priced decision here (JSON)")
    parser.add_argument("--load", nargs="+", metavar="FILE",
                        help="report or fit the decisions saved in these files, playing nothing")
    parser.add_argument("--fit", action="store_true",
                        help=f"fit the game's map from this run into {CALIBRATION_FILE.name}")
    args = parser.parse_args(argv)
    if not searchable(args.game):
        print(f"{args.game!r} is not a game with a search AI; nothing to calibrate.",
              file=sys.stderr)
        raise SystemExit(2)
    if args.decisions < 1 or args.rollouts < 1 or args.workers < 1:
        print("--decisions, --rollouts and --workers must be at least 1.", file=sys.stderr)
        raise SystemExit(2)
    try:
        checked(args.game, [args.level])
    except BadInput as exc:
        print(f"{exc}.", file=sys.stderr)
        raise SystemExit(2) from None
    if len(args.seed) != len(args.load or [None]):
        print("--seed takes one seed, or with --load one for each file.", file=sys.stderr)
        raise SystemExit(2)
    if args.load:
        points = []
        for path in args.load:
            try:
                with open(path, encoding="utf-8") as file:
                    points += [Point(**p) for p in json.load(file)]
            except (OSError, ValueError, TypeError) as exc:
                print(f"cannot read saved decisions from {path}: {exc}", file=sys.stderr)
                raise SystemExit(2) from None
    else:
        points = collect(args.game, args.decisions, seed=args.seed[0], level=args.level,
                         rollouts=args.rollouts, workers=args.workers)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as file:
            json.dump([asdict(p) for p in points], file)
    if args.fit:
        data = json.loads(CALIBRATION_FILE.read_text()) if CALIBRATION_FILE.exists() else {}
        data[args.game] = fit(args.game, points) | {
            "fitted_on": {"decisions": len(points), "level": args.level, "rollouts": args.rollouts,
                          **({"seed": args.seed[0]} if len(args.seed) == 1 else {"seeds": args.seed})}}
        CALIBRATION_FILE.write_text(json.dumps(data, sort_keys=True).replace('}, "', '},\n "')
                                    + "\n")
        print(f"wrote the {args.game} map to {CALIBRATION_FILE}", file=sys.stderr)
        return
    result = report(args.game, points, raw=args.raw)
    if args.plot:
        plot(result, args.plot)
    if args.json:
        print(json.dumps(result))
    else:
        print("\n".join(lines(result)))
