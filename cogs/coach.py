"""The coach: ``/review`` shows a player where their decisions in a finished game cost points.

Every decision the player made is priced by the search (:func:`bot.ai.coach.price`) in the AI
worker processes, never on the event loop, a few at a time so the tables' AI moves still get
workers; the private answer is edited as the pricing goes, then replaced by the costliest
moments (the position drawn in the render workers, the move made, the better move, what it
cost in points and in chance to win the round) and one line of summary. Each decision's rollout
seed comes from the game's seed and the move's number, so a review of a game is the same every
time; a second /review of a game still under review for the same player starts nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenter
from bot.ai.coach import (
    REVIEW_ROLLOUTS,
    Decision,
    Moment,
    Review,
    assess,
    budget,
    decisions,
    price,
    searchable,
)
from bot.discord_ui.answer import acknowledge, answers
from bot.discord_ui.app import app
from bot.discord_ui.background import Background, through_outages
from bot.discord_ui.cog import ServerCog, not_here, render_pool, server_only, store_of
from bot.discord_ui.command_links import links_for
from bot.discord_ui.delivery import UNDELIVERED, Retry, delivered, fixed_nonce, passing
from bot.discord_ui.parts import ACCENT, png
from bot.discord_ui.text import DESCRIPTION, NO_PINGS, clip, fit_embed, refuse
from bot.i18n import current, number, speaking, t
from bot.replay import Replay, ReplayError, action_words
from bot.rules_text import title
from bot.store import GameRecord, Scope, StoreError, UnknownGame
from bot.store.reviews import PendingReview
from bot.workers import PoolClosed, WorkerCrashed
from rendering.position import render_position

log = logging.getLogger(__name__)

PROGRESS_STEPS = 10
"""The progress message is edited at most this many times (every tenth of the decisions)."""


def review_rollouts(client: Any, game: str) -> int:
    """The rollouts per move of a review of ``game`` (the bot's setting, else the coach's)."""
    base = getattr(getattr(client, "settings", None), "review_rollouts", None) or REVIEW_ROLLOUTS
    return budget(game, base)


def record_seed(record: GameRecord) -> int:
    """A number from the game's seed (an int, or text for some stored games) for the rollouts."""
    return int.from_bytes(hashlib.sha256(f"review:{record.seed}".encode()).digest()[:8], "big")


async def load_record(interaction: discord.Interaction, game_id: int) -> GameRecord | None:
    """The game with its moves if it is one of this server's and over; else refuse and None
    (the store reads no record outside the server it was played in)."""
    scope = Scope.press(interaction.guild_id, interaction.user.id)
    try:
        record = await store_of(interaction).load_game(game_id, scope=scope, with_events=True)
    except UnknownGame:
        await refuse(interaction, not_here(game_id, await links_for(interaction)))
        return None
    if record.status == "running":
        await refuse(interaction, t("Game #{id} is still being played; you can look at it once "
                                    "it is over.", id=game_id))
        return None
    return record


def why_not(record: GameRecord, user_id: int) -> str | None:
    """The one sentence that refuses a review of ``record`` to ``user_id`` (None: it may go on)."""
    if record.status != "finished":
        return t("Game #{id} was cancelled; only games played to their end can be reviewed.",
                 id=record.game_id)
    if not searchable(record.game):
        return t("The coach cannot review {game}: it has no search AI to price the moves.",
                 game=title(record.game))
    if user_id not in record.players:
        return t("You did not play in game #{id}; you can review only your own games.",
                 id=record.game_id)
    return None


def review_decisions(record: GameRecord, user_id: int) -> list[Decision]:
    """The decisions ``user_id`` made in ``record`` (engine work: runs in a thread)."""
    replay = Replay(record)
    seat = record.players.index(user_id)
    return decisions(record.game, replay._new_match,
                     [(e.seq, e.action, e.actor) for e in record.events], seat, user_id,
                     record_seed(record))


def points(value: float) -> str:
    return f"{value:.1f}"  # one decimal always: "1.0 points", never "1 points"


def percent(value: float) -> str:
    return f"{number(round(100 * value))}%"


def summary(review: Review) -> str:
    """One line: what the decisions cost, and where most of it went."""
    if not review.moments:
        return t("No decision cost you half a point or more: well played.")
    calls = review.calls_lost >= review.plays_lost
    where = review.call_rounds if calls else review.play_rounds
    lost = points(review.calls_lost if calls else review.plays_lost)
    rounds = ", ".join(number(r) for r in where)
    if calls:
        if len(where) == 1:
            return t("You lost about {points} points to your calls in round {rounds}.",
                     points=lost, rounds=rounds)
        return t("You lost about {points} points to your calls in rounds {rounds}.",
                 points=lost, rounds=rounds)
    if len(where) == 1:
        return t("You lost about {points} points to your card plays in round {rounds}.",
                 points=lost, rounds=rounds)
    return t("You lost about {points} points to your card plays in rounds {rounds}.",
             points=lost, rounds=rounds)


