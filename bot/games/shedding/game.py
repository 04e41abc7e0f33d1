"""First Bloom, the flower shedding game of seed 002, for 2 to 5 players.

>>> from bot.games import shedding
>>> match = shedding.new_match(3, seed=7)
>>> events = match.apply(match.legal_actions()[0])

A round: deal 5 cards each (4 each with four or five players) and 4 face-up field cards, again
while three cards of a month lie on the field. The dealer moves first, then seat after seat. Each
move (see :mod:`.moves`) sheds cards to the discard pile or draws; the card it leaves on top of
the discard pile may hit the next player (bright: draws one and loses the turn; poetry ribbon:
draws one; blue ribbon: loses the turn). The field is topped up to 4 from the draw pile after
every move; an empty draw pile is replaced by the shuffled discard pile. The first to empty their
hand wins; with three or more players a RACE phase collects the slap order before the payout.

Seat ``s + 1`` plays after seat ``s``: the bot shows the seats in that order, so "to your left"
and "counter-clockwise" of the seed both mean the next seat.
"""

from __future__ import annotations

from typing import Any

from bot.cards import DECK, MONTH_MASKS, MONTH_OF, ids_in, indices_in

from ..base import (
    Action,
    Event,
    IllegalAction,
    Match,
    NotYourTurn,
    RoundResult,
    RoundState,
    detached,
    drawn_first_dealer,
    restored_match,
    seat_drawn_match,
    stored_shuffle,
)
from ..capture import _mask, deal
from ..rng import NEWEST_SHUFFLE, Rng
from . import moves as mv
from .payout import settlement
from .rules import Rules

PLAY = "play"
STRUGGLING = "struggle"  # the current player drew: 6A or 6B
RACE = "race"  # a player emptied their hand; the others slap
OVER = "over"

FIELD_SIZE = 4
_INDEX = {c.id: c.index for c in DECK}
_IDS = tuple(c.id for c in DECK)
REDEAL_COUNT = 3  # three cards of one month on the field: the deal is forfeited


def hand_size(num_players: int) -> int:
    """Cards dealt to each hand: 5 with two or three players, 4 with four or five."""
    return 5 if num_players <= 3 else 4


