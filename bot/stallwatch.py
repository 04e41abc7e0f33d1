"""Stalls of the event loop, each with what held it: the code, the collector or the machine.

:class:`~bot.loopwatch.LoopWatch` says how long the loop was held; this says why. A heartbeat
callback runs on the loop every ``interval`` seconds and notes when it ran, how much CPU the loop
thread had used by then (``time.thread_time``) and how long the thread had waited for a CPU
(``/proc/thread-self/schedstat``). A watchdog thread sleeps until the next heartbeat is due; when
it is late, the watchdog samples the loop thread's Python stack and the asyncio task it is
running, every ``sample_every`` seconds until the heartbeat comes. A heartbeat more than
``threshold`` late is a stall, recorded with:

- ``ms``: how late the heartbeat was (what every callback queued behind the stall waited);
- ``loop_cpu_ms``: CPU the loop thread used meanwhile, and ``runqueue_ms``: how long it was ready
  to run but had no CPU. A stall the thread spent mostly waiting for a CPU is the machine (other
  processes, the bot's own workers), not the bot's code; one spent neither running nor waiting
  for a CPU was blocked (a system call, the GIL held by another thread);
- ``gc``: garbage collections that ran during it (``gc.callbacks``), with generation, wall time
  and the CPU time of the thread that collected (a collection can be preempted too);
- ``task`` and ``stacks``: the sampled tasks and stacks, identical ones counted together;
- ``threads``: the other threads that used CPU meanwhile, with where they were (one of them may
  have held the GIL the loop thread waited for);
- ``kind``: ``gc``, ``cpu`` (our code ran), ``runqueue`` (no CPU for the thread) or ``blocked``.

The stacks come from :func:`faulthandler.dump_traceback`, which reads every thread's frames in C
while the watchdog holds the GIL. Python 3.11 can crash when one thread walks another's frame
objects (``sys._current_frames()`` and ``f_back``) while that thread runs on, so no frame object of
the loop's thread is ever made here. A dump costs a few milliseconds with a dozen threads, so a
stall is sampled at most ``max_samples`` times and the watchdog dumps at most ``dumps_per_second``
on average: on a machine so busy that the loop is late all the time, the recorder must not add to
it. The steady cost is a 10 ms heartbeat on the loop (two clock reads and one small ``pread``) and
a watchdog waking as often.

    recorder = StallRecorder(on_stall=print)
    recorder.start()          # in the running loop
    ...
    recorder.report()         # count, kinds, and the worst stalls with their stacks
    recorder.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import gc
import os
import re
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
MAX_DEPTH = 48  # frames kept per sample, innermost first
_THREAD = re.compile(r"^(?:Current thread|Thread) (0x[0-9a-fA-F]+)", re.MULTILINE)
_FRAME = re.compile(r'^  File "(.*)", line (\d+) in (.*)$', re.MULTILINE)
GC_KEPT = 512  # collections remembered to be matched with stalls

Frame = tuple[str, int, str]  # file, line, function


@dataclass
class Sample:
    at: float  # monotonic
    frames: tuple[Frame, ...]  # the loop thread's, innermost first
    task: str | None
    others: dict[int, Frame] = field(default_factory=dict)  # thread ident -> innermost frame


@dataclass
class Stall:
    """One heartbeat later than the threshold, and what the watchdog saw meanwhile."""

    start: float  # monotonic: when the previous heartbeat ran
    end: float  # monotonic: when the late heartbeat ran
    lag: float  # seconds the late heartbeat ran after it was due
    loop_cpu: float  # seconds of CPU the loop thread used from start to end
    runqueue: float | None  # seconds it was runnable without a CPU (None: no schedstat)
    at: float  # unix time of the end
    # (generation, wall seconds, CPU seconds, objects collected)
    gc: list[tuple[int, float, float, int]] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    # other threads that ran while it was sampled: (name, CPU seconds, innermost frame)
    threads: list[tuple[str, float, Frame | None]] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return self.end - self.start

    @property
    def gc_seconds(self) -> float:
        """CPU the collections took (their wall time may include waiting for a CPU)."""
        return sum(c for _, _, c, _ in self.gc)

    @property
    def kind(self) -> str:
        """What most of the stall's time went to: the collector, the rest of the loop thread's
        CPU (our code), waiting for a CPU, or neither running nor waiting (blocked)."""
        queued = self.runqueue or 0.0
        parts = {"gc": self.gc_seconds, "cpu": self.loop_cpu - self.gc_seconds,
                 "runqueue": queued, "blocked": self.wall - self.loop_cpu - queued}
        return max(parts, key=parts.__getitem__)

    def describe(self, stacks: int = 3, depth: int = 14) -> dict[str, Any]:
        """The stall as JSON-ready figures, its ``stacks`` most sampled stacks (``depth``
        innermost frames each, innermost last, as a traceback reads)."""
        counted = Counter(s.frames for s in self.samples)
        tasks = Counter(s.task for s in self.samples if s.task)
        own = Counter(f for s in self.samples if (f := _own_frame(s.frames)) is not None)
        return {
            "at": round(self.at, 3),
            "ms": round(self.lag * 1000, 1),
            "loop_cpu_ms": round(self.loop_cpu * 1000, 1),
            "runqueue_ms": None if self.runqueue is None else round(self.runqueue * 1000, 1),
            "wall_ms": round(self.wall * 1000, 1),
            "kind": self.kind,
            "gc": [{"gen": g, "ms": round(d * 1000, 1), "cpu_ms": round(c * 1000, 1), "collected": n}
                   for g, d, c, n in self.gc],
            "gc_cpu_ms": round(self.gc_seconds * 1000, 1),
            "samples": len(self.samples),
            "task": tasks.most_common(1)[0][0] if tasks else None,
            "own_frame": _format(own.most_common(1)[0][0]) if own else None,
            "stacks": [{"n": n, "frames": [_format(f) for f in reversed(frames[:depth])]}
                       for frames, n in counted.most_common(stacks)],
            "threads": [{"name": name, "cpu_ms": round(cpu * 1000, 1),
                         "frame": _format(frame) if frame else None}
                        for name, cpu, frame in self.threads[:stacks]],
        }


def _short(path: str) -> str:
    """A frame's file relative to the project, a library's package or the standard library."""
    try:
        return str(Path(path).relative_to(PROJECT_ROOT))
    except ValueError:
        pass
    for marker in ("site-packages/", "/lib/python"):
        cut = path.rfind(marker)
        if cut >= 0:
            rest = path[cut + len(marker):]
            return rest if marker == "site-packages/" else rest.split("/", 1)[-1]
    return path


def _format(frame: Frame) -> str:
    return f"{_short(frame[0])}:{frame[1]} {frame[2]}"


def _own_frame(frames: tuple[Frame, ...]) -> Frame | None:
    """The innermost frame of the project's own code (what of ours was running or waiting)."""
    root = str(PROJECT_ROOT) + os.sep
    for frame in frames:
        if frame[0].startswith(root) and frame[0] != __file__:
            return frame
    return None