def moment_embed(game: str, moment: Moment, n: int) -> discord.Embed:
    lines = [
        t("You chose: **{move}** ({points} points expected, {chance} to win the round)",
          move=action_words(game, moment.chosen), points=points(moment.chosen_points),
          chance=percent(moment.chosen_win)),
        t("Better: **{move}** ({points} points expected, {chance} to win the round)",
          move=action_words(game, moment.best), points=points(moment.best_points),
          chance=percent(moment.best_win)),
        t("Cost: {points} points and {chance} of the chance to win the round.",
          points=points(moment.points), chance=percent(max(0.0, moment.win))),
    ]
    embed = discord.Embed(title=t("{n}. Round {round}, move {seq}", n=n, round=moment.round,
                                  seq=moment.seq),
                          colour=ACCENT, description=clip("\n".join(lines), DESCRIPTION))
    embed.set_image(url=f"attachment://moment-{n}.png")
    return embed


class CoachCog(ServerCog):
    """``/review``: the player's own finished games, priced move by move. A request is noted in
    the store before it is acknowledged and taken off once its answer went out; one a stop cut
    short is made again at the next start and sent to the player by direct message."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._tasks = Background()
        self.retry = Retry(passing)  # the DMs of reviews made again (tests shorten its pauses)

    async def cog_load(self) -> None:
        store = getattr(self.bot, "store", None)
        if store is None:  # only publishing the commands
            return
        cut_short = await store.pending_reviews(app(self.bot).shard_plan.owns)
        if cut_short:
            self._tasks.start(self._make_again(cut_short))

    async def cog_unload(self) -> None:
        await self._tasks.close()  # the store closes after this

    @answers(private=True)
    @server_only
    @app_commands.command(name="review", description="See which of your decisions in a finished "
                          "game cost you the most points")
    @app_commands.describe(game_id="The game number (see /history)")
    async def review(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, 2**53 - 1]) -> None:
        record = await load_record(interaction, game_id)
        if record is None:
            return
        user = interaction.user.id
        problem = why_not(record, user)
        if problem is not None:
            await refuse(interaction, problem)
            return
        key = (record.guild_id, record.game_id, user)
        store = store_of(interaction)
        if not await store.note_review(*key, current()):  # the store knows every one in the making
            await refuse(interaction, t("Game #{id} is already being reviewed for you; the answer "
                                        "will replace the first one's progress message.",
                                        id=game_id))
            return
        answered = False
        try:
            await acknowledge(interaction, private=True)
            answered = await self._review(interaction, record, user)
        finally:
            if answered:
                await self._done(key)

    async def _done(self, key: tuple[int, int, int]) -> None:
        try:
            await store_of(self.bot).review_done(*key)
        except StoreError:  # the next start makes it once more: a second answer, never none
            log.warning("review %s: could not note it answered", key, exc_info=True)

    async def _review(self, interaction: discord.Interaction, record: GameRecord, user: int) -> bool:
        """Make the review and answer with it; whether the request needs nothing more (answered
        or refused for good), False when the bot stops first and makes it at its next start."""
        game_id = record.game_id
        try:
            embeds, files = await self._made(record, user, interaction)
        except ReplayError as exc:
            await refuse(interaction, t("I can't review game #{id}: {problem}.", id=game_id,
                                        problem=exc))
            return True
        except PoolClosed:
            await interaction.edit_original_response(content=t(
                "The bot is restarting; your review of game #{id} will come by direct message "
                "once it is back.", id=game_id))
            return False
        except WorkerCrashed:
            log.warning("the review of game %d stopped: the AI workers failed", game_id)
            await interaction.edit_original_response(content=t(
                "The review of game #{id} stopped because the bot is restarting or its AI "
                "workers failed; ask again in a moment.", id=game_id))
            return True
        await interaction.edit_original_response(content=None, embeds=embeds, attachments=files,
                                                 allowed_mentions=NO_PINGS)
        return True

    async def _made(self, record: GameRecord, user: int, interaction: discord.Interaction | None
                    ) -> tuple[list[discord.Embed], list[discord.File]]:
        """The review's answer, in the language spoken now: the summary, then each costliest
        moment with its picture. ``interaction``: the request whose progress is shown."""
        found = await asyncio.to_thread(review_decisions, record, user)
        progress = Progress(interaction, record.game_id, len(found)) if interaction else None
        if progress is not None:
            await progress.show(0)
        prices = await self._price_all(record.game, found, progress)
        review = assess(found, prices)
        by_seq = {d.seq: d for d in found}
        names = Replay(record).names
        embeds = [self._head(record, review)]
        files = []
        for n, moment in enumerate(review.moments, start=1):
            obs = by_seq[moment.seq].observation
            language = current()
            table = replace(presenter.table_view(obs, names), language=language)
            hand = replace(presenter.hand_view(obs), language=language)
            image = await render_pool(self.bot).run(render_position, table, hand)
            files.append(png(image, f"moment-{n}.png"))
            embeds.append(fit_embed(moment_embed(record.game, moment, n)))
        return embeds, files

    async def _make_again(self, cut_short: list[PendingReview]) -> None:
        """At start: the reviews a stop cut short, each made again and sent to its player by
        direct message, oldest first."""
        await self.bot.wait_until_ready()
        for request in cut_short:
            if await self._send_again(request):
                await self._done((request.guild_id, request.game_id, request.user_id))

    async def _send_again(self, request: PendingReview) -> bool:
        """Make one review again and send it by DM; False when the bot stops first (the next
        start tries again). The database away is waited out, and a DM Discord does not take for
        a passing reason is tried again under a nonce fixed by the request (sent once however
        often it is tried)."""
        try:
            record = await through_outages(lambda: store_of(self.bot).load_game(
                request.game_id, scope=request.guild_id, with_events=True))
            with speaking(request.language):
                embeds, files = await self._made(record, request.user_id, None)
                intro = t("The bot restarted while it reviewed game #{id}; here is your review.",
                          id=request.game_id)
            nonce = fixed_nonce("rv", request.guild_id, request.game_id, request.user_id)

            async def send() -> None:
                user = self.bot.get_user(request.user_id) or await self.bot.fetch_user(request.user_id)
                for file in files:  # from the start of its bytes again, after a failed try
                    file.reset()
                await user.send(content=intro, embeds=embeds, files=files, allowed_mentions=NO_PINGS,
                                nonce=nonce)

            if not await delivered(send, f"the review of game {request.game_id}", self.retry):
                log.warning("the review of game %d cut short by a stop cannot be sent to its "
                            "player (no DMs)", request.game_id)
        except (UnknownGame, ReplayError, WorkerCrashed):
            # the game was purged or the workers failed: the player asks again
            log.warning("the review of game %d cut short by a stop could not be made again",
                        request.game_id, exc_info=True)
        except (PoolClosed, StoreError):
            return False
        return True

    def _head(self, record: GameRecord, review: Review) -> discord.Embed:
        lines = [summary(review),
                 t("{n} decisions priced with {rollouts} rollouts per move; in all they cost "
                   "about {points} expected points.", n=number(review.decisions),
                   rollouts=number(review_rollouts(self.bot, record.game)), points=points(review.lost))]
        return fit_embed(discord.Embed(
            title=t("🎓 Game #{id} · {game} · review", id=record.game_id, game=title(record.game)),
            colour=ACCENT, description=clip("\n".join(lines), DESCRIPTION)))

    async def _price_all(self, game: str, found: list[Decision], progress: Progress | None
                         ) -> list[list[dict[str, Any]]]:
        """Every decision priced in the AI workers, half of them at most at once (at least one)
        so a table's AI move waits for one job, never for the whole review."""
        pool = self.bot.ai_pool
        rollouts = review_rollouts(self.bot, game)
        gate = asyncio.Semaphore(max(1, getattr(pool, "processes", 2) // 2))
        prices: list[list[dict[str, Any]]] = [[] for _ in found]

        async def one(i: int, decision: Decision) -> None:
            async with gate:
                prices[i] = await pool.run(price, *decision.job(game, rollouts))
            if progress is not None:
                await progress.done_one()

        await asyncio.gather(*(one(i, d) for i, d in enumerate(found)))
        return prices


class Progress:
    """The private "reviewing…" message, edited each time another tenth is priced (one edit in
    flight at a time; the last count wins)."""

    def __init__(self, interaction: discord.Interaction, game_id: int, total: int) -> None:
        self.interaction = interaction
        self.game_id = game_id
        self.total = total
        self.done = 0
        self.shown = -1
        self.lock = asyncio.Lock()

    def text(self, done: int) -> str:
        return t("🎓 Reviewing game #{id}: {done} of {total} decisions priced…", id=self.game_id,
                 done=number(done), total=number(self.total))

    async def show(self, done: int) -> None:
        async with self.lock:
            step = done * PROGRESS_STEPS // max(1, self.total)
            if step <= self.shown or (done != 0 and done == self.total):
                return  # nothing new to say, or the answer itself comes next
            self.shown = step
            try:
                await self.interaction.edit_original_response(content=self.text(done))
            except UNDELIVERED as exc:  # progress is a courtesy; the answer still comes
                log.info("review progress not shown: %s", exc)

    async def done_one(self) -> None:
        self.done += 1
        await self.show(self.done)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CoachCog(bot))
