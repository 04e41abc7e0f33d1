"""Dispatch ``python -m bot.bench NAME ...`` to ``bot.bench.NAME.main``."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bot.bench


def available() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bot.bench.__path__) if not m.name.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = available()
    if not argv or argv[0] not in names:
        print(f"usage: python -m bot.bench {{{','.join(names)}}} [options]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"bot.bench.{argv[0]}")
    module.main(argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
