"""What players read of achievements (:mod:`bot.store.achievements`): each one's mark, name and
what earns it, and the line a finished game's table gives the achievements it earned; and the
line it gives the series of rematches it ends, or the place it takes on its day's board (a game
of the deal of the day). Every surface reads them here, in the language being spoken."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import N_, number, t, tn
from bot.store.achievements import (
    ALL_GAMES,
    DAILY_RUN,
    FEATS,
    GAMES_FEW,
    GAMES_MANY,
    RUN,
    WINS_MANY,
)
from bot.store.models import DailyPlace, Series
from bot.words import plural


@dataclass(frozen=True, slots=True)
class Words:
    mark: str
    name: str  # an N_ msgid
    earned_by: str  # an N_ msgid, with the numbers of the rule as placeholders


WORDS: dict[str, Words] = {
    "first_win": Words("🌱", N_("First win"), N_("win a game")),
    "games_10": Words("🎴", N_("Regular"), N_("finish {n} games")),
    "games_100": Words("🏮", N_("Veteran"), N_("finish {n} games")),
    "wins_50": Words("🏆", N_("Master"), N_("win {n} games")),
    "all_games": Words("🌸", N_("Every flower"), N_("finish a game of each of the {n} games")),
    "run_5": Words("🔥", N_("On a roll"), N_("win {n} games in a row")),
    "beat_expert": Words("🦉", N_("Giant slayer"), N_("win a game against an expert AI")),
    **{code: Words(feat.mark, feat.name, feat.earned_by) for code, feat in FEATS.items()},
    "daily_run": Words("🌅", N_("Daybreak regular"),
                       N_("finish the deal of the day {n} days in a row")),
    "champion": Words("👑", N_("Champion"), N_("win a tournament")),
}
NUMBERS = {"games_10": GAMES_FEW, "games_100": GAMES_MANY, "wins_50": WINS_MANY,
           "all_games": ALL_GAMES, "run_5": RUN, "daily_run": DAILY_RUN}


def name(code: str) -> str:
    """An achievement as a player reads it: its mark and name."""
    words = WORDS[code]
    return f"{words.mark} {t(words.name)}"


def earned_by(code: str) -> str:
    return t(WORDS[code].earned_by, n=NUMBERS.get(code, 0))


def earned_line(earned: Mapping[int, Sequence[str]], names: Mapping[int, str]) -> str:
    """What a finished game earned its players, in one line ("" when nothing): each player's
    new achievements after their name as ``names`` gives it."""
    parts = [t("{player}: {achievements}", player=names.get(user, "?"),
               achievements=", ".join(name(code) for code in codes))
             for user, codes in earned.items() if codes]
    return t("New achievements: {list}", list="; ".join(parts)) if parts else ""


def series_line(series: Series | None, players: Sequence[int | str], names: Sequence[str]) -> str:
    """The tally of the series a finished game ends ("Series of 3 games: alice 2 · bob 1"; ""
    when it replays no game): each member's wins, then the AI's (named as its seat is when
    there is one), then the draws."""
    if series is None:
        return ""
    parts = [f"{names[seat]} {number(series.wins.get(player, 0))}"
             for seat, player in enumerate(players) if isinstance(player, int)]
    ais = [names[seat] for seat, player in enumerate(players) if not isinstance(player, int)]
    if ais:
        ai = ais[0] if len(ais) == 1 else t("the AI")
        parts.append(f"{ai} {number(series.wins.get('ai', 0))}")
    if series.draws:
        parts.append(tn("{n} drawn", "{n} drawn", series.draws))
    return tn("Series of {n} game: {tally}", "Series of {n} games: {tally}", series.games,
              tally=" · ".join(parts))


def daily_line(place: DailyPlace | None) -> str:
    """Where a game of the day's deal finished on its board ("" for any other game)."""
    if place is None:
        return ""
    if place.margin is None or place.place is None:
        return t("This game of the deal of the day ended after its day was over: it is not on "
                 "the day's board.")
    line = t("Deal of the day: {margin} against the AI, place {place} of {count} so far.",
             margin=plural(place.margin, "point", signed=True),
             place=number(place.place), count=number(place.finished))
    return "\n".join(part for part in (line, streak_text(place.streak)) if part)


def streak_text(days: int) -> str:
    """A member's run of days on the deal of the day ("" for a first day)."""
    return tn("{n} day in a row.", "{n} days in a row.", days) if days > 1 else ""
