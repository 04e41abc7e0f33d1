"""Go-Stop's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from bot.i18n import N_, NP_

from ..descriptor import (
    FISHING_TURN,
    PER_POINT,
    GameDescriptor,
    SearchProfile,
    five_brights,
    register,
)

DESCRIPTOR = register(GameDescriptor(
    slug="gostop",
    position=1,
    name=NP_("game", "Go-Stop"),
    seats=(2, 3),
    stake=PER_POINT,
    command="gostop",
    command_description='Play Go-Stop (Matgo for two, or three players): challenge, lobby or AI',
    presenter="bot.presenters.gostop",
    presets={"korean": NP_("rule set", "Korean common rules"), "seed": NP_("rule set", "Seed 000")},
    how_to_play=(
        N_("**Go-Stop** is the Korean fishing game for two (Matgo) or three players, played with "
           "Korean month numbers and a points system (*jokbo*) where every category adds up."),
        N_("**Deal.** Two players: ten cards each and eight on the field; three players: seven each "
           "and six on the field."),
        FISHING_TURN,
        N_("Capturing a stack of three or sweeping the field steals a pi (chaff) card from every "
           "opponent. Holding three of a month you may *shake* (double your win) or *bomb* when the "
           "fourth lies on the field."),
        N_("**Go or stop.** Once your score reaches the minimum (7 with two players, 3 with three) "
           "and improves, call **Go** to continue (each go adds a point, from the third they "
           "double) or **Stop** to be paid. A player who called go and then loses pays extra."),
        N_("**Scoring.** Brights 3 to 15, five birds (*godori*) 5, the three ribbon sets 3 each, "
           "five or more animals, ribbons or ten pi count one point each above four or nine. Losers "
           "holding no bright or too few pi pay double. If nobody stops, the round is a draw and "
           "the next round counts double."),
    ),
    sheet="GOSTOP",
    feat=five_brights("ogwang"),
    bonus_cards=("joker_1", "joker_2", "joker_3"),
    cards_note=N_("Go-Stop numbers the months the Korean way: paulownia is 11 and willow 12. Its "
                  "house rules may add up to three bonus cards, worth two or three pi."),
    korean_months=True,
    search=SearchProfile(spread=50.0, phases=frozenset({"decide"}), worlds="bot.ai.gostop:build_world",
                         greedy_reader="bot.ai.gostop:greedy_reader"),
))
