"""Replays and exports of stored games, rebuilt from the seed and the action log alone.

The engine contract makes this exact: ``new_match(players, rules, seed, shuffle)`` deals the same
cards on any machine, and applying the stored actions in ``seq`` order reproduces every event. The
shuffle is the way the game was dealt, as its stored state says (``stored_shuffle``). No Discord
import; the cogs show what this module computes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import presenter
from bot.games import GAMES, game_module
from bot.games.base import Action, GameError, stored_shuffle
from bot.i18n import N_, current, t
from bot.store.models import GameOutcome, GameRecord, Seat, former_member, is_pseudonym
from bot.verify import fair_deal_section, recorded_deals

__all__ = ["ReplayError", "Frame", "Replay", "player_names", "seat_label", "export_document", "deal_document",
           "FORMAT_VERSION", "action_words", "event_lines"]

log = logging.getLogger(__name__)

FORMAT_VERSION = 4  # 2: the record says how the deck was shuffled (``shuffle``); 3: ``fair_deal``;
# 4: ``replays_game_id``


class ReplayError(Exception):
    """The stored record cannot be replayed (unknown game, or an action the engine refuses)."""


def seat_label(seat: Seat) -> str:
    if is_pseudonym(seat):
        return former_member()
    if isinstance(seat, int):
        return f"<@{seat}>"
    level = str(seat).partition(":")[2] or str(seat)
    return f"AI ({level})"


def player_names(record: GameRecord) -> list[str]:
    """The names shown at the table (stored with the game), else mentions and AI labels."""
    try:
        names = json.loads(record.state_json).get("names")
    except (ValueError, AttributeError):
        names = None
    if (isinstance(names, list) and len(names) == len(record.players)
            and all(isinstance(n, str) and n for n in names)):
        return [former_member() if is_pseudonym(p) else n for p, n in zip(record.players, names, strict=True)]
    return [seat_label(p) for p in record.players]


def _acting_seat(match: Any, action: str) -> int | None:
    """The seat that sends ``action`` now: the seat to act, or in a slap race the slapper."""
    parsed = Action.parse(action)
    if parsed.kind == "slap" and parsed.card is not None and parsed.card.isdigit():
        return int(parsed.card)
    return match.current_player


def action_words(game: str, action: str | None) -> str:
    """A stored action in the words of its button at the table ('Crane and Sun → Pine',
    'Koi-Koi!'), never its engine text."""
    if not action:
        return ""
    try:
        return presenter.action_label(game, Action.parse(action))
    except Exception:  # an action this version cannot word must not stop the replay
        log.debug("no words for %s action %s", game, action)
        return "a move"


def event_lines(game: str, events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """What the events caused, in the lines the live table shows (events not worth a line, or
    that this version cannot word, are left out)."""
    lines = []
    for event in events:
        try:
            line = presenter.describe_event(game, event, names)
        except Exception:  # a line we cannot word must not stop the replay
            log.debug("no line for %s event %s", game, event.get("type"))
            continue
        if line:
            lines.append(line)
    return lines


@dataclass
class Frame:
    """The table after ``step`` stored actions (0: just dealt)."""

    step: int
    total: int
    match: Any
    events: list[dict[str, Any]]  # what the last action caused (the deal's events at step 0)
    seat: int | None = None  # who took the last action
    action: str | None = None
    actor: int | str | None = None
    at: datetime | None = None


@dataclass
class Replay:
    record: GameRecord
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        if self.record.game not in GAMES:
            raise ReplayError(t("this bot no longer knows the game {game}", game=repr(self.record.game)))
        self.names = player_names(self.record)

    @property
    def total(self) -> int:
        return len(self.record.events)

    @property
    def shuffle(self) -> int:
        """How the game's deck was shuffled (see ``bot.games.rng.SHUFFLES``)."""
        try:
            match = json.loads(self.record.state_json)["match"]
        except (ValueError, KeyError, TypeError):
            return 1  # no stored match: from before there was a second way
        try:
            return stored_shuffle(match)
        except (ValueError, AttributeError) as exc:
            raise ReplayError(t("its stored state no longer loads ({problem})", problem=exc)) from None

    def _new_match(self) -> Any:
        module = game_module(self.record.game)
        shuffle = self.shuffle
        try:
            rules = module.Rules.from_dict(dict(self.record.rules))
            return module.new_match(len(self.record.players), rules, self.record.seed, shuffle)
        except (GameError, TypeError, ValueError) as exc:
            raise ReplayError(t("its stored rules no longer load ({problem})", problem=exc)) from None

    def frame(self, step: int) -> Frame:
        """The table after ``step`` actions (clamped to the log)."""
        step = max(0, min(step, self.total))
        match = self._new_match()
        frame = Frame(step=step, total=self.total, match=match, events=list(match.intro_events))
        for logged in self.record.events[:step]:
            seat = _acting_seat(match, logged.action)
            try:
                events = match.apply(logged.action)
            except GameError as exc:
                raise ReplayError(t("move {seq} ({action}) no longer applies: {problem}", seq=logged.seq,
                                    action=logged.action, problem=exc)
                                  ) from None
            frame = Frame(step=step, total=self.total, match=match, events=events, seat=seat,
                          action=logged.action, actor=logged.actor, at=logged.created_at)
        return frame

    def deals(self) -> list[dict[str, Any]]:
        """Every deal of the game as the engine dealt it (see :func:`bot.verify.recorded_deals`)."""
        try:
            return recorded_deals(self._new_match, [logged.action for logged in self.record.events])
        except GameError as exc:
            raise ReplayError(t("a move no longer applies: {problem}", problem=exc)) from None

    def seats_and_intro(self) -> tuple[list[dict[str, Any]], list[int | None], Any]:
        """The deal's events, the seat of every stored action and the final match, in one pass."""
        match = self._new_match()
        intro = list(match.intro_events)
        seats: list[int | None] = []
        for logged in self.record.events:
            seats.append(_acting_seat(match, logged.action))
            try:
                match.apply(logged.action)
            except GameError as exc:
                raise ReplayError(t("move {seq} ({action}) no longer applies: {problem}", seq=logged.seq,
                                    action=logged.action, problem=exc)
                                  ) from None
        return intro, seats, match


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


