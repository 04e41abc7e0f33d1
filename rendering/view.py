"""View-models: everything an image shows, as plain frozen dataclasses.

The bot builds these from engine observations; the renderers turn them into PNG bytes. Card
references are canonical card ids (``"crane"``, ``"pine_chaff_1"``, see :mod:`bot.cards`). The same
shapes serve all six games: fields a game does not use stay ``None`` or empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import NP_, Names

GAMES: tuple[str, ...] = ("koikoi", "gostop", "mushi", "sakura", "hana_awase", "shedding")
"""Game slugs accepted by the renderers (the module names under ``bot.games``)."""

GAME_NAMES: Names = Names("game", {
    "koikoi": NP_("game", "Koi-Koi"),
    "gostop": NP_("game", "Go-Stop"),
    "mushi": NP_("game", "Mushi"),
    "sakura": NP_("game", "Sakura (Higo-Bana)"),
    "hana_awase": NP_("game", "Hana-Awase"),
    "shedding": NP_("game", "First Bloom"),
})


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat at the table as everybody may see it.

    ``captured``: ids of the cards this player has taken, in any order (grouped by kind when drawn).
    ``score``: running match score, or ``None`` to hide it. ``hand_size``: cards in hand, or ``None``
    to hide it. ``badges``: short public states ("Koi-Koi x2", "Go 3", "Shake x1", "Bomb").
    ``progress``: yaku that are close ("Akatan 2/3"). ``pi_count``: Go-Stop pi value including double
    pi, shown on the chaff group instead of the card count. ``team``: team number (Sakura with 4 or
    6 players) or ``None``. ``shown``: hand cards every seat may see (Hana-Awase teyaku chaff laid
    face up), drawn in a row of their own.
    """

    name: str
    captured: tuple[str, ...] = ()
    score: int | None = None
    is_dealer: bool = False
    is_turn: bool = False
    hand_size: int | None = None
    badges: tuple[str, ...] = ()
    progress: tuple[str, ...] = ()
    pi_count: int | None = None
    team: int | None = None
    shown: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """The shared table image posted in the channel.

    ``game``: one of :data:`GAMES`. ``field``: face-up field cards in display order.
    ``stock_count``: cards left in the stock (``None`` hides the stock). ``highlight``: ids of the
    cards moved by the last action, outlined wherever they lie. ``last_move``: one line describing
    it. ``discard_top`` / ``discard_count``: the shedding game's discard pile. ``drawn_card``: a card
    just turned from the stock that waits for a choice. ``korean_months``: show Go-Stop month numbers
    (willow 12, paulownia 11) in the corner indices. ``footer``: one small line at the bottom.
    ``result``: on the final table, who won and the score, drawn in place of the last move.
    """

    game: str
    title: str
    players: tuple[PlayerView, ...]
    field: tuple[str, ...] = ()
    stock_count: int | None = None
    highlight: tuple[str, ...] = ()
    last_move: str = ""
    discard_top: str | None = None
    discard_count: int | None = None
    drawn_card: str | None = None
    korean_months: bool = False
    footer: str = ""
    result: str = ""
    language: str = "en"  # the words drawn on the image (the server's language for a table)


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's private hand: cards numbered 1..n in the given order, like the buttons.

    ``playable``: the cards that can capture a field card now (marked); other cards may still be
    discarded to the field. ``decision``: the choices of a turn that plays no hand card (Koi-Koi
    or Stop, Go or Stop, which field card to take): then no card is marked and the choices are
    shown instead. ``legend``: what the marked cards mean, for a game where they do not capture
    (empty: the capture wording).
    """

    cards: tuple[str, ...]
    playable: tuple[str, ...] = ()
    title: str = ""
    korean_months: bool = False
    decision: tuple[str, ...] = ()
    legend: str = ""
    language: str = "en"  # the owner's language


@dataclass(frozen=True, slots=True)
class YakuRow:
    """One scored combination: who made it, its display name, the cards that form it, points."""

    player: str
    name: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class SummaryView:
    """End-of-round summary: the yaku rows, multipliers ("x2 koi-koi"), and result lines."""

    title: str
    rows: tuple[YakuRow, ...] = ()
    multipliers: tuple[str, ...] = ()
    result_lines: tuple[str, ...] = ()
    korean_months: bool = False
    language: str = "en"
