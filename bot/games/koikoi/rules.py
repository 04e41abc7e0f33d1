"""Koi-Koi rules: every option of docs/rules/koikoi.md §6 with its source, and the named presets.

Sources (see docs/rules/README.md §2): NIN-JP / NIN-EN (Nintendo's Japanese page and English
leaflet), FW-KK (Fuda Wiki, Koi-Koi), sidsryu (an open engine's options), SLOPE, BGA, and the
seeds: seed 000 (Kelsey Cretcher's rule book), seed 001 (Wikipedia 2007, Nintendo-based) and
seed 003 (heyrick's Nintendo-leaflet walk-through); KKJ: the rules of the PC game KoiKoi-Japan, as
players of it describe them and as recorded rounds played under them score (no published rule
page is among our sources). docs/rules/koikoi-japan.md gives the preset, each choice and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import InvalidRules, RulesBase

POINT_TABLES: dict[str, dict[str, int]] = {
    # NIN-JP; seeds 000, 001 and 003 print the same bright values.
    "nintendo": {"goko": 10, "shiko": 8, "ameshiko": 7, "sanko": 5},
    # FW-KK "most common" modern values.
    "modern": {"goko": 15, "shiko": 8, "ameshiko": 7, "sanko": 6},
}
BASE_POINTS: dict[str, int] = {
    "inoshikacho": 5, "tane": 1, "akatan": 5, "aotan": 5, "akatan_aotan": 10,
    "tanzaku": 1, "kasu": 1,
}
YAKU_SLUGS = (
    "goko", "shiko", "ameshiko", "sanko", "inoshikacho", "tane", "akatan", "aotan",
    "akatan_aotan", "tanzaku", "hanami_zake", "tsukimi_zake", "kasu", "tsukifuda",
)

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "point_table": (("nintendo", "modern"), "NIN-JP; FW-KK",
                    N_("bright values: nintendo goko 10 / shiko 8 / ame-shiko 7 / sanko 5; modern 15/8/7/6")),
    "extras_mode": (("absorb", "stack"), "NIN-JP, FW-KK; FW-KK 'Older Yaku', sidsryu, seed 003, KKJ",
                    N_("absorb: +1 per extra card, inoshikacho/akatan/aotan absorb tane/tanzaku; "
                    "stack: flat 5s that add to tane and tanzaku")),
    "bright_scoring": (("best", "cumulative"), "seed 003 'complex scoring'",
                       N_("best: only the best bright yaku; cumulative: sanko + shiko + goko add up")),
    "ameshiko_enabled": ((True, False), "sidsryu",
                         N_("false: the rain man is ignored, three dry brights make sanko")),
    "viewings": (("always", "limited", "never", "rain_voids", "willow_voids", "weather_on_field"),
                 "FW-KK, sidsryu, fuda-cafe",
                 N_("limited: only with another yaku; rain_voids: void if the pile holds the rain man "
                 "or lightning; willow_voids: void if it holds any willow; weather_on_field: a willow "
                 "on the field voids hanami, a paulownia voids tsukimi")),
    "viewing_points": ((5, 3, 1), "NIN-JP; fuda-cafe; KKJ", N_("points of hanami-zake and tsukimi-zake")),
    "viewing_points_after_koikoi": ((0, 3), "KKJ",
                                    N_("0: as viewing_points; 3: each viewing is worth 3 once its "
                                    "holder has called koi-koi")),
    "sake_cup_as_chaff": (("both", "animal_only", "either"), "NIN-JP, FW-KK; engines",
                          N_("both: animal and chaff at once; either: whichever scores more")),
    "double_chaff_cards": ((False, True), "FW-KK",
                           N_("sake cup, lightning and yellow paulownia count 2 toward kasu")),
    "lightning_wild": (("off", "on", "susuki_on_field"), "FW-KK",
                       N_("the lightning played from hand captures any one field card; "
                       "susuki_on_field: only if a pampas card was dealt to the field")),
    "tsukifuda": (("off", "round_month", "any_month"), "FW-KK, sidsryu; seed 003",
                  N_("round_month: the four cards of the round's month; any_month: any full month")),
    "tsukifuda_points": ((4, 5), "FW-KK; seed 003", N_("points of tsukifuda")),
    "seven_plus_doubles": ((True, False), "FW-KK, NIN-EN", N_("double a base of 7 or more")),
    "koikoi_multiplier": (("opponent", "own", "any", "calls_plus_one", "opponent_calls_plus_one",
                           "own_calls_bonus", "none"),
                          "FW-KK, NIN-EN; seeds 001/003 (calls_plus_one); KKJ (own_calls_bonus)",
                          N_("opponent: x2 if the opponent called koi-koi; calls_plus_one: x(1 + all "
                          "calls); own_calls_bonus: +1 point per own call up to 3 calls, from the "
                          "4th call x(calls - 2) instead")),
    "koikoi_limit": (("unlimited", "once", "once_total", "min3"), "FW-KK; NIN-EN",
                     N_("once: a player may call koi-koi once per round; once_total: one call per "
                     "round between both players, then the next yaku ends it; min3: only with 3+ points")),
    "improvement": (("improved", "new_only"), "FW-KK",
                    N_("when the koi-koi choice is offered: any score increase, or only a new yaku")),
    "draw_result": (("nothing", "oya_ken", "dealer_passes", "last_improver"), "FW-KK; NIN-EN",
                    N_("exhaustive draw: nobody scores (same dealer), the dealer scores oya_ken_points, "
                    "the other player deals, or the last player to form/improve a yaku scores")),
    "oya_ken_points": ((6, 1), "FW-KK", N_("points of oya-ken")),
    "teyaku": (("win", "misdeal", "teshi_misdeal", "off"), "FW-KK, NIN-EN; seeds 000, 001, 003; KKJ",
               N_("teshi/kuttsuki in a dealt hand win the round, cause a redeal, or are ignored; "
               "teshi_misdeal: only four of a month in a hand is redealt")),
    "teyaku_points": ((6, 5), "FW-KK, NIN-EN, seeds 000/001; seed 003", N_("points of teshi/kuttsuki")),
    "teyaku_both": (("single", "double"), "FW-KK", N_("a hand holding teshi and kuttsuki scores 1x or 2x")),
    "field_misdeal": (("four", "four_or_pairs", "three", "dealer_wins"), "FW-KK; seed 003; house rule",
                      N_("four of a month on the field: redeal; also four pairs: redeal; three: "
                      "three or four of a month: redeal; dealer_wins: four of a month on the "
                      "field gives the dealer teyaku_points")),
    "hand_size": ((8, 10), "FW-KK", N_("cards dealt to each hand (8 to the field)")),
    "deal_packet": ((2, 4), "NIN-EN; FW-KK, seed 003", N_("cards per packet when dealing")),
    "field_bright_multiplier": (("off", "double", "n_plus_one", "n"), "FW-KK, SLOPE, seed 003; BGA",
                                N_("brights dealt to the field multiply the round: x2, x(n+1) or xn")),
    "hand_swap_offer": ((False, True), "seed 003",
                        N_("after the deal the non-dealer may take the dealer's hand")),
    "zero_sum": ((False, True), "seed 000; BGA",
                 N_("the winner's points are taken from the loser")),
    "akatan_aotan": (("replaces", "adds"), "NIN-JP; KKJ",
                     N_("replaces: both ribbon sets score 10 together; adds: 5 + 5 and a further 10")),
    "bankroll": ((0, 30, 50), "KKJ (30); BGA (50)",
                 N_("with zero_sum, the points each player starts with: the match ends when a "
                 "player has lost them all (0: no such end)")),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every Koi-Koi option. Defaults are the Nintendo preset. See :data:`OPTIONS`."""

    preset_name: str = "nintendo"
    point_table: str = "nintendo"
    custom_points: tuple[tuple[str, int], ...] = ()
    extras_mode: str = "absorb"
    bright_scoring: str = "best"
    ameshiko_enabled: bool = True
    viewings: str = "always"
    viewing_points: int = 5
    viewing_points_after_koikoi: int = 0
    sake_cup_as_chaff: str = "both"
    double_chaff_cards: bool = False
    lightning_wild: str = "off"
    tsukifuda: str = "off"
    tsukifuda_points: int = 4
    seven_plus_doubles: bool = True
    koikoi_multiplier: str = "opponent"
    koikoi_limit: str = "unlimited"
    improvement: str = "improved"
    draw_result: str = "nothing"
    oya_ken_points: int = 6
    teyaku: str = "win"
    teyaku_points: int = 6
    teyaku_both: str = "single"
    field_misdeal: str = "four"
    hand_size: int = 8
    deal_packet: int = 2
    field_bright_multiplier: str = "off"
    hand_swap_offer: bool = False
    zero_sum: bool = False
    akatan_aotan: str = "replaces"
    bankroll: int = 0
    rounds: int = 12
    target_score: int = 0

    CHOICES: ClassVar[dict[str, tuple]] = {name: spec[0] for name, spec in OPTIONS.items()}
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # NIN-JP point table, FW-KK standard play: the default.
        "nintendo": {},
        # Fuda Wiki's "most common" modern values, tsukifuda in 12-round games, pairs misdeal.
        "modern": {"point_table": "modern", "tsukifuda": "round_month", "field_misdeal": "four_or_pairs"},
        # Seeds 000 and 003 where they differ from the standard: "complex" stacking scoring,
        # the bright-on-field multiplier, the hand swap offer, tsukifuda on any month for 5,
        # teyaku 5, koi-koi calls raising the multiplier by one each (seeds 001 and 003), no 7+
        # doubling, zero-sum scores (seed 000) and play to 50 points (seed 003).
        "seed": {
            "extras_mode": "stack", "bright_scoring": "cumulative",
            "field_bright_multiplier": "n_plus_one", "hand_swap_offer": True,
            "tsukifuda": "any_month", "tsukifuda_points": 5, "teyaku_points": 5,
            "koikoi_multiplier": "calls_plus_one", "seven_plus_doubles": False,
            "field_misdeal": "four_or_pairs", "deal_packet": 4, "zero_sum": True,
            "rounds": 0, "target_score": 50,
        },
        # KKJ (docs/rules/koikoi-japan.md): inoshikacho, akatan and aotan a flat 5 with tane and
        # tanzaku scored beside them, own koi-koi calls add points (then multiply), viewings 1
        # or 3 after a call, both ribbon sets a further 10, no 7+ doubling, the dealer scores 1
        # when the cards run out, a hand or field holding four of a month is redealt, 8 rounds
        # from 30 points each.
        "koikoi_japan": {
            "extras_mode": "stack", "koikoi_multiplier": "own_calls_bonus", "viewing_points": 1,
            "viewing_points_after_koikoi": 3, "akatan_aotan": "adds", "seven_plus_doubles": False,
            "draw_result": "oya_ken", "oya_ken_points": 1, "teyaku": "teshi_misdeal",
            "zero_sum": True, "bankroll": 30, "rounds": 8,
        },
    }

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        for slug, pts in self.custom_points:
            if slug not in YAKU_SLUGS:
                raise InvalidRules(code="unknown_yaku", slug=slug)
            if not isinstance(pts, int) or isinstance(pts, bool) or not 0 <= pts <= 100:
                raise InvalidRules(code="whole_number", name=f"custom_points: {slug}", low=0, high=100,
                                   value=pts)
        self._check_match_length()
        if self.bankroll and not self.zero_sum:
            raise InvalidRules(code="bankroll_zero_sum")

    def points(self, slug: str) -> int:
        """Base points of a yaku under these rules (before the +1 per extra card)."""
        for name, pts in self.custom_points:
            if name == slug:
                return pts
        if slug in ("hanami_zake", "tsukimi_zake"):
            return self.viewing_points
        if slug == "tsukifuda":
            return self.tsukifuda_points
        table = POINT_TABLES[self.point_table]
        return table[slug] if slug in table else BASE_POINTS[slug]

    @staticmethod
    def describe(name: str) -> str:
        allowed, source, meaning = OPTIONS[name]
        return f"{name} ({' / '.join(map(str, allowed))}; {source}): {meaning}"
