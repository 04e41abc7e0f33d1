"""Concrete rounds sampled from one seat's observation (the "determinizations" of the search).

The search never sees the engine state. From the observation alone it rebuilds a round that shows
that seat exactly what it saw: the public piles, counters and phase are copied, and the cards the
seat cannot see (the other hands and the stock or draw pile) are dealt out at random among the
places they may be, with the sizes the observation gives. Cards another seat showed (Go-Stop shakes,
Hana-Awase teyaku) stay in that seat's hand.

``Sampler(obs)`` reads the observation once; ``sampler.world(rng)`` then deals a fresh world
cheaply (a copy of the public round with the hidden cards dealt anew). ``sample(obs, rng)`` is the
one-off form.

The hidden cards are dealt with Python's own generator (``random.Random``, seeded from the
search's ``Rng``), not the engine's: a sampled world is never replayed, and a C generator's draws
cost a fraction of the engine's, whose exact sequence only stored games need. A given
observation and seed still give the same worlds. Phases that are not rebuilt (mid-turn phases whose bookkeeping the observation does
not carry) give ``None``; the player then falls back to its greedy policy for that decision.
"""

from __future__ import annotations

import collections
import functools
import itertools
import operator
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from bot.cards import BIT, DECK, indices_in
from bot.games.base import Action, RoundState
from bot.games.descriptor import descriptor, descriptors, resolve
from bot.games.rng import Rng

_JOKERS = ("joker_1", "joker_2", "joker_3")
INDEX = {c.id: c.index for c in DECK} | {j: 48 + k for k, j in enumerate(_JOKERS)}


def index_of(cid: str | None) -> int | None:
    return None if cid is None else INDEX[cid]


def mask_of(ids) -> int:
    m = 0
    for cid in ids:
        m |= 1 << INDEX[cid]
    return m


class Hidden:
    """Where the cards a seat cannot see may lie: the other hands and the stock (draw pile)."""

    def __init__(self, obs: dict[str, Any], deck: int, seen: int,
                 shown: list[int] | None = None, stock_key: str = "stock_count",
                 forbid: list[int] | None = None, stock_attr: str = "stock") -> None:
        """``deck`` is every card in play, ``seen`` what the seat sees outside the other hands,
        ``shown[s]`` the cards seat ``s`` holds face up and ``forbid[s]`` hidden cards it cannot
        hold (they would be face up too)."""
        self.me = obs["seat"]
        self.sizes = obs["hand_sizes"]
        self.own = mask_of(obs["hand"])
        self.shown = shown or [0] * len(self.sizes)
        self.forbid = forbid
        self.stock_attr = stock_attr
        pinned = 0
        for s, cards in enumerate(self.shown):
            if s != self.me:
                pinned |= cards
        self.pool = indices_in(deck & ~seen & ~pinned)
        need = sum(size - self.shown[s].bit_count() for s, size in enumerate(self.sizes)
                   if s != self.me)
        if len(self.pool) - need != obs[stock_key]:
            raise ValueError(f"observation does not add up: {len(self.pool) - need} hidden cards "
                             f"for a stock of {obs[stock_key]}")

    def deal(self, r, draw: Callable[[], float]) -> None:
        """Deal the hidden cards of round ``r`` anew, in an order drawn with ``draw`` (uniform
        floats): hands and stock."""
        hidden = sorted(self.pool, key=lambda _: draw())  # a uniform shuffle in one C call
        hands = []
        for s, size in enumerate(self.sizes):
            if s == self.me:
                hands.append(self.own)
                continue
            shown = self.shown[s]
            need = size - shown.bit_count()
            if self.forbid and self.forbid[s]:
                take = [c for c in hidden if not self.forbid[s] >> c & 1][:need]
                hidden = [c for c in hidden if c not in take]
            else:
                take, hidden = hidden[:need], hidden[need:]
            hands.append(shown | sum(map(BIT.__getitem__, take)))  # distinct bits
        r.hands = hands
        setattr(r, self.stock_attr, hidden)


def bits_of(indices) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def public(obs: dict[str, Any]) -> int:
    seen = mask_of(obs["hand"]) | mask_of(obs["field"])
    for pile in obs["captured"]:
        seen |= mask_of(pile)
    if obs.get("drawn"):
        seen |= 1 << INDEX[obs["drawn"]]
    return seen


def set_piles(r, obs: dict[str, Any]) -> None:
    r.field = mask_of(obs["field"])
    r.captured = [mask_of(p) for p in obs["captured"]]
    r.current = obs["current_player"]
    r.phase = obs["phase"]
    r.pending = index_of(obs["drawn"])
    r.turn = obs["turn"]
    r.last_move = list(obs["last_move"])


