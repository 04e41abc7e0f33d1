"""First Bloom rules: every option with its source (docs/rules/first-bloom.md §8), and the named
presets.

The only source of the game is seed 002 ("Untitled", a UNO-like game on the Hanafuda deck). Where
the seed is silent or can be read two ways the engine picks one reading as the default and offers
the other as an option; the source column says which. "seed 002" = the seed says so; "seed 002
(reading)" = our reading of an unclear passage; "bot" = the seed leaves it to the players and
the bot needs a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import RulesBase

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "purple_ribbon": (
        ("blue", "non_poetry", "none"), "seed 002 EFFECTS 3 (reading)",
        N_("which ribbons make the next player lose their turn: blue = the three blue ribbons (June, "
        "September, October; printed violet in many decks); non_poetry = every ribbon without "
        "poetry (the blue ones and the four plain red ones); none = no ribbon skips")),
    "struggle": (
        ("any_time", "only_if_stuck"), "seed 002 move 6 'If necessary, you may' (reading)",
        N_("any_time: drawing is always one of the moves; only_if_stuck: only when no other move is "
        "possible")),
    "struggle_keep_match": (
        (True, False), "seed 002 move 6B (reading)",
        N_("true: a drawn card that matches the field may still be kept (6B); false: it must be "
        "discarded with a matching field card (6A)")),
    "race_exempt_first": (
        (True, False), "seed 002 payout (more than two players); False: VARIANT read as a "
        "replacement", N_("with three or more players the first to slap the winner's hand pays "
        "nothing; false: everyone pays")),
    "batsu": (
        (False, True), "seed 002 VARIANT",
        N_("with three or more players the last to slap (and every seat that never slaps) takes "
        "the batsu penalty")),
    "batsu_points": (
        (), "seed 002 VARIANT (the seed names a penalty game; the bot turns it into points)",
        N_("points the batsu seat pays the winner on top of its hand (0 to 100; default 5, one "
        "bright)")),
    "next_dealer": (
        ("winner", "rotate"), "bot (the seed: 'whatever method')",
        N_("who deals the next round: the round's winner, or the next seat in turn order")),
    "rounds": ((), "bot (the seed: 'as many rounds as the players wish')",
               N_("rounds in a match (0 = no limit; then target_score must be set)")),
    "target_score": ((), "bot", N_("the match ends when a seat reaches this score (0 = no target)")),
    "turn_limit": (
        (), "bot (the seed has no end but an empty hand)",
        N_("the round ends with no winner and no payment after this many turns (0 = no limit)")),
}

_INT_RANGES: dict[str, tuple[int, int]] = {
    "batsu_points": (0, 100), "rounds": (0, 1000), "target_score": (0, 10000),
    "turn_limit": (0, 100000),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every First Bloom option. Defaults are the seed002 preset. See :data:`OPTIONS`."""

    preset_name: str = "seed002"
    purple_ribbon: str = "blue"
    struggle: str = "any_time"
    struggle_keep_match: bool = True
    race_exempt_first: bool = True
    batsu: bool = False
    batsu_points: int = 5
    next_dealer: str = "winner"
    rounds: int = 5
    target_score: int = 0
    turn_limit: int = 400

    CHOICES: ClassVar[dict[str, tuple]] = {
        name: spec[0] for name, spec in OPTIONS.items() if spec[0]
    }
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        # Seed 002 as written, with the readings documented in RULES_TEXT: the default.
        "seed002": {},
        # Seed 002 with its VARIANT: the last to slap also pays the batsu penalty.
        "seed002_batsu": {"batsu": True},
    }

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        self._check_whole_numbers(_INT_RANGES)
        self._check_match_length(high=None)  # ranges checked above

    @staticmethod
    def describe(name: str) -> str:
        allowed, source, meaning = OPTIONS[name]
        values = f"{' / '.join(map(str, allowed))}; " if allowed else ""
        return f"{name} ({values}{source}): {meaning}"
