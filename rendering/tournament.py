"""A tournament's standings after a round, and its bracket for single elimination, as a picture.

A pure function of :class:`StandingsView` (every word in it already in the server's language),
run in the render workers like the table images. The message that carries the picture keeps the
same standings as text for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.i18n import number, t, tp
from bot.tournaments import pairing as fmt

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, SMALL, fitted_text, new_canvas, panel, wrap_text
from .encode import encode_png

WIDTH = IMAGE_WIDTH
TITLE_H = 80
HEAD_H = 36
ROW_H = 36
MEDALS = (GOLD, (205, 210, 214), (214, 150, 92))  # first, second and third place


@dataclass(frozen=True)
class StandingRow:
    rank: str
    name: str
    cells: tuple[str, ...]  # one per column after the name
    out: bool = False  # dropped or knocked out: drawn muted


@dataclass(frozen=True)
class BracketMatch:
    top: str
    bottom: str  # "" for a bye
    winner: int | None = None  # 0 top, 1 bottom, None: not decided yet


@dataclass(frozen=True)
class StandingsView:
    title: str
    subtitle: str
    name_header: str
    headers: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    bracket: tuple[tuple[BracketMatch, ...], ...] = ()  # rounds of matches, first round first
    bracket_titles: tuple[str, ...] = ()
    footer: str = ""
    legend: str = ""  # one line under the table on what a column's name cannot say


Point = tuple[int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom, edges included


@dataclass(frozen=True)
class Label:
    """A text drawn once (no bundled font has a bold weight, and drawing a text twice a pixel
    apart smears it), fitted into ``width`` pixels as :func:`fitted_text` does."""

    xy: Point
    text: str
    size: int
    width: int
    fill: tuple[int, ...] = TEXT
    anchor: str = "lm"
    min_size: int | None = None


@dataclass(frozen=True)
class Shape:
    """A filled panel (rounded by ``radius``) or, with ``round``, a disc in ``box``."""

    box: Box
    fill: tuple[int, ...]
    radius: int = 0
    round: bool = False


@dataclass(frozen=True)
class Connector:
    """The line from a bracket match (``source``: round and match index) to the next round's
    match its winner plays (``target``), as the corners of one polyline."""

    source: tuple[int, int]
    target: tuple[int, int]
    points: tuple[Point, ...]

    @property
    def segments(self) -> tuple[tuple[Point, Point], ...]:
        return tuple(zip(self.points, self.points[1:], strict=False))


@dataclass(frozen=True)
class Layout:
    """Everything the picture draws, where: the test of the geometry reads this, the drawing
    only paints it. ``matches``: each bracket match's box, round by round."""

    height: int
    shapes: tuple[Shape, ...]
    labels: tuple[Label, ...]
    matches: tuple[tuple[Box, ...], ...] = ()
    connectors: tuple[Connector, ...] = ()


CELL_W = 110
LEGEND_LINE = 26  # a line of the legend under the table
FOOTER_H = 38


def _table(view: StandingsView, y: int, shapes: list[Shape], labels: list[Label]) -> int:
    """The header and rows from ``y`` down; returns the y under them."""
    cols = len(view.headers)
    name_x = MARGIN + 70
    name_w = WIDTH - MARGIN - name_x - cols * CELL_W - 10

    def cell_x(i: int) -> int:
        return WIDTH - MARGIN - (cols - i) * CELL_W + CELL_W // 2

    shapes.append(Shape((MARGIN, y, WIDTH - MARGIN, y + HEAD_H), PANEL + (230,), radius=8))
    mid = y + HEAD_H // 2
    labels.append(Label((MARGIN + 40, mid), "#", SMALL, 40, MUTED, "mm"))
    labels.append(Label((name_x, mid), view.name_header, SMALL, name_w, MUTED, min_size=SMALL))
    labels.extend(Label((cell_x(i), mid), head, SMALL, CELL_W - 8, MUTED, "mm", SMALL)
                  for i, head in enumerate(view.headers))
    y += HEAD_H + 4
    for n, row in enumerate(view.rows):
        shapes.append(Shape((MARGIN, y, WIDTH - MARGIN, y + ROW_H),
                            PANEL + (170 if n % 2 == 0 else 100,), radius=8))
        mid = y + ROW_H // 2
        colour = MUTED if row.out else TEXT
        if n < 3 and not row.out:
            shapes.append(Shape((MARGIN + 24, mid - 16, MARGIN + 56, mid + 16), MEDALS[n],
                                round=True))
            labels.append(Label((MARGIN + 40, mid), row.rank, SMALL, 24, (34, 28, 28), "mm", SMALL))
        else:
            labels.append(Label((MARGIN + 40, mid), row.rank, SMALL, 40, colour, "mm", SMALL))
        labels.append(Label((name_x, mid), row.name, 22, name_w, colour, min_size=SMALL))
        labels.extend(Label((cell_x(i), mid), cell, 22, CELL_W - 8,
                            GOLD if i == 0 and not row.out else colour, "mm", SMALL)
                      for i, cell in enumerate(row.cells))
        y += ROW_H + 3
    return y


