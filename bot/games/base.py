"""The engine contract shared by every game (think OpenSpiel's State, python-chess's Board).

A game module offers a ``Rules`` object (frozen, JSON-friendly, with named presets), a round
state class implementing :class:`RoundState`, and uses :class:`Match` for several rounds with dealer
rotation and cumulative scores. The bot, the AI players, persistence and replays only use what is
declared here, so they work for every game alike.

Actions are small immutable values with a stable text form (``"play:crane"``,
``"play:sake_cup>chrysanthemum_chaff_1"``, ``"koikoi"``) that fits in a Discord custom id. Events
are plain JSON dicts with a ``"type"`` key.
"""

from __future__ import annotations

import contextvars
import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.refusal import Refusal

from .rng import NEWEST_SHUFFLE, SHUFFLES, Rng

Event = dict[str, Any]

__all__ = [
    "Action",
    "Event",
    "GameError",
    "IllegalAction",
    "NotYourTurn",
    "GameOver",
    "InvalidRules",
    "RulesBase",
    "RoundState",
    "RoundResult",
    "Match",
    "DEAL_WATCH",
]

DEAL_WATCH: contextvars.ContextVar[Callable[[RoundState], None] | None] = contextvars.ContextVar(
    "deal_watch", default=None)
"""Called with every round a :class:`Match` deals, before anything acts on it: a round the deal
itself decides is over before any move, so a replay that writes down every deal (the fair-deal
record, :mod:`bot.verify`) watches here rather than between moves."""


class GameError(Refusal):
    """Base class of every rule violation. One raised with a ``code`` carries its facts as
    keywords (attributes too, and kept in ``facts``) and the presenter layer phrases it
    (:func:`bot.presenters.problems.rules_problem`); one raised with a message alone says it in
    plain English. ``str()`` of either is plain English, the same in every language."""


class IllegalAction(GameError):
    """The action is not one of the legal actions now."""


class NotYourTurn(GameError):
    """A player acted while another player is to act."""


class GameOver(GameError):
    """An action was sent to a finished round or match."""


class InvalidRules(GameError, ValueError):
    """A rules option has a value it does not allow."""


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One move. ``kind`` names it; ``card`` and ``target`` are canonical card ids when used."""

    kind: str
    card: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        text = self.kind
        if self.card is not None:
            text += f":{self.card}"
            if self.target is not None:
                text += f">{self.target}"
        return text

    @classmethod
    def parse(cls, text: str) -> Action:
        """Inverse of ``str(action)``."""
        kind, _, rest = text.partition(":")
        if not rest:
            return cls(kind)
        card, _, target = rest.partition(">")
        return cls(kind, card, target or None)


class RulesBase:
    """Mixin for each game's frozen ``Rules`` dataclass: presets, validation, JSON."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    CHOICES: ClassVar[dict[str, tuple]] = {}
    """Allowed values of the enumerated options; checked by :meth:`validate`."""

    def validate(self) -> None:
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidRules(code="not_a_choice", name=name, values=tuple(allowed), value=value)

    def __post_init__(self) -> None:
        self.validate()

    # Checks that every game's Rules shares (they need the preset_name, rounds and
    # target_score fields).
    def _check_preset_name(self) -> None:
        if self.preset_name not in self.PRESETS:
            raise InvalidRules(code="not_a_preset", values=tuple(self.PRESETS), value=self.preset_name)

    def _check_whole_numbers(self, ranges: dict[str, tuple[int, int]]) -> None:
        """Each option named in ``ranges`` is a whole number within its (low, high)."""
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidRules(code="whole_number", name=name, low=low, high=high, value=value)

    def _check_match_length(self, high: int | None = 1000) -> None:
        """rounds and target_score are whole numbers (0..high, unless checked already); not both 0."""
        if high is not None:
            self._check_whole_numbers({"rounds": (0, high), "target_score": (0, high)})
        if self.rounds == 0 and self.target_score == 0:
            raise InvalidRules(code="match_length")

    @classmethod
    def preset(cls, name: str, **changes: Any):
        """The named preset, optionally with some options changed."""
        if name not in cls.PRESETS:
            raise InvalidRules(code="unknown_preset", name=name, values=tuple(cls.PRESETS))
        return cls.from_dict({**cls.PRESETS[name], "preset_name": name, **changes})

    def replace(self, **changes: Any):
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = dict(value) if isinstance(value, tuple) and f.name.endswith("points") else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]):
        names = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(names)
        if unknown:
            raise InvalidRules(code="unknown_options", names=tuple(sorted(unknown)))
        values = {}
        for key, value in data.items():
            if isinstance(value, dict):
                value = tuple(sorted(value.items()))
            elif isinstance(value, list):
                value = tuple(value)
            values[key] = value
        try:
            return cls(**values)
        except TypeError as exc:
            raise InvalidRules(str(exc)) from None


