"""Every picture the bot draws, looked at as a player on a phone sees it (issue 45, item 6).

Each picture type is drawn in English, Japanese and Korean from games the AI played
(:mod:`rendering.played`) or the samples the docs show, while :func:`rendering.canvas.recording`
keeps the box of every text, panel and card it puts down. The geometry is then checked, not the
pixels: no text over another, none past the picture's edge, none straddling the edge of a panel
or under a card laid after it (both cut it without an ellipsis), no panel left empty, and every
text at least :data:`rendering.canvas.PHONE_EM` pixels tall once the picture is shown 400 px wide
(docs/images.md says why that size). A Korean picture leaves no particle in both forms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from bot.cards import DECK, Kind
from bot.i18n import speaking
from rendering import board, card, hand, sheet, summary, table, tournament
from rendering.canvas import PHONE_EM, PHONE_WIDTH, Layout, readable, recording
from rendering.played import in_round, play
from rendering.preview import contact_sheet, seotda_redeal_view, seotda_views
from rendering.samples import PLAYER_COUNTS, sample_board, sample_card, sample_standings
from rendering.view import GAMES, TableView
from tests.i18n.test_player_korean import BOTH_FORMS

LANGUAGES = ("en", "ja", "ko")
Box = tuple[float, float, float, float]


def _meets(a: Box, b: Box) -> bool:
    """Whether two boxes share some area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


@cache
def _played(game: str, players: int, language: str, final: bool):
    """A match of ``game`` as the samples play it, in ``language`` (the names are that
    language's): the whole match, or stopped halfway through a round."""
    with speaking(language):
        return play(game, players) if final else in_round(game, players)


