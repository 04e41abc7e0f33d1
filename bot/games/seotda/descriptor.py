"""Seotda's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, NP_

from ..descriptor import BETTING, Feat, GameDescriptor, SearchProfile, register


def _best_hand(event: dict[str, Any]) -> list[int]:
    """The seats a showdown shows holding 38 gwang-ttaeng, the hand nothing beats."""
    return [int(seat) for seat, shown in (event.get("hands") or {}).items()
            if isinstance(shown, dict) and shown.get("hand") == "gwangttaeng_38"]


DESCRIPTOR = register(GameDescriptor(
    slug="seotda",
    position=6,
    name=NP_("game", "Seotda"),
    seats=(2, 6),
    stake=BETTING,
    command="seotda",
    command_description='Play Seotda, the Korean betting game, with 2 to 6 players',
    presenter="bot.presenters.seotda",
    presets={"two_card": NP_("rule set", "Two-card Seotda"), "three_card": NP_("rule set", "Three-card Seotda (keep two)")},
    how_to_play=(
        N_("**Seotda** (섯다) is the Korean betting game for two to six players: with two cards (or "
           "three, keeping two) from the 20 cards of months 1 to 10 (the bright or animal card and "
           "the ribbon card of each month; the moon and the geese in August), bet that your hand is "
           "the best."),
        N_("**A hand.** Everyone puts the ante in the pot and gets two cards. The dealer bets "
           "first, then each player in turn: **check** (bet nothing while nobody has bet), **bbing** "
           "(open with one ante), **call** (match the bet), **half** (call, then raise by half the "
           "pot), **ddadang** (raise to twice the bet) or **die** (fold: what you bet stays in the "
           "pot). A player who has called may then only call or die; a betting round allows a limited "
           "number of raises. Who cannot cover a call may go **all in** and plays for the part of "
           "the pot they matched (a side pot)."),
        N_("**Three-card Seotda.** After the first betting round every player still in gets a third "
           "card, chooses the two to keep, and a second betting round follows."),
        N_("**Hands, best first.** 38 gwang-ttaeng (the March and August brights); 18 and 13 "
           "gwang-ttaeng (the January bright with the August or the March one); the pairs of one "
           "month (ttaeng), jang-ttaeng (10) down to pping-ttaeng (1); then ali (1-2), dok-sa (1-4), "
           "gu-bbing (1-9), jang-bbing (1-10), jang-sa (10-4), se-ryuk (4-6); then kkeut, the last "
           "digit of the sum, from gabo (9) down to mang-tong (0). Equal hands share the pot, or are "
           "dealt again where the table plays ties so."),
        N_("**Special hands.** Amhaeng-eosa (the April and July animals) catches 18 and 13 "
           "gwang-ttaeng; ttaeng-jabi (3 and 7) catches the ttaeng from 9 down; gusa (4 and 9) has "
           "the hand dealt again when the best hand is ali or lower, meongteongguri-gusa (the April "
           "and September animals) when it is jang-ttaeng or lower; the pot stays. Otherwise they "
           "count as their kkeut."),
        N_("**Ending.** One player left takes the pot without showing. A player who does not act "
           "in time dies. The match lasts the agreed number of hands or until a player has no chips "
           "left."),
        N_("**Sources:** Fuda Wiki (`fudawiki.org`), the Naegi Play tutorial (`naegiplay.com`), "
           "Harry's Hwatu how-to (`harryshwatuhowto.blogspot.com`) and the Korean terms of "
           "`sutdasite.net`; the full digest with every option is `docs/rules/seotda.md`."),
    ),
    chips=(N_("Seotda is played for chips: your buy-in is held for the table when you sit "
                  "down, and every ante and bet comes out of that stack, never out of your balance; "
                  "at the showdown each pot is paid to the best hand that matched it (equal hands "
                  "share it) and a redeal keeps the pot. When the game ends you get your stack "
                  "back; a cancelled game also gives everyone back what they have in the pot."),),
    sheet="SEOTDA",
    # The two most valuable cards of months 1-10 [FW, NP]: bright or animal, then ribbon (August:
    # moon and geese).
    cards=("crane", "poetry_ribbon_jan", "bush_warbler", "poetry_ribbon_feb", "curtain",
           "poetry_ribbon_mar", "cuckoo", "plain_ribbon_apr", "bridge", "plain_ribbon_may",
           "butterflies", "blue_ribbon_jun", "boar", "plain_ribbon_jul", "moon", "geese", "sake_cup",
           "blue_ribbon_sep", "deer", "blue_ribbon_oct"),
    cards_note=N_("Seotda is played with 20 cards: the bright or animal card and the ribbon card of "
                  "months 1 to 10 (in August the moon and the geese)."),
    search=SearchProfile(pricer="bot.ai.seotda:price_calls"),  # hints weigh its equity, no search
    feat=Feat("gwangttaeng_38", "🎆", N_("38 Gwang-ttaeng"),
              N_("show 38 gwang-ttaeng, the best hand of Seotda, at a showdown"),
              "showdown", _best_hand),
))
