"""Small charts of the community images: a rating with its uncertainty, a sparkline of ratings,
a row of recent results."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from .art.palette import GOLD, MUTED, PLAYABLE, RED, TEXT

Box = tuple[float, float, float, float]  # left, top, right, bottom
OUTCOME_COLOURS = {"won": PLAYABLE, "lost": RED, "draw": MUTED}
RISE, FALL = PLAYABLE, (236, 96, 84)


def rating_scale(rows: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The axis shared by a page's whiskers: from 0 (or the lowest rating, if below) to the
    highest end of any likely range (rating + 6 sigma)."""
    if not rows:
        return 0.0, 1.0
    low = min(0.0, *(rating for rating, _ in rows))
    high = max(rating + 6 * spread for rating, spread in rows)
    return low, max(high, low + 1.0)


def whisker(draw: ImageDraw.ImageDraw, box: Box, rating: float, spread: float,
            scale: tuple[float, float]) -> None:
    """A rating with its uncertainty: a solid bar up to the conservative rating (mu - 3 sigma),
    then a thin line over the range the skill likely lies in (up to mu + 3 sigma), with a dot
    at the estimate mu."""
    left, top, right, bottom = box
    low, high = scale

    def x_of(value: float) -> float:
        return left + (right - left) * (min(max(value, low), high) - low) / (high - low)

    mid = (top + bottom) / 2
    draw.rounded_rectangle((left, mid - 1, right, mid + 1), radius=1, fill=MUTED + (60,))
    zero, shown = x_of(0.0), x_of(rating)
    if abs(shown - zero) >= 1:
        draw.rounded_rectangle((min(zero, shown), top, max(zero, shown), bottom), radius=3,
                               fill=GOLD)
    end = x_of(rating + 6 * spread)
    draw.line((shown, mid, end, mid), fill=TEXT, width=2)
    draw.line((end, top + 2, end, bottom - 2), fill=TEXT, width=2)
    mu = x_of(rating + 3 * spread)
    draw.ellipse((mu - 4, mid - 4, mu + 4, mid + 4), fill=TEXT)


def sparkline(draw: ImageDraw.ImageDraw, box: Box, values: Sequence[float],
              width: int = 2) -> None:
    """``values`` as a line scaled to ``box`` (a lone value as a dot); the last point is green
    when it rose, red when it fell."""
    if not values:
        return
    left, top, right, bottom = box
    low, high = min(values), max(values)
    span = high - low or 1.0
    step = (right - left) / max(1, len(values) - 1)
    points = [(left + i * step if len(values) > 1 else (left + right) / 2,
               bottom - (v - low) / span * (bottom - top) if high > low else (top + bottom) / 2)
              for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=TEXT, width=width, joint="curve")
    last = values[-1] - values[-2] if len(values) > 1 else 0
    colour = RISE if last > 0 else FALL if last < 0 else TEXT
    x, y = points[-1]
    draw.ellipse((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=colour)


def form_dots(draw: ImageDraw.ImageDraw, box: Box, outcomes: Sequence[str]) -> None:
    """The latest results as dots, oldest on the left: won green, lost red, drawn grey (as many
    as fit the box, the latest kept)."""
    left, top, right, bottom = box
    size = min(10.0, bottom - top)
    step = size + 3
    fit = max(0, int((right - left + 3) // step))
    mid = (top + bottom) / 2
    for i, outcome in enumerate(list(outcomes)[-fit:] if fit else []):
        x = left + i * step
        draw.ellipse((x, mid - size / 2, x + size, mid + size / 2),
                     fill=OUTCOME_COLOURS.get(outcome, MUTED))
