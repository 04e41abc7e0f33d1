"""Sakura (Higo-Bana)'s descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, NP_

from ..descriptor import FISHING_TURN, POT, Feat, GameDescriptor, SearchProfile, register

BASA = 100
"""A round won by this many points over every other side is a basa [FW-SK]."""


def _basa(event: dict[str, Any]) -> list[int]:
    """The seats of the side that won the round by a basa (a team wins it together)."""
    detail, winner = event.get("detail") or {}, event.get("winner")
    margin = detail.get("margin")
    if winner is None or not isinstance(margin, int) or margin < BASA:
        return []
    return next((list(side) for side in detail.get("sides") or () if winner in side), [winner])


DESCRIPTOR = register(GameDescriptor(
    slug="sakura",
    position=3,
    name=NP_("game", "Sakura (Higo-Bana)"),
    seats=(2, 7),
    stake=POT,
    command="sakura",
    command_description='Play Higo-Bana (Sakura) with 2 to 7 players, alone or in teams',
    presenter="bot.presenters.sakura",
    presets={"hawaiian": NP_("rule set", "Hawaiian (Fuda Wiki)"), "seed": NP_("rule set", "Seed 000")},
    how_to_play=(
        N_("**Sakura** (Higo-Bana), the Hawaiian fishing game, seats two to seven players; at four "
           "or six you may play in teams of two."),
        N_("**Deal.** The hand and field sizes depend on the number of players (eight each with "
           "two, three each with six). The round goes on until every hand and the stock are empty."),
        FISHING_TURN,
        N_("**Hiki:** when your hand and the field hold all four cards of a month you may take all "
           "four instead of playing. The lightning (*gaji*) is wild: from the hand it captures any "
           "field card."),
        N_("**Scoring.** Brights are worth 20, ribbons and the yellow paulownia 10, animals and the "
           "rain man 5, other chaff nothing. There are eight three-card yaku (for example curtain, "
           "moon and sake cup); every yaku you hold costs each opponent 50 points. The highest "
           "score deals next."),
    ),
    sheet="SAKURA",
    feat=Feat("basa", "💮", N_("Basa"),
              N_("win a round of Higo-Bana by 100 points or more over every other side"),
              "round_over", _basa),
    search=SearchProfile(spread=100.0, full_budget=True, width=3, worlds="bot.ai.sakura:build_world",
                         greedy_reader="bot.ai.sakura:greedy_reader"),
))
