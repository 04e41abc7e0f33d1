"""Staff commands: ``/settings`` (house rules, timers, hand delivery, who may stake) and
``/chips-admin`` (grant, revoke, the chip economy).

Both groups carry ``default_member_permissions`` = Manage Server, so Discord hides them from
members; a server can still open them to others in its Integrations settings, so every command
checks Manage Server again when it runs. All answers are ephemeral: staff tools, not chat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answered_done, answers, send
from bot.discord_ui.cog import (
    GAME_CHOICES,
    STAFF,
    ServerCog,
    StaffGroup,
    not_a_member,
    server_only,
    staff_only,
)
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import sentence
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import language_choices
from bot.discord_ui.text import (
    CONTENT,
    FIELD_VALUE,
    NO_PINGS,
    TITLE,
    Text,
    choice,
    clip,
    daily_post_text,
    fit_embed,
    refuse,
    schedule_text,
    shown,
    weekly_text,
)
from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.i18n import LANGUAGE_NAMES, N_, NP_, number, t, tp
from bot.presenters.problems import rules_problem
from bot.rules_text import (
    OptionRefused,
    default_preset,
    editable_options,
    format_value,
    option_help,
    parse_value,
    preset_label,
    rules_summary,
    title,
)
from bot.store import (
    MAX_AMOUNT,
    GuildSettings,
    InsufficientFunds,
    StoreError,
    UnknownAccount,
)
from bot.store.daily import DailyPost
from bot.store.settings import STAKE_POLICIES
from bot.store.tournaments import Weekly
from bot.words import amount as counted
from bot.words import currency_noun, plural

log = logging.getLogger(__name__)

POLICY_TEXT = {"everyone": NP_("stakes", "everyone"), "managers": NP_("stakes", "server managers only"),
               "role": NP_("stakes", "members with a role"), "nobody": NP_("stakes", "nobody (stakes are off)")}


def policy_text(policy: str, role_mention: str | None = None) -> str:
    """Who may start staked games, in words (``role_mention``: the role of policy "role")."""
    if policy == "role" and role_mention:
        return t("members with {role} (and server managers)", role=role_mention)
    return tp("stakes", POLICY_TEXT[policy]) if policy in POLICY_TEXT else policy


def economy_text(s: GuildSettings) -> str:
    """The currency, the starting amount and the daily amount of a server, in one line."""
    daily = (t("daily {amount} (off)", amount=number(s.daily_amount)) if s.daily_amount == 0
             else t("daily {amount}", amount=number(s.daily_amount)))
    return t("Currency: **{currency}** · starting amount {start} · {daily}",
             currency=shown(currency_noun(s.currency_name), 64), start=number(s.starting_chips), daily=daily)


def settings_embed(guild_name: str, s: GuildSettings, links: Mapping[str, int],
                   seasons: str | None = None, weekly: Sequence[Weekly] = (),
                   daily: DailyPost | None = None) -> discord.Embed:
    """Every setting of a server; ``seasons`` its schedule of seasons (None: started by staff),
    ``weekly`` its channels' weekly tournaments, ``daily`` where its new deals are posted."""
    embed = discord.Embed(title=t("⚙️ Hanafuda settings of {server}", server=shown(guild_name, TITLE - 30)),
                          colour=ACCENT)
    stakes = policy_text(s.stake_policy, f"<@&{s.stake_role_id}>" if s.stake_role_id else None)
    embed.add_field(name=t("Turn timeout"), value=plural(s.turn_timeout_s, "second"))
    embed.add_field(name=t("Hands delivered"), value=t("by direct message") if s.hand_delivery == "dm"
                    else t("privately in the channel (ephemeral)"))
    embed.add_field(name=t("Who may start staked games"), value=stakes)
    embed.add_field(name=t("Language of public tables"), value=(
        LANGUAGE_NAMES[s.language] if s.language else t("the server's Discord language")))
    embed.add_field(name=t("Hints in casual games"), value=t("Offered") if s.hints else t("Turned off"))
    embed.add_field(name=t("Chips"), inline=False, value=economy_text(s))
    embed.add_field(name=t("Seasons"), inline=False, value=seasons or t(
        "Started by staff with {start}; {schedule} starts them every week or month.",
        start=mention("season start", links), schedule=mention("season schedule", links)))
    embed.add_field(name=t("Weekly tournaments"), inline=False, value=clip(
        "\n".join(weekly_text(plan) for plan in weekly), FIELD_VALUE) or t(
        "None: {weekly} opens one in a channel.", weekly=mention("tournament weekly", links)))
    embed.add_field(name=t("Deal of the day"), inline=False, value=daily_post_text(daily, links))
    for game in GAMES:
        house = s.rules_for(game)
        try:
            text = rules_summary(game, house)
        except (InvalidRules, KeyError, TypeError, ValueError):
            text = t("These house rules no longer load; use {reset}.",
                     reset=mention("settings reset", links))
        embed.add_field(name=t("{game} house rules", game=title(game)), value=clip(text, FIELD_VALUE),
                        inline=False)
    return fit_embed(embed)


