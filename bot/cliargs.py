"""Argparse types every command line of the project shares, so that a count of 0 or a negative
pause is refused where it is typed (argparse's one line, exit code 2), not met later as an empty
median or a database constraint."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


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


def file_to_write(text: str) -> str:
    """A file a run will write when it ends: its folder must exist and take new files, checked
    before the run rather than after hours of it."""
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give the path of a file")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"there is no folder {folder} to write {path.name} in")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"{text} cannot be written here")
    return text
