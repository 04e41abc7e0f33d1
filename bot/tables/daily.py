"""A member's game of the day's deal, started the same way wherever they ask for it: by
``/deal play`` in Discord (cogs.daily) or from the Activity's lobby (bot.activity.lobby).

Each place has one deal of each game a day (:mod:`bot.store.daily`); a member plays it once,
alone against the AI, and nobody else may see it before the day is over, so the table is private
(:data:`bot.tables.HOME_PRIVATE`): each surface shows it to its player alone. Asked again while
it runs, the same game is handed back; once it is over, what became of it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.i18n import t
from bot.store.daily import DailyDeal, DailyEntry
from bot.tables.manager import TableManager, ai_seat
from bot.tables.rules import table_rules
from bot.tables.starting import Place, ai_name, note_place, rules_from, start_at
from bot.tables.table import Table
from bot.words import day_text

__all__ = ["LEVEL", "ROUNDS", "DailyGame", "play_daily"]

LEVEL = "hard"
"""The AI every member meets on the day's deal: one level, so the board compares like with like."""
ROUNDS = 1
"""A day's deal is one round: one deal of the cards."""


@dataclass(frozen=True)
class DailyGame:
    """A member's game of today's deal of a game, as asking for it found it."""

    entry: DailyEntry
    deal: DailyDeal
    table: Table | None  # the game, when it runs on this process (started now, or before)
    started: bool = False  # started by this ask: its first picture went through the ask's ``via``
    status: str = ""  # the stored game's status when it does not run here ("finished", ...)


async def play_daily(store: Any, tables: TableManager, place: Place, user_id: int, name: str,
                     shown_name: str, game: str, *, via: Any = None) -> DailyGame:
    """The member's game of today's ``game`` deal at ``place``: started now against the AI
    (once: the entry's key makes a second ask while it starts an
    :class:`~bot.tables.AlreadyStarted`), or the one they already have. ``name`` is their seat's
    name, ``shown_name`` the same made fit for a message (the table's headline); ``via`` the
    surface's handle of the ask, whose answer becomes the table."""
    guild = place.scope
    await note_place(store, place)  # a guest place's entry is found by the member's forget
    day = store.daily_deal_day()
    settings = await store.get_settings(guild)
    rules = table_rules(settings, game, 2, {"rounds": ROUNDS})
    deal = await store.daily_deal(guild, game, day, rules=rules.to_dict(), dealing=True)
    entry = await store.claim_daily_deal(guild, game, day, user_id)
    if entry.game_id is not None:
        if tables.drives(entry.game_id):
            return DailyGame(entry, deal, tables.get(entry.game_id))
        record = await store.load_game(entry.game_id, scope=guild, with_events=False)
        return DailyGame(entry, deal, None, status=record.status)
    opponent = ai_name(LEVEL)
    headline = t("Deal of the day, {day}: {player} against {opponent}.", day=day_text(day),
                 player=shown_name, opponent=opponent)
    private = replace(place, public=False, private=True, activity=False)
    table = await start_at(store, tables, private, game, [user_id, ai_seat(LEVEL)],
                           [name, opponent], user_id, {}, 0, key=entry.key,
                           deal=deal.fair_deal(), via=via, headline=headline,
                           rules=rules_from(game, deal.rules))
    return DailyGame(entry, deal, table, started=True)
