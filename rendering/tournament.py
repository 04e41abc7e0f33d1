"""A tournament's standings after a round, and its bracket for single elimination, as a picture.

A pure function of :class:`StandingsView` (every word in it already in the server's language),
run in the render workers like the table images. The message that carries the picture keeps the
same standings as text for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.i18n import number, t
from bot.tournaments import pairing as fmt

from .art.palette import GOLD, MUTED, PANEL, TEXT
from .canvas import IMAGE_WIDTH, MARGIN, fitted_text, new_canvas, text
from .encode import encode_png

WIDTH = IMAGE_WIDTH
TITLE_H = 76
HEAD_H = 34
ROW_H = 34
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


def _table(draw, view: StandingsView, y: int) -> int:
    cols = len(view.headers)
    cell_w = 110
    name_x = MARGIN + 70
    name_w = WIDTH - MARGIN - name_x - cols * cell_w - 10
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + HEAD_H), radius=8, fill=PANEL + (230,))
    mid = y + HEAD_H // 2
    text(draw, (MARGIN + 40, mid), "#", 16, fill=MUTED, anchor="mm", bold=True)
    fitted_text(draw, (name_x, mid), view.name_header, 16, name_w, fill=MUTED, anchor="lm",
                bold=True)
    for i, head in enumerate(view.headers):
        x = WIDTH - MARGIN - (cols - i) * cell_w + cell_w // 2
        fitted_text(draw, (x, mid), head, 15, cell_w - 8, min_size=11, fill=MUTED, anchor="mm",
                    bold=True)
    y += HEAD_H + 4
    for n, row in enumerate(view.rows):
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H), radius=8,
                               fill=PANEL + (170 if n % 2 == 0 else 100,))
        mid = y + ROW_H // 2
        colour = MUTED if row.out else TEXT
        if n < 3 and not row.out:
            draw.ellipse((MARGIN + 26, mid - 13, MARGIN + 54, mid + 13), fill=MEDALS[n])
            text(draw, (MARGIN + 40, mid), row.rank, 16, fill=(34, 28, 28), anchor="mm", bold=True)
        else:
            text(draw, (MARGIN + 40, mid), row.rank, 16, fill=colour, anchor="mm")
        fitted_text(draw, (name_x, mid), row.name, 19, name_w, min_size=13, fill=colour,
                    anchor="lm", bold=not row.out)
        for i, cell in enumerate(row.cells):
            x = WIDTH - MARGIN - (cols - i) * cell_w + cell_w // 2
            fitted_text(draw, (x, mid), cell, 18, cell_w - 8, min_size=12,
                        fill=GOLD if i == 0 and not row.out else colour, anchor="mm", bold=i == 0)
        y += ROW_H + 3
    return y


BOX_H = 26


def _bracket_height(view: StandingsView) -> int:
    if not view.bracket:
        return 0
    return 40 + len(view.bracket[0]) * (2 * BOX_H + 14)


def _bracket(draw, view: StandingsView, y: int) -> int:
    rounds = len(view.bracket)
    if not rounds:
        return y
    col_w = (WIDTH - 2 * MARGIN) // rounds
    slot_h = 2 * BOX_H + 14
    for r, matches in enumerate(view.bracket):
        x = MARGIN + r * col_w
        if r < len(view.bracket_titles):
            fitted_text(draw, (x + 4, y + 14), view.bracket_titles[r], 16, col_w - 12, fill=MUTED,
                        anchor="lm", bold=True)
        span = slot_h * (2 ** r)  # each match of round r faces 2^r first-round slots
        for m, match in enumerate(matches):
            top = y + 34 + m * span + (span - slot_h) // 2
            for side, name in enumerate((match.top, match.bottom)):
                by = top + side * (BOX_H + 2)
                won = match.winner == side
                draw.rounded_rectangle((x + 4, by, x + col_w - 18, by + BOX_H), radius=6,
                                       fill=PANEL + (230 if won else 140,))
                fitted_text(draw, (x + 12, by + BOX_H // 2), name or "—", 15, col_w - 40,
                            min_size=10, fill=GOLD if won else (MUTED if match.winner is not None
                                                                  else TEXT),
                            anchor="lm", bold=won)
            if r + 1 < rounds:  # the line to the next round's box
                cy = top + BOX_H
                draw.line((x + col_w - 18, cy, x + col_w - 4, cy), fill=MUTED + (160,), width=2)
    return y + _bracket_height(view)


def standings_image(view: StandingsView) -> Image.Image:
    height = (TITLE_H + HEAD_H + 4 + len(view.rows) * (ROW_H + 3) + 12
              + _bracket_height(view) + (36 if view.footer else 0) + MARGIN)
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (MARGIN, 30), view.title, 28, WIDTH - 2 * MARGIN, anchor="lm", bold=True)
    fitted_text(draw, (MARGIN, 60), view.subtitle, 17, WIDTH - 2 * MARGIN, fill=MUTED,
                anchor="lm")
    y = _table(draw, view, TITLE_H) + 12
    y = _bracket(draw, view, y)
    if view.footer:
        fitted_text(draw, (MARGIN, y + 18), view.footer, 17, WIDTH - 2 * MARGIN, fill=GOLD,
                    anchor="lm", bold=True)
    return image


def render_standings(view: StandingsView) -> bytes:
    """PNG bytes of the standings (and bracket) for ``view``."""
    return encode_png(standings_image(view))


def score_text(points: float) -> str:
    """1.5 as "1½": half points read at a glance."""
    whole, half = divmod(round(points * 2), 2)
    return (number(whole) if whole or not half else "") + ("½" if half else "")


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
    headers = (t("Points"), t("Buchholz"), t("S-B"), t("W-D-L"), t("Prize"))
    rows = tuple(StandingRow(
        str(s.rank), names[s.entrant] + (" " + t("(dropped)") if s.dropped else ""),
        (score_text(s.points), score_text(s.buchholz), f"{s.sonneborn_berger:g}",
         f"{s.wins + s.byes}-{s.draws}-{s.losses}", number(prizes.get(s.entrant, 0))),
        out=s.dropped) for s in table)
    return StandingsView(title, subtitle, t("Player"), headers, rows, footer=footer)


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
                   else t("Round {n}", n=r) for r in range(1, total + 1))
    return tuple(rounds), titles
