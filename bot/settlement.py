"""How a finished match turns into results and chips, per game.

Two kinds of stake (documented to players in ``/rules``):

* **pot games** (Koi-Koi, Mushi, Hana-Awase, Sakura): every seat puts the stake in the pot and the
  match winners share it (a Sakura team wins together);
* **per-point games** (Go-Stop, First Bloom): their scores are already payments between players,
  so the stake is the chips per point. Each seat escrows :data:`ESCROW_POINTS` times the stake,
  the most it can lose; the net points times the stake are settled, and when a loser's escrow
  cannot cover what it owes, the winners share what it has in proportion to their points.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import number, t
from bot.words import amount

PER_POINT_GAMES = frozenset({"gostop", "shedding"})
ESCROW_POINTS = 30


def is_per_point(game: str) -> bool:
    return game in PER_POINT_GAMES


def escrow_for(game: str, stake: int) -> int:
    """Chips each seat puts in escrow for a game started with ``stake``."""
    return stake * ESCROW_POINTS if is_per_point(game) else stake


def stake_text(game: str, stake: int, currency: str = "chips") -> str:
    if not stake:
        return t("no stake")
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
