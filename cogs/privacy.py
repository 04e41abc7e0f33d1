"""Members' data on request: ``/privacy show`` and ``/privacy forget`` for a member's own data
on this server, ``/privacy-admin show|forget user`` for staff acting on a member's request.

Every answer is ephemeral. The buttons carry their request in the custom id (``hf:pvx:<asker>:
<member>`` exports, ``hf:pvf:<asker>:<member>:<expiry>:<nonce>`` confirms a forget, ``hf:pvc:
<asker>`` cancels), so they need nothing remembered, except a staff request's reason, which
stays in this process until its confirmation expires (after a restart staff run the command
again). A press is checked again against the presser: only the asker may press, a button past
its expiry changes nothing, and acting on another member needs Manage Server at the press.
Forgetting is idempotent: a second press (or another request) finds nothing left to forget.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import logging
import re
import secrets
import time
from collections.abc import Mapping, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answers, press_defer, press_update, send
from bot.discord_ui.cog import (
    NOT_STAFF,
    STAFF,
    Pager,
    ServerCog,
    StaffGroup,
    anywhere,
    is_manager,
    server_only,
    staff_only,
    store_of,
)
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import STATUSES, sentence
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.places import place_of
from bot.discord_ui.speaking import Speaks
from bot.discord_ui.text import CONTENT, NO_PINGS, TITLE, Text, clip, fit_embed, refuse, shown
from bot.i18n import LANGUAGE_NAMES, N_, number, t, tn, tp
from bot.rules_text import title
from bot.store import Forgotten, MemberData, StoreError
from bot.store.records import GUEST_PLACES
from bot.words import amount as counted
from bot.words import plural

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 180  # how long a forget can be confirmed
# Where the app is a guest (a DM, a group DM, a server without the bot) /privacy is about every
# such place together: a player's games there are theirs alone, under no server.
GUEST_HEADING = N_("🔒 What the bot keeps about you in DMs, group DMs and servers without the bot")
RATINGS_SHOWN = 10
UPLOAD_LIMIT = 8_000_000  # bytes: under the 10 MiB Discord takes in a server without boosts
# A staff request's reason (and the member's names then) until its confirmation expires.
_pending: dict[str, tuple[float, str, list[str]]] = {}


def _remember(reason: str, names: list[str]) -> tuple[str, int]:
    """A nonce for a staff confirmation and its expiry (Unix seconds)."""
    now = time.time()
    for nonce in [n for n, (expires, _, _) in _pending.items() if expires < now]:
        del _pending[nonce]
    nonce = secrets.token_hex(6)
    expires = int(now) + CONFIRM_SECONDS
    _pending[nonce] = (expires, reason, names)
    return nonce, expires


def names_of(user: discord.abc.User) -> list[str]:
    """The names Discord shows for ``user`` (server nickname, display and account name)."""
    found = [getattr(user, "nick", None), getattr(user, "global_name", None), user.display_name,
             user.name]
    return list(dict.fromkeys(n for n in found if n))


def data_embed(data: MemberData, member: int, asker: int, server: str, currency: str,
               links: Mapping[str, int]) -> discord.Embed:
    """What the bot keeps about ``member`` on this server, as /privacy shows it (``data.guild_id``
    GUEST_PLACES: in every guest place, which have no chips)."""
    guest = data.guild_id == GUEST_PLACES
    heading = (t(GUEST_HEADING) if guest else
               t("🔒 What the bot keeps about you on {server}", server=shown(server, TITLE - 50))
               if member == asker else
               t("🔒 What the bot keeps about a member on {server}", server=shown(server, TITLE - 50)))
    embed = discord.Embed(title=heading, colour=ACCENT)
    if member != asker:
        embed.description = t("Member: <@{id}>", id=member)
    total = sum(data.games.values())
    games = plural(total, "game")
    if total:
        parts = [t("{status}: {n}", n=number(data.games[s]), status=tp("status", STATUSES[s]))
                 for s in STATUSES if data.games.get(s)]
        games += f" ({', '.join(parts)})"
    if data.latest_game:
        latest = data.latest_game
        games += "\n" + t("Latest: #{id} {game}, {status}, <t:{when}:R>", id=latest.game_id,
                          game=title(latest.game), status=tp("status", STATUSES[latest.status]) if latest.status in STATUSES else latest.status,
                          when=int(latest.at.timestamp()))
    embed.add_field(name=t("Games"), value=games, inline=False)
    chips = (t("No account on this server.") if data.balance is None else
             t("Balance {balance} · {entries} in the ledger",
               balance=counted(data.balance, currency), entries=plural(data.ledger_entries, "entry")))
    if not guest:
        embed.add_field(name=t("Chips"), value=chips, inline=False)
    results = tn("{n} result", "{n} results", data.results)
    if data.results:
        results += " (" + ", ".join((plural(data.wins, "win"),
                                     tn("{n} draw", "{n} draws", data.draws),
                                     plural(data.losses, "loss"))) + ")"
    embed.add_field(name=t("Results"), value=results, inline=False)
    ratings = [t("{game}, season {season}: {rating} after {games}", game=title(game),
                 season=season, rating=number(round(rating)), games=plural(played, "game"))
               for game, season, rating, played in data.ratings[:RATINGS_SHOWN]]
    if len(data.ratings) > RATINGS_SHOWN:
        ratings.append(t("and {n} more (in the export)", n=len(data.ratings) - RATINGS_SHOWN))
    embed.add_field(name=t("Ratings"), value="\n".join(ratings) or t("None."), inline=False)
    other = [tn("{n} achievement", "{n} achievements", data.achievements),
             tn("{n} lobby, challenge or rematch", "{n} lobbies, challenges and rematches",
                data.lobbies),
             tn("{n} season started", "{n} seasons started", data.seasons_started),
             tn("{n} entry of a deal of the day", "{n} entries of deals of the day",
                data.deals_of_the_day),
             *([t("A reminder of the deal of the day by DM")] if data.reminded else []),
             tn("{n} chip movement made for others (stakes, refunds, staff grants)",
                "{n} chip movements made for others (stakes, refunds, staff grants)",
                data.transfers_caused)]
    embed.add_field(name=t("Also"), value="\n".join(other), inline=False)
    language = data.language
    if language is None or not (language.seen or language.chosen):
        said = t("None.")
    else:
        said = t("Language: {chosen} (chosen), {seen} (your Discord client, last seen). Kept for "
                 "every server alike; {language} changes it.", language=mention("language", links),
                 chosen=LANGUAGE_NAMES.get(language.chosen, t("automatic")) if language.chosen
                 else t("automatic"), seen=LANGUAGE_NAMES.get(language.seen, "-"))
    embed.add_field(name=t("Settings"), value=said, inline=False)
    embed.set_footer(text=t("Export gives all of it as a JSON file. /privacy forget here removes "
                            "what identifies you in all of these places.") if guest else
                     t("Export gives all of it as a JSON file. /privacy forget removes what "
                       "identifies you on this server.") if member == asker else
                     t("Export gives all of it as a JSON file. /privacy-admin forget removes what "
                       "identifies them on this server, at their request."))
    return fit_embed(embed)


def export_button(asker: int, member: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("Export as JSON"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"hf:pvx:{asker}:{member}"))
    return view


def confirm_text(data: MemberData, member: int, asker: int, currency: str, expires: int,
                 reason: str | None = None) -> str:
    """What forgetting will do, said before it is done."""
    own = member == asker
    if data.guild_id == GUEST_PLACES:  # every guest place at once
        return clip("\n".join((
            t("**Forget you in every DM, group DM and server without the bot?** This cannot be "
              "undone."),
            t("• Your name goes from every stored game here; the games stay (they still "
              "replay), showing \"a former member\" in your seat."),
            t("• Ratings and leaderboard places go. Results stay under an anonymous id, so "
              "the other players' records stay right."),
            t("• Nothing in the servers that added the bot changes; the language choice stays."),
            t("Confirm <t:{when}:R>.", when=expires))), CONTENT)
    lines = [t("**Forget you on this server?** This cannot be undone.") if own else
             t("**Forget <@{id}> on this server?** This cannot be undone.", id=member)]
    lines.append(t("• Their name goes from every stored game here; the games stay (they still "
                   "replay), showing \"a former member\" in their seat.") if not own else
                 t("• Your name goes from every stored game here; the games stay (they still "
                   "replay), showing \"a former member\" in your seat."))
    lines.append(t("• Ratings and leaderboard places go. Results stay under an anonymous id, so "
                   "the other players' records stay right."))
    if data.balance is not None:
        lines.append(t("• The balance of {amount} stays with that anonymous account, out of play "
                       "for good, so the server's ledger still balances. Playing here again "
                       "starts a new account with the starting chips.",
                       amount=counted(data.balance, currency)))
    lines.append(t("• Nothing on other servers changes; the language choice (the same on every "
                   "server) stays."))
    if reason is not None:
        lines.append(t("Reason (kept in the bot's log): {reason}", reason=shown(reason, 300)))
    lines.append(t("Confirm <t:{when}:R>.", when=expires))
    return clip("\n".join(lines), CONTENT)


def confirm_buttons(asker: int, member: int, expires: int, nonce: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("Forget"), style=discord.ButtonStyle.danger,
                                    custom_id=f"hf:pvf:{asker}:{member}:{expires}:{nonce}"))
    view.add_item(discord.ui.Button(label=t("Keep everything"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"hf:pvc:{asker}"))
    return view


def guest_done_text(done: list[Forgotten]) -> str:
    """What forgetting did in the guest places (nothing, when nothing there named the member)."""
    if not done:
        return t("Nothing in DMs, group DMs or servers without the bot identifies you any more.")
    return clip("\n".join((
        t("✅ Done: you are forgotten in DMs, group DMs and servers without the bot."),
        t("{games} now show a former member; {results} stay under the anonymous id; "
          "{ratings} removed.", games=plural(sum(d.games for d in done), "game"),
          results=tn("{n} result", "{n} results", sum(d.results for d in done)),
          ratings=tn("{n} rating", "{n} ratings", sum(d.ratings for d in done))))), CONTENT)


def done_text(done: Forgotten | None, member: int, asker: int, currency: str) -> str:
    if done is None:
        return (t("Nothing on this server identifies you any more.") if member == asker else
                t("Nothing on this server identifies <@{id}> any more.", id=member))
    lines = [t("✅ Done: you are forgotten on this server.") if member == asker else
             t("✅ Done: <@{id}> is forgotten on this server.", id=member),
             t("{games} now show a former member; {results} stay under the anonymous id; "
               "{ratings} removed.", games=plural(done.games, "game"),
               results=tn("{n} result", "{n} results", done.results),
               ratings=tn("{n} rating", "{n} ratings", done.ratings))]
    if done.balance is not None:
        lines.append(t("The balance of {amount} stays with the anonymous account; the ledger "
                       "balances.", amount=counted(done.balance, currency)))
    return clip("\n".join(lines), CONTENT)


async def _acting_on(interaction: discord.Interaction, asker: int, member: int) -> bool:
    """Whether the presser may act: the asker only, and on another member with Manage Server
    now (the custom id is not trusted for either)."""
    if interaction.user.id != asker:
        await refuse(interaction, t("Only the member who asked can use these buttons."))
        return False
    if member != asker and not is_manager(interaction):
        await refuse(interaction, t(NOT_STAFF))
        return False
    return True


def _encoded(document: dict) -> tuple[bytes, str]:
    """The export as a file's bytes and name suffix: JSON, gzipped when it would not fit in an
    upload Discord takes from any server (years of games of a keen player)."""
    data = json.dumps(document, indent=1, ensure_ascii=False).encode()
    if len(data) <= UPLOAD_LIMIT:
        return data, ".json"
    return gzip.compress(data, mtime=0), ".json.gz"


class ExportButton(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:pvx:(?P<asker>[0-9]+):(?P<member>[0-9]+)"):
    """Sends the member's export as a private file."""

    owner_group = None  # checked in turn, with the staff rule
    label = "Export"
    server_only = False  # where the app is a guest it exports the guest places' rows
    late = "private"  # answered with a file only the presser sees

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        asker, member = int(m["asker"]), int(m["member"])
        if not await _acting_on(interaction, asker, member):
            return
        await press_defer(interaction, ephemeral=True, thinking=True)
        if place_of(interaction).guest:  # every guest place's rows, one export per place
            document = await store_of(interaction).export_guest_member(member)
            data, suffix = await asyncio.to_thread(_encoded, document)
            await interaction.followup.send(
                t("Everything the bot keeps about you in DMs, group DMs and servers without the "
                  "bot, as JSON."), ephemeral=True, allowed_mentions=NO_PINGS,
                file=discord.File(io.BytesIO(data), filename=f"hanafuda-member-guest-{member}{suffix}"))
            return
        document = await store_of(interaction).export_member(interaction.guild_id, member)
        data, suffix = await asyncio.to_thread(_encoded, document)
        await interaction.followup.send(
            t("Everything the bot keeps about you on this server, as JSON.") if member == asker
            else t("Everything the bot keeps about <@{id}> on this server, as JSON.", id=member),
            ephemeral=True, allowed_mentions=NO_PINGS,
            file=discord.File(io.BytesIO(data),
                              filename=f"hanafuda-member-{interaction.guild_id}-{member}{suffix}"))


