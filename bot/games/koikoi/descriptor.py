"""Koi-Koi's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from bot.i18n import N_, NP_

from ..descriptor import FISHING_TURN, POT, GameDescriptor, SearchProfile, five_brights, register

DESCRIPTOR = register(GameDescriptor(
    slug="koikoi",
    position=0,
    name=NP_("game", "Koi-Koi"),
    seats=(2, 2),
    stake=POT,
    command="koikoi",
    command_description='Play Koi-Koi: challenge someone, open a lobby, or play the AI',
    presenter="bot.presenters.koikoi",
    presets={"nintendo": NP_("rule set", "Nintendo"), "modern": NP_("rule set", "Modern (Fuda Wiki)"), "seed": NP_("rule set", "The rule-book seeds"),
               "koikoi_japan": NP_("rule set", "KoiKoi-Japan (the PC game)")},
    how_to_play=(
        N_("**Koi-Koi** is the two-player Hanafuda classic: capture cards to form *yaku* (scoring "
           "sets) before your opponent does."),
        N_("**Deal.** Eight cards to each player and eight face up on the field; the rest is the "
           "stock. A player dealt four cards of a month, or four pairs, wins the round at once (a "
           "lucky hand)."),
        FISHING_TURN,
        N_("**Koi-Koi or stop.** When your captures form a new yaku, or improve one, you choose: "
           "**stop** and score now, or call **Koi-Koi** and keep going for more, risking that your "
           "opponent scores first (their points are then doubled). Only the player who stops "
           "scores; if both hands run out first, nobody does."),
        N_("**Scoring.** Brights (three to five of the crane, curtain, moon, rain man and phoenix), "
           "the boar-deer-butterflies, the poetry and the blue ribbons, five animals, five ribbons, "
           "ten chaff and the sake-cup viewings are the yaku; a total of 7 or more is doubled. The "
           "winner of a round deals the next; the match lasts the agreed number of rounds."),
    ),
    sheet="KOIKOI",
    feat=five_brights("goko"),
    search=SearchProfile(spread=7.0, full_budget=True, worlds="bot.ai.koikoi:build_world",
                         greedy_reader="bot.ai.koikoi_rollout:greedy_reader",
                         rollout="bot.ai.koikoi_rollout:koikoi_rollout"),
))
