"""A drawing pen in card units: a card face is 100 units wide and 164 tall at any pixel size.

Card art is drawn with these primitives on a large canvas and scaled down for smooth edges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

CARD_W = 100.0
CARD_H = 164.0

Point = tuple[float, float]
Color = str | tuple[int, ...]


class Pen:
    """Wraps :class:`ImageDraw.ImageDraw`, converting card units to pixels."""

    def __init__(self, image: Image.Image):
        self.image = image
        self.draw = ImageDraw.Draw(image, "RGBA")  # blend translucent fills
        self.k = image.width / CARD_W

    def _p(self, pts: Sequence[Point]) -> list[tuple[float, float]]:
        k = self.k
        return [(x * k, y * k) for x, y in pts]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Color, radius: float = 0,
             outline: Color | None = None, width: float = 0) -> None:
        box = self._p([(x0, y0), (x1, y1)])
        self.draw.rounded_rectangle(box, radius=radius * self.k, fill=fill, outline=outline,
                                    width=self._w(width) if outline else 0)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float | None = None,
                fill: Color | None = None, outline: Color | None = None, width: float = 0) -> None:
        ry = rx if ry is None else ry
        box = self._p([(cx - rx, cy - ry), (cx + rx, cy + ry)])
        self.draw.ellipse(box, fill=fill, outline=outline, width=self._w(width) if outline else 0)

    def poly(self, pts: Sequence[Point], fill: Color | None = None, outline: Color | None = None,
             width: float = 0) -> None:
        self.draw.polygon(self._p(pts), fill=fill, outline=outline,
                          width=self._w(width) if outline else 0)

    def line(self, pts: Sequence[Point], fill: Color, width: float) -> None:
        self.draw.line(self._p(pts), fill=fill, width=self._w(width), joint="curve")
        r = width / 2
        for x, y in (pts[0], pts[-1]):
            self.ellipse(x, y, r, fill=fill)

    def chord(self, cx: float, cy: float, rx: float, ry: float, start: float, end: float,
              fill: Color) -> None:
        box = self._p([(cx - rx, cy - ry), (cx + rx, cy + ry)])
        self.draw.chord(box, start, end, fill=fill)

    def arc(self, cx: float, cy: float, rx: float, ry: float, start: float, end: float,
            fill: Color, width: float) -> None:
        box = self._p([(cx - rx, cy - ry), (cx + rx, cy + ry)])
        self.draw.arc(box, start, end, fill=fill, width=self._w(width))

    def pie(self, cx: float, cy: float, r: float, start: float, end: float, fill: Color) -> None:
        box = self._p([(cx - r, cy - r), (cx + r, cy + r)])
        self.draw.pieslice(box, start, end, fill=fill)

    # -- composite shapes -------------------------------------------------------------------

    def curve(self, p0: Point, p1: Point, p2: Point, fill: Color, width: float,
              steps: int = 16) -> list[Point]:
        """Quadratic Bezier stroke from p0 to p2 bent towards p1; returns its points."""
        pts = bezier(p0, p1, p2, steps)
        self.line(pts, fill, width)
        return pts

    def leaf(self, x: float, y: float, length: float, width: float, angle: float,
             fill: Color, vein: Color | None = None) -> None:
        """A pointed leaf from (x, y) pointing at ``angle`` degrees (0 = right, 90 = down)."""
        a = math.radians(angle)
        dx, dy = math.cos(a), math.sin(a)
        nx, ny = -dy, dx
        pts = []
        for i in range(13):
            t = i / 12
            w = math.sin(math.pi * t) * width / 2
            pts.append((x + dx * length * t + nx * w, y + dy * length * t + ny * w))
        for i in range(12, -1, -1):
            t = i / 12
            w = math.sin(math.pi * t) * width / 2
            pts.append((x + dx * length * t - nx * w, y + dy * length * t - ny * w))
        self.poly(pts, fill=fill)
        if vein:
            self.line([(x, y), (x + dx * length * 0.85, y + dy * length * 0.85)], vein,
                      max(0.5, width * 0.08))

    def blossom(self, cx: float, cy: float, r: float, petals: int, fill: Color, centre: Color,
                turn: float = -90, petal_scale: float = 0.55) -> None:
        """A round-petalled flower seen from the front."""
        for i in range(petals):
            a = math.radians(turn + 360 * i / petals)
            self.ellipse(cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5,
                         r * petal_scale, fill=fill)
        self.ellipse(cx, cy, r * 0.28, fill=centre)

    def star(self, cx: float, cy: float, r_out: float, r_in: float, points: int, fill: Color,
             turn: float = -90, outline: Color | None = None, width: float = 0) -> None:
        pts = []
        for i in range(points * 2):
            r = r_out if i % 2 == 0 else r_in
            a = math.radians(turn + 180 * i / points)
            pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
        self.poly(pts, fill=fill, outline=outline, width=width)


def bezier(p0: Point, p1: Point, p2: Point, steps: int = 16) -> list[Point]:
    """Points of a quadratic Bezier curve."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
                    u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1]))
    return out
