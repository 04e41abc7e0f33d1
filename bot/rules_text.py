"""What ``/rules`` tells players: how each game is played, how chips settle, and a readable
summary of the house rules a server has chosen. Plain text (Discord Markdown), no Discord import.

The texts are a short digest of ``RULES.md``; the exact numbers of the table in force come from
the game's ``Rules`` (the yaku sheet image and :func:`rules_summary`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.games import game_module
from bot.games.shedding import NAME as SHEDDING_NAME
from bot.games.shedding import RULES_TEXT as SHEDDING_RULES
from bot.words import plural

__all__ = ["TITLES", "HOW_TO_PLAY", "CHIPS", "title", "how_to_play", "chips_text", "editable_options", "option_help",
           "rules_summary", "format_value", "parse_value", "default_preset"]

TITLES: dict[str, str] = {
    "koikoi": "Koi-Koi",
    "gostop": "Go-Stop",
    "mushi": "Mushi",
    "sakura": "Sakura (Higo-Bana)",
    "hana_awase": "Hana-Awase",
    "shedding": SHEDDING_NAME,
}


def title(game: str) -> str:
    return TITLES.get(game, game)


_POT = ("Each player puts the stake into the pot; the match winner takes the pot (a tie splits it; "
        "with Sakura teams the winning team shares it).")
_PER_POINT = ("The stake is the chips per point. Each player escrows 30 × the stake, the most they "
              "can lose; at the end every player's net points times the stake are settled, nobody "
              "paying more than their escrow.")

#: How a staked game settles its chips, per game.
CHIPS: dict[str, str] = {
    "koikoi": _POT, "mushi": _POT, "hana_awase": _POT, "sakura": _POT,
    "gostop": _PER_POINT, "shedding": _PER_POINT,
}

_FISHING = (
    "**A turn.** Play one card from your hand. If a field card shows the same month (flower), you "
    "capture both; with two matches you choose which one to take; with three you take all four. "
    "A card that matches nothing stays on the field. Then the top card of the stock is turned "
    "over and resolved the same way."
)

#: A few paragraphs per game: the goal, a turn, the end of a round, the scoring.
HOW_TO_PLAY: dict[str, str] = {
    "koikoi": (
        "**Koi-Koi** is the two-player Hanafuda classic: capture cards to form *yaku* (scoring "
        "sets) before your opponent does.\n\n"
        "**Deal.** Eight cards to each player and eight face up on the field; the rest is the "
        "stock. A player dealt four cards of a month, or four pairs, wins the round at once "
        "(a lucky hand).\n\n"
        f"{_FISHING}\n\n"
        "**Koi-Koi or stop.** When your captures form a new yaku, or improve one, you choose: "
        "**stop** and score now, or call **Koi-Koi** and keep going for more, risking that your "
        "opponent scores first (their points are then doubled). Only the player who stops "
        "scores; if both hands run out first, nobody does.\n\n"
        "**Scoring.** Brights (three to five of the crane, curtain, moon, rain man and phoenix), "
        "the boar-deer-butterflies, the poetry and the blue ribbons, five animals, five ribbons, "
        "ten chaff and the sake-cup viewings are the yaku; a total of 7 or more is doubled. The "
        "winner of a round deals the next; the match lasts the agreed number of rounds."
    ),
    "gostop": (
        "**Go-Stop** is the Korean fishing game for two (Matgo) or three players, played with "
        "Korean month numbers and a points system (*jokbo*) where every category adds up.\n\n"
        "**Deal.** Two players: ten cards each and eight on the field; three players: seven each "
        "and six on the field.\n\n"
        f"{_FISHING} Capturing a stack of three or sweeping the field steals a pi (chaff) card from "
        "every opponent. Holding three of a month you may *shake* (double your win) or *bomb* "
        "when the fourth lies on the field.\n\n"
        "**Go or stop.** Once your score reaches the minimum (7 with two players, 3 with three) "
        "and improves, call **Go** to continue (each go adds a point, from the third they double) "
        "or **Stop** to be paid. A player who called go and then loses pays extra.\n\n"
        "**Scoring.** Brights 3 to 15, five birds (*godori*) 5, the three ribbon sets 3 each, "
        "five or more animals, ribbons or ten pi count one point each above four or nine. Losers "
        "holding no bright or too few pi pay double. If nobody stops, the round is a draw and the "
        "next round counts double."
    ),
    "mushi": (
        "**Mushi** is a two-player game from Osaka with a 40-card deck: the peony and the bush "
        "clover months are taken out.\n\n"
        "**Deal.** Eight cards to each player and eight to the field. There is no stopping: both "
        "players play out all eight turns.\n\n"
        f"{_FISHING}\n\n"
        "**The lightning is wild.** Played from the hand it captures any card but a willow; "
        "turned from the stock it must take a field card; lying on the field it is taken by the "
        "next card turned over.\n\n"
        "**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1 (230 in all; par is "
        "115). Your score is your card points minus 115, plus your yaku minus your opponent's: "
        "five brights 30, three brights (crane, warbler, curtain) 25, all four wisteria "
        "(Fujishima) 10 and all four paulownia (Kirishima) 10."
    ),
    "sakura": (
        "**Sakura** (Higo-Bana), the Hawaiian fishing game, seats two to seven players; at four "
        "or six you may play in teams of two.\n\n"
        "**Deal.** The hand and field sizes depend on the number of players (eight each with "
        "two, three each with six). The round goes on until every hand and the stock are "
        "empty.\n\n"
        f"{_FISHING} **Hiki:** when your hand and the field hold all four cards of a month you may "
        "take all four instead of playing. The lightning (*gaji*) is wild: from the hand it "
        "captures any field card.\n\n"
        "**Scoring.** Brights are worth 20, ribbons and the yellow paulownia 10, animals and the "
        "rain man 5, other chaff nothing. There are eight three-card yaku (for example curtain, "
        "moon and sake cup); every yaku you hold costs each opponent 50 points. The highest "
        "score deals next."
    ),
    "hana_awase": (
        "**Hana-Awase** is the classic fishing game for two to four players (three is usual), as "
        "described in the Angel/Disney leaflet.\n\n"
        "**Deal.** Three players get seven cards each and six go to the field (two players eight "
        "and eight, four players five and eight). Everyone plays until all hands and the stock "
        "are empty.\n\n"
        f"{_FISHING}\n\n"
        "**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1. Add your bonus hands: "
        "five brights, the crane-phoenix-moon trio, seven or six ribbons, the ribbon sets, the "
        "sake-cup viewings, boar-deer-butterflies and the four-card rows of the willow, "
        "wisteria and paulownia. The highest total wins the round and deals next; the Fuda Wiki "
        "preset scores against par instead."
    ),
    "shedding": SHEDDING_RULES,
}


def how_to_play(game: str) -> str:
    return HOW_TO_PLAY.get(game) or f"{title(game)}: see the yaku sheet below."


def chips_text(game: str) -> str:
    return CHIPS.get(game, _POT)


def default_preset(game: str) -> str:
    return next(iter(game_module(game).Rules.PRESETS))


_HIDDEN = {"preset_name", "custom_points"}


def editable_options(game: str) -> dict[str, type]:
    """Option name -> value type (bool, int or str) of the options a server may change."""
    rules = game_module(game).Rules.preset(default_preset(game))
    out: dict[str, type] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name in _HIDDEN or type(value) not in (bool, int, str):
            continue
        out[f.name] = type(value)
    return out


def option_help(game: str, name: str) -> str:
    """The description of one option (from the game's ``OPTIONS``)."""
    module = game_module(game)
    entry = getattr(module, "OPTIONS", {}).get(name)
    if entry and len(entry) >= 3 and isinstance(entry[2], str):
        return entry[2]
    return {"rounds": "rounds in a match (0 = no limit)",
            "target_score": "a match ends when a seat reaches this score (0 = none)"}.get(name, "")


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


def parse_value(game: str, name: str, raw: str) -> Any:
    """The typed value of option ``name`` typed as ``raw``; ValueError names what is allowed."""
    kinds = editable_options(game)
    if name not in kinds:
        raise ValueError(f"{title(game)} has no option {name!r}; pick one from the list")
    choices = game_module(game).Rules.CHOICES.get(name)
    kind, text = kinds[name], raw.strip()
    if kind is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"{name} must be on or off")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            allowed = ", ".join(map(str, choices)) if choices else "a whole number"
            raise ValueError(f"{name} must be {'one of ' if choices else ''}{allowed}") from None
    return text


def rules_summary(game: str, house: dict[str, Any]) -> str:
    """The house rules of ``game`` on a server, readable: the preset and every changed option."""
    preset = house.get("preset_name") or default_preset(game)
    changes = {k: v for k, v in house.items() if k != "preset_name"}
    module = game_module(game)
    base = module.Rules.preset(preset)
    lines = [f"Preset **{preset}**" + (" (the default)" if not house else "")]
    for name in sorted(changes):
        lines.append(f"`{name}` = {format_value(changes[name])} "
                     f"(preset: {format_value(getattr(base, name, '?'))})")
    rules = module.Rules.preset(preset, **changes)
    length = []
    if getattr(rules, "rounds", 0):
        length.append(plural(rules.rounds, "round"))
    if getattr(rules, "target_score", 0):
        length.append(f"first to {plural(rules.target_score, 'point')}")
    if length and not {"rounds", "target_score"} & set(changes):
        lines.append("Match: " + ", ".join(length))
    return "\n".join(lines)

