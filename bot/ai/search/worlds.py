"""Concrete rounds sampled from one seat's observation (the "determinizations" of the search).

The search never sees the engine state. From the observation alone it rebuilds a round that shows
that seat exactly what it saw: the public piles, counters and phase are copied, and the cards the
seat cannot see (the other hands and the stock or draw pile) are dealt out at random among the
places they may be, with the sizes the observation gives. Cards another seat showed (Go-Stop shakes,
Hana-Awase teyaku) stay in that seat's hand.

``sample(obs, rng)`` returns such a round or ``None`` when the phase is not rebuilt (mid-turn
phases whose bookkeeping the observation does not carry); the player then falls back to its
rollout policy for that one decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cards import DECK, MONTH_MASKS, indices_in
from bot.games.base import RoundState
from bot.games.rng import Rng

_JOKERS = ("joker_1", "joker_2", "joker_3")
_INDEX = {c.id: c.index for c in DECK} | {j: 48 + k for k, j in enumerate(_JOKERS)}


def _idx(cid: str | None) -> int | None:
    return None if cid is None else _INDEX[cid]


def _mask(ids) -> int:
    m = 0
    for cid in ids:
        m |= 1 << _INDEX[cid]
    return m


def _deal_hidden(obs: dict[str, Any], deck: int, seen: int, rng: Rng,
                 shown: list[int] | None = None, stock_key: str = "stock_count",
                 forbid: list[int] | None = None) -> tuple[list[int], list[int]]:
    """Hands (bit sets) and a stock list consistent with ``obs``.

    ``deck`` is every card in play, ``seen`` what the seat sees outside the other hands,
    ``shown[s]`` the cards seat ``s`` holds face up and ``forbid[s]`` hidden cards it cannot
    hold (they would be face up too). Own hand is copied.
    """
    me = obs["seat"]
    sizes = obs["hand_sizes"]
    shown = shown or [0] * len(sizes)
    pinned = 0
    for s, cards in enumerate(shown):
        if s != me:
            pinned |= cards
    hidden = indices_in(deck & ~seen & ~pinned)
    rng.shuffle(hidden)
    hands = []
    for s, size in enumerate(sizes):
        if s == me:
            hands.append(_mask(obs["hand"]))
            continue
        need = size - shown[s].bit_count()
        if forbid and forbid[s]:
            ok = [c for c in hidden if not forbid[s] >> c & 1]
            take = ok[:need]
            hidden = [c for c in hidden if c not in take]
        else:
            take, hidden = hidden[:need], hidden[need:]
        hands.append(shown[s] | _bits(take))
    stock = hidden
    if len(stock) != obs[stock_key]:
        raise ValueError(f"observation does not add up: {len(stock)} hidden cards for a stock of "
                         f"{obs[stock_key]}")
    return hands, stock


def _bits(indices) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def _public(obs: dict[str, Any]) -> int:
    seen = _mask(obs["hand"]) | _mask(obs["field"])
    for pile in obs["captured"]:
        seen |= _mask(pile)
    if obs.get("drawn"):
        seen |= 1 << _INDEX[obs["drawn"]]
    return seen


def _set_piles(r, obs: dict[str, Any], hands: list[int], stock: list[int]) -> None:
    r.hands = hands
    r.field = _mask(obs["field"])
    r.stock = stock
    r.captured = [_mask(p) for p in obs["captured"]]
    r.current = obs["current_player"]
    r.phase = obs["phase"]
    r.pending = _idx(obs["drawn"])
    r.turn = obs["turn"]
    r.last_move = list(obs["last_move"])


# -- the games ---------------------------------------------------------------------------------
def _koikoi(obs: dict[str, Any], rng: Rng) -> RoundState:
    from bot.games.koikoi import KoiKoiRound, Rules
    from bot.games.koikoi.scoring import total, yaku_of

    rules = Rules.from_dict(obs["rules"])
    r = KoiKoiRound(rules, 0, obs["dealer"], obs["round_number"], _restore=True)
    hands, stock = _deal_hidden(obs, (1 << 48) - 1, _public(obs), rng)
    _set_piles(r, obs, hands, stock)
    r.calls = list(obs["koikoi_calls"])
    r.field_brights = obs["field_brights"]
    r.wild = obs["lightning_wild"]
    month = (r.round_number - 1) % 12 + 1
    # After a koi-koi call any improvement asks again, so the score at the last call is the
    # score now (the seat deciding now is the exception, and its call resets it anyway).
    for p in (0, 1):
        if r.calls[p]:
            yaku = yaku_of(r.captured[p], rules, month, r.field)
            r.claimed[p] = total(yaku)
            r.claimed_slugs[p] = [y.slug for y in yaku]
            r.last_improver = p
    return r


def _playout(cls_path: str):
    def build(obs: dict[str, Any], rng: Rng) -> RoundState:
        import importlib

        module_name, cls_name = cls_path.rsplit(".", 1)
        cls = getattr(importlib.import_module(module_name), cls_name)
        rules = cls.RULES.from_dict(obs["rules"])
        r = cls(rules, obs["num_players"], 0, obs["dealer"], obs["round_number"], _restore=True)
        deck = _bits(r._deck())
        shown = [_mask(c) for c in obs.get("exposed", [[]] * obs["num_players"])]
        hands, stock = _deal_hidden(obs, deck, _public(obs), rng, shown)
        _set_piles(r, obs, hands, stock)
        r.lightning_victim = _idx(obs["lightning_victim"])
        if "exposed" in obs:
            r.exposed = shown
            r.teyaku = list(obs["teyaku"])
        return r
    return build


def _sakura(obs: dict[str, Any], rng: Rng) -> RoundState:
    from bot.games.sakura import Rules, SakuraRound

    r = SakuraRound(Rules.from_dict(obs["rules"]), 0, obs["num_players"], obs["dealer"],
                    obs["round_number"], _restore=True)
    dead = _mask(obs["dead"])
    hands, stock = _deal_hidden(obs, (1 << 48) - 1, _public(obs) | dead, rng)
    _set_piles(r, obs, hands, stock)
    r.dead = dead
    r.gaji_user = obs["gaji_user"]
    r.gaji_victim = _idx(obs["gaji_victim"])
    return r


def _gostop(obs: dict[str, Any], rng: Rng) -> RoundState | None:
    from bot.games.gostop import game as gs

    if obs["phase"] not in (gs.PLAY, gs.DECIDE):
        return None  # mid-turn: the turn's bookkeeping is not in the observation
    rules = gs.Rules.from_dict(obs["rules"])
    n = obs["num_players"]
    r = gs.GoStopRound(rules, 0, n, obs["dealer"], obs["round_number"],
                       {"nagari": obs["nagari"]}, _restore=True)
    shown = [_mask(c) for c in obs["revealed"]]
    r.shaken = [sorted({DECK[i].month for i in indices_in(s) if i < 48}) for s in shown]
    forbid = [sum(MONTH_MASKS[m] for m in months) for months in r.shaken]
    deck = (1 << (48 + rules.jokers)) - 1
    hands, stock = _deal_hidden(obs, deck, _public(obs), rng, shown, forbid=forbid)
    _set_piles(r, obs, hands, stock)
    for name in ("goes", "go_order", "claimed", "shakes", "bombs", "bomb_turns", "ppeoks"):
        setattr(r, name, list(obs[name]))
    km_to_month = {DECK[4 * (m - 1)].korean_month: m for m in range(1, 13)}
    dealer, turn = obs["dealer"], obs["turn"]
    r.turns_taken = [sum(1 for t in range(turn) if (dealer + t) % n == s) for s in range(n)]
    for st in obs["stacks"]:
        r.stacks[km_to_month[st["korean_month"]]] = gs.DEALT_STACK if st["maker"] is None else st["maker"]
    if obs["mission_month"]:
        r.mission_month = km_to_month[obs["mission_month"]]
    r.ctx = {"hand": None, "flips": 1, "captured": 0, "reasons": [], "ppeok": False}
    return r


def _shedding(obs: dict[str, Any], rng: Rng) -> RoundState | None:
    from bot.games.shedding import Rules, SheddingRound

    n = obs["num_players"]
    r = SheddingRound(n, Rules.from_dict(obs["rules"]), 0, obs["dealer"], obs["round_number"],
                      _restore=True)
    discard = [_INDEX[c] for c in obs["discard"]]
    seen = _mask(obs["hand"]) | _mask(obs["field"]) | _bits(discard)
    if obs["drawn"]:
        seen |= 1 << _INDEX[obs["drawn"]]
    hands, draw = _deal_hidden(obs, (1 << 48) - 1, seen, rng, stock_key="draw_count")
    r.hands = hands
    r.field = _mask(obs["field"])
    r.draw = draw
    r.discard = discard
    r.rng = rng.fork(1)
    r.current = obs["current_player"]
    r.phase = obs["phase"]
    r.drawn = _idx(obs["drawn"])
    r.turn = obs["turn"]
    r.winner = obs["winner"]
    r.slaps = list(obs["slaps"])
    return r


SAMPLERS: dict[str, Callable[[dict[str, Any], Rng], RoundState | None]] = {
    "koikoi": _koikoi,
    "mushi": _playout("bot.games.mushi.MushiRound"),
    "hana_awase": _playout("bot.games.hana_awase.game.HanaAwaseRound"),
    "sakura": _sakura,
    "gostop": _gostop,
    "shedding": _shedding,
}


def sample(obs: dict[str, Any], rng: Rng) -> RoundState | None:
    """A round consistent with ``obs`` (seat ``obs['seat']``'s view), or None if not rebuilt."""
    return SAMPLERS[obs["game"]](obs, rng)


__all__ = ["sample", "SAMPLERS"]
