"""Dispatch ``python -m bot.bench NAME ...`` to ``bot.bench.NAME.main``; ``--help`` lists them."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import bot.bench


def available() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bot.bench.__path__) if not m.name.startswith("_"))


#: What each benchmark measures, for ``--help`` (its own ``--help`` gives its options).
SUMMARIES = {
    "activity": "many tables played from Activity pages over WebSockets against the real bot "
                "process: press -> shown on the page, moves/s, CPU and memory, REST calls per move",
    "backup": "an online SQLite backup while the store keeps writing, in a thread and on the "
              "event loop: its time, the moves stored meanwhile and the longest loop stall",
    "coach": "the CPU seconds of a /review of a 12-round Koi-Koi and a 10-round Go-Stop match, "
             "and the time a Hint takes to answer in every game with a search AI",
    "engine": "each game engine's random play and the AI search's rollouts, per second on one core",
    "load": "many Koi-Koi tables against the AI at once, the bot in its own process against the "
            "local Discord stand-in: answer times, loop lag, REST rate, memory and CPU",
    "render": "the milliseconds and bytes of every image kind, and images per second of a busy "
              "bot in threads and in worker processes",
    "store": "durable transfers per second and the time to settle a staked game, on SQLite or on "
             "a PostgreSQL server (--database-url)",
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot.bench",
        description="Benchmarks of the bot: each prints medians over several runs; they are "
                    "measurements, never pass/fail tests.",
        epilog="`python -m bot.bench NAME --help` gives a benchmark's options.")
    names = p.add_subparsers(title="benchmarks", metavar="NAME", dest="name", required=True)
    for name in available():
        names.add_parser(name, help=SUMMARIES.get(name, "(no description)"), add_help=False)
    return p


def main(argv: list[str] | None = None) -> int:
    from bot.store import StoreError

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in available():
        parser().parse_args(argv[:1])  # --help prints the list and exits 0; anything else exits 2
    try:
        module = importlib.import_module(f"bot.bench.{argv[0]}")
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "tests":
            raise
        # The benches that drive the bot play against the Discord stand-in of the test suite,
        # which is not part of the installed package.
        print("error: this benchmark drives the Discord stand-in under tests/, so run it from "
              "the project's folder (a clone of the repository)", file=sys.stderr)
        return 2
    try:
        module.main(argv[1:])
    except StoreError as exc:  # a database URL refused, or a database that cannot be reached
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
