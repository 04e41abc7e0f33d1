"""End-to-end flows of a small test-only bot through the stand-in: the patterns our real bot uses
(embeds + files, persistent views, ephemeral followups, DMs with a fallback, deferrals, retries)
must pass spec validation and leave each user seeing exactly what Discord would show them."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord_standin import StandIn
from tests.discord_standin.clocks import ManualClock

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
YAKU = [
    "Goko",
    "Shiko",
    "Ame-Shiko",
    "Sanko",
    "Inoshikacho",
    "Akatan",
    "Aotan",
    "Tane",
    "Tan",
    "Kasu",
]


class GameView(discord.ui.View):
    """Persistent (timeout=None, fixed custom_ids) so clicks route even on old messages."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Draw", style=discord.ButtonStyle.primary, custom_id="hanafuda:draw")
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(
            content=f"{interaction.user.name} drew the Crane", view=self
        )
        await interaction.followup.send("Your hand: Pine Crane, Plum Ribbon", ephemeral=True)

    @discord.ui.button(label="Pass", style=discord.ButtonStyle.secondary, custom_id="hanafuda:pass")
    async def pass_turn(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("You passed.", ephemeral=True)

    @discord.ui.select(
        custom_id="hanafuda:month",
        options=[discord.SelectOption(label=m, value=m) for m in ("pine", "plum", "cherry")],
    )
    async def month(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"Month chosen: {select.values[0]}", ephemeral=True)


class BadStyleButton(discord.ui.Button):
    """A button serialised with a style Discord does not have (a bug the stand-in must catch)."""

    def to_component_dict(self):  # type: ignore[override]
        data = super().to_component_dict()
        data["style"] = 9
        return data


class HanafudaCog(commands.Cog):
    game = app_commands.Group(name="game", description="Hanafuda games")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.release_slow = asyncio.Event()

    @app_commands.command(name="deal", description="Deal a new hand")
    async def deal(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Koi-Koi", description="A new round begins", colour=0xC0392B)
        embed.set_image(url="attachment://hand.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(PNG), "hand.png"), view=GameView()
        )

    @game.command(name="invite", description="Invite a player")
    @app_commands.describe(opponent="Who to play against", rounds="Number of rounds")
    async def invite(
        self, interaction: discord.Interaction, opponent: discord.Member, rounds: int = 3
    ) -> None:
        try:
            await opponent.send(
                f"{interaction.user.name} invites you to {rounds} rounds of Koi-Koi"
            )
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await interaction.response.send_message(
                f"{opponent.mention}, {interaction.user.name} invites you to {rounds} rounds (your DMs are closed)"
            )
            return
        await interaction.response.send_message(
            f"Invitation sent to {opponent.display_name}.", ephemeral=True
        )

    @app_commands.command(name="score", description="Slow score computation")
    async def score(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.to_thread(sum, range(10_000))  # the slow part, off the loop
        await interaction.edit_original_response(content="Scores: alice 12, bob 7")

    @app_commands.command(name="yaku", description="Explain a yaku")
    async def yaku(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"{name}: a scoring combination", ephemeral=True)

    @yaku.autocomplete("name")
    async def yaku_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=y, value=y) for y in YAKU if current.lower() in y.lower()][
            :25
        ]

    @app_commands.command(name="announce", description="Post to the channel")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("Posting…", ephemeral=True)
        await interaction.channel.send(text)

    @app_commands.command(name="burst", description="Post several messages in a row")
    async def burst(self, interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("Posting…", ephemeral=True)
        for n in range(count):
            await interaction.channel.send(f"message {n + 1}")

    @app_commands.command(name="tidy", description="Post, edit and delete through every route")
    async def tidy(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        step = await interaction.followup.send("step 1", wait=True)
        await step.edit(content="step 2")
        await interaction.delete_original_response()
        posted = await interaction.channel.send("temporary")
        await posted.edit(content="temporary (edited)")
        await posted.delete()

    @app_commands.command(name="settings", description="Server settings (admins)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Settings: rounds=12", ephemeral=True)

    @app_commands.command(
        name="rules", description="Rules with an oversized embed (deliberate bug)"
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="x" * 7000))

    @app_commands.command(
        name="badbutton", description="A button with an invalid style (deliberate bug)"
    )
    async def badbutton(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(BadStyleButton(label="Oops", custom_id="oops"))
        await interaction.response.send_message("broken", view=view)

    @app_commands.command(name="twice", description="Responds twice (deliberate bug)")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        interaction.response._response_type = None  # emulate two code paths both answering
        await interaction.response.send_message("second")

    @app_commands.command(name="slow", description="Answers too late (deliberate bug)")
    async def slow(self, interaction: discord.Interaction) -> None:
        await self.release_slow.wait()  # the test lets it answer once the deadline has passed
        await interaction.response.send_message("finally")


class HanafudaTestBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions.none())
        self.guild_id = guild_id
        self.app_errors: list[Exception] = []

    async def setup_hook(self) -> None:
        self.add_view(GameView())
        await self.add_cog(HanafudaCog(self))
        self.tree.on_error = self.on_app_command_error
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.app_errors.append(error)
        if (
            isinstance(error, app_commands.MissingPermissions)
            and not interaction.response.is_done()
        ):
            await interaction.response.send_message(
                "You need Manage Server for that.", ephemeral=True
            )


@pytest.fixture
async def bot(start_bot, world) -> HanafudaTestBot:
    return await start_bot(HanafudaTestBot(world.guild.id))


async def test_bot_connects_and_syncs_commands(bot, standin: StandIn, world) -> None:
    assert bot.user.id == standin.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.get_channel(world.channel.id) is not None
    assert guild.me.guild_permissions.send_messages  # members intent is off: only the bot is cached
    names = {c["name"] for c in standin.registered_commands(world.guild)}
    assert {"deal", "game", "score", "yaku", "settings"} <= names
    game = next(c for c in standin.registered_commands(world.guild) if c["name"] == "game")
    assert game["options"][0]["name"] == "invite" and game["options"][0]["type"] == 1


async def test_slash_command_replies_with_embed_and_file(bot, standin: StandIn, world) -> None:
    record = await world.admin.slash(world.channel, "deal")
    assert record.response_type == 4
    [msg] = standin.channel_messages(world.channel)
    assert msg is record.original and msg.embeds[0]["title"] == "Koi-Koi"
    assert msg.files == {"hand.png": PNG}
    assert set(msg.custom_ids()) == {"hanafuda:draw", "hanafuda:pass", "hanafuda:month"}
    assert msg in standin.visible_to(world.player)


async def test_button_edits_message_and_followup_is_ephemeral(bot, standin: StandIn, world) -> None:
    deal = await world.admin.slash(world.channel, "deal")
    click = await world.player.click(deal.original, "hanafuda:draw")
    await standin.answered(click, 2)  # the edited message and the ephemeral followup
    assert click.response_type == 7
    msg = standin.message(deal.original)
    assert msg.content == "bob drew the Crane"
    assert msg.find_component("hanafuda:draw")["disabled"] is True
    assert [r.content for r in msg.history] == [""]
    [hand] = click.followups
    assert hand.ephemeral and hand.content.startswith("Your hand")
    assert standin.ephemerals(world.player) == [hand]
    assert hand in standin.visible_to(world.player)
    assert hand not in standin.visible_to(world.admin)
    assert hand not in standin.channel_messages(world.channel)
    with pytest.raises(AssertionError, match="cannot see"):
        await world.admin.click(hand, "anything")


async def test_persistent_view_survives_a_new_bot_session(
    start_bot, standin: StandIn, world
) -> None:
    first = await start_bot(HanafudaTestBot(world.guild.id))
    deal = await world.admin.slash(world.channel, "deal")
    await first.close()
    await start_bot(HanafudaTestBot(world.guild.id))
    record = await world.player.click(deal.original, "hanafuda:pass")
    assert (
        record.original.content == "You passed." and record.original.ephemeral_for is world.player
    )


async def test_select_menu(bot, standin: StandIn, world) -> None:
    deal = await world.admin.slash(world.channel, "deal")
    record = await world.player.select(deal.original, "hanafuda:month", ["plum"])
    assert record.original.content == "Month chosen: plum"
    assert standin.ephemerals(world.player) == [record.original]


async def test_subcommand_with_user_option_sends_dm(bot, standin: StandIn, world) -> None:
    record = await world.admin.slash(world.channel, "game invite", opponent=world.player, rounds=5)
    assert record.data["resolved"]["members"][str(world.player.id)]["permissions"]
    [dm] = standin.dms(world.player)
    assert dm.content == "alice invites you to 5 rounds of Koi-Koi"
    assert dm in standin.visible_to(world.player) and dm not in standin.visible_to(world.admin)
    assert standin.ephemerals(world.admin)[0].content == "Invitation sent to bob."


async def test_dm_refusal_gives_50007_and_bot_falls_back(bot, standin: StandIn, world) -> None:
    record = await world.admin.slash(world.channel, "game invite", opponent=world.shy)
    assert [m.content for m in standin.refused_dms] == ["alice invites you to 3 rounds of Koi-Koi"]
    assert standin.dms(world.shy) == []
    assert record.original.content.startswith(f"<@{world.shy.id}>, alice invites you")
    assert record.original in standin.channel_messages(world.channel)
    assert [r.status for r in standin.requests_to("POST /channels/{channel_id}/messages")] == [403]


async def test_deferred_response_then_edit(bot, standin: StandIn, world) -> None:
    record = await world.player.slash(world.channel, "score")
    assert record.response_type == 5
    msg = record.original
    assert not msg.loading and msg.content == "Scores: alice 12, bob 7"
    assert len(msg.history) == 1 and msg.history[0].flags & 128  # was "thinking…"


async def test_autocomplete_returns_choices(bot, standin: StandIn, world) -> None:
    record = await world.player.autocomplete(world.channel, "yaku", "name", name="tan")
    assert record.response_type == 8
    assert [c["value"] for c in record.autocomplete_choices] == ["Akatan", "Aotan", "Tane", "Tan"]
    assert standin.visible_to(world.player) == []


async def test_permissions_reach_the_bot(bot, standin: StandIn, world) -> None:
    denied = await world.player.slash(world.channel, "settings")
    assert denied.original.content == "You need Manage Server for that."
    allowed = await world.admin.slash(world.channel, "settings")
    assert allowed.original.content == "Settings: rounds=12"
    assert [type(e) for e in bot.app_errors] == [app_commands.MissingPermissions]


async def test_429_on_message_post_is_retried(bot, standin: StandIn, world) -> None:
    standin.fail_next(
        "POST /channels/{channel_id}/messages",
        status=429,
        retry_after=0.2,
        channel_id=world.channel.id,
    )
    await world.admin.slash(world.channel, "announce", text="Tournament at 8pm")
    await standin.wait_for(lambda: standin.last_message(world.channel), "the announcement",
                           channels=[world.channel])
    assert [r.status for r in standin.requests_to("POST /channels/{channel_id}/messages")] == [
        429,
        200,
    ]
    assert standin.last_message(world.channel).content == "Tournament at 8pm"


async def test_bot_waits_out_discords_global_limit(bot, standin: StandIn, world) -> None:
    clock = ManualClock()  # the limit's window moves only when the test says so
    clock.advance(1.0)  # the requests of the bot's start leave the global window
    standin.clock = clock
    standin.limits.global_per_second = 2
    await world.admin.slash(world.channel, "burst", count=4)
    posts = lambda: standin.requests_to("POST /channels/{channel_id}/messages")  # noqa: E731
    await standin.wait_for(lambda: standin.count_429("global"), "the bot's third post refused")
    assert [r.status for r in posts()] == [200, 200, 429]
    clock.advance(1.0)  # discord.py sleeps retry_after (1 s) and sends it again
    await standin.wait_for(lambda: len(standin.channel_messages(world.channel)) == 4,
                           "all four messages", channels=[world.channel])
    assert [m.content for m in standin.channel_messages(world.channel)] == [
        f"message {n}" for n in range(1, 5)]
    # a retry that beat the clock's advance is refused again; either way every 429 was global
    assert [r.status for r in posts() if r.status != 429] == [200] * 4
    assert standin.accept_rate_limits() == standin.count_429("global") >= 1


async def test_global_429_and_server_error_are_retried(bot, standin: StandIn, world) -> None:
    # discord.py sleeps 1 s after a first 5xx (then 3 s, 5 s ...), so the 502 comes first.
    standin.fail_next("POST /channels/{channel_id}/messages", status=502)
    standin.fail_next(
        "POST /channels/{channel_id}/messages", status=429, retry_after=0.1, is_global=True
    )
    await world.admin.slash(world.channel, "announce", text="hello")
    posts = lambda: [r.status for r in standin.requests_to("POST /channels/{channel_id}/messages")]  # noqa: E731
    await standin.wait_for(lambda: len(posts()) == 3, "the third attempt of the post")
    assert posts() == [502, 429, 200]
    assert standin.last_message(world.channel).content == "hello"


async def test_oversized_embed_is_a_violation(bot, standin: StandIn, world) -> None:
    standin.ack_deadline = 0.5  # the refused reply leaves the interaction unanswered; fail fast
    record = await world.admin.slash(world.channel, "rules")
    [violation] = standin.take_violations("invalid-body")
    assert "data/embeds/0/description" in violation.detail and "4096" in violation.detail
    assert record.initial is None and standin.channel_messages(world.channel) == []
    assert standin.take_violations("no-ack")  # Discord would show "The application did not respond"
    [error] = bot.app_errors
    assert isinstance(error.original, discord.HTTPException) and error.original.code == 50035


async def test_invalid_button_style_is_a_violation(bot, standin: StandIn, world) -> None:
    standin.ack_deadline = 0.5
    await world.admin.slash(world.channel, "badbutton")
    [violation] = standin.take_violations("invalid-body")
    assert "components/0/components/0/style" in violation.detail and "9" in violation.detail
    assert standin.take_violations("no-ack")


async def test_double_initial_response_is_a_violation(bot, standin: StandIn, world) -> None:
    record = await world.admin.slash(world.channel, "twice")
    await standin.wait_for(lambda: record.errors, "the second initial response")
    [violation] = standin.take_violations("double-ack")
    assert "second initial response" in violation.detail
    assert record.original.content == "first" and record.errors == ["already acknowledged"]
    [error] = bot.app_errors
    assert error.original.code == 40060


async def test_late_initial_response_is_a_violation(bot, standin: StandIn, world) -> None:
    standin.ack_deadline = 0.2
    record = await world.admin.slash(world.channel, "slow")  # returns once the deadline passed
    bot.get_cog("HanafudaCog").release_slow.set()
    await standin.wait_for(lambda: record.late_callbacks, "the late callback")
    assert {v.kind for v in standin.take_violations()} == {"no-ack", "late-ack"}
    assert record.initial is None
    [error] = bot.app_errors
    assert error.original.code == 10062


async def test_gateway_resume_replays_missed_events(bot, standin: StandIn, world) -> None:
    await standin.drop_gateway()
    await standin.wait_for(lambda: standin.gateway.resumes == 1 and standin.gateway.connected,
                           "the bot to resume its gateway session")
    record = await world.player.slash(world.channel, "score")
    assert record.original.content.startswith("Scores")
    assert standin.gateway.identifies == 1


async def test_followup_edits_and_deletions_are_recorded(bot, standin: StandIn, world) -> None:
    record = await world.admin.slash(world.channel, "tidy")
    await standin.wait_for(lambda: len(standin.deleted_messages(world.channel)) == 2,
                           "the original answer and the temporary message deleted")
    original, step = record.original, record.followups[0]
    assert original.deleted and record.messages == [step]
    assert step.content == "step 2" and [r.content for r in step.history] == ["step 1"]
    [temporary] = [m for m in standin.deleted_messages(world.channel) if m is not original]
    assert temporary.content == "temporary (edited)" and temporary.history[0].content == "temporary"
    assert standin.channel_messages(world.channel) == [step]


async def test_late_channel_and_member_reach_the_bot(bot, standin: StandIn, world) -> None:
    lounge = standin.create_channel(world.guild, "lounge")
    newcomer = standin.create_user("dave")
    standin.add_member(world.guild, newcomer)
    record = await newcomer.slash(lounge, "score")
    assert bot.get_channel(lounge.id) is not None
    assert record.original.channel is lounge and record.original.content.startswith("Scores")


async def test_dm_interaction_uses_user_not_member(bot, standin: StandIn, world) -> None:
    record = await world.player.slash(None, "yaku", name="Goko")
    assert record.channel is world.player.dm_channel and record.guild is None
    assert standin.ephemerals(world.player)[0].content == "Goko: a scoring combination"
