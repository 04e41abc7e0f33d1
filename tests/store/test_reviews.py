"""The /review requests being worked on, on both databases: noted once per server, game and
player, taken off when answered, found again after a stop, forgotten with the member."""

from __future__ import annotations

import pytest

from bot.store import InvalidInput

from .conftest import ALICE, BOB, GUILD, OTHER_GUILD


async def test_a_request_is_noted_once_and_taken_off_when_answered(store, clock):
    assert await store.note_review(GUILD, 7, ALICE, "ja")
    assert not await store.note_review(GUILD, 7, ALICE, "en")  # the same one: it waits
    clock.advance(1)
    assert await store.note_review(GUILD, 8, ALICE, "en")
    assert await store.note_review(OTHER_GUILD, 7, BOB, "ko")
    found = await store.pending_reviews()
    assert [(r.guild_id, r.game_id, r.user_id, r.language) for r in found] == [
        (GUILD, 7, ALICE, "ja"), (GUILD, 8, ALICE, "en"), (OTHER_GUILD, 7, BOB, "ko")]
    assert [r.game_id for r in await store.pending_reviews(lambda g: g == OTHER_GUILD)] == [7]
    await store.review_done(GUILD, 7, ALICE)
    await store.review_done(GUILD, 7, ALICE)  # twice: nothing more to take off
    assert [r.game_id for r in await store.pending_reviews(lambda g: g == GUILD)] == [8]
    assert await store.note_review(GUILD, 7, ALICE, "en")  # asked again once answered


@pytest.mark.parametrize("bad", [dict(language=""), dict(language="fr"), dict(game_id=0),
                                 dict(user_id="1"), dict(guild_id=-3)])
async def test_a_bad_request_is_refused(store, bad):
    args = {"guild_id": GUILD, "game_id": 7, "user_id": ALICE, "language": "en"} | bad
    with pytest.raises(InvalidInput):
        await store.note_review(**args)
    assert await store.pending_reviews() == []
