"""What a lobby, challenge or rematch shows of the game it will start: the game, the match length,
the rule set by its readable name, the stake in the server's currency, the teams and the seats.

Everything is read from the rules the table will really play (a preset, the server's house rules
and the lobby's own options together), so the message never disagrees with the game it starts.
"""

from __future__ import annotations

import functools
from typing import Any

import discord

from bot.discord_ui.text import FIELD_VALUE, shown
from bot.games import game_module
from bot.games.base import InvalidRules
from bot.i18n import N_, number, t, tn
from bot.rules_text import preset_label
from bot.settlement import is_betting, match_nouns, stake_text
from bot.words import plural
from rendering.view import GAME_NAMES

TEAM_LABELS = {"pairs": N_("Pairs (teams of two)"), "triples": N_("Triples (teams of three)")}


def seat_counts(game: str, rules: Any) -> list[int]:
    """The table sizes these rules can be played with (Sakura in pairs: 4 or 6, not 2 to 7)."""
    return list(_seat_counts(game, rules))


@functools.lru_cache(maxsize=256)
def _seat_counts(game: str, rules: Any) -> tuple[int, ...]:
    """Dealing a trial match per size costs milliseconds: done once per distinct rule set (the
    rules are frozen and hashable), not at every lobby press."""
    module = game_module(game)
    low, high = module.PLAYERS
    counts = []
    for seats in range(low, high + 1):
        try:
            module.new_match(seats, rules, 0)  # the same check a starting table makes
        except (InvalidRules, ValueError):
            continue
        counts.append(seats)
    return tuple(counts)


def counts_text(counts: list[int]) -> str:
    """"2 to 7 players", "4 or 6 players", "6 players"."""
    if not counts:
        return t("no table size")
    if len(counts) == 1:
        return plural(counts[0], "player")
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return t("{low} to {players}", low=counts[0], players=plural(counts[-1], "player"))
    return t("{sizes} or {players}", sizes=", ".join(map(str, counts[:-1])), players=plural(counts[-1], "player"))


def match_length(rules: Any, game: str | None = None) -> str:
    """"first to 50 points, at most 6 rounds", "12 rounds"; a betting game's are hands and its
    target chips, as its table counts them."""
    rounds, target = getattr(rules, "rounds", 0), getattr(rules, "target_score", 0)
    unit, score = match_nouns(game) if game is not None else ("round", "point")
    if target:
        if rounds:
            return t("first to {points}, at most {rounds}", points=plural(target, score),
                     rounds=plural(rounds, unit))
        return t("first to {points}", points=plural(target, score))
    return plural(rounds, unit)


def betting_limits(rules: Any) -> str:
    """A betting game's ante and table limits: "ante 2 · buy-in 40 · 3 raises a betting round"."""
    return t("ante {ante} · buy-in {buy_in} · {raises} a betting round", ante=number(rules.ante),
             buy_in=number(rules.buy_in), raises=tn("{n} raise", "{n} raises", rules.max_raises))


def rules_text(game: str, rules: Any, chosen: bool) -> str:
    """The rule set by name; ``chosen`` false when it came from the server's house rules."""
    label = preset_label(game, getattr(rules, "preset_name", None))
    return label if chosen else t("{rules}, the server's house rules", rules=label)


def add_settings(embed: discord.Embed, game: str, rules: Any, stake: int, currency: str, *,
                 chosen_preset: bool = True, seated: int | None = None,
                 seats: bool = True) -> discord.Embed:
    """Add the settings fields to ``embed``; ``seated``: seats taken so far (a lobby), if any;
    ``seats`` false where the players are already known (a rematch)."""
    embed.add_field(name=t("Game"), value=GAME_NAMES.get(game, game))
    embed.add_field(name=t("Match"), value=match_length(rules, game))
    embed.add_field(name=t("Rules"), value=rules_text(game, rules, chosen_preset))
    embed.add_field(name=t("Stake"), value=stake_text(game, stake, shown(currency, 32))[:FIELD_VALUE])
    if is_betting(game):
        embed.add_field(name=t("Bets"), value=betting_limits(rules))
    teams = getattr(rules, "teams", "off")
    if teams in TEAM_LABELS:
        embed.add_field(name=t("Teams"), value=t(TEAM_LABELS[teams]))
    counts = seat_counts(game, rules) if seats else []
    if seated is not None and counts:
        embed.add_field(name=t("Seats"), value=f"{seated}/{counts[-1]} · {counts_text(counts)}")
    elif counts:
        embed.add_field(name=t("Seats"), value=counts_text(counts))
    return embed