_FORMAT_FIELDS: dict[str, str] = {
    "format": N_("This section: the name and version of the format, the language of these "
                  "explanations and what every field means."),
    "game_id": N_("The game number on its Discord server (as used by /replay and /export)."),
    "game": N_("The game's code: koikoi, gostop, mushi, sakura, hana_awase or shedding."),
    "title": N_("The game's display name."),
    "server_id": N_("The Discord server (guild) id, as a string (Discord ids exceed 2^53)."),
    "channel_id": N_("The Discord channel id of the table, as a string."),
    "status": N_("finished or cancelled (running games cannot be exported: their seed would reveal "
              "the cards)."),
    "created_at": N_("When the game started (ISO 8601, UTC)."),
    "ended_at": N_("When it ended (ISO 8601, UTC)."),
    "end_reason": N_("Why it ended, e.g. 'match over', 'forfeited', a timeout or a cancellation."),
    "replays_game_id": N_("The game this one played again (a rematch), null for a game of its "
                       "own: a chain of them is the series its final table tallies."),
    "stake": N_("Chips each seat escrowed at the start (0: no chips at stake)."),
    "chip_settlement": N_("How a staked game of this kind settles its chips."),
    "rules": N_("Every option of the game's rules as the engine used them (the game's Rules "
             "to_dict(); 'preset_name' names the preset they started from)."),
    "seed": N_("The shuffle seed: with the rules, the number of players and the shuffle it fixes "
            "every deal, bit for bit (the engine's own RNG, never Python's random)."),
    "shuffle": N_("How the engine shuffled the deck with the seed: 1 (games from before shuffle 2 "
               "existed) or 2 (one random draw serving several cards)."),
    "players": N_("The seats in order. Each: seat (0-based), kind ('human' or 'ai'), user_id (a "
               "Discord id as a string, null for AI), ai_level (null for humans) and name (as "
               "shown at the table)."),
    "intro_events": N_("Events of the deal before the first action (recomputed from the seed)."),
    "actions": N_("The action log in order. Each: seq (1, 2, ...), seat (who acted), actor (a "
               "Discord user id as a string, 'ai:<level>' for an AI seat, or 'timeout' when the "
               "bot moved for an absent player), action (the engine's action text, e.g. "
               "'play:crane' or 'koikoi'), at (ISO 8601 time) and events (what the action "
               "caused: JSON objects with a 'type' such as play, draw, yaku, round_over, "
               "match_over; cards are canonical ids such as 'crane' or 'pine_chaff_1')."),
    "result": N_("The end: scores (match points per seat from the final state), winners (seats), "
              "seats (per human seat: outcome won/lost/draw, points, rating_before and "
              "rating_after, null when the game was not rated) and payouts (seat -> chips paid "
              "out of the pot; refunds when cancelled)."),
    "replay": N_("A check made while exporting: the recorded actions were re-applied to a fresh "
              "deal from the seed; final_scores_match says whether the result agreed."),
    "fair_deal": N_("How the deal was committed (docs/fair-deals.md in the bot's source): "
                 "committed (false for games dealt before commitments); derivation (its "
                 "version); commitment (the SHA-256 shown before the deal); server_seed (the "
                 "secret, revealed now the game is over); inputs (the interactions mixed into the "
                 "seed, each a role and a Discord id as a string); deals (every deal as the engine "
                 "dealt it: round, deal (1, or more after a misdeal or redeal), dealer, seats "
                 "dealt, hands per seat, table (the face-up cards) and stock, top card first). "
                 "python -m bot.verify FILE checks it all."),
}


