"""Hints in casual games: the Hint button on a hand, answered privately with the move the
search prefers and why, in numbers.

Only unstaked, unrated games of a game the coach can price (a search AI, or Seotda's equity
player) offer it: a game with one human (a game against the AI; two humans are rated) and no
chips, never a tournament's, and not where the server turned hints off (``/settings hints``). The answer prices every legal move of the
presser's turn in the AI workers (:func:`bot.ai.coach.price`, a small budget measured to answer
within a second) and lists the best moves with their expected round points and their chance to
win the round; at a call (koi-koi or stop, go or stop, a Seotda bet) it lists every choice's
chance.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.ai.coach import HINT_ROLLOUTS, budget, hintable, price
from bot.discord_ui.app import app
from bot.discord_ui.errors import told
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import DESCRIPTION, NO_PINGS, clip, fit_embed, refuse
from bot.games.base import Action
from bot.games.rng import Rng
from bot.i18n import number, t
from bot.replay import action_words
from bot.settlement import is_betting
from bot.tables import Table, TableError, is_ai
from bot.workers import PoolClosed, WorkerCrashed

log = logging.getLogger(__name__)

SHOWN = 4
"""Card plays a hint lists (a call lists every choice)."""


def offers_hints(client: Any, table: Table) -> bool:
    """Whether ``table`` offers the Hint button: a casual game (no stake, one human, so no
    rating) of a game with a search AI, on a server that has not turned hints off."""
    if table.finished or table.stake or not hintable(table.game):
        return False
    if sum(1 for p in table.players if not is_ai(p)) != 1:
        return False
    store = getattr(client, "store", None)
    settings = store.settings_now(table.guild_id) if store is not None and table.guild_id else None
    return settings is None or settings.hints


def hint_rollouts(client: Any, game: str) -> int:
    """The rollouts per move of a hint in ``game`` (the bot's setting, else the coach's)."""
    base = getattr(getattr(client, "settings", None), "hint_rollouts", None) or HINT_ROLLOUTS
    return budget(game, base)


def _points(value: float) -> str:
    return f"{value:+.1f}"


def _percent(value: float) -> str:
    return f"{number(round(100 * value))}%"


def hint_lines(game: str, priced: list[dict[str, Any]]) -> list[str]:
    """The answer's lines: the preferred move, then the others with their numbers."""
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


def footer(game: str, rollouts: int) -> str:
    if is_betting(game):
        return t("{samples} sampled deals of the cards you cannot see, the others' bets read as "
                 "evidence.", samples=number(rollouts))
    return t("{rollouts} sampled deals per move, from what you can see; the chances are "
             "calibrated on AI games.", rollouts=number(rollouts))


async def answer_hint(interaction: discord.Interaction, gid: int) -> None:
    """The Hint press: checked, priced in the AI workers, answered privately."""
    bot = interaction.client
    manager = app(interaction).tables
    try:
        table, seat = manager.seat_in(gid, interaction.user.id,
                                      t("You are not playing in this game, so there is no hint "
                                        "for you here."))
    except TableError as exc:
        await refuse(interaction, told(exc))
        return
    if not offers_hints(bot, table):
        await refuse(interaction, t("Hints are only for casual games: no stake, no rating, and "
                                    "not turned off on this server."))
        return
    if table.match.current_player != seat or not table.settled.is_set():
        await refuse(interaction, t("Hints are for your own turn; ask again when it is your move."))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if await app(interaction).store.tournament_of_game(gid) is not None:
        await interaction.followup.send(t("Tournament games have no hints."), ephemeral=True)
        return
    obs = table.match.observation(seat)
    legal = [str(a) for a in table.match.legal_actions()]
    seed = Rng(gid).fork(table.seq).next64()  # the same turn gets the same hint
    try:
        rollouts = hint_rollouts(bot, table.game)
        priced = await bot.ai_pool.run(price, table.game, obs, legal, seed, rollouts)
    except (PoolClosed, WorkerCrashed):
        await interaction.followup.send(t("No hint now: the bot is restarting or its AI workers "
                                          "failed. Try again in a moment."), ephemeral=True)
        return
    if not priced:
        await interaction.followup.send(t("The search cannot weigh this kind of decision; no hint "
                                          "here."), ephemeral=True)
        return
    embed = discord.Embed(title=t("💡 Hint"), colour=ACCENT,
                          description=clip("\n".join(hint_lines(table.game, priced)), DESCRIPTION))
    embed.set_footer(text=footer(table.game, rollouts))
    await interaction.followup.send(embed=fit_embed(embed), ephemeral=True,
                                    allowed_mentions=NO_PINGS)