@dataclass(slots=True)
class RoundResult:
    """How a round ended. ``points[i]`` is what seat ``i`` adds to its match score."""

    points: list[int]
    winner: int | None  # None: a draw / no winner
    next_dealer: int | None = None  # None: let the match decide (winner deals, else same dealer)
    reason: str = ""
    detail: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        # What dataclasses.asdict gives for a round's plain data, without its copy.deepcopy of
        # every string and number: that was a third of the time of playing a match out.
        return {"points": list(self.points), "winner": self.winner,
                "next_dealer": self.next_dealer, "reason": self.reason,
                "detail": detached(self.detail)}


class RoundState(ABC):
    """One round (hand) of a game. Concrete games implement the abstract methods."""

    GAME: ClassVar[str]
    VERSION: ClassVar[int] = 1

    num_players: int
    rules: Any
    _legal: tuple[Any, list[Action]] | None = None  # (position key, its legal actions)
    #: False for a round nobody watches (the search's sampled worlds): the shared capture moves
    #: then build no events and no last move, only the position and its outcome change.
    narrated: bool = True

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, or None when the round is over."""

    @property
    def is_over(self) -> bool:
        return self.current_player is None

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now (a new list: the caller may change it)."""
        return list(self._legal_now())

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Generate the legal actions of this position."""

    def _legal_key(self) -> Any:
        """What this position's legal actions depend on, or None to generate them every time.
        Choosing a move and checking it then share one generation, and a position changed by
        ``_apply`` directly (the search's rollouts) is told apart by its key."""
        return None

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Apply a legal action (already checked)."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-friendly data; never a hidden card."""

    @abstractmethod
    def result(self) -> RoundResult | None:
        """The outcome once the round is over."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundState: ...

    def check(self, action: Action | str, player: int | None = None) -> Action:
        """The action as an :class:`Action` if ``player`` may take it now; raises otherwise."""
        if isinstance(action, str):
            action = Action.parse(action)
        if self.current_player is None:
            raise GameOver("this round is over")
        if player is not None and player != self.current_player:
            raise NotYourTurn(f"it is seat {self.current_player}'s turn, not seat {player}'s")
        legal = self._legal_now()
        for kept in legal:  # a pick from legal_actions() is found by identity, without __eq__
            if kept is action:
                return action
        if action not in legal:
            raise IllegalAction(f"{action} is not a legal move now")
        return action

    def _legal_now(self) -> list[Action]:
        """The legal actions, kept while the position's key stays the same (not a copy: a
        player's pick is then found among them by identity)."""
        key = self._legal_key()
        kept = self._legal
        if key is None or kept is None or kept[0] != key:
            kept = self._legal = (key, self._legal_actions())
        return kept[1]

    def apply(self, action: Action | str, player: int | None = None) -> list[Event]:
        """Apply ``action`` for ``player`` (default: whoever is to act) and return its events.

        An illegal, out-of-turn or late action raises a :class:`GameError` and changes nothing.
        """
        kept = self._legal
        if kept is not None and kept[0] is not None and kept[0] == self._legal_key() \
                and (player is None or player == self.current_player):
            # The position has not moved since it handed out its legal actions: one of those
            # very objects (a player's pick) needs no other check.
            for legal in kept[1]:
                if legal is action:
                    break
            else:
                action = self.check(action, player)
        else:
            action = self.check(action, player)
        events = self._apply(action)
        self._legal = None  # what a key leaves out (a game's own counters) may have moved
        return events

    def clone(self) -> RoundState:
        return type(self).from_dict(self.to_dict())


class Match:
    """Several rounds of one game: dealer rotation, cumulative scores, match end.

    ``new_round(num_players, rules, seed, dealer, round_number, carry, shuffle)`` builds each
    round; ``carry`` is a dict the previous round's result may use to pass state on (for example
    the Go-Stop nagari multiplier), ``shuffle`` the way every round of the match shuffles its deck
    (one of :data:`bot.games.rng.SHUFFLES`, kept in the stored state). The match ends after
    ``rules.rounds`` rounds (0 = no limit), when a seat reaches ``rules.target_score`` (0 = no
    target) or when a seat has lost all of ``rules.bankroll`` (zero-sum games; 0 = none),
    whichever comes first.
    """

    VERSION = 1

    def __init__(
        self,
        game: str,
        num_players: int,
        rules: Any,
        seed: int,
        new_round: Callable[..., RoundState],
        round_from_dict: Callable[[dict[str, Any]], RoundState],
        first_dealer: int = 0,
        shuffle: int = NEWEST_SHUFFLE,
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.rules = rules
        self.seed = seed
        self.shuffle = shuffle
        self._new_round = new_round
        self._round_from_dict = round_from_dict
        self.scores = [0] * num_players
        self._rounds: list[str] = []  # each finished round's result, as JSON text (see history)
        self.dealer = first_dealer
        self.round_number = 1
        self.carry: dict[str, Any] = {}
        self.finished = False
        self.round = self._start_round()
        self.intro_events: list[Event] = list(getattr(self.round, "start_events", []))
        if self.round.is_over:  # a round decided by the deal itself (e.g. a dealt teyaku)
            self.intro_events.extend(self._finish_round())

    # -- the contract -----------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.round.current_player

    @property
    def is_over(self) -> bool:
        return self.finished

    def legal_actions(self) -> list[Action]:
        return [] if self.finished else self.round.legal_actions()

    def apply(self, action: Action | str, player: int | None = None) -> list[Event]:
        if self.finished:
            raise GameOver("this match is over")
        events = self.round.apply(action, player)
        if self.round.is_over:
            events.extend(self._finish_round())
        return events

    def observation(self, player: int) -> dict[str, Any]:
        obs = self.round.observation(player)
        obs["match"] = {
            "round": self.round_number,
            "rounds": getattr(self.rules, "rounds", 0),
            "target_score": getattr(self.rules, "target_score", 0),
            "bankroll": getattr(self.rules, "bankroll", 0),
            "scores": list(self.scores),
            "finished": self.finished,
        }
        return obs

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]

    def winning_team(self) -> list[int] | None:
        """The seats of the team that won together (games with teams, ``rules.sides``), else None:
        several winners are then a team, not a tie."""
        sides = getattr(self.rules, "sides", None)
        if sides is None:
            return None
        winners = set(self.winners())
        return next((list(side) for side in sides(self.num_players)
                     if len(side) > 1 and set(side) == winners), None)

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every finished round's result, oldest first: a new copy at each read.

        Kept as JSON text, the form they are stored in: a match's results are dozens of small
        lists and dicts, and every full pass of the garbage collector walked them for every table
        in play (a string is not walked)."""
        return [json.loads(r) for r in self._rounds]

    # -- internals --------------------------------------------------------------------------
    def _keep_round(self, result: RoundResult) -> None:
        self._rounds.append(_compact({"round": self.round_number, "dealer": self.dealer,
                                      **result.to_dict()}))

    def _round_seed(self) -> int:
        return Rng(self.seed).fork(self.round_number).next64()

    def _start_round(self) -> RoundState:
        state = self._new_round(
            num_players=self.num_players,
            rules=self.rules,
            seed=self._round_seed(),
            dealer=self.dealer,
            round_number=self.round_number,
            carry=dict(self.carry),
            shuffle=self.shuffle,
        )
        watch = DEAL_WATCH.get()
        if watch is not None:
            watch(state)
        return state

    def _finish_round(self) -> list[Event]:
        result = self.round.result()
        assert result is not None
        for i, p in enumerate(result.points):
            self.scores[i] += p
        self._keep_round(result)
        self.carry = dict(result.detail.get("carry", {}))
        if result.next_dealer is not None:
            self.dealer = result.next_dealer
        elif result.winner is not None:
            self.dealer = result.winner
        events: list[Event] = [
            {"type": "round_over", "round": self.round_number, "scores": list(self.scores),
             **result.to_dict()}
        ]
        rounds = getattr(self.rules, "rounds", 0)
        target = getattr(self.rules, "target_score", 0)
        bankroll = getattr(self.rules, "bankroll", 0)  # points each seat may lose, zero-sum games
        if bankroll:
            events[0]["bankroll"] = bankroll  # so the round's summary can say what each has left
        if (rounds and self.round_number >= rounds) or (target and max(self.scores) >= target) \
                or (bankroll and min(self.scores) <= -bankroll):
            self.finished = True
            over: Event = {"type": "match_over", "scores": list(self.scores), "winners": self.winners()}
            team = self.winning_team()
            if team is not None:
                over["team"] = team
            events.append(over)
            return events
        self.round_number += 1
        self.round = self._start_round()
        events.append({"type": "round_start", "round": self.round_number, "dealer": self.dealer})
        events.extend(getattr(self.round, "start_events", []))
        if self.round.is_over:  # decided by the deal: report it and go on
            events.append({"type": "round_end", **(self.round.result().detail)})
            events.extend(self._finish_round())
        return events

    def to_dict(self) -> dict[str, Any]:
        data = {
            "version": self.VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "scores": list(self.scores),
            "history": self.history,
            "dealer": self.dealer,
            "round_number": self.round_number,
            "carry": detached(self.carry),
            "finished": self.finished,
            "round": self.round.to_dict(),
        }
        if self.shuffle != 1:  # a state without it was stored before there was another way
            data["shuffle"] = self.shuffle
        return data

    def _restore(self, data: dict[str, Any]) -> None:
        if data.get("version") != self.VERSION:
            raise ValueError(f"unsupported match state version {data.get('version')}")
        self.scores = list(data["scores"])
        self._rounds = [_compact(h) for h in data["history"]]
        self.dealer = data["dealer"]
        self.round_number = data["round_number"]
        self.carry = detached(data["carry"])
        self.finished = data["finished"]
        self.round = self._round_from_dict(detached(data["round"]))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def detached(value: Any) -> Any:
    """``value`` with every list and dict copied, at every depth: a stored state is a value, so a
    snapshot taken before a move still says what was there if the move is rolled back."""
    if isinstance(value, list):
        return [detached(v) for v in value]
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    return value


def stored_shuffle(data: dict[str, Any]) -> int:
    """The way a stored match (its ``to_dict()``) shuffles: one of ``SHUFFLES``; a state that does
    not say was stored when version 1 was the only one."""
    shuffle = data.get("shuffle", 1)
    if shuffle not in SHUFFLES:
        raise ValueError(f"unknown shuffle version {shuffle!r}")
    return shuffle


def restored_match(new_match: Callable[..., Any], rules_cls: Any, data: dict[str, Any]) -> Any:
    """A stored match (its ``to_dict()``) dealt again by the game's ``new_match`` the way it was
    dealt (:func:`stored_shuffle`), then brought to where it was."""
    match = new_match(data["num_players"], rules_cls.from_dict(data["rules"]), data["seed"],
                      stored_shuffle(data))
    match._restore(data)
    return match


def drawn_first_dealer(num_players: int, seed: int) -> int:
    """The first dealer as a seat drawn from the seed, for games whose sources leave it open."""
    return Rng(seed).fork(0).below(num_players)


def seat_drawn_match(game: str, num_players: int, rules: Any, seed: int, new_round: Any,
                     round_from_dict: Any, shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A match whose first dealer is :func:`drawn_first_dealer`, announced before the match's
    own opening events."""
    dealer = drawn_first_dealer(num_players, seed)
    match = Match(game, num_players, rules, seed, new_round, round_from_dict, first_dealer=dealer,
                  shuffle=shuffle)
    match.intro_events.insert(0, {"type": "first_dealer", "dealer": dealer})
    return match
