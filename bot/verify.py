"""Check a revealed game record: ``python -m bot.verify FILE`` (and ``/verify`` on Discord).

A record exported with ``/export`` carries, once its game has ended, the server seed, its
commitment, the interaction ids the match seed was derived from, and every deal as the engine dealt
it (:func:`fair_deal_section`). This module recomputes the commitment, the match seed and every
deal with the published shuffle (docs/fair-deals.md) and says, check by check, whether they agree.
What it reads may be anything: every problem with the input is one :class:`BadRecord`, worded by
:func:`problem_sentence`, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.fairness import (
    DERIVATION,
    FairDeal,
    Input,
    commitment_of,
    derive_seed,
    is_commitment,
    is_server_seed,
    round_seed,
)
from bot.games import GAMES, game_module
from bot.games.base import DEAL_WATCH, GameError
from bot.games.capture import deal_from
from bot.games.gostop.scoring import card_id
from bot.games.rng import SHUFFLES, Rng
from bot.i18n import N_, t
from bot.refusal import Refusal
from bot.words import plural

__all__ = ["BadRecord", "Check", "Verdict", "fair_deal_section", "recorded_deals", "verify_document",
           "check_sentence", "problem_sentence", "verdict_lines", "main"]

MAX_DEALS_IN_ROUND = 1000
"""The engines give up after this many void deals in a row; a record claiming more is malformed."""
SEOTDA_DECK = ("crane", "poetry_ribbon_jan", "bush_warbler", "poetry_ribbon_feb", "curtain",
               "poetry_ribbon_mar", "cuckoo", "plain_ribbon_apr", "bridge", "plain_ribbon_may",
               "butterflies", "blue_ribbon_jun", "boar", "plain_ribbon_jul", "moon", "geese",
               "sake_cup", "blue_ribbon_sep", "deer", "blue_ribbon_oct")
"""Seotda's twenty cards in their unshuffled order (the game's own ``DECK``)."""


class BadRecord(Refusal):
    """The input is not a record this can check; ``code`` says why, ``field`` where."""


# -- writing the deals down --------------------------------------------------------------------------
def _void_deals(events: Sequence[dict[str, Any]]) -> int:
    """Deals a round's opening events say were shuffled and thrown in (a misdeal or a redeal)."""
    return sum(1 for e in events if e.get("type") in ("misdeal", "redeal"))


def _snapshot(state: Any, deal: int) -> dict[str, Any]:
    """One deal as the engine holds it right after dealing: every hand, the face-up cards (the
    field with anything the rules moved off it at once) and the stock, top card first."""
    hands = state.hands
    if state.GAME == "seotda":
        order = {c: i for i, c in enumerate(SEOTDA_DECK)}
        shown_hands = [sorted(h, key=order.__getitem__) for h in hands]
        table: list[str] = []
        stock = list(reversed(state.stock))
        seats = [s for s, h in enumerate(hands) if h]
    else:
        shown_hands = [[card_id(i) for i in _bits(h)] for h in hands]
        face_up = state.field
        for pile in getattr(state, "captured", ()):
            face_up |= pile
        table = [card_id(i) for i in _bits(face_up)]
        pile = state.draw if state.GAME == "shedding" else state.stock
        stock = [card_id(i) for i in reversed(pile)]
        seats = list(range(len(hands)))
    return {"round": state.round_number, "deal": deal, "dealer": state.dealer, "seats": seats,
            "hands": shown_hands, "table": table, "stock": stock}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def recorded_deals(new_match: Callable[[], Any], actions: Sequence[str]) -> list[dict[str, Any]]:
    """Every deal of a match, written down as the engine dealt it while ``actions`` are replayed
    on ``new_match()``: each round's deal (also a round the deal itself decided), and Seotda's
    redeals within a round. Raises GameError if an action no longer applies."""
    deals: list[dict[str, Any]] = []
    count: dict[int, int] = {}

    def dealt(state: Any) -> None:
        count[state.round_number] = 1 + _void_deals(getattr(state, "start_events", ()))
        deals.append(_snapshot(state, count[state.round_number]))

    token = DEAL_WATCH.set(dealt)
    try:
        match = new_match()
        for action in actions:
            before = match.round
            events = match.apply(action)
            if match.round is before and _void_deals(events):  # redealt within the round
                count[before.round_number] += _void_deals(events)
                deals.append(_snapshot(before, count[before.round_number]))
    finally:
        DEAL_WATCH.reset(token)
    return deals


