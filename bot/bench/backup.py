"""``python -m bot.bench backup [--mb 50] [--runs 5]``: an online SQLite backup while the store
keeps writing, the way the scheduled backup runs it (in a thread) beside the same copy run on the
event loop itself. Reports medians over the runs: the backup's time, the moves stored per second
meanwhile, and the longest the event loop was held (a ticker due every 5 ms)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bot.cliargs import at_least_one
from bot.store import EVERY_SERVER, Store
from bot.store.backup import backup_sqlite

TICK = 0.005


async def _fill(path: Path, megabytes: int) -> int:
    """A game whose log holds about ``megabytes`` of events; its id."""
    async with await Store.open(path) as store:
        game = await store.create_game(1, 2, "koikoi", rules={}, players=[10, 11], seed=1,
                                       state_json="{}", state_version=1)
    import sqlite3

    events = json.dumps([{"type": "played", "card": "x" * 900}])
    rows = (megabytes * 1024 * 1024) // 1000
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany("INSERT INTO game_events (game_id, seq, actor, action, events, created_at) "
                         "VALUES (?, ?, 10, 'play', ?, 0)",
                         ((game.game_id, seq, events) for seq in range(1, rows + 1)))
        conn.execute("UPDATE games SET last_seq = ? WHERE game_id = ?", (rows, game.game_id))
    conn.close()
    return game.game_id


async def _run(path: Path, game_id: int, out: Path, in_thread: bool) -> tuple[float, float, float]:
    """(backup seconds, moves stored per second meanwhile, longest loop stall in ms)."""
    async with await Store.open(path) as store:
        seq = (await store.load_game(game_id, scope=EVERY_SERVER, with_events=False)).last_seq
        done = asyncio.Event()
        stored = 0
        worst = 0.0

        async def write() -> None:
            nonlocal seq, stored
            while not done.is_set():
                seq += 1
                await store.record_action(game_id, seq, 10, "play", [], "{}", 1)
                stored += 1

        async def tick() -> None:
            nonlocal worst
            while not done.is_set():
                due = time.perf_counter() + TICK
                await asyncio.sleep(TICK)
                worst = max(worst, time.perf_counter() - due)

        tasks = [asyncio.create_task(write()), asyncio.create_task(tick())]
        await asyncio.sleep(0.2)  # both running before the backup begins
        stored = 0
        start = time.perf_counter()
        if in_thread:
            await asyncio.to_thread(backup_sqlite, str(path), out)
        else:
            backup_sqlite(str(path), out)
        took = time.perf_counter() - start
        done.set()
        await asyncio.gather(*tasks)
        out.unlink()
        return took, stored / took, worst * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench backup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=at_least_one, default=50, help="size of the database (default 50)")
    parser.add_argument("--runs", type=at_least_one, default=5, help="runs of each way (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        game_id = asyncio.run(_fill(path, args.mb))
        print(f"database: {path.stat().st_size / 1e6:.1f} MB; {args.runs} runs each way, alternating")
        results: dict[str, list[tuple[float, float, float]]] = {"thread": [], "loop": []}
        for _ in range(args.runs):
            for way in ("thread", "loop"):
                results[way].append(asyncio.run(_run(path, game_id, Path(folder) / "copy.sqlite3",
                                                     way == "thread")))
        for way, label in (("thread", "in a thread (the bot's way)"), ("loop", "on the event loop")):
            took, rate, stall = (statistics.median(r[i] for r in results[way]) for i in range(3))
            print(f"{label:28s} backup {took:6.2f} s   moves stored meanwhile {rate:7.0f}/s   "
                  f"longest loop stall {stall:7.1f} ms")