class _Dumper:
    """Every thread's Python stack through :mod:`faulthandler`, into a file kept open for it."""

    def __init__(self) -> None:
        try:
            self.fd = os.memfd_create("stallwatch", os.MFD_CLOEXEC)
        except (AttributeError, OSError):  # not Linux: an unlinked temporary file does as well
            self.fd, path = tempfile.mkstemp(prefix="stallwatch-")
            os.unlink(path)

    def dump(self) -> str:
        os.ftruncate(self.fd, 0)
        os.lseek(self.fd, 0, os.SEEK_SET)
        faulthandler.dump_traceback(self.fd, all_threads=True)
        size = os.lseek(self.fd, 0, os.SEEK_CUR)
        return os.pread(self.fd, size, 0).decode("utf-8", "replace")

    def close(self) -> None:
        os.close(self.fd)


def _parse(dump: str, thread: int) -> tuple[tuple[Frame, ...], dict[int, Frame]]:
    """``thread``'s frames (innermost first, as faulthandler writes them) and the innermost frame
    of every other thread, by thread ident, from one dump."""
    mine: tuple[Frame, ...] = ()
    others = {}
    heads = list(_THREAD.finditer(dump))
    for i, head in enumerate(heads):
        block = dump[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(dump)]
        frames = tuple((f, int(n), name) for f, n, name in _FRAME.findall(block)[:MAX_DEPTH])
        ident = int(head[1], 16)
        if ident == thread:
            mine = frames
        elif frames:
            others[ident] = frames[0]
    return mine, others


def _threads_cpu() -> dict[int, tuple[str, int]]:
    """Every Python thread's name and CPU time so far (ns, from /proc/thread-self/.. schedstat),
    by thread ident; empty where the kernel does not give it."""
    out = {}
    for thread in threading.enumerate():
        if thread.ident is None or thread.native_id is None:
            continue
        try:
            with open(f"/proc/self/task/{thread.native_id}/schedstat", "rb") as fh:
                out[thread.ident] = (thread.name, int(fh.read().split()[0]))
        except (OSError, ValueError, IndexError):
            continue
    return out


def _task_name(task: asyncio.Task[Any] | None) -> str | None:
    if task is None:
        return None
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", None) or type(coro).__name__
    return f"{task.get_name()}: {name}"


