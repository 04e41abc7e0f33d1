"""Hints in casual games, for whichever surface asks: which tables offer one, and the search's
prices of the asking player's choices, in words.

Only unstaked, unrated games of a game the coach can price (a search AI, or Seotda's equity
player) offer a hint: a game with one human (a game against the AI; two humans are rated) and no
chips, never a tournament's nor a game of the day's deal, and not where the server turned
hints off (``/settings hints``).
A hint prices every legal move of the player's turn in the AI workers (:func:`bot.ai.coach.price`,
a small budget measured to answer within a second) and lists the best moves with their expected
round points and their chance to win the round; at a call (koi-koi or stop, go or stop, a Seotda
bet) it lists every choice's chance. The Discord side shows it as a private answer, the
Activity's page in a panel; both ask through :func:`ask` and :func:`price_turn`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ai.coach import HINT_ROLLOUTS, budget, hintable, price
from bot.games.base import Action
from bot.games.rng import Rng
from bot.i18n import number, t
from bot.replay import action_words
from bot.settlement import is_betting
from bot.tables.manager import TableError, TableManager
from bot.tables.table import HOME_PRIVATE, Table, is_ai
from bot.workers import PoolClosed, WorkerCrashed

if TYPE_CHECKING:
    from bot.store import Store
    from bot.store.settings import GuildSettings

__all__ = ["SHOWN", "Hint", "ask", "hint_lines", "offered_at", "offers_hints", "price_turn",
           "rollouts_for"]

SHOWN = 4
"""Card plays a hint lists (a call lists every choice)."""


def offers_hints(table: Table, settings: GuildSettings | None) -> bool:
    """Whether ``table`` offers hints: a casual game (no stake, one human, so no rating) of a
    game with a search AI, on a server that has not turned them off (``settings`` not read yet:
    the default, on). Never a game of the day's deal (a private table), whose board ranks the
    members who played it: the search's help would be a way up it."""
    if table.finished or table.stake or table.home == HOME_PRIVATE or not hintable(table.game):
        return False
    if sum(1 for p in table.players if not is_ai(p)) != 1:
        return False
    return settings is None or settings.hints


def offered_at(store: Store | None, table: Table) -> bool:
    """:func:`offers_hints` with the server's settings as the store last read them (none read
    yet, or no store: the default)."""
    settings = store.settings_now(table.guild_id) if store is not None and table.guild_id else None
    return offers_hints(table, settings)


def rollouts_for(game: str, configured: int | None = None) -> int:
    """The rollouts per move of a hint in ``game`` (the bot's setting, else the coach's)."""
    return budget(game, configured or HINT_ROLLOUTS)


def _points(value: float) -> str:
    return f"{value:+.1f}"


def _percent(value: float) -> str:
    return f"{number(round(100 * value))}%"


def hint_lines(game: str, priced: list[dict[str, Any]]) -> list[str]:
    """The hint's lines: the preferred move, then the others with their numbers. The move is
    set in bold marks (``**``), which a surface without them takes out."""
    best = priced[0]
    move = action_words(game, best["action"])
    if is_betting(game):  # Seotda: chips and the hand, every bet with its chance
        return [t("The AI's pick is **{move}**: {chips} chips expected, {chance} to win the hand.",
                  move=move, chips=_points(best["points"]), chance=_percent(best["win"])),
                t("Your chance to win the hand with each choice:"),
                *(f"• {action_words(game, p['action'])}: {_percent(p['win'])}" for p in priced)]
    call = all(Action.parse(p["action"]).card is None for p in priced)
    lines = [t("The search prefers **{move}**: {points} points expected in this round, {chance} "
               "to win it.", move=move, points=_points(best["points"]),
               chance=_percent(best["win"]))]
    others = priced[1:SHOWN]
    if call:
        lines.append(t("Your chance to win the round with each choice:"))
        lines.extend(f"• {action_words(game, p['action'])}: {_percent(p['win'])}" for p in priced)
    elif others:
        lines.append(t("The next best moves:"))
        lines.extend(t("• {move}: {points} points, {chance} to win the round",
                       move=action_words(game, p["action"]), points=_points(p["points"]),
                       chance=_percent(p["win"])) for p in others)
    return lines


@dataclass(frozen=True)
class Hint:
    """The search's prices of one turn's choices, best first (each ``action``, expected
    ``points`` and ``win`` chance), and the rollouts each was priced with."""

    game: str
    priced: list[dict[str, Any]]
    rollouts: int

    def lines(self) -> list[str]:
        return hint_lines(self.game, self.priced)

    def note(self) -> str:
        """How the numbers were found, in a line under them."""
        if is_betting(self.game):
            return t("{samples} sampled deals of the cards you cannot see, the others' bets read "
                     "as evidence.", samples=number(self.rollouts))
        return t("{rollouts} sampled deals per move, from what you can see; the chances are "
                 "calibrated on AI games.", rollouts=number(self.rollouts))


def ask(tables: TableManager, game_id: int, user_id: int) -> tuple[Table, int]:
    """The table and seat a hint is asked for, or TableError saying why there is none: the
    asker does not play there, the game is not a casual one, or it is not their turn. Reads
    memory only, so a surface can answer at once before the hint is priced."""
    table, seat = tables.seat_in(game_id, user_id, t("You are not playing in this game, so "
                                                     "there is no hint for you here."))
    if table.home == HOME_PRIVATE:
        raise TableError(t("The deal of the day has no hints: everyone plays it unaided."))
    if not offered_at(tables.store, table):
        raise TableError(t("Hints are only for casual games: no stake, no rating, and not "
                           "turned off on this server."))
    if table.match.current_player != seat or not table.settled.is_set():
        raise TableError(t("Hints are for your own turn; ask again when it is your move."))
    return table, seat


async def price_turn(tables: TableManager, table: Table, seat: int, rollouts: int) -> Hint:
    """The hint of ``seat``'s turn, priced in the AI workers; TableError when a tournament's
    game (its players play unaided), the workers are down, or the search cannot weigh the
    decision. The same turn always gets the same hint (its seed is the game's and the move's)."""
    if await tables.store.tournament_of_game(table.game_id) is not None:
        raise TableError(t("Tournament games have no hints."))
    obs = table.match.observation(seat)
    legal = [str(a) for a in table.match.legal_actions()]
    seed = Rng(table.game_id).fork(table.seq).next64()
    try:
        if tables.ai_pool is None:  # a service without the bot's workers (a test's) has none
            raise PoolClosed
        priced = await tables.ai_pool.run(price, table.game, obs, legal, seed, rollouts)
    except (PoolClosed, WorkerCrashed):
        raise TableError(t("No hint now: the bot is restarting or its AI workers failed. Try "
                           "again in a moment.")) from None
    if not priced:
        raise TableError(t("The search cannot weigh this kind of decision; no hint here."))
    return Hint(table.game, priced, rollouts)
