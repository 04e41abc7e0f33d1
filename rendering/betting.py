"""The table of a betting game (Seotda): the pot and side pots in the middle, the bet to call and
where the hand is, and round it one panel per seat with its name, stack, bet, state and cards.

A seat's cards are backs until the showdown; then the cards it plays are face up (outlined when
it set a third card aside, which stays a back). A seat that died shows no cards at all.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import t

from .art.palette import GOLD, HIGHLIGHT, INK, MUTED, PANEL, PANEL_TURN, TEXT
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
from .header import HEADER_H, draw_header
from .sprites import card_height
from .view import PlayerView, TableView

WIDTH = IMAGE_WIDTH
FOOTER_H = 34
GAP = 12
PAD = 10
NAME_ROW_H = 34
HAND_ROW_H = 36
CHIP_H = 30  # a seat's state, the dealer, its hand's name
CENTRE_H = 150
COIN = (214, 64, 52)
COIN_EDGE = (250, 226, 200)
STATUS_BG = (250, 170, 70)
TURN_BG = HIGHLIGHT
OUT_BG = (120, 120, 116)


def _layout(n: int) -> tuple[int, int, int]:
    """Seats in the top row, in the bottom row, and the columns panels are sized for (at least
    two: a seat of a two-player table gets half the width, centred)."""
    top = -(-n // 2)
    return top, n - top, max(2, top)


def _card_width(columns: int) -> int:
    return 72 if columns <= 3 else 52


def _panel_height(players: tuple[PlayerView, ...], card_w: int) -> int:
    shows = any(p.hand_name for p in players)
    return PAD + NAME_ROW_H + 8 + card_height(card_w) + (HAND_ROW_H + 4 if shows else 0) + PAD


def coin_stack(draw: ImageDraw.ImageDraw, x: float, bottom: float, chips: int, size: int = 22) -> float:
    """A little stack of chips (more coins for more chips), its left at ``x`` and its base at
    ``bottom``; returns its right edge."""
    coins = min(6, 1 + max(0, chips).bit_length() // 2)
    h = size // 3
    for i in range(coins):
        y = bottom - h - i * (h // 2 + 2)
        draw.ellipse((x, y, x + size, y + h), fill=COIN, outline=COIN_EDGE, width=2)
    return x + size


def _status_colour(player: PlayerView) -> tuple[int, int, int]:
    if player.is_turn:
        return TURN_BG
    return OUT_BG if player.out else STATUS_BG


def _draw_cards(image: Image.Image, player: PlayerView, x: int, y: int, card_w: int,
                room: int) -> int:
    """The seat's cards: backs, or at the showdown the played cards face up; returns the width."""
    if player.out or not player.hand_size:
        return 0
    shown = player.shown
    backs = max(0, player.hand_size - len(shown))
    count = len(shown) + backs
    step = min(card_w + 6, (room - card_w) // max(1, count - 1)) if count > 1 else 0
    for i, cid in enumerate(shown):
        place_card(image, cid, x + i * step, y, card_w, highlight=backs > 0, with_shadow=True)
    for i in range(backs):
        place_card(image, None, x + (len(shown) + i) * step, y, card_w, with_shadow=True)
    return card_w + (count - 1) * step


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, player: PlayerView, x: int, y: int,
                width: int, height: int, card_w: int) -> None:
    fill = (PANEL_TURN if player.is_turn else PANEL) + ((120 if player.out else 215),)
    panel(draw, (x, y, x + width, y + height), 12, fill, outline=HIGHLIGHT if player.is_turn else None,
          width=3 if player.is_turn else 0)
    cx, mid = x + PAD + 4, y + PAD + NAME_ROW_H // 2
    right = x + width - PAD - 4
    if player.is_turn:
        draw.polygon([(cx, mid - 8), (cx + 12, mid), (cx, mid + 8)], fill=HIGHLIGHT)
        cx += 18
    chips: list[tuple[str, tuple[int, int, int]]] = []
    if player.status:
        chips.append((player.status, _status_colour(player)))
    if player.is_dealer:
        chips.append((t("Dealer"), GOLD))
    chips += [(badge, GOLD) for badge in player.badges]  # "Winner" on the final table
    chips_w = sum(text_width(label, SMALL) + SMALL + 6 for label, _ in chips)
    name_w = max(60, (right - cx) * 0.5, right - cx - chips_w - 8)
    cx += fitted_text(draw, (cx, mid), player.name, 22, name_w, min_size=SMALL, anchor="lm", bold=True,
                      fill=MUTED if player.out else TEXT) + 8
    for label, bg in chips:
        if cx + text_width(label, SMALL) + SMALL > right:
            break
        cx = chip(draw, cx, mid - CHIP_H // 2, label, SMALL, fg=INK, bg=bg, height=CHIP_H) + 6
    top = y + PAD + NAME_ROW_H + 8
    ch = card_height(card_w)
    inner = x + PAD + 4
    room = width - 2 * PAD - 8
    money_w = min(150, room // 2)
    used = _draw_cards(image, player, inner, top, card_w, room - money_w - 8)
    mx = inner + (used + 12 if used else 0)
    money_room = right - mx
    if player.stack is not None:  # the label, then the chips behind on the same line
        vx = mx + text(draw, (mx, top + 14), fit_text(t("Stack"), SMALL, money_room / 2), SMALL,
                       fill=MUTED, anchor="lm") + 8
        fitted_text(draw, (vx, top + 14), f"{player.stack:,}", 24, right - vx, min_size=SMALL,
                    anchor="lm", bold=True)
    if player.bet:  # under it: the label, a little stack of coins and what the seat has bet
        line = top + 52
        cx = mx + text(draw, (mx, line), fit_text(t("Bet"), SMALL, money_room / 2), SMALL, fill=MUTED,
                       anchor="lm") + 6
        coin_right = coin_stack(draw, cx, line + 10, player.bet)
        fitted_text(draw, (coin_right + 6, line), f"{player.bet:,}", 22, right - coin_right - 6,
                    min_size=SMALL, fill=GOLD, anchor="lm", bold=True)
    if player.hand_name:
        hy = top + ch + 6
        label = fit_text(player.hand_name, SMALL, room - 16)
        chip(draw, inner, hy, label, SMALL, fg=INK, height=HAND_ROW_H - 4)


def _draw_centre(draw: ImageDraw.ImageDraw, view: TableView, y: int) -> None:
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + CENTRE_H), 14, (0, 0, 0, WELL_SHADE),
          outline=(255, 255, 255, 28), width=2)
    if view.stage:
        fitted_text(draw, (MARGIN * 2, y + 20), view.stage, SMALL, WIDTH // 3, min_size=SMALL, fill=MUTED,
                    anchor="lm", bold=True)
    side = 190  # room kept for the stage and the bet to call
    if view.to_call:
        rx = WIDTH - MARGIN * 2
        text(draw, (rx, y + 20), fit_text(t("Bet to match"), SMALL, side - 20), SMALL, fill=MUTED, anchor="rm")
        text(draw, (rx, y + 52), f"{view.to_call:,}", 30, fill=TEXT, anchor="rm", bold=True)
    pots = view.pots or ((t("Pot"), 0),)
    main_label, main_chips = pots[0]
    sides = pots[1:]
    block = 150 if sides else 0
    total_w = 260 + block * len(sides)
    room = WIDTH - 2 * MARGIN - 2 * side
    if total_w > room:  # many side pots: narrower blocks
        block = max(90, (room - 260) // max(1, len(sides)))
        total_w = 260 + block * len(sides)
    x = (WIDTH - total_w) // 2
    mid = y + CENTRE_H // 2 + 8
    for i in range(3):
        coin_stack(draw, x + 6 + i * 30, mid + 34 - (i % 2) * 6, main_chips + 8 * i, size=30)
    text(draw, (x + 110, mid - 36), fit_text(main_label, SMALL, 150), SMALL, fill=MUTED, anchor="lm")
    fitted_text(draw, (x + 110, mid + 4), f"{main_chips:,}", 44, 150, fill=GOLD, anchor="lm", bold=True)
    bx = x + 260
    for label, chips in sides:
        text(draw, (bx, mid - 36), fit_text(label, SMALL, block - 12), SMALL, fill=MUTED, anchor="lm")
        right = coin_stack(draw, bx, mid + 20, chips, size=20)
        fitted_text(draw, (right + 8, mid + 8), f"{chips:,}", 26, block - 40, min_size=SMALL, fill=GOLD,
                    anchor="lm", bold=True)
        bx += block


def _row_left(seats: int, panel_w: int) -> int:
    """The left edge of a row of ``seats`` panels, centred."""
    return (WIDTH - (seats * panel_w + (seats - 1) * GAP)) // 2


def betting_table_image(view: TableView) -> Image.Image:
    """Compose a betting table (RGB): the header as every table's, then the seats and the pot."""
    players = view.players
    top, bottom, columns = _layout(len(players))
    card_w = _card_width(columns)
    panel_w = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns
    panel_h = _panel_height(players, card_w)
    footer_h = FOOTER_H if view.footer else 8
    rows = 1 + (1 if bottom else 0)
    total = HEADER_H + rows * (panel_h + GAP) + CENTRE_H + GAP + footer_h
    image, draw = new_canvas(WIDTH, total)
    draw_header(draw, view)
    y = HEADER_H
    left = _row_left(top, panel_w)
    for i in range(top):
        _draw_panel(image, draw, players[i], left + i * (panel_w + GAP), y, panel_w, panel_h, card_w)
    y += panel_h + GAP
    _draw_centre(draw, view, y)
    y += CENTRE_H + GAP
    if bottom:  # the rest sit across the table, the seat order going on round it
        left = _row_left(bottom, panel_w)
        for j in range(bottom):
            seat = top + j
            col = bottom - 1 - j
            _draw_panel(image, draw, players[seat], left + col * (panel_w + GAP), y, panel_w, panel_h,
                        card_w)
    if view.footer:
        text(draw, (MARGIN, total - FOOTER_H + 4), fit_text(view.footer, SMALL, WIDTH - 2 * MARGIN), SMALL,
             fill=MUTED)
    return image
