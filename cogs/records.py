"""Rules and game records: ``/rules``, ``/history``, ``/replay``, ``/export`` and ``/verify``.

``/replay`` answers privately (ephemeral): only the member who asked sees the replay and its
First / Previous / Next / Last buttons (``hf:rp:<game id>:<step>:<f|p|n|l>``), which rebuild the
table at that move from the stored seed and action log, so they work after a restart too.
Running games are never replayed or exported: the seed would reveal every hand.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenter
from bot.discord_ui.answer import acknowledge, answers, press_defer, press_update, send
from bot.discord_ui.cog import (
    GAME_CHOICES,
    Pager,
    ServerCog,
    anywhere,
    not_here,
    pager_buttons,
    pages_of,
    render_pool,
    server_only,
    store_of,
)
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import sentence
from bot.discord_ui.fair import add_deal
from bot.discord_ui.parts import ACCENT, png
from bot.discord_ui.places import scope_of
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.text import DESCRIPTION, FIELD_NAME, NO_PINGS, clip, fit_embed, refuse, shown
from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.i18n import N_, current, number, t
from bot.presenters.base import PLAYED_OUT, end_reason_words
from bot.replay import (
    Replay,
    ReplayError,
    action_words,
    deal_document,
    event_lines,
    export_document,
)
from bot.rules_text import chips_text, how_to_play, rules_summary, title
from bot.store import GameRecord, Scope, Store, StoreError, UnknownGame
from bot.verify import BadRecord, problem_sentence, verdict_lines, verify_document
from bot.words import capitalized, currency_noun, plural
from bot.workers import WorkerPool
from rendering import TableView, render_deck_sheet, render_table, render_yaku_sheet

log = logging.getLogger(__name__)

HISTORY_PAGE = 8


async def load_record(interaction: discord.Interaction, game_id: int, *, events: bool
                      ) -> GameRecord | None:
    """The game if the presser may read it (a game of this server, or from a direct message one
    they played) and it is over; otherwise refuse and return None."""
    scope = Scope.press(interaction.guild_id, interaction.user.id)
    try:
        record = await store_of(interaction).load_game(game_id, scope=scope, with_events=events)
    except UnknownGame:
        await refuse(interaction, not_here(game_id, await links_for(interaction),
                                           interaction.guild_id is not None))
        return None
    if record.status == "running":
        await refuse(interaction, t("Game #{id} is still being played; you can look at it once "
                                    "it is over.", id=game_id))
        return None
    if record.sealed_until is not None:  # its cards are everyone's deal of the day
        await refuse(interaction, t("Game #{id} was dealt today's deal, which others may still "
                                    "play: you can look at it once the day is over, {when}.",
                                    id=game_id, when=f"<t:{record.sealed_until // 1000}:R>"))
        return None
    return record


def how_it_ended(status: str, reason: str | None) -> str:
    """The end of a stored game in words: "Played to the end", "Ended by a forfeit (3 turns timed
    out in a row)", "Cancelled: the host left" (never "Finished: forfeited")."""
    if status == "running":
        return t("Still in play")
    if status == "cancelled":
        if not reason:
            return t("Cancelled")
        words = end_reason_words(reason, shown)  # a cancel's reason names the member who did it
        if reason.lower().startswith("cancelled"):  # "Cancelled by Ann", not "Cancelled: cancelled by"
            return capitalized(words)
        return t("Cancelled: {reason}", reason=words)
    if not reason or reason in PLAYED_OUT:
        return t("Played to the end")
    if reason == "forfeited":
        return t("Ended by a forfeit")
    return t("Ended by a forfeit ({reason})", reason=end_reason_words(reason, shown))


# -- /history --------------------------------------------------------------------------------------
def summary_line(row) -> str:
    when = f"<t:{int((row.ended_at or row.created_at).timestamp())}:d>"
    winners = set(row.winners)
    seats = []
    for seat, name in enumerate(row.names):
        score = f" {row.scores[seat]}" if row.scores else ""
        seats.append(f"{'🏆 ' if seat in winners else ''}{shown(name, 64)}{score}")
    if row.status == "finished" and row.team_won:  # a team win, not a tie: name the team first
        seats.insert(0, "🏆 " + t("Team {members}", members=" & ".join(shown(row.names[s], 64)
                                                                      for s in sorted(winners))))
    status = {"running": t("in play"), "cancelled": t("cancelled")}.get(row.status, "")
    if row.status == "finished" and row.end_reason and row.end_reason not in PLAYED_OUT:
        status = end_reason_words(row.end_reason[:80], shown)
    stake = " · " + t("stake {amount}", amount=number(row.stake)) if row.stake else ""
    tail = f" · {status}" if status else ""
    return (f"**#{row.game_id}** {title(row.game)} · {when} · {', '.join(seats)}"
            f"{stake}{tail}")


