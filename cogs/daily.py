"""``/deal play``, ``/deal board`` and ``/deal announce``: the deal of the day.

Every UTC day each server has one deal of each game (and so has each place where the app is a
guest, under the channel's id as its other games are): the same cards for every member who plays
it, against the AI, under the rules the day's first look fixed (:mod:`bot.store.daily`). A
member plays it once a day; the board ranks them by how many points they came out ahead of
the AI. Nobody may see another's cards before the day is over, so the table is private (only
its player sees it: :data:`bot.tables.HOME_PRIVATE`, shown through their own interactions), its
replay and its seed stay sealed until midnight UTC, and the day's seed, shown all day as its
SHA-256, is revealed on the day's board after it.

``/deal announce`` (staff) has the new deals posted in a channel every day at 00:00 UTC, with
yesterday's podiums: a watch looks at each UTC midnight, and each day's post is noted only once
Discord took it (with a nonce against a double post after a stop).

``/deal remind`` (a member, on a server) has the bot DM them at the hour they choose (so many
hours before the day's deals end) on days they have not played the server's deal by then: the
same watch looks, each day's reminder noted once Discord took it (a nonce against a double
send), one Discord refuses for good stopping them until the member asks again; the DM's Stop
button ends them.

``/deal play`` asked again while the game runs shows its table again (its message may be gone
from the player's screen, or its tokens expired); once played, it says how it went and when
the next deal comes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.achievement_text import streak_text
from bot.discord_ui.answer import acknowledge, answers, send
from bot.discord_ui.app import app
from bot.discord_ui.background import until_utc
from bot.discord_ui.boards import board_names, known_names
from bot.discord_ui.cog import GAME_CHOICES, WatchingCog, anywhere, drawn, staff_only
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import RefusedForGood, dm_owed, post_owed
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.fair import add_day_deal
from bot.discord_ui.parts import ACCENT, controls, share_face
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import Speaks, in_public, in_server, speaking
from bot.discord_ui.starting import before_answer
from bot.discord_ui.text import (
    DESCRIPTION,
    FIELD_VALUE,
    NO_PINGS,
    clip,
    daily_post_text,
    day_text,
    fit_embed,
    refuse,
    safe_name,
)
from bot.i18n import current, number, t, tn
from bot.store import StoreError
from bot.store.daily import Board, DailyDeal, DailyEntry, DailyPlace, DailyPost, day_end
from bot.store.models import former_member, is_pseudonym
from bot.store.reminders import DEFAULT_HOUR, Reminder
from bot.tables import AlreadyStarted, TableError, ai_seat
from bot.tables.rules import table_rules
from bot.tables.starting import Place, ai_name, note_place, rules_from, start_at
from bot.words import plural
from rendering import BoardRow, BoardView, render_board
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

LEVEL = "hard"
"""The AI every member meets on the day's deal: one level, so the board compares like with like."""
ROUNDS = 1
"""A day's deal is one round: one deal of the cards."""
BOARD_IMAGE = "deal.png"
RETRY_SECONDS = 60.0  # a post Discord did not take (not a refusal) is tried again after
SHOWN = 20
"""Members a board lists (the member asking is added below when further down)."""
DAYS = [app_commands.Choice(name="today", value=0), app_commands.Choice(name="yesterday", value=1)]
HOURS_LEFT = [app_commands.Choice(name=f"{n} hour{'s' if n > 1 else ''} before", value=n)
              for n in (1, 2, 4, 6, 8, 12, 16, 20, 24)]
"""How long before the day's deals end a reminder may come (24: as the new deals are dealt)."""


def who(user_id: int) -> str:
    return former_member() if is_pseudonym(user_id) else f"<@{user_id}>"


def margin_text(margin: int) -> str:
    return plural(margin, "point", signed=True)


