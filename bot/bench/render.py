"""Rendering benchmark: ``python -m bot.bench render [--runs N] [--rounds R] [--workers W]``.

Per image kind (a table per game, a hand, a round summary, a yaku sheet, a leaderboard page,
a player card) it prints the median
milliseconds to draw and encode one image, in CPU time (what the image costs, even on a busy
machine) and wall time, and its median size, over ``--runs`` images drawn from
several different views (names and labels repeat across views as they do in a real game; the
cards differ). Then the throughput of a busy bot: clicks of one table and three hands each,
``--workers`` at a time in threads (as the bot did with ``asyncio.to_thread``) and in worker
processes, in images per second, with the event loop's lag meanwhile (how late a 5 ms timer
fires: what every other table waits). Each throughput figure is the median of ``--rounds`` runs.

The script uses only the public renderers, so the same file measures an older checkout too:
``cd OLD && python /path/to/bot/bench/render.py`` (processes are skipped where the checkout has
no ``bot.workers``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.cliargs import at_least_one

TABLES = (("koikoi", 2), ("gostop", 3), ("mushi", 2), ("sakura", 4), ("sakura", 7),
          ("hana_awase", 3), ("shedding", 4), ("seotda", 2), ("seotda", 6))
VIEWS_PER_KIND = 6
HANDS_PER_CLICK = 3
LAG_TICK = 0.005


def _cases() -> list[tuple[str, Callable[[Any], bytes], list[Any]]]:
    from rendering import render_hand, render_summary, render_table, render_yaku_sheet
    from rendering.samples import sample_hand, sample_summary, sample_table
    from rendering.view import GAMES

    cases: list[tuple[str, Callable[[Any], bytes], list[Any]]] = []
    for game, players in TABLES:
        views = [sample_table(game, players, seed=s) for s in range(1, VIEWS_PER_KIND + 1)]
        cases.append((f"table {game} {players}p", render_table, views))
    cases.append(("hand 8 cards", render_hand,
                  [sample_hand(8, seed=s) for s in range(1, VIEWS_PER_KIND + 1)]))
    cases.append(("summary 6 yaku", render_summary,
                  [sample_summary(r) for r in (3, 4, 5, 6, 7, 8)]))
    try:  # Seotda's showdown (a checkout before it has none)
        from rendering.samples import sample_showdown
    except ImportError:
        pass
    else:
        cases.append(("seotda showdown", render_summary, [sample_showdown(r) for r in (False, True)]))
    # The sheet is cached once drawn; the figure is the drawing itself.
    sheet = getattr(render_yaku_sheet, "__wrapped__", render_yaku_sheet)
    cases.append(("yaku sheet", sheet, [game for game in GAMES if game != "seotda"]))
    try:  # the community images (a checkout before them has none)
        from rendering import render_board, render_card
        from rendering.samples import sample_board, sample_card
    except ImportError:
        return cases
    cases.append(("leaderboard page", render_board,
                  [sample_board(rated=r, asker=a) for r in (True, False) for a in (0, 4, 9)]))
    cases.append(("player card", render_card, [sample_card()]))
    return cases


def per_image(runs: int) -> None:
    from rendering import build_sprites
    from rendering.samples import sample_hand, sample_table

    start = time.perf_counter()
    build_sprites()
    print(f"sprite build (once): {(time.perf_counter() - start) * 1000:.0f} ms")
    try:
        from rendering import warm_up
    except ImportError:
        pass
    else:
        warm_up()
    # First images of a process (labels, sprites at odd sizes) are not what a warm worker pays.
    from rendering import render_hand, render_table

    render_table(sample_table("koikoi", 2, seed=99))
    render_hand(sample_hand(8, seed=99))
    print(f"{'image':22s} {'CPU ms':>8s} {'wall ms':>8s} {'p95 wall':>9s} {'KB':>7s}")
    for name, render, views in _cases():
        cpu, wall, sizes = [], [], []
        for i in range(runs):
            view = views[i % len(views)]
            begin, begin_cpu = time.perf_counter(), time.process_time()
            data = render(view)
            cpu.append((time.process_time() - begin_cpu) * 1000)
            wall.append((time.perf_counter() - begin) * 1000)
            sizes.append(len(data) / 1024)
        print(f"{name:22s} {statistics.median(cpu):8.1f} {statistics.median(wall):8.1f} "
              f"{_p95(wall):9.1f} {statistics.median(sizes):7.1f}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _click_jobs(clicks: int) -> list[tuple[Callable[[Any], bytes], Any]]:
    from rendering import render_hand, render_table
    from rendering.samples import sample_hand, sample_table

    jobs = []
    for i in range(clicks):
        game, players = TABLES[i % len(TABLES)]
        jobs.append((render_table, sample_table(game, players, seed=i % VIEWS_PER_KIND + 1)))
        for h in range(HANDS_PER_CLICK):
            jobs.append((render_hand, sample_hand(8, seed=(i + h) % VIEWS_PER_KIND + 1)))
    return jobs


async def _loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        begin = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        lags.append((time.perf_counter() - begin - LAG_TICK) * 1000)


async def _load(submit: Callable[..., Any], jobs: list[tuple[Callable[[Any], bytes], Any]],
                workers: int) -> tuple[float, float]:
    """Images per second with ``workers`` jobs in flight, and the loop's p95 lag in ms."""
    queue = list(reversed(jobs))
    stop, lags = asyncio.Event(), []
    ticker = asyncio.create_task(_loop_lag(stop, lags))

    async def feeder() -> None:
        while queue:
            fn, view = queue.pop()
            await submit(fn, view)

    begin = time.perf_counter()
    await asyncio.gather(*(feeder() for _ in range(workers)))
    elapsed = time.perf_counter() - begin
    stop.set()
    await ticker
    return len(jobs) / elapsed, _p95(lags) if lags else 0.0


