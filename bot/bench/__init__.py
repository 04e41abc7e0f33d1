"""Benchmarks: ``python -m bot.bench NAME [options]``.

Each benchmark is a module ``bot.bench.NAME`` with ``main(argv: list[str]) -> None`` that prints
medians over several runs. They are measurements, never pass/fail tests.
"""
