"""Running a tournament's rounds: each advanced as far as its stored state allows, its pairings
made and their tables opened, and the results read from the games."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.discord_ui.app import app
from bot.discord_ui.speaking import in_server
from bot.discord_ui.text import safe_name
from bot.games import game_module
from bot.i18n import t
from bot.store import EVERY_SERVER
from bot.store.tournaments import Tournament
from bot.tables import AlreadyStarted, ai_seat
from bot.tournaments import pairing as fmt

log = logging.getLogger(__package__)  # the extension's lines all log as "cogs.tournaments"


class Rounds:
    """Mixin of :class:`.cog.TournamentCog`: running the rounds (its bot, store, locks, schedule,
    retry delay and the games it waits for are the cog's; its posts :class:`.posts.Posts`)."""

    async def _advance_after(self, tid: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        await self.advance(tid)

    async def advance(self, tid: int) -> None:
        """Bring a tournament as far as its stored state allows: record finished games, announce
        a completed round, pair and open the next, or finish and pay the prizes."""
        try:
            async with self.lock(tid):
                await self._advance(tid)
        except asyncio.CancelledError:
            raise
        except Exception:  # database trouble, Discord refusing a post: try again shortly
            log.exception("tournament %s could not advance; trying again in %g s", tid,
                          self.retry_s)
            self.schedule(tid, delay=self.retry_s)

    async def _advance(self, tid: int) -> None:
        store = self.store
        while True:
            tour = await store.tournament(tid, scope=EVERY_SERVER)
            if tour.status != "running":
                return
            if tour.round == 0:
                first = self._pairing(tour, 1)
                tour = await store.begin_tournament_round(tid, 1, first.pairs, first.byes)
                await self._refresh_message(tour)
                continue
            r = tour.round
            recorded = False
            pending = [p for p in tour.round_pairings(r) if p.status == "pending"]
            for p in pending:
                game_id = p.game_id if p.game_id is not None else await self._open_table(tour, p)
                result = await self._result(tour, p, game_id)
                if result is not None:
                    await store.record_tournament_result(tid, r, p.board, result[0])
                    recorded = True
            if recorded:
                continue
            if pending:
                return  # waiting for games
            status, announced = tour.round_status[r]
            if status != "done":
                return
            following = self._pairing(tour, r + 1)
            ranking = self._ranking(tour) if following is None else None
            if not announced:  # posted before the next step is stored: a crash repeats it
                await self._post_standings(tour, ranking)
                await store.mark_tournament_round_announced(tid, r)
            if following is not None:
                tour = await store.begin_tournament_round(tid, r + 1, following.pairs,
                                                          following.byes)
                await self._refresh_message(tour)
                continue
            tour = await store.finish_tournament(tid, ranking)
            await self._refresh_message(tour)
            return

    def _ranking(self, tour: Tournament) -> list[int]:
        seeds = [e.seed for e in tour.seeded]
        table = (fmt.elimination_standings(seeds, tour.games(), tour.dropped_seeds)
                 if tour.format == "single_elimination"
                 else fmt.standings(seeds, tour.games(), tour.dropped_seeds))
        return [s.entrant for s in table]

    def _pairing(self, tour: Tournament, r: int) -> fmt.Pairing | None:
        """Round ``r``'s pairing from the results so far; None when the tournament is over."""
        active = tour.active_seeds
        if r > tour.rounds or len(active) < 2:
            return None
        seeds = [e.seed for e in tour.seeded]
        if tour.format == "single_elimination":
            pairing = fmt.pair_elimination(len(seeds), tour.games(), active, r)
            return pairing if pairing.pairs else None  # one player left: the champion
        if tour.format == "round_robin":
            return fmt.pair_round_robin(seeds, active, r)
        return fmt.pair_swiss(active, tour.games())

    async def _open_table(self, tour: Tournament, p: Any) -> int:
        """Open the table of pairing ``p`` (once: keyed by tournament, round and board)."""
        key = f"tournament:{tour.tournament_id}:{p.round}:{p.board}"
        a, b = tour.by_seed(p.a), tour.by_seed(p.b)
        seats = [e.user_id if e.user_id is not None else ai_seat(e.ai_level) for e in (a, b)]
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            headline = t("Tournament #{number}, round {round}, table {board}: {a} vs {b}.",
                         number=tour.tournament_id, round=p.round, board=p.board,
                         a=safe_name(a.name), b=safe_name(b.name))
        try:
            table = await app(self.bot).tables.start(
                guild_id=tour.guild_id, channel_id=tour.channel_id, game=tour.game, players=seats,
                names=[a.name, b.name], host_id=tour.created_by,
                rules=game_module(tour.game).Rules.from_dict(tour.rules), stake=0,
                key=key, headline=headline)
            game_id = table.game_id
        except AlreadyStarted:  # opened before a restart, or by a retry
            game_id = await self.store.game_started_as(tour.guild_id, key)
            if game_id is None:
                raise
        self._games[game_id] = tour.tournament_id
        await self.store.link_tournament_game(tour.tournament_id, p.round, p.board, game_id)
        return game_id

    async def _result(self, tour: Tournament, p: Any, game_id: int) -> tuple[int | None] | None:
        """(the winning seed, or None for a draw) of a pairing whose game has ended; None while
        it runs. A game cancelled outside the tournament counts as a draw."""
        record = await self.store.load_game(game_id, scope=tour.guild_id, with_events=False)
        if record.status == "running":
            return None
        if record.status != "finished":
            return (None,)
        seeds = (p.a, p.b)
        outcome = await self.store.game_outcome(game_id, guild_id=tour.guild_id)
        verdicts = {r.seat: r.outcome for r in outcome.results}  # human seats only
        if "won" in verdicts.values():
            return (seeds[next(s for s, v in verdicts.items() if v == "won")],)
        if "lost" in verdicts.values():  # lost, or forfeited, against an AI seat
            return (seeds[1 - next(s for s, v in verdicts.items() if v == "lost")],)
        if verdicts:
            return (None,)
        match = game_module(record.game).match_from_dict(record.state["match"])  # AI vs AI
        winners = match.winners() if match.is_over else []
        return (seeds[winners[0]],) if len(winners) == 1 else (None,)
