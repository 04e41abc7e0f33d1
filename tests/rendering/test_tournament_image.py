"""The tournament standings and bracket pictures: drawn from the pairing module's results,
the same bytes for the same view, every round of the bracket with its winners marked."""

from __future__ import annotations

import io

from PIL import Image

from rendering.samples import sample_standings
from rendering.tournament import render_standings, score_text


def test_standings_and_bracket_images_are_pngs_and_deterministic():
    swiss = sample_standings("swiss", 8)
    assert [r.rank for r in swiss.rows] == [str(n) for n in range(1, 9)]
    assert swiss.headers[1] == "Buchholz" and not swiss.bracket
    png = render_standings(swiss)
    assert png == render_standings(sample_standings("swiss", 8))
    image = Image.open(io.BytesIO(png))
    assert image.width == 1000 and image.height > 8 * 34

    bracket = sample_standings("single_elimination", 5)
    assert [len(r) for r in bracket.bracket] == [4, 2, 1]  # a bracket of 8 slots, 3 byes
    assert all(m.winner is not None for r in bracket.bracket for m in r)
    champion = bracket.rows[0].name
    final = bracket.bracket[-1][0]
    assert (final.top, final.bottom)[final.winner] == champion
    assert Image.open(io.BytesIO(render_standings(bracket))).height > image.height


def test_half_points_read_as_halves():
    assert [score_text(p) for p in (0, 0.5, 1, 2.5)] == ["0", "½", "1", "2½"]