def _house_error(exc: Exception) -> str:
    """The refusal of a typed option value: ours names only the option and what it allows; the
    game's may quote what the user typed, so it is escaped (the store's refusal of the saved
    rules, an InvalidSetting, is a ValueError too: phrased as the store's sentence)."""
    problem = (sentence(exc) if isinstance(exc, StoreError) else rules_problem(exc)).rstrip(".")
    return t("That is not allowed: {problem}.",
             problem=problem if isinstance(exc, OptionRefused) else shown(problem, 300))


class AdminCog(ServerCog):
    """Server settings and chip administration for staff."""

    settings = server_only(StaffGroup(name="settings", description="The bot's settings on this server (staff)",
                                      guild_only=True, default_permissions=STAFF))
    chips_admin = server_only(StaffGroup(name="chips-admin",
                                         description="Grant or take back chips, set the economy (staff)",
                                         guild_only=True, default_permissions=STAFF))

    async def _saved(self, interaction: discord.Interaction, text: str) -> None:
        await answered_done(interaction, clip(f"✅ {text}", CONTENT), allowed_mentions=NO_PINGS)

    # -- /settings ---------------------------------------------------------------------------------
    @answers(private=True)
    @settings.command(name="show", description="Show every setting of this server")
    async def show(self, interaction: discord.Interaction) -> None:
        if not await staff_only(interaction):
            return
        current = await self.store.get_settings(interaction.guild_id)
        plan = await self.store.season_schedule(interaction.guild_id)
        weekly = await self.store.weekly_tournaments(interaction.guild_id)
        daily = await self.store.daily_post(interaction.guild_id)
        name = interaction.guild.name if interaction.guild else t("this server")
        embed = settings_embed(name, current, await links_for(interaction),
                               schedule_text(plan, int(time.time() * 1000)), weekly, daily)
        await send(interaction, embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @settings.command(name="rules", description="Choose the preset of a game's house rules")
    @app_commands.describe(game="The game", preset="The rule set to start from")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str,
                    preset: app_commands.Transform[str, Text(100, N_("The preset name"))]) -> None:
        if not await staff_only(interaction):
            return
        if game not in GAMES:
            await refuse(interaction, t("Pick a game from the list: {games}.", games=", ".join(GAMES)))
            return
        presets = list(game_module(game).Rules.PRESETS)
        if preset not in presets:
            named = ", ".join(f"`{p}` ({preset_label(game, p)})" for p in presets)
            await refuse(interaction, t("{game} has the presets {presets}; pick one of them.",
                                        game=title(game), presets=named))
            return
        try:
            await self.store.set_house_rules(interaction.guild_id, game, {"preset_name": preset})
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await self._saved(interaction, t("{game} now uses the preset **{label}** (`{preset}`; earlier "
                                         "single-option changes were cleared).", game=title(game),
                                         label=preset_label(game, preset), preset=preset))

    @rules.autocomplete("preset")
    async def _preset_names(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        names = list(game_module(game).Rules.PRESETS) if game in GAMES else []
        found = (choice(n, n) for n in names if current.lower() in n.lower())
        return [c for c in found if c is not None][:25]

    @answers(private=True)
    @settings.command(name="option", description="Change one house-rule option of a game")
    @app_commands.describe(game="The game", name="The option (start typing to search)",
                           value="Its new value")
    @app_commands.choices(game=GAME_CHOICES)
    async def option(self, interaction: discord.Interaction, game: str,
                     name: app_commands.Transform[str, Text(100, N_("The option name"))],
                     value: app_commands.Transform[str, Text(100, N_("The value"))]) -> None:
        if not await staff_only(interaction):
            return
        if game not in GAMES:
            await refuse(interaction, t("Pick a game from the list: {games}.", games=", ".join(GAMES)))
            return
        options = editable_options(game)
        if name not in options:
            await refuse(interaction, t("{game} has no option {name}; pick one from the list "
                                        "that appears as you type.", game=title(game),
                                        name=shown(name, 40)))
            return
        try:
            typed = parse_value(game, name, value)
            current = await self.store.get_settings(interaction.guild_id)
            house = current.rules_for(game)
            preset = house.pop("preset_name", None) or default_preset(game)
            house[name] = typed
            module = game_module(game)
            rules = module.Rules.preset(preset, **house)  # refuses what the game does not allow
            base = module.Rules.preset(preset)
            if getattr(base, name) == getattr(rules, name):
                house.pop(name)  # back to the preset's own value
            await self.store.set_house_rules(interaction.guild_id, game,
                                             {"preset_name": preset, **house})
        except (ValueError, InvalidRules) as exc:
            await refuse(interaction, _house_error(exc))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await self._saved(interaction, t("{game}: `{name}` is now `{value}` on this server.",
                                         game=title(game), name=name,
                                         value=format_value(typed).replace("`", "'")[:100]))

    @option.autocomplete("name")
    async def _option_names(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if game not in GAMES:
            return []
        found = []
        for opt in editable_options(game):
            hint = option_help(game, opt)
            if current.lower() in opt.lower() or current.lower() in hint.lower():
                offered = choice(f"{opt} — {hint}" if hint else opt, opt)
                if offered is not None:
                    found.append(offered)
        return found[:25]

    @option.autocomplete("value")
    async def _option_values(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        name = getattr(interaction.namespace, "name", None)
        if game not in GAMES or name not in editable_options(game):
            return []
        kind = editable_options(game)[name]
        choices = game_module(game).Rules.CHOICES.get(name)
        if kind is bool:
            values = ["on", "off"]
        elif choices:
            values = [format_value(c) for c in choices]
        else:
            base = getattr(game_module(game).Rules.preset(default_preset(game)), name)
            values = [str(base)] + ([current] if current.strip().lstrip("-").isdigit() else [])
        values = list(dict.fromkeys(values))
        found = (choice(v, v) for v in values if current.lower() in v.lower() or kind is int)
        return [c for c in found if c is not None][:25]  # a value too long to offer is left out

    @answers(private=True)
    @settings.command(name="reset", description="Go back to a game's default rules")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=GAME_CHOICES)
    async def reset(self, interaction: discord.Interaction, game: str) -> None:
        if not await staff_only(interaction):
            return
        if game not in GAMES:
            await refuse(interaction, t("Pick a game from the list: {games}.", games=", ".join(GAMES)))
            return
        try:
            await self.store.set_house_rules(interaction.guild_id, game, None)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        preset = default_preset(game)
        await self._saved(interaction, t("{game} is back to its default rules: **{label}** (`{preset}`).",
                                         game=title(game), label=preset_label(game, preset), preset=preset))

    @answers(private=True)
    @settings.command(name="timeout", description="Seconds a player has for each move")
    @app_commands.describe(seconds="10 to 86400 seconds")
    async def timeout(self, interaction: discord.Interaction,
                      seconds: app_commands.Range[int, 10, 86400]) -> None:
        await self._update(interaction, t("Players now have {seconds} per move.",
                                          seconds=plural(seconds, "second", bold=True)),
                           turn_timeout_s=seconds)

    @answers(private=True)
    @settings.command(name="hand_delivery", description="How players receive their hands")
    @app_commands.describe(mode="By direct message, or privately in the channel")
    @app_commands.choices(mode=[
        app_commands.Choice(name="Direct message (falls back to the channel)", value="dm"),
        app_commands.Choice(name="Privately in the channel (ephemeral)", value="ephemeral"),
    ])
    async def hand_delivery(self, interaction: discord.Interaction, mode: str) -> None:
        done = (t("Hands are now delivered by direct message.") if mode == "dm"
                else t("Hands are now delivered privately in the channel."))
        await self._update(interaction, done, hand_delivery=mode)

    @answers(private=True)
    @settings.command(name="language", description="The language of this server's public tables and messages")
    @app_commands.describe(language="Which language")
    @app_commands.choices(language=language_choices("The server's own Discord language"))
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        chosen = "" if language == "auto" else language
        done = (t("Public tables and messages now follow the server's Discord language.") if not chosen
                else t("Public tables and messages are now in {language}.", language=LANGUAGE_NAMES[chosen]))
        await self._update(interaction, done, language=chosen)

    @answers(private=True)
    @settings.command(name="hints", description="Whether casual games offer a Hint button on the hand")
    @app_commands.describe(offered="On: unstaked, unrated games offer hints; off: no game does")
    async def hints(self, interaction: discord.Interaction, offered: bool) -> None:
        done = (t("Casual games now offer a Hint button on the hand.") if offered
                else t("No game offers hints any more."))
        await self._update(interaction, done, hints=offered)

    @answers(private=True)
    @settings.command(name="stakes", description="Who may start games with a chip stake")
    @app_commands.describe(policy="Who may start staked games",
                           role="The role allowed (with policy 'role')")
    @app_commands.choices(policy=[app_commands.Choice(name=POLICY_TEXT[p].capitalize(), value=p)
                                  for p in STAKE_POLICIES])
    async def stakes(self, interaction: discord.Interaction, policy: str,
                     role: discord.Role | None = None) -> None:
        changes: dict[str, Any] = {"stake_policy": policy}
        if role is not None:
            changes["stake_role_id"] = role.id
        text = policy_text(policy, role.mention if role is not None else None)
        await self._update(interaction, t("Staked games may now be started by {who}.", who=text),
                           **changes)

    async def _update(self, interaction: discord.Interaction, done: str, **changes: Any) -> None:
        if not await staff_only(interaction):
            return
        try:
            await self.store.update_settings(interaction.guild_id, **changes)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await self._saved(interaction, done)

    # -- /chips-admin ------------------------------------------------------------------------------
    @answers(private=True)
    @chips_admin.command(name="grant", description="Give a member chips from the house")
    @app_commands.describe(user="Who receives them", amount="How many", reason="Why (kept in "
                           "the ledger)")
    async def grant(self, interaction: discord.Interaction, user: discord.Member | discord.User,
                    amount: app_commands.Range[int, 1, MAX_AMOUNT],
                    reason: app_commands.Transform[str, Text(200, N_("The reason"))]) -> None:
        await self._admin_move(interaction, "grant", user, amount, reason)

    @answers(private=True)
    @chips_admin.command(name="revoke", description="Take chips from a member back to the house")
    @app_commands.describe(user="From whom", amount="How many", reason="Why (kept in the ledger)")
    async def revoke(self, interaction: discord.Interaction, user: discord.Member | discord.User,
                     amount: app_commands.Range[int, 1, MAX_AMOUNT],
                     reason: app_commands.Transform[str, Text(200, N_("The reason"))]) -> None:
        await self._admin_move(interaction, "revoke", user, amount, reason)

    async def _admin_move(self, interaction: discord.Interaction, kind: str,
                          user: discord.Member | discord.User, amount: int, reason: str) -> None:
        if not await staff_only(interaction):
            return
        if why := not_a_member(user):
            await refuse(interaction, why)
            return
        guild, actor = interaction.guild_id, interaction.user.id
        name = shown(user.display_name, 100)
        try:
            settings = await self.store.get_settings(guild)
            currency = shown(settings.currency_name, 64)
            if kind == "grant":
                done = await self.store.grant(guild, user.id, amount, key=str(interaction.id),
                                              actor=actor, reason=reason, open_account=True)
                balance = done.to_balance
            else:
                done = await self.store.revoke(guild, user.id, amount, key=str(interaction.id),
                                               actor=actor, reason=reason)
                balance = done.from_balance
        except InsufficientFunds as exc:
            await refuse(interaction, t("{name} has only {balance}; revoke at most that.",
                                        name=name, balance=counted(exc.balance, currency)))
            return
        except UnknownAccount:
            await refuse(interaction, t("{name} has no {currency} here yet, so there is nothing "
                                        "to take back.", name=name, currency=currency_noun(currency)))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        fields = {"amount": counted(amount, currency, bold=True), "user": f"<@{user.id}>",
                  "reason": shown(reason, 200), "balance": number(balance)}
        await self._saved(interaction, t("Granted {amount} to {user} ({reason}); their balance is "
                                         "{balance}.", **fields) if kind == "grant" else
                          t("Took back {amount} from {user} ({reason}); their balance is "
                            "{balance}.", **fields))

    @answers(private=True)
    @chips_admin.command(name="config", description="Starting chips, daily amount and currency "
                         "name (leave all empty to see them)")
    @app_commands.describe(starting_chips="Chips a new account starts with",
                           daily_amount="Chips of /chips daily (0 turns it off)",
                           currency_name="What the chips are called here (1-32 characters)")
    async def config(
        self, interaction: discord.Interaction,
        starting_chips: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        daily_amount: app_commands.Range[int, 0, MAX_AMOUNT] | None = None,
        currency_name: app_commands.Transform[str, Text(32, N_("The currency name"))] | None = None,
    ) -> None:
        if not await staff_only(interaction):
            return
        changes = {k: v for k, v in (("starting_chips", starting_chips),
                                     ("daily_amount", daily_amount),
                                     ("currency_name", currency_name)) if v is not None}
        try:
            if changes:
                new = await self.store.update_settings(interaction.guild_id, **changes)
            else:
                new = await self.store.get_settings(interaction.guild_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        fields = {"currency": shown(currency_noun(new.currency_name), 64),
                  "start": number(new.starting_chips), "daily": number(new.daily_amount),
                  "claim": mention("chips daily", await links_for(interaction))}
        text = (t("Currency **{currency}** · new accounts start with {start} · {claim} gives "
                  "{daily} (off).", **fields) if new.daily_amount == 0 else
                t("Currency **{currency}** · new accounts start with {start} · {claim} gives "
                  "{daily}.", **fields))
        if changes:
            await self._saved(interaction, t("Saved. {settings}", settings=text))
        else:
            await send(interaction, text, ephemeral=True,
                       allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