def pictures(language: str) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Every picture type, named, with a way to draw it in ``language`` (called while speaking
    it, as the render workers do)."""
    for game in GAMES:
        counts = PLAYER_COUNTS[game]
        for n in counts:
            yield f"table {game} {n}p", lambda g=game, n=n: table.table_image(_played(g, n, language, False).table())
        for n in (counts[0], counts[-1]):
            yield f"final table {game} {n}p", lambda g=game, n=n: table.table_image(_played(g, n, language, True).table())
        yield f"hand {game} dealt", lambda g=game: hand.hand_image(in_round(g, PLAYER_COUNTS[g][0], share=0).hand())
        yield f"hand {game} halfway", lambda g=game: hand.hand_image(_played(g, PLAYER_COUNTS[g][0], language, False).hand())
        if game in ("koikoi", "gostop"):
            yield f"hand {game} deciding", lambda g=game: hand.hand_image(play(g, 2, until=_deciding).hand())
        for index in _summaries(game, language):
            yield f"summary {game} #{index}", lambda g=game, i=index: summary.summary_image(
                _played(g, PLAYER_COUNTS[g][-1], language, True).summary(i))
        yield f"yaku sheet {game}", lambda g=game: sheet.sheet_image(g)
    yield "a pile longer than its panel", lambda: table.table_image(_crowded(_played("sakura", 4, language, False).table()))
    yield "seotda side pot table", lambda: table.table_image(seotda_views()[0])
    yield "seotda showdown of pots", lambda: summary.summary_image(seotda_views()[1])
    yield "seotda redeal", lambda: summary.summary_image(seotda_redeal_view())
    yield "leaderboard by rating", lambda: board.board_image(sample_board())
    yield "leaderboard by wins", lambda: board.board_image(sample_board(rated=False))
    yield "stats card", lambda: card.card_image(sample_card())
    for entrants in (8, 13):
        yield f"swiss {entrants}", lambda n=entrants: tournament.standings_image(sample_standings("swiss", n))
        yield f"bracket {entrants}", lambda n=entrants: tournament.standings_image(
            sample_standings("single_elimination", n))


def _crowded(view: TableView) -> TableView:
    """The table with every chaff and ribbon captured by its first seat: more cards than one row
    of a half-width panel holds."""
    taken = tuple(c.id for c in DECK if c.kind in (Kind.CHAFF, Kind.RIBBON))
    others = tuple(replace(p, captured=tuple(c for c in p.captured if c not in taken)) for p in view.players[1:])
    return replace(view, players=(replace(view.players[0], captured=taken), *others),
                   field=tuple(c for c in view.field if c not in taken))


def _deciding(played) -> bool:
    """A turn that plays no hand card: the hand shows the choices instead (Koi-Koi or stop)."""
    seat = played.match.current_player
    return seat is not None and bool(played.hand(seat).decision)


def _summaries(game: str, language: str) -> list[int]:
    """The summaries worth looking at in a played match: the one with the most yaku rows, one
    with none (when the match has one) and the last."""
    played = _played(game, PLAYER_COUNTS[game][-1], language, True)
    with speaking(language):
        rows = [len(played.summary(i).rows) for i in range(len(played.summaries))]
    chosen = {rows.index(max(rows)), len(rows) - 1}
    if 0 in rows:
        chosen.add(rows.index(0))
    return sorted(chosen)


def faults(image: Image.Image, layout: Layout, phone: bool = True) -> list[str]:
    """What a player would see wrong in a picture, from what it recorded drawing."""
    found = []
    whole = (0, 0, image.width, image.height)
    smallest = readable(image.width) if phone else 0
    texts, panels, cards = layout.texts, layout.panels, layout.cards
    for i, t in enumerate(texts):
        if not _within(t.box, whole):
            found.append(f"{t.text!r} leaves the picture")
        if t.size < smallest:
            shown = t.size * PHONE_WIDTH / max(image.width, PHONE_WIDTH)
            found.append(f"{t.text!r} is {shown:.1f} px at phone width (under {PHONE_EM})")
        for other in texts[i + 1:]:
            if _meets(t.box, other.box):
                found.append(f"{t.text!r} and {other.text!r} overlap")
        for p in panels:
            if _meets(t.box, p.box) and not _within(t.box, p.box):
                found.append(f"{t.text!r} leaves its panel at {p.box}")
            elif p.order > t.order and _meets(t.box, p.box):
                found.append(f"{t.text!r} is covered by a panel drawn over it")
        own = [c for c in cards if c.order == t.order - 1 and _within(t.box, c.box)]  # a card's number
        for c in cards:
            if c in own or not _meets(t.box, c.box):
                continue
            if c.order > t.order:
                found.append(f"{t.text!r} is covered by a card")
            elif not own and not any(p.order > c.order and _within(t.box, p.box) for p in panels):
                found.append(f"{t.text!r} is drawn on a card without a label under it")
    for p in panels:
        if not any(_within(t.box, p.box) for t in texts) and not any(_meets(c.box, p.box) for c in cards):
            found.append(f"the panel at {p.box} is empty")
    return found


def _look(language: str, name: str, draw: Callable[[], Image.Image], phone: bool = True) -> Layout:
    with speaking(language), recording() as layout:
        image = draw()
    assert layout.texts, name
    assert faults(image, layout, phone) == [], name
    return layout


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_reads_on_a_phone(language):
    looked = 0
    for name, draw in pictures(language):
        layout = _look(language, name, draw)
        if language == "ko":
            left = [t.text for t in layout.texts if BOTH_FORMS.search(t.text)]
            assert left == [], name
        looked += 1
    assert looked > 60


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cards_sheet_of_the_docs_is_laid_out_too(language):
    """The sheet of all 48 cards is a docs picture, seen on a wide screen: laid out as the others
    are, without the phone's size floor."""
    _look(language, "cards", contact_sheet, phone=False)


def test_the_checks_see_what_they_look_for():
    """Each fault the picture test looks for is found when it is there."""
    from rendering.canvas import DrawnCard, DrawnPanel, DrawnText

    image = Image.new("RGB", (1000, 300))
    layout = Layout(
        texts=[DrawnText("Stock", 20, (10, 10, 60, 30), 2), DrawnText("Field", 20, (50, 20, 90, 40), 3),
               DrawnText("tiny", 12, (300, 10, 330, 22), 4), DrawnText("edge", 20, (980, 10, 1010, 30), 5),
               DrawnText("pile", 20, (400, 100, 440, 120), 6)],
        panels=[DrawnPanel((0, 0, 55, 50), 1), DrawnPanel((600, 100, 700, 200), 8)],
        cards=[DrawnCard((410, 90, 460, 170), 7)])
    found = faults(image, layout)
    assert "'Stock' and 'Field' overlap" in found
    assert any("'Field' leaves its panel" in f for f in found)
    assert "'tiny' is 4.8 px at phone width (under 8)" in found
    assert "'edge' leaves the picture" in found
    assert "'pile' is covered by a card" in found
    assert any("(600, 100, 700, 200) is empty" in f for f in found)
