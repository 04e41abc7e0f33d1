"""Argparse types every command line of the project shares, so that a count of 0 or a negative
pause is refused where it is typed (argparse's one line, exit code 2), not met later as an empty
median or a database constraint."""

from __future__ import annotations

import argparse


def at_least_one(text: str) -> int:
    """A whole number of 1 or more (runs, matches, deals, workers)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"takes 1 or more, got {value}")
    return value


def not_negative(text: str) -> float:
    """A number of 0 or more (a pause, a size)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number, got {text!r}") from None
    if not value >= 0:  # NaN too
        raise argparse.ArgumentTypeError(f"takes 0 or more, got {text}")
    return value
