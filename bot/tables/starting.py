"""How a table starts, wherever it is started from: the place it belongs to, the names of its AI
seats, and the start itself (its rules, the accounts a stake opens, a guest place noted, the
table service's committed start).

The Discord commands and lobbies (:mod:`bot.discord_ui.starting`) and the Activity's lobby
(:mod:`bot.activity.lobby`) all start tables here, so a game starts the same way from either.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.fairness import FairDeal
from bot.games import game_module
from bot.games.base import InvalidRules
from bot.i18n import N_, t, tp
from bot.store import Store, StoreError
from bot.store.lobbies import Lobby
from bot.store.models import GameRecord
from bot.tables.manager import Refused, TableError, TableManager
from bot.tables.rules import table_rules
from bot.tables.table import HOME_ACTIVITY, HOME_CHANNEL, HOME_GUEST, HOME_PRIVATE, Table

__all__ = ["Place", "ai_name", "ai_names", "lobby_spec", "note_place", "start_at", "stored_rules",
           "rules_of", "rules_from", "UNPLAYABLE"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Place:
    """Where a game starts and is kept: a server the bot is in (a *member* place), or a place
    where the app is a *guest* (bot.discord_ui.places tells which of an interaction)."""

    scope: int  # the id its records are kept under: the server's, or a guest channel's
    channel_id: int
    guest: bool
    public: bool  # whether answers there may be seen by everyone
    # What a guest place is (bot.store.guests.GUEST_KINDS): "dm", "group_dm" or "server";
    # "" for a member place, or a guest place whose kind is not known (an Activity in a private
    # channel, which Discord does not say is a DM or a group DM).
    kind: str = ""
    guild_id: int | None = None  # the server it is in, if any (a guest channel's too)
    activity: bool = False  # a start from an Activity's page, whose table lives in the Activity
    private: bool = False  # a table only its player may see (a game of the day's deal)

    @property
    def home(self) -> str:
        """Where a table started here lives (bot.tables.Table.home)."""
        if self.activity:
            return HOME_ACTIVITY
        if self.private:
            return HOME_PRIVATE
        return HOME_GUEST if self.guest else HOME_CHANNEL


def ai_name(level: str) -> str:
    return t("AI ({level})", level=tp("choice", level))


def ai_names(levels: list[str]) -> list[str]:
    """Seat names of AI players: the level in the name, numbered when several share it."""
    out = []
    for i, level in enumerate(levels):
        same = levels.count(level)
        out.append(ai_name(level) if same == 1 else t("AI {number} ({level})", number=levels[:i + 1].count(level),
                                                        level=tp("choice", level)))
    return out


def lobby_spec(lobby: Lobby) -> dict[str, Any]:
    """What a lobby, challenge or rematch asked of its table's rules (:func:`start_at`)."""
    return {"preset": lobby.preset, "rounds": lobby.rounds, "target": lobby.target, "teams": lobby.teams,
            "options": lobby.options}


UNPLAYABLE = N_("This game's settings can no longer be played again.")


def rules_of(record: GameRecord) -> Any:
    """The rules a stored game was played with, to play them again (a rematch, on Discord or on
    the Activity's page); TableError when they no longer load."""
    return rules_from(record.game, record.rules, f"game {record.game_id}")


def rules_from(game: str, stored: dict[str, Any], what: str = "a day's deal") -> Any:
    """Stored rules of ``game`` (a game's, a day's deal's), to play them; TableError when they
    no longer load (an option this version dropped)."""
    try:
        return game_module(game).Rules.from_dict(stored)
    except (InvalidRules, KeyError, TypeError, ValueError):
        log.warning("%s: its stored rules do not load to play them", what, exc_info=True)
        raise TableError(t(UNPLAYABLE)) from None


async def stored_rules(store: Store, game_id: int, scope: int) -> Any:
    """:func:`rules_of` the stored game ``game_id`` of ``scope``; TableError when it is not there."""
    try:
        record = await store.load_game(game_id, scope=scope, with_events=False)
    except StoreError:
        raise TableError(t("That game is not one of this server's.")) from None
    return rules_of(record)


async def start_at(store: Store, tables: TableManager, place: Place, game: str,
                   players: list[int | str], names: list[str], host_id: int,
                   rules_spec: dict[str, Any], stake: int, *, key: str, deal: FairDeal,
                   via: Any = None, headline: str = "", rules: Any = None,
                   replays: int | None = None) -> Table:
    """A new table at ``place``: its rules (``rules``, or built from ``rules_spec`` and the house
    rules), the accounts a stake opens, the guest place noted, and the table service's
    idempotent, committed start (``key``, ``deal``). ``via``: the surface's handle of the start
    (a deferred command whose answer becomes the table); ``replays``: the finished game it plays
    again. Refuses with a TableError, nothing
    started; a store's refusal is passed on in :class:`~bot.tables.Refused`."""
    if rules is None:
        settings = await store.get_settings(place.scope)
        rules = table_rules(settings, game, len(players), rules_spec, stake)
    if stake:  # a first staked game opens the player's account with the server's starting chips
        for player in players:
            if isinstance(player, int):
                await store.open_account(place.scope, player)
    try:
        await note_place(store, place)
        return await tables.start(
            guild_id=place.scope, channel_id=place.channel_id, game=game,
            players=players, names=names, host_id=host_id, rules=rules, stake=stake,
            deal=deal, key=key, via=via, headline=headline, home=place.home, replays=replays)
    except StoreError as exc:
        raise Refused(exc) from None


async def note_place(store: Any, place: Place) -> None:
    """Note a guest place before anything of it is stored (a table, a challenge, a lobby): its
    games count in each player's own record, and a player's forget reaches all its rows
    (bot.store.guests). Never a channel whose id is its server's own (an old server's first
    channel), which the server's records would share if the server added the bot later."""
    if place.guest and place.scope != place.guild_id:
        await store.note_guest_place(place.scope, place.kind or None, place.guild_id)