class SheddingRound(RoundState):
    """One round of First Bloom. Seat ``dealer`` moves first."""

    GAME = "shedding"
    VERSION = 1

    def __init__(self, num_players: int, rules: Rules, seed: int, dealer: int = 0,
                 round_number: int = 1, _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        if not 2 <= num_players <= 5:
            raise ValueError("First Bloom is a game for 2 to 5 players")
        self.num_players = num_players
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self.hands = [0] * num_players
        self.field = 0
        self.draw: list[int] = []  # face down; the top card is the last
        self.discard: list[int] = []  # face up; the top card is the last
        self.rng = Rng(seed)
        self.shuffle = shuffle  # the deal's and every reshuffle's way
        self.current: int | None = None
        self.phase = PLAY
        self.drawn: int | None = None  # the struggle card awaiting 6A or 6B
        self.turn = 0
        self.winner: int | None = None
        self.slaps: list[int] = []
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        self.last_move: list[Event] = []
        # Read on every move: copied from the class so that CPython reads it as an instance
        # attribute (see FishingRound._init_piles); a round nobody watches sets it False.
        self.narrated = self.narrated
        if not _restore:
            self._deal()

    # -- deal -------------------------------------------------------------------------------
    def _deal(self) -> None:
        n, size = self.num_players, hand_size(self.num_players)
        seats = [(self.dealer + 1 + i) % n for i in range(n)]  # the dealer is served last
        for _attempt in range(1000):
            piles, stock = deal(self.rng, [*((f"hand{s}", size) for s in seats),
                                           ("field", FIELD_SIZE)], size, self.shuffle)
            field = _mask(piles["field"])
            if max((field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)) < REDEAL_COUNT:
                break
            self.start_events.append({"type": "redeal", "field": ids_in(field)})
        else:  # pragma: no cover - 1000 forfeited deals in a row do not happen
            raise RuntimeError("could not deal")
        self.hands = [_mask(piles[f"hand{s}"]) for s in range(n)]
        self.field = field
        self.draw = stock
        self.current = self.dealer
        self.start_events.append({"type": "deal", "dealer": self.dealer, "hand_size": size,
                                  "field": ids_in(field)})

    # -- contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.current is None  # as the contract's, one attribute read instead of two calls

    def _legal_key(self) -> tuple | None:
        if self.phase == RACE:
            return None  # who may still slap is the race's own record
        p = self.current
        return (p, self.phase, self.field, self.drawn, bool(self.draw or self.discard),
                None if p is None else self.hands[p])

    def _legal_actions(self) -> list[Action]:
        p = self.current
        if p is None:
            return []
        if self.phase == STRUGGLING:
            return mv.struggle_actions(self.drawn, self.field, self.rules)
        if self.phase == RACE:
            return [Action(mv.SLAP, str(s)) for s in self._race_seats()] + [Action(mv.RACE_END)]
        return mv.play_actions(self.hands[p], self.field, self._can_draw(), self.rules)

    def check(self, action: Action | str, player: int | None = None) -> Action:
        """As :meth:`RoundState.check`, but in the race a slap may be sent by the slapping seat."""
        if self.phase != RACE:
            return RoundState.check(self, action, player)  # every move but the race's slaps
        if isinstance(action, str):
            action = Action.parse(action)
        if player is not None and action.kind == mv.SLAP and action.card == str(player):
            if str(player) not in [a.card for a in self.legal_actions()]:
                raise IllegalAction(f"seat {player} cannot slap now")
            return action
        if player is not None and player != self.current:
            raise NotYourTurn(f"seat {player} may only slap in the race")
        return super().check(action, player)

    def _apply(self, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase == RACE:
            self._race(action, events)
        elif self.phase == STRUGGLING:
            self._resolve_struggle(action, events)
        elif action.kind == mv.STRUGGLE:
            self._struggle(events)
        elif action.kind == mv.PASS:
            events.append({"type": "pass", "player": self.current})
            self._end_turn(None, events)
        else:
            self._end_turn(self._shed(action, events), events)
        self.last_move = events
        return events

    # -- piles ------------------------------------------------------------------------------
    def _can_draw(self) -> bool:
        return bool(self.draw or self.discard)

    def _draw_one(self, events: list[Event]) -> int | None:
        """The top card of the draw pile, reshuffling the discard pile when it is empty."""
        if not self.draw and self.discard:
            self.draw = self.discard
            self.discard = []
            self.rng.shuffle(self.draw, self.shuffle)
            events.append({"type": "reshuffle", "cards": len(self.draw)})
        return self.draw.pop() if self.draw else None

    def _refill_field(self, events: list[Event]) -> None:
        """Top the field up to four face-up cards (fewer only if no card can be drawn)."""
        while self.field.bit_count() < FIELD_SIZE:
            c = self._draw_one(events)
            if c is None:
                return
            self.field |= 1 << c
            if self.narrated:
                events.append({"type": "field", "card": DECK[c].id})

    # -- moves ------------------------------------------------------------------------------
    def _shed(self, action: Action, events: list[Event]) -> int | None:
        """Moves 1-5; returns the card whose effect hits the next player (None: no effect)."""
        p = self.current
        top = _INDEX[action.card]
        month = self.hands[p] & MONTH_OF[top]
        if action.kind == mv.MATCH:
            target = _INDEX[action.target]
            placed, taken = [target, top], 1 << target
            self.hands[p] &= ~(1 << top)
        elif action.kind == mv.FIELD_PAIR:
            a, b = mv.parse_field_pair(action.target)
            placed, taken = [a, b], (1 << a) | (1 << b)
            self.hands[p] &= ~(1 << top)
        elif action.kind == mv.PAIR:
            under = _INDEX[action.target]
            placed, taken = [under, top], 0
            self.hands[p] &= ~((1 << top) | (1 << under))
        else:  # FIELD_HIKI or HAND_HIKI: the whole month in hand, ``top`` last
            field_card = self.field & MONTH_OF[top] if action.kind == mv.FIELD_HIKI else 0
            placed = [*indices_in(field_card), *(c for c in indices_in(month) if c != top), top]
            taken = field_card
            self.hands[p] &= ~month
        self.field &= ~taken
        self.discard.extend(placed)  # one by one: the last is the new top
        if self.narrated:
            events.append({"type": action.kind, "player": p, "cards": [_IDS[c] for c in placed],
                           "top": _IDS[placed[-1]]})
        if action.kind == mv.FIELD_PAIR:
            self.field |= 1 << top
            events.append({"type": "to_field", "player": p, "card": action.card})
        self._refill_field(events)
        return None if action.kind == mv.FIELD_PAIR else top

    def _struggle(self, events: list[Event]) -> None:
        p = self.current
        self.drawn = self._draw_one(events)
        self.phase = STRUGGLING
        events.append({"type": "struggle", "player": p})
        choices = mv.struggle_actions(self.drawn, self.field, self.rules)  # as _legal_actions
        if len(choices) == 1:  # no choice to make: 6B for a card that matches nothing
            self._resolve_struggle(choices[0], events, forced=True)

    def _resolve_struggle(self, action: Action, events: list[Event], forced: bool = False) -> None:
        p, d = self.current, self.drawn
        self.drawn = None
        self.phase = PLAY
        if action.kind == mv.KEEP:
            self.hands[p] |= 1 << d
            events.append({"type": "keep", "player": p, "forced": forced})
        else:
            f = _INDEX[action.target]
            self.field &= ~(1 << f)
            self.discard.extend([f, d])
            events.append({"type": mv.STRUGGLE_MATCH, "player": p, "cards": [DECK[f].id, DECK[d].id],
                           "forced": forced})
            self._refill_field(events)
        self._end_turn(None, events)

    # -- end of a turn: win, effects, the next player ---------------------------------------
    def _end_turn(self, effect_card: int | None, events: list[Event]) -> None:
        p = self.current
        self.turn += 1
        if not self.hands[p]:
            self._win(p, events)
            return
        if self.rules.turn_limit and self.turn >= self.rules.turn_limit:
            events.append({"type": "turn_limit", "turns": self.turn})
            self._finish({"kind": "turn_limit", "winner": None, "hands": self._all_hands(),
                          "points": [0] * self.num_players})
            events.append({"type": "round_end", **self.outcome})
            return
        n = self.num_players
        nxt = (p + 1) % n
        effect = None if effect_card is None else mv.effect_of(effect_card, self.rules)
        if effect in (mv.BRIGHT, mv.POETRY):
            c = self._draw_one(events)
            if c is not None:
                self.hands[nxt] |= 1 << c
            events.append({"type": "effect", "effect": effect, "player": nxt,
                           "drew": c is not None, "card": DECK[effect_card].id})
        elif effect == mv.SKIP:
            events.append({"type": "effect", "effect": effect, "player": nxt,
                           "card": DECK[effect_card].id})
        self.current = (nxt + 1) % n if effect in (mv.BRIGHT, mv.SKIP) else nxt
        if self.narrated:
            events.append({"type": "turn", "player": self.current})

    def _win(self, p: int, events: list[Event]) -> None:
        self.winner = p
        events.append({"type": "first", "player": p})
        if self.num_players > 2:
            self.phase = RACE
            self.slaps = []
            events.append({"type": "race", "winner": p, "seats": self._race_seats()})
            return
        self._settle(events)

    def _race_seats(self) -> list[int]:
        return [s for s in range(self.num_players) if s != self.winner and s not in self.slaps]

    def _race(self, action: Action, events: list[Event]) -> None:
        if action.kind == mv.SLAP:
            seat = int(action.card)
            self.slaps.append(seat)
            events.append({"type": "slap", "player": seat, "position": len(self.slaps)})
            if self._race_seats():
                return
        else:
            events.append({"type": "race_end", "missing": self._race_seats()})
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        hands = self._all_hands()
        money = settlement(hands, self.winner, self.slaps, self.rules)
        self._finish({"kind": "shed", "winner": self.winner, "hands": hands, **money})
        events.append({"type": "round_end", **self.outcome})

    def _all_hands(self) -> list[list[str]]:
        return [ids_in(h) for h in self.hands]

    def _finish(self, detail: dict[str, Any]) -> None:
        self.outcome = detail
        self.phase = OVER
        self.current = None

    def result(self) -> RoundResult | None:
        if self.outcome is None:
            return None
        o = self.outcome
        nxt = (self.dealer + 1) % self.num_players if self.rules.next_dealer == "rotate" else None
        return RoundResult(points=list(o["points"]), winner=o["winner"], next_dealer=nxt,
                           reason=o["kind"], detail=dict(o))

    # -- observation and persistence ----------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand, hand sizes, field, the face-up discard pile, counts."""
        mine = player == self.current
        return {
            "game": self.GAME,
            "seat": player,
            "num_players": self.num_players,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "round_number": self.round_number,
            "hand": ids_in(self.hands[player]),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "field": ids_in(self.field),
            "draw_count": len(self.draw),
            "discard": [DECK[c].id for c in self.discard],
            "discard_top": DECK[self.discard[-1]].id if self.discard else None,
            "current_player": self.current,
            "phase": self.phase,
            "drawn": DECK[self.drawn].id if mine and self.drawn is not None else None,
            "turn": self.turn,
            "winner": self.winner,
            "slaps": list(self.slaps),
            "race_seats": self._race_seats() if self.phase == RACE else [],
            "last_move": [dict(e) for e in self.last_move],
            "legal_actions": [str(a) for a in self.legal_actions()] if mine else [],
            "outcome": self.outcome,
        }

    def to_dict(self) -> dict[str, Any]:
        data = {
            "game": self.GAME, "version": self.VERSION, "rules": self.rules.to_dict(),
            "num_players": self.num_players, "seed": self.seed, "dealer": self.dealer,
            "round_number": self.round_number,
            "hands": [indices_in(h) for h in self.hands], "field": indices_in(self.field),
            "draw": list(self.draw), "discard": list(self.discard), "rng": self.rng.getstate(),
            "current": self.current, "phase": self.phase, "drawn": self.drawn, "turn": self.turn,
            "winner": self.winner, "slaps": list(self.slaps), "outcome": self.outcome,
            "start_events": self.start_events, "last_move": self.last_move,
        }
        data = detached(data)
        if self.shuffle != 1:  # as Match.to_dict: absent means the only way there once was
            data["shuffle"] = self.shuffle
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SheddingRound:
        if data.get("game") != cls.GAME or data.get("version") != cls.VERSION:
            raise ValueError(f"not a shedding round state of version {cls.VERSION}")
        self = cls(data["num_players"], Rules.from_dict(data["rules"]), data["seed"],
                   data["dealer"], data["round_number"], _restore=True, shuffle=stored_shuffle(data))
        self.hands = [_mask(h) for h in data["hands"]]
        self.field = _mask(data["field"])
        self.draw = list(data["draw"])
        self.discard = list(data["discard"])
        self.rng = Rng.from_state(data["rng"])
        self.current = data["current"]
        self.phase = data["phase"]
        self.drawn = data["drawn"]
        self.turn = data["turn"]
        self.winner = data["winner"]
        self.slaps = list(data["slaps"])
        self.outcome = data["outcome"]
        self.start_events = list(data["start_events"])
        self.last_move = list(data["last_move"])
        return self


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> SheddingRound:
    return SheddingRound(num_players, rules or _DEFAULT_RULES, seed, dealer, round_number, shuffle=shuffle)


first_dealer = drawn_first_dealer  # the seed leaves the choice of the first dealer open


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A First Bloom match for 2 to 5 players; the first dealer is drawn from the seed."""
    if not 2 <= num_players <= 5:
        raise ValueError("First Bloom is a game for 2 to 5 players")
    return seat_drawn_match(SheddingRound.GAME, num_players, rules or Rules(), seed, new_round,
                            SheddingRound.from_dict, shuffle)


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)


__all__ = ["SheddingRound", "new_round", "new_match", "match_from_dict", "first_dealer",
           "hand_size", "PLAY", "STRUGGLING", "RACE", "OVER"]