async def history_message(store: Store, guild_id: int, asker: int, user_id: int | None,
                          game: str | None, page: int, links: Mapping[str, int]) -> dict[str, Any]:
    """A page of the history, its commands linked by ``links`` (:func:`links_for`)."""
    result = await store.game_history(guild_id, user_id=user_id, game=game,
                                      offset=page * HISTORY_PAGE, limit=HISTORY_PAGE)
    pages = pages_of(result.total, HISTORY_PAGE)
    if page >= pages:
        page = pages - 1
        result = await store.game_history(guild_id, user_id=user_id, game=game,
                                          offset=page * HISTORY_PAGE, limit=HISTORY_PAGE)
    who = f"<@{user_id}>" if user_id else ""
    embed = discord.Embed(title=t("📜 Games of {game}", game=title(game)) if game else t("📜 Games"),
                          colour=ACCENT)
    lines = [summary_line(r) for r in result.rows]
    if not lines:
        koikoi = mention("koikoi", links)
        lines = [t("No games yet of {player}: start one with {koikoi}.", player=who, koikoi=koikoi)
                 if who else t("No games yet: start one with {koikoi}.", koikoi=koikoi)]
    elif who:
        lines.insert(0, t("Recent games of {player}, newest first:", player=who))
    else:
        lines.insert(0, t("Recent games, newest first:"))
    embed.description = "\n".join(lines)
    embed.set_footer(text=t("Page {page} of {pages} · {games} · /replay or /export a game by its "
                            "number", page=page + 1, pages=pages, games=plural(result.total, "game")))

    def make_id(target: int, tag: str) -> str:
        return f"hf:hist:{asker}:{user_id or 0}:{game or 'all'}:{target}:{tag}"

    return {"embed": fit_embed(embed), "view": pager_buttons(make_id, page, pages),
            "allowed_mentions": NO_PINGS}


class GameHistoryPager(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"hf:hist:(?P<asker>[0-9]+):(?P<user>[0-9]+):(?P<game>[a-z_]+):"
                                r"(?P<page>[0-9]+)(?::(?P<tag>[a-z]))?"):
    """A page of the game history: only its asker may turn it."""

    refusal = N_("Only the member who asked can turn these pages; run {command} for your own view.")
    command = "history"

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        game = None if m["game"] == "all" else m["game"]
        with in_public(interaction):  # the list is in the channel, for everyone
            content = await history_message(store_of(interaction), interaction.guild_id,
                                            interaction.user.id, int(m["user"]) or None,
                                            game if game in GAMES else None, int(m["page"]),
                                            await links_for(interaction))
        await press_update(interaction, **content)


# -- /replay ---------------------------------------------------------------------------------------
def _frame_content(record: GameRecord, step: int) -> tuple[discord.Embed, TableView, int, int]:
    """Embed and table view of ``record`` after ``step`` actions (engine work: runs in a thread;
    the image is drawn by the render pool)."""
    replay = Replay(record)
    frame = replay.frame(step)
    names = replay.names
    lines = event_lines(record.game, frame.events, names)
    move = action_words(record.game, frame.action)
    if frame.step == 0:
        head = t("The cards are dealt.")
    else:
        who = f"**{shown(names[frame.seat], 100)}**" if frame.seat is not None and frame.seat < len(names) else "?"
        head = (t("Move {n}: {player} (timed out: the bot moved) · {move}", n=frame.step, player=who, move=move)
                if frame.actor == "timeout" else
                t("Move {n}: {player} · {move}", n=frame.step, player=who, move=move))
    obs = frame.match.observation(0)  # table_view reads only the public fields
    last = lines[-1] if lines else move
    view = replace(presenter.table_view(obs, names, last_move=last), language=current())
    embed = discord.Embed(title=t("⏯️ Game #{id} · {title}", id=record.game_id, title=view.title), colour=ACCENT,
                          description=clip("\n".join([head, *lines[-8:]]), DESCRIPTION))
    scores = frame.match.scores
    for seat, name in enumerate(names):
        embed.add_field(name=shown(name, FIELD_NAME), value=plural(scores[seat], "point"))
    if frame.step == frame.total:
        embed.add_field(name=t("End"), inline=False, value=clip(how_it_ended(record.status, record.end_reason), 1024))
    add_deal(embed, record.deal, record.game_id, ended=True, unknown=True)
    embed.set_image(url="attachment://replay.png")
    embed.set_footer(text=t("Move {n} of {total} · {game}", n=frame.step, total=frame.total,
                            game=title(record.game)))
    return fit_embed(embed), view, frame.step, frame.total


