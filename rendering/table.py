"""The shared table image: field, stock, discard pile and one panel per player (2 to 7 seats);
a betting game's table is drawn by :mod:`rendering.betting`."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.cards import Kind, card
from bot.games.descriptor import BETTING, descriptors
from bot.i18n import speaking, t, tp
from bot.words import plural

from .art.jokers import is_joker
from .art.palette import (
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_TURN,
    TEAM_COLOURS,
    TEXT,
)
from .betting import betting_table_image
from .canvas import (
    IMAGE_WIDTH,
    MARGIN,
    SMALL,
    WELL_SHADE,
    chip,
    fit_text,
    fitted_text,
    new_canvas,
    panel,
    place_card,
    text,
    text_width,
)
from .encode import encode_png
from .header import HEADER_H, draw_header
from .sprites import card_height, index_width, kind_symbol
from .view import PlayerView, TableView

WIDTH = IMAGE_WIDTH
FIELD_CARD = 72
PILE_CARD = 52
SIDE_W = 2 * FIELD_CARD + 3 * MARGIN  # stock and drawn card / discard pile
LABEL_Y = 4  # a pile's label above its cards, high enough that its descenders clear the top card
PILE_Y = 34  # the piles' and the field's cards, below the labels
GROUP_LABEL_W = 40
GROUP_GAP = 14
PANEL_PAD = 10
NAME_ROW_H = 34
CHIP_H = 30  # a badge in the name row or a yaku in progress
PROGRESS_ROW_H = CHIP_H + 8
FOOTER_H = 34
KIND_ORDER = (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF)
BADGE_BG = (250, 170, 70)
GROUP_SYMBOL_CARD = {Kind.BRIGHT: "crane", Kind.ANIMAL: "boar", Kind.RIBBON: "plain_ribbon_apr",
                     Kind.CHAFF: "pine_chaff_1"}
PROGRESS_BG = (46, 92, 64)
BETTING_GAMES = frozenset(d.slug for d in descriptors() if d.stake == BETTING)  # a pot and bets in the
# middle, no field (rendering.betting)


@dataclass(frozen=True, slots=True)
class _Group:
    kind: Kind
    cards: tuple[str, ...]
    label: str
    more: bool = False  # the rest of a pile too long for one row: no symbol or count of its own


def _sort_key(cid: str) -> tuple[int, str]:
    return (48, cid) if is_joker(cid) else (card(cid).index, cid)


def _groups(player: PlayerView) -> list[_Group]:
    by_kind: dict[Kind, list[str]] = {k: [] for k in KIND_ORDER}
    for cid in sorted(player.captured, key=_sort_key):
        by_kind[Kind.CHAFF if is_joker(cid) else card(cid).kind].append(cid)  # jokers are pi
    out = []
    for kind in KIND_ORDER:
        cards = tuple(by_kind[kind])
        label = str(len(cards))
        if kind is Kind.CHAFF and player.pi_count is not None:
            label = str(player.pi_count)
        out.append(_Group(kind, cards, label))
    return out


def _pile_width(n: int) -> int:
    return 0 if n == 0 else PILE_CARD + (n - 1) * index_width(PILE_CARD)


def _rows_of(g: _Group, width: int) -> list[_Group]:
    """A pile as rows that fit ``width``: a long pile goes on in the rows under its symbol."""
    step = index_width(PILE_CARD)
    per_row = max(1, 1 + (width - GROUP_LABEL_W - PILE_CARD) // step)
    if len(g.cards) <= per_row:
        return [g]
    chunks = [g.cards[i:i + per_row] for i in range(0, len(g.cards), per_row)]
    return [_Group(g.kind, chunk, g.label, more=i > 0) for i, chunk in enumerate(chunks)]


def _flow(groups: list[_Group], width: int) -> list[tuple[_Group, int, int]]:
    """Place the captured groups left to right, wrapping; (group, x, row) with x from 0."""
    placed, x, row = [], 0, 0
    for g in (part for group in groups for part in _rows_of(group, width)):
        if g.more:  # under the first row of its pile
            x, row = 0, row + 1
        w = GROUP_LABEL_W + _pile_width(len(g.cards))
        if x and x + w > width:
            x, row = 0, row + 1
        placed.append((g, x, row))
        x += w + GROUP_GAP
    return placed


def _shows_captures(player: PlayerView, view: TableView) -> bool:
    """The shedding game captures nothing: its panels show the hidden hand instead."""
    return view.game != "shedding" or bool(player.captured)


def _panel_height(player: PlayerView, width: int, view: TableView) -> int:
    if _shows_captures(player, view):
        rows = max(r for _, _, r in _flow(_groups(player), width - 2 * PANEL_PAD)) + 1
    else:
        rows = 1
    rows += 1 if player.shown else 0
    h = PANEL_PAD + NAME_ROW_H + 6 + rows * (card_height(PILE_CARD) + 8) + PANEL_PAD
    return h + (PROGRESS_ROW_H if player.progress else 0)


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, player: PlayerView, x: int, y: int,
                width: int, height: int, view: TableView, highlight: set[str]) -> None:
    bg = PANEL_TURN if player.is_turn else PANEL
    panel(draw, (x, y, x + width, y + height), 12, bg + (215,),
          outline=HIGHLIGHT if player.is_turn else None, width=3 if player.is_turn else 0)
    if player.team is not None:
        colour = TEAM_COLOURS[(player.team - 1) % len(TEAM_COLOURS)]
        draw.rounded_rectangle((x, y + 12, x + 5, y + height - 12), radius=2, fill=colour)
    cx, cy = x + PANEL_PAD + 4, y + PANEL_PAD
    mid = cy + NAME_ROW_H // 2
    if player.is_turn:
        draw.polygon([(cx, mid - 8), (cx + 12, mid), (cx, mid + 8)], fill=HIGHLIGHT)
        cx += 18
    right = x + width - PANEL_PAD - 4
    if player.score is not None:
        score = plural(player.score, "pt")
        right -= text(draw, (right, mid), score, 24, fill=GOLD, anchor="rm", bold=True) + 10
    chips = []
    if player.is_dealer:
        chips.append((t("Dealer"), INK, GOLD))
    if player.team is not None:
        chips.append((t("Team {team}", team=player.team), INK, TEAM_COLOURS[(player.team - 1) % 4]))
    if player.hand_size is not None and _shows_captures(player, view):  # else shown by the fan
        chips.append((t("Hand {cards}", cards=player.hand_size), INK, (214, 222, 214)))
    chips += [(b, INK, BADGE_BG) for b in player.badges]
    chip_w = sum(text_width(label, SMALL) + SMALL + 6 for label, _, _ in chips)
    name_w = max(60, (right - cx) * 0.45, right - cx - chip_w - 10)  # the name before its chips
    cx += fitted_text(draw, (cx, mid), player.name, 22, name_w, min_size=SMALL, anchor="lm", bold=True) + 10
    for label, fg, chip_bg in chips:
        if cx + text_width(label, SMALL) + SMALL > right:
            break
        cx = chip(draw, cx, mid - CHIP_H // 2, label, SMALL, fg=fg, bg=chip_bg, height=CHIP_H) + 6
    top = cy + NAME_ROW_H + 6
    row_h = card_height(PILE_CARD) + 8
    inner_x = x + PANEL_PAD + 4
    rows = 1
    if _shows_captures(player, view):
        flow = _flow(_groups(player), width - 2 * PANEL_PAD)
        for g, gx, row in flow:
            _draw_group(image, draw, g, inner_x + gx, top + row * row_h, view, highlight,
                        pi=g.kind is Kind.CHAFF and player.pi_count is not None)
        rows = max(r for _, _, r in flow) + 1
    elif player.hand_size is not None:
        _draw_hidden_hand(image, draw, player.hand_size, inner_x, top, width - 2 * PANEL_PAD)
    if player.shown:
        _draw_shown(image, draw, player.shown, inner_x, top + rows * row_h, view, highlight)
    if player.progress:
        px, py = inner_x, y + height - PANEL_PAD - PROGRESS_ROW_H + 4
        for item in player.progress:
            if px + text_width(item, SMALL) + SMALL > x + width - PANEL_PAD:
                break
            px = chip(draw, px, py, item, SMALL, fg=TEXT, bg=PROGRESS_BG, height=CHIP_H) + 6


def _draw_hidden_hand(image: Image.Image, draw: ImageDraw.ImageDraw, n: int, x: int, y: int,
                      width: int) -> None:
    """A fan of card backs, one per card in a hand, and the count."""
    shown = min(n, 20)
    step = 16 if shown < 2 else min(16, (width - PILE_CARD - 120) // (shown - 1))
    for i in range(shown):
        place_card(image, None, x + i * step, y, PILE_CARD)
    label_x = x + (PILE_CARD + (shown - 1) * step if shown else 0) + 12
    label = t("{cards} in hand", cards=plural(n, "card")) if n else t("No cards left!")
    text(draw, (label_x, y + card_height(PILE_CARD) // 2), label, 26, fill=GOLD if n <= 1 else TEXT,
         anchor="lm", bold=True)


def _draw_shown(image: Image.Image, draw: ImageDraw.ImageDraw, cards: tuple[str, ...], x: int,
                y: int, view: TableView, highlight: set[str]) -> None:
    """Hand cards laid face up for everybody (Hana-Awase teyaku), after a "Shown" label."""
    text(draw, (x, y + card_height(PILE_CARD) // 2), t("Shown"), SMALL, fill=MUTED, anchor="lm")
    step = index_width(PILE_CARD)
    for i, cid in enumerate(cards):
        place_card(image, cid, x + GROUP_LABEL_W + 16 + i * step, y, PILE_CARD, view.korean_months,
                   highlight=cid in highlight)


def _draw_group(image: Image.Image, draw: ImageDraw.ImageDraw, g: _Group, x: int, y: int,
                view: TableView, highlight: set[str], pi: bool) -> None:
    step = index_width(PILE_CARD)
    px = x + GROUP_LABEL_W
    for i, cid in enumerate(g.cards):
        place_card(image, cid, px + i * step, y, PILE_CARD, view.korean_months,
                   highlight=cid in highlight)
    if g.more:
        return
    sample = card(GROUP_SYMBOL_CARD[g.kind])
    lx = x + GROUP_LABEL_W // 2 - 2
    draw.ellipse((lx - 14, y, lx + 14, y + 28), fill=(236, 230, 212))
    kind_symbol(draw, sample, lx, y + 14, 8)
    colour = TEXT if g.cards else MUTED
    text(draw, (lx, y + 46), g.label, 22, fill=colour, anchor="mm", bold=True)
    if pi:
        text(draw, (lx, y + 72), tp("pi count", "pi"), SMALL, fill=MUTED, anchor="mm")


def _side_w(view: TableView) -> int:
    """The width of the piles beside the field: none once there is no pile to show (a final
    table whose stock ran out keeps no empty panel)."""
    piles = view.stock_count is not None or view.discard_count is not None or view.drawn_card
    return SIDE_W if piles else MARGIN


def _field_rows(n: int, width: int) -> int:
    per_row = max(1, (width + 10) // (FIELD_CARD + 10))
    return max(1, -(-n // per_row))


def _draw_centre(image: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, y: int,
                 height: int, highlight: set[str]) -> None:
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height), 14, (0, 0, 0, WELL_SHADE),
          outline=(255, 255, 255, 28), width=2)
    ch = card_height(FIELD_CARD)
    sx, sy = MARGIN * 2, y + PILE_Y
    if view.stock_count is not None:
        text(draw, (sx, y + LABEL_Y), t("Draw pile") if view.discard_count is not None else t("Stock"), SMALL,
             fill=MUTED)
        if view.stock_count:
            for i in range(min(3, view.stock_count)):
                place_card(image, None, sx + i * 2, sy - i * 2, FIELD_CARD, with_shadow=i == 0)
        chip(draw, sx + 8, sy + ch - CHIP_H - 4, str(view.stock_count), SMALL, height=CHIP_H)
        sx += FIELD_CARD + MARGIN
    second = view.drawn_card or view.discard_top
    if view.discard_count is not None or view.drawn_card:
        label = t("Drawn") if view.drawn_card else t("Discard")
        text(draw, (sx, y + LABEL_Y), label, SMALL, fill=MUTED)
        if second:
            place_card(image, second, sx, sy, FIELD_CARD, view.korean_months,
                       highlight=second in highlight or bool(view.drawn_card), with_shadow=True)
        if view.discard_count is not None and not view.drawn_card:
            chip(draw, sx, sy + ch + 6, plural(view.discard_count, "card"), SMALL, height=CHIP_H)
    fx = MARGIN + _side_w(view)
    field_w = WIDTH - MARGIN * 2 - fx
    if view.field:
        text(draw, (fx, y + LABEL_Y), t("Field ({cards})", cards=len(view.field)), SMALL, fill=MUTED)
    per_row = max(1, (field_w + 10) // (FIELD_CARD + 10))
    for i, cid in enumerate(view.field):
        cx = fx + (i % per_row) * (FIELD_CARD + 10)
        cy = sy + (i // per_row) * (ch + 14)
        place_card(image, cid, cx, cy, FIELD_CARD, view.korean_months,
                   highlight=cid in highlight, with_shadow=True)


def table_image(view: TableView) -> Image.Image:
    """Compose the table (RGB)."""
    if view.game in BETTING_GAMES:
        return betting_table_image(view)
    highlight = set(view.highlight)
    ch = card_height(FIELD_CARD)
    field_w = WIDTH - MARGIN * 3 - _side_w(view)
    rows = _field_rows(len(view.field), field_w)
    centre_h = PILE_Y + rows * (ch + 14) + 16
    if view.discard_count is not None and not view.drawn_card:
        centre_h = max(centre_h, PILE_Y + ch + CHIP_H + 18)
    shows_centre = bool(view.field) or _side_w(view) > MARGIN  # a final table may have nothing left
    players = view.players
    columns = 1 if len(players) <= 3 else 2
    panel_w = (WIDTH - 2 * MARGIN - (columns - 1) * 12) // columns
    heights = [_panel_height(p, panel_w, view) for p in players]
    above = 1 if len(players) == 2 else 0
    slots: list[tuple[int, int, int]] = []  # (player index, column, row) of panels below the field
    for i in range(above, len(players)):
        j = i - above
        slots.append((i, j % columns, j // columns))
    row_heights: dict[int, int] = {}
    for i, _, row in slots:
        row_heights[row] = max(row_heights.get(row, 0), heights[i])
    top_h = heights[0] + 12 if above else 0
    footer_h = FOOTER_H if view.footer else 8
    total = HEADER_H + top_h + (centre_h + 12 if shows_centre else 0) + sum(h + 12 for h in row_heights.values()) + footer_h
    image, draw = new_canvas(WIDTH, total)
    draw_header(draw, view)
    y = HEADER_H
    if above:
        _draw_panel(image, draw, players[0], MARGIN, y, WIDTH - 2 * MARGIN, heights[0], view,
                    highlight)
        y += heights[0] + 12
    if shows_centre:
        _draw_centre(image, draw, view, y, centre_h, highlight)
        y += centre_h + 12
    row_top = {}
    for row in sorted(row_heights):
        row_top[row] = y
        y += row_heights[row] + 12
    for i, col, row in slots:
        _draw_panel(image, draw, players[i], MARGIN + col * (panel_w + 12), row_top[row], panel_w,
                    row_heights[row], view, highlight)
    if view.footer:
        text(draw, (MARGIN, total - FOOTER_H + 4), fit_text(view.footer, SMALL, WIDTH - 2 * MARGIN), SMALL,
             fill=MUTED)
    return image


def render_table(view: TableView) -> bytes:
    """PNG bytes of the table image for ``view``, its words in ``view.language``."""
    with speaking(view.language):
        return encode_png(table_image(view))