class _Schedstat:
    """Nanoseconds the calling thread has waited on a run queue, from /proc/thread-self/schedstat
    (read with one ``pread`` on a file kept open); None where the kernel does not give it."""

    def __init__(self) -> None:
        try:
            self.fd: int | None = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
            self.read()
        except (OSError, ValueError, IndexError):
            self.close()

    def read(self) -> int | None:
        if self.fd is None:
            return None
        return int(os.pread(self.fd, 96, 0).split()[1])

    def close(self) -> None:
        fd, self.fd = getattr(self, "fd", None), None
        if fd is not None:
            os.close(fd)


class StallRecorder:
    """Records every stall of the loop it is started in longer than ``threshold`` seconds.

    ``on_stall`` is called in the watchdog thread with each :class:`Stall` once it is over;
    ``on_late`` is called there too at every sample of a stall in progress, with the seconds the
    heartbeat is late so far (a test releases the loop it blocked from it). ``keep`` stalls, the
    longest, are kept with their samples; every stall is counted.
    """

    def __init__(self, threshold: float = 0.05, *, interval: float = 0.01,
                 sample_every: float = 0.02, early: float = 0.025, max_samples: int = 6,
                 dumps_per_second: float = 10.0,
                 keep: int = 20, on_stall: Callable[[Stall], None] | None = None,
                 on_late: Callable[[float], None] | None = None) -> None:
        if (threshold <= 0 or interval <= 0 or sample_every <= 0 or early < 0 or max_samples < 2
                or dumps_per_second <= 0):
            raise ValueError("threshold, interval, sample_every and dumps_per_second must be > 0, "
                             "early >= 0 and max_samples >= 2")
        self.threshold = threshold
        self.interval = interval
        self.sample_every = sample_every
        self.early = early  # how late the heartbeat must be before the watchdog samples
        self.max_samples = max_samples
        self.dumps_per_second = dumps_per_second
        self._dumps = float(max_samples)  # the budget of dumps: refills with time, up to a stall's
        self._dumps_at = time.monotonic()
        self.keep = keep
        self.on_stall = on_stall
        self.on_late = on_late
        self.count = 0
        self.total = 0.0  # seconds of all stalls' lag
        self.kinds: Counter[str] = Counter()
        self.worst: list[Stall] = []
        # generation -> [collections, wall seconds, CPU seconds]
        self.gc_totals: dict[int, list[float]] = {gen: [0, 0.0, 0.0] for gen in range(3)}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._handle: asyncio.TimerHandle | None = None
        self._schedstat: _Schedstat | None = None
        self._dumper: _Dumper | None = None
        # (sequence, monotonic when the heartbeat ran, when the next is due), replaced whole
        self._beat: tuple[int, float, float] = (0, 0.0, 0.0)
        self._cpu = 0.0
        self._queued: int | None = None
        self._since: tuple[float, float, int | None] = (0.0, 0.0, None)  # the first heartbeat's
        self._ended: deque[tuple[int, float, float, float, float, float | None]] = deque()
        self._gc_log: deque[tuple[float, float, float, int, int]] = deque(maxlen=GC_KEPT)
        self._gc_started = (0.0, 0.0)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- life cycle -----------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        """Start the heartbeat in the running loop and the watchdog thread (once)."""
        if self._thread is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._schedstat = _Schedstat()  # opened in the loop's thread: it reads that thread's
        self._dumper = _Dumper()
        self._stop.clear()
        gc.callbacks.append(self._on_gc)
        self._beat_now(first=True)
        self._thread = threading.Thread(target=self._watch, name="stall watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop both; the figures stay readable. Call from the loop's thread."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._thread = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._schedstat is not None:
            self._schedstat.close()
        if self._dumper is not None:
            self._dumper.close()
            self._dumper = None

    # -- in the loop's thread -------------------------------------------------------------------
    def _beat_now(self, first: bool = False) -> None:
        now = time.monotonic()
        cpu = time.thread_time()
        queued = self._schedstat.read() if self._schedstat is not None else None
        seq, last, due = self._beat
        if not first and now - due > self.threshold:
            runqueue = None if queued is None or self._queued is None else (queued - self._queued) / 1e9
            self._ended.append((seq, last, now, now - due, cpu - self._cpu, runqueue))
        self._cpu, self._queued = cpu, queued
        if first:
            self._since = (now, cpu, queued)
        self._beat = (seq + 1, now, now + self.interval)
        assert self._loop is not None
        self._handle = self._loop.call_later(self.interval, self._beat_now)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        # Runs for every collection of any thread: keep it to two clock reads and a tuple.
        if phase == "start":
            self._gc_started = (time.perf_counter(), time.thread_time())
            return
        wall = time.perf_counter() - self._gc_started[0]
        cpu = time.thread_time() - self._gc_started[1]
        gen = info["generation"]
        totals = self.gc_totals.setdefault(gen, [0, 0.0, 0.0])
        totals[0] += 1
        totals[1] += wall
        totals[2] += cpu
        if gen or wall > 0.002:
            self._gc_log.append((time.monotonic() - wall, wall, cpu, gen, info["collected"]))

    # -- in the watchdog thread -----------------------------------------------------------------
    def _watch(self) -> None:
        samples: list[Sample] = []
        taken_for = -1  # the heartbeat sequence the samples were taken waiting for
        gap = self.sample_every
        threads: dict[int, tuple[str, int]] = {}  # every thread's CPU when sampling began
        while not self._stop.is_set():
            seq, _, due = self._beat
            late = time.monotonic() - due
            if seq != taken_for:
                self._finish(samples, threads)
                samples, taken_for, gap = [], -1, self.sample_every
            if late < self.early:
                self._stop.wait(self.early - late)
                continue
            if taken_for != seq:
                taken_for, threads = seq, _threads_cpu()
            if len(samples) >= self.max_samples:  # a long stall: a spread over all of it
                del samples[1::2]
                gap *= 2
            if self._may_dump():
                samples.append(self._sample())
            if self.on_late is not None:
                self.on_late(late)
            self._stop.wait(gap)
        self._finish(samples, threads)

    def _may_dump(self) -> bool:
        now = time.monotonic()
        self._dumps = min(float(self.max_samples),
                          self._dumps + (now - self._dumps_at) * self.dumps_per_second)
        self._dumps_at = now
        if self._dumps < 1:
            return False
        self._dumps -= 1
        return True

    def _sample(self) -> Sample:
        task = None
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):
                task = _task_name(asyncio.current_task(self._loop))
        assert self._dumper is not None
        frames, others = _parse(self._dumper.dump(), self._loop_thread)
        return Sample(time.monotonic(), frames, task, others)

    def _finish(self, samples: list[Sample], threads: dict[int, tuple[str, int]]) -> None:
        """Turn the heartbeats that came late into stalls with the samples taken meanwhile."""
        if not self._ended:
            return
        ran = self._threads_ran(samples, threads) if samples else []
        while self._ended:
            seq, start, end, lag, cpu, runqueue = self._ended.popleft()
            stall = Stall(start, end, lag, cpu, runqueue, time.time() - (time.monotonic() - end))
            stall.samples = [s for s in samples if start <= s.at <= end]
            stall.gc = [(g, d, c, n) for s, d, c, g, n in list(self._gc_log) if s < end and s + d > start]
            if stall.samples:
                stall.threads = ran
            self._record(stall)

    def _threads_ran(self, samples: list[Sample], before: dict[int, tuple[str, int]],
                     least: float = 0.001) -> list[tuple[str, float, Frame | None]]:
        """The threads other than the loop's and the watchdog's that used at least ``least``
        seconds of CPU since ``before``, most first, each with its innermost frame sampled last."""
        mine = {self._loop_thread, threading.get_ident()}
        out = []
        for ident, (name, ns) in _threads_cpu().items():
            if ident in mine or ident not in before:
                continue
            used = (ns - before[ident][1]) / 1e9
            if used >= least:
                frame = next((s.others[ident] for s in reversed(samples) if ident in s.others), None)
                out.append((name, used, frame))
        return sorted(out, key=lambda t: -t[1])

    def _record(self, stall: Stall) -> None:
        with self._lock:
            self.count += 1
            self.total += stall.lag
            self.kinds[stall.kind] += 1
            self.worst.append(stall)
            self.worst.sort(key=lambda s: -s.lag)
            del self.worst[self.keep:]
        if self.on_stall is not None:
            self.on_stall(stall)

    # -- figures --------------------------------------------------------------------------------
    def report(self, worst: int = 5) -> dict[str, Any]:
        """The count of stalls, their kinds, the collector's totals and the ``worst`` longest."""
        with self._lock:
            stalls = list(self.worst[:worst])
            out: dict[str, Any] = {
                "count": self.count, "total_ms": round(self.total * 1000, 1),
                "kinds": dict(self.kinds)}
        out["gc"] = {str(g): {"count": n, "ms": round(wall * 1000, 1), "cpu_ms": round(cpu * 1000, 1)}
                     for g, (n, wall, cpu) in sorted(self.gc_totals.items())}
        out["loop_thread"] = self.loop_thread()
        out["worst"] = [s.describe() for s in stalls]
        return out

    def loop_thread(self) -> dict[str, float | None]:
        """Since the start, as of the last heartbeat: wall time, the loop thread's CPU and its
        wait for a CPU (ms). A loop thread that waited long for a CPU was on a full machine."""
        _, at, _ = self._beat
        since_at, since_cpu, since_queued = self._since
        queued = None if self._queued is None or since_queued is None \
            else round((self._queued - since_queued) / 1e6, 1)
        return {"wall_ms": round((at - since_at) * 1000, 1),
                "cpu_ms": round((self._cpu - since_cpu) * 1000, 1), "runqueue_ms": queued}
