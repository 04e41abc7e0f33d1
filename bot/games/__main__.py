"""``python -m bot.games simulate GAME ...``: AI-vs-AI statistics (see bot.games.simulate)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "simulate":
        print("usage: python -m bot.games simulate GAME [--games N] [--players a,b] [--seed S]"
              " [--preset NAME] [--set OPTION=VALUE ...]", file=sys.stderr)
        return 2
    from bot.games.simulate import main as simulate_main

    return simulate_main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
