"""A fast Koi-Koi rollout: the rest of a round played by the greedy player on bare bit sets.

The search spends nearly all its time finishing sampled rounds. The engine's round builds event
dicts, card-id lists and observations that a rollout never reads; this loop keeps only the piles
and counters, and follows the engine's rules and the greedy player's choices step for step (the
same candidates in the same order and the same use of the random generator, so it returns exactly
the points ``rollout(round, greedy_policy("koikoi"), rng)`` would: a test checks this).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import attrgetter, or_

from bot.ai.koikoi import _BASE, GROUPS, RAIN, SAKE
from bot.cards import BIT, DECK, MONTH_MASKS, indices_in
from bot.games.base import Action
from bot.games.koikoi.game import may_koikoi
from bot.games.koikoi.scoring import _every_yaku, may_score, progress, round_score
from bot.games.rng import Rng

LIGHTNING = 43
_MONTH = [MONTH_MASKS[c.month] for c in DECK]
# the cards a played card may take: its month's, or any card where the lightning is wild
_MATCH_WILD = [(1 << 48) - 1 if i == LIGHTNING else m for i, m in enumerate(_MONTH)]
# a discard's risk factor by the number of its month-mates still unseen
_RISK = [0.4 + 0.2 * unseen for unseen in range(4)]
_ENTRIES = frozenset({"play", "choose_draw", "decide"})
_NO_SCORE = float("-inf")
_WORTH_BASE = [_BASE[c.kind] + (5.0 if c.bit == SAKE else 0.0) - (3.0 if c.bit == RAIN else 0.0)
               for c in DECK]
_WORTH_GROUPS = [tuple((g, need) for g, need in GROUPS if c.bit & g) for c in DECK]
# The worth of a card in no group is its base, whatever the piles (None: ask ``worth``), so
# ``_FIXED[i] or worth(i, ...)`` skips the call for most cards (no base worth is 0).
_FIXED = [None if groups else base for base, groups in zip(_WORTH_BASE, _WORTH_GROUPS, strict=True)]
_ID = {c.id: c.index for c in DECK}
# Every card is worth at least its base (the worth's other terms add), so a capture scores at
# least twice the least base, and a discard at most its bonus for a mate in hand less the least
# base at the least risk: while the first is the greater by more than the tie margins (a test
# holds it), no discard competes with a capture.
_LEAST_WORTH = min(_WORTH_BASE)
DISCARDS_TRAIL = 1.5 - _LEAST_WORTH * _RISK[0] + 3e-9 < 2 * _LEAST_WORTH
_MEMOS: dict[tuple, tuple] = {}
_NO_SLUGS: frozenset[str] = frozenset()
_SLUG, _POINTS = attrgetter("slug"), attrgetter("points")  # of a ``Yaku``
_NO_YAKU: tuple[int, frozenset] = (0, _NO_SLUGS)
_BY_RULES: dict[tuple[int, int], tuple] = {}  # (id(rules), month) -> (rules, memo)


# A grouped card's worth depends only on the piles' cards of its groups: memoised per card,
# keyed by those bits (the same few piles come up in rollout after rollout).
_GROUP_UNION = [reduce(or_, (g for g, _need in groups), 0) for groups in _WORTH_GROUPS]
_WORTH_MEMO: list[dict[int, float]] = [{} for _ in DECK]


def worth(i: int, mine: int, theirs: int) -> float:
    """``bot.ai.koikoi.card_worth`` on precomputed tables, memoised."""
    union = _GROUP_UNION[i]
    key = (mine & union) | ((theirs & union) << 48)
    memo = _WORTH_MEMO[i]
    w = memo.get(key)
    if w is None:
        if len(memo) > 50_000:
            memo.clear()
        w = memo[key] = _worth(i, mine, theirs)
    return w


def _worth(i: int, mine: int, theirs: int) -> float:
    w = _WORTH_BASE[i]
    for group, need in _WORTH_GROUPS[i]:
        have = (mine & group).bit_count()
        if (group & ~theirs).bit_count() >= need:
            w += 2.0 * have + (6.0 if have == need - 1 else 0.0)
        blocked = (theirs & group).bit_count()
        if blocked and (group & ~mine).bit_count() >= need:
            w += 1.5 * blocked + (5.0 if blocked == need - 1 else 0.0)
    return w


def _memo(rules, month: int) -> tuple[dict, Callable[..., tuple[int, frozenset]], dict, bool,
                                     Callable[..., tuple[int, frozenset]]]:
    """The memos of these rules and round month, kept across rollouts (the same piles come up
    again and again): (yaku table, its lookup, round totals, whether the pile alone keys the
    table, the summary that fills it). Found by the rules object's identity first (a sampler's
    worlds share it), which spares hashing the rules every rollout."""
    mine = _BY_RULES.get((id(rules), month))
    if mine is not None and mine[0] is rules and len(mine[1][0]) <= 100_000:
        return mine[1]
    memo = _MEMOS.get((rules, month))
    if memo is None or len(memo[0]) > 100_000:
        if len(_MEMOS) > 64:
            _MEMOS.clear()
        memo = _MEMOS[(rules, month)] = _new_memo(rules, month)
    if len(_BY_RULES) > 256:
        _BY_RULES.clear()
    _BY_RULES[(id(rules), month)] = (rules, memo)  # holds the rules: their id stays theirs
    return memo


def _new_memo(rules, month: int) -> tuple[dict, Callable[..., tuple[int, frozenset]], dict, bool,
                                         Callable[..., tuple[int, frozenset]]]:
    table: dict[int, tuple[int, frozenset]] = {}
    weather = rules.viewings == "weather_on_field"
    whole_months = rules.tsukifuda != "off"

    def summary(pile: int, field: int, called: bool) -> tuple[int, frozenset]:
        """(points, slugs) of the pile's yaku. As the engine's turn, it first asks ``may_score``
        with whole months only where tsukifuda count; most piles have no yaku, and share one
        summary."""
        if not may_score(pile, whole_months):
            return _NO_YAKU
        ys = _every_yaku(pile, rules, month, field, called)
        return (sum(map(_POINTS, ys)), frozenset(map(_SLUG, ys))) if ys else _NO_YAKU

    def yaku(pile: int, field: int, called: bool = False) -> tuple[int, frozenset]:
        """(points, slugs) of a pile's yaku."""
        key = pile | (field << 48) if weather else pile
        got = table.get(key)
        if got is None:
            got = table[key] = summary(pile, field, False)
        return got

    def yaku_after_calls(pile: int, field: int, called: bool = False) -> tuple[int, frozenset]:
        """The same, where a call raises the viewings: keyed by the call as well."""
        key = (pile | (field << 48) if weather else pile) | (called << 96)
        got = table.get(key)
        if got is None:
            got = table[key] = summary(pile, field, called)
        return got
    by_pile = not weather and not rules.viewing_points_after_koikoi  # the pile alone is the key
    lookup = yaku_after_calls if rules.viewing_points_after_koikoi else yaku
    return table, lookup, {}, by_pile, summary


