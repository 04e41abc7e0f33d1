"""Whether a whole database is sound, after a restore or an upgrade: the ledger balances, every
game replays from its seed and actions to the state stored with it, every ended game dealt from a
commitment verifies (docs/fair-deals.md), and every running game loads as the bot resumes it and
offers its next move."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.games import game_module
from bot.games.base import GameError
from bot.replay import Replay, ReplayError, deal_document
from bot.store import EVERY_SERVER, Store
from bot.tables import Table
from bot.verify import BadRecord, verify_document

__all__ = ["Checkup", "check_store"]


@dataclass
class Checkup:
    accounts: int = 0
    transfers: int = 0
    replayed: int = 0  # finished and cancelled games replayed
    resumed: int = 0  # running games loaded with their next move
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        head = (f"ledger: {self.accounts:,} accounts, {self.transfers:,} transfers; games: "
                f"{self.replayed:,} ended replayed, {self.resumed:,} running resumed")
        if self.ok:
            return f"verified: {head}"
        return "\n".join([f"NOT verified: {head}", *(f"  problem: {p}" for p in self.problems)])


async def check_store(store: Store) -> Checkup:
    """Check everything of ``store``; the problems found are listed, none raised."""
    audit = await store.audit()
    report = Checkup(accounts=audit.accounts, transfers=audit.transfers)
    report.problems += [f"ledger: {problem}" for problem in audit.problems]
    for game_id, status in await store.game_statuses():
        record = await store.load_game(game_id, scope=EVERY_SERVER)
        problem = _replay(record) or (_resume(record) if status == "running" else _fair(record))
        if problem:
            report.problems.append(f"game #{game_id} ({status}): {problem}")
        elif status == "running":
            report.resumed += 1
        else:
            report.replayed += 1
    return report


def _replay(record) -> str | None:
    try:
        _, _, match = Replay(record).seats_and_intro()
    except ReplayError as exc:
        return f"does not replay: {exc}"
    stored = json.loads(record.state_json).get("match")
    replayed = match.to_dict()
    if stored is not None and replayed != stored and _as_loaded(record.game, stored) != replayed:
        return f"replays to another state than the stored one after {len(record.events)} action(s)"
    return None


def _fair(record) -> str | None:
    """Whether an ended game's committed deal verifies as anyone would verify it."""
    if record.deal is None:
        return None
    try:
        verdict = verify_document(deal_document(record))
    except (BadRecord, ReplayError) as exc:
        return f"its deal cannot be verified: {exc}"
    return None if verdict.agrees else "its deal does not verify against its commitment"


def _as_loaded(game: str, stored: dict) -> dict | None:
    """A stored state as this version reads it (an older version's format, brought up to date)."""
    try:
        return game_module(game).match_from_dict(stored).to_dict()
    except (GameError, KeyError, TypeError, ValueError):
        return None


def _resume(record) -> str | None:
    try:
        table = Table.from_record(record)
        if not table.match.is_over and table.match.current_player is not None \
                and not table.match.legal_actions():
            return "resumes with no legal move"
    except (GameError, KeyError, TypeError, ValueError) as exc:
        return f"does not resume: {type(exc).__name__}: {exc}"
    return None
