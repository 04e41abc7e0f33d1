"""Hana-Awase's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from bot.i18n import N_, NP_

from ..descriptor import FISHING_TURN, POT, GameDescriptor, SearchProfile, five_brights, register

DESCRIPTOR = register(GameDescriptor(
    slug="hana_awase",
    position=4,
    name=NP_("game", "Hana-Awase"),
    seats=(2, 4),
    stake=POT,
    command="hanaawase",
    command_description='Play Hana-Awase with 2 to 4 players',
    presenter="bot.presenters.hana_awase",
    presets={"leaflet": NP_("rule set", "The Angel/Disney leaflet"), "fudawiki": NP_("rule set", "Fuda Wiki (against par)")},
    how_to_play=(
        N_("**Hana-Awase** is the classic fishing game for two to four players (three is usual), as "
           "described in the Angel/Disney leaflet."),
        N_("**Deal.** Three players get seven cards each and six go to the field (two players eight "
           "and eight, four players five and eight). Everyone plays until all hands and the stock "
           "are empty."),
        FISHING_TURN,
        N_("**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1. Add your bonus hands: "
           "five brights, the crane-phoenix-moon trio, seven or six ribbons, the ribbon sets, the "
           "sake-cup viewings, boar-deer-butterflies and the four-card rows of the willow, wisteria "
           "and paulownia. The highest total wins the round and deals next; the Fuda Wiki preset "
           "scores against par instead."),
    ),
    sheet="HANA_AWASE",
    feat=five_brights("goko"),
    search=SearchProfile(spread=80.0, full_budget=True, worlds="bot.ai.hana_awase:build_world",
                         greedy_reader="bot.ai.mushi:greedy_reader"),
))
