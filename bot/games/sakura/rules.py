"""Higo-Bana / Sakura rules: every option of docs/rules/sakura.md §9 with its source, and the named
presets.

Sources (see docs/rules/sakura.md, "Sources"): FW-SK (Fuda Wiki, Sakura: the Hanafuda Hawaii
Style rules, with the Paradise Factors leaflet as its "Victory Scoring" variant), WP-SK and BGA
(deal table, scoring), and seed 000 (Kelsey Cretcher's rule book, section "Higo-Bana (Sakura)").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import InvalidRules, RulesBase

DEAL: dict[int, tuple[int, int]] = {2: (8, 8), 3: (7, 6), 4: (5, 8), 5: (4, 8), 6: (3, 12), 7: (3, 6)}
"""Players -> (cards to each hand, cards to the field); FW-SK, WP-SK and seed 000 agree."""

YAKU_VALUE = 50
"""What one yaku costs each opponent (FW-SK, BGA); seed 000 prints "spts", read as 50."""

TEAM_SIZES = {"off": 1, "pairs": 2, "triples": 3}

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "card_values": (("hawaiian", "seed"), "FW-SK; seed 000 'Special Rules'",
                    N_("hawaiian: brights 20, ribbons and the yellow paulownia 10, animals and the "
                    "rain man 5, other chaff 0 (deck 240); seed: brights 20, ribbons 10, animals "
                    "and the rain man 5, every chaff 1 (deck 254)")),
    "own_yaku_scores": ((False, True), "FW-SK, BGA; seed 000 'Scoring'",
                        N_("false: a yaku only costs every opponent 50; true: it also adds 50 to "
                        "its owner")),
    "teams": (("off", "pairs", "triples"), "FW-SK 'Setup', seed 000 'Set-Up'",
              N_("pairs (4 or 6 players): partners sit opposite (seats i and i+n/2) and share one "
              "capture pile; triples (6 players, FW-SK): two teams seated alternately")),
    "gaji": (("wild", "off"), "FW-SK 'Gaji'; seed 000 (no wild card)",
             N_("wild: the lightning played from hand captures any one field card, even a willow; "
             "lying on the field only a willow takes it. off: an ordinary willow chaff")),
    "gaji_leftovers": (("victim_month", "all"), "FW-SK; docs/rules/sakura.md §11 (a variant)",
                       N_("at round end the field cards of the gaji victim's month go to the gaji "
                       "user and the rest are dead; all: every leftover goes to the gaji user")),
    "gaji_dealt_to_field": (("stays", "discarded"), "FW-SK; FW-SK 'some variants'",
                            N_("a lightning dealt face up stays in play, or is discarded (dead)")),
    "hiki": ((True, False), "FW-SK 'Hiki'; seed 000 (no hiki)",
             N_("with all four cards of a month in hand and field, take them instead of playing")),
    "hiki_guards_gaji": ((True, False), "FW-SK 'Gaji'",
                         N_("a gaji aimed at a card of another player's hiki makes that player take "
                         "the four at once; the gaji then takes another card or stays on the field")),
    "stacked_pair": ((False, True), "seed 000 'Play' step 2",
                     N_("the stock card matching the pair just captured from hand puts the three "
                     "back on the field, stacked for whoever plays the fourth")),
    "two_player_dead_stock": ((False, True), "docs/rules/sakura.md §6; FW-SK (two-player note)",
                              N_("with two players the round ends when both hands are empty and "
                              "the rest of the stock is dead (default: play the stock out)")),
    "victory": (("points", "victories", "chu", "basa", "chu_basa"),
                "FW-SK (Hanafuda Hawaii Style); FW-SK 'Victory Scoring' (Paradise Factors); "
                "seed 000 (basa)",
                N_("points: round scores add up; victories: the round winner scores 1; chu: 2 if "
                "50+ ahead of every opponent; basa: 2 if 100+ ahead; chu_basa: 2 at 50+, 3 at 100+")),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every Sakura option. Defaults are the Hawaiian (Fuda Wiki) preset. See :data:`OPTIONS`."""

    preset_name: str = "hawaiian"
    card_values: str = "hawaiian"
    own_yaku_scores: bool = False
    teams: str = "off"
    gaji: str = "wild"
    gaji_leftovers: str = "victim_month"
    gaji_dealt_to_field: str = "stays"
    hiki: bool = True
    hiki_guards_gaji: bool = True
    stacked_pair: bool = False
    two_player_dead_stock: bool = False
    victory: str = "points"
    rounds: int = 12
    target_score: int = 0

    CHOICES: ClassVar[dict[str, tuple]] = {name: spec[0] for name, spec in OPTIONS.items()}
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # Fuda Wiki's Sakura page (Hanafuda Hawaii Style): the default.
        "hawaiian": {},
        # Seed 000's "Higo-Bana (Sakura)" section, read closely: chaff 1 and ribbons 10 (so the
        # yellow paulownia is a 1-point dreg), own hands add to the score, the stock card
        # matching the pair just made leaves the three stacked, the winner scores 1 point or 2
        # when 100 ahead; it names neither a wild lightning nor hiki, so both are off.
        "seed": {
            "card_values": "seed", "own_yaku_scores": True, "gaji": "off", "hiki": False,
            "stacked_pair": True, "victory": "basa",
        },
    }

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        self._check_match_length()

    def check_players(self, num_players: int) -> None:
        """Raise unless these rules can be played by ``num_players``."""
        if num_players not in DEAL:
            raise InvalidRules(code="sakura_players", players=num_players)
        size = TEAM_SIZES[self.teams]
        allowed = {"off": (2, 3, 4, 5, 6, 7), "pairs": (4, 6), "triples": (6,)}[self.teams]
        if num_players not in allowed:
            raise InvalidRules(code="team_players", size=size, counts=allowed, players=num_players)

    def sides(self, num_players: int) -> list[list[int]]:
        """The seats of each side (a team, or a single player), in turn order of their first seat.

        Teammates sit evenly spaced: side of seat ``i`` is ``i % (num_players // team size)``,
        so pairs sit opposite and triples alternate (FW-SK).
        """
        count = num_players // TEAM_SIZES[self.teams]
        return [list(range(s, num_players, count)) for s in range(count)]

    @staticmethod
    def describe(name: str) -> str:
        allowed, source, meaning = OPTIONS[name]
        return f"{name} ({' / '.join(map(str, allowed))}; {source}): {meaning}"