# -- building a world -------------------------------------------------------------------------
# Each game's builder (its search profile's ``worlds``, e.g. ``bot.ai.koikoi.build_world``) makes
# the public round from the observation with the helpers above and returns it with its Hidden.
def playout(cls: type, obs: dict[str, Any]) -> tuple[RoundState, Hidden]:
    """The world of a play-out fishing round (Mushi, Hana-Awase) of round class ``cls``."""
    rules = cls.RULES.from_dict(obs["rules"])
    r = cls(rules, obs["num_players"], 0, obs["dealer"], obs["round_number"], _restore=True)
    deck = bits_of(r._deck())
    shown = [mask_of(c) for c in obs.get("exposed", [[]] * obs["num_players"])]
    hidden = Hidden(obs, deck, public(obs), shown)
    set_piles(r, obs)
    r.lightning_victim = index_of(obs["lightning_victim"])
    if "exposed" in obs:
        r.exposed = shown
        r.teyaku = list(obs["teyaku"])
    return r, hidden


Builder = Callable[[dict[str, Any]], "tuple[RoundState, Hidden] | None"]


class _Builders(Mapping[str, Builder]):
    """Game -> its world builder (its search profile's ``worlds``), imported when first asked for;
    a game without one is not searched."""

    def __getitem__(self, game: str) -> Builder:
        try:
            path = descriptor(game).search.worlds
        except KeyError:
            path = None
        if path is None:
            raise KeyError(game)
        return _resolved(path)

    def __iter__(self) -> Iterator[str]:
        return (d.slug for d in descriptors() if d.search.worlds)

    def __len__(self) -> int:
        return sum(1 for _ in self)


@functools.cache
def _resolved(path: str) -> Builder:
    return resolve(path)


BUILDERS = _Builders()


# Values shared by a clone as they are (immutable); anything else goes through _copy, which
# copies lists, dicts and random generators and shares the rest.
_SHARED = frozenset({int, str, bool, float, type(None), tuple, frozenset, Action})


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [v if type(v) in _SHARED else _copy(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SHARED else _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, Rng):
        return Rng.from_state(value.getstate())
    return value


# Per round class, the attributes it keeps in slots instead of its instances' dict (Go-Stop's
# round keeps nearly all of them there: see GoStopRound.__slots__) and a reader of them all at
# once, or () for a class with none: a copy of a round copies both.
_SLOTS: dict[type, tuple] = {}


def _slots(cls: type) -> tuple:
    names: list[str] = []
    for k in cls.__mro__:
        own = k.__dict__.get("__slots__", ())
        names += [own] if isinstance(own, str) else own
    names = [name for name in names if name not in ("__dict__", "__weakref__")]
    if not names:
        slots: tuple = ()
    elif len(names) == 1:
        slots = (tuple(names), lambda state, name=names[0]: (getattr(state, name),))
    else:
        slots = (tuple(names), operator.attrgetter(*names))  # a tuple of their values
    _SLOTS[cls] = slots
    return slots


# Sets attributes from C: map makes each setattr call, a deque that keeps nothing drains it.
_drain = collections.deque(maxlen=0).extend


def _duplicate(state: RoundState, deep: bool) -> RoundState:
    """A new round of ``state``'s class holding its attributes: its lists and dicts copied when
    ``deep``, shared otherwise."""
    cls = type(state)
    twin = object.__new__(cls)
    twin.__dict__ = _copy(state.__dict__) if deep else state.__dict__.copy()
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _slots(cls)
    if slots:
        names, read = slots
        values = _copy(list(read(state))) if deep else read(state)
        _drain(map(setattr, itertools.repeat(twin), names, values))
    return twin


def fast_clone(state: RoundState) -> RoundState:
    """A copy of a round for one rollout: its lists and dicts copied, immutable values shared."""
    return _duplicate(state, True)


class Sampler:
    """Worlds consistent with one observation (seat ``obs['seat']``'s view)."""

    def __init__(self, obs: dict[str, Any]) -> None:
        built = BUILDERS[obs["game"]](obs)
        self.template, self.hidden = built if built is not None else (None, None)
        self._random: random.Random | None = None
        if self.template is not None:
            self.template.narrated = False  # its worlds are played out, never shown

    @property
    def ok(self) -> bool:
        """False when this phase is not rebuilt."""
        return self.template is not None

    def world(self, rng: Rng) -> RoundState:
        """A world to read or to clone (``fast_clone``) before playing in it: it shares every
        pile but the hidden ones with the others."""
        if self._random is None:  # the first world seeds this sampler's own generator
            self._random = random.Random(rng.next64())
        r = _duplicate(self.template, False)
        self.hidden.deal(r, self._random.random)
        if hasattr(r, "rng"):  # First Bloom reshuffles its discard pile: a chance of its own
            r.rng = Rng(self._random.getrandbits(64))
        return r


def sample(obs: dict[str, Any], rng: Rng) -> RoundState | None:
    """One round consistent with ``obs`` (the caller's to change), or None if this phase is
    not rebuilt."""
    sampler = Sampler(obs)
    return fast_clone(sampler.world(rng)) if sampler.ok else None


__all__ = ["Sampler", "sample", "fast_clone", "BUILDERS"]
