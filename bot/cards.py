"""The 48-card Hanafuda deck.

Every card has a canonical index ``0..47`` = ``(month - 1) * 4 + rank`` with the most valuable card
of a month first, and a canonical string id (``"crane"``, ``"pine_chaff_1"``, ...) used in logs,
events, tests and custom ids. Months use the Japanese numbering; :attr:`Card.korean_month` gives the
Go-Stop numbering (paulownia 11, willow 12) for the same card.

Piles of cards are often handled as integer bit sets (bit ``i`` set = card ``i`` present): fast,
hashable and trivially copied. :func:`mask`, :func:`cards_in` and :data:`MONTH_MASKS` convert.

>>> card("crane").month, card("crane").kind
(1, <Kind.BRIGHT: 'bright'>)
>>> card(47).id
'paulownia_chaff_2'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "BIT",
    "MONTH_LOW_BITS",
    "Card",
    "Kind",
    "Ribbon",
    "Role",
    "DECK",
    "MONTHS",
    "MONTH_MASKS",
    "ALL_MASK",
    "card",
    "index_of",
    "mask",
    "cards_in",
    "ids_in",
    "indices_in",
]


class Kind(str, Enum):
    """The four card classes (20 / 10 / 5 / 1 points in the classic counting)."""

    BRIGHT = "bright"
    ANIMAL = "animal"
    RIBBON = "ribbon"
    CHAFF = "chaff"


class Ribbon(str, Enum):
    """Ribbon colours: the three poetry ribbons, the plain red ones and the blue ones."""

    POETRY = "poetry"  # red with writing, Jan/Feb/Mar (akatan, hong-dan)
    RED = "red"  # plain red: Apr/May/Jul (grass ribbons, cho-dan) and the willow ribbon
    BLUE = "blue"  # Jun/Sep/Oct (aotan, cheong-dan)


class Role(str, Enum):
    """Cards whose rules differ between games."""

    RAIN_MAN = "rain_man"  # the willow bright, excluded from "dry" bright yaku
    SAKE_CUP = "sake_cup"  # animal that may also count as chaff / double pi
    LIGHTNING = "lightning"  # willow chaff: double pi in Go-Stop, wild in Mushi and Sakura
    YELLOW_PAULOWNIA = "yellow_paulownia"  # double pi in Go-Stop, 10 points in Sakura


@dataclass(frozen=True, slots=True)
class Month:
    """One of the twelve suits."""

    number: int  # Japanese numbering 1..12
    korean_number: int  # Go-Stop numbering (paulownia 11, willow 12)
    plant: str
    plant_romaji: str
    plant_kanji: str
    month_kanji: str


MONTHS: tuple[Month, ...] = (
    Month(1, 1, "pine", "matsu", "松", "一月"),
    Month(2, 2, "plum", "ume", "梅", "二月"),
    Month(3, 3, "cherry", "sakura", "桜", "三月"),
    Month(4, 4, "wisteria", "fuji", "藤", "四月"),
    Month(5, 5, "iris", "ayame", "菖蒲", "五月"),
    Month(6, 6, "peony", "botan", "牡丹", "六月"),
    Month(7, 7, "bush clover", "hagi", "萩", "七月"),
    Month(8, 8, "pampas", "susuki", "芒", "八月"),
    Month(9, 9, "chrysanthemum", "kiku", "菊", "九月"),
    Month(10, 10, "maple", "momiji", "紅葉", "十月"),
    Month(11, 12, "willow", "yanagi", "柳", "十一月"),
    Month(12, 11, "paulownia", "kiri", "桐", "十二月"),
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Compare and hash by index; ``str(card)`` is its canonical id."""

    index: int
    id: str
    month: int
    kind: Kind
    ribbon: Ribbon | None
    bird: bool
    role: Role | None
    name: str  # English display name
    romaji: str
    kanji: str

    @property
    def korean_month(self) -> int:
        """Month number in the Korean (Go-Stop) order: paulownia 11, willow 12."""
        return MONTHS[self.month - 1].korean_number

    @property
    def rank(self) -> int:
        """Position within the month, 0 = most valuable."""
        return self.index % 4

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def value(self) -> int:
        """Classic card value: bright 20, animal 10, ribbon 5, chaff 1 (Hana-Awase, Mushi)."""
        return _VALUES[self.kind]

    @property
    def plant(self) -> str:
        return MONTHS[self.month - 1].plant

    def __str__(self) -> str:
        return self.id

    def __int__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_VALUES = {Kind.BRIGHT: 20, Kind.ANIMAL: 10, Kind.RIBBON: 5, Kind.CHAFF: 1}

