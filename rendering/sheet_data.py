"""Yaku reference data per game (default rules of RULES.md), for the rules command's image.

Each entry: display name, example card ids, points as shown, a one-line description.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.cards import DECK, Kind


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

SHEETS: dict[str, Sheet] = {
    "koikoi": Sheet(
        "Koi-Koi yaku",
        "Make a yaku, then stop (shobu) to score or call koi-koi to play on.",
        (
            E("Goko", BRIGHTS, "10", "All five brights."),
            E("Shiko", DRY_FOUR, "8", "Four brights without the rain man."),
            E("Ame-shiko", ("rainman", "crane", "curtain", "moon"), "7",
              "The rain man and three other brights."),
            E("Sanko", ("crane", "curtain", "moon"), "5", "Three brights without the rain man."),
            E("Inoshikacho", BOAR_DEER_BUTTERFLIES, "5+", "Boar, deer, butterflies; +1 per animal."),
            E("Tane", FIVE_ANIMALS, "1+", "Any five animals; +1 per extra animal."),
            E("Akatan", POETRY, "5+", "The three poetry ribbons; +1 per ribbon."),
            E("Aotan", BLUE, "5+", "The three blue ribbons; +1 per ribbon."),
            E("Akatan-Aotan", POETRY + BLUE, "10+", "All six; +1 per extra ribbon."),
            E("Tanzaku", FIVE_RIBBONS, "1+", "Any five ribbons; +1 per extra ribbon."),
            E("Hanami-zake", ("curtain", "sake_cup"), "5", "Cherry curtain and sake cup."),
            E("Tsukimi-zake", ("moon", "sake_cup"), "5", "Full moon and sake cup."),
            E("Kasu", TEN_CHAFF, "1+", "Ten chaff (sake cup counts); +1 per extra."),
            E("Teshi", _month(1), "6", "Dealt all four cards of a month."),
            E("Kuttsuki", ("crane", "pine_chaff_1", "cuckoo", "wisteria_chaff_1", "boar",
                           "clover_chaff_1", "deer", "maple_chaff_1"), "6",
              "Dealt four pairs of months."),
        ),
        ("x2 when the score is 7 or more.", "x2 when the opponent called koi-koi."),
    ),
    "gostop": Sheet(
        "Go-Stop scoring (jokbo)",
        "Reach 7 points (2 players) or 3 (3 players), then call go to play on or stop.",
        (
            E("Ogwang", BRIGHTS, "15", "All five brights."),
            E("Sagwang", DRY_FOUR, "4", "Any four brights."),
            E("Samgwang", ("crane", "curtain", "moon"), "3", "Three brights without the rain man."),
            E("Bi-samgwang", ("rainman", "crane", "moon"), "2", "Three brights with the rain man."),
            E("Godori", ("bush_warbler", "cuckoo", "geese"), "5", "The three birds."),
            E("Yeol", FIVE_ANIMALS, "1+", "Five animals; +1 per extra animal."),
            E("Hongdan", POETRY, "3", "The three poetry ribbons."),
            E("Cheongdan", BLUE, "3", "The three blue ribbons."),
            E("Chodan", GRASS, "3", "The April, May and July ribbons."),
            E("Tti", FIVE_RIBBONS, "1+", "Five ribbons (willow counts); +1 per extra."),
            E("Pi", ("lightning", "paulownia_chaff_yellow") + TEN_CHAFF[:8], "1+",
              "Pi worth 10 (double pi count 2); +1 per extra."),
        ),
        ("Go: +1 each, x2 from the third go. Shake, bomb, 7+ animals: x2.",
         "Loser pays x2 for gwang-bak (no bright) and pi-bak (few pi)."),
    ),
    "mushi": Sheet(
        "Mushi yaku",
        "40 cards (no peony, no bush clover). Card points minus 115, plus yaku.",
        (
            E("Goko", BRIGHTS, "30", "All five brights."),
            E("Sanko", ("crane", "bush_warbler", "curtain"), "25",
              "Crane, bush warbler and cherry curtain."),
            E("Fujishima", _month(4), "10", "All four wisteria cards."),
            E("Kirishima", _month(12), "10", "All four paulownia cards."),
        ),
        ("Score: (card points - 115) + own yaku - opponent's yaku.",
         "The lightning is wild: it captures any non-willow card."),
    ),
    "sakura": Sheet(
        "Sakura (Higo-Bana) yaku",
        "Each yaku costs every opponent 50 points; it never adds to its owner.",
        (
            E("Drinking", ("curtain", "moon", "sake_cup"), "-50", "Curtain, moon and sake cup."),
            E("Sugawara", ("crane", "bush_warbler", "curtain"), "-50",
              "Crane, bush warbler and curtain."),
            E("Akatan", POETRY, "-50", "The three poetry ribbons."),
            E("Aotan", BLUE, "-50", "The three blue ribbons."),
            E("Kusatan", GRASS, "-50", "The April, May and July ribbons."),
            E("Butterflies, cup, deer", ("butterflies", "sake_cup", "deer"), "-50",
              "Butterflies, sake cup and deer."),
            E("Cuckoo, bridge, boar", ("cuckoo", "bridge", "boar"), "-50",
              "Cuckoo, eight-plank bridge and boar."),
            E("Boar, geese, deer", ("boar", "geese", "deer"), "-50", "Boar, geese and deer."),
        ),
        ("Cards: brights 20 (rain man 5), ribbons and yellow paulownia 10, animals 5, chaff 0.",
         "The lightning (gaji) captures any field card."),
    ),
    "hana_awase": Sheet(
        "Hana-Awase yaku",
        "Play out all cards; card points minus par, plus yaku from each opponent.",
        (
            E("Goko", BRIGHTS, "100", "All five brights."),
            E("Shiko", DRY_FOUR, "60", "Four brights without the rain man."),
            E("Omote-sugawara", ("crane", "bush_warbler", "curtain"), "30",
              "Crane, bush warbler, curtain."),
            E("Matsu-kiri-bozu", ("crane", "phoenix", "moon"), "20", "Crane, phoenix, moon."),
            E("Nanatan", POETRY + BLUE + ("plain_ribbon_apr",), "40",
              "Seven ribbons (not willow)."),
            E("Rokutan", POETRY + BLUE, "30", "Six ribbons (not willow)."),
            E("Akatan", POETRY, "40", "The three poetry ribbons."),
            E("Aotan", BLUE, "40", "The three blue ribbons."),
            E("Kusatan", GRASS, "20", "April, May and July ribbons."),
            E("Inoshikacho", BOAR_DEER_BUTTERFLIES, "20", "Boar, deer and butterflies."),
            E("Nomi", ("sake_cup", "curtain", "moon"), "40", "Sake cup, curtain and moon."),
            E("Hanami", ("curtain", "sake_cup"), "20", "Cherry curtain and sake cup."),
            E("Tsukimi", ("moon", "sake_cup"), "20", "Full moon and sake cup."),
            E("Yanagishima", _month(11), "10", "All four willow cards."),
            E("Fujishima", _month(4), "10", "All four wisteria cards."),
            E("Kirishima", _month(12), "10", "All four paulownia cards."),
        ),
        ("Bright yaku exclude each other; so do nanatan/rokutan and the viewings.",
         "Par: 264 / players (88 with three)."),
    ),
    "shedding": Sheet(
        "First Bloom",
        "No yaku: be the first to empty your hand. The top discard affects the next player.",
        (
            E("Bright on top", BRIGHTS, "+1 skip", "Next player draws one card and loses the turn."),
            E("Poetry ribbon on top", POETRY, "+1 play", "Next player draws one card, then plays."),
            E("Blue ribbon on top", BLUE, "skip", "Next player loses the turn."),
            E("Payout: bright", BRIGHTS[:1], "5", "Per bright left in a loser's hand."),
            E("Payout: other card", ("bush_warbler", "plain_ribbon_apr", "pine_chaff_1"), "1",
              "Per other card left in a loser's hand."),
        ),
        ("Match a hand card with a field card of its month to discard both.",),
    ),
}
"""The reference sheet of each game slug."""
