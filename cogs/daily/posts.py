"""The new deals posted every day where a server's staff chose (``/deal announce``), with
yesterday's podiums."""

from __future__ import annotations

from datetime import date

import discord

from bot.daily_words import finished_text, margin_text, shown_places
from bot.discord_ui.command_links import mention
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import (
    FIELD_VALUE,
    clip,
    day_text,
    fit_embed,
)
from bot.i18n import t
from bot.store.daily import Board
from rendering.view import GAME_NAMES

from .boards import who

MEDALS = ("🥇", "🥈", "🥉")


def post_embed(day: str, podiums: list[Board], links: dict[str, int]) -> discord.Embed:
    """The day's post in the channel staff chose: today's deals are dealt, and yesterday's
    podium of each game someone finished (mentions, sent without pings; no card)."""
    embed = discord.Embed(title=t("🌅 The deals of {day}", day=day_text(day)), colour=ACCENT,
                          description=t("Today's deals are dealt: the same cards for everyone "
                                        "here, against the AI. Play yours with {play}; {board} "
                                        "ranks you.", play=mention("deal play", links),
                                        board=mention("deal board", links)))
    for board in podiums:
        lines = [f"{MEDALS[min(place, len(MEDALS)) - 1]} {who(row.user_id)} · "
                 f"{margin_text(row.margin or 0)}" for place, row in shown_places(board, 0)]
        lines.append(finished_text(board))
        embed.add_field(name=t("Yesterday's {game} deal", game=GAME_NAMES.get(board.deal.game, board.deal.game)),
                        value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    if podiums:
        embed.set_footer(text=t("Yesterday's seeds are revealed: /deal board with day: yesterday, "
                                "and /verify checks any of their games."))
    return fit_embed(embed)


def post_nonce(guild_id: int, day: str) -> str:
    """The day's post's nonce (25 characters at most): a post repeated after a stop between
    sending and noting it is kept once by Discord."""
    return f"d{guild_id:x}.{date.fromisoformat(day).toordinal():x}"