class ForgetButton(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:pvf:(?P<asker>[0-9]+):(?P<member>[0-9]+):(?P<expires>[0-9]+):"
                            r"(?P<nonce>[0-9a-f]{12})"):
    """Confirms a forget."""

    owner_group = None
    label = "Forget"
    server_only = False  # where the app is a guest it forgets in the guest places

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        asker, member = int(m["asker"]), int(m["member"])
        if not await _acting_on(interaction, asker, member):
            return
        if time.time() > int(m["expires"]):
            await press_update(
                interaction, content=t("This confirmation has expired and nothing was changed; run the "
                          "command again."), view=None, allowed_mentions=NO_PINGS)
            return
        staff, reason, names = None, "", names_of(interaction.user)
        if member != asker:
            pending = _pending.get(m["nonce"])
            if pending is None:
                await press_update(
                    interaction, content=t("This confirmation is no longer known (the bot restarted) and "
                              "nothing was changed; run the command again."),
                    view=None, allowed_mentions=NO_PINGS)
                return
            staff, (_, reason, names) = asker, pending
        await press_defer(interaction)
        store = store_of(interaction)
        if place_of(interaction).guest:  # the member's own records of every guest place
            try:
                forgotten = await store.forget_guest_member(member, names=names)
            except StoreError as exc:
                await interaction.edit_original_response(content=clip(sentence(exc), CONTENT),
                                                         view=None, allowed_mentions=NO_PINGS)
                return
            await interaction.edit_original_response(content=guest_done_text(forgotten), view=None,
                                                     allowed_mentions=NO_PINGS)
            return
        try:
            done = await store.forget_member(interaction.guild_id, member, names=names,
                                             staff=staff, reason=reason)
            currency = (await store.get_settings(interaction.guild_id)).currency_name
        except StoreError as exc:
            await interaction.edit_original_response(content=clip(sentence(exc), CONTENT), view=None,
                                                     allowed_mentions=NO_PINGS)
            return
        # The messages of their tournaments name them no more: handed to the redraw before the
        # answer, which Discord may fail (the press's token gone) after the forgetting is stored.
        tournaments = interaction.client.get_cog("TournamentCog")
        if tournaments is not None:
            tournaments.redraw_behind()
        await interaction.edit_original_response(
            content=done_text(done, member, asker, currency), view=None, allowed_mentions=NO_PINGS)


