"""Cheap, deterministic images: one fixed palette, cached labels and sprites, worker processes."""

from __future__ import annotations

import io
import pickle

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.workers import WorkerPool
from rendering import (
    GAMES,
    render_board,
    render_card,
    render_hand,
    render_summary,
    render_table,
    render_yaku_sheet,
    warm_up,
)
from rendering.board import board_image
from rendering.canvas import FELT_PALETTE, new_canvas, text
from rendering.card import card_image
from rendering.encode import encode_png, palette_image
from rendering.fonts import latin
from rendering.hand import hand_image
from rendering.samples import (
    PLAYER_COUNTS,
    sample_board,
    sample_card,
    sample_hand,
    sample_summary,
    sample_table,
)
from rendering.sheet import sheet_image
from rendering.sprites import card_sprite
from rendering.summary import summary_image
from rendering.table import WIDTH, table_image

from .conftest import open_png

VIEWS = [
    (render_table, sample_table("koikoi", 2)),
    (render_table, sample_table("gostop", 3, seed=4)),
    (render_table, sample_table("sakura", 7)),
    (render_table, sample_table("shedding", 5)),
    (render_hand, sample_hand(8)),
    (render_hand, sample_hand(10, korean=True)),
    (render_summary, sample_summary(6)),
    (render_board, sample_board()),
    (render_board, sample_board(rated=False)),
    (render_card, sample_card()),
]


@pytest.mark.parametrize("render, view", VIEWS)
def test_views_pickle_for_the_workers(render, view):
    copy = pickle.loads(pickle.dumps(view))
    assert copy == view and hash(copy) == hash(view)
    assert render(copy) == render(view)


def test_the_same_view_gives_the_same_bytes():
    for render, view in VIEWS:
        assert render(view) == render(view)
    assert render_yaku_sheet.__wrapped__("hana_awase") == render_yaku_sheet.__wrapped__("hana_awase")


async def test_a_fresh_worker_draws_the_same_bytes_as_this_warm_process():
    """Caches (labels, sprites, palette) change nothing: a worker that has drawn nothing yet
    gives byte for byte what this process gives after drawing everything."""
    expected = [render(view) for render, view in VIEWS]
    pool = WorkerPool("render-test", 2, initializer=warm_up)
    await pool.start()
    try:
        got = [await pool.run(render, view) for render, view in VIEWS]
        sheet = await pool.run(render_yaku_sheet, "gostop")
    finally:
        await pool.close()
    assert got == expected
    assert sheet == render_yaku_sheet("gostop")


def test_a_full_seven_player_table_keeps_its_size_and_stays_under_400_kb():
    from bot.cards import DECK

    ids = [c.id for c in DECK]
    view = sample_table("sakura", 7, captured_per_player=6)
    players = tuple(type(p)(**{**{f: getattr(p, f) for f in p.__slots__},
                               "captured": tuple(ids[i * 6:(i + 1) * 6])})
                    for i, p in enumerate(view.players))
    data = render_table(type(view)(**{**{f: getattr(view, f) for f in view.__slots__},
                                      "players": players, "field": tuple(ids[42:48])}))
    image = open_png(data)
    assert image.width == WIDTH and image.mode == "P"
    assert len(data) <= 400 * 1024


def test_one_fixed_palette_with_the_felt_kept_exact():
    palette = palette_image().getpalette()
    assert len(palette) == 3 * 256
    colours = {tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)}
    assert set(FELT_PALETTE) <= colours
    image = open_png(render_table(sample_table("mushi", 2)))
    assert image.getpalette() == palette  # no per-image palette: every image shares this one


def _mean_error(image: Image.Image) -> float:
    rgb = image.convert("RGB")
    decoded = Image.open(io.BytesIO(encode_png(rgb))).convert("RGB")
    return sum(ImageStat.Stat(ImageChops.difference(rgb, decoded)).mean) / 3


@pytest.mark.parametrize("kind", ["table", "hand", "summary", "sheet", "board", "card"])
def test_the_palette_still_fits_the_art(kind):
    """Mean error per channel of the 256-colour image against the full-colour drawing; with a
    palette trained on today's art it is about 1.1-1.6 of 255. Well above that, the art has
    changed: rebuild it with ``python -m rendering.palette_build``."""
    images = {
        "table": [table_image(sample_table(g, PLAYER_COUNTS[g][-1], seed=5)) for g in GAMES],
        "hand": [hand_image(sample_hand(n, seed=5, korean=n == 9)) for n in (4, 8, 9)],
        "summary": [summary_image(sample_summary(8))],
        "sheet": [sheet_image(g) for g in GAMES],
        "board": [board_image(sample_board()), board_image(sample_board(rated=False))],
        "card": [card_image(sample_card())],
    }[kind]
    for image in images:
        assert _mean_error(image) < 2.2


@pytest.mark.parametrize("s, size, anchor, bold, xy", [
    ("Hanako 12 pts", 20, "lm", True, (100.5, 40)),
    ("Stock", 15, "la", False, (32, 10)),
    ("12", 18, "mm", True, (55.25, 30.5)),
    ("Draw pile", 13, "rm", False, (300, 60.75)),
])
def test_cached_labels_are_pixel_for_pixel_pillow_text(s, size, anchor, bold, xy):
    ours, draw = new_canvas(400, 100)
    text(draw, xy, s, size, anchor=anchor, bold=bold)
    text(draw, xy, s, size, anchor=anchor, bold=bold)  # the second time from the cache
    theirs, pil = new_canvas(400, 100)
    stroke = 1 if bold and size >= 14 else 0
    for _ in range(2):
        pil.text(xy, s, font=latin(size), fill=(240, 236, 222), anchor=anchor,
                 stroke_width=stroke, stroke_fill=(240, 236, 222))
    assert ImageChops.difference(ours, theirs).getbbox() is None
    assert isinstance(draw, ImageDraw.ImageDraw)


def test_after_warm_up_no_image_builds_a_sprite():
    warm_up()
    before = card_sprite.cache_info().misses
    for game in GAMES:
        for players in PLAYER_COUNTS[game]:
            table_image(sample_table(game, players))
        sheet_image(game)
    for n in (3, 8, 9, 12):
        hand_image(sample_hand(n, korean=True))
        hand_image(sample_hand(n))
    summary_image(sample_summary(8))
    assert card_sprite.cache_info().misses == before
