"""What a member is told when they press someone else's page or button: the one sentence of the
control, with a link to the command that shows them their own where there is one."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.discord_ui import cog as cog_module
from cogs.community import LeaderboardPager
from cogs.privacy import KeepButton

pytestmark = pytest.mark.asyncio


class Ids:
    async def of(self, guild_id):
        return {"leaderboard": 900}


async def pressed_by_another(control_class, custom_id: str, monkeypatch) -> str:
    told: list[str] = []

    async def refuse(interaction, message):
        told.append(message)

    monkeypatch.setattr(cog_module, "refuse", refuse)
    match = control_class.__discord_ui_compiled_template__.fullmatch(custom_id)
    control = control_class(custom_id, match)
    other = SimpleNamespace(user=SimpleNamespace(id=2), guild_id=7,
                            client=SimpleNamespace(command_ids=Ids()))
    await control._run(other)
    (sentence,) = told
    return sentence


async def test_a_page_of_someone_elses_board_points_to_your_own_with_a_link(monkeypatch):
    told = await pressed_by_another(LeaderboardPager, "hf:lbd:1:all:wins:all:s0:1", monkeypatch)
    assert told == "Only the member who asked can turn these pages; run </leaderboard:900> for your own view."


async def test_a_control_with_no_command_to_point_to_says_its_sentence_alone(monkeypatch):
    told = await pressed_by_another(KeepButton, "hf:pvc:1", monkeypatch)
    assert told == "Only the member who asked can use these buttons."
