"""The sentence a refusal of the store is shown as, on whichever surface shows it.

The store's errors carry data (:mod:`bot.store.errors`): who, how much, until when, and a
``code`` for a refusal without a class of its own. This module is the one place that phrases
them, in the language being spoken. Two facts are written differently by each surface, so the
surface passes its :class:`Markup`: how a member is named (Discord mentions them as ``<@id>``, a
web page shows their name) and how a moment is given (Discord's ``<t:...:R>`` shows it in the
reader's own time zone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.i18n import N_, NP_, number, t, tp
from bot.store.errors import (
    AlreadyClaimed,
    DuplicateAction,
    GameNotRunning,
    IdempotencyConflict,
    InsufficientFunds,
    NotDriven,
    SelfTransfer,
    StoreError,
    StoreUnavailable,
    UnknownAccount,
    UnknownGame,
)
from bot.store.lobbies import LobbyAlreadyStarted, LobbyExpired
from bot.store.privacy import MemberBusy
from bot.tables import Refused
from bot.words import amount

__all__ = ["CALLED_OFF", "DONE_UNSEEN", "MAYBE_DONE", "OOPS", "PLAIN", "STATUSES", "UNAVAILABLE", "Markup", "sentence", "told"]

#: What a failure nobody foresaw is answered with.
OOPS = N_("Something went wrong on my side; please try again in a moment.")
#: What a command is answered with when Discord refused the answer it sent after its work: the
#: work may be done (a gift given), so asking again could do it twice.
MAYBE_DONE = N_("Discord did not take my answer, but what you asked may already be done: check "
                "before you try again.")
#: What a command or press is answered with when Discord did not take the answer that stood for
#: what it opened (a lobby, a challenge, a tournament's sign-up, a rematch's request, a shared
#: result), which was called off since nobody saw it: asking again is safe.
CALLED_OFF = N_("Discord did not take my answer, so I called off what you asked: please try again.")
#: What a command is answered with when Discord did not take its private answer that told of work
#: done and kept (a staff grant, a changed setting): that answer follows, so nobody does it twice.
DONE_UNSEEN = N_("Discord did not take my first answer; this is done: {done}")
#: What every trouble of the database is answered with (the log has the details).
UNAVAILABLE = N_("The bot's database is having trouble; nothing was changed. "
                 "Please try again later.")



def _utc(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Markup:
    """How a surface writes the two facts of a refusal that are not words: a member (by their
    user id) and a moment."""

    member: Callable[[int], str]
    moment: Callable[[datetime], str] = _utc


PLAIN = Markup(member=lambda user_id: t("someone"))
"""For a surface that knows no names: the member unnamed, the moment in UTC."""

# A game's status as a refusal names it.
STATUSES = {"finished": NP_("status", "finished"), "cancelled": NP_("status", "cancelled"),
            "running": NP_("status", "running")}


def _status(status: str) -> str:
    return tp("status", STATUSES[status]) if status in STATUSES else status


def _listed(names: Any) -> str:
    return ", ".join(names)


# code -> (English msgid, its fields from the error's facts; None: the msgid has no fields)
_Fields = Callable[[StoreError], dict[str, Any]] | None
_CODES: dict[str, tuple[str, _Fields]] = {
    # amounts (bot.store.ledger)
    "amount_not_whole": (N_("The amount must be a whole number of chips."), None),
    "stake_not_whole": (N_("The stake must be a whole number of chips."), None),
    "amount_not_positive": (N_("The amount must be more than zero."), None),
    "stake_not_positive": (N_("The stake must be more than zero."), None),
    "amount_too_large": (N_("The amount may be at most {most}."), lambda e: {"most": number(e.most)}),
    "stake_too_large": (N_("The stake may be at most {most}."), lambda e: {"most": number(e.most)}),
    "balance_overflow": (N_("That would take a balance past the largest amount allowed."), None),
    "daily_off": (N_("Daily chips are turned off on this server."), None),
    # leaderboards
    "unknown_metric": (N_("Leaderboards rank by {orders}."), lambda e: {"orders": _listed(e.metrics)}),
    "unknown_period": (N_("The period must be 'all' or '30d'."), None),
    "rating_needs_game": (N_("Ratings are per game: choose a game."), None),
    "rating_needs_season": (N_("Ratings are per season: choose a season."), None),
    "page_range": (N_("Pages start at offset 0 and hold 1 to 100 rows."), None),
    # seasons
    "not_a_season": (N_("That is not a season."), None),
    "no_such_season": (N_("This server has no season {number} yet."), lambda e: {"number": e.season}),
    "season_key_reused": (N_("This request already started another season."), None),
    "not_a_cadence": (N_("Seasons can start every week or every month."), None),
    "season_name_length": (N_("A season's name is 1 to {limit} characters."),
                           lambda e: {"limit": e.most}),
    # server settings
    "unknown_settings": (N_("Unknown settings: {names}."), lambda e: {"names": _listed(e.names)}),
    "house_rules_shape": (N_("House rules must map each game name to its options."), None),
    "house_rules_json": (N_("House rules must be plain JSON values ({problem})."),
                         lambda e: {"problem": e.problem}),
    "turn_timeout_range": (N_("The turn timeout must be a whole number from {low} to {high} seconds."),
                           lambda e: {"low": number(e.low), "high": number(e.high)}),
    "starting_chips_range": (N_("Starting chips must be a whole number from {low} to {high}."),
                             lambda e: {"low": number(e.low), "high": number(e.high)}),
    "daily_amount_range": (N_("The daily amount must be a whole number from {low} to {high}."),
                           lambda e: {"low": number(e.low), "high": number(e.high)}),
    "hand_delivery": (N_("Hand delivery must be 'dm' or 'ephemeral'."), None),
    "currency_name_length": (N_("The currency name must have 1 to 32 characters."), None),
    "language_choice": (N_("The language must be one of en, ja, ko (or empty: the server's own)."), None),
    "hints_choice": (N_("Hints are either on or off."), None),
    "stake_policy": (N_("Who may start staked games: one of {policies}."),
                     lambda e: {"policies": _listed(e.policies)}),
    "stake_role_missing": (N_("Choose the role allowed to start staked games."), None),
    "stake_role_unused": (N_("A role only applies when the policy is 'role'."), None),
    # lobbies, challenges and rematches
    "lobby_not_open": (N_("This lobby is no longer open."), None),
    "no_such_game": (N_("There is no such game."), None),
    "rematch_not_open": (N_("This rematch is no longer open."), None),
    "challenged_only": (N_("Only the challenged member can take this seat."), None),
    "already_in_lobby": (N_("You are already in this lobby."), None),
    "lobby_full": (N_("This lobby is full."), None),
    "not_in_lobby": (N_("You are not in this lobby."), None),
    "host_cannot_leave": (N_("The host cannot leave; press Cancel to close the lobby."), None),
    "host_adds_ai": (N_("Only the host can add AI players."), None),
    "host_starts": (N_("Only the host can start the game."), None),
    "challenge_not_yours": (N_("This challenge is not for you."), None),
    "needs_players": (N_("This game needs at least {n} players."), lambda e: {"n": e.least}),
    "host_cancels": (N_("Only the host can cancel the lobby."), None),
    "rematch_finished_only": (N_("Only a finished match can be played again."), None),
    "rematch_forgotten_player": (N_("A player of this match asked to be forgotten, so it cannot be "
                                    "played again; start a new game."), None),
    "rematch_players_only": (N_("Only the players of this match can ask for a rematch."), None),
    "rematch_seats_players_only": (N_("These seats are for the players of the last game."), None),
    "rematch_players_answer": (N_("Only the players of this match can answer its rematch."), None),
    # tournaments
    "tournament_elsewhere": (N_("That tournament is not one of this server's."), None),
    "tournament_not_entered": (N_("You have not signed up for that tournament."), None),
    "signup_closed": (N_("Sign-up for this tournament is closed."), None),
    "tournament_full": (N_("This tournament is full ({most} entrants)."),
                        lambda e: {"most": number(e.most)}),
    "already_signed_up": (N_("You are already signed up."), None),
    "not_signed_up": (N_("You are not signed up."), None),
    "tournament_over": (N_("This tournament is over."), None),
    "tournament_started": (N_("This tournament has already started."), None),
    "too_few_entrants": (N_("A tournament needs at least 2 entrants."), None),
    "tournament_not_running": (N_("This tournament is not running."), None),
    "entrant_gone": (N_("That entrant is not in this tournament (any more)."), None),
}


def _by_class(exc: StoreError, markup: Markup) -> str | None:
    """The sentence of a refusal with a class of its own (None: it has none)."""
    if isinstance(exc, StoreUnavailable):
        return t(UNAVAILABLE)
    if isinstance(exc, InsufficientFunds):
        return t("{user} has {balance} but {needed} are needed.", user=markup.member(exc.user_id),
                 balance=amount(exc.balance, exc.currency), needed=number(exc.needed))
    if isinstance(exc, AlreadyClaimed):
        return t("You already claimed your daily chips today; come back {when}.",
                 when=markup.moment(exc.next_claim_at))
    if isinstance(exc, UnknownAccount):
        return t("{user} has no account on this server yet.", user=markup.member(exc.user_id))
    if isinstance(exc, UnknownGame):
        return t("Game #{id} does not exist.", id=exc.game_id)
    if isinstance(exc, GameNotRunning):
        return t("Game #{id} is already {status}.", id=exc.game_id, status=_status(exc.status))
    if isinstance(exc, NotDriven):
        return t("Game #{id} is now run by another of the bot's processes; try again in a moment.",
                 id=exc.game_id)
    if isinstance(exc, DuplicateAction):
        return t("That move was already taken (game #{id}, move {seq}; last saved move {last}).",
                 id=exc.game_id, seq=exc.seq, last=exc.last_seq)
    if isinstance(exc, IdempotencyConflict):
        return t("This request was already used for a different transfer.")
    if isinstance(exc, SelfTransfer):
        return t("You cannot send chips to yourself.")
    if isinstance(exc, LobbyAlreadyStarted):
        return t("This game has already started.")
    if isinstance(exc, LobbyExpired):
        return t("This challenge has expired.")
    if isinstance(exc, MemberBusy):
        if exc.running:
            return t("Finish or forfeit your running games first ({games}); nothing was changed.",
                     games=", ".join(f"#{game_id}" for game_id in exc.running[:5]))
        if exc.lobbies:
            return t("Leave your open lobbies, challenges and rematches first (or let them expire); "
                     "nothing was changed.")
        return t("Leave your tournaments first, or wait until they end; nothing was changed.")
    return None


def sentence(exc: BaseException, markup: Markup = PLAIN) -> str:
    """What ``exc`` tells the user, in the language being spoken and the surface's ``markup``.

    A store refusal is phrased from its class or its ``code``; one raised without either carries
    its message already (a plain English line about a malformed argument, or a sentence a
    surface wrote itself) and is shown as it is. Anything else gets the friendly line for a
    failure nobody foresaw.
    """
    if isinstance(exc, StoreError):
        said = _by_class(exc, markup)
        if said is not None:
            return said
        if exc.code in _CODES:
            message, fields = _CODES[exc.code]
            return t(message, **fields(exc)) if fields else t(message)
        if not exc.code and exc.args and exc.args[0]:
            return str(exc.args[0])
    return t(OOPS)


def told(exc: BaseException, markup: Markup = PLAIN) -> str:
    """What a refusal tells the user: a store refusal, raised here or passed on by the table
    service (:class:`bot.tables.Refused`), phrased by :func:`sentence`; an error that is a user
    sentence already (any other :class:`bot.tables.TableError`, a refused option) in its own
    words."""
    if isinstance(exc, Refused):
        return sentence(exc.refusal, markup)
    return sentence(exc, markup) if isinstance(exc, StoreError) else str(exc)
