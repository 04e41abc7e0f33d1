"""One hand of Seotda: ante, deal, betting, (three-card: third card, keep two, betting), showdown.

>>> from bot.games import seotda
>>> match = seotda.new_match(3, seed=7)
>>> events = match.apply(match.legal_actions()[0])

Chips: ``stacks`` are what each seat still has behind, ``in_pot`` what it has put in this hand
(across redeals); their sum never changes within a hand. The hand's result pays every pot to its
winners and reports each seat's net (won - put in), so a match's scores are chips won or lost.
"""

from __future__ import annotations

from typing import Any

from ..base import (
    Action,
    Event,
    GameError,
    Match,
    RoundResult,
    RoundState,
    detached,
    drawn_first_dealer,
    restored_match,
    seat_drawn_match,
    stored_shuffle,
)
from ..rng import NEWEST_SHUFFLE, Rng
from .hands import DECK, Hand, best_two, evaluate, showdown
from .rules import Rules

BET = "bet"
KEEP = "keep"  # three-card: choose the two cards to play
OVER = "over"

CHECK, BBING, CALL, HALF, DDADANG, DIE, ALLIN = "check", "bbing", "call", "half", "ddadang", "die", "allin"
RAISES = (BBING, HALF, DDADANG)
BET_KINDS = (CHECK, BBING, CALL, HALF, DDADANG, ALLIN, DIE)


class ShortStack(GameError):
    """A bet larger than what the player has behind."""


