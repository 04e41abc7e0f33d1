"""``python -m rendering.preview OUTDIR [--locale en|ja|ko] [--docs FOLDER]``: write a contact
sheet of all 48 cards and sample images to look at, their words and sample players' names in
that language: tables for every game and player count, a hand and a round's summary of every
game, the final table, Seotda's table, a showdown and a redeal, all from seeded games the AI
played (:mod:`rendering.played`), and a table and a hand as a phone shows them; the yaku
sheets, leaderboards, a player's card, tournament standings and a bracket. ``--docs`` also writes the pictures the docs show, under
their names there (once per language: ``--docs docs``, then ``--locale ja --docs docs``...)."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

from bot.games import game_module
from bot.i18n import LANGUAGES, current, speaking

from .board import render_board
from .canvas import PHONE_WIDTH
from .card import render_card
from .deck import deck_image, render_deck_sheet
from .encode import encode_png
from .hand import render_hand
from .played import PlayedGame, in_round, play
from .samples import PLAYER_COUNTS, sample_board, sample_card, sample_deal_board, sample_standings
from .sheet import render_yaku_sheet
from .summary import render_summary
from .table import render_table
from .tournament import render_standings
from .view import GAMES, SummaryView, TableView

SHEET_CARD = 96


def contact_sheet(cjk_font: str | None = None) -> Image.Image:
    """All 48 cards, month by month, with month captions and a legend of the kind symbols."""
    return deck_image(None, SHEET_CARD, cjk_font, column_gap=24)


SEOTDA_SEED = 78
"""The Seotda match of the README: with short stacks, its AI play brings a raise, a seat that
died, an all-in and a side pot into one betting round of hand 5."""
SEOTDA_BUY_IN = 20  # chips a seat brings: few enough for all-ins and side pots to come up


def side_pot_beside_a_fold(played: PlayedGame) -> bool:
    """A betting turn with a side pot, a seat all in and a seat that died: what Seotda's table
    has to draw beyond a plain bet."""
    obs = played.match.observation(0)
    if obs.get("phase") != "bet" or not any(obs["all_in"]) or all(obs["live"]):
        return False
    return len(played.table().pots) > 1


def seotda_views() -> tuple[TableView, SummaryView]:
    """Seotda's table at its first side pot beside a seat that died, and the first showdown of
    the same match that shares its chips out in more than one pot."""
    rules = game_module("seotda").Rules().replace(buy_in=SEOTDA_BUY_IN)
    table = play("seotda", 5, SEOTDA_SEED, rules=rules, until=side_pot_beside_a_fold)
    whole = play("seotda", 5, SEOTDA_SEED, rules=rules)
    split = next(i for i, e in enumerate(whole.summaries)
                 if len(e.get("detail", {}).get("pots", ())) > 1)
    return table.table(), whole.summary(split)


SEOTDA_REDEAL_SEED = 1
"""A Seotda match of three whose first showdown is a gusa that calls a redeal."""


def seotda_redeal_view() -> SummaryView:
    """The first showdown of a played Seotda match that calls a redeal, as the table posts it."""
    whole = play("seotda", 3, SEOTDA_REDEAL_SEED)
    called = next(i for i, e in enumerate(whole.summaries) if e.get("redeal"))
    return whole.summary(called)


def at_phone_width(data: bytes) -> bytes:
    """A picture as a phone shows it: scaled to :data:`PHONE_WIDTH` (Discord fits a picture to
    the message column), to see in the docs what a player there reads."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    height = round(image.height * PHONE_WIDTH / image.width)
    return encode_png(image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS))


DOCS: dict[str, dict[str, str]] = {
    "en": {name: name for name in (
        "cards.png", "table-final.png", "seotda.png", "seotda-showdown.png", "seotda-redeal.png",
        "leaderboard.png", "deal-of-the-day.png",
        "stats.png", "tournament-swiss.png", "tournament-bracket.png")} | {
        "table-koikoi.png": "table-koikoi-2p.png", "table-gostop.png": "table-gostop-3p.png",
        "table-sakura.png": "table-sakura-4p.png", "hand.png": "hand-koikoi.png",
        "table-koikoi-phone.png": "table-koikoi-2p-phone.png", "hand-phone.png": "hand-koikoi-phone.png",
        "cards-gostop.png": "deck-gostop.png"},
    "ja": {"table-koikoi-ja.png": "table-koikoi-2p.png", "hand-ja.png": "hand-koikoi.png",
           "yaku-koikoi-ja.png": "yaku-koikoi.png"},
    "ko": {"table-gostop-ko.png": "table-gostop-3p.png", "yaku-gostop-ko.png": "yaku-gostop.png",
           "cards-gostop-ko.png": "deck-gostop.png"},
}
"""The pictures the docs show, by their language: each one's name in docs/ and the preview
image it is."""


def write_all(out: Path, docs: Path | None = None) -> list[Path]:
    """Write every preview image into ``out``, and the docs' pictures of the current language
    into ``docs``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    if docs is not None:
        docs.mkdir(parents=True, exist_ok=True)
    images: dict[str, bytes] = {"cards.png": encode_png(contact_sheet())}
    for game in GAMES:
        for n in PLAYER_COUNTS[game]:
            images[f"table-{game}-{n}p.png"] = render_table(in_round(game, n).table())
        fewest = PLAYER_COUNTS[game][0]
        images[f"hand-{game}.png"] = render_hand(in_round(game, fewest, share=0).hand())
        images[f"summary-{game}.png"] = render_summary(play(game, fewest).summary())
        images[f"yaku-{game}.png"] = render_yaku_sheet(game, current())
        images[f"deck-{game}.png"] = render_deck_sheet(game, current())
    images["table-final.png"] = render_table(play("koikoi", 2).table())
    seotda_table, showdown = seotda_views()
    images["seotda.png"], images["seotda-showdown.png"] = render_table(seotda_table), render_summary(showdown)
    images["seotda-redeal.png"] = render_summary(seotda_redeal_view())
    images["leaderboard.png"] = render_board(sample_board())
    images["leaderboard-wins.png"] = render_board(sample_board(rated=False))
    images["deal-of-the-day.png"] = render_board(sample_deal_board())
    images["stats.png"] = render_card(sample_card())
    images["tournament-swiss.png"] = render_standings(sample_standings("swiss", 8))
    images["tournament-bracket.png"] = render_standings(sample_standings("single_elimination", 8))
    for name in ("table-koikoi-2p", "hand-koikoi"):
        images[f"{name}-phone.png"] = at_phone_width(images[f"{name}.png"])
    paths = []
    for name, data in images.items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    for name, image in DOCS.get(current(), {}).items() if docs is not None else ():
        path = docs / name
        path.write_bytes(images[image])
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rendering.preview",
                                     description="Write the cards and sample images as PNG files.")
    parser.add_argument("outdir", type=Path, help="where to write them (created if missing)")
    parser.add_argument("--locale", choices=LANGUAGES, default="en",
                        help="the language of the images' words and sample names (default: en)")
    parser.add_argument("--docs", type=Path, metavar="FOLDER",
                        help="also write the pictures the docs show in this language into FOLDER, "
                             "under their names there (the repository's docs/)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        with speaking(args.locale):
            for path in write_all(args.outdir, args.docs):
                print(path)
    except OSError as exc:  # the folder is made first, so a bad path fails before any drawing
        failed = Path(exc.filename) if exc.filename else None
        into_docs = args.docs is not None and failed is not None and (
            failed == args.docs or args.docs in failed.parents)
        print(f"error: {_unwritable(args.docs if into_docs else args.outdir, exc)}",
              file=sys.stderr)
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
