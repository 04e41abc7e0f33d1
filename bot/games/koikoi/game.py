"""Koi-Koi for two players (docs/rules/koikoi.md).

>>> from bot.games import koikoi
>>> match = koikoi.new_match(seed=7)
>>> action = match.legal_actions()[0]
>>> events = match.apply(action)

A round: deal 8/8/8 (misdeal redeal, teshi and kuttsuki checked), then each turn the player to
act plays a hand card and turns the stock card (the shared capture mechanics of
``bot.games.capture``). Whenever a turn forms or improves a yaku, that player chooses
``koikoi`` (go on) or ``stop`` (score the round). Both hands empty: exhaustive draw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cards import (
    BRIGHTS,
    DECK,
    MONTH_MASKS,
    MONTH_OF,
    card,
    has_odd_month,
    ids_in,
    indices_in,
    months_holding,
)

from ..base import Action, Event, Match, RoundResult, restored_match
from ..capture import CHOOSE_DRAW, OVER, PLAY, FishingRound, _mask, deal
from ..rng import NEWEST_SHUFFLE, Rng
from .rules import Rules
from .scoring import _every_yaku, may_score, progress, round_score, total

SWAP = "swap_offer"
DECIDE = "decide"
KOIKOI, STOP, KEEP, SWAP_HANDS = (Action(kind) for kind in ("koikoi", "stop", "keep", "swap"))
LIGHTNING = card("lightning").index
LIGHTNING_BIT = 1 << LIGHTNING
SUSUKI = MONTH_MASKS[8]


class KoiKoiRound(FishingRound):
    """One Koi-Koi round. Seat ``dealer`` plays first."""

    GAME = "koikoi"
    VERSION = 1
    wild_cards = 0  # the lightning, in a round where it is wild (see ``wild``)

    def __init__(self, rules: Rules, seed: int, dealer: int = 0, round_number: int = 1,
                 _restore: bool = False, shuffle: int = NEWEST_SHUFFLE) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_number = round_number
        self._init_piles(2)
        self.calls = [0, 0]  # koi-koi calls per seat this round
        self.claimed = [0, 0]  # base points at each seat's last koi-koi decision
        self.claimed_slugs: list[list[str]] = [[], []]
        self.last_improver: int | None = None
        self.field_brights = 0
        self.wild = False
        self.outcome: dict[str, Any] | None = None
        self.start_events: list[Event] = []
        self._kept_yaku: list[tuple[tuple, list] | None] = [None, None]  # see _yaku
        self._small_pile = [0, 0]  # each seat's last pile too small for any yaku (see _yaku)
        self._whole_months = rules.tsukifuda != "off"  # a whole month may score (may_score)
        if not _restore:
            self._deal(Rng(seed), shuffle)

    # -- deal -------------------------------------------------------------------------------
    def _deal(self, rng: Rng, shuffle: int) -> None:
        r = self.rules
        other = 1 - self.dealer
        for _attempt in range(1000):
            piles, stock = deal(
                rng,
                [(f"hand{other}", r.hand_size), ("field", 8), (f"hand{self.dealer}", r.hand_size)],
                r.deal_packet,
                shuffle,
            )
            field = _mask(piles["field"])
            reason = self._field_misdeal(field)
            if reason == "dealer_wins":
                self._set_hands(piles, field, stock)
                self._finish_teyaku({self.dealer: ["field_four"]}, field_win=True)
                return
            if reason:
                self.start_events.append({"type": "misdeal", "reason": reason, "field": ids_in(field)})
                continue
            self._set_hands(piles, field, stock)
            if r.teyaku == "misdeal" and any(self._teyaku(p) for p in (0, 1)):
                self.start_events.append({"type": "misdeal", "reason": "teyaku"})
                continue
            if r.teyaku == "teshi_misdeal" and any("teshi" in self._teyaku(p) for p in (0, 1)):
                self.start_events.append({"type": "misdeal", "reason": "four_in_a_hand"})
                continue
            break
        else:  # pragma: no cover - 1000 misdeals in a row do not happen
            raise RuntimeError("could not deal")
        self.field_brights = (self.field & BRIGHTS).bit_count()
        self.wild = r.lightning_wild == "on" or (
            r.lightning_wild == "susuki_on_field" and bool(self.field & SUSUKI))
        self.start_events.append({
            "type": "deal", "dealer": self.dealer, "field": ids_in(self.field),
            "field_brights": self.field_brights,
        })
        if r.hand_swap_offer:
            self.phase = SWAP
            self.current = other
        else:
            self._start_play()

    @classmethod
    def from_cards(cls, hands: list[list[str]], field: list[str], stock: list[str], *,
                   captured: list[list[str]] | None = None, rules: Rules | None = None,
                   dealer: int = 0, round_number: int = 1) -> KoiKoiRound:
        """A round dealt exactly as given (``stock[0]`` is turned first): for tests and puzzles.

        The field is not checked for a misdeal; dealt teyaku and the swap offer apply as usual.
        """
        self = cls(rules or Rules(), 0, dealer, round_number, _restore=True)
        captured = captured or [[], []]
        ids = [*hands[0], *hands[1], *field, *stock, *captured[0], *captured[1]]
        if len(ids) != len(set(ids)):
            raise ValueError("a card is dealt twice")
        self.captured = [_mask(card(c).index for c in pile) for pile in captured]
        self.hands = [_mask(card(c).index for c in h) for h in hands]
        self.field = _mask(card(c).index for c in field)
        self.stock = [card(c).index for c in reversed(stock)]
        self.field_brights = (self.field & BRIGHTS).bit_count()
        r = self.rules
        self.wild = r.lightning_wild == "on" or (r.lightning_wild == "susuki_on_field" and bool(self.field & SUSUKI))
        if r.hand_swap_offer:
            self.phase, self.current = SWAP, 1 - dealer
        else:
            self._start_play()
        return self

    def _set_hands(self, piles: dict[str, list[int]], field: int, stock: list[int]) -> None:
        self.hands = [_mask(piles["hand0"]), _mask(piles["hand1"])]
        self.field = field
        self.stock = stock

    def _field_misdeal(self, field: int) -> str | None:
        # Only the month counts the option looks at are taken (once per deal).
        rule = self.rules.field_misdeal
        if months_holding(field, 4):
            return "dealer_wins" if rule == "dealer_wins" else "four_of_a_month"
        if rule == "three" and months_holding(field, 3):
            return "three_of_a_month"
        if rule == "four_or_pairs" and months_holding(field, 2).bit_count() == 16:  # 4 months
            return "four_pairs"
        return None

    def _teyaku(self, player: int) -> list[str]:
        hand = self.hands[player]
        found = []
        if months_holding(hand, 4):
            found.append("teshi")
        # Four pairs: no month odd, so the pairs (a four counting two) are half the cards.
        if hand.bit_count() >= 8 and not has_odd_month(hand):
            found.append("kuttsuki")
        return found

    def _start_play(self) -> None:
        if self.rules.teyaku == "win":
            held = {p: names for p in (0, 1) if (names := self._teyaku(p))}
            if held:
                self._finish_teyaku(held)
                return
        self.phase = PLAY
        self.current = self.dealer

    def _finish_teyaku(self, held: dict[int, list[str]], field_win: bool = False) -> None:
        r = self.rules
        if len(held) == 2:
            self._finish({"kind": "teyaku_draw", "winner": None, "teyaku": {str(p): t for p, t in held.items()},
                          "hands": {str(p): ids_in(self.hands[p]) for p in held}})
            return
        (player, names), = held.items()
        points = r.teyaku_points * (2 if r.teyaku_both == "double" and len(names) == 2 else 1)
        detail = {"kind": "teyaku", "winner": player, "teyaku": names, "base": points, "total": points}
        # A dealt hand is shown to prove it; the field four are public anyway.
        detail["revealed"] = ids_in(self.field) if field_win else ids_in(self.hands[player])
        self._finish(detail)

    # -- turn hooks ---------------------------------------------------------------------------
    def _matches(self, field: int, c: int, from_hand: bool) -> int:
        if c == LIGHTNING and from_hand and self.wild:
            return field
        return field & MONTH_OF[c]

    def _is_wild_choice(self, c: int) -> bool:
        return c == LIGHTNING and self.wild

    @property
    def wild(self) -> bool:
        """Whether the lightning is wild this round (fixed at the deal)."""
        return self.wild_cards == LIGHTNING_BIT

    @wild.setter
    def wild(self, on: bool) -> None:
        self.wild_cards = LIGHTNING_BIT if on else 0  # the capture moves read this set

    def _extra_actions(self) -> list[Action]:
        if self.phase == SWAP:
            return [KEEP, SWAP_HANDS]
        if self.phase == DECIDE:
            return [KOIKOI, STOP] if self._may_koikoi(self.current) else [STOP]
        return []

    def _may_koikoi(self, p: int) -> bool:
        return may_koikoi(self.rules, bool(self.hands[p]), self.calls, p, lambda: self._base(p))

    def _apply_extra(self, action: Action) -> list[Event]:
        p = self.current
        if action.kind in ("keep", "swap"):
            events: list[Event] = [{"type": action.kind, "player": p}]
            if action.kind == "swap":
                self.hands[0], self.hands[1] = self.hands[1], self.hands[0]
            self._start_play()
            if self.current is None:
                events.append({"type": "round_end", **self.outcome})
            return events
        if action.kind == "koikoi":
            self.calls[p] += 1
            self.claimed[p] = self._base(p)
            self.claimed_slugs[p] = [y.slug for y in self._yaku(p)]
            events = [{"type": "koikoi", "player": p, "calls": self.calls[p]}]
            self._next_player(events)
            return events
        # stop
        events = [{"type": "stop", "player": p}]
        self._win(p, "stop")
        events.append({"type": "round_end", **self.outcome})
        return events

    def _end_turn(self, events: list[Event]) -> None:
        p = self.current
        self.turn += 1
        yaku = self._yaku(p)
        if not yaku:  # most turns: nothing to score, nothing to decide
            self._next_player(events)
            return
        base = total(yaku)
        if self.rules.improvement == "new_only":
            improved = any(y.slug not in self.claimed_slugs[p] for y in yaku)
        else:
            improved = base > self.claimed[p]
        if improved:
            self.last_improver = p
            events.append({"type": "yaku", "player": p, "points": base,
                           "yaku": [[y.slug, y.points] for y in yaku]})
            if self._may_koikoi(p):
                self.phase = DECIDE
                return
            # No choice left (last card, or the koi-koi limit): the round is won here.
            events.append({"type": "stop", "player": p, "forced": True})
            self._win(p, "stop")
            events.append({"type": "round_end", **self.outcome})
            return
        self._next_player(events)

    def _next_player(self, events: list[Event]) -> None:
        self.phase = PLAY
        nxt = 1 - self.current
        if not self.hands[nxt]:
            self._exhaustive_draw()
            events.append({"type": "round_end", **self.outcome})
            return
        self.current = nxt

    # -- scoring ------------------------------------------------------------------------------
    def _yaku(self, p: int):
        # Kept per seat while what it depends on stays: a turn that captures nothing (about
        # half of them) then scores nothing anew. Not part of the state; a restored round
        # starts with nothing kept.
        pile = self.captured[p]
        if pile == self._small_pile[p] or not may_score(pile, self._whole_months):
            self._small_pile[p] = pile  # most turns: a pile too small for any yaku
            return []
        field = self.field if self.rules.viewings == "weather_on_field" else 0
        key = (pile, self.calls[p] > 0, field)
        kept = self._kept_yaku[p]
        if kept is not None and kept[0] == key:
            return kept[1]
        yaku = _every_yaku(pile, self.rules, (self.round_number - 1) % 12 + 1, self.field,
                           self.calls[p] > 0)  # may_score has been asked already
        self._kept_yaku[p] = (key, yaku)
        return yaku

    def _base(self, p: int) -> int:
        return total(self._yaku(p))

    def _win(self, p: int, kind: str) -> None:
        yaku = self._yaku(p)
        base = total(yaku)
        score = round_score(self.rules, base, self.calls[p], self.calls[1 - p], self.field_brights)
        detail = {
            "kind": kind, "winner": p, "base": base,
            "yaku": [[y.slug, y.points, list(y.cards)] for y in yaku],
            "multipliers": [[name, f] for name, f in score.multipliers],
            "total": score.total,
            "calls": list(self.calls),
        }
        if score.bonuses:  # only then, so the outcomes of every other rule set stay as they were
            detail["bonus"] = [[name, points] for name, points in score.bonuses]
        self._finish(detail)

    def _exhaustive_draw(self) -> None:
        r = self.rules
        if r.draw_result == "last_improver" and self.last_improver is not None:
            self._win(self.last_improver, "last_improver")
            return
        detail: dict[str, Any] = {"kind": "draw", "winner": None, "calls": list(self.calls)}
        if r.draw_result == "oya_ken":
            detail.update(kind="oya_ken", winner=self.dealer, base=r.oya_ken_points, total=r.oya_ken_points)
        elif r.draw_result == "dealer_passes":
            detail["next_dealer"] = 1 - self.dealer
        self._finish(detail)

    def _finish(self, detail: dict[str, Any]) -> None:
        self.outcome = detail
        self.phase = OVER
        self.current = None

    def result(self) -> RoundResult | None:
        if self.outcome is None:
            return None
        o = self.outcome
        winner = o.get("winner")
        points = [0, 0]
        if winner is not None:
            points[winner] = o["total"]
            if self.rules.zero_sum:
                points[1 - winner] = -o["total"]
        nxt = o.get("next_dealer")
        if nxt is None and winner is None:
            nxt = self.dealer  # a draw: same dealer
        return RoundResult(points=points, winner=winner, next_dealer=nxt, reason=o["kind"], detail=dict(o))

    # -- observation and persistence ----------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        obs = self._public_piles(player)
        month = (self.round_number - 1) % 12 + 1
        obs.update({
            "game": self.GAME,
            "seat": player,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "round_number": self.round_number,
            "round_month": month,
            "koikoi_calls": list(self.calls),
            "field_brights": self.field_brights,
            "lightning_wild": self.wild,
            "yaku": [[[y.slug, y.points] for y in self._yaku(p)] for p in (0, 1)],
            "progress": [[list(t) for t in progress(self.captured[p], self.rules)] for p in (0, 1)],
            "legal_actions": [str(a) for a in self.legal_actions()] if player == self.current else [],
            "outcome": self.outcome,
        })
        return obs

    def to_dict(self) -> dict[str, Any]:
        return self._state_of(
            calls=self.calls, claimed=self.claimed, claimed_slugs=self.claimed_slugs,
            last_improver=self.last_improver, field_brights=self.field_brights,
            wild=self.wild, outcome=self.outcome, start_events=self.start_events)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KoiKoiRound:
        if data.get("game") != cls.GAME or data.get("version") != cls.VERSION:
            raise ValueError(f"not a koikoi round state of version {cls.VERSION}")
        self = cls(Rules.from_dict(data["rules"]), data["seed"], data["dealer"],
                   data["round_number"], _restore=True)
        self._piles_from_dict(data)
        self.calls = list(data["calls"])
        self.claimed = list(data["claimed"])
        self.claimed_slugs = [list(s) for s in data["claimed_slugs"]]
        self.last_improver = data["last_improver"]
        self.field_brights = data["field_brights"]
        self.wild = data["wild"]
        self.outcome = data["outcome"]
        self.start_events = list(data["start_events"])
        return self


def may_koikoi(rules: Rules, has_cards: bool, calls: list[int], seat: int,
               base: Callable[[], int]) -> bool:
    """Whether ``seat`` may call koi-koi now (``base``: its yaku points, asked only if needed);
    the engine and the search's model of a round both ask this."""
    if not has_cards:
        return False  # nothing left to improve with
    limit = rules.koikoi_limit
    if limit == "once" and calls[seat] >= 1 or limit == "once_total" and sum(calls) >= 1:
        return False
    return not (limit == "min3" and base() < 3)


