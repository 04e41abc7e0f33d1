"""``/chips history``: the chip ledger's lines, one page of them, and its pager."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_ui.answer import press_update
from bot.discord_ui.cog import Pager, pager_buttons, pages_of, store_of
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import Speaks
from bot.discord_ui.text import NO_PINGS, fit_embed, shown
from bot.i18n import N_, NP_, number, t, tp
from bot.store import Store
from bot.store.models import former_member, is_pseudonym
from bot.words import currency_noun, plural

LEDGER_PAGE = 10
KIND_LABELS = {"open": NP_("ledger", "starting chips"), "daily": NP_("ledger", "daily chips"),
               "grant": NP_("ledger", "granted by staff"), "revoke": NP_("ledger", "taken back by staff"),
               "stake": NP_("ledger", "stake"), "payout": NP_("ledger", "winnings"),
               "refund": NP_("ledger", "stake refunded")}


def ledger_line(line) -> str:
    when = f"<t:{int(line.created_at.timestamp())}:d>"
    what = tp("ledger", KIND_LABELS[line.kind]) if line.kind in KIND_LABELS else line.kind
    if line.kind == "transfer":
        who = (former_member() if is_pseudonym(line.counterparty) else
               f"<@{line.counterparty}>" if line.counterparty else t("someone"))
        what = t("from {who}", who=who) if line.amount > 0 else t("to {who}", who=who)
    if line.game_id is not None:
        what += " · " + t("game #{id}", id=line.game_id)
    if line.kind in ("grant", "revoke") and line.reason:
        what += f" · {shown(line.reason, 60)}"
    return f"{when} **{number(line.amount, signed=True)}** {what} → {number(line.balance_after)}"


async def history_message(store: Store, guild_id: int, user_id: int, page: int
                          ) -> dict[str, Any]:
    settings = await store.get_settings(guild_id)
    total = await store.history_count(guild_id, user_id)
    pages = pages_of(total, LEDGER_PAGE)
    page = min(page, pages - 1)
    lines = await store.history(guild_id, user_id, offset=page * LEDGER_PAGE, limit=LEDGER_PAGE)
    currency = shown(settings.currency_name, 64)
    embed = discord.Embed(title=t("🪙 Your {currency} history", currency=currency_noun(currency)),
                          colour=ACCENT, description="\n".join(ledger_line(x) for x in lines)
                          or t("No {currency} have moved yet.", currency=currency_noun(currency)))
    embed.set_footer(text=t("Newest first · page {page} of {pages} · {entries}", page=page + 1,
                            pages=pages, entries=plural(total, "entry")))

    def make_id(target: int, tag: str) -> str:
        return f"hf:chh:{user_id}:{target}:{tag}"

    return {"embed": fit_embed(embed), "view": pager_buttons(make_id, page, pages),
            "allowed_mentions": NO_PINGS}


class HistoryPager(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:chh:(?P<user>[0-9]+):(?P<page>[0-9]+)(?::(?P<tag>[a-z]))?"):
    """A page of someone's chip history: only they may turn it."""

    owner_group = "user"
    refusal = N_("This is someone else's history; run {command} for yours.")
    command = "chips history"

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        content = await history_message(store_of(interaction), interaction.guild_id,
                                        interaction.user.id, int(m["page"]))
        await press_update(interaction, **content)
