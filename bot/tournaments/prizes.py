"""How a tournament's pot is paid out: single elimination, winner takes all; Swiss and round
robin, 60% / 30% / 10% to the first three (with two entrants, 70% / 30%: a place nobody
can take adds its share to the first). Shares are
whole chips rounded down; what rounding leaves goes to the first place, so the shares always add
up to the pot exactly."""

from __future__ import annotations

SPLITS = {
    "single_elimination": (100,),
    "swiss": (60, 30, 10),
    "round_robin": (60, 30, 10),
}


def prize_split(fmt: str, entrants: int) -> tuple[int, ...]:
    """Percent of the pot per place, first place first (as many places as there are entrants,
    the places beyond folded into first)."""
    split = SPLITS[fmt]
    if entrants >= len(split):
        return split
    if entrants <= 1:
        return (100,)
    kept = list(split[:entrants])
    kept[0] += 100 - sum(kept)
    return tuple(kept)


def prize_shares(pot: int, fmt: str, entrants: int) -> list[int]:
    """Chips per place (first place first), adding up to ``pot`` exactly."""
    if pot < 0:
        raise ValueError("a pot cannot be negative")
    split = prize_split(fmt, entrants)
    shares = [pot * pct // 100 for pct in split]
    shares[0] += pot - sum(shares)
    return shares
