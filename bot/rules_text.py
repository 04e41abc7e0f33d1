"""What ``/rules`` tells players: how each game is played, how chips settle, and a readable
summary of the house rules a server has chosen. Plain text (Discord Markdown), no Discord import.

The texts are a short digest of the rules pages in ``docs/rules/``; the exact numbers of the
table in force come from the game's ``Rules`` (the yaku sheet image and :func:`rules_summary`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from bot.games import game_module
from bot.games.descriptor import PER_POINT, descriptor, descriptors
from bot.i18n import N_, t, tp
from bot.settlement import match_nouns
from bot.words import plural
from rendering.view import GAME_NAMES

__all__ = ["PRESET_LABELS", "preset_label", "TITLES", "HOW_TO_PLAY", "CHIPS", "title",
           "RULES_COMMAND", "rules_command", "how_to_play", "chips_text", "editable_options", "option_help",
           "rules_summary", "format_value", "parse_value", "OptionRefused", "default_preset"]

PRESET_LABELS: dict[str, dict[str, str]] = {d.slug: d.presets for d in descriptors()}
"""Readable names of each game's rule presets (the keys stay the stored values): the descriptors'."""

def preset_label(game: str, preset: str | None) -> str:
    """A preset's readable name; an unknown key is shown as a plain "custom" rule set, never raw."""
    if preset is None:
        return t("the server's house rules")
    label = PRESET_LABELS.get(game, {}).get(preset)
    return tp("rule set", label) if label else t("Custom rules")


#: The games' names, read in the current language.
TITLES = GAME_NAMES


def title(game: str) -> str:
    """The game's name in the current language (an unknown slug as it is)."""
    return TITLES.get(game, game)


RULES_COMMAND = ("rules", "game")
"""The command that shows a game's rules and its option naming the game (``cogs/records.py``)."""


def rules_command(game: str) -> str:
    """The ``/rules`` command for ``game`` as a Discord client in the current language shows it
    ("/rules game:Koi-Koi", "/ルール ゲーム:こいこい"): the option's choices are the games'
    descriptor names, which the slash commands translate like the command's own words."""
    command, option = RULES_COMMAND
    return (f"/{tp('command name', command)} {tp('option name', option)}:"
            f"{tp('choice', descriptor(game).name)}")


class Paragraphs(Mapping[str, str]):
    """Game -> a text of marked paragraphs, read in the current language (joined by blank
    lines): ``HOW_TO_PLAY["koikoi"]`` is the Koi-Koi page in whatever language is spoken."""

    def __init__(self, paragraphs: Mapping[str, tuple[str, ...]]) -> None:
        self._paragraphs = dict(paragraphs)

    def __getitem__(self, game: str) -> str:
        return "\n\n".join(t(paragraph) for paragraph in self._paragraphs[game])

    def __iter__(self) -> Iterator[str]:
        return iter(self._paragraphs)

    def __len__(self) -> int:
        return len(self._paragraphs)


_POT = N_("Each player puts the stake into the pot; the match winner takes the pot (a tie splits "
          "it; with Sakura teams the winning team shares it).")
_PER_POINT = N_("The stake is the chips per point. Each player escrows 30 × the stake, the most "
                "they can lose; at the end every player's net points times the stake are settled, "
                "nobody paying more than their escrow.")

#: How a staked game settles its chips, per game: its stake model's text, or its descriptor's own.
CHIPS = Paragraphs({d.slug: d.chips or ((_PER_POINT,) if d.stake == PER_POINT else (_POT,))
                   for d in descriptors()})


#: How each game is played: a few paragraphs (the goal, a turn, the end of a round, the
#: scoring), each its own text in the catalogs, written in the game's descriptor
#: (``GameDescriptor.how_to_play``); :func:`how_to_play` joins them.
HOW_TO_PLAY_PARAGRAPHS: dict[str, tuple[str, ...]] = {d.slug: d.how_to_play for d in descriptors()}


#: How each game is played, in the current language.
HOW_TO_PLAY = Paragraphs(HOW_TO_PLAY_PARAGRAPHS)


def how_to_play(game: str) -> str:
    return HOW_TO_PLAY[game] if game in HOW_TO_PLAY else t("{game}: see the yaku sheet below.", game=title(game))


def chips_text(game: str) -> str:
    return CHIPS[game] if game in CHIPS else t(_POT)


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
        return t(entry[2])
    common = _COMMON_OPTIONS.get(name)
    return t(common) if common else ""


_COMMON_OPTIONS = {"rounds": N_("rounds in a match (0 = no limit)"),
                   "target_score": N_("a match ends when a seat reaches this score (0 = none)")}


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


class OptionRefused(ValueError):
    """A typed option value the game does not allow; the message names only the option and the
    allowed values (never what was typed), so it is shown as it is."""


def parse_value(game: str, name: str, raw: str) -> Any:
    """The typed value of option ``name`` typed as ``raw``; ValueError names what is allowed."""
    kinds = editable_options(game)
    if name not in kinds:
        raise ValueError(t("{game} has no option {name}; pick one from the list", game=title(game), name=repr(name)))
    choices = game_module(game).Rules.CHOICES.get(name)
    kind, text = kinds[name], raw.strip()
    if kind is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionRefused(t("{name} must be on or off", name=name))
    value: Any = text
    if kind is int:
        try:
            value = int(text)
        except ValueError:
            if not choices:
                raise OptionRefused(t("{name} must be a whole number", name=name)) from None
    if choices and value not in choices:
        raise OptionRefused(t("{name} must be one of {values}", name=name,
                              values=", ".join(map(str, choices))))
    return value


def rules_summary(game: str, house: dict[str, Any]) -> str:
    """The house rules of ``game`` on a server, readable: the preset and every changed option."""
    preset = house.get("preset_name") or default_preset(game)
    changes = {k: v for k, v in house.items() if k != "preset_name"}
    module = game_module(game)
    base = module.Rules.preset(preset)
    label = preset_label(game, preset)
    lines = [t("Preset **{label}** (`{preset}`, the default)", label=label, preset=preset) if not house
             else t("Preset **{label}** (`{preset}`)", label=label, preset=preset)]
    for name in sorted(changes):
        lines.append(t("`{name}` = {value} (preset: {preset})", name=name,
                       value=format_value(changes[name]), preset=format_value(getattr(base, name, "?"))))
    rules = module.Rules.preset(preset, **changes)
    length = []
    unit, score = match_nouns(game)
    if getattr(rules, "rounds", 0):
        length.append(plural(rules.rounds, unit))
    if getattr(rules, "target_score", 0):
        length.append(t("first to {points}", points=plural(rules.target_score, score)))
    if length and not {"rounds", "target_score"} & set(changes):
        lines.append(t("Match: {length}", length=", ".join(length)))
    return "\n".join(lines)

