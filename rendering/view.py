"""View-models: everything an image shows, as plain frozen dataclasses.

The bot builds these from engine observations; the renderers turn them into PNG bytes. Card
references are canonical card ids (``"crane"``, ``"pine_chaff_1"``, see :mod:`bot.cards`). The same
shapes serve every game: fields a game does not use stay ``None`` or empty (the betting fields
are Seotda's alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.descriptor import descriptors
from bot.i18n import Names

GAMES: tuple[str, ...] = tuple(d.slug for d in descriptors())
"""Game slugs accepted by the renderers (the module names under ``bot.games``)."""

GAME_NAMES: Names = Names("game", {d.slug: d.name for d in descriptors()})
"""Each game's name, read in the current language (the descriptors' ``NP_("game", ...)``)."""


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

    Betting games (Seotda): ``stack`` the chips the seat has behind, ``bet`` what it has bet in
    this betting round, ``status`` its state in a word or two ("To act", "Called", "Died", "All
    in"), ``out`` a seat that died or has no chips (its cards are not drawn), ``hand_name`` the
    name of the hand it showed. Its hand is ``hand_size`` card backs; at the showdown ``shown``
    holds the cards it plays, face up, and the cards it set aside stay backs.
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
    stack: int | None = None
    bet: int | None = None
    status: str = ""
    out: bool = False
    hand_name: str = ""


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
    Betting games: ``pots`` the pot and any side pots as (label, chips), main pot first;
    ``to_call`` the bet of the round; ``stage`` where the hand is ("Betting", "Redeal 1").
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
    pots: tuple[tuple[str, int], ...] = ()
    to_call: int | None = None
    stage: str = ""
    language: str = "en"  # the words drawn on the image (the server's language for a table)


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's private hand: cards numbered 1..n in the given order, like the buttons.

    ``playable``: the cards that can capture a field card now (marked); other cards may still be
    discarded to the field. ``decision``: the choices of a turn that plays no hand card (Koi-Koi
    or Stop, Go or Stop, which field card to take): then no card is marked and the choices are
    shown instead. ``legend``: what the marked cards mean, for a game where they do not capture
    (empty: the capture wording). ``caption``: what the hand is worth as a whole, for a game
    that ranks hands instead of capturing (Seotda: "38 Gwang-ttaeng (the March and August
    brights)"), drawn on a line of its own whatever the turn asks; a hand with a caption never
    gets the capture wording, its game has no field.
    """

    cards: tuple[str, ...]
    playable: tuple[str, ...] = ()
    title: str = ""
    korean_months: bool = False
    decision: tuple[str, ...] = ()
    legend: str = ""
    caption: str = ""
    language: str = "en"  # the owner's language


@dataclass(frozen=True, slots=True)
class YakuRow:
    """One scored combination: who made it, its display name, the cards that form it, points."""

    player: str
    name: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand turned face up at a showdown (Seotda): whose it is, its name and what the name
    means (``detail``: "a pair of 10"), the two cards it plays, the chips it won and its net for
    the hand (won minus put in), whether it won (or shares) a pot, and a ``note`` on what it did
    ("catches the gwang-ttaeng", "calls a redeal")."""

    player: str
    name: str
    cards: tuple[str, ...]
    detail: str = ""
    won: int = 0
    net: int = 0
    winner: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class SummaryView:
    """End-of-round summary: the yaku rows, multipliers ("x2 koi-koi"), and result lines.

    A showdown (Seotda) gives ``hands`` instead of rows, ``pots`` (one line per pot: its chips
    and who took it) and a ``banner`` when the hand is dealt again (gusa, a replayed tie)."""

    title: str
    rows: tuple[YakuRow, ...] = ()
    multipliers: tuple[str, ...] = ()
    result_lines: tuple[str, ...] = ()
    korean_months: bool = False
    language: str = "en"
    hands: tuple[ShownHand, ...] = ()
    pots: tuple[str, ...] = ()
    banner: str = ""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One player on a page of a leaderboard.

    ``value``: what they are ranked by, as the text version says it ("1,123 (± 236)", "12
    wins"); ``games``: how many they played, a number under the column's heading ("55"). On
    rating boards ``rating`` is the conservative rating (mu - 3 sigma) and ``spread`` its
    uncertainty sigma, drawn as a bar and a whisker; ``trend`` their ratings after their
    latest rated games, oldest first (a sparkline). Other boards give ``form`` instead: the
    outcomes ("won", "lost", "draw") of their latest games, oldest first. ``highlight``: the
    asker's own row.
    """

    rank: int
    name: str
    value: str
    games: str = ""
    rating: float | None = None
    spread: float | None = None
    trend: tuple[float, ...] = ()
    form: tuple[str, ...] = ()
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class BoardView:
    """A page of a leaderboard: ``title``, a ``subtitle`` (season, period, page), the name of
    the ranked ``value_header`` column, the rows, and a ``note`` under them (what the rating
    means, or why the board is empty); ``count_header`` names the rows' counts ("" : games)."""

    title: str
    subtitle: str
    value_header: str
    rows: tuple[BoardRow, ...]
    note: str = ""
    language: str = "en"
    count_header: str = ""

    @property
    def rated(self) -> bool:
        """A rating board (its rows carry ratings with their uncertainty)."""
        return any(r.rating is not None for r in self.rows)


@dataclass(frozen=True, slots=True)
class CardGame:
    """One game on a player's card: its name, their record, best yaku and rating in words, and
    ``history``: their ratings after each of their latest rated games, oldest first."""

    title: str
    record: str
    best_yaku: str = ""
    rating: str = ""
    history: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class CardView:
    """A player's card: their name, a ``subtitle`` (the season), a few totals as (label,
    value), one panel per game, and a ``note`` at the bottom (what the rating means, or that
    there is no record yet)."""

    name: str
    subtitle: str
    totals: tuple[tuple[str, str], ...]
    games: tuple[CardGame, ...]
    note: str = ""
    language: str = "en"