def pick(scored: list[tuple[float, int, int]], rng: Rng) -> tuple[int, int]:
    """The greedy tie rule: the first best candidate, or a random one among exact ties (the
    list of ties is built only when there is one)."""
    best: tuple[int, int] = (-1, -1)
    ties: list[tuple[int, int]] | None = None
    top = float("-inf")
    for score, c, t in scored:
        if score > top + 1e-9:
            best, ties, top = (c, t), None, score
        elif score > top - 1e-9:
            if ties is None:
                ties = [best]
            ties.append((c, t))
    return best if ties is None else ties[rng.below(len(ties))]


def koikoi_rollout(r, rng: Rng, first: Action | None = None) -> list[int]:
    """Finish the Koi-Koi round ``r`` (not modified) with the greedy player on both seats,
    starting with action ``first`` when given (a legal action of the seat to act)."""
    if r.current is None:
        return r.result().points
    rules = r.rules
    hands = list(r.hands)
    field = r.field
    stock = r.stock  # read, never changed: ``left`` counts the cards still to draw from its end
    left = len(stock)
    cap = list(r.captured)
    calls = list(r.calls)
    claimed = list(r.claimed)
    last = r.last_improver
    p = r.current
    step = r.phase  # where the first turn enters: "play", "choose_draw" or "decide"
    if step not in _ENTRIES:  # pragma: no cover - other phases are played by the engine
        raise ValueError(f"phase {step!r} is not rolled out here")
    pending = r.pending
    month_no = (r.round_number - 1) % 12 + 1
    # the card that matches any field card when played (the wild lightning), else none
    wild, match_of = (LIGHTNING, _MATCH_WILD) if r.wild else (-1, _MONTH)
    new_only = rules.improvement == "new_only"
    # the claimed yaku's slugs are read only where new yaku alone count as an improvement
    slugs = [frozenset(s) for s in r.claimed_slugs] if new_only else [_NO_SLUGS, _NO_SLUGS]
    table, _yaku, totals, by_pile, summary = _memo(rules, month_no)
    field_brights = r.field_brights

    def win(s: int, base: int) -> list[int]:
        key = (base, calls[s], calls[1 - s], field_brights)
        total = totals.get(key)
        if total is None:
            total = totals[key] = round_score(rules, base, calls[s], calls[1 - s], field_brights).total
        return _points(rules, s, total)

    # the hot loop's tables and helpers as locals
    fixed, month_of, worth_, bit = _FIXED, _MONTH, worth, BIT
    base = None  # the yaku points of the seat to decide, once its turn has scored them
    while True:
        if step == "decide":
            if base is None:
                base = _yaku(cap[p], field, calls[p] > 0)[0]
            if first is not None:
                go, first = first.kind == "koikoi", None
            else:
                go = _greedy_koikoi(rules, base, hands[p], cap[1 - p], calls[1 - p], _yaku, field)
            if not go:
                return win(p, base)
            calls[p] += 1
            claimed[p], slugs[p] = _yaku(cap[p], field, True)  # as the engine: counted after the call
        else:
            if step == "play":
                hand = hands[p]
                if first is not None:
                    c, t = _ID[first.card], _ID.get(first.target, -1)
                    first = None
                else:
                    c = hand.bit_length() - 1
                    if hand == bit[c] and c != wild and (field & month_of[c]).bit_count() != 2:
                        t = -1  # the last card and no target to choose: nothing to weigh
                    else:
                        c, t = _greedy_play(hand, field, cap[p], cap[1 - p], wild, match_of, rng)
                # the card played: it takes its target, or every card of its month, or lies down
                hands[p] = hand & ~bit[c]
                taken = bit[t] if t >= 0 else field & match_of[c]
                if taken:
                    field &= ~taken
                    cap[p] |= taken | bit[c]
                else:
                    field |= bit[c]
                pending = None
                if left:  # the card turned from the stock
                    left -= 1
                    pending = stock[left]
            if pending is not None:
                m = field & month_of[pending]
                if m.bit_count() == 2:  # it takes one of two: the greedy player's choice
                    if first is not None:
                        t, first = _ID[first.target], None
                    else:
                        mine, theirs = cap[p], cap[1 - p]
                        low = m & -m
                        t, other = low.bit_length() - 1, (m ^ low).bit_length() - 1
                        top = fixed[t] or worth_(t, mine, theirs)
                        score = fixed[other] or worth_(other, mine, theirs)
                        if score > top + 1e-9:
                            t = other
                        elif score > top - 1e-9:
                            t = (t, other)[rng.below(2)]
                    m = bit[t]
                if m:
                    field &= ~m
                    cap[p] |= m | bit[pending]
                else:
                    field |= bit[pending]
                pending = None
            # end of the turn
            # where the pile alone keys the table, a turn ends on a plain lookup, and a new pile
            # is summed up at once
            if by_pile:
                got = table.get(cap[p])
                if got is None:
                    got = table[cap[p]] = summary(cap[p], field, False)
                base, now = got
            else:
                base, now = _yaku(cap[p], field, calls[p] > 0)
            if now and (bool(now - slugs[p]) if new_only else base > claimed[p]):  # improved
                last = p
                if may_koikoi(rules, bool(hands[p]), calls, p, lambda b=base: b):
                    step = "decide"
                    continue
                return win(p, base)
        # the next player
        step = "play"
        p = 1 - p
        if not hands[p]:
            return _exhaustive(r, rules, last, win, cap, _yaku, field, calls)


