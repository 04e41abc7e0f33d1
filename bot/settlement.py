"""How a finished match turns into results and chips, per game.

Two kinds of stake (documented to players in ``/rules``):

* **pot games** (Koi-Koi, Mushi, Hana-Awase, Sakura): every seat puts the stake in the pot and the
  match winners share it (a Sakura team wins together);
* **per-point games** (Go-Stop, First Bloom): their scores are already payments between players,
  so the stake is the chips per point. Each seat escrows :data:`ESCROW_POINTS` times the stake,
  the most it can lose; the net points times the stake are settled, and when a loser's escrow
  cannot cover what it owes, the winners share what it has in proportion to their points;
* **betting games** (Seotda): the stake is the buy-in, the table's chips are real chips. Nothing is
  escrowed up front: every ante and bet moves exactly its chips from the player into the game's
  escrow in the transaction that stores the move, and every pot (side pots included) is paid out of
  escrow to its winners in the transaction that stores the showdown (ties split by the engine, the
  odd chip to the first winner after the dealer). A redeal keeps the pot in escrow. A cancelled
  game refunds what each seat has in the pot of the hand under way; a forfeit gives the
  forfeiter's chips in that pot to the others (see :func:`forfeit_payouts`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import number, t
from bot.words import amount

PER_POINT_GAMES = frozenset({"gostop", "shedding"})
BETTING_GAMES = frozenset({"seotda"})
ESCROW_POINTS = 30

ChipMove = tuple[str, int, int]
"""One movement of a betting game's chips: ("stake", seat, chips) into the escrow, or
("payout", seat, chips) out of it (the ledger's transfer kinds)."""


def is_per_point(game: str) -> bool:
    return game in PER_POINT_GAMES


def is_betting(game: str) -> bool:
    """A game whose bets are moved through the ledger one by one as they are made."""
    return game in BETTING_GAMES


def escrow_for(game: str, stake: int) -> int:
    """Chips each seat puts in escrow when a game started with ``stake`` is created."""
    if is_betting(game):
        return 0  # its bets are escrowed as they are made
    return stake * ESCROW_POINTS if is_per_point(game) else stake


def cover_for(game: str, stake: int) -> int:
    """Chips each player must hold to sit down: the escrow, or a betting game's buy-in."""
    return stake if is_betting(game) else escrow_for(game, stake)


def stake_text(game: str, stake: int, currency: str = "chips") -> str:
    if not stake:
        return t("no stake")
    if is_betting(game):
        return t("buy-in {amount} each, every bet paid in chips as it is made",
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
    """The ledger movements a betting game's events make, in order: each ante and bet into the
    escrow, each pot's winnings out of it. Derived from the stored events alone, so a move
    retried or resumed after a restart names the same movements."""
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
    """seat -> chips it has in the pot of the hand under way (a cancelled game's refunds)."""
    return {s: c for s, c in enumerate(in_pot) if c > 0}


def forfeit_payouts(in_pot: Sequence[int], forfeiter: int) -> dict[int, int]:
    """Who gets the pot of the hand under way when ``forfeiter`` gives up: every other seat its
    own chips back plus an even share of the forfeiter's (the odd chips to the lowest seats)."""
    others = [s for s in range(len(in_pot)) if s != forfeiter]
    share, odd = divmod(in_pot[forfeiter], len(others))
    payouts = {s: in_pot[s] + share + (1 if i < odd else 0) for i, s in enumerate(others)}
    return {s: c for s, c in payouts.items() if c > 0}