def draw_for_dealer(seed: int, shuffle: int = NEWEST_SHUFFLE) -> tuple[int, list[str]]:
    """Each player draws a card; the earliest month deals, on a tie the better card
    (docs/rules/koikoi.md §1)."""
    deck = list(range(48))
    Rng(seed).fork(0).shuffle(deck, shuffle)
    a, b = deck[0], deck[1]
    # Lower index = earlier month, and within a month the more valuable card.
    return (0 if a < b else 1), [DECK[a].id, DECK[b].id]


# Rules are frozen: the default set is built (and validated) once, not per round.
_DEFAULT_RULES = Rules()


def new_round(num_players: int = 2, rules: Rules | None = None, seed: int = 0, dealer: int = 0,
              round_number: int = 1, carry: dict | None = None,
              shuffle: int = NEWEST_SHUFFLE) -> KoiKoiRound:
    if num_players != 2:
        raise ValueError("Koi-Koi is a game for two players")
    return KoiKoiRound(rules or _DEFAULT_RULES, seed, dealer, round_number, shuffle=shuffle)


def new_match(num_players: int = 2, rules: Rules | None = None, seed: int = 0,
              shuffle: int = NEWEST_SHUFFLE) -> Match:
    """A Koi-Koi match; the first dealer is chosen by a card draw from the seed."""
    rules = rules or Rules()
    dealer, drawn = draw_for_dealer(seed, shuffle)
    match = Match("koikoi", num_players, rules, seed, new_round, KoiKoiRound.from_dict, first_dealer=dealer,
                  shuffle=shuffle)
    match.intro_events.insert(0, {"type": "dealer_draw", "cards": drawn, "dealer": dealer})
    return match


def match_from_dict(data: dict[str, Any]) -> Match:
    return restored_match(new_match, Rules, data)


def hand_ids(state: KoiKoiRound, player: int) -> list[str]:
    return [DECK[i].id for i in indices_in(state.hands[player])]


__all__ = ["KoiKoiRound", "Rules", "new_match", "new_round", "match_from_dict", "draw_for_dealer",
           "may_koikoi",
           "SWAP", "DECIDE", "PLAY", "CHOOSE_DRAW", "OVER"]