def _greedy_play(hand: int, field: int, mine: int, theirs: int, wild: int, match_of: list[int],
                 rng: Rng) -> tuple[int, int]:
    """The greedy player's card (and target, else -1) from ``hand``: ``GreedyPlayer._score`` on
    the piles' bit sets, the candidates scored in the engine's order with ``pick``'s tie rule
    kept inline (no candidate list, no tuples, no second pass). ``wild`` is the card that may
    take any field card (else -1), ``match_of`` the cards each card may take.

    A capture outscores every discard (``DISCARDS_TRAIL``), so a discard can be neither the
    best nor a tie while some card takes something: the discards are weighed only when none
    does, which gives the same choice and the same random draws."""
    fixed, worth_ = _FIXED, worth
    # a score above ``above`` is a new best; one above ``tie`` ties it (``pick``'s 1e-9 margins)
    above = tie = _NO_SCORE
    best_c = best_t = -1
    ties: list[tuple[int, int]] | None = None
    cards = indices_in(hand)
    for c in cards:
        m = field & match_of[c]
        if not m:
            continue
        if m & (m - 1) == 0:  # it takes the one card it matches (as a choice of one would)
            t = m.bit_length() - 1
            score = (fixed[c] or worth_(c, mine, theirs)) + (fixed[t] or worth_(t, mine, theirs))
        elif c == wild or m.bit_count() == 2:  # a choice of target: each is a candidate
            worth_c = fixed[c] or worth_(c, mine, theirs)
            for t in indices_in(m):
                score = worth_c + (fixed[t] or worth_(t, mine, theirs))
                if score > above:
                    best_c, best_t, above, tie, ties = c, t, score + 1e-9, score - 1e-9, None
                elif score > tie:
                    ties = ties or [(best_c, best_t)]
                    ties.append((c, t))
            continue
        else:  # it takes the three cards of its month
            score = fixed[c] or worth_(c, mine, theirs)
            for t in indices_in(m):
                score += fixed[t] or worth_(t, mine, theirs)
        if score > above:
            best_c, best_t, above, tie, ties = c, -1, score + 1e-9, score - 1e-9, None
        elif score > tie:
            ties = ties or [(best_c, best_t)]
            ties.append((c, -1))
    if best_c < 0:  # no card takes anything: every card is a discard
        month_of, bit, risk = _MONTH, BIT, _RISK
        unseen = ~(mine | theirs | field | hand)
        for c in cards:
            # a discard gives the card away if its month-mates are still out there
            month = month_of[c]
            score = ((1.5 if hand & month != bit[c] else 0.0)
                     - (fixed[c] or worth_(c, theirs, mine)) * risk[(month & unseen).bit_count()])
            if score > above:
                best_c, above, tie, ties = c, score + 1e-9, score - 1e-9, None
            elif score > tie:
                ties = ties or [(best_c, -1)]
                ties.append((c, -1))
    return (best_c, best_t) if ties is None else ties[rng.below(len(ties))]


