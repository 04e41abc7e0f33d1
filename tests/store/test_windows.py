"""Discord's rate-limit windows the bot spent, kept for its next start, on both databases: a
later end wins, the ended ones are forgotten, and only a route and its channel are kept."""

from __future__ import annotations

import pytest

from bot.store import InvalidInput

from .conftest import count

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


async def test_the_windows_still_open_are_found_again(store):
    await store.note_rest_windows({(EDIT, "55"): 10_000, (POST, "55"): 9_000, (EDIT, "56"): 8_000}, 7_000)
    assert await store.rest_windows(8_500) == {(EDIT, "55"): 10_000, (POST, "55"): 9_000}
    assert await store.rest_windows(10_000) == {}


async def test_a_later_end_wins_and_an_earlier_one_changes_nothing(store):
    await store.note_rest_windows({(EDIT, "55"): 10_000}, 7_000)
    await store.note_rest_windows({(EDIT, "55"): 9_000}, 7_500)
    assert await store.rest_windows(8_000) == {(EDIT, "55"): 10_000}
    await store.note_rest_windows({(EDIT, "55"): 12_000}, 8_000)
    assert await store.rest_windows(8_000) == {(EDIT, "55"): 12_000}


async def test_each_write_forgets_the_windows_that_ended(store):
    await store.note_rest_windows({(EDIT, "55"): 10_000, (EDIT, "56"): 20_000}, 7_000)
    await store.note_rest_windows({(POST, "57"): 30_000, (POST, "58"): 10_500}, 11_000)
    assert await count(store, "rest_windows") == 2  # 56 and 57: 55 ended, 58 had already
    assert await store.rest_windows(11_000) == {(EDIT, "56"): 20_000, (POST, "57"): 30_000}


@pytest.mark.parametrize("spent", [
    {("", "55"): 1}, {(EDIT, ""): 1}, {(EDIT, "5" * 101): 1}, {("x" * 201, "55"): 1},
    {(EDIT, 55): 1}, {(EDIT,): 1}, {EDIT: 1}, {(EDIT, "55"): 1.5}, {(EDIT, "55"): "1"},
])
async def test_anything_but_a_route_its_channel_and_an_end_is_refused(store, spent):
    with pytest.raises(InvalidInput):
        await store.note_rest_windows(spent, 0)
    assert await count(store, "rest_windows") == 0
