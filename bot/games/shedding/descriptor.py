"""First Bloom's descriptor: what the bot's registries know of the game (no engine import)."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, NP_

from ..descriptor import PER_POINT, Feat, GameDescriptor, SearchProfile, register
from .text import RULES_PARAGRAPHS


def _player(event: dict[str, Any]) -> list[int]:
    """The seat whose move the event is (a hand hiki's)."""
    return [event["player"]] if isinstance(event.get("player"), int) else []


DESCRIPTOR = register(GameDescriptor(
    slug="shedding",
    position=5,
    name=NP_("game", "First Bloom"),
    seats=(2, 5),
    stake=PER_POINT,
    command="firstbloom",
    command_description='Play First Bloom, the shedding game: empty your hand first, then slap!',
    presenter="bot.presenters.shedding",
    presets={"seed002": NP_("rule set", "Standard"), "seed002_batsu": NP_("rule set", "Standard with the batsu penalty")},
    how_to_play=RULES_PARAGRAPHS,
    sheet="SHEDDING",
    search=SearchProfile(spread=7.0, worlds="bot.ai.shedding:build_world",
                         greedy_reader="bot.ai.shedding:greedy_reader"),
    feat=Feat("hand_hiki", "🍁", N_("Hand hiki"),
              N_("discard all four cards of a month from your hand in First Bloom"),
              "hand_hiki", _player),
))
