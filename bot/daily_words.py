"""A day's board of the deal of the day in words, for every surface that shows one (the
``/deal board`` answer and picture, the daily post, the Activity's page): which places it
lists, a member's margin over the AI, and how many finished of those who started.
"""

from __future__ import annotations

from bot.achievement_text import streak_text
from bot.i18n import number, t
from bot.store.daily import Board, DailyEntry, DailyPlace
from bot.words import day_text, plural
from rendering.view import GAME_NAMES

__all__ = ["SHOWN", "finished_text", "margin_text", "share_message", "shown_places"]

SHOWN = 20
"""Members a board lists (the member asking is added below when further down)."""


def margin_text(margin: int) -> str:
    return plural(margin, "point", signed=True)


def shown_places(board: Board, asker: int) -> list[tuple[int, DailyEntry]]:
    """The places a board shows, best first (ties share a place): the first :data:`SHOWN`, and
    the asker's when further down."""
    out, place = [], 0
    for i, row in enumerate(board.rows):
        if i == 0 or row.margin != board.rows[i - 1].margin:
            place = i + 1
        if i < SHOWN or row.user_id == asker:
            out.append((place, row))
    return out


def finished_text(board: Board) -> str:
    return t("{finished} of {started} finished.", finished=plural(board.finished, "player"),
             started=number(board.started))


def share_message(place: DailyPlace) -> str:
    """What a member shares of their game of the day from the Activity, sent by them with the
    Activity's link: their result, never a card of the deal ("" for a game off the board)."""
    if place.margin is None or place.place is None:
        return ""
    line = t("🌅 I played the {game} deal of {day}: {margin} against the AI, place {place} of "
             "{count} so far.", game=GAME_NAMES.get(place.game, place.game), day=day_text(place.day),
             margin=margin_text(place.margin), place=number(place.place), count=number(place.finished))
    invite = t("Everyone here is dealt the same cards until midnight UTC. Can you beat me?")
    return "\n".join(part for part in (line, streak_text(place.streak), invite) if part)
