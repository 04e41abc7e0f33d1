"""How a finished match turns into results and chips, per game.

Three kinds of stake (documented to players in ``/rules``; a game's descriptor says which is its
own, ``GameDescriptor.stake``):

* **pot games** (Koi-Koi, Mushi, Hana-Awase, Sakura): every seat puts the stake in the pot and the
  match winners share it (a Sakura team wins together);
* **per-point games** (Go-Stop, First Bloom): their scores are already payments between players,
  so the stake is the chips per point. Each seat escrows :data:`ESCROW_POINTS` times the stake,
  the most it can lose; the net points times the stake are settled, and when a loser's escrow
  cannot cover what it owes, the winners share what it has in proportion to their points;
* **betting games** (Seotda): the stake is the buy-in, each seat's stack at the table. Every seat
  escrows the buy-in when it sits down (the game's creation), like the stake of any other game,
  so one buy-in seats a player at one table. Antes, bets and pots then move chips between the
  stacks the engine keeps, all inside that escrow and never through a live balance: nothing a
  player does elsewhere (a gift, another table) can make a move unpayable, and the engine itself
  never lets a bet exceed the stack. When the game ends the escrow pays each seat what it holds
  at the table (:func:`stack_payouts`): its stack, plus, in a hand cut short, its own chips in
  that pot (cancelled) or a share of the forfeiter's (forfeited, :func:`forfeit_payouts`).

  A betting game stored by older code escrowed nothing at sit-down and moved each ante and bet
  from the live balance as it was made (:func:`bets_from_balance` tells such a game by its row;
  :func:`chip_moves` and :func:`escrowed` are its movements and refunds). It plays to its end that
  way: its stacks' chips are in the players' balances, not in an escrow that could pay them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.descriptor import BETTING, PER_POINT, descriptors
from bot.i18n import number, t
from bot.words import amount

PER_POINT_GAMES = frozenset(d.slug for d in descriptors() if d.stake == PER_POINT)
BETTING_GAMES = frozenset(d.slug for d in descriptors() if d.stake == BETTING)
ESCROW_POINTS = 30

ChipMove = tuple[str, int, int]
"""One movement of the chips of a betting game of the older code: ("stake", seat, chips) into the
escrow, or ("payout", seat, chips) out of it (the ledger's transfer kinds)."""


def is_per_point(game: str) -> bool:
    return game in PER_POINT_GAMES


def is_betting(game: str) -> bool:
    """A game played with stacks of chips that its own rules bet, call and pay out."""
    return game in BETTING_GAMES


def match_nouns(game: str) -> tuple[str, str]:
    """The nouns (``bot.words.NOUNS``) a match of ``game`` is counted in, its deals and its
    score, as its table words them: rounds and points, or a betting game's hands and chips."""
    return ("hand", "chip") if is_betting(game) else ("round", "point")


def escrow_for(game: str, stake: int) -> int:
    """Chips each seat puts in escrow when a game started with ``stake`` is created (a betting
    game's stake is its buy-in, escrowed whole)."""
    return stake * ESCROW_POINTS if is_per_point(game) else stake


def cover_for(game: str, stake: int) -> int:
    """Chips each player must hold to sit down: what the seat escrows."""
    return escrow_for(game, stake)


def bets_from_balance(game: str, stake: int, escrowed_stake: int) -> bool:
    """Whether a stored game is a betting game of the older code, which moved every ante and bet
    from the live balance as it was made: it plays for chips (``stake``, the buy-in its state
    keeps) yet escrowed nothing when it was created (``escrowed_stake``, its row's stake)."""
    return is_betting(game) and bool(stake) and not escrowed_stake


def stake_text(game: str, stake: int, currency: str = "chips") -> str:
    if not stake:
        return t("no stake")
    if is_betting(game):
        return t("buy-in {amount} each, held at the table until the game ends",
                 amount=amount(stake, currency))
    if is_per_point(game):
        return t("{amount} per point (up to {most} each)", amount=amount(stake, currency),
                 most=number(escrow_for(game, stake)))
    return t("stake {amount} each, the winner takes the pot", amount=amount(stake, currency))


def outcomes(num_seats: int, winners: Sequence[int], *, team_win: bool = False) -> list[str]:
    """won / lost / draw per seat. Several winners draw, unless they are one team."""
    top = "won" if len(winners) == 1 or team_win else "draw"
    return [top if s in winners else "lost" for s in range(num_seats)]


def chip_deltas(scores: Sequence[int], unit: int, escrow: int) -> dict[int, int]:
    """seat -> net chips for a per-point game: ``scores`` (zero-sum) times ``unit``, no seat
    losing more than ``escrow``; what the losers pay goes to the winners by their points."""
    raw = [s * unit for s in scores]
    paid = {s: min(-v, escrow) for s, v in enumerate(raw) if v < 0}
    total = sum(paid.values())
    gainers = {s: v for s, v in enumerate(raw) if v > 0}
    deltas = {s: 0 for s in range(len(scores))}
    for s, v in paid.items():
        deltas[s] = -v
    weight = sum(gainers.values())
    if not total or not weight:
        return deltas
    shares = {s: total * v // weight for s, v in gainers.items()}
    left = total - sum(shares.values())
    for s in sorted(gainers, key=lambda s: (-gainers[s], s))[:left]:
        shares[s] += 1
    deltas.update(shares)
    return deltas


def chip_moves(events: Sequence[dict]) -> list[ChipMove]:
    """The ledger movements a betting game of the older code makes for ``events``
    (:func:`bets_from_balance`), in order: each ante and bet into the escrow, each pot's winnings
    out of it. Derived from the stored events alone, so a move retried or resumed after a
    restart names the same movements."""
    moves: list[ChipMove] = []
    for event in events:
        kind = event.get("type")
        if kind == "ante":
            moves += [("stake", int(s), c) for s, c in sorted(event["antes"].items(), key=lambda i: int(i[0]))
                      if c > 0]
        elif kind == "bet" and event["amount"] > 0:
            moves.append(("stake", event["player"], event["amount"]))
        elif kind == "pot":
            moves += [("payout", s, c) for s, c in enumerate(event["won"]) if c > 0]
    return moves


def escrowed(in_pot: Sequence[int]) -> dict[int, int]:
    """seat -> chips it has in the pot of the hand under way: the refunds of a cancelled game of
    the older code, whose escrow holds only that pot."""
    return {s: c for s, c in enumerate(in_pot) if c > 0}


def forfeit_payouts(in_pot: Sequence[int], forfeiter: int) -> dict[int, int]:
    """Who gets the pot of the hand under way when ``forfeiter`` gives up: every other seat its
    own chips back plus an even share of the forfeiter's (the odd chips to the lowest seats)."""
    others = [s for s in range(len(in_pot)) if s != forfeiter]
    share, odd = divmod(in_pot[forfeiter], len(others))
    payouts = {s: in_pot[s] + share + (1 if i < odd else 0) for i, s in enumerate(others)}
    return {s: c for s, c in payouts.items() if c > 0}


def stack_payouts(stacks: Sequence[int], in_pot: Sequence[int],
                  forfeiter: int | None = None) -> dict[int, int]:
    """What a betting game's escrow pays each seat when the game ends: its stack, plus the pot of
    a hand under way (``in_pot``, all zero between hands) as a cancel returns it (each seat its
    own chips) or as a forfeit by ``forfeiter`` shares it (:func:`forfeit_payouts`). The stacks
    and the pot together are every chip escrowed, so the payouts empty the escrow."""
    pot = escrowed(in_pot) if forfeiter is None else forfeit_payouts(in_pot, forfeiter)
    payouts = {s: c + pot.get(s, 0) for s, c in enumerate(stacks)}
    return {s: c for s, c in payouts.items() if c > 0}