B, A, R, C = Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF
P, RD, BL = Ribbon.POETRY, Ribbon.RED, Ribbon.BLUE

# (id, kind, ribbon, bird, role, English name, romaji, kanji), four per month, best first.
_TABLE: tuple[tuple, ...] = (
    ("crane", B, None, False, None, "Crane and Sun", "matsu ni tsuru", "松に鶴"),
    ("poetry_ribbon_jan", R, P, False, None, "Pine Poetry Ribbon", "matsu ni akatan", "松に赤短"),
    ("pine_chaff_1", C, None, False, None, "Pine", "matsu no kasu", "松のカス"),
    ("pine_chaff_2", C, None, False, None, "Pine", "matsu no kasu", "松のカス"),
    ("bush_warbler", A, None, True, None, "Bush Warbler", "ume ni uguisu", "梅に鶯"),
    ("poetry_ribbon_feb", R, P, False, None, "Plum Poetry Ribbon", "ume ni akatan", "梅に赤短"),
    ("plum_chaff_1", C, None, False, None, "Plum", "ume no kasu", "梅のカス"),
    ("plum_chaff_2", C, None, False, None, "Plum", "ume no kasu", "梅のカス"),
    ("curtain", B, None, False, None, "Cherry Curtain", "sakura ni maku", "桜に幕"),
    ("poetry_ribbon_mar", R, P, False, None, "Cherry Poetry Ribbon", "sakura ni akatan", "桜に赤短"),
    ("cherry_chaff_1", C, None, False, None, "Cherry", "sakura no kasu", "桜のカス"),
    ("cherry_chaff_2", C, None, False, None, "Cherry", "sakura no kasu", "桜のカス"),
    ("cuckoo", A, None, True, None, "Cuckoo", "fuji ni hototogisu", "藤に不如帰"),
    ("plain_ribbon_apr", R, RD, False, None, "Wisteria Ribbon", "fuji ni tanzaku", "藤に短冊"),
    ("wisteria_chaff_1", C, None, False, None, "Wisteria", "fuji no kasu", "藤のカス"),
    ("wisteria_chaff_2", C, None, False, None, "Wisteria", "fuji no kasu", "藤のカス"),
    ("bridge", A, None, False, None, "Eight-Plank Bridge", "ayame ni yatsuhashi", "菖蒲に八橋"),
    ("plain_ribbon_may", R, RD, False, None, "Iris Ribbon", "ayame ni tanzaku", "菖蒲に短冊"),
    ("iris_chaff_1", C, None, False, None, "Iris", "ayame no kasu", "菖蒲のカス"),
    ("iris_chaff_2", C, None, False, None, "Iris", "ayame no kasu", "菖蒲のカス"),
    ("butterflies", A, None, False, None, "Butterflies", "botan ni cho", "牡丹に蝶"),
    ("blue_ribbon_jun", R, BL, False, None, "Peony Blue Ribbon", "botan ni aotan", "牡丹に青短"),
    ("peony_chaff_1", C, None, False, None, "Peony", "botan no kasu", "牡丹のカス"),
    ("peony_chaff_2", C, None, False, None, "Peony", "botan no kasu", "牡丹のカス"),
    ("boar", A, None, False, None, "Boar", "hagi ni inoshishi", "萩に猪"),
    ("plain_ribbon_jul", R, RD, False, None, "Bush Clover Ribbon", "hagi ni tanzaku", "萩に短冊"),
    ("clover_chaff_1", C, None, False, None, "Bush Clover", "hagi no kasu", "萩のカス"),
    ("clover_chaff_2", C, None, False, None, "Bush Clover", "hagi no kasu", "萩のカス"),
    ("moon", B, None, False, None, "Full Moon", "bozu ni tsuki", "芒に月"),
    ("geese", A, None, True, None, "Geese", "bozu ni kari", "芒に雁"),
    ("susuki_chaff_1", C, None, False, None, "Pampas", "bozu no kasu", "芒のカス"),
    ("susuki_chaff_2", C, None, False, None, "Pampas", "bozu no kasu", "芒のカス"),
    ("sake_cup", A, None, False, Role.SAKE_CUP, "Sake Cup", "kiku ni sakazuki", "菊に盃"),
    ("blue_ribbon_sep", R, BL, False, None, "Chrysanthemum Blue Ribbon", "kiku ni aotan", "菊に青短"),
    ("chrysanthemum_chaff_1", C, None, False, None, "Chrysanthemum", "kiku no kasu", "菊のカス"),
    ("chrysanthemum_chaff_2", C, None, False, None, "Chrysanthemum", "kiku no kasu", "菊のカス"),
    ("deer", A, None, False, None, "Deer", "momiji ni shika", "紅葉に鹿"),
    ("blue_ribbon_oct", R, BL, False, None, "Maple Blue Ribbon", "momiji ni aotan", "紅葉に青短"),
    ("maple_chaff_1", C, None, False, None, "Maple", "momiji no kasu", "紅葉のカス"),
    ("maple_chaff_2", C, None, False, None, "Maple", "momiji no kasu", "紅葉のカス"),
    ("rainman", B, None, False, Role.RAIN_MAN, "Rain Man", "yanagi ni ono no tofu", "柳に小野道風"),
    ("swallow", A, None, False, None, "Swallow", "yanagi ni tsubame", "柳に燕"),
    ("plain_ribbon_willow", R, RD, False, None, "Willow Ribbon", "yanagi ni tanzaku", "柳に短冊"),
    ("lightning", C, None, False, Role.LIGHTNING, "Lightning", "yanagi ni kaminari", "柳に雷"),
    ("phoenix", B, None, False, None, "Phoenix", "kiri ni ho-o", "桐に鳳凰"),
    ("paulownia_chaff_yellow", C, None, False, Role.YELLOW_PAULOWNIA, "Paulownia (yellow)", "kiri no kasu (kiiro)", "桐のカス（黄）"),
    ("paulownia_chaff_1", C, None, False, None, "Paulownia", "kiri no kasu", "桐のカス"),
    ("paulownia_chaff_2", C, None, False, None, "Paulownia", "kiri no kasu", "桐のカス"),
)

