"""How to play, for a page: the ``/rules`` of a game as the Activity shows it (its text, the
house rules it is played by where the page is, its yaku sheet and its cards by month, served as
pictures).

The words are ``/rules``' own (:mod:`bot.rules_text`), so both surfaces teach a game alike; the
texts keep their marks (``**bold**``, ``*italics*``, `` `code` ``), which the page draws as
elements, never as HTML.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.games import GAMES
from bot.games.base import InvalidRules
from bot.i18n import speaking, t
from bot.rules_text import how_to_play, rules_summary, title

log = logging.getLogger(__name__)


def sheet_path(game: str, language: str, of: str = "sheets") -> str:
    """Where the page finds the yaku sheet (``sheets``) or the card chart (``decks``) of
    ``game`` in ``language`` (relative to the page)."""
    return f"{of}/{game}-{language}.png"


def rules_message(game: str, language: str, house: dict[str, Any] | None) -> dict[str, Any]:
    """The ``rules`` message of ``game`` (one of :data:`GAMES`). ``house``: the rules a server
    keeps for it; None where the bot keeps none (a place it is a guest in), whose games are
    played by the game's own defaults."""
    with speaking(language):
        if house is None:
            heading, summary = t("The game's own rules"), rules_summary(game, {})
        else:
            heading = t("House rules on this server")
            try:
                summary = rules_summary(game, house)
            except (InvalidRules, KeyError, TypeError, ValueError):
                log.warning("the saved house rules of %s no longer load", game, exc_info=True)
                summary = t("The saved house rules no longer load; ask staff to run {reset}.",
                            reset="`/settings reset`")
        return {"type": "rules", "game": game, "title": t("📖 {game} · how to play", game=title(game)),
                "text": how_to_play(game), "house_title": heading, "house": summary,
                "sheet": sheet_path(game, language),
                "sheet_alt": t("The yaku of {game}: the cards of each and its points", game=title(game)),
                "cards_title": t("The cards"), "cards": sheet_path(game, language, "decks"),
                "cards_alt": t("The cards of {game} by month, each month's flower above them",
                               game=title(game))}


def known(game: str) -> bool:
    """Whether a page's ``game`` names one of the bot's games (all a page's word is trusted for)."""
    return game in GAMES
