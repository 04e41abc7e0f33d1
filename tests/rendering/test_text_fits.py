"""Titles, captions and long names are fitted into their boxes: smaller, then shortened at a word.

Every Latin text an image draws is recorded with the box its glyphs cover; the tests check each
against the image and the room it was given (no text over another, none past the edge).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rendering import betting, canvas, hand, showdown, summary, table
from rendering.canvas import ELLIPSIS, fit_line, fit_text, text_width
from rendering.fonts import latin, latin_safe
from rendering.samples import sample_hand, sample_showdown, sample_summary, sample_table
from rendering.view import GAMES, HandView, ShownHand, SummaryView, YakuRow

LONG_NAMES = ("Maximilian Alexander von Sakura", "Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
              "Evangeline Montgomery-Whitfield", "Bartholomew Cornelius Fitzgerald")
LONG_TITLE = ("Hana-Awase · round 12/12 · the Angel leaflet rules with every optional yaku and "
              "extra teyaku turned on")


@pytest.fixture
def drawn(monkeypatch):
    """The (left, top, right, bottom, text) of every Latin text drawn while the fixture is used."""
    boxes: list[tuple[float, float, float, float, str]] = []
    original = canvas.text

    def recording(draw, xy, s, size, fill=canvas.TEXT, anchor="la", bold=False, font=None):
        shown = latin_safe(s)
        if shown.strip():
            stroke = 1 if bold and size >= 14 else 0
            left, top, right, bottom = latin(size).getbbox(shown, anchor=anchor, stroke_width=stroke)
            boxes.append((xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom, shown))
        return original(draw, xy, s, size, fill=fill, anchor=anchor, bold=bold, font=font)

    for module in (canvas, table, betting, hand, summary, showdown):
        monkeypatch.setattr(module, "text", recording)
    return boxes


def at_a_word(shown: str) -> bool:
    """A name drawn whole, or shortened after a whole word (a one-word name: anywhere)."""
    kept = shown.removesuffix(ELLIPSIS)
    full = next(n for n in LONG_NAMES if n.startswith(kept))
    return kept == full or " " not in full or full[len(kept)] in " -"


def overlapping(boxes):
    return [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]


def inside(boxes, width, height):
    return [b[4] for b in boxes if b[0] < 0 or b[2] > width or b[1] < 0 or b[3] > height]


def test_fit_line_shrinks_first_then_shortens_at_a_word():
    title = "Koi-Koi · round 3/12"
    assert fit_line(title, 26, text_width(title, 26, True), bold=True) == (title, 26)
    shown, size = fit_line(title, 26, text_width(title, 22, True), bold=True)
    assert shown == title and 20 <= size < 26
    shown, size = fit_line(LONG_TITLE, 26, 400, bold=True)
    assert size == 20 and shown.endswith(ELLIPSIS) and text_width(shown, size, True) <= 400
    kept = shown.removesuffix(ELLIPSIS)
    assert LONG_TITLE.startswith(kept) and LONG_TITLE[len(kept)] in " ,"  # a whole word


def test_one_endless_word_is_cut_inside_it():
    shown = fit_text(LONG_NAMES[1], 20, 120, bold=True)
    assert shown.endswith(ELLIPSIS) and text_width(shown, 20, True) <= 120


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_long_names_and_titles_stay_in_the_table(drawn, game, players):
    view = sample_table(game, players)
    seats = tuple(replace(p, name=LONG_NAMES[i % len(LONG_NAMES)], score=12345,
                          badges=p.badges + ("Koi-Koi x2",)) for i, p in enumerate(view.players))
    view = replace(view, title=LONG_TITLE, players=seats, last_move=f"{LONG_NAMES[0]} played " + "x " * 120,
                   footer="Bright on top: the next player draws " * 6)
    image = table.table_image(view)
    assert not inside(drawn, image.width, image.height)
    assert not overlapping(drawn)
    names = [b[4] for b in drawn if any(n.startswith(b[4].removesuffix(ELLIPSIS)) for n in LONG_NAMES)]
    assert len(names) >= players and all(at_a_word(n) for n in names)
    header = [b for b in drawn if b[1] < 40]
    assert any(LONG_TITLE.startswith(b[4].removesuffix(ELLIPSIS)) for b in header)


def test_a_long_hand_title_and_legend_fit(drawn):
    view = replace(sample_hand(), title="Your hand · " + LONG_TITLE,
                   legend="Raised with a green frame and green number: you can shed it now, " * 3)
    image = hand.hand_image(view)
    assert not inside(drawn, image.width, image.height)
    assert not overlapping(drawn)


def test_long_names_and_lines_fit_the_summary(drawn):
    view = sample_summary()
    rows = tuple(YakuRow(player=LONG_NAMES[i % 4], name="Inoshikacho (boar-deer-butterflies) and more",
                         cards=r.cards, points=r.points) for i, r in enumerate(view.rows))
    view = SummaryView(title=LONG_TITLE, rows=rows, multipliers=tuple(f"x2 multiplier {i}" for i in range(12)),
                       result_lines=(f"{LONG_NAMES[0]} scores 12 and takes the match from " * 3,))
    image = summary.summary_image(view)
    assert not inside(drawn, image.width, image.height)
    assert not overlapping(drawn)
    for b in drawn:
        if any(n.startswith(b[4].removesuffix(ELLIPSIS)) for n in LONG_NAMES) and b[1] > summary.TITLE_H:
            assert b[2] <= summary.MARGIN + summary.PLAYER_COL  # the player column only


def test_hand_captions_never_end_in_an_ellipsis(drawn):
    cards = ("sake_cup", "blue_ribbon_sep", "chrysanthemum_chaff_1", "paulownia_chaff_yellow",
             "clover_chaff_1", "crane", "moon", "deer", "rainman", "phoenix")
    hand.hand_image(HandView(cards))
    captions = [b[4] for b in drawn if b[4][0].isalpha() and b[1] > 200]
    assert captions and not [c for c in captions if c.endswith(ELLIPSIS)]


@pytest.mark.parametrize("redeal", [False, True])
def test_long_names_fit_the_showdown(drawn, redeal):
    view = sample_showdown(redeal)
    hands = tuple(replace(h, player=LONG_NAMES[i % 4], name="Meongteongguri-gusa " * 3, detail="x " * 80,
                          note="catches the gwang-ttaeng " * 4, won=1234567, net=-1234567)
                  for i, h in enumerate(view.hands))
    view = replace(view, title=LONG_TITLE, hands=(*hands, ShownHand(LONG_NAMES[3], "Ali", ("crane",))),
                   pots=(f"Side pot 9: 123,456 chips shared by {LONG_NAMES[0]} and " * 3,),
                   banner=f"{LONG_NAMES[1]} shows Gusa: the hand is dealt again " * 3)
    image = summary.summary_image(view)
    assert not inside(drawn, image.width, image.height)
    assert not overlapping(drawn)
