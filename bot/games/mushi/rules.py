"""Mushi rules: every option of docs/rules/mushi.md §8 with its source, and the named presets.

Sources (docs/rules/mushi.md, "Sources"): FW-MU (Fuda Wiki, Mushi, with its house-rule notes
and the 3-yaku variant) and seed 000 (Kelsey Cretcher's rule book, "Mushi" section). Where the
seed differs from Fuda Wiki the seed's reading is an option, gathered in the ``seed`` preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import RulesBase

YAKU_POINTS: dict[str, int] = {"goko": 30, "sanko_mushi": 25, "fujishima": 10, "kirishima": 10}
YAKU_SLUGS = tuple(YAKU_POINTS)

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "yaku_set": (("four", "three"), "FW-MU 'Yaku'",
                 N_("four: goko 30, sanko_mushi 25, fujishima 10, kirishima 10; "
                 "three: the variant without five brights")),
    "field_misdeal": (("four", "four_or_pairs"), "FW-MU 'Distributing the Initial Cards'",
                      N_("four of a month on the field: redeal; four_or_pairs: also four pairs "
                      "(a house rule). Three plain willows on the field always redeal")),
    "last_lightning_sweeps": ((True, False), "FW-MU 'Wild Card'; seed 000 has no such rule",
                              N_("the lightning turned as the last stock card captures every card "
                              "left on the field; false: it takes one card like any drawn lightning")),
    "mate_to_lightning_user": ((True, False), "FW-MU 'End of Round'; seed 000 names only the willow",
                               N_("the leftover card of the lightning victim's month goes to the "
                               "lightning's user; false: it stays on the field, scored by nobody")),
    "par": ((115, 15), "FW-MU 'Scoring'; seed 000 'Scoring' ('subtract 15pts')",
            N_("subtracted from each player's card points; 115 is half the deck and keeps the game "
            "zero-sum, the seed prints 15")),
}


class MatchRules(RulesBase):
    """What the play-out games' rules share: a known preset, a match length, described options."""

    OPTIONS: ClassVar[dict[str, tuple[tuple, str, str]]] = {}

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        self._check_match_length()

    @classmethod
    def describe(cls, name: str) -> str:
        allowed, source, meaning = cls.OPTIONS[name]
        return f"{name} ({' / '.join(map(str, allowed))}; {source}): {meaning}"


@dataclass(frozen=True, slots=True)
class Rules(MatchRules):
    """Every Mushi option. Defaults are the Fuda Wiki preset. See :data:`OPTIONS`."""

    preset_name: str = "fudawiki"
    yaku_set: str = "four"
    field_misdeal: str = "four"
    last_lightning_sweeps: bool = True
    mate_to_lightning_user: bool = True
    par: int = 115
    rounds: int = 12
    target_score: int = 0

    OPTIONS: ClassVar[dict[str, tuple[tuple, str, str]]] = OPTIONS
    CHOICES: ClassVar[dict[str, tuple]] = {name: spec[0] for name, spec in OPTIONS.items()}
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # FW-MU: four yaku, the last-card sweep, both leftovers handed over, par 115, 12 rounds.
        "fudawiki": {},
        # Seed 000 where it differs: it subtracts 15 (not 115), has no last-card sweep and hands
        # over only the third willow, so the victim's mate stays unclaimed.
        "seed": {"par": 15, "last_lightning_sweeps": False, "mate_to_lightning_user": False},
    }


    def points(self, slug: str) -> int:
        """Points of a yaku under these rules; 0 when the yaku is not played."""
        if slug == "goko" and self.yaku_set == "three":
            return 0
        return YAKU_POINTS[slug]