BOX_H = 32  # one name's row in a bracket match
MATCH_H = 2 * BOX_H + 2  # a match: two rows and the line between them
SLOT_H = MATCH_H + 12  # a first-round match and the space under it
GAP = 30  # between a match and the next round's: room for the connector's elbow
BRACKET_TOP = 38  # the round titles above the matches


def _bracket_height(view: StandingsView) -> int:
    if not view.bracket:
        return 0
    return BRACKET_TOP + len(view.bracket[0]) * SLOT_H + 6


def _bracket(view: StandingsView, y: int, shapes: list[Shape], labels: list[Label]
             ) -> tuple[tuple[tuple[Box, ...], ...], tuple[Connector, ...]]:
    """The bracket's matches from ``y`` down, each centred on the two it follows from, and the
    connectors between them, drawn from the same boxes so that they meet."""
    rounds = len(view.bracket)
    col_w = (WIDTH - 2 * MARGIN + GAP) // rounds
    boxes: list[tuple[Box, ...]] = []
    for r, matches in enumerate(view.bracket):
        left = MARGIN + r * col_w
        right = left + col_w - GAP
        if r < len(view.bracket_titles):
            labels.append(Label((left, y + 16), view.bracket_titles[r], SMALL, right - left, MUTED, min_size=SMALL))
        span = SLOT_H * (2 ** r)  # each match of round r faces 2^r first-round slots
        placed = []
        for m, match in enumerate(matches):
            top = y + BRACKET_TOP + m * span + (span - SLOT_H) // 2
            box = (left, top, right, top + MATCH_H)
            placed.append(box)
            shapes.append(Shape(box, PANEL + (140,), radius=6))
            for side, name in enumerate((match.top, match.bottom)):
                row_top = top + side * (BOX_H + 2)
                won = match.winner == side
                if won:
                    shapes.append(Shape((left, row_top, right, row_top + BOX_H), PANEL + (230,),
                                        radius=6))
                fill = GOLD if won else MUTED if match.winner is not None else TEXT
                labels.append(Label((left + 8, row_top + BOX_H // 2), name or "—", SMALL,
                                    right - left - 16, fill, min_size=SMALL))
            shapes.append(Shape((left + 6, top + BOX_H, right - 6, top + BOX_H + 1),
                                (0, 0, 0, 80)))
        boxes.append(tuple(placed))
    connectors = []
    for r in range(rounds - 1):
        following = boxes[r + 1]
        for m, box in enumerate(boxes[r]):
            target = min(m // 2, len(following) - 1)
            nxt = following[target]
            start = (box[2], (box[1] + box[3]) // 2)
            end = (nxt[0], (nxt[1] + nxt[3]) // 2)
            elbow = (box[2] + nxt[0]) // 2
            corners = (start, (elbow, start[1]), (elbow, end[1]), end)
            points = tuple(p for i, p in enumerate(corners) if i == 0 or p != corners[i - 1])
            connectors.append(Connector((r, m), (r + 1, target), points))
    return tuple(boxes), tuple(connectors)


def standings_layout(view: StandingsView) -> Layout:
    """Where everything of the standings picture goes: title, table, legend, bracket, footer."""
    shapes: list[Shape] = []
    labels = [Label((MARGIN, 30), view.title, 28, WIDTH - 2 * MARGIN, min_size=SMALL),
              Label((MARGIN, 62), view.subtitle, SMALL, WIDTH - 2 * MARGIN, MUTED, min_size=SMALL)]
    y = _table(view, TITLE_H, shapes, labels)
    if view.legend:  # a sentence: in two lines when one is too short for it
        for line in wrap_text(view.legend, SMALL, WIDTH - 2 * MARGIN - 8, max_lines=2):
            labels.append(Label((MARGIN + 4, y + LEGEND_LINE // 2 + 2), line, SMALL,
                                WIDTH - 2 * MARGIN - 8, MUTED, min_size=SMALL))
            y += LEGEND_LINE
        y += 4
    y += 12
    matches: tuple[tuple[Box, ...], ...] = ()
    connectors: tuple[Connector, ...] = ()
    if view.bracket:
        matches, connectors = _bracket(view, y, shapes, labels)
        y += _bracket_height(view)
    if view.footer:
        labels.append(Label((MARGIN, y + 18), view.footer, 22, WIDTH - 2 * MARGIN, GOLD, min_size=SMALL))
        y += FOOTER_H
    return Layout(y + MARGIN, tuple(shapes), tuple(labels), matches, connectors)


def standings_image(view: StandingsView) -> Image.Image:
    layout = standings_layout(view)
    image, draw = new_canvas(WIDTH, layout.height)
    for shape in layout.shapes:
        if shape.round or shape.radius:
            panel(draw, shape.box, shape.radius, shape.fill, disc=shape.round)
        else:  # a rule between two names, no panel of its own
            draw.rectangle(shape.box, fill=shape.fill)
    for line in layout.connectors:
        draw.line(line.points, fill=MUTED + (200,), width=2, joint="curve")
    for label in layout.labels:
        fitted_text(draw, label.xy, label.text, label.size, label.width, label.min_size,
                    fill=label.fill, anchor=label.anchor)
    return image


def render_standings(view: StandingsView) -> bytes:
    """PNG bytes of the standings (and bracket) for ``view``."""
    return encode_png(standings_image(view))


FRACTIONS = ("", "¼", "½", "¾")


def score_text(points: float) -> str:
    """Points as every number of the standings writes them: 1.5 as "1½", and a Sonneborn-Berger
    total, which halves a drawn opponent's score, 1.75 as "1¾" (one form, read at a glance)."""
    whole, quarter = divmod(round(points * 4), 4)
    return (number(whole) if whole or not quarter else "") + FRACTIONS[quarter]


def standings_view(*, format: str, title: str, subtitle: str, names: dict[int, str],
                   entrants: int, games: list[fmt.Game], dropped: list[int],
                   prizes: dict[int, int] | None = None, footer: str = "") -> StandingsView:
    """The standings of a tournament after its latest round (``names``: seed -> shown name),
    with the bracket drawn for single elimination; ``prizes`` (seed -> chips) once it is over."""
    prizes = prizes or {}
    seeds = sorted(names)
    if format == "single_elimination":
        table = fmt.elimination_standings(seeds, games, dropped)
        headers = (t("Wins"), t("Out in"), t("Prize"))
        rows = tuple(StandingRow(
            str(s.rank), names[s.entrant],
            (number(s.wins), t("round {n}", n=s.eliminated_in) if s.eliminated_in else
             (t("dropped") if s.dropped else "—"), number(prizes.get(s.entrant, 0))),
            out=s.dropped or s.eliminated_in is not None) for s in table)
        bracket, titles = _bracket_matches(entrants, games, names)
        return StandingsView(title, subtitle, t("Player"), headers, rows, bracket, titles, footer)
    table = fmt.standings(seeds, games, dropped)
    headers = (t("Points"), t("Buchholz"), t("Tiebreak"), t("W-D-L"), t("Prize"))
    rows = tuple(StandingRow(
        str(s.rank), names[s.entrant] + (" " + t("(dropped)") if s.dropped else ""),
        (score_text(s.points), score_text(s.buchholz), score_text(s.sonneborn_berger),
         f"{s.wins + s.byes}-{s.draws}-{s.losses}", number(prizes.get(s.entrant, 0))),
        out=s.dropped) for s in table)
    legend = t("Tiebreak (Sonneborn-Berger): the points of the opponents a player beat, plus "
               "half the points of those they drew with")
    return StandingsView(title, subtitle, t("Player"), headers, rows, footer=footer, legend=legend)


def _bracket_matches(entrants: int, games: list[fmt.Game], names: dict[int, str]
                     ) -> tuple[tuple[tuple[BracketMatch, ...], ...], tuple[str, ...]]:
    """Every round of the bracket as far as it is known, from the seeds' slots and the results."""
    everyone = list(names)
    rounds = []
    for r in range(1, fmt.elimination_rounds(entrants) + 1):
        slots = fmt.elimination_field(entrants, games, everyone, r)
        if slots is None:  # a later round's slots are not known yet: empty boxes
            size = len(rounds[-1]) if rounds else 1
            rounds.append(tuple(BracketMatch("", "") for _ in range(max(1, size // 2))))
            continue
        matches = []
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            game = next((g for g in games if g.round == r and set(g.players()) == {a, b} - {None}),
                        None)
            winner = None
            if game is not None:
                winner = 0 if fmt.advancer(game) == a else 1
            elif (a is None) != (b is None):
                winner = 0 if b is None else 1
            matches.append(BracketMatch(names.get(a, "") if a else "", names.get(b, "") if b else "",
                                        winner))
        rounds.append(tuple(matches))
    total = len(rounds)
    titles = tuple(t("Final") if r == total else t("Semi-finals") if r == total - 1 and total > 1
                   else tp("tournament", "Round {n}", n=r) for r in range(1, total + 1))
    return tuple(rounds), titles
