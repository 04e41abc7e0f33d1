"""Build the palette of :mod:`rendering.encode`: ``python -m rendering.palette_build``.

It trains on images of every kind (the felt's colours are kept exact and the rest come from a
median cut refined by k-means), so it is slow (seconds) and run by hand when the art changes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from PIL import Image

from .canvas import FELT_PALETTE
from .encode import PALETTE_FILE

MOSAIC_WIDTH = 1000
KMEANS_ROUNDS = 3
HAND_SEEDS = 3


def training_images() -> Iterator[Image.Image]:
    """Unencoded images of every kind, and every card face, in the proportions they are sent
    (about as many hands as tables)."""
    from bot.cards import DECK

    from .art.jokers import JOKER_PI
    from .hand import hand_image
    from .samples import PLAYER_COUNTS, sample_hand, sample_summary, sample_table
    from .sheet import sheet_image
    from .sprites import RENDERED_WIDTHS, back_sprite, card_sprite
    from .summary import summary_image
    from .table import table_image

    for game, counts in PLAYER_COUNTS.items():
        for players in counts:
            yield table_image(sample_table(game, players, seed=11))
    for seed in range(HAND_SEEDS):
        for n in (3, 6, 8, 10):
            yield hand_image(sample_hand(n, seed=seed + 11, korean=seed % 3 == 2))
    yield summary_image(sample_summary(8))
    for game in PLAYER_COUNTS:
        yield sheet_image(game)
    ids = [c.id for c in DECK] + list(JOKER_PI)
    for width in RENDERED_WIDTHS:
        for korean in (False, True):
            yield _strip([card_sprite(cid, width, korean) for cid in ids] + [back_sprite(width)])


def _strip(sprites: list[Image.Image]) -> Image.Image:
    """Sprites side by side on the felt colour, wrapped at the mosaic width."""
    from .art.palette import FELT

    per_row = max(1, MOSAIC_WIDTH // (sprites[0].width + 2))
    rows = -(-len(sprites) // per_row)
    out = Image.new("RGB", (MOSAIC_WIDTH, rows * (sprites[0].height + 2)), FELT)
    for i, sprite in enumerate(sprites):
        row, col = divmod(i, per_row)
        out.paste(sprite, (col * (sprite.width + 2), row * (sprite.height + 2)), sprite)
    return out


def build_palette() -> list[tuple[int, int, int]]:
    """Train the palette: the felt's exact colours, then median cut refined by k-means over the
    training images for the rest. Slow (seconds); run by hand, not at start."""
    images = [im.convert("RGB") for im in training_images()]
    mosaic = Image.new("RGB", (MOSAIC_WIDTH, sum(im.height for im in images)))
    y = 0
    for im in images:
        mosaic.paste(im, (0, y))
        y += im.height
    felt = list(FELT_PALETTE)
    free = 256 - len(felt)
    trained = mosaic.quantize(colors=free, method=Image.Quantize.MEDIANCUT, kmeans=KMEANS_ROUNDS)
    flat = trained.getpalette()[: 3 * free]
    colours = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    colours += [(0, 0, 0)] * (free - len(colours))
    return [*colours, *felt]


def format_palette(colours: list[tuple[int, int, int]]) -> str:
    lines = ["# The 256 colours of every image (rrggbb), written by `python -m rendering.palette_build`.",
             "# The last ones are the felt's exact vignette colours."]
    lines += [f"{r:02x}{g:02x}{b:02x}" for r, g, b in colours]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    colours = build_palette()
    PALETTE_FILE.write_text(format_palette(colours))
    print(f"wrote {len(colours)} colours to {PALETTE_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