class KeepButton(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"hf:pvc:(?P<asker>[0-9]+)"):
    """Calls a forget off."""

    refusal = N_("Only the member who asked can use these buttons.")
    label = "Keep"
    server_only = False  # it changes nothing anywhere

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        await press_update(interaction, content=t("Nothing was changed."), view=None,
                           allowed_mentions=NO_PINGS)


class PrivacyCog(ServerCog):
    """A member's data on this server: shown, exported, forgotten."""

    # Anywhere: in a server that added the bot it is about that server; where the app is a guest,
    # about every such place together.
    privacy = anywhere(app_commands.Group(name="privacy", description="What the bot keeps about you"))
    privacy_admin = server_only(StaffGroup(name="privacy-admin",
                                           description="A member's data here, at their request (staff)",
                                           guild_only=True, default_permissions=STAFF))

    async def _read(self, interaction: discord.Interaction, member: int
                    ) -> tuple[MemberData, str] | None:
        """The member's data here (where the app is a guest: in every guest place) and the
        server's currency; None once a store error is told."""
        try:
            if place_of(interaction).guest:
                return await self.store.guest_member_data(member), ""
            data = await self.store.member_data(interaction.guild_id, member)
            currency = (await self.store.get_settings(interaction.guild_id)).currency_name
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return None
        return data, currency

    async def _show(self, interaction: discord.Interaction, member: int) -> None:
        if (read := await self._read(interaction, member)) is None:
            return
        data, currency = read
        server = interaction.guild.name if interaction.guild else str(interaction.guild_id)
        await send(
            interaction,
            embed=data_embed(data, member, interaction.user.id, server, currency,
                             await links_for(interaction)),
            view=export_button(interaction.user.id, member), ephemeral=True,
            allowed_mentions=NO_PINGS)

    async def _ask(self, interaction: discord.Interaction, member: int, names: Sequence[str],
                   reason: str | None = None) -> None:
        if (read := await self._read(interaction, member)) is None:
            return
        data, currency = read
        if busy := data.busy():
            await refuse(interaction, sentence(busy))
            return
        if not data.stored_here:
            await refuse(interaction, guest_done_text([]) if data.guild_id == GUEST_PLACES else
                         done_text(None, member, interaction.user.id, currency))
            return
        if reason is None:
            nonce, expires = secrets.token_hex(6), int(time.time()) + CONFIRM_SECONDS
        else:
            nonce, expires = _remember(reason, list(names))
        await send(
            interaction,
            confirm_text(data, member, interaction.user.id, currency, expires, reason),
            view=confirm_buttons(interaction.user.id, member, expires, nonce), ephemeral=True,
            allowed_mentions=NO_PINGS)

    @answers(private=True)
    @privacy.command(name="show", description="What the bot keeps about you here, with an export")
    async def show(self, interaction: discord.Interaction) -> None:
        await self._show(interaction, interaction.user.id)

    @answers(private=True)
    @privacy.command(name="forget", description="Remove what identifies you on this server")
    async def forget(self, interaction: discord.Interaction) -> None:
        await self._ask(interaction, interaction.user.id, names_of(interaction.user))

    @answers(private=True)
    @privacy_admin.command(name="show", description="What the bot keeps about a member here")
    @app_commands.describe(user="The member who asked")
    async def admin_show(self, interaction: discord.Interaction,
                         user: discord.Member | discord.User) -> None:
        if not await staff_only(interaction):
            return
        if user.bot:
            await refuse(interaction, t("The bot keeps nothing about bots; pick a member."))
            return
        await self._show(interaction, user.id)

    @answers(private=True)
    @privacy_admin.command(name="forget",
                           description="Remove what identifies a member here, at their request")
    @app_commands.describe(user="The member who asked", reason="Why (kept in the bot's log)")
    async def admin_forget(self, interaction: discord.Interaction,
                           user: discord.Member | discord.User,
                           reason: app_commands.Transform[str, Text(200, N_("The reason"))]) -> None:
        if not await staff_only(interaction):
            return
        if user.bot:
            await refuse(interaction, t("The bot keeps nothing about bots; pick a member."))
            return
        await self._ask(interaction, user.id, names_of(user), reason)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ExportButton, ForgetButton, KeepButton)
    await bot.add_cog(PrivacyCog(bot))