def fair_deal_section(deal: FairDeal | None, deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``fair_deal`` section of an exported record (an ended game's: its seed revealed)."""
    if deal is None or deal.server_seed is None:
        return {"committed": False, "deals": deals}
    return {"committed": True, "derivation": deal.derivation, "commitment": deal.commitment,
            "server_seed": deal.server_seed, "inputs": deal.inputs_json(), "deals": deals}


# -- the published deal, recomputed -----------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """How one deal lays a shuffled deck out: the unshuffled deck, whether the cards are dealt
    from its end, the piles in dealing order with their sizes, and the packet size."""

    deck: tuple[str, ...]
    from_end: bool
    packets: tuple[tuple[str, int], ...]
    packet: int


_STANDARD = tuple(card_id(i) for i in range(48))


def layout(game: str, rules: Any, players: int, dealer: int, seats: Sequence[int]) -> Layout:
    """The documented layout of a deal of ``game`` (docs/fair-deals.md, "Dealing")."""
    n = players

    def hand(seat: int) -> str:
        return f"hand{seat}"

    after = [(dealer + k) % n for k in range(1, n)]  # from the dealer's left, the dealer not yet
    if game == "koikoi":
        return Layout(_STANDARD, False, ((hand(1 - dealer), rules.hand_size), ("field", 8),
                                         (hand(dealer), rules.hand_size)), rules.deal_packet)
    if game == "gostop":
        size, table = rules.deal_sizes(n)
        deck = tuple(card_id(i) for i in range(48 + rules.jokers))
        return Layout(deck, False, (("field", table), *((hand(s), size) for s in [*after, dealer])),
                      4 if n == 2 else 3)
    if game == "mushi":
        deck = tuple(card_id(i) for i in (*range(20), *range(28, 48)))
        return Layout(deck, False, ((hand(1 - dealer), 8), ("field", 8), (hand(dealer), 8)), 4)
    if game == "hana_awase":
        size, table = {2: (rules.two_player_hand, 8), 3: (7, 6), 4: (5, 8)}[n]
        dealt = [(hand(s), size) for s in [*after, dealer]]
        if n == 2:
            return Layout(_STANDARD, False, (dealt[0], ("field", table), dealt[1]), 4)
        return Layout(_STANDARD, False, (*dealt, ("field", table)), 4)
    if game == "sakura":
        size, table = {2: (8, 8), 3: (7, 6), 4: (5, 8), 5: (4, 8), 6: (3, 12), 7: (3, 6)}[n]
        return Layout(_STANDARD, False, (*((hand(s), size) for s in after), ("field", table),
                                         (hand(dealer), size)), 2)
    if game == "shedding":
        size = 5 if n <= 3 else 4
        return Layout(_STANDARD, False, (*((hand(s), size) for s in [*after, dealer]), ("field", 4)),
                      size)
    if game == "seotda":
        order = [s for s in [*after, dealer] if s in seats]
        return Layout(SEOTDA_DECK, True, tuple((hand(s), 2) for s in order), 1)
    raise BadRecord(code="unknown_game", game=game)


def shuffled(deck: Sequence[str], rng: Rng, shuffle: int) -> list[str]:
    """A fresh copy of ``deck`` shuffled by ``rng`` the ``shuffle`` way."""
    cards = list(deck)
    rng.shuffle(cards, shuffle)
    return cards


def lay_out(plan: Layout, deck: list[str], players: int) -> dict[str, Any]:
    """The piles ``deck`` (already shuffled) is dealt into by ``plan``, stock top card first."""
    order = deck[::-1] if plan.from_end else deck
    piles, _ = deal_from(list(range(len(order))), list(plan.packets), plan.packet)  # positions
    dealt = sum(size for _, size in plan.packets)
    hands = [[order[i] for i in piles.get(f"hand{s}", [])] for s in range(players)]
    return {"hands": hands, "field": [order[i] for i in piles.get("field", [])],
            "stock": order[dealt:]}


# -- checking a record -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """One comparison: ``what`` ('commitment', 'seed', 'deal', 'rounds'), whether it holds, and
    for a deal its round, its number in the round and what differs ('hand' of ``seat``, 'stock'
    or 'table')."""

    what: str
    ok: bool
    round: int | None = None
    deal: int | None = None
    differs: str = ""
    seat: int | None = None


@dataclass
class Verdict:
    """Everything checked about one record."""

    game: str
    game_id: Any
    committed: bool
    after_commitment: bool = False
    checks: list[Check] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        """Nothing checked disagrees (and something was checked)."""
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def agrees(self) -> bool:
        """A committed deal whose every check holds: what a player can rely on."""
        return self.committed and self.holds

    @property
    def deals(self) -> int:
        return sum(1 for c in self.checks if c.what == "deal")

    @property
    def rounds(self) -> int:
        return len({c.round for c in self.checks if c.what == "deal"})


def _need(data: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, dict) or name not in data:
        raise BadRecord(code="missing_field", field=name)
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRecord(code="bad_value", field=name)
    return value


def _cards(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadRecord(code="bad_value", field=name)
    return value


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadRecord(code="bad_value", field=name)
    return value


def verify_document(doc: Any) -> Verdict:
    """Recompute the commitment, the match seed and every deal of an exported record and compare
    them with what it says; BadRecord when it is not such a record."""
    if not isinstance(doc, dict):
        raise BadRecord(code="not_a_record")
    game = _need(doc, "game", str)
    if game not in GAMES:
        raise BadRecord(code="unknown_game", game=game)
    module = game_module(game)
    players = _need(doc, "players", list)
    n = len(players)
    low, high = module.PLAYERS
    if not low <= n <= high:
        raise BadRecord(code="bad_value", field="players")
    try:
        rules = module.Rules.from_dict(dict(_need(doc, "rules", dict)))
    except (GameError, TypeError, ValueError, KeyError, AttributeError):
        raise BadRecord(code="bad_value", field="rules") from None
    seed = _need(doc, "seed", (int, str))
    shuffle = doc.get("shuffle", 1)
    if shuffle not in SHUFFLES or isinstance(shuffle, bool):
        raise BadRecord(code="bad_value", field="shuffle")
    section = _need(doc, "fair_deal", dict)
    committed = _need(section, "committed", bool)
    verdict = Verdict(game=game, game_id=doc.get("game_id"), committed=committed)
    if isinstance(seed, str) and committed:
        raise BadRecord(code="bad_value", field="seed")
    if isinstance(seed, str):  # a game of the oldest code, seeded by a text: nothing to recompute
        return verdict
    _whole(seed, "seed", 0, 2**64 - 1)
    if committed:
        if _need(section, "derivation", int) != DERIVATION:
            raise BadRecord(code="bad_value", field="derivation")
        server_seed = _need(section, "server_seed", str)
        shown = _need(section, "commitment", str)
        if not is_server_seed(server_seed):
            raise BadRecord(code="bad_value", field="server_seed")
        if not is_commitment(shown):
            raise BadRecord(code="bad_value", field="commitment")
        try:
            inputs = [Input.from_dict(i) for i in _need(section, "inputs", list)]
        except ValueError:
            raise BadRecord(code="bad_value", field="inputs") from None
        verdict.after_commitment = FairDeal(shown, tuple(inputs)).after_commitment
        verdict.checks.append(Check("commitment", commitment_of(server_seed) == shown))
        verdict.checks.append(Check("seed", derive_seed(server_seed, [i.id for i in inputs]) == seed))
    deals = _need(section, "deals", list)
    if not deals:
        raise BadRecord(code="missing_field", field="deals")
    rounds: list[int] = []
    for entry in deals:
        verdict.checks.append(_check_deal(game, rules, n, seed, shuffle, entry))
        if not rounds or rounds[-1] != entry["round"]:
            rounds.append(entry["round"])
    verdict.checks.append(Check("rounds", rounds == list(range(1, len(rounds) + 1))))
    return verdict


def _check_deal(game: str, rules: Any, n: int, seed: int, shuffle: int, entry: Any) -> Check:
    """One recorded deal against the deal its round's generator makes."""
    number = _whole(_need(entry, "round", int), "round", 1, 10**9)
    deal = _whole(_need(entry, "deal", int), "deal", 1, MAX_DEALS_IN_ROUND)
    dealer = _whole(_need(entry, "dealer", int), "dealer", 0, n - 1)
    seats = _need(entry, "seats", list)
    if not seats or not all(type(s) is int and 0 <= s < n for s in seats):
        raise BadRecord(code="bad_value", field="seats")
    hands = _need(entry, "hands", list)
    if len(hands) != n:
        raise BadRecord(code="bad_value", field="hands")
    hands = [_cards(h, "hands") for h in hands]
    table = _cards(_need(entry, "table", list), "table")
    stock = _cards(_need(entry, "stock", list), "stock")
    plan = layout(game, rules, n, dealer, seats)
    rng = Rng(round_seed(seed, number))
    for _ in range(deal - 1):  # the deals thrown in before this one
        shuffled(plan.deck, rng, shuffle)
    expected = lay_out(plan, shuffled(plan.deck, rng, shuffle), n)
    found = Check("deal", True, number, deal)
    return _compare(found, expected, hands, table, stock)


def _compare(found: Check, expected: dict[str, Any], hands: list[list[str]], table: list[str],
             stock: list[str]) -> Check:
    """Whether the recorded piles are the computed ones. The rules may act on a deal before the
    first move (Go-Stop's jokers on the field go to the dealer and are replaced from the stock,
    a third Seotda card when every seat is all in): cards then leave the top of the stock for
    the table or a hand, and nothing else moves."""
    taken = len(expected["stock"]) - len(stock)
    if taken < 0 or expected["stock"][taken:] != stock:
        return Check("deal", False, found.round, found.deal, "stock")
    extra = set(expected["stock"][:taken])
    for seat, (want, got) in enumerate(zip(expected["hands"], hands, strict=True)):
        if not set(want) <= set(got) or not set(got) - set(want) <= extra or len(set(got)) != len(got):
            return Check("deal", False, found.round, found.deal, "hand", seat)
        extra -= set(got) - set(want)
    if set(table) != set(expected["field"]) | extra or len(set(table)) != len(table):
        return Check("deal", False, found.round, found.deal, "table")
    return found


# -- words -------------------------------------------------------------------------------------------
_PROBLEMS = {
    "unreadable": N_("I can't read that file: {problem}."),
    "not_json": N_("That file is not JSON; give the file /export made."),
    "not_a_record": N_("That JSON is not a game record; give the file /export made."),
    "missing_field": N_("The record has no valid '{field}'; it is not a complete record from "
                        "/export (records from before fair deals have no 'fair_deal')."),
    "bad_value": N_("The record's '{field}' is not valid, so nothing can be checked."),
    "unknown_game": N_("The record is of a game this bot does not know ({game})."),
}


def problem_sentence(exc: BadRecord) -> str:
    """The one sentence a bad input is answered with."""
    return t(_PROBLEMS.get(exc.code, _PROBLEMS["not_a_record"]), **exc.facts)


def check_sentence(check: Check) -> str:
    """One check in words."""
    if check.what == "commitment":
        return (t("The server seed hashes to the commitment shown before the deal.") if check.ok else
                t("The server seed does not hash to the commitment: the record was changed."))
    if check.what == "seed":
        return (t("The match seed is the one derived from the server seed and the interactions.")
                if check.ok else
                t("The match seed is not the one derived from the server seed and the interactions."))
    if check.what == "rounds":
        return (t("Every round from the first is there.") if check.ok else
                t("The rounds of the record do not follow one another from round 1."))
    if check.ok:
        return t("Round {round}, deal {deal}: as the seed deals it.", round=check.round, deal=check.deal)
    if check.differs == "hand":
        return t("Round {round}, deal {deal}: seat {seat}'s hand is not what the seed deals.",
                 round=check.round, deal=check.deal, seat=(check.seat or 0) + 1)
    if check.differs == "stock":
        return t("Round {round}, deal {deal}: the stock is not what the seed deals.",
                 round=check.round, deal=check.deal)
    return t("Round {round}, deal {deal}: the face-up cards are not what the seed deals.",
             round=check.round, deal=check.deal)


def verdict_headline(verdict: Verdict) -> str:
    if verdict.checks and not verdict.holds:
        return t("Disagree: this record does not match what its seed deals.")
    if not verdict.committed:
        if not verdict.checks:
            return t("Not committed: this game was dealt before deals were committed; there is "
                     "nothing to check.")
        return t("Not committed: this game was dealt before deals were committed, but every deal "
                 "follows its seed.")
    return t("Agree: the commitment, the seed and the {deals} of {rounds} check out.",
             deals=plural(verdict.deals, "deal"), rounds=plural(verdict.rounds, "round"))


def verdict_lines(verdict: Verdict, *, every_deal: bool = False) -> list[str]:
    """The headline, then each check (the deals that agree only with ``every_deal``)."""
    lines = [verdict_headline(verdict)]
    for check in verdict.checks:
        if check.what != "deal" or not check.ok or every_deal:
            lines.append(("✅ " if check.ok else "❌ ") + check_sentence(check))
    if verdict.committed and not verdict.after_commitment:
        lines.append(t("Note: this game started in one step, so the bot knew every input when it "
                       "committed; only games from a lobby, challenge or rematch mix in presses "
                       "it could not foresee."))
    return lines


# -- the command line --------------------------------------------------------------------------------
def read_record(path: str) -> Any:
    """The JSON in ``path`` ("-": standard input); BadRecord if it cannot be read or parsed."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadRecord(code="unreadable", problem=getattr(exc, "strerror", None) or type(exc).__name__) \
            from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadRecord(code="not_json") from None


def main(argv: list[str] | None = None) -> int:
    """Exit 0 when the record agrees, 1 when it disagrees, 2 when it cannot be checked, 3 when
    its game was not committed (its deals, if any, follow its seed)."""
    parser = argparse.ArgumentParser(prog="python -m bot.verify",
                                     description="Check a game record exported with /export.")
    parser.add_argument("file", help="the JSON file /export made (-: read it from standard input)")
    parser.add_argument("--every-deal", action="store_true", help="list the deals that agree too")
    args = parser.parse_args(argv)
    try:
        verdict = verify_document(read_record(args.file))
    except BadRecord as exc:
        print(problem_sentence(exc), file=sys.stderr)
        return 2
    except Exception as exc:  # whatever a crafted file trips, the answer is one sentence
        print(t("That record cannot be checked ({problem}).", problem=type(exc).__name__), file=sys.stderr)
        return 2
    print("\n".join(verdict_lines(verdict, every_deal=args.every_deal)))
    if verdict.checks and not verdict.holds:
        return 1
    return 0 if verdict.committed else 3


if __name__ == "__main__":
    sys.exit(main())
