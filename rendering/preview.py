"""``python -m rendering.preview OUTDIR [--locale en|ja|ko]``: write a contact sheet of all 48
cards and sample images (tables for every game and player count, hands, a summary, a Seotda
showdown and redeal, the yaku sheets, tournament standings and a bracket) to look at, their
words and sample players' names in that language."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from bot.cards import DECK, MONTHS, card
from bot.i18n import LANGUAGES, N_, current, speaking, t

from .art.palette import MUTED, TEXT
from .board import render_board
from .canvas import MARGIN, new_canvas, place_card, text
from .card import render_card
from .encode import encode_png
from .fonts import caption_font, month_caption
from .hand import render_hand
from .samples import (
    PLAYER_COUNTS,
    sample_board,
    sample_card,
    sample_hand,
    sample_showdown,
    sample_standings,
    sample_summary,
    sample_table,
)
from .sheet import render_yaku_sheet
from .sprites import card_height, kind_symbol
from .summary import render_summary
from .table import render_table
from .tournament import render_standings
from .view import GAMES

SHEET_CARD = 96
LEGEND = (("crane", N_("bright")), ("boar", N_("animal")), ("poetry_ribbon_jan", N_("poetry ribbon")),
          ("plain_ribbon_apr", N_("red ribbon")), ("blue_ribbon_jun", N_("blue ribbon")),
          ("pine_chaff_1", N_("chaff")))


def contact_sheet(cjk_font: str | None = None) -> Image.Image:
    """All 48 cards, month by month, with month captions and a legend of the kind symbols."""
    gap, label_h, cols = 8, 30, 3
    group_w = 4 * SHEET_CARD + 3 * gap
    ch = card_height(SHEET_CARD)
    width = 2 * MARGIN + cols * group_w + (cols - 1) * 24
    height = MARGIN + 4 * (label_h + ch + 20) + 40
    image, draw = new_canvas(width, height)
    for m in MONTHS:
        col, row = (m.number - 1) % cols, (m.number - 1) // cols
        x = MARGIN + col * (group_w + 24)
        y = MARGIN + row * (label_h + ch + 20)
        caption, is_cjk = month_caption(m.number, cjk_font)
        draw.text((x, y + 12), f"{m.number}  {caption}", font=caption_font(18, is_cjk, cjk_font),
                  fill=TEXT, anchor="lm")
        for i, c in enumerate(DECK[(m.number - 1) * 4: m.number * 4]):
            place_card(image, c.id, x + i * (SHEET_CARD + gap), y + label_h, SHEET_CARD,
                       with_shadow=True)
    _legend(draw, MARGIN, height - 26)
    return image


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    x += text(draw, (x, y), t("Corner index: month number over the kind:"), 16, fill=MUTED,
              anchor="lm") + 14
    for cid, label in LEGEND:
        draw.ellipse((x - 2, y - 13, x + 24, y + 13), fill=(236, 230, 212))
        kind_symbol(draw, card(cid), x + 11, y, 8)
        x += 30 + text(draw, (x + 30, y), t(label), 16, fill=TEXT, anchor="lm") + 14


def write_all(out: Path) -> list[Path]:
    """Write every preview image into ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    images: dict[str, bytes] = {"cards.png": encode_png(contact_sheet())}
    for game in GAMES:
        for n in PLAYER_COUNTS[game]:
            images[f"table-{game}-{n}p.png"] = render_table(sample_table(game, n))
        images[f"yaku-{game}.png"] = render_yaku_sheet(game, current())
    for n in (1, 8, 10):
        images[f"hand-{n}.png"] = render_hand(sample_hand(n))
    images["summary.png"] = render_summary(sample_summary(6))
    images["seotda.png"] = render_table(sample_table("seotda", 5))  # the README's pictures
    images["seotda-showdown.png"] = render_summary(sample_showdown())
    images["seotda-redeal.png"] = render_summary(sample_showdown(redeal=True))
    images["leaderboard.png"] = render_board(sample_board())
    images["leaderboard-wins.png"] = render_board(sample_board(rated=False))
    images["stats.png"] = render_card(sample_card())
    images["tournament-swiss.png"] = render_standings(sample_standings("swiss", 8))
    images["tournament-bracket.png"] = render_standings(sample_standings("single_elimination", 8))
    paths = []
    for name, data in images.items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rendering.preview",
                                     description="Write the cards and sample images as PNG files.")
    parser.add_argument("outdir", type=Path, help="where to write them (created if missing)")
    parser.add_argument("--locale", choices=LANGUAGES, default="en",
                        help="the language of the images' words and sample names (default: en)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        with speaking(args.locale):
            for path in write_all(args.outdir):
                print(path)
    except OSError as exc:  # the folder is made first, so a bad path fails before any drawing
        print(f"error: {_unwritable(args.outdir, exc)}", file=sys.stderr)
        return 2
    return 0


def _unwritable(out: Path, exc: OSError) -> str:
    """One sentence on why the images cannot go into ``out``, and what to give instead."""
    found = next((p for p in (out, *out.parents) if p.exists()), None)
    if found is not None and not found.is_dir():
        where = "is a file" if found == out else f"lies under {found}, which is a file"
        return f"{out} {where}, not a folder: give a folder to write the images into (created if missing)"
    reason = (exc.strerror or str(exc)).lower()
    return f"cannot write the images into {out} ({reason}): give a folder that may be written"


if __name__ == "__main__":
    raise SystemExit(main())