def shown_places(board: Board, asker: int) -> list[tuple[int, DailyEntry]]:
    """The places a board shows, best first (ties share a place): the first :data:`SHOWN`, and
    the asker's when further down."""
    out, place = [], 0
    for i, row in enumerate(board.rows):
        if i == 0 or row.margin != board.rows[i - 1].margin:
            place = i + 1
        if i < SHOWN or row.user_id == asker:
            out.append((place, row))
    return out


def board_lines(board: Board, asker: int) -> list[str]:
    """The board's places as text, an ellipsis before the asker's when it is further down."""
    places = shown_places(board, asker)
    return [("…\n" if i == SHOWN else "") + f"{number(place)}. {who(row.user_id)} · "
            f"{margin_text(row.margin or 0)}" for i, (place, row) in enumerate(places)]


def board_picture(board: Board, asker: int, names: dict[int, str]) -> BoardView:
    """The board as a picture draws it: the same places, each member by name."""
    deal = board.deal
    rows = tuple(BoardRow(rank=place, name=names[row.user_id], value=margin_text(row.margin or 0),
                          highlight=row.user_id == asker)
                 for place, row in shown_places(board, asker))
    return BoardView(title=t("Deal of the day · {game}", game=GAME_NAMES.get(deal.game, deal.game)),
                     subtitle=f"{day_text(deal.day)} · " + finished_text(board),
                     value_header=t("Against the AI"), rows=rows,
                     note="" if rows else t("Nobody has finished this deal yet."), language=current())


def finished_text(board: Board) -> str:
    return t("{finished} of {started} finished.", finished=plural(board.finished, "player"),
             started=number(board.started))


def board_embed(board: Board, asker: int, links: dict[str, int]) -> discord.Embed:
    deal, game = board.deal, GAME_NAMES.get(board.deal.game, board.deal.game)
    embed = discord.Embed(title=t("🌅 Deal of the day · {game} · {day}", game=game, day=day_text(deal.day)),
                          colour=ACCENT)
    lines = board_lines(board, asker) or [t("Nobody has finished this deal yet: {play}.",
                                            play=mention("deal play", links))]
    lines.append("")
    lines.append(finished_text(board))
    embed.description = clip("\n".join(lines), DESCRIPTION)
    add_day_deal(embed, deal.commitment, deal.server_seed, deal.ends_at, mention("verify", links))
    return fit_embed(embed)


def played_text(entry: DailyEntry, deal: DailyDeal, links: dict[str, int], status: str) -> str:
    """What a member who has had today's game of a deal is told when they ask for it again."""
    game = GAME_NAMES.get(deal.game, deal.game)
    nxt = f"<t:{deal.ends_at // 1000}:R>"
    if entry.margin is not None:
        return t("You played today's {game} deal: {margin} against the AI. The board: {board}. "
                 "The next deal comes {when}.", game=game, margin=margin_text(entry.margin),
                 board=mention("deal board", links), when=nxt)
    if status == "cancelled":
        return t("Your game of today's {game} deal was called off; the next deal comes {when}.",
                 game=game, when=nxt)
    return t("Your game of today's {game} deal is on another of the bot's processes; press "
             "its table to play on.", game=game)


def share_text(place: DailyPlace, user_id: int, links: dict[str, int]) -> str:
    """The line a member shares with the channel: their result, never a card of the deal."""
    line = t("🌅 {player} played the {game} deal of {day}: {margin} against the AI, place {place} "
             "of {count} so far.", player=f"<@{user_id}>",
             game=GAME_NAMES.get(place.game, place.game), day=day_text(place.day),
             margin=margin_text(place.margin or 0), place=number(place.place or 0),
             count=number(place.finished))
    invite = t("{play} deals you today's.", play=mention("deal play", links))
    return "\n".join(part for part in (line, streak_text(place.streak), invite) if part)


