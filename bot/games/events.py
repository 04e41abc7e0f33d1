"""Reading the events a game's rounds emit, where more than one part of the bot reads them: the
store's records and achievements, the simulator's tallies and the games' own feats."""

from __future__ import annotations

from typing import Any

__all__ = ["round_yaku"]


def round_yaku(event: dict[str, Any]) -> dict[int, list[list[Any]]]:
    """Seat -> the yaku entries ``[slug, points, cards...]`` a ``round_over`` event credits.

    Games that score every seat's yaku give ``detail.yaku_by_seat``; the others (Koi-Koi,
    Go-Stop) list only the round winner's yaku in ``detail.yaku``.
    """
    detail = event.get("detail") or {}
    if isinstance(detail.get("yaku_by_seat"), dict):
        return {int(k): list(v or []) for k, v in detail["yaku_by_seat"].items()}
    if event.get("winner") is not None and isinstance(detail.get("yaku"), list):
        return {int(event["winner"]): list(detail["yaku"])}
    return {}
