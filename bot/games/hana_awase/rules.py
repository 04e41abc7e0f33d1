"""Hana-Awase rules: every option of docs/rules/hana-awase.md §8 with its source, and the named
presets.

Sources (docs/rules/hana-awase.md, "Sources"): seed 004 (the Angel Playing Cards / Disney
Hanafuda leaflet, the default) and FW-HA (Fuda Wiki, Hana-Awase, with its "Variations"). Seed
000's general rules are cited for stacking every yaku.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import InvalidRules
from ..mushi.rules import MatchRules

POINT_TABLES: dict[str, dict[str, int]] = {
    # Seed 004 "Captured Hands": nine bonus hands, values as printed.
    "leaflet": {
        "goko": 75, "shiko": 50, "matsu_kiri_bozu": 35, "nanatan": 50, "akatan": 35, "aotan": 35,
        "inoshikacho": 35, "hanami": 30, "tsukimi": 20,
    },
    # FW-HA "Yaku": sixteen yaku.
    "fudawiki": {
        "goko": 100, "shiko": 60, "omote_sugawara": 30, "matsu_kiri_bozu": 20, "nanatan": 40,
        "rokutan": 30, "akatan": 40, "aotan": 40, "kusatan": 20, "inoshikacho": 20, "nomi": 40,
        "hanami": 20, "tsukimi": 20, "yanagishima": 10, "fujishima": 10, "kirishima": 10,
    },
}
YAKU_SLUGS = tuple(POINT_TABLES["fudawiki"])
TEYAKU_POINTS = {6: 20, 7: 30}  # chaff in the dealt hand -> paid by each other player (FW-HA)

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "point_table": (("leaflet", "fudawiki"), "seed 004 'Captured Hands'; FW-HA 'Yaku'",
                    N_("which yaku exist and their values: the leaflet's nine bonus hands or Fuda "
                    "Wiki's sixteen yaku")),
    "scoring": (("additive", "zero_sum"), "seed 004 and FW-HA 'alternatively'; FW-HA",
                N_("additive: card points + own yaku, highest wins; zero_sum: (card points - par) "
                "+ own yaku x (players - 1) - all opponents' yaku, par = deck value / players")),
    "exclusive_yaku": ((True, False), "FW-HA 'Yaku'; seed 000 'Hands'",
                       N_("only the best bright yaku, the better of nanatan/rokutan and the best "
                       "viewing yaku count; false: every yaku held adds")),
    "chaff_value": ((1, 0), "FW-HA 'Variant Scoring'",
                    N_("points of a chaff card; 0 makes the deck 240 and the par 120/80/60")),
    "fuke": ((False, True), "FW-HA 'Dandruff'",
             N_("a player with 20 card points or fewer voids the round: nobody scores")),
    "compensation": ((False, True), "FW-HA 'Compensation' (three players only)",
                     N_("dealer or second player with 8 captured cards or fewer, or third player with "
                     "10 or fewer, receives 30 from each other player")),
    "willow_row": (("normal", "cancels_all", "owner_only"), "FW-HA 'Extra Yaku Interactions'",
                   N_("a player holding yanagishima cancels every yaku of the round, or only the "
                   "yaku of the other players")),
    "rain_voids_viewings": ((False, True), "FW-HA 'Extra Yaku Interactions'",
                            N_("a pile holding the rain man scores no viewing yaku")),
    "two_player_hand": ((8, 10), "FW-HA 'Distributing'; FW-HA '10-Card Hand'",
                        N_("cards per hand with two players (8 to the field either way)")),
    "play_out_stock": ((True, False), "seed 004 rule 5, FW-HA; FW-HA 'End of Round'",
                       N_("two players turn the stock cards left after the hands are empty; false: "
                       "the round ends with the hands (additive scoring only)")),
    "teyaku": ((False, True), "FW-HA 'Teyaku' (Graham Leonard's pages)",
               N_("6 chaff in a dealt hand are paid 20, 7 or more 30, by each other player; the "
               "chaff are shown face up and the others may capture them from the hand")),
    "hand_four_misdeal": ((False, True), "FW-HA 'Misdeals'",
                          N_("four of a month in a dealt hand is a misdeal as on the field")),
    "wild_lightning": ((False, True),
                       "FW-HA variants (docs/rules/hana-awase.md §10), rules of FW-MU",
                       N_("Mushi's wild lightning with the end-of-round handover")),
}


@dataclass(frozen=True, slots=True)
class Rules(MatchRules):
    """Every Hana-Awase option. Defaults are the leaflet preset (seed 004). See :data:`OPTIONS`."""

    preset_name: str = "leaflet"
    point_table: str = "leaflet"
    scoring: str = "additive"
    exclusive_yaku: bool = True
    chaff_value: int = 1
    fuke: bool = False
    compensation: bool = False
    willow_row: str = "normal"
    rain_voids_viewings: bool = False
    two_player_hand: int = 8
    play_out_stock: bool = True
    teyaku: bool = False
    hand_four_misdeal: bool = False
    wild_lightning: bool = False
    rounds: int = 12
    target_score: int = 0

    OPTIONS: ClassVar[dict[str, tuple[tuple, str, str]]] = OPTIONS
    CHOICES: ClassVar[dict[str, tuple]] = {name: spec[0] for name, spec in OPTIONS.items()}
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # Seed 004: its nine bonus hands and values, plain totals, highest wins. The leaflet is
        # silent on stacking; Fuda Wiki's exclusivity applies. 12 rounds as FW-HA's tradition.
        "leaflet": {},
        # FW-HA: sixteen yaku, zero-sum against the par.
        "fudawiki": {"point_table": "fudawiki", "scoring": "zero_sum"},
    }

    def validate(self) -> None:
        MatchRules.validate(self)
        if self.scoring == "zero_sum" and not self.play_out_stock:
            raise InvalidRules(code="zero_sum_play_out")

    def points(self, slug: str) -> int:
        """Points of a yaku under these rules; 0 when the point table lacks it."""
        return POINT_TABLES[self.point_table].get(slug, 0)

    def deck_value(self) -> int:
        """5 brights, 9 animals, 10 ribbons and 24 chaff."""
        return 5 * 20 + 9 * 10 + 10 * 5 + 24 * self.chaff_value