async def share_press(interaction: discord.Interaction, game_id: int) -> None:
    """Share on the private final table: the result posted to the channel, once (the store notes
    it first; a post Discord refuses lets the member press again)."""
    store = app(interaction).store
    scope = scope_of(interaction)
    if scope is None:
        await refuse(interaction, t("Use this command in a server."))
        return
    if not place_of(interaction).public:
        await refuse(interaction, t("Apps may not post for everyone in this channel, so the result "
                                    "cannot be shared here."))
        return
    user = interaction.user.id

    async def undo(noted: tuple[DailyPlace | None, bool]) -> None:  # noted after the answer's time
        if noted[1]:
            await store.unshare_daily_deal(game_id, user)

    try:  # in time for the answer, or refused with nothing noted
        place, first = await before_answer(store.share_daily_deal(scope, game_id, user),
                                           undo)
    except TableError as exc:
        await refuse(interaction, told(exc))
        return
    if place is None:
        await refuse(interaction, t("Only the member who played that deal can share its result."))
        return
    if not first:
        await refuse(interaction, t("You have shared this result already."))
        return
    links = await links_for(interaction)
    with in_public(interaction):
        text = share_text(place, user, links)
    try:
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        await store.unshare_daily_deal(game_id, user)
        raise


class ShareButton(Speaks, discord.ui.DynamicItem[discord.ui.Button], template=r"hf:dshare:(?P<gid>[0-9]{1,19})"):
    """Share my result, on the final table of a game of the deal of the day."""

    def __init__(self, game_id: int) -> None:
        super().__init__(share_face(game_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await share_press(interaction, self.game_id)


def reminder_message(reminder: Reminder, server: str, ends_at: int
                     ) -> tuple[str, discord.ui.View]:
    """A member's reminder of today's deals in ``server`` (its name), ending at ``ends_at`` (ms):
    their run of days at stake, a link to the server and the Stop button."""
    when, where, play = f"<t:{ends_at // 1000}:R>", f"**{safe_name(server)}**", "`/deal play`"
    if reminder.run:
        text = tn("🌅 Your run of {n} day on the deal of the day in {server} ends at midnight UTC, "
                  "{when}, unless you play one of today's deals: {play} there.",
                  "🌅 Your run of {n} days on the deal of the day in {server} ends at midnight UTC, "
                  "{when}, unless you play one of today's deals: {play} there.", reminder.run,
                  server=where, when=when, play=play)
    else:
        text = t("🌅 Today's deals in {server} are there until midnight UTC, {when}: {play} there.",
                 server=where, when=when, play=play)
    go = discord.ui.Button(label=t("Go to the server"), style=discord.ButtonStyle.link,
                           url=f"https://discord.com/channels/{reminder.guild_id}")
    return text, controls(go, StopReminderButton(reminder.key))


def reminder_nonce(guild_id: int, day: str) -> str:
    """A day's reminder's nonce in the member's DM (25 characters at most; a DM holds one member's
    reminders of every server, hence the server's id in it)."""
    return f"r{guild_id:x}.{date.fromisoformat(day).toordinal():x}"


class StopReminderButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                         template=r"hf:dstop:(?P<key>[0-9a-f]{16})"):
    """Stop, on a reminder's DM: no more reminders of that server's deal of the day. The custom
    id names the reminder by its random key alone; only its member's press stops it."""

    def __init__(self, key: str) -> None:
        super().__init__(discord.ui.Button(label=t("Stop these reminders"),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:dstop:{key}"))
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            stopped = await app(interaction).store.stop_daily_reminder(self.key, interaction.user.id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        if not stopped:
            await refuse(interaction, t("These reminders are off already."))
            return
        said = t("Reminders of that server's deal of the day are off.")
        original = interaction.message.content if interaction.message is not None else ""
        await interaction.response.edit_message(content=clip(f"{original}\n{said}", 2000), view=None,
                                                allowed_mentions=NO_PINGS)


MEDALS = ("🥇", "🥈", "🥉")


def post_embed(day: str, podiums: list[Board], links: dict[str, int]) -> discord.Embed:
    """The day's post in the channel staff chose: today's deals are dealt, and yesterday's
    podium of each game someone finished (mentions, sent without pings; no card)."""
    embed = discord.Embed(title=t("🌅 The deals of {day}", day=day_text(day)), colour=ACCENT,
                          description=t("Today's deals are dealt: the same cards for everyone "
                                        "here, against the AI. Play yours with {play}; {board} "
                                        "ranks you.", play=mention("deal play", links),
                                        board=mention("deal board", links)))
    for board in podiums:
        lines = [f"{MEDALS[min(place, len(MEDALS)) - 1]} {who(row.user_id)} · "
                 f"{margin_text(row.margin or 0)}" for place, row in shown_places(board, 0)]
        lines.append(finished_text(board))
        embed.add_field(name=t("Yesterday's {game} deal", game=GAME_NAMES.get(board.deal.game, board.deal.game)),
                        value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    if podiums:
        embed.set_footer(text=t("Yesterday's seeds are revealed: /deal board with day: yesterday, "
                                "and /verify checks any of their games."))
    return fit_embed(embed)


def post_nonce(guild_id: int, day: str) -> str:
    """The day's post's nonce (25 characters at most): a post repeated after a stop between
    sending and noting it is kept once by Discord."""
    return f"d{guild_id:x}.{date.fromisoformat(day).toordinal():x}"


class DailyCog(WatchingCog):
    """The deal of the day: one deal a day per game and place, played alone against the AI,
    and, where a server's staff chose a channel, the new deals posted there every day."""

    deal = anywhere(app_commands.Group(
        name="deal", description="The deal of the day: the same cards for everyone here, and a board"))

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot, self.look, RETRY_SECONDS, "the deals' posts and reminders")

    async def look(self) -> float:
        """The day's posts and reminders that are due; the seconds until the next look."""
        return min(await self.run_posts(), await self.run_reminders())

    async def run_posts(self) -> float:
        """Post today's deals where it is due on this process's servers; the seconds until the
        next look (the next UTC midnight, sooner to retry a post Discord did not take)."""
        return await self._deliver(await self.store.due_daily_posts(), self._post,
                                   until_utc(self.clock()))

    async def _deliver(self, due: list[Any], send: Callable[[Any], Awaitable[bool]],
                       wait: float) -> float:
        """``send`` each of ``due`` (a post, a reminder) of this process's servers; ``wait``, or
        the retry's delay when one should be asked again."""
        owns = app(self.bot).shard_plan.owns
        for item in due:
            if owns(item.guild_id) and self.bot.get_guild(item.guild_id) is not None \
                    and not await send(item):
                wait = min(wait, RETRY_SECONDS)
        return wait

    async def _post(self, plan: DailyPost) -> bool:
        """Post the server's deals of today; False when Discord should be asked again."""
        guild, today = plan.guild_id, self.store.daily_deal_day()
        podiums = await self.store.daily_podiums(guild, self.store.daily_deal_day(1))
        settings = await self.store.get_settings(guild)
        links = await self.bot.command_ids.of(guild)
        with in_server(self.bot, guild, settings):
            embed = post_embed(today, podiums, links)
        channel = self.bot.get_partial_messageable(plan.channel_id, guild_id=guild)
        try:
            sent = await post_owed(channel, f"the deals of {today} of server {guild}", embed=embed,
                                   allowed_mentions=NO_PINGS, nonce=post_nonce(guild, today))
        except RefusedForGood:
            await self.store.daily_posted(guild, today, delivered=False)
            return True
        if sent is None:
            return False
        await self.store.daily_posted(guild, today, delivered=True)
        return True

    async def run_reminders(self) -> float:
        """Send the reminders due on this process's servers; the seconds until the next look
        (the next full hour, when more may come due; sooner to retry one Discord did not take)."""
        return await self._deliver(await self.store.due_daily_reminders(), self._remind,
                                   3600.0 - self.clock() % 3600.0 + 1)

    async def _remind(self, reminder: Reminder) -> bool:
        """DM the member their reminder of today; False when Discord should be asked again."""
        today = self.store.daily_deal_day()
        guild = self.bot.get_guild(reminder.guild_id)
        languages = getattr(self.bot, "languages", None)
        with speaking(languages.of_user(reminder.user_id) if languages is not None else "en"):
            text, view = reminder_message(reminder, guild.name if guild else "", day_end(today))
        try:
            sent = await dm_owed(self.bot, reminder.user_id,
                                 f"a reminder of {today} of server {reminder.guild_id}",
                                 content=text, view=view, allowed_mentions=NO_PINGS,
                                 nonce=reminder_nonce(reminder.guild_id, today))
        except RefusedForGood:
            await self.store.daily_reminded(reminder.guild_id, reminder.user_id, today,
                                            delivered=False)
            return True
        if sent is None:
            return False
        await self.store.daily_reminded(reminder.guild_id, reminder.user_id, today, delivered=True)
        return True

    @answers(private=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @deal.command(name="remind", description="A DM on days you have not played this server's deal "
                                             "yet, hours before it ends")
    @app_commands.describe(when="Every day you have not played by then; or off",
                           hours_left="How long before the deals end at midnight UTC (default: 4 "
                                      "hours)")
    @app_commands.choices(when=[app_commands.Choice(name="On days I have not played", value="on"),
                                app_commands.Choice(name="Off", value="off")],
                          hours_left=HOURS_LEFT)
    async def remind(self, interaction: discord.Interaction, when: str,
                     hours_left: int = 24 - DEFAULT_HOUR) -> None:
        if interaction.guild_id is None or place_of(interaction).guest:
            await refuse(interaction, t("Reminders come by DM from servers that added the bot; "
                                        "use this command in one."))
            return
        if when not in ("on", "off") or not 1 <= hours_left <= 24:
            await refuse(interaction, t("Pick the reminder and its time from the lists offered."))
            return
        try:
            found = await self.store.set_daily_reminder(interaction.guild_id, interaction.user.id,
                                                        when == "on", hour=(24 - hours_left) % 24)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        links = await links_for(interaction)
        if found is None:
            text = t("No more reminders of this server's deal of the day.")
        else:
            first = day_end(self.store.daily_deal_day()) // 1000 + found.hour * 3600
            text = t("From tomorrow, I will DM you at {time} your time ({hours} before the deals end "
                     "at midnight UTC) on days you have not played this server's deal of the day by "
                     "then. {remind} with off, or the Stop button on a reminder, ends them. Your DMs "
                     "must be open to this server's members.", time=f"<t:{first}:t>",
                     hours=plural(hours_left, "hour"), remind=mention("deal remind", links))
        await send(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @deal.command(name="announce", description="Post the new deals in this channel every day at "
                                               "00:00 UTC (staff)")
    @app_commands.describe(post="Every day in this channel, with yesterday's podiums; or off")
    @app_commands.choices(post=[app_commands.Choice(name="Every day, in this channel", value="on"),
                                app_commands.Choice(name="Off", value="off")])
    async def announce(self, interaction: discord.Interaction, post: str) -> None:
        if interaction.guild_id is not None and place_of(interaction).guest:
            await refuse(interaction, t("Only a server that added the bot posts the new deals in a "
                                        "channel; {play} works here.",
                                        play=mention("deal play", await links_for(interaction))))
            return
        if not await staff_only(interaction):
            return
        channel = interaction.channel_id if post == "on" else None
        can = interaction.app_permissions
        if channel is not None and not (can.send_messages and can.embed_links):
            await refuse(interaction, t("I cannot post the new deals in this channel: give me Send "
                                        "Messages and Embed Links here, or use the command in "
                                        "another channel."))
            return
        try:
            plan = await self.store.set_daily_post(interaction.guild_id, channel)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        self.watch.wake()
        links = await links_for(interaction)
        await send(interaction, daily_post_text(plan, links), ephemeral=True, allowed_mentions=NO_PINGS)

    @deal.command(name="play", description="Play today's deal: the same cards for everyone here, "
                                           "against the AI")
    @app_commands.describe(game="The game whose deal to play")
    @app_commands.choices(game=GAME_CHOICES)
    async def play(self, interaction: discord.Interaction, game: str = "koikoi") -> None:
        place = place_of(interaction)
        if game not in GAME_NAMES:
            await refuse(interaction, t("There is no such game."))
            return
        # The table is this answer, seen by the player alone: the cards are everyone's today.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self._play(interaction, place, game)
        except TableError as exc:
            await send(interaction, clip(told(exc), 2000), allowed_mentions=NO_PINGS)
        except StoreError as exc:
            await send(interaction, sentence(exc), allowed_mentions=NO_PINGS)

    async def _play(self, interaction: discord.Interaction, place: Place, game: str) -> None:
        store, tables, user = self.store, app(self.bot).tables, interaction.user
        guild = place.scope
        await note_place(store, place)  # a guest place's entry is found by the member's forget
        day = store.daily_deal_day()
        settings = await store.get_settings(guild)
        rules = table_rules(settings, game, 2, {"rounds": ROUNDS})
        deal = await store.daily_deal(guild, game, day, rules=rules.to_dict(), dealing=True)
        entry = await store.claim_daily_deal(guild, game, day, user.id)
        if entry.game_id is not None:
            if tables.drives(entry.game_id):
                await app(self.bot).guest.show_again(tables.get(entry.game_id), interaction)
                return
            record = await store.load_game(entry.game_id, scope=guild, with_events=False)
            await send(interaction, played_text(entry, deal, await links_for(interaction), record.status),
                       allowed_mentions=NO_PINGS)
            return
        opponent = ai_name(LEVEL)
        headline = t("Deal of the day, {day}: {player} against {opponent}.", day=day_text(day),
                     player=safe_name(user.display_name), opponent=opponent)
        private = replace(place, public=False, private=True)
        try:
            await start_at(store, tables, private, game, [user.id, ai_seat(LEVEL)],
                           [user.display_name, opponent], user.id, {}, 0, key=entry.key,
                           deal=deal.fair_deal(), via=interaction, headline=headline,
                           rules=rules_from(game, deal.rules))
        except AlreadyStarted:  # a second press while the first was starting it
            await send(interaction, t("Your game of today's deal is starting; its table is in "
                                      "your first answer."), allowed_mentions=NO_PINGS)

    @answers(private=False)
    @deal.command(name="board", description="The board of a deal of the day: who came out "
                                            "furthest ahead of the AI")
    @app_commands.describe(game="The game whose deal to show", day="Today's deal, or yesterday's "
                                                                  "with its seed revealed")
    @app_commands.choices(game=GAME_CHOICES, day=DAYS)
    async def board(self, interaction: discord.Interaction, game: str = "koikoi",
                    day: int = 0) -> None:
        scope = scope_of(interaction)
        if scope is None:
            await refuse(interaction, t("Use this command in a server."))
            return
        if game not in GAME_NAMES or day not in (0, 1):
            await refuse(interaction, t("There is no such game.") if game not in GAME_NAMES
                         else t("Choose today's deal or yesterday's."))
            return
        which = self.store.daily_deal_day(day)
        board = await self.store.daily_deal_board(scope, game, which)
        links = await links_for(interaction)
        if board is None:
            await refuse(interaction, t("Nobody here looked at the {game} deal of {day}; {play} "
                                        "deals today's.", game=GAME_NAMES[game], day=day_text(which),
                                        play=mention("deal play", links)))
            return
        await acknowledge(interaction)
        asker = interaction.user.id
        names = await board_names(self.store, scope,
                                  [row.user_id for _, row in shown_places(board, asker)],
                                  known_names(interaction))
        with in_public(interaction):
            embed = board_embed(board, asker, links)
            picture = board_picture(board, asker, names)
        files = await drawn(self.bot, render_board, picture, embed, BOARD_IMAGE)
        await send(interaction, embed=embed, files=files, allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ShareButton, StopReminderButton)
    await bot.add_cog(DailyCog(bot))
