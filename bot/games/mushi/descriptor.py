"""Mushi's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from bot.cards import DECK
from bot.i18n import N_, NP_

from ..descriptor import FISHING_TURN, POT, GameDescriptor, SearchProfile, five_brights, register

DESCRIPTOR = register(GameDescriptor(
    slug="mushi",
    position=2,
    name=NP_("game", "Mushi"),
    seats=(2, 2),
    stake=POT,
    command="mushi",
    command_description='Play Mushi, the two-player game with the wild lightning',
    presenter="bot.presenters.mushi",
    presets={"fudawiki": NP_("rule set", "Fuda Wiki"), "seed": NP_("rule set", "Seed 000")},
    how_to_play=(
        N_("**Mushi** is a two-player game from Osaka with a 40-card deck: the peony and the bush "
           "clover months are taken out."),
        N_("**Deal.** Eight cards to each player and eight to the field. There is no stopping: both "
           "players play out all eight turns."),
        FISHING_TURN,
        N_("**The lightning is wild.** Played from the hand it captures any card but a willow; "
           "turned from the stock it must take a field card; lying on the field it is taken by the "
           "next card turned over."),
        N_("**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1 (230 in all; par is "
           "115). Your score is your card points minus 115, plus your yaku minus your opponent's: "
           "five brights 30, three brights (crane, warbler, curtain) 25, all four wisteria "
           "(Fujishima) 10 and all four paulownia (Kirishima) 10."),
    ),
    sheet="MUSHI",
    feat=five_brights("goko"),
    cards=tuple(c.id for c in DECK if c.month not in (6, 7)),
    cards_note=N_("Mushi is played with 40 cards: without June (peony) and July (bush clover)."),
    search=SearchProfile(spread=70.0, full_budget=True, width=3, worlds="bot.ai.mushi:build_world",
                         greedy_reader="bot.ai.mushi:greedy_reader"),
))
