"""The day's board as text and as a picture, and how a member's game of the day went."""

from __future__ import annotations

import discord

from bot.daily_words import SHOWN, finished_text, margin_text, shown_places
from bot.discord_ui.command_links import mention
from bot.discord_ui.fair import add_day_deal
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import (
    DESCRIPTION,
    clip,
    day_text,
    fit_embed,
)
from bot.i18n import current, number, t
from bot.store.daily import Board, DailyDeal, DailyEntry
from bot.store.models import former_member, is_pseudonym
from rendering import BoardRow, BoardView
from rendering.view import GAME_NAMES


def who(user_id: int) -> str:
    return former_member() if is_pseudonym(user_id) else f"<@{user_id}>"


def board_lines(board: Board, asker: int) -> list[str]:
    """The board's places as text, an ellipsis before the asker's when it is further down."""
    places = shown_places(board, asker)
    return [("…\n" if i == SHOWN else "") + f"{number(place)}. {who(row.user_id)} · "
            f"{margin_text(row.margin or 0)}" for i, (place, row) in enumerate(places)]


def board_picture(board: Board, asker: int, names: dict[int, str]) -> BoardView:
    """The board as a picture draws it: the same places, each member by name."""
    deal = board.deal
    rows = tuple(BoardRow(rank=place, name=names[row.user_id], value=margin_text(row.margin or 0),
                          highlight=row.user_id == asker)
                 for place, row in shown_places(board, asker))
    return BoardView(title=t("Deal of the day · {game}", game=GAME_NAMES.get(deal.game, deal.game)),
                     subtitle=f"{day_text(deal.day)} · " + finished_text(board),
                     value_header=t("Against the AI"), rows=rows,
                     note="" if rows else t("Nobody has finished this deal yet."), language=current())


def board_embed(board: Board, asker: int, links: dict[str, int]) -> discord.Embed:
    deal, game = board.deal, GAME_NAMES.get(board.deal.game, board.deal.game)
    embed = discord.Embed(title=t("🌅 Deal of the day · {game} · {day}", game=game, day=day_text(deal.day)),
                          colour=ACCENT)
    lines = board_lines(board, asker) or [t("Nobody has finished this deal yet: {play}.",
                                            play=mention("deal play", links))]
    lines.append("")
    lines.append(finished_text(board))
    embed.description = clip("\n".join(lines), DESCRIPTION)
    add_day_deal(embed, deal.commitment, deal.server_seed, deal.ends_at, mention("verify", links))
    return fit_embed(embed)



def played_text(entry: DailyEntry, deal: DailyDeal, links: dict[str, int], status: str) -> str:
    """What a member who has had today's game of a deal is told when they ask for it again."""
    game = GAME_NAMES.get(deal.game, deal.game)
    nxt = f"<t:{deal.ends_at // 1000}:R>"
    if entry.margin is not None:
        return t("You played today's {game} deal: {margin} against the AI. The board: {board}. "
                 "The next deal comes {when}.", game=game, margin=margin_text(entry.margin),
                 board=mention("deal board", links), when=nxt)
    if status == "cancelled":
        return t("Your game of today's {game} deal was called off; the next deal comes {when}.",
                 game=game, when=nxt)
    return t("Your game of today's {game} deal is on another of the bot's processes; press "
             "its table to play on.", game=game)
