"""Share my result, on the private final table of a game of the day: the result (never a card)
posted to the channel once, only by its member."""

from __future__ import annotations

import discord

from bot.achievement_text import streak_text
from bot.daily_words import margin_text
from bot.discord_ui.answer import CalledOff, landed, send
from bot.discord_ui.app import app
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import told
from bot.discord_ui.parts import share_face
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.starting import before_answer
from bot.discord_ui.text import (
    NO_PINGS,
    day_text,
    refuse,
)
from bot.i18n import number, t
from bot.store.daily import DailyPlace
from bot.tables import TableError
from rendering.view import GAME_NAMES


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
        await send(interaction, text, allowed_mentions=NO_PINGS)
    except UNDELIVERED as exc:
        if await landed(interaction, exc) is not None:
            return  # cut after Discord posted it: shared
        await store.unshare_daily_deal(game_id, user)
        raise CalledOff() from exc


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
