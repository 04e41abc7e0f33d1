"""Go-Stop rules: every option of docs/rules/gostop.md §5 with its source, and the named presets.

Sources (see docs/rules/README.md §2): FW-GS (Fuda Wiki, Go-Stop), PAGAT-GS (via FW-GS), WP-GS,
KO-WP, SLOPE, the engines read for the rules (docs/rules/README.md §2.2: taeto90, bipark, tscz,
yubyunghun, konlo), and seed 000 (Kelsey Cretcher's rule book, whose Go-Stop section the ``seed``
preset follows where it differs).

Two presets:

* ``korean`` (the default): the common Korean rules of docs/rules/gostop.md (FW-GS, KO-WP, the
  engines).
* ``seed``: seed 000 where it differs: 'President' (chongtong) wins 5 points, at once; a stop
  minimum of 3 for two players too; its doubling list (go from the third go, x2 then x2 per go with
  no +1 per go; shake/bomb; the previous nagari; pi-bak under 5 dregs; gwang-bak; 7+ animals) and
  nothing else (no go-bak); its dregs handover (a pi from each opponent for an emptied field or a
  month captured whole in one turn, and for a jjok, even on the final turn); a bomb turning two
  stock cards and only from an unrevealed triplet, shaking in the opening turn only; its table of
  hands (no cho-dan, boar-deer-butterflies 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import InvalidRules, RulesBase

YAKU_SLUGS = (
    "ogwang", "sagwang", "samgwang", "bi_samgwang", "godori", "yeol", "hongdan", "cheongdan",
    "chodan", "tti", "pi", "inoshikacho",
)
"""Yaku slugs (docs/rules/gostop.md §3; ``inoshikacho`` only with the seed's
boar-deer-butterflies hand)."""

BRIGHT_SLUGS = frozenset({"ogwang", "sagwang", "samgwang", "bi_samgwang"})

# name -> (allowed values or None for a bounded whole number, source, one-line meaning).
# The single place every option is documented; whole-number options list their bounds in INTS.
OPTIONS: dict[str, tuple[tuple | None, str, str]] = {
    # -- the deal ---------------------------------------------------------------------------
    "deal_2p": (("10+8", "8+10", "10+6"), "FW-GS, WP-GS, seed 000; SLOPE; yubyunghun",
                N_("two players: cards to each hand + cards to the field")),
    "deal_3p": (("7+6", "7+8"), "FW-GS, WP-GS, seed 000; PAGAT-GS as quoted by yubyunghun",
                N_("three players: cards to each hand + cards to the field (7+8 leaves a stock of 19, "
                "so the last two turns turn no stock card)")),
    "first_dealer": (("night", "day"), "FW-GS (bam-il nat-jang)",
                     N_("first dealer by a card draw: night = earliest Korean month deals (on the same "
                     "month the lower card), day = latest month (on the same month the higher card)")),
    "jokers": ((0, 1, 2, 3), "FW-GS 'Jokers'; taeto90",
               N_("bonus cards added to the deck: joker_1 and joker_2 are worth 2 pi, joker_3 3 pi. A "
               "joker in hand may be captured at once for a replacement from the stock; turned from "
               "the stock it is captured and the next card turned; dealt to the field it goes to "
               "the dealer and is replaced")),
    "joker_power": (("none", "steal", "double", "immunity"), "FW-GS 'Jokers'",
                    N_("what a joker does besides its pi: none; steal = capturing one takes a pi from "
                    "each opponent; double = a winner holding jokers doubles per joker; immunity = "
                    "a loser holding a joker pays no gwang-bak, pi-bak, meong-bak or go-bak")),
    "field_four": (("redeal", "dealer_wins", "nagari"), "FW-GS",
                   N_("four of a month dealt to the field: redeal, count as the dealer's chongtong, or "
                   "end the round as a nagari")),
    # -- chongtong ----------------------------------------------------------------------------
    "chongtong": (("optional", "forced", "off"), "FW-GS; konlo, seed 000",
                  N_("four of a month dealt to a hand: the holder may reveal it and win at once, must "
                  "do so, or it is an ordinary hand. A four kept (passed, or off) may be shaken "
                  "like a triplet for x2 (FW-GS's 'double score' reading of chongtong)")),
    "chongtong_points": (None, "FW-GS (stop minimum); taeto90 7; konlo 10/20; seed 000 5",
                         N_("points each opponent pays for chongtong (0 = the stop minimum)")),
    "chongtong_ties": (("dealer_order", "higher_month", "nagari"), "FW-GS",
                       N_("several players reveal chongtong: the first in turn order from the dealer "
                       "wins, the higher Korean month wins, or the round is a nagari (all players "
                       "holding one is always a nagari)")),
    # -- yaku -------------------------------------------------------------------------------
    "stop_minimum_2p": (None, "FW-GS, WP-GS, taeto90; seed 000 (3)",
                        N_("points needed to call go or stop with two players")),
    "stop_minimum_3p": (None, "FW-GS, WP-GS, seed 000", N_("points needed with three players")),
    "sake_cup": (("choose", "both", "animal", "bridge"), "FW-GS, seed 000; FW-GS variants; tscz",
                 N_("choose: the sake cup is an animal or a double pi, not both; both: it is both at "
                 "once; animal: only an animal; bridge: the May bridge takes that role (animal or "
                 "double pi) and the sake cup is a plain animal")),
    "sake_cup_reading": (("declare", "auto"),
                         "bipark (the loser may dodge pi-bak), docs/rules/gostop.md §7",
                         N_("how the dual card is read when the round is won: declare = its holder "
                         "chooses with an action (sake_animal / sake_pi) when the reading changes "
                         "the settlement; auto = the reading best for its holder. Until then every "
                         "score (stop minimum, go) uses the higher reading")),
    "four_brights_with_rain": ((4, 3), "FW-GS, KO-WP; FW-GS variant",
                               N_("points of four brights when the rain man is one of them")),
    "godori_points": ((5, 3), "FW-GS, KO-WP; FW-GS variant", N_("points of godori (the three birds)")),
    "chodan": ((True, False), "FW-GS, KO-WP; seed 000 has no cho-dan",
               N_("the grass ribbons (Apr/May/Jul) score cho-dan")),
    "willow_ribbon": (("counts", "excluded"), "FW-GS, KO-WP; tscz",
                      N_("the willow ribbon counts toward tti (5+ ribbons)")),
    "inoshikacho_points": ((0, 5), "seed 000 (boar, deer, butterflies 5)",
                           N_("points of boar-deer-butterflies (0 = not a yaku)")),
    # -- go ---------------------------------------------------------------------------------
    "go_scheme": (("korean", "times_n", "factorial", "doubling_only"),
                  "FW-GS, KO-WP, bipark, taeto90; FW-GS variant; tscz; seed 000",
                  N_("korean: +1 point per go, and from the third go x2, x4, x8 ...; times_n: 1 go +1, "
                  "n >= 2 go xn; factorial: 1 go +1, 2 go +2, then x2, x6, x24 without bonus; "
                  "doubling_only: x2 from the third go, x2 again per further go, no bonus points")),
    # -- winner multipliers ---------------------------------------------------------------------
    "shake_multiplier": (("double", "plus_one"), "FW-GS; taeto90",
                         N_("each shake (heundeulgi) doubles the winner's score, or adds 1 point")),
    "bomb_multiplier": ((2, 1), "FW-GS; taeto90", N_("each bomb multiplies the winner's score by this")),
    "meongtta": ((True, False), "FW-GS, KO-WP, seed 000; bipark",
                 N_("x2 when the winner has 7 or more animals (meong-tta)")),
    "meongbak": (("off", "yeol", "seven"), "FW-GS alternative; taeto90; bipark",
                 N_("a loser with no animal pays double when the winner has 5+ (yeol) or 7+ animals")),
    "nagari_carry": (("double", "off"), "FW-GS, seed 000",
                     N_("each nagari (drawn round) doubles the next round; draws stack")),
    "nagari_cap": (None, "docs/rules/gostop.md §7 (some implementations cap it)",
                   N_("at most this many doublings from nagari (0 = no cap)")),
    "nagari_limit": (None, "docs/rules/gostop.md §7 (FW-GS: five draws in a row end the game)",
                     N_("this many nagari in a row end the match (0 = never)")),
    # -- loser penalties --------------------------------------------------------------------------
    "gwangbak": (("double", "plus_two", "off"), "FW-GS, seed 000; FW-GS alternative",
                 N_("a loser with no bright pays double (or 2 more) when the winner scored brights")),
    "gwangbak_rain_protects": ((True, False), "FW-GS; FW-GS alternative",
                               N_("the rain man counts as a bright that protects from gwang-bak")),
    "pibak": (("double", "plus_two", "off"), "FW-GS, seed 000; docs/rules/gostop.md §7",
              N_("a loser with few pi pays double (or 2 more) when the winner scored pi")),
    "pibak_max_2p": (None, "FW-GS, bipark, konlo (7); seed 000 (4: 'less than 5')",
                     N_("with two players a loser holding at most this pi value is pi-bak")),
    "pibak_max_3p": (None, "FW-GS, taeto90 (5); yubyunghun (4); WP-GS (5)",
                     N_("with three players a loser holding at most this pi value is pi-bak")),
    "pibak_zero_exempt": ((True, False), "FW-GS; FW-GS alternative, seed 000",
                          N_("a loser with no pi at all (or who lost all of them) is not pi-bak")),
    "gobak": ((True, False), "FW-GS, yubyunghun; seed 000 has none",
              N_("a loser who called go is liable: with three players he pays for both losers (the "
              "first caller if both called), with two he pays double")),
    "empty_pile_exempt": ((True, False), "FW-GS 'Scoring Exemption'",
                          N_("a loser who ends with no captured card pays nothing")),
    # -- pi stealing --------------------------------------------------------------------------
    "steal_bomb": ((1, 0, 2), "FW-GS", N_("pi taken from each opponent for a bomb")),
    "steal_ppeok": ((1, 0, 2), "FW-GS; FW-GS variant (2)",
                    N_("pi taken from each opponent for capturing a stack of three (a ppeok)")),
    "self_ppeok_2p": ((1, 2), "FW-GS (some 2-player rules)",
                      N_("with two players, pi taken for capturing a ppeok you made yourself")),
    "steal_triplets": (("ppeok", "any"), "docs/rules/gostop.md §2; FW-GS 'captures a triplet'",
                       N_("which stacks steal when captured: only ppeok stacks, or also a triplet "
                       "dealt to the field")),
    "steal_sseul": ((1, 0, 2), "FW-GS", N_("pi taken from each opponent for sseul (field emptied)")),
    "steal_ttadak": ((1, 0, 2), "FW-GS", N_("pi for ttadak (hand and stock card take a pair each)")),
    "steal_jjok": ((1, 0, 2), "FW-GS, seed 000", N_("pi for jjok (the stock card takes your lone card)")),
    "steal_four_of_month": ((0, 1), "seed 000",
                            N_("a pi from each opponent when a turn captures all four cards of a "
                            "month (not on top of the sseul pi of the same turn)")),
    "steal_three_triplets": ((0, 2), "FW-GS 'Special Events'",
                             N_("pi taken from each opponent by a player capturing a third stack of "
                             "three in a round")),
    "steal_first_turn_kinds": ((0, 1), "FW-GS 'Special Events'",
                               N_("pi taken from each opponent by a player whose first turn captures a "
                               "bright, an animal, a ribbon and a chaff")),
    "final_turn_exempt": (("sseul_ttadak_jjok", "ppeok_sseul_ttadak", "none"),
                          "docs/rules/gostop.md §2.3; FW-GS (items 2-4); seed 000",
                          N_("which pi-stealing events do not count on the final turn of the round")),
    "three_ppeok": (("off", "win"), "FW-GS 'Stealing Points'",
                    N_("a player making a third ppeok in a round wins at once, like chongtong")),
    # -- shakes and bombs ------------------------------------------------------------------------
    "bomb_mode": (("skip_turns", "draw_two", "draw_three"), "FW-GS; seed 000; FW-GS variant",
                  N_("after a bomb: later draw-only turns (bomb_turns), or turn two / three stock "
                  "cards at once in the bomb turn")),
    "bomb_turns": (None, "FW-GS (two)", N_("draw-only turns a three-card bomb gives (skip_turns)")),
    "bomb_after_shake": ((True, False), "FW-GS; FW-GS variant, seed 000",
                         N_("a revealed (shaken) triplet may still bomb")),
    "shake_timing": (("any_turn", "first_turn"), "FW-GS; seed 000 ('in the opening round')",
                     N_("when a triplet may be shaken")),
    "small_bomb": (("off", "move", "steal", "bomb"), "FW-GS 'Small Bombs' (kongaltan)",
                   N_("two in hand and two on the field: not allowed, allowed as a move only, also "
                   "stealing a pi like a bomb (no x2), or a full bomb")),
    "boar_pot": (None, "FW-GS 'Special Events' (boar pot)",
                 N_("at the end of every round (a nagari too) the player holding the boar receives "
                 "this from each other player (0 = off)")),
    "mission": (("off", "month"), "FW-GS 'Missions'",
                N_("month: a month is drawn at the deal; a winner holding its four cards doubles")),
    # -- the match ----------------------------------------------------------------------------
    "rounds": (None, "FW-GS", N_("rounds in a match (0 = no limit)")),
    "target_score": (None, "FW-GS", N_("a match ends when a seat reaches this score (0 = none)")),
}

INTS: dict[str, tuple[int, int]] = {
    "chongtong_points": (0, 100),
    "boar_pot": (0, 100),
    "stop_minimum_2p": (1, 50),
    "stop_minimum_3p": (1, 50),
    "nagari_cap": (0, 10),
    "nagari_limit": (0, 100),
    "pibak_max_2p": (0, 20),
    "pibak_max_3p": (0, 20),
    "bomb_turns": (0, 3),
    "rounds": (0, 1000),
    "target_score": (0, 100000),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every Go-Stop option. Defaults are the common Korean rules. See :data:`OPTIONS`."""

    preset_name: str = "korean"
    deal_2p: str = "10+8"
    deal_3p: str = "7+6"
    first_dealer: str = "night"
    jokers: int = 0
    joker_power: str = "none"
    field_four: str = "redeal"
    chongtong: str = "optional"
    chongtong_points: int = 0
    chongtong_ties: str = "dealer_order"
    stop_minimum_2p: int = 7
    stop_minimum_3p: int = 3
    sake_cup: str = "choose"
    sake_cup_reading: str = "declare"
    four_brights_with_rain: int = 4
    godori_points: int = 5
    chodan: bool = True
    willow_ribbon: str = "counts"
    inoshikacho_points: int = 0
    go_scheme: str = "korean"
    shake_multiplier: str = "double"
    bomb_multiplier: int = 2
    meongtta: bool = True
    meongbak: str = "off"
    nagari_carry: str = "double"
    nagari_cap: int = 0
    nagari_limit: int = 0
    gwangbak: str = "double"
    gwangbak_rain_protects: bool = True
    pibak: str = "double"
    pibak_max_2p: int = 7
    pibak_max_3p: int = 5
    pibak_zero_exempt: bool = True
    gobak: bool = True
    empty_pile_exempt: bool = True
    steal_bomb: int = 1
    steal_ppeok: int = 1
    self_ppeok_2p: int = 1
    steal_triplets: str = "ppeok"
    steal_sseul: int = 1
    steal_ttadak: int = 1
    steal_jjok: int = 1
    steal_four_of_month: int = 0
    steal_three_triplets: int = 0
    steal_first_turn_kinds: int = 0
    final_turn_exempt: str = "sseul_ttadak_jjok"
    three_ppeok: str = "off"
    bomb_mode: str = "skip_turns"
    bomb_turns: int = 2
    bomb_after_shake: bool = True
    shake_timing: str = "any_turn"
    small_bomb: str = "off"
    boar_pot: int = 0
    mission: str = "off"
    rounds: int = 10
    target_score: int = 0

    CHOICES: ClassVar[dict[str, tuple]] = {
        name: spec[0] for name, spec in OPTIONS.items() if spec[0] is not None
    }
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # docs/rules/gostop.md §6: FW-GS, KO-WP and the engines agree on these; the default.
        "korean": {},
        # Seed 000's Go-Stop section where it differs (see the module docstring).
        "seed": {
            "chongtong": "forced", "chongtong_points": 5,
            "stop_minimum_2p": 3, "stop_minimum_3p": 3,
            "go_scheme": "doubling_only",
            "pibak_max_2p": 4, "pibak_max_3p": 4, "pibak_zero_exempt": False,
            "gobak": False, "empty_pile_exempt": False,
            "steal_bomb": 0, "steal_ppeok": 0, "steal_ttadak": 0,
            "steal_four_of_month": 1, "final_turn_exempt": "none",
            "bomb_mode": "draw_two", "bomb_after_shake": False, "shake_timing": "first_turn",
            "chodan": False, "inoshikacho_points": 5,
        },
    }

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        for name, (lo, hi) in INTS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise InvalidRules(code="whole_number_got", name=name, low=lo, high=hi, value=value)
        self._check_match_length(high=None)  # ranges checked above

    # -- derived values ---------------------------------------------------------------------
    def stop_minimum(self, num_players: int) -> int:
        return self.stop_minimum_2p if num_players == 2 else self.stop_minimum_3p

    def pibak_max(self, num_players: int) -> int:
        return self.pibak_max_2p if num_players == 2 else self.pibak_max_3p

    def deal_sizes(self, num_players: int) -> tuple[int, int]:
        """(cards per hand, cards to the field)."""
        return _deal_sizes(self.deal_2p if num_players == 2 else self.deal_3p)

    def chongtong_value(self, num_players: int) -> int:
        return self.chongtong_points or self.stop_minimum(num_players)

    @staticmethod
    def describe(name: str) -> str:
        allowed, source, meaning = OPTIONS[name]
        values = " / ".join(map(str, allowed)) if allowed else "{}..{}".format(*INTS[name])
        return f"{name} ({values}; {source}): {meaning}"


@cache
def _deal_sizes(text: str) -> tuple[int, int]:
    """A deal option's "hand+field", read once per value: every deal asks."""
    hand, _, field = text.partition("+")
    return int(hand), int(field)
