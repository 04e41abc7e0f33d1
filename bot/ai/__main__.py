"""``python -m bot.ai arena GAME --a hard --b greedy --games 1000 --seed 1 [--workers 2]``,
``python -m bot.ai onestep GAME --level hard --deals 300 [--workers 2]`` and
``python -m bot.ai ratings GAME --games-per-pair 40 --rounds 3 --trials 300`` and
``python -m bot.ai calibration GAME --decisions 2000 [--json] [--plot FILE]``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("arena", "onestep", "ratings", "calibration"):
        print("usage: python -m bot.ai arena GAME [--a LEVEL] [--b LEVEL] [--games N] [--seed S]"
              " [--preset P] [--rounds R] [--players N] [--workers W]\n"
              "       python -m bot.ai onestep GAME [--level LEVEL] [--deals N] [--seed S]"
              " [--workers W]\n"
              "       python -m bot.ai ratings GAME [--games-per-pair N] [--rounds R]"
              " [--trials T] [--games G] [--seed S]\n"
              "       python -m bot.ai calibration GAME [--decisions N] [--seed S] [--level L]"
              " [--rollouts R] [--workers W] [--json] [--plot FILE] [--raw] [--fit]",
              file=sys.stderr)
        raise SystemExit(2)
    if argv[0] == "ratings":
        from .ratings_study import main as ratings_main

        return ratings_main(argv[1:])
    if argv[0] == "calibration":
        from .calibration import main as calibration_main

        calibration_main(argv[1:])
        return 0
    if argv[0] == "onestep":
        from .onestep import main as onestep_main

        return onestep_main(argv[1:])
    from .arena import main as arena_main

    return arena_main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
