"""Rendering benchmark: ``python -m bot.bench render [--runs N]``.

Prints median and 95th percentile milliseconds of render-and-encode for a 2-player Koi-Koi table
mid-round and a 4-player table, the hand and summary images, and the one-time sprite build
(measured first, in this fresh process).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any


def _measure(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench render")
    parser.add_argument("--runs", type=int, default=50, help="runs per image (default 50)")
    args = parser.parse_args(argv)

    from rendering import build_sprites, render_hand, render_summary, render_table
    from rendering.samples import sample_hand, sample_summary, sample_table

    start = time.perf_counter()
    build_sprites()
    print(f"sprite build (once): {(time.perf_counter() - start) * 1000:.0f} ms")

    cases: list[tuple[str, Callable[[Any], bytes], Any]] = [
        ("table koikoi 2p", render_table, sample_table("koikoi", 2)),
        ("table hana_awase 4p", render_table, sample_table("hana_awase", 4)),
        ("table sakura 7p", render_table, sample_table("sakura", 7)),
        ("hand 8 cards", render_hand, sample_hand(8)),
        ("summary 6 yaku", render_summary, sample_summary(6)),
    ]
    for name, render, view in cases:
        size = len(render(view)) // 1024  # also warms the per-size caches
        times = _measure(lambda r=render, v=view: r(v), args.runs)
        print(f"{name:22s} median {statistics.median(times):6.1f} ms   p95 {_p95(times):6.1f} ms"
              f"   {size} KB")