async def throughput(workers: int, rounds: int, clicks: int) -> None:
    from rendering import build_sprites

    build_sprites()
    jobs = _click_jobs(clicks)
    for fn, view in jobs[: 4 * len(TABLES)]:  # the threads' process warms up like a worker
        fn(view)
    modes: list[tuple[str, Callable[..., Any], Any]] = [("threads", asyncio.to_thread, None)]
    try:
        from bot.workers import WorkerPool
        from rendering import warm_up
    except ImportError:
        print("(no bot.workers in this checkout: threads only)")
    else:
        pool = WorkerPool("bench", workers, initializer=warm_up)
        await pool.start()
        for fn, view in jobs[: 4 * len(TABLES)]:
            await pool.run(fn, view)
        modes.append(("processes", pool.run, pool))
    print(f"throughput, {clicks} clicks x (1 table + {HANDS_PER_CLICK} hands), "
          f"{workers} at a time, median of {rounds}:")
    try:
        for name, submit, _ in modes:
            rates, lags = [], []
            for _ in range(rounds):
                rate, lag = await _load(submit, jobs, workers)
                rates.append(rate)
                lags.append(lag)
            print(f"  {name:10s} {statistics.median(rates):6.1f} images/s   "
                  f"loop lag p95 {statistics.median(lags):6.1f} ms   "
                  f"(runs: {', '.join(f'{r:.1f}' for r in rates)})")
        for _, _, pool in modes:
            if pool is not None:
                print("  worker memory (RSS): " + ", ".join(
                    f"{_rss_mb(pid):.0f} MB" for pid in pool.pids()))
    finally:
        for _, _, pool in modes:
            if pool is not None:
                await pool.close()


def _rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux ``/proc``; 0 where there is none)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench render", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=at_least_one, default=30, help="images per kind (default 30)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="throughput runs per mode (default 3)")
    parser.add_argument("--workers", type=int, default=2,
                        help="threads or worker processes for the throughput (default 2)")
    parser.add_argument("--clicks", type=at_least_one, default=40, help="clicks per throughput run")
    parser.add_argument("--no-throughput", action="store_true")
    args = parser.parse_args(argv)
    per_image(args.runs)
    if not args.no_throughput:
        asyncio.run(throughput(args.workers, args.rounds, args.clicks))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