# The months' plants as Korean hwatu players name them, in the Japanese order (pine ... paulownia).
PLANT_KOREAN = ("송학", "매조", "벚꽃", "흑싸리", "난초", "모란", "홍싸리", "공산", "국화", "단풍", "비", "오동")

# Each card as Korean hwatu players name it: the month's name (Go-Stop's: 송학 pine ... 비 willow,
# 오동 paulownia) and the kind (광 bright, 열끗 animal, 홍단/청단/초단 ribbons, 피 chaff, 쌍피 double).
HANGUL_NAMES: dict[str, str] = {
    "crane": "송학 광", "poetry_ribbon_jan": "송학 홍단", "pine_chaff_1": "송학 피", "pine_chaff_2": "송학 피",
    "bush_warbler": "매조 열끗", "poetry_ribbon_feb": "매조 홍단", "plum_chaff_1": "매조 피",
    "plum_chaff_2": "매조 피", "curtain": "벚꽃 광", "poetry_ribbon_mar": "벚꽃 홍단",
    "cherry_chaff_1": "벚꽃 피", "cherry_chaff_2": "벚꽃 피", "cuckoo": "흑싸리 열끗",
    "plain_ribbon_apr": "흑싸리 초단", "wisteria_chaff_1": "흑싸리 피", "wisteria_chaff_2": "흑싸리 피",
    "bridge": "난초 열끗", "plain_ribbon_may": "난초 초단", "iris_chaff_1": "난초 피", "iris_chaff_2": "난초 피",
    "butterflies": "모란 열끗", "blue_ribbon_jun": "모란 청단", "peony_chaff_1": "모란 피",
    "peony_chaff_2": "모란 피", "boar": "홍싸리 열끗", "plain_ribbon_jul": "홍싸리 초단",
    "clover_chaff_1": "홍싸리 피", "clover_chaff_2": "홍싸리 피", "moon": "공산 광", "geese": "공산 열끗",
    "susuki_chaff_1": "공산 피", "susuki_chaff_2": "공산 피", "sake_cup": "국화 열끗 (술잔)",
    "blue_ribbon_sep": "국화 청단", "chrysanthemum_chaff_1": "국화 피", "chrysanthemum_chaff_2": "국화 피",
    "deer": "단풍 열끗", "blue_ribbon_oct": "단풍 청단", "maple_chaff_1": "단풍 피", "maple_chaff_2": "단풍 피",
    "rainman": "비광", "swallow": "비 열끗", "plain_ribbon_willow": "비 띠", "lightning": "비 쌍피",
    "phoenix": "오동 광", "paulownia_chaff_yellow": "오동 쌍피", "paulownia_chaff_1": "오동 피",
    "paulownia_chaff_2": "오동 피",
}