class SeotdaRound(RoundState):
    """One hand (pot) of Seotda, redeals included; seat ``dealer`` bets first."""

    GAME = "seotda"
    VERSION = 1

    def __init__(self, num_players: int, rules: Rules, seed: int, dealer: int = 0,
                 round_number: int = 1, stacks: list[int] | None = None, _restore: bool = False,
                 shuffle: int = NEWEST_SHUFFLE) -> None:
        if not 2 <= num_players <= 6:
            raise ValueError("Seotda is a game for 2 to 6 players")
        self.num_players = n = num_players
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self.rng = Rng(seed)
        self.shuffle = shuffle  # every redeal of the hand shuffles this way
        self.stacks = list(stacks) if stacks is not None else [rules.buy_in] * n
        self.in_pot = [0] * n
        self.round_bets = [0] * n
        self.live = [s > 0 for s in self.stacks]
        self.all_in = [False] * n
        self.acted = [False] * n
        self.called = [False] * n
        self.current_bet = 0
        self.raises = 0
        self.street = 1
        self.phase = BET
        self.current: int | None = None
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.kept: list[list[str] | None] = [None] * n
        self.stock: list[str] = []
        self.redeals = 0
        self.history: list[dict[str, Any]] = []  # this deal's public bets
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        self.last_move: list[Event] = []
        if not _restore:
            self.start_events = self._ante() + self._deal()
            if self.current is None:  # nobody can bet (everyone all in on the ante)
                self.start_events += self._end_of_betting()

    # -- chips ------------------------------------------------------------------------------
    @property
    def pot(self) -> int:
        """Chips in the middle (0 once the hand is paid out; ``in_pot`` keeps who put in what)."""
        return 0 if self.phase == OVER else sum(self.in_pot)

    def _put(self, seat: int, chips: int) -> int:
        if chips > self.stacks[seat]:
            raise ShortStack(f"seat {seat} has {self.stacks[seat]} chips, not {chips}")
        self.stacks[seat] -= chips
        self.in_pot[seat] += chips
        self.round_bets[seat] += chips
        if self.stacks[seat] == 0:
            self.all_in[seat] = True
        return chips

    def _ante(self) -> list[Event]:
        antes = {}
        for seat in range(self.num_players):
            if self.live[seat]:
                antes[seat] = self._put(seat, min(self.rules.ante, self.stacks[seat]))
        self.round_bets = [0] * self.num_players  # the ante is not a bet of the first round
        return [{"type": "ante", "antes": {str(s): c for s, c in antes.items()}, "pot": self.pot}]

    # -- dealing ----------------------------------------------------------------------------
    def _order(self, first: int) -> list[int]:
        return [(first + i) % self.num_players for i in range(self.num_players)]

    def _deal(self) -> list[Event]:
        deck = list(DECK)
        self.rng.shuffle(deck, self.shuffle)
        seats = [s for s in self._order(self.dealer + 1) if self.live[s]]
        self.hands = [[] for _ in range(self.num_players)]
        self.kept = [None] * self.num_players
        for _ in range(2):
            for s in seats:
                self.hands[s].append(deck.pop())
        self.stock = deck
        self.street = 1
        self.history = []
        self._start_betting()
        return [{"type": "deal", "dealer": self.dealer, "players": sorted(seats), "redeal": self.redeals,
                 "pot": self.pot}]

    def _start_betting(self) -> None:
        n = self.num_players
        self.phase = BET
        self.round_bets = [0] * n
        self.acted = [False] * n
        self.called = [False] * n
        self.current_bet = 0
        self.raises = 0
        self.current = self._first_to_act()

    def _able(self, seat: int) -> bool:
        return self.live[seat] and not self.all_in[seat]

    def _first_to_act(self) -> int | None:
        able = [s for s in self._order(self.dealer) if self._able(s)]
        if len(able) == 0 or (len(able) == 1 and self.round_bets[able[0]] >= self.current_bet):
            return None
        return able[0]

    # -- contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.current

    def _legal_key(self) -> tuple:
        return (self.current, self.phase, self.street, self.current_bet, self.raises, self.redeals,
                tuple(self.stacks), tuple(self.round_bets), tuple(self.called), len(self.history))

    def costs(self, seat: int) -> dict[str, int]:
        """The chips each betting action would put in now for ``seat`` (its legal ones only)."""
        if self.phase != BET or seat != self.current:
            return {}
        stack = self.stacks[seat]
        to_call = self.current_bet - self.round_bets[seat]
        out: dict[str, int] = {}
        if to_call <= 0:
            out[CHECK] = 0
        elif stack >= to_call:
            out[CALL] = to_call
        elif self.rules.short_stack == "all_in":
            out[ALLIN] = stack
        others_can_answer = any(self._able(s) for s in range(self.num_players) if s != seat)
        if not self.called[seat] and self.raises < self.rules.max_raises and others_can_answer:
            if self.current_bet == 0:
                raises = {BBING: self.rules.ante}
            else:
                after_call = self.pot + to_call
                raises = {HALF: to_call + (after_call + 1) // 2, DDADANG: 2 * self.current_bet - self.round_bets[seat]}
            out.update({k: v for k, v in raises.items() if v <= stack})
        out[DIE] = 0
        return out

    def _legal_actions(self) -> list[Action]:
        p = self.current
        if p is None:
            return []
        if self.phase == KEEP:
            cards = self.hands[p]
            return [Action(KEEP, a, b) for i, a in enumerate(cards) for b in cards[i + 1:]]
        return [Action(kind) for kind in BET_KINDS if kind in self.costs(p)]

    def timeout_action(self) -> Action | None:
        """What a player who lets the turn time run out does: dies (the issue's rule; a table
        runs it instead of an AI move); in the three-card keep, keeps the best two."""
        if self.current is None:
            return None
        if self.phase == KEEP:
            specials = self.rules.special_hands
            return max(self._legal_now(), key=lambda a: evaluate([a.card, a.target], specials).strength)
        return Action(DIE)

    def _apply(self, action: Action) -> list[Event]:
        p = self.current
        assert p is not None
        if self.phase == KEEP:
            self.kept[p] = [action.card, action.target]
            events: list[Event] = [{"type": "keep", "player": p}]
            nxt = self._next_keeper(p)
            if nxt is None:
                self.street = 2
                self._start_betting()
                events.append({"type": "betting", "street": 2})
                if self.current is None:
                    events += self._end_of_betting()
            else:
                self.current = nxt
            self.last_move = events
            return events
        kind = action.kind
        chips = self.costs(p)[kind]
        if kind == DIE:
            self.live[p] = False
        else:
            self._put(p, chips)
            if kind in RAISES:
                self.raises += 1
                self.current_bet = self.round_bets[p]
                for s in range(self.num_players):
                    if s != p:
                        self.acted[s] = False
            elif kind == CALL:
                self.called[p] = True
        self.acted[p] = True
        bet = {"player": p, "action": kind, "amount": chips, "to": self.round_bets[p]}
        self.history.append(bet)
        events = [{"type": "bet", **bet, "pot": self.pot}]
        nxt = self._next_bettor(p)
        if nxt is None:
            events += self._end_of_betting()
        else:
            self.current = nxt
        self.last_move = events
        return events

    def _next_bettor(self, after: int) -> int | None:
        if sum(self.live) <= 1:
            return None
        for s in self._order(after + 1):
            if self._able(s) and (not self.acted[s] or self.round_bets[s] < self.current_bet):
                others = any(self._able(o) for o in range(self.num_players) if o != s)
                if not others and self.round_bets[s] >= self.current_bet:
                    continue  # nobody left to bet against
                return s
        return None

    def _next_keeper(self, after: int) -> int | None:
        order = self._order(after + 1)
        return next((s for s in order if self.live[s] and self.kept[s] is None), None)

    # -- the end of a betting round, of a deal, of the hand ------------------------------------
    def _end_of_betting(self) -> list[Event]:
        self.current = None
        live = [s for s in range(self.num_players) if self.live[s]]
        if len(live) == 1:
            return self._award({0: (self.pot, live)}, None, reason="others_died")
        if self.rules.cards == 3 and self.street == 1:
            for s in self._order(self.dealer + 1):
                if self.live[s]:
                    self.hands[s].append(self.stock.pop())
            self.phase = KEEP
            self.current = next(s for s in self._order(self.dealer) if self.live[s])
            return [{"type": "third_card", "players": live}]
        return self._showdown(live)

    def hand_of(self, seat: int) -> Hand:
        """The two-card hand ``seat`` plays (three-card: the two it kept, or its best two)."""
        specials = self.rules.special_hands
        cards = self.hands[seat]
        if len(cards) == 3:
            kept = self.kept[seat]
            return evaluate(kept, specials) if kept else best_two(cards, specials)
        return evaluate(cards, specials)

    def _showdown(self, live: list[int]) -> list[Event]:
        hands = {s: self.hand_of(s) for s in live}
        result = showdown(hands)
        shown = {str(s): {"cards": list(h.cards), "hand": h.slug, "plain": h.plain} for s, h in hands.items()}
        event: Event = {"type": "showdown", "hands": shown, "winners": list(result.winners),
                        "decided_by": result.decided_by}
        can_redeal = self.redeals < self.rules.max_redeals
        if result.redeal and can_redeal:
            event["redeal"] = {"reason": result.redeal, "caller": result.caller}
            return [event, *self._redeal(live, result.redeal)]
        if (len(result.winners) > 1 and self.rules.tie == "replay" and can_redeal
                and not any(self.all_in[s] for s in live)):
            event["redeal"] = {"reason": "tie", "caller": None}
            return [event, *self._redeal(list(result.winners), "tie")]
        if result.redeal or (len(result.winners) > 1 and self.rules.tie == "replay"):
            event["split_after_redeals"] = True  # no more redeals: everyone shown shares
            return [event, *self._award(self._pots(live, lambda eligible: eligible), hands, "split")]
        return [event, *self._award(self._pots(live, lambda eligible: list(showdown(
            {s: hands[s] for s in eligible}).winners)), hands, result.decided_by)]

    def _redeal(self, players: list[int], reason: str) -> list[Event]:
        self.redeals += 1
        keep = set(players)
        for s in range(self.num_players):
            self.live[s] = s in keep
        return [{"type": "redeal", "reason": reason, "players": sorted(keep)}, *self._deal(),
                *([] if self.current is not None else self._end_of_betting())]

    def _pots(self, live: list[int], winners_of) -> dict[int, tuple[int, list[int]]]:
        """The main pot and the side pots: level -> (chips, winning seats), each pot open to the
        live seats that put in at least its level. Chips above every live seat's (a bet nobody
        still in matched) go back to whoever put them in, as a pot of their own."""
        levels = sorted({self.in_pot[s] for s in live})
        pots: dict[int, tuple[int, list[int]]] = {}
        below = 0
        for level in levels:
            chips = sum(min(c, level) - min(c, below) for c in self.in_pot)
            eligible = [s for s in live if self.in_pot[s] >= level]
            pots[level] = (chips, winners_of(eligible))
            below = level
        for s, c in enumerate(self.in_pot):
            if c > below:  # unmatched: returned
                pots[below + 1 + s] = (c - below, [s])
        return pots

    def _award(self, pots: dict[int, tuple[int, list[int]]], hands: dict[int, Hand] | None,
               reason: str) -> list[Event]:
        won = [0] * self.num_players
        order = self._order(self.dealer + 1)
        paid = []
        for level in sorted(pots):
            chips, winners = pots[level]
            share, odd = divmod(chips, len(winners))
            for s in winners:
                won[s] += share
            for s in [s for s in order if s in winners][:odd]:
                won[s] += 1
            paid.append({"chips": chips, "winners": sorted(winners)})
        for s in range(self.num_players):
            self.stacks[s] += won[s]
        net = [won[s] - self.in_pot[s] for s in range(self.num_players)]
        main_winners = pots[min(pots)][1]
        self.outcome = {
            "net": net, "won": won, "pots": paid, "reason": reason,
            "winner": main_winners[0] if len(main_winners) == 1 else None,
            "hands": {str(s): {"cards": list(h.cards), "hand": h.slug} for s, h in (hands or {}).items()},
        }
        self.phase = OVER
        self.current = None
        return [{"type": "pot", "pots": paid, "won": won, "net": net, "reason": reason,
                 "stacks": list(self.stacks)}]

    # -- views ------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        over = self.phase == OVER
        shown = self.outcome["hands"] if over and self.outcome else {}
        own = self.current == player
        return {
            "game": self.GAME,
            "seat": player,
            "num_players": self.num_players,
            "dealer": self.dealer,
            "current_player": self.current,
            "phase": self.phase,
            "street": self.street,
            "cards_per_hand": self.rules.cards,
            "special_hands": self.rules.special_hands,
            "hand": list(self.hands[player]),
            "kept": list(self.kept[player]) if self.kept[player] else None,
            "hand_sizes": [len(h) for h in self.hands],
            "stacks": list(self.stacks),
            "in_pot": list(self.in_pot),
            "round_bets": list(self.round_bets),
            "current_bet": self.current_bet,
            "to_call": max(0, self.current_bet - self.round_bets[player]),
            "pot": self.pot,
            "live": list(self.live),
            "all_in": list(self.all_in),
            "raises": self.raises,
            "max_raises": self.rules.max_raises,
            "ante": self.rules.ante,
            "redeals": self.redeals,
            "history": [dict(b) for b in self.history],
            "shown": {k: dict(v) for k, v in shown.items()},
            "costs": self.costs(player) if own else {},
            "legal_actions": [str(a) for a in self.legal_actions()] if own else [],
            "last_move": [],
        }

    def result(self) -> RoundResult | None:
        if self.outcome is None:
            return None
        o = self.outcome
        return RoundResult(points=list(o["net"]), winner=o["winner"], reason=o["reason"],
                           detail={"pots": o["pots"], "hands": o["hands"], "won": o["won"],
                                   "stacks": list(self.stacks),
                                   "carry": {"stacks": list(self.stacks)}})

    # -- persistence --------------------------------------------------------------------------
    _FIELDS = ("num_players", "seed", "dealer", "round_number", "stacks", "in_pot", "round_bets",
               "live", "all_in", "acted", "called", "current_bet", "raises", "street", "phase",
               "current", "hands", "kept", "stock", "redeals", "history", "outcome")

    def to_dict(self) -> dict[str, Any]:
        data = {name: detached(getattr(self, name)) for name in self._FIELDS}
        data.update(version=self.VERSION, game=self.GAME, rules=self.rules.to_dict(), rng=self.rng.getstate())
        if self.shuffle != 1:  # as Match.to_dict: absent means the only way there once was
            data["shuffle"] = self.shuffle
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeotdaRound:
        if data.get("version") != cls.VERSION or data.get("game") != cls.GAME:
            raise ValueError("not a Seotda hand of this version")
        state = cls(data["num_players"], Rules.from_dict(data["rules"]), data["seed"], _restore=True,
                    shuffle=stored_shuffle(data))
        for name in cls._FIELDS:
            setattr(state, name, detached(data[name]))
        state.rng = Rng.from_state(data["rng"])
        return state



def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> SeotdaRound:
    """A hand; ``carry["stacks"]`` (the previous hand's) or else every seat's buy-in."""
    stacks = (carry or {}).get("stacks")
    return SeotdaRound(num_players, rules or Rules(), seed, dealer, round_number, stacks, shuffle=shuffle)


first_dealer = drawn_first_dealer  # FW: the first dealer by any method


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A Seotda match for 2 to 6 players: hands until ``rules.rounds`` or a player is out of chips."""
    if not 2 <= num_players <= 6:
        raise ValueError("Seotda is a game for 2 to 6 players")
    return seat_drawn_match(SeotdaRound.GAME, num_players, rules or Rules(), seed, new_round,
                            SeotdaRound.from_dict, shuffle)


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)


__all__ = ["SeotdaRound", "ShortStack", "new_round", "new_match", "match_from_dict", "first_dealer",
           "BET", "KEEP", "OVER", "BET_KINDS", "RAISES", "CHECK", "BBING", "CALL", "HALF", "DDADANG",
           "DIE", "ALLIN"]