def replay_view(game_id: int, step: int, total: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for label, target, tag, off in ((t("⏮ First"), 0, "f", step <= 0),
                                    (t("◀ Previous"), max(0, step - 1), "p", step <= 0),
                                    (t("Next ▶"), min(total, step + 1), "n", step >= total),
                                    (t("Last ⏭"), total, "l", step >= total)):
        view.add_item(discord.ui.Button(label=label, custom_id=f"hf:rp:{game_id}:{target}:{tag}",
                                        style=discord.ButtonStyle.secondary, disabled=off))
    return view


def _export_bytes(record: GameRecord, outcome: Any) -> bytes:
    """The /export file: the document and its JSON text, both made off the event loop (a long
    match's file is large enough to hold the loop up)."""
    document = export_document(record, outcome, title=title(record.game),
                               chip_settlement=chips_text(record.game))
    return json.dumps(document, indent=1, ensure_ascii=False).encode()


async def replay_content(pool: WorkerPool, record: GameRecord, step: int) -> dict[str, Any]:
    embed, view, step, total = await asyncio.to_thread(_frame_content, record, step)
    image = await pool.run(render_table, view)
    return {"embed": embed, "file": png(image, "replay.png"),
            "view": replay_view(record.game_id, step, total), "allowed_mentions": NO_PINGS}


class ReplayButton(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:rp:(?P<gid>[0-9]+):(?P<step>[0-9]+)(?::(?P<tag>[a-z]))?"):
    """A step of a replay; the replay is ephemeral, so only its asker can press these."""

    owner_group = None
    label = "Step"
    server_only = False  # a player may step through a game of theirs from a DM (load_record)

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        game_id = int(m["gid"])
        record = await load_record(interaction, game_id, events=True)
        if record is None:
            return
        await press_defer(interaction)
        try:
            content = await replay_content(render_pool(interaction.client), record,
                                           int(m["step"]))
        except ReplayError as exc:
            await refuse(interaction, t("I can't replay game #{id}: {problem}.", id=game_id, problem=exc))
            return
        file = content.pop("file")
        await interaction.edit_original_response(attachments=[file], **content)


# -- the cog ---------------------------------------------------------------------------------------
class RecordsCog(ServerCog):
    """How to play, and the records of this server's games."""

    @anywhere
    @app_commands.command(name="rules", description="How to play a game, its yaku sheet and "
                          "this server's house rules")
    @app_commands.describe(game="The game (default: a list of all games)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if game is None:
            embed = discord.Embed(title=t("🎴 Hanafuda games on this bot"), colour=ACCENT,
                                  description=t("Pick one with `/rules game:` to read how it is "
                                                "played and the house rules in force here."))
            for g in GAMES:
                low, high = game_module(g).PLAYERS
                players = plural(high, "player") if low == high else \
                    t("{least}-{most}", least=low, most=plural(high, "player"))
                first = how_to_play(g).split("\n", 1)[0]
                embed.add_field(name=f"{title(g)} · {players}", value=first[:1024], inline=False)
            await send(interaction, embed=fit_embed(embed), ephemeral=True, allowed_mentions=NO_PINGS)
            return
        if game not in GAMES:
            await refuse(interaction, t("Pick a game from the list: {games}.", games=", ".join(GAMES)))
            return
        await acknowledge(interaction, private=True)
        settings = await self.store.get_settings(scope_of(interaction))
        try:
            house = rules_summary(game, settings.rules_for(game))
        except (InvalidRules, KeyError, TypeError, ValueError):
            house = t("The saved house rules no longer load; ask staff to run {reset}.",
                      reset=mention("settings reset", await links_for(interaction)))
        low, high = game_module(game).PLAYERS
        embed = discord.Embed(title=t("📖 {game} · how to play", game=title(game)), colour=ACCENT,
                              description=how_to_play(game)[:4096])
        embed.add_field(name=t("Players"), value=number(low) if low == high
                        else t("{least} to {most}", least=low, most=high))
        embed.add_field(name=t("House rules on this server"), value=house[:1024], inline=False)
        embed.add_field(name=t("Playing for {currency}", currency=currency_noun(shown(settings.currency_name, 64))),
                        inline=False, value=chips_text(game)[:1024])
        embed.set_image(url="attachment://yaku.png")
        # the cards by month, for a newcomer: which belong together, in the game's own numbering
        chart = discord.Embed(title=t("🎴 {game} · the cards", game=title(game)), colour=ACCENT)
        chart.set_image(url="attachment://cards.png")
        pool = render_pool(self.bot)
        sheet, cards = await asyncio.gather(pool.run(render_yaku_sheet, game, current()),
                                            pool.run(render_deck_sheet, game, current()))
        await interaction.followup.send(embeds=[fit_embed(embed), chart],
                                        files=[png(sheet, "yaku.png"), png(cards, "cards.png")],
                                        ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=False)
    @server_only
    @app_commands.command(name="history", description="Recent games on this server")
    @app_commands.describe(user="Only games this member played", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction,
                      user: discord.Member | discord.User | None = None,
                      game: str | None = None) -> None:
        if game is not None and game not in GAMES:
            await refuse(interaction, t("Pick a game from the list: {games}.", games=", ".join(GAMES)))
            return
        try:
            with in_public(interaction):  # the list is posted in the channel
                content = await history_message(self.store, interaction.guild_id,
                                                interaction.user.id, user.id if user else None,
                                                game, 0, await links_for(interaction))
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, **content)

    @answers(private=True)
    @server_only
    @app_commands.command(name="replay", description="Step through a finished game move by move")
    @app_commands.describe(game_id="The game number (see /history)")
    async def replay(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, 2**53 - 1]) -> None:
        record = await load_record(interaction, game_id, events=True)
        if record is None:
            return
        await acknowledge(interaction, private=True)
        try:
            content = await replay_content(render_pool(self.bot), record, 0)
        except ReplayError as exc:
            await refuse(interaction, t("I can't replay game #{id}: {problem}.", id=game_id, problem=exc))
            return
        await send(interaction, ephemeral=True, **content)

    @answers(private=True)
    @server_only
    @app_commands.command(name="export", description="Download a finished game as JSON")
    @app_commands.describe(game_id="The game number (see /history)")
    async def export(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, 2**53 - 1]) -> None:
        record = await load_record(interaction, game_id, events=True)
        if record is None:
            return
        await acknowledge(interaction, private=True)
        try:
            outcome = await self.store.game_outcome(game_id, guild_id=record.guild_id)
            data = await asyncio.to_thread(_export_bytes, record, outcome)
        except ReplayError as exc:
            await refuse(interaction, t("I can't export game #{id}: {problem}.", id=game_id, problem=exc))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(
            interaction,
            t("Game #{id} ({game}, {moves}). The file's `format` section explains every field.",
              id=game_id, game=title(record.game), moves=plural(len(record.events), "move")),
            ephemeral=True,
            file=discord.File(io.BytesIO(data), filename=f"hanafuda-game-{game_id}.json"),
            allowed_mentions=NO_PINGS)


    @answers(private=True)
    @server_only
    @app_commands.command(name="verify", description="Check that a finished game was dealt from "
                          "the seed it committed to before it began")
    @app_commands.describe(game_id="The game number (see /history)")
    async def verify(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, 2**53 - 1]) -> None:
        record = await load_record(interaction, game_id, events=True)
        if record is None:
            return
        await acknowledge(interaction, private=True)
        try:
            verdict = await asyncio.to_thread(lambda: verify_document(deal_document(record)))
        except ReplayError as exc:
            await refuse(interaction, t("I can't verify game #{id}: {problem}.", id=game_id, problem=exc))
            return
        except BadRecord as exc:
            await refuse(interaction, t("I can't verify game #{id}: {problem}", id=game_id,
                                        problem=problem_sentence(exc)))
            return
        embed = discord.Embed(title=t("✔️ Game #{id} · fair deal check", id=game_id), colour=ACCENT,
                              description=clip("\n".join(verdict_lines(verdict)), DESCRIPTION))
        add_deal(embed, record.deal, game_id, ended=True, unknown=True)
        await send(interaction, embed=fit_embed(embed), ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(GameHistoryPager, ReplayButton)
    await bot.add_cog(RecordsCog(bot))
