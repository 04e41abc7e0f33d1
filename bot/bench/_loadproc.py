"""Starting, watching and stopping the bot process of the load benchmark.

The bot runs in a new session (its own process group), so it and every worker process it
spawns can be measured (RSS, CPU from /proc) and stopped together by that one group id, without
touching any other process on the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")

# Process groups started here and not yet reaped; killed on any exit path (Ctrl-C included).
LIVE_GROUPS: set[int] = set()


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def kill_all_started() -> None:
    for pgid in list(LIVE_GROUPS):
        kill_group(pgid)
        LIVE_GROUPS.discard(pgid)


@dataclass
class GroupSample:
    bot_rss: int  # bytes
    total_rss: int  # bytes, the bot and its workers
    cpu_ticks: dict[int, int]  # pid -> utime + stime


def sample_group(pgid: int, pids: Iterable[int] | None = None) -> GroupSample:
    """RSS and CPU ticks of every process in the group ``pgid`` (the bot is its leader): of
    those among ``pids`` when given (the members found last time, a cheaper read than a scan of
    every process of the machine, which the harness would otherwise pay twice a second)."""
    bot = total = 0
    ticks: dict[int, int] = {}
    candidates = (pids if pids is not None
                  else (int(e.name) for e in os.scandir("/proc") if e.name.isdigit()))
    for pid in candidates:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        fields = raw[raw.rfind(b")") + 2:].split()
        if int(fields[2]) != pgid:
            continue
        rss = int(fields[21]) * PAGE
        ticks[pid] = int(fields[11]) + int(fields[12])
        total += rss
        if pid == pgid:
            bot = rss
    return GroupSample(bot, total, ticks)


def system_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot, from /proc/stat."""
    with open("/proc/stat") as fh:
        values = [int(v) for v in fh.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


def own_ticks() -> int:
    with open("/proc/self/stat", "rb") as fh:
        raw = fh.read()
    fields = raw[raw.rfind(b")") + 2:].split()
    return int(fields[11]) + int(fields[12])


@dataclass
class BotProcess:
    """The bot subprocess and what it reported on stdout (see ``bot.bench._loadbot``)."""

    proc: asyncio.subprocess.Process
    log_path: Path
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    lag: list[tuple[float, float]] = field(default_factory=list)  # (unix time, max ms)
    gc: list[tuple[float, dict]] = field(default_factory=list)  # (unix time, collector totals)
    loop: list[tuple[float, dict]] = field(default_factory=list)  # (unix time, loop thread totals)
    stalls: list[dict] = field(default_factory=list)  # bot.stallwatch.Stall.describe(), in order
    exit_report: dict | None = None
    _reader: asyncio.Task | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    @classmethod
    async def start(cls, *, api: str, gateway: str, token: str, db: Path, log_path: Path,
                    ai_delay: float | None = None, activity: tuple[int, str] | None = None,
                    long_games: bool = False) -> BotProcess:
        """``activity``: the Activity's port and the client secret its sign-in checks codes with;
        ``long_games``: tables edited as the bot, as once their command's token has expired."""
        env = {**os.environ, "HANAFUDA_BENCH_API": api, "HANAFUDA_BENCH_GATEWAY": gateway,
               "HANAFUDA_BENCH_TOKEN": token, "HANAFUDA_BENCH_DB": str(db),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")]))}
        for name in ("DISCORD_TOKEN", "HANAFUDA_BENCH_AI_DELAY", "HANAFUDA_BENCH_ACTIVITY_PORT",
                     "HANAFUDA_BENCH_CLIENT_SECRET", "HANAFUDA_BENCH_LONG_GAMES"):
            env.pop(name, None)
        if ai_delay is not None:
            env["HANAFUDA_BENCH_AI_DELAY"] = str(ai_delay)
        if long_games:
            env["HANAFUDA_BENCH_LONG_GAMES"] = "1"
        if activity is not None:
            env["HANAFUDA_BENCH_ACTIVITY_PORT"], env["HANAFUDA_BENCH_CLIENT_SECRET"] = str(activity[0]), activity[1]
        with open(log_path, "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.bench._loadbot", cwd=PROJECT_ROOT, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=log,
                start_new_session=True)
        LIVE_GROUPS.add(proc.pid)
        bot = cls(proc, log_path)
        bot._reader = asyncio.create_task(bot._read())
        return bot

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for line in self.proc.stdout:
            try:
                report = json.loads(line)
            except ValueError:
                continue  # a stray print from a library; not ours
            kind = report.get("event")
            if kind == "ready":
                self.ready.set()
            elif kind == "lag":
                self.lag.append((report["t"], report["max_ms"]))
                if "gc" in report:
                    self.gc.append((report["t"], report["gc"]))
                if "loop_thread" in report:
                    self.loop.append((report["t"], report["loop_thread"]))
            elif kind == "stall":
                self.stalls.append({k: v for k, v in report.items() if k != "event"})
            elif kind == "exit":
                self.exit_report = report

    async def wait_ready(self, timeout: float) -> None:
        """Until the bot is connected; a bot that exits or hangs first is an error with its log."""
        exited = asyncio.create_task(self.proc.wait())
        ready = asyncio.create_task(self.ready.wait())
        done, _ = await asyncio.wait({exited, ready}, timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        exited.cancel()
        ready.cancel()
        if ready not in done:
            why = "exited" if exited in done else f"was not ready after {timeout:.0f} s"
            raise RuntimeError(f"the bot process {why}; its log ends:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def lag_max(self, since: float, until: float) -> float | None:
        """The worst loop lag the bot reported for report intervals ending in [since, until]."""
        inside = [ms for t, ms in self.lag if since < t <= until]
        return max(inside) if inside else None

    def stalls_between(self, since: float, until: float) -> list[dict]:
        """The stalls the bot reported that ended in [since, until] (unix times)."""
        return [s for s in self.stalls if since <= s["at"] <= until]

    def gc_between(self, since: float, until: float) -> dict[str, dict]:
        """Collections per generation (count, wall and CPU ms) between the reports nearest [since,
        until]."""
        inside = [totals for t, totals in self.gc if since <= t <= until]
        if not inside:
            return {}
        first, last = inside[0], inside[-1]
        out = {}
        for gen, now in last.items():
            then = first.get(gen, {})
            out[gen] = {key: round(value - then.get(key, 0), 1) for key, value in now.items()}
        return out

    def loop_between(self, since: float, until: float) -> dict[str, float | None]:
        """The loop thread's wall time, CPU and wait for a CPU (ms) between the reports nearest
        [since, until]; empty without reports."""
        inside = [totals for t, totals in self.loop if since <= t <= until]
        if not inside:
            return {}
        first, last = inside[0], inside[-1]
        return {key: None if last[key] is None or first[key] is None
                else round(last[key] - first[key], 1) for key in last}

    async def stop(self, grace: float = 15.0) -> None:
        """SIGTERM (the bot closes cleanly and reports), then SIGKILL whatever is left of the group."""
        if self.proc.returncode is None:
            kill_group(self.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), grace)
        kill_group(self.pid)  # workers that outlived the bot, or a bot that did not stop
        if self.proc.returncode is None:
            await self.proc.wait()
        LIVE_GROUPS.discard(self.pid)
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2)


class GroupMonitor:
    """Samples the bot's process group every ``interval`` seconds: peak RSS, RSS over time and
    CPU used. The machine's processes are scanned for the group's members every
    ``rescan_every`` samples (a worker may be replaced); the samples between read those only."""

    def __init__(self, pgid: int, interval: float = 0.5, rescan_every: int = 10) -> None:
        self.pgid = pgid
        self.interval = interval
        self.rescan_every = rescan_every
        self.peak_bot = 0
        self.peak_total = 0
        self.rss: list[tuple[float, int, int]] = []  # (monotonic, bot bytes, group bytes)
        self._taken = 0
        self._first: GroupSample | None = None
        self._last: GroupSample | None = None
        self._started = self._ended = 0.0
        self._task: asyncio.Task | None = None
        self._system = (0, 0)
        self._own = 0
        self.other_cpu = 0.0  # % of one core used by processes outside the bench and the bot

    def start(self) -> None:
        self._started = time.monotonic()
        self._system, self._own = system_ticks(), own_ticks()
        self._take()
        self._first = self._last
        self._task = asyncio.create_task(self._run())

    def _take(self, rescan: bool = False) -> None:
        known = None if rescan or self._last is None or self._taken % self.rescan_every == 0 \
            else self._last.cpu_ticks.keys()
        sample = sample_group(self.pgid, known)
        self._taken += 1
        self.peak_bot = max(self.peak_bot, sample.bot_rss)
        self.peak_total = max(self.peak_total, sample.total_rss)
        self.rss.append((time.monotonic(), sample.bot_rss, sample.total_rss))
        self._last = sample

    def rss_by_minute(self, since: float, until: float) -> list[dict[str, float]]:
        """The bot's and the group's RSS (MiB) at the end of each whole minute after ``since``
        and at ``until`` (monotonic), from the nearest sample before each."""
        marks = [since + 60 * k for k in range(1, int((until - since) // 60) + 1)]
        if not marks or until - marks[-1] > 1:
            marks.append(until)
        out = []
        for mark in marks:
            before = [r for r in self.rss if r[0] <= mark]
            if before:
                _, bot, total = before[-1]
                out.append({"minute": round((mark - since) / 60, 2),
                            "bot": round(bot / 1048576, 1), "total": round(total / 1048576, 1)})
        return out

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await asyncio.to_thread(self._take)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._take(rescan=True)
        self._ended = time.monotonic()
        busy, _ = system_ticks()
        first, last = self._first, self._last
        group = 0 if first is None or last is None else sum(
            t - first.cpu_ticks.get(pid, 0) for pid, t in last.cpu_ticks.items())
        others = (busy - self._system[0]) - group - (own_ticks() - self._own)
        self.other_cpu = max(0.0, 100 * others / max((self._ended - self._started) * TICKS, 1e-9))

    def cpu_percent(self) -> tuple[float, float]:
        """CPU of the bot alone and of the whole group, in % of one core over the window."""
        first, last = self._first, self._last
        if first is None or last is None or self._ended <= self._started:
            return 0.0, 0.0
        span = (self._ended - self._started) * TICKS
        bot = last.cpu_ticks.get(self.pgid, 0) - first.cpu_ticks.get(self.pgid, 0)
        group = sum(t - first.cpu_ticks.get(pid, 0) for pid, t in last.cpu_ticks.items())
        return 100 * bot / span, 100 * group / span