def _points(rules, winner: int, total: int) -> list[int]:
    points = [0, 0]
    points[winner] = total
    if rules.zero_sum:
        points[1 - winner] = -total
    return points


def _exhaustive(r, rules, last, win, cap, yaku, field, calls) -> list[int]:
    if rules.draw_result == "last_improver" and last is not None:
        return win(last, yaku(cap[last], field, calls[last] > 0)[0])
    if rules.draw_result == "oya_ken":
        return _points(rules, r.dealer, rules.oya_ken_points)
    return [0, 0]


def _greedy_koikoi(rules, my_points: int, hand: int, opp_pile: int, opp_calls: int, yaku,
                   field: int) -> bool:
    """``bot.ai.koikoi.GreedyPlayer._decide``: True for koi-koi."""
    # Its rule, in an order that stops at the first reason to stop: koi-koi needs at most 3
    # points, 4 cards in hand and a threat under 1.0, which an opponent's call (1.5) or yaku
    # (1.0) alone exceeds; only then are the opponent's near yaku weighed.
    if my_points > 3 or hand.bit_count() < 4 or opp_calls or yaku(opp_pile, field)[1]:
        return False
    threat = 0.0
    for _slug, have, need in progress(opp_pile, rules):
        threat += 1.0 if need - have <= 1 else 0.4
    return threat < 1.0


def greedy_reader(player, state, legal: list[Action], rng: Rng) -> Action | None:
    """The greedy Koi-Koi card choice (``GreedyPlayer._score``) read straight from the state's
    bit sets: no observation, several times faster. Ties are broken as in :func:`koikoi_rollout`."""
    if state.phase not in ("play", "choose_draw"):
        return None
    seat = state.current
    mine, theirs = state.captured[seat], state.captured[1 - seat]
    field, hand = state.field, state.hands[seat]
    seen = mine | theirs | field | hand
    scored = []
    for i, a in enumerate(legal):
        if a.kind == "choose":
            score = worth(_ID[a.target], mine, theirs)
        else:
            c = _ID[a.card]
            month = MONTH_MASKS[DECK[c].month]
            taken = 1 << _ID[a.target] if a.target is not None else field & month
            if taken:
                score = worth(c, mine, theirs)
                while taken:
                    low = taken & -taken
                    score += worth(low.bit_length() - 1, mine, theirs)
                    taken ^= low
            else:
                risk = worth(c, theirs, mine) * (0.4 + 0.2 * (month & ~seen).bit_count())
                score = -risk + (1.5 if hand & month & ~(1 << c) else 0.0)
        scored.append((score, i, 0))
    return legal[pick(scored, rng)[0]]
