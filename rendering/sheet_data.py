"""Yaku reference data per game (default rules of docs/rules/), for the rules command's image.

Each entry: display name, example card ids, points as shown, a one-line description. Each game's
sheet is a module constant here, named by its descriptor (``GameDescriptor.sheet``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.cards import DECK, Kind
from bot.games.descriptor import descriptors
from bot.i18n import N_, NP_


@dataclass(frozen=True, slots=True)
class SheetEntry:
    name: str
    cards: tuple[str, ...]
    points: str
    description: str


@dataclass(frozen=True, slots=True)
class Sheet:
    title: str
    intro: str
    entries: tuple[SheetEntry, ...]
    notes: tuple[str, ...] = ()


def _month(m: int) -> tuple[str, ...]:
    return tuple(c.id for c in DECK if c.month == m)


E = SheetEntry
BRIGHTS = ("crane", "curtain", "moon", "rainman", "phoenix")
DRY_FOUR = ("crane", "curtain", "moon", "phoenix")
POETRY = ("poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar")
BLUE = ("blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct")
GRASS = ("plain_ribbon_apr", "plain_ribbon_may", "plain_ribbon_jul")
BOAR_DEER_BUTTERFLIES = ("boar", "deer", "butterflies")
FIVE_ANIMALS = ("bush_warbler", "cuckoo", "bridge", "geese", "swallow")
FIVE_RIBBONS = ("poetry_ribbon_jan", "plain_ribbon_apr", "blue_ribbon_jun", "plain_ribbon_jul",
                "plain_ribbon_willow")
TEN_CHAFF = tuple(c.id for c in DECK if c.kind is Kind.CHAFF)[:10:1]

KOIKOI = Sheet(
    N_("Koi-Koi yaku"),
    N_("Make a yaku, then stop (shobu) to score or call koi-koi to play on."),
    (
        E(NP_("yaku sheet", "Goko"), BRIGHTS, "10", N_("All five brights.")),
        E(NP_("yaku sheet", "Shiko"), DRY_FOUR, "8", N_("Four brights without the rain man.")),
        E(NP_("yaku sheet", "Ame-shiko"), ("rainman", "crane", "curtain", "moon"), "7",
          N_("The rain man and three other brights.")),
        E(NP_("yaku sheet", "Sanko"), ("crane", "curtain", "moon"), "5", N_("Three brights without the rain man.")),
        E(NP_("yaku sheet", "Inoshikacho"), BOAR_DEER_BUTTERFLIES, "5+", N_("Boar, deer, butterflies; +1 per animal.")),
        E(NP_("yaku sheet", "Tane"), FIVE_ANIMALS, "1+", N_("Any five animals; +1 per extra animal.")),
        E(NP_("yaku sheet", "Akatan"), POETRY, "5+", N_("The three poetry ribbons; +1 per ribbon.")),
        E(NP_("yaku sheet", "Aotan"), BLUE, "5+", N_("The three blue ribbons; +1 per ribbon.")),
        E(NP_("yaku sheet", "Akatan-Aotan"), POETRY + BLUE, "10+", N_("All six; +1 per extra ribbon.")),
        E(NP_("yaku sheet", "Tanzaku"), FIVE_RIBBONS, "1+", N_("Any five ribbons; +1 per extra ribbon.")),
        E(NP_("yaku sheet", "Hanami-zake"), ("curtain", "sake_cup"), "5", N_("Cherry curtain and sake cup.")),
        E(NP_("yaku sheet", "Tsukimi-zake"), ("moon", "sake_cup"), "5", N_("Full moon and sake cup.")),
        E(NP_("yaku sheet", "Kasu"), TEN_CHAFF, "1+", N_("Ten chaff (sake cup counts); +1 per extra.")),
        E(NP_("yaku sheet", "Teshi"), _month(1), "6", N_("Dealt all four cards of a month.")),
        E(NP_("yaku sheet", "Kuttsuki"), ("crane", "pine_chaff_1", "cuckoo", "wisteria_chaff_1", "boar",
                       "clover_chaff_1", "deer", "maple_chaff_1"), "6",
          N_("Dealt four pairs of months.")),
    ),
    (N_("x2 when the score is 7 or more."), N_("x2 when the opponent called koi-koi.")),
)


GOSTOP = Sheet(
    N_("Go-Stop scoring (jokbo)"),
    N_("Reach 7 points (2 players) or 3 (3 players), then call go to play on or stop."),
    (
        E(NP_("yaku sheet", "Ogwang"), BRIGHTS, "15", N_("All five brights.")),
        E(NP_("yaku sheet", "Sagwang"), DRY_FOUR, "4", N_("Any four brights.")),
        E(NP_("yaku sheet", "Samgwang"), ("crane", "curtain", "moon"), "3", N_("Three brights without the rain man.")),
        E(NP_("yaku sheet", "Bi-samgwang"), ("rainman", "crane", "moon"), "2", N_("Three brights with the rain man.")),
        E(NP_("yaku sheet", "Godori"), ("bush_warbler", "cuckoo", "geese"), "5", N_("The three birds.")),
        E(NP_("yaku sheet", "Yeol"), FIVE_ANIMALS, "1+", N_("Five animals; +1 per extra animal.")),
        E(NP_("yaku sheet", "Hongdan"), POETRY, "3", N_("The three poetry ribbons.")),
        E(NP_("yaku sheet", "Cheongdan"), BLUE, "3", N_("The three blue ribbons.")),
        E(NP_("yaku sheet", "Chodan"), GRASS, "3", N_("The April, May and July ribbons.")),
        E(NP_("yaku sheet", "Tti"), FIVE_RIBBONS, "1+", N_("Five ribbons (willow counts); +1 per extra.")),
        E(NP_("yaku sheet", "Pi"), ("lightning", "paulownia_chaff_yellow") + TEN_CHAFF[:8], "1+",
          N_("Pi worth 10 (double pi count 2); +1 per extra.")),
    ),
    (N_("Go: +1 each, x2 from the third go. Shake, bomb, 7+ animals: x2."),
     N_("Loser pays x2 for gwang-bak (no bright) and pi-bak (few pi).")),
)


MUSHI = Sheet(
    N_("Mushi yaku"),
    N_("40 cards (no peony, no bush clover). Card points minus 115, plus yaku."),
    (
        E(NP_("yaku sheet", "Goko"), BRIGHTS, "30", N_("All five brights.")),
        E(NP_("yaku sheet", "Sanko"), ("crane", "bush_warbler", "curtain"), "25",
          N_("Crane, bush warbler and cherry curtain.")),
        E(NP_("yaku sheet", "Fujishima"), _month(4), "10", N_("All four wisteria cards.")),
        E(NP_("yaku sheet", "Kirishima"), _month(12), "10", N_("All four paulownia cards.")),
    ),
    (N_("Score: (card points - 115) + own yaku - opponent's yaku."),
     N_("The lightning is wild: it captures any non-willow card.")),
)


SAKURA = Sheet(
    N_("Sakura (Higo-Bana) yaku"),
    N_("Each yaku costs every opponent 50 points; it never adds to its owner."),
    (
        E(NP_("yaku sheet", "Drinking"), ("curtain", "moon", "sake_cup"), "-50", N_("Curtain, moon and sake cup.")),
        E(NP_("yaku sheet", "Sugawara"), ("crane", "bush_warbler", "curtain"), "-50",
          N_("Crane, bush warbler and curtain.")),
        E(NP_("yaku sheet", "Akatan"), POETRY, "-50", N_("The three poetry ribbons.")),
        E(NP_("yaku sheet", "Aotan"), BLUE, "-50", N_("The three blue ribbons.")),
        E(NP_("yaku sheet", "Kusatan"), GRASS, "-50", N_("The April, May and July ribbons.")),
        E(NP_("yaku sheet", "Butterflies, cup, deer"), ("butterflies", "sake_cup", "deer"), "-50",
          N_("Butterflies, sake cup and deer.")),
        E(NP_("yaku sheet", "Cuckoo, bridge, boar"), ("cuckoo", "bridge", "boar"), "-50",
          N_("Cuckoo, eight-plank bridge and boar.")),
        E(NP_("yaku sheet", "Boar, geese, deer"), ("boar", "geese", "deer"), "-50", N_("Boar, geese and deer.")),
    ),
    (N_("Cards: brights 20 (rain man 5), ribbons and yellow paulownia 10, animals 5, chaff 0."),
     N_("The lightning (gaji) captures any field card.")),
)


HANA_AWASE = Sheet(
    N_("Hana-Awase yaku"),
    N_("Play out all cards; card points minus par, plus yaku from each opponent."),
    (
        E(NP_("yaku sheet", "Goko"), BRIGHTS, "100", N_("All five brights.")),
        E(NP_("yaku sheet", "Shiko"), DRY_FOUR, "60", N_("Four brights without the rain man.")),
        E(NP_("yaku sheet", "Omote-sugawara"), ("crane", "bush_warbler", "curtain"), "30",
          N_("Crane, bush warbler, curtain.")),
        E(NP_("yaku sheet", "Matsu-kiri-bozu"), ("crane", "phoenix", "moon"), "20", N_("Crane, phoenix, moon.")),
        E(NP_("yaku sheet", "Nanatan"), POETRY + BLUE + ("plain_ribbon_apr",), "40",
          N_("Seven ribbons (not willow).")),
        E(NP_("yaku sheet", "Rokutan"), POETRY + BLUE, "30", N_("Six ribbons (not willow).")),
        E(NP_("yaku sheet", "Akatan"), POETRY, "40", N_("The three poetry ribbons.")),
        E(NP_("yaku sheet", "Aotan"), BLUE, "40", N_("The three blue ribbons.")),
        E(NP_("yaku sheet", "Kusatan"), GRASS, "20", N_("April, May and July ribbons.")),
        E(NP_("yaku sheet", "Inoshikacho"), BOAR_DEER_BUTTERFLIES, "20", N_("Boar, deer and butterflies.")),
        E(NP_("yaku sheet", "Nomi"), ("sake_cup", "curtain", "moon"), "40", N_("Sake cup, curtain and moon.")),
        E(NP_("yaku sheet", "Hanami"), ("curtain", "sake_cup"), "20", N_("Cherry curtain and sake cup.")),
        E(NP_("yaku sheet", "Tsukimi"), ("moon", "sake_cup"), "20", N_("Full moon and sake cup.")),
        E(NP_("yaku sheet", "Yanagishima"), _month(11), "10", N_("All four willow cards.")),
        E(NP_("yaku sheet", "Fujishima"), _month(4), "10", N_("All four wisteria cards.")),
        E(NP_("yaku sheet", "Kirishima"), _month(12), "10", N_("All four paulownia cards.")),
    ),
    (N_("Bright yaku exclude each other; so do nanatan/rokutan and the viewings."),
     N_("Par: 264 / players (88 with three).")),
)


SHEDDING = Sheet(
    N_("First Bloom"),
    N_("No yaku: be the first to empty your hand. The top discard affects the next player."),
    (
        E(NP_("yaku sheet", "Bright on top"), BRIGHTS, NP_("yaku points", "+1 skip"), N_("Next player draws one card and loses the turn.")),
        E(NP_("yaku sheet", "Poetry ribbon on top"), POETRY, NP_("yaku points", "+1 play"), N_("Next player draws one card, then plays.")),
        E(NP_("yaku sheet", "Blue ribbon on top"), BLUE, NP_("yaku points", "skip"), N_("Next player loses the turn.")),
        E(NP_("yaku sheet", "Payout: bright"), BRIGHTS[:1], "5", N_("Per bright left in a loser's hand.")),
        E(NP_("yaku sheet", "Payout: other card"), ("bush_warbler", "plain_ribbon_apr", "pine_chaff_1"), "1",
          N_("Per other card left in a loser's hand.")),
    ),
    (N_("Match a hand card with a field card of its month to discard both."),),
)


SEOTDA = Sheet(
    N_("Seotda hands, best first"),
    N_("20 cards, months 1-10; two cards make a hand (with three, keep two). The rank is on the right."),
    (
        E(NP_("yaku sheet", "38 Gwang-ttaeng"), ("curtain", "moon"), "1", N_("The March and August brights: beats everything.")),
        E(NP_("yaku sheet", "18 / 13 Gwang-ttaeng"), ("crane", "moon"), "2",
          N_("The January bright with the August or the March bright.")),
        E(NP_("yaku sheet", "Jang-ttaeng"), ("deer", "blue_ribbon_oct"), "3", N_("The pair of 10s, the best ttaeng.")),
        E(NP_("yaku sheet", "Ttaeng 9 to 1"), ("sake_cup", "blue_ribbon_sep"), "4-12",
          N_("Both cards of one month; the higher month wins.")),
        E(NP_("yaku sheet", "Ali"), ("crane", "bush_warbler"), "13", N_("1 and 2.")),
        E(NP_("yaku sheet", "Dok-sa"), ("crane", "cuckoo"), "14", N_("1 and 4.")),
        E(NP_("yaku sheet", "Gu-bbing"), ("crane", "sake_cup"), "15", N_("1 and 9.")),
        E(NP_("yaku sheet", "Jang-bbing"), ("crane", "deer"), "16", N_("1 and 10.")),
        E(NP_("yaku sheet", "Jang-sa"), ("deer", "plain_ribbon_apr"), "17", N_("10 and 4.")),
        E(NP_("yaku sheet", "Se-ryuk"), ("plain_ribbon_apr", "butterflies"), "18", N_("4 and 6.")),
        E(NP_("yaku sheet", "Gabo (9 kkeut)"), ("bridge", "plain_ribbon_apr"), "19",
          N_("The sum ends in 9 (here 5 + 4).")),
        E(NP_("yaku sheet", "8 to 1 kkeut"), ("bush_warbler", "butterflies"), "20-27",
          N_("The last digit of the sum (here 8).")),
        E(NP_("yaku sheet", "Mang-tong"), ("poetry_ribbon_feb", "geese"), "28",
          N_("The sum ends in 0 (here 2 + 8): the lowest hand.")),
        E(NP_("yaku sheet", "Amhaeng-eosa"), ("cuckoo", "boar"), NP_("yaku points", "special"),
          N_("April and July animals: catches 18 and 13 gwang-ttaeng.")),
        E(NP_("yaku sheet", "Ttaeng-jabi"), ("curtain", "plain_ribbon_jul"), NP_("yaku points", "special"),
          N_("A 3 and a 7: catches ttaeng 9 to 1.")),
        E(NP_("yaku sheet", "Gusa"), ("plain_ribbon_apr", "blue_ribbon_sep"), NP_("yaku points", "special"),
          N_("A 4 and a 9: redeal when the best hand is ali or lower.")),
        E(NP_("yaku sheet", "Meongteongguri-gusa"), ("cuckoo", "sake_cup"), NP_("yaku points", "special"),
          N_("April and September animals: redeal up to jang-ttaeng.")),
    ),
    (N_("Otherwise a special hand counts as its kkeut. A redeal keeps the pot."),
     N_("Equal hands share the pot (or are dealt again with the tie option replay)."),),
)


SHEETS: dict[str, Sheet] = {d.slug: globals()[d.sheet] for d in descriptors() if d.sheet}
"""The reference sheet of each game slug: the constant its descriptor names (``GameDescriptor.sheet``)."""