def deal_document(record: GameRecord) -> dict[str, Any]:
    """The part of an export :mod:`bot.verify` reads: enough to check every deal of the game."""
    replay = Replay(record)
    return {"game_id": record.game_id, "game": record.game, "players": list(record.players),
            "rules": dict(record.rules), "seed": record.seed, "shuffle": replay.shuffle,
            "fair_deal": fair_deal_section(record.deal, replay.deals())}


def export_document(record: GameRecord, outcome: GameOutcome, *, title: str,
                    chip_settlement: str) -> dict[str, Any]:
    """The whole game as a JSON-ready dict whose ``format`` section documents every field."""
    replay = Replay(record)
    intro, seats, final = replay.seats_and_intro()
    try:
        stored_scores = json.loads(record.state_json)["match"]["scores"]
    except (ValueError, KeyError, TypeError):
        stored_scores = None
    scores = list(final.scores)
    players = []
    for seat, p in enumerate(record.players):
        human = isinstance(p, int)
        players.append({
            "seat": seat, "kind": "human" if human else "ai",
            "user_id": str(p) if human else None,
            "ai_level": None if human else (str(p).partition(":")[2] or str(p)),
            "name": replay.names[seat],
        })
    won = sorted(r.seat for r in outcome.results if r.outcome == "won")
    drawn = any(r.outcome == "draw" for r in outcome.results)
    ai = [s for s, p in enumerate(record.players) if not isinstance(p, int)]
    winners = won
    if record.status == "finished" and not won and not drawn and ai:
        top = max(scores[s] for s in ai)  # every human lost: the best AI seat won
        winners = [s for s in ai if scores[s] == top]
    return {
        "format": {
            "name": "hanafuda-bot game record",
            "version": FORMAT_VERSION,
            "language": current(),
            "description": t("One Hanafuda game played through the Discord bot: the rules, the "
                             "seed and every action, enough to replay it exactly with the "
                             "bot's engine (bot.games.game_module(game).new_match(len(players), "
                             "Rules.from_dict(rules), seed, shuffle), then match.apply(action) in "
                             "seq order)."),
            "fields": {name: t(text) for name, text in _FORMAT_FIELDS.items()},
        },
        "game_id": record.game_id,
        "game": record.game,
        "title": title,
        "server_id": str(record.guild_id),
        "channel_id": str(record.channel_id),
        "status": record.status,
        "created_at": _iso(record.created_at),
        "ended_at": _iso(record.ended_at),
        "end_reason": record.end_reason,
        "replays_game_id": record.replays_game_id,
        "stake": record.stake,
        "chip_settlement": chip_settlement,
        "rules": dict(record.rules),
        "seed": record.seed,
        "shuffle": replay.shuffle,
        "players": players,
        "intro_events": intro,
        "actions": [
            {"seq": e.seq, "seat": seats[i],
             "actor": str(e.actor), "action": e.action, "at": _iso(e.created_at),
             "events": e.events}
            for i, e in enumerate(record.events)
        ],
        "result": {
            "scores": scores,
            "winners": winners,
            "seats": [
                {"seat": r.seat, "user_id": str(r.user_id), "outcome": r.outcome,
                 "points": r.points, "rating_before": r.rating_before,
                 "rating_after": r.rating_after}
                for r in outcome.results
            ],
            "payouts": {str(s): v for s, v in sorted(outcome.payouts.items())},
        },
        "replay": {"final_scores_match": stored_scores is None or stored_scores == scores},
        "fair_deal": fair_deal_section(record.deal, replay.deals()),
    }
