"""Load benchmark: many Koi-Koi tables against the AI at once, the bot in its own process.

    python -m bot.bench load --tables 10,50,200 [--seconds 60] [--ai normal|hard] [--think-ms 0] [--rounds R]
                             [--runs 1] [--clicks N] [--validate-every 100] [--rest-ms 0] [--long-games]
                             [--json]

Each run starts the local Discord stand-in of the test suite in this process (127.0.0.1 only) and
the real bot (``bot.discord_ui.client.HanafudaBot``) in a subprocess aimed at it, with a temporary SQLite
database. N players, each in a channel of their own (25 to a server), run ``/koikoi ai:LEVEL``
together; their hands come by DM. Each player presses a random legal move as soon as the hand
offers one (or after --think-ms), and starts a new match when one ends, until --seconds are over
(or --clicks presses were made). With --rest-ms the stand-in answers every REST request that
much later, as Discord does from across the internet. With --long-games every table is edited as
the bot, as in a game older than the 14 minutes its command's token lasts, and its edits count
against the global limit. Figures per N (medians over --runs):

  acks           press -> the bot's first answer to the interaction: p50/p95/p99/max, and how
                 many took more than Discord's 3 s (unanswered ones included); in the JSON also
                 apart for the presses on hands and for the commands (the opening burst)
  visible        move press -> the first update of the presser's table or hand showing the move
                 (in the JSON also ``table_ms``: press -> the table message showing it, what
                 the other players at the table watch)
  loop lag max   the worst event-loop lag inside the bot process during the run
  stalls         every lag of the bot's loop over 50 ms with what held it (bot.stallwatch): the
                 count, by kind (gc, cpu: our code, runqueue: no CPU for the loop's thread,
                 blocked), the project's frames seen most, and the worst ones with their loop
                 thread's CPU, collections and sampled stacks; the collector's totals by
                 generation; and the harness's own stalls, which delay what it measures
  loop thread    the bot loop thread's CPU and its wait for a CPU over the run (schedstat): a
                 long wait means the machine was full, whatever the bot's code did
  clicks/s       interactions the players sent (moves and commands) per second
  REST/s peak    the most requests in any 1 s that count against Discord's global limit (not
                 interaction callbacks nor webhook calls), and the 429 answers
  REST per move  requests to Discord per move a player pressed (what the AI's answer costs is
                 in it): all of them, and those that count against the global limit
  RSS peak       the bot process, and the bot with its worker processes; and both at the end
                 of every minute of the run (a leak shows as a rising line)
  CPU            the bot's group, this process (stand-in and players: what the harness costs)
                 and every other process of the machine, in % of one core

Needs the test extras (``pip install -e '.[test]'``) and Discord's OpenAPI spec (see docs/development.md).
The bot process and the temporary files are removed however the run ends, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.bench._loadplayer import Budget, LoadPlayer, Press
from bot.bench._loadproc import BotProcess, GroupMonitor, kill_all_started
from bot.bench._loadstandin import LoadStandIn
from bot.cliargs import file_to_write, not_negative
from bot.loopwatch import LoopWatch
from bot.stallwatch import StallRecorder
from tests.discord_standin import SpecIndex, SpecMissing, load_spec
from tests.discord_standin.state import CHANNEL_DM

PLAYERS_PER_GUILD = 25
ACK_LIMIT = 3.0  # Discord's window for the first answer to an interaction
READY_TIMEOUT = 120.0
ANSWER_GRACE = 30.0  # after the last press: how long presses in flight may still be answered
MAX_CLICKS_PER_SECOND = 200  # the default press budget per second of --seconds: a safety bound
VALIDATE_EVERY = 100
"""One request body in this many is checked against Discord's spec: the check of a laid-out
message's body (about 5 ms, 60 ms before the stand-in tried only the union branches that fit)
runs in the process that measures the bot's acks."""
WORST_STALLS = 5
STALL_KINDS = ("gc", "cpu", "runqueue", "blocked")
MIB = 1024 * 1024
TEMP_DIRS: list[Path] = []


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def peak_per_second(times: list[float], since: float, until: float) -> int:
    """The most of ``times`` falling in any 1 s window within [since, until]."""
    inside = sorted(t for t in times if since <= t <= until)
    best = start = 0
    for end, t in enumerate(inside):
        while t - inside[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def stall_summary(stalls: list[dict[str, Any]], worst: int = WORST_STALLS) -> dict[str, Any]:
    """Stalls (``bot.stallwatch.Stall.describe()`` dicts): how many, of which kinds, where in
    the project's code they were seen, and the ``worst`` longest in full."""
    frames: dict[str, int] = {}
    for stall in stalls:
        if stall.get("own_frame"):
            frames[stall["own_frame"]] = frames.get(stall["own_frame"], 0) + 1
    kinds = {kind: 0 for kind in STALL_KINDS}
    for stall in stalls:
        kinds[stall["kind"]] = kinds.get(stall["kind"], 0) + 1
    return {
        "count": len(stalls),
        "total_ms": round(sum(s["ms"] for s in stalls), 1),
        "max_ms": max((s["ms"] for s in stalls), default=None),
        "kinds": kinds,
        "own_frames": [{"frame": f, "stalls": n}
                       for f, n in sorted(frames.items(), key=lambda kv: -kv[1])[:8]],
        "worst": sorted(stalls, key=lambda s: -s["ms"])[:worst],
    }


class HarnessHeap:
    """Keeps the harness's own full collections short, so that they do not delay what it times.

    The stand-in keeps every interaction and message of the run (the bot may use an
    interaction's token for 15 minutes), and the players every press. Left in the collector's
    oldest generation, they were all walked by each of the harness's full collections, which
    grew with the run; a callback arriving meanwhile waited unread and was timed late by as
    much. Every ``every`` seconds the young garbage is collected and what is left alive moved out
    of the collector's passes; at the end it is given back and collected once, outside the
    measured window. What is moved still goes when its last reference does; only a cycle that
    becomes garbage after the move waits for that last collection."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="harness heap")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.settle()

    @staticmethod
    def settle() -> None:
        gc.collect(1)
        gc.freeze()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.unfreeze()
        gc.collect()


class LoadRun:
    """One run: the stand-in, the bot process, the players, and the figures they produce."""

    def __init__(self, spec: SpecIndex, *, tables: int, seconds: float, level: str, think: float,
                 clicks: int, validate_every: int, seed: int, rounds: int | None = None,
                 ai_delay: float | None = None, stalls_out: Path | None = None,
                 rest_delay: float = 0.0, long_games: bool = False) -> None:
        self.tables, self.seconds, self.level, self.think = tables, seconds, level, think
        self.long_games = long_games
        self.stalls_out = stalls_out
        self.rounds = rounds
        self.ai_delay = ai_delay
        self.clicks, self.seed = clicks, seed
        self.standin = LoadStandIn(spec, validate_every=validate_every)
        self.standin.rest_delay = rest_delay
        self.presses: list[Press] = []
        self.by_interaction: dict[int, tuple[LoadPlayer, Press]] = {}
        self.players: list[LoadPlayer] = []
        self.by_user: dict[int, LoadPlayer] = {}
        self.by_channel: dict[int, LoadPlayer] = {}
        self.answered = asyncio.Event()
        self.standin.on_message = self._message
        self.standin.on_callback = self._callback

    # -- hooks from the stand-in -----------------------------------------------------------------
    def _message(self, msg: Any, at: float) -> None:
        if msg.channel.type == CHANNEL_DM:
            player = self.by_user.get(msg.channel.recipient.id)
            if player is not None:
                player.on_hand(msg, at)
        elif (player := self.by_channel.get(msg.channel.id)) is not None:
            player.on_table(msg, at)
        self.answered.set()

    def _callback(self, interaction_id: int, at: float, status: int) -> None:
        found = self.by_interaction.get(interaction_id)
        if found is not None and found[1].acked is None:
            found[0].on_callback(found[1], at, status)
        self.answered.set()

    # -- the run -----------------------------------------------------------------------------------
    def _populate(self) -> None:
        si = self.standin
        guild = None
        for i in range(self.tables):
            if i % PLAYERS_PER_GUILD == 0:
                guild = si.create_guild(f"Load server {i // PLAYERS_PER_GUILD + 1}")
            assert guild is not None
            user = si.create_user(f"player{i + 1}")
            si.add_member(guild, user)
            channel = si.create_channel(guild, f"table-{i + 1}")
            player = LoadPlayer(si, user, channel, level=self.level, rounds=self.rounds,
                                think=self.think,
                                rng=random.Random(self.seed * 100_003 + i), presses=self.presses,
                                by_interaction=self.by_interaction)
            self.players.append(player)
            self.by_user[user.id] = player
            self.by_channel[channel.id] = player

    def _unanswered(self) -> int:
        return sum(1 for p in self.presses
                   if p.acked is None or (p.move is not None and not p.refused and p.visible is None))

    async def _await_answers(self, grace: float) -> None:
        deadline = time.monotonic() + grace
        while self._unanswered() and time.monotonic() < deadline:
            self.answered.clear()
            try:
                await asyncio.wait_for(self.answered.wait(), deadline - time.monotonic())
            except TimeoutError:
                break

    async def execute(self) -> dict[str, Any]:
        tmp = Path(tempfile.mkdtemp(prefix="hanafuda-load-"))
        TEMP_DIRS.append(tmp)
        bot: BotProcess | None = None
        try:
            await self.standin.start()
            self._populate()
            bot = await BotProcess.start(api=self.standin.api_url, gateway=self.standin.gateway_url,
                                         token=self.standin.token, db=tmp / "bot.sqlite3",
                                         log_path=tmp / "bot.log", ai_delay=self.ai_delay,
                                         long_games=self.long_games)
            await bot.wait_ready(READY_TIMEOUT)
            return await self._measure(bot)
        finally:
            if bot is not None:
                await bot.stop()
            await self.standin.stop()
            shutil.rmtree(tmp, ignore_errors=True)
            TEMP_DIRS.remove(tmp)

    async def _measure(self, bot: BotProcess) -> dict[str, Any]:
        si = self.standin
        monitor = GroupMonitor(bot.pid)
        watch = LoopWatch(interval=0.02, threshold=5.0)  # reported, not logged
        own_stalls: list[dict[str, Any]] = []
        recorder = StallRecorder(0.05, keep=WORST_STALLS,
                                 on_stall=lambda stall: own_stalls.append(stall.describe()))
        heap = HarnessHeap()
        rest_before, limited_before, total_before = len(si.rest_times), si.rate_limited, si.rest_total
        monitor.start()
        watch.start()
        recorder.start()
        heap.start()
        cpu0, t0, wall0 = time.process_time(), time.monotonic(), time.time()
        budget = Budget(t0 + self.seconds, self.clicks)
        await asyncio.gather(*(p.play(budget) for p in self.players))
        t1 = time.monotonic()
        await self._await_answers(ANSWER_GRACE)
        t2, wall2 = time.monotonic(), time.time()
        cpu = time.process_time() - cpu0
        watch.stop()
        recorder.stop()
        heap.stop()
        await monitor.stop()
        bot_cpu, group_cpu = monitor.cpu_percent()
        window = max(t1 - t0, 1e-9)
        presses = self.presses
        acks = [p.ack_seconds for p in presses if p.ack_seconds is not None]
        missing = sum(1 for p in presses if p.acked is None)
        moves = [p for p in presses if p.move is not None]
        visible = [p.visible_seconds for p in moves if p.visible_seconds is not None]
        table = [p.table_seconds for p in moves if p.table_seconds is not None]
        lag = bot.lag_max(wall0, wall2)
        bot_stalls = bot.stalls_between(wall0, wall2)
        if self.stalls_out is not None:
            with open(self.stalls_out, "a") as out:
                for process, stalls in (("bot", bot_stalls), ("bench", own_stalls)):
                    for stall in stalls:
                        out.write(json.dumps({"process": process, "tables": self.tables, **stall}) + "\n")
        kinds: dict[str, int] = {}
        for v in si.violations:
            kinds[v.kind] = kinds.get(v.kind, 0) + 1
        return {
            "tables": self.tables,
            "acks_ms": spread_ms(acks),
            "acks_over_3s": sum(1 for a in acks if a > ACK_LIMIT) + missing,
            # the opening commands arrive all at once; the presses on hands spread over the run
            "move_acks_ms": spread_ms([p.ack_seconds for p in moves if p.ack_seconds is not None]),
            "command_acks_ms": spread_ms([p.ack_seconds for p in presses
                                          if p.move is None and p.ack_seconds is not None]),
            "visible_ms": {"p50": ms(percentile(visible, 50)), "p95": ms(percentile(visible, 95))},
            "table_ms": {"p50": ms(percentile(table, 50)), "p95": ms(percentile(table, 95))},
            "loop_lag_ms_max": lag,
            "stalls": {**stall_summary(bot_stalls),
                       "gc": bot.gc_between(wall0, wall2)},
            "loop_thread_ms": bot.loop_between(wall0, wall2),
            "clicks_per_s": round(len(presses) / window, 2),
            "rest_per_s_peak": peak_per_second(si.rest_times[rest_before:], t0, t2),
            "rest_per_move": {
                "all": round((si.rest_total - total_before) / max(len(moves), 1), 2),
                "global": round(len(si.rest_times[rest_before:]) / max(len(moves), 1), 2)},
            "rate_limited": si.rate_limited - limited_before,
            "rss_mib_peak": {"bot": round(monitor.peak_bot / MIB, 1),
                             "total": round(monitor.peak_total / MIB, 1)},
            "rss_mib_by_minute": monitor.rss_by_minute(t0, t1),
            "seconds": round(window, 1),
            "ai": self.level,
            "clicks": len(presses),
            "moves": len(moves),
            "acks_missing": missing,
            "refused": sum(1 for p in presses if p.refused),  # each one is pressed again
            "moves_not_visible": sum(1 for p in moves if p.visible is None and not p.refused),
            "games_finished": sum(p.games_finished + p.over for p in self.players),
            "rest_per_s_mean": round(len([t for t in si.rest_times[rest_before:] if t0 <= t <= t2])
                                     / max(t2 - t0, 1e-9), 1),
            "bot_cpu_pct": round(bot_cpu, 1),
            "bot_group_cpu_pct": round(group_cpu, 1),
            "bench_cpu_pct": round(100 * cpu / max(t2 - t0, 1e-9), 1),
            "bench_loop_lag_ms_max": ms(watch.max_lag),
            "bench_stalls": {**stall_summary(own_stalls, worst=2), "gc": recorder.report(0)["gc"]},
            "bench_loop_thread_ms": recorder.loop_thread(),
            "other_cpu_pct": round(monitor.other_cpu, 1),
            "violations": kinds,
        }


def spread_ms(seconds: list[float]) -> dict[str, float | None]:
    return {"p50": ms(percentile(seconds, 50)), "p95": ms(percentile(seconds, 95)),
            "p99": ms(percentile(seconds, 99)), "max": ms(max(seconds, default=None))}


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Field by field medians of several runs' figures (non-numbers from the first run)."""
    first = runs[0]
    out: dict[str, Any] = {}
    for key, value in first.items():
        values = [r[key] for r in runs]
        if key == "worst":  # stalls: the longest of every run
            out[key] = sorted((s for v in values for s in v), key=lambda s: -s["ms"])[:len(value)]
        elif isinstance(value, dict) and key != "violations":
            out[key] = median_of(values)
        elif key == "violations":
            merged: dict[str, int] = {}
            for v in values:
                for kind, count in v.items():
                    merged[kind] = merged.get(kind, 0) + count
            out[key] = merged
        elif numbers := [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]:
            mid = statistics.median(numbers)  # runs without the figure (None) are left out
            out[key] = round(mid, 2) if isinstance(mid, float) else mid
        else:
            out[key] = value
    if len(runs) > 1:
        out["runs"] = len(runs)
    return out


def _fmt(value: Any, unit: str = "") -> str:
    return "-" if value is None else f"{value:g}{unit}"


def describe(f: dict[str, Any]) -> str:
    a, v, rss = f["acks_ms"], f["visible_ms"], f["rss_mib_peak"]
    return (f"tables {f['tables']:>4}  acks p50/p95/p99/max {_fmt(a['p50'])}/{_fmt(a['p95'])}/"
            f"{_fmt(a['p99'])}/{_fmt(a['max'])} ms, {f['acks_over_3s']} over 3 s  "
            f"visible p50/p95 {_fmt(v['p50'])}/{_fmt(v['p95'])} ms  "
            f"loop lag max {_fmt(f['loop_lag_ms_max'], ' ms')}  "
            f"stalls over 50 ms {f['stalls']['count']} {f['stalls']['kinds']}  clicks/s {f['clicks_per_s']:g}  "
            f"REST/s peak {f['rest_per_s_peak']} (429s: {f['rate_limited']})  "
            f"REST per move {f['rest_per_move']['all']:g} ({f['rest_per_move']['global']:g} global)  "
            f"RSS peak bot {rss['bot']:g} / total {rss['total']:g} MiB  "
            f"CPU bot {f['bot_cpu_pct']:g}% bench {f['bench_cpu_pct']:g}% others {f['other_cpu_pct']:g}%")


async def measure(spec: SpecIndex, args: argparse.Namespace) -> list[dict[str, Any]]:
    # SIGTERM ends a run like Ctrl-C does: the cleanup in LoadRun.execute runs either way.
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    results = []
    for tables in args.tables:
        runs = []
        for run in range(args.runs):
            clicks = args.clicks or int(MAX_CLICKS_PER_SECOND * max(args.seconds, 1))
            figures = await LoadRun(spec, tables=tables, seconds=args.seconds, level=args.ai,
                                    think=args.think_ms / 1000, clicks=clicks,
                                    validate_every=args.validate_every, seed=args.seed + run,
                                    rounds=args.rounds, ai_delay=args.ai_delay,
                                    stalls_out=args.stalls, rest_delay=args.rest_ms / 1000,
                                    long_games=args.long_games).execute()
            runs.append(figures)
            if not args.json:
                prefix = f"run {run + 1}/{args.runs}: " if args.runs > 1 else ""
                print(prefix + describe(figures), flush=True)
        merged = median_of(runs)
        results.append(merged)
        if not args.json and args.runs > 1:
            print(f"median of {args.runs}: " + describe(merged), flush=True)
    return results


def _table_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--tables takes numbers separated by commas, got {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("--tables needs at least one count of 1 or more")
    return counts


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot.bench load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=_table_counts, required=True,
                   help="tables at once; several counts separated by commas give a line each")
    p.add_argument("--seconds", type=float, default=60.0, help="how long the players press (60)")
    p.add_argument("--ai", default="normal", choices=["easy", "normal", "hard", "expert"])
    p.add_argument("--rounds", type=int, choices=[1, 3, 6, 10, 12],
                   help="the /koikoi rounds option (default: the server's, a full match)")
    p.add_argument("--ai-delay", type=not_negative,
                   help="the AI's pause before each move in seconds (default: the bot's, 1.2)")
    p.add_argument("--think-ms", type=not_negative, default=0.0,
                   help="a player's pause before pressing an offered move (0)")
    p.add_argument("--runs", type=int, default=1, help="runs per table count; medians (1)")
    p.add_argument("--clicks", type=int, default=0,
                   help=f"stop after this many presses (default {MAX_CLICKS_PER_SECOND} per second)")
    p.add_argument("--validate-every", type=int, default=VALIDATE_EVERY,
                   help=f"check one request body in K against Discord's spec ({VALIDATE_EVERY}; 1: all, "
                        "as the tests do; checking all costs the stand-in most of its CPU)")
    p.add_argument("--rest-ms", type=not_negative, default=0.0,
                   help="how much later each REST answer comes than from this machine, as "
                        "Discord's do across the internet (0)")
    p.add_argument("--long-games", action="store_true",
                   help="edit every table as the bot, as in games older than their command's "
                        "14-minute token (the edits count against the global limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--stalls", type=lambda text: Path(file_to_write(text)), metavar="FILE",
                   help="append every stall of the runs (the bot's and the harness's) to FILE, "
                        "one JSON object a line")
    return p


def main(argv: list[str]) -> None:
    args = parser().parse_args(argv)
    if args.seconds <= 0 or args.runs < 1 or args.clicks < 0 or args.validate_every < 1:
        parser().error("--seconds must be > 0, --runs and --validate-every >= 1, --clicks >= 0")
    try:
        spec = load_spec()
    except SpecMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        results = asyncio.run(measure(spec, args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted; the bot process and temporary files were removed", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        kill_all_started()
        for leftover in TEMP_DIRS:
            shutil.rmtree(leftover, ignore_errors=True)
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results))