DECK: tuple[Card, ...] = tuple(
    Card(i, cid, i // 4 + 1, kind, rib, bird, role, name, romaji, kanji)
    for i, (cid, kind, rib, bird, role, name, romaji, kanji) in enumerate(_TABLE)
)
"""All 48 cards in canonical order; ``DECK[i].index == i``."""

_BY_ID: dict[str, Card] = {c.id: c for c in DECK}
assert len(DECK) == 48 and len(_BY_ID) == 48

ALL_MASK = (1 << 48) - 1
MONTH_MASKS: tuple[int, ...] = (0,) + tuple(0b1111 << (4 * m) for m in range(12))
"""``MONTH_MASKS[m]`` is the bit set of month ``m`` (1..12); index 0 is empty."""
MONTH_OF: tuple[int, ...] = tuple(MONTH_MASKS[i // 4 + 1] for i in range(48))
"""``MONTH_OF[i]`` is the bit set of card ``i``'s month (the inner loops' one table read)."""


def card(ref: Card | str | int) -> Card:
    """The card for an index, a canonical id or a Card. Raises KeyError for an unknown id."""
    if isinstance(ref, Card):
        return ref
    if isinstance(ref, int):
        if not 0 <= ref < 48:
            raise KeyError(f"no card with index {ref}")
        return DECK[ref]
    try:
        return _BY_ID[ref]
    except KeyError:
        raise KeyError(f"unknown card id {ref!r}") from None


def index_of(ref: Card | str | int) -> int:
    return card(ref).index


def mask(cards: Iterable[Card | str | int]) -> int:
    """Bit set of some cards."""
    m = 0
    for c in cards:
        m |= 1 << card(c).index
    return m


# The set bits of every 12-bit value, shifted to each 12-bit part of a 60-bit set: the engines'
# inner loops read card sets through indices_in more than through anything else, and five table
# reads cost a third of a loop over the bits (1.8 MB).
def _bits_of_12(offset: int) -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()]
    for bit in range(12):  # the values with this bit set follow those without it
        table += [bits + (offset + bit,) for bits in table]
    return tuple(table)


_P0, _P1, _P2, _P3, _P4 = (_bits_of_12(12 * part) for part in range(5))


def indices_in(m: int) -> list[int]:
    """Card indices in a bit set, ascending."""
    if not m >> 48:  # the 48 cards
        return [*_P0[m & 4095], *_P1[m >> 12 & 4095], *_P2[m >> 24 & 4095], *_P3[m >> 36]]
    if not m >> 60:  # and Go-Stop's jokers
        return [*_P0[m & 4095], *_P1[m >> 12 & 4095], *_P2[m >> 24 & 4095],
                *_P3[m >> 36 & 4095], *_P4[m >> 48]]
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def cards_in(m: int) -> list[Card]:
    """Cards in a bit set, in canonical order."""
    return [DECK[i] for i in indices_in(m)]


_IDS = tuple(c.id for c in DECK)
VALUE_OF: tuple[int, ...] = tuple(c.value for c in DECK)
"""``VALUE_OF[i]`` is card ``i``'s classic value (``Card.value``) as one table read."""


def part_tables(values) -> tuple[tuple[tuple, ...], ...]:
    """The tables ``indices_in`` reads, with ``values[i]`` in place of each card index ``i``:
    whatever a card set lists per card (ids, actions) is then four table reads."""
    get = values.__getitem__
    return tuple(tuple(tuple(map(get, bits)) for bits in part) for part in (_P0, _P1, _P2, _P3))


# The same tables with card ids: the events of every move list cards by id.
_N0, _N1, _N2, _N3 = part_tables(_IDS)


def ids_in(m: int) -> list[str]:
    """Card ids in a bit set of the 48 cards, in canonical order."""
    return [*_N0[m & 4095], *_N1[m >> 12 & 4095], *_N2[m >> 24 & 4095], *_N3[m >> 36]]


MONTH_LOW_BITS = sum(1 << 4 * m for m in range(12))
"""The first card of every month: month counts by nibble arithmetic are tested against it."""
BIT: tuple[int, ...] = tuple(1 << i for i in range(64))
"""``BIT[i]`` is card ``i``'s bit (Go-Stop's jokers included): a table read, not a shift."""


def _months_table(keep) -> bytes:
    """Per byte of a card set (two months' nibbles): 0xF in each nibble whose card count
    ``keep`` accepts, else 0."""
    return bytes(sum(15 << s for s in (0, 4) if keep((b >> s & 15).bit_count()))
                 for b in range(256))


_HOLDING = tuple(_months_table(lambda n, k=k: n == k) for k in range(5))
_HOLDING_AT_LEAST = tuple(_months_table(lambda n, k=k: n >= k) for k in range(5))


def months_holding(m: int, count: int) -> int:
    """The months (all four cards of each, a bit set) of which ``m`` holds exactly ``count``
    cards (0..4); cards past the 48 (Go-Stop's jokers) are left out.

    Each month is four adjacent bits, so each byte of the set is two months: its six bytes go
    through a 256-entry table at once, in C, with no loop over the months.
    """
    return _from_bytes(_month_bytes(m).translate(_HOLDING[count]), "little")


def months_holding_at_least(m: int, count: int) -> int:
    """The months (all four cards of each) of which ``m`` holds ``count`` cards or more (as
    :func:`months_holding`)."""
    return _from_bytes(_month_bytes(m).translate(_HOLDING_AT_LEAST[count]), "little")


_from_bytes = int.from_bytes


def _month_bytes(m: int) -> bytes:
    """The 48 cards of ``m`` as six bytes, two months each, the first month first."""
    try:
        return m.to_bytes(6, "little")
    except OverflowError:  # cards past the 48: Go-Stop's jokers, no month's
        return (m & ALL_MASK).to_bytes(6, "little")


def has_odd_month(m: int) -> bool:
    """Whether ``m`` holds an odd number of cards of some month: the low bit of each month's
    nibble XORed with its other three bits is that month's parity."""
    return bool((m ^ m >> 1 ^ m >> 2 ^ m >> 3) & MONTH_LOW_BITS)


def month_count_table(m: int) -> tuple[int, ...]:
    """How many months ``m`` holds 0, 1, 2, 3 and 4 cards of (as :func:`months_holding`)."""
    c = m - (m >> 1 & 0x555555555555)
    c = (c & 0x333333333333) + (c >> 2 & 0x333333333333)
    out = []
    for count in range(5):
        x = c ^ count * MONTH_LOW_BITS
        out.append((~(x | x >> 1 | x >> 2) & MONTH_LOW_BITS).bit_count())
    return tuple(out)


def _kind_mask(pred) -> int:
    return mask(c for c in DECK if pred(c))


BRIGHTS = _kind_mask(lambda c: c.kind is Kind.BRIGHT)
ANIMALS = _kind_mask(lambda c: c.kind is Kind.ANIMAL)
RIBBONS = _kind_mask(lambda c: c.kind is Kind.RIBBON)
CHAFF = _kind_mask(lambda c: c.kind is Kind.CHAFF)
POETRY_RIBBONS = _kind_mask(lambda c: c.ribbon is Ribbon.POETRY)
BLUE_RIBBONS = _kind_mask(lambda c: c.ribbon is Ribbon.BLUE)
GRASS_RIBBONS = mask(["plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul"])
BIRDS = _kind_mask(lambda c: c.bird)
