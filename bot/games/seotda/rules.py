"""Seotda rules: every option with its source (docs/rules/seotda.md) and the named presets.

Sources: FW (Fuda Wiki, Seotda), NP (Naegi Play tutorial), HH (Harry's Hwatu how-to), SS-B and
SS-H (sutdasite.net on betting terms and on the hand ranks), KW (Korean common usage); "bot" =
the sources leave it to the table and the bot needs a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.i18n import N_

from ..base import InvalidRules, RulesBase

# name -> (allowed values, source, one-line meaning). The single place every option is documented.
OPTIONS: dict[str, tuple[tuple, str, str]] = {
    "cards": ((2, 3), "FW (2-card); HH, SS-H (3-card)",
              N_("2: two cards and one betting round; 3: two cards, a betting round, a third card, "
                 "keep two, a second betting round")),
    "ante": ((), "SS-B (the ante before the deal; its size: bot)",
             N_("chips every player puts in the pot before the deal, and the smallest opening bet "
                "(bbing); 1 to 1000")),
    "buy_in": ((), "bot (table limit)",
               N_("chips each player starts the match with; the match ends when one has none left; "
                  "10 to 1000000")),
    "max_raises": ((), "bot (table limit)",
                   N_("raises (bbing, half, ddadang) allowed in one betting round; then only call "
                      "or die; 1 to 20")),
    "short_stack": (("all_in", "die"), "FW 'Betting rules greatly vary'; bot",
                    N_("a player who cannot cover a call: all_in = may bet everything they have "
                       "and play for the side pot they matched; die = may only die")),
    "tie": (("split", "replay"), "FW 'In the event of a draw'; bot",
            N_("equal best hands at the showdown: split = they share the pot; replay = they are "
               "dealt again for the whole pot (split when a player is all in)")),
    "special_hands": ((True, False), "FW, SS-H, KW",
                      N_("true: amhaeng-eosa, ttaeng-jabi, gusa and meongteongguri-gusa act as "
                         "special hands; false: they count as their plain kkeut")),
    "max_redeals": ((), "bot",
                    N_("redeals (gusa, replayed ties) allowed in one hand; after that the pot is "
                       "split; 0 to 20")),
    "rounds": ((), "bot", N_("hands in a match (0 = no limit: until a player has no chips)")),
    "target_score": ((), "bot", N_("the match ends when a player has won this many chips "
                                   "(0 = no target)")),
}

INT_RANGES: dict[str, tuple[int, int]] = {
    "ante": (1, 1000), "buy_in": (10, 1_000_000), "max_raises": (1, 20), "max_redeals": (0, 20),
    "rounds": (0, 1000), "target_score": (0, 10_000_000),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every Seotda option; the defaults are the ``two_card`` preset. See :data:`OPTIONS`."""

    preset_name: str = "two_card"
    cards: int = 2
    ante: int = 1
    buy_in: int = 100
    max_raises: int = 3
    short_stack: str = "all_in"
    tie: str = "split"
    special_hands: bool = True
    max_redeals: int = 5
    rounds: int = 10
    target_score: int = 0

    CHOICES: ClassVar[dict[str, tuple]] = {name: spec[0] for name, spec in OPTIONS.items() if spec[0]}
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "two_card": {},  # FW's basic game
        "three_card": {"cards": 3},  # HH, SS-H
    }

    @property
    def bankroll(self) -> int:
        """Chips each seat may lose in a match (the Match ends when one has lost them all)."""
        return self.buy_in

    def validate(self) -> None:
        RulesBase.validate(self)
        self._check_preset_name()
        self._check_whole_numbers(INT_RANGES)
        if self.ante * 2 > self.buy_in:
            raise InvalidRules(code="ante_buy_in", ante=self.ante, buy_in=self.buy_in)

    @staticmethod
    def describe(name: str) -> str:
        allowed, source, meaning = OPTIONS[name]
        values = f"{' / '.join(map(str, allowed))}; " if allowed else ""
        return f"{name} ({values}{source}): {meaning}"


__all__ = ["INT_RANGES", "OPTIONS", "Rules"]
