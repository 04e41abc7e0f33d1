"""A table's one-off posts in its channel: each round's summary and the Slap! race's call, in the
order of the moves, a summary owed after a restart sent once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace

import discord

from bot import presenter
from bot.discord_ui.controls import SlapButton
from bot.discord_ui.delivery import Sequencer, fixed_nonce
from bot.discord_ui.feeds import ping
from bot.discord_ui.parts import ACCENT, controls, png
from bot.discord_ui.text import shown
from bot.i18n import speaking, t
from bot.settlement import is_betting
from bot.store import GameEvent, StoreError
from bot.store.surfaces import SurfaceNotes
from bot.tables import Table, is_ai
from rendering import render_summary
from rendering.view import GAME_NAMES

log = logging.getLogger("bot.discord_ui.publisher")  # the publisher's lines keep one logger name


def summary_title(game: str, event: dict, picture_title: str) -> str:
    """The title of a round's summary message, in the words of its table: a betting game's
    rounds are hands; a showdown within a hand (a Seotda redeal) takes the picture's title."""
    game_name = GAME_NAMES.get(game, game)
    if "round" not in event:
        return f"{game_name} · {picture_title}"
    if is_betting(game):
        return t("{game} · hand {round}", game=game_name, round=event["round"])
    return t("{game} · round {round}", game=game_name, round=event["round"])


class Posts:
    """The one-off posts of :class:`~bot.discord_ui.publisher.TablePublisher`, one of its mixins."""

    # The publisher's own, typed here: importing its module from here would be a cycle.
    notes: SurfaceNotes | None
    _posts: Sequencer
    render: Callable[..., Awaitable[bytes]]
    _send: Callable[..., Awaitable[discord.Message]]
    public_language: Callable[[Table], str]

    def _queue_event_posts(self, table: Table, events: list[dict], seq: int | None = None) -> None:
        """The one-off posts of the move ``seq`` (the table's last one by default). Once its
        summaries went out the store notes it, so a start sends only those still owed
        (:meth:`post_owed`); each carries a nonce that Discord keeps unique, so one sent just
        before the process stopped is not sent twice."""
        seq = table.seq if seq is None else seq
        summaries = 0
        for i, e in enumerate(events):
            if presenter.posts_summary(table.game, e):
                nonce = f"hf{table.game_id}.{seq}.{i}"
                self._queue_post(table, lambda e=e, n=nonce: self._post_summary(table, e, n))
                summaries += 1
            elif e["type"] == "race":
                nonce = fixed_nonce("hr", table.game_id, seq, i)
                self._queue_post(table, lambda e=e, n=nonce: self._post_race(table, e, n))
        if summaries:
            self._queue_post(table, lambda: self._mark_posted(table, seq))

    def _queue_post(self, table: Table, job: Callable[[], Awaitable[None]]) -> None:
        """One of the table's one-off posts, after those queued before it."""
        self._posts.queue(table.game_id, job)

    def post_owed(self, table: Table, moves: Iterable[GameEvent]) -> None:
        """After a restart: the round summaries of stored moves that may not have gone out."""
        for move in moves:
            if any(presenter.posts_summary(table.game, e) for e in move.events):
                self._queue_event_posts(table, [e for e in move.events if e["type"] != "race"],
                                        seq=move.seq)

    async def _mark_posted(self, table: Table, seq: int) -> None:
        if self.notes is None:
            return
        try:
            await self.notes.posted(table.game_id, seq)
        except StoreError:  # sent again at the next start, and Discord drops the repeat by nonce
            log.warning("could not note the posts of game %d up to move %d", table.game_id, seq)

    async def _post_race(self, table: Table, event: dict, nonce: str) -> None:
        """The Slap! message: everyone but the player who went out races to press it."""
        humans = [table.players[s] for s in event["seats"] if not is_ai(table.players[s])]
        view = controls(SlapButton(table.game_id))
        pings = " ".join(f"<@{u}>" for u in humans)
        with speaking(self.public_language(table)):
            text = t("**{name} is out!** Slap their hand: the first to press pays nothing. {pings}",
                     name=shown(table.names[event["winner"]]), pings=pings)
        await self._send(table, content=text[:2000], view=view, allowed_mentions=ping(*humans),
                         nonce=nonce)

    async def _post_summary(self, table: Table, event: dict, nonce: str) -> None:
        with speaking(self.public_language(table)) as language:
            view = replace(presenter.summary_view(table.game, event, table.names), language=language)
            names = [shown(n) for n in table.names]
            shown_view = presenter.summary_view(table.game, event, names)
            # The picture's words again for screen readers: a banner, the result, who took each pot.
            lines = [*filter(None, [shown_view.banner]), *shown_view.result_lines, *shown_view.pots]
            title = summary_title(table.game, event, view.title)
        image = await self.render(render_summary, view)
        embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=ACCENT)
        embed.set_image(url="attachment://summary.png")
        await self._send(table, embed=embed, file=png(image, "summary.png"), nonce=nonce)
