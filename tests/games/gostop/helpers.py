"""Small helpers for hand-built Go-Stop positions."""

from __future__ import annotations

from bot.games.gostop import GoStopRound, Rules
from bot.games.gostop.scoring import ids

# Cards that match nothing in the positions below, to pad hands and the stock.
FILLER = ["susuki_chaff_1", "susuki_chaff_2", "maple_chaff_1", "maple_chaff_2",
          "chrysanthemum_chaff_1", "chrysanthemum_chaff_2", "clover_chaff_1", "clover_chaff_2"]


def rnd(hands, field, stock, captured=None, dealer=0, carry=None, **options) -> GoStopRound:
    """A position; a stock ending in ``"..."`` is padded with the FILLER cards not used elsewhere."""
    rules = Rules(**options) if options else Rules()
    if stock and stock[-1] == "...":
        used = set(field) | {c for h in hands for c in h} | {c for p in captured or [] for c in p}
        used |= set(stock[:-1])
        stock = list(stock[:-1]) + [c for c in FILLER if c not in used]
    return GoStopRound.from_cards(hands, field, stock, captured=captured, rules=rules,
                                  dealer=dealer, carry=carry)


def types(events) -> list[str]:
    return [e["type"] for e in events]


def of_type(events, kind) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def pile(s: GoStopRound, seat: int) -> set[str]:
    return set(ids(s.captured[seat]))


def legal(s: GoStopRound) -> set[str]:
    return {str(a) for a in s.legal_actions()}
