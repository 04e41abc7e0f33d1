"""Where guest games count: each player's own /stats adds up their games in every place where
the app is a guest (DMs, group DMs, servers without the bot); another player's /stats, and a
server's, show only the place where they are asked."""

from __future__ import annotations

import json

import pytest

from bot.store import SeatResult
from tests.discord_standin.state import CHANNEL_TEXT, Channel
from tests.e2e.playing import play_out
from tests.e2e.test_guest_tables import gbot, steady_koikoi  # noqa: F401  (the fixture)

pytestmark = pytest.mark.asyncio

OWN = "Your games in DMs, group DMs and servers without the bot"
DM_ELSEWHERE = 6_100_000_000_000_001  # a DM of alice's where a guest game of hers is stored


def stats_text(record) -> str:
    """Every word of the /stats answer's embeds: title, description, fields and footer."""
    parts = []
    for message in record.messages:
        for embed in message.embeds:
            parts += [embed.get("title", ""), embed.get("description", ""),
                      (embed.get("footer") or {}).get("text", "")]
            parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", ())]
    return "\n".join(parts)


async def stats(standin, asker, channel, **options) -> str:
    record = await asker.slash(channel, "stats", **options)
    await standin.wait_for(lambda: any("stats.png" in m.files for m in record.messages),
                           "the record with its card", channels=[channel])
    return stats_text(record)


async def finished(store, scope: int, players: list[int], won: int) -> None:
    """A game stored as played and finished under ``scope`` (``won``: the winning seat)."""
    game = await store.create_game(scope, scope, "koikoi", rules={}, players=players, seed=3,
                                   state_json="{}", state_version=1)
    await store.finish_game(game.game_id, [SeatResult(s, 6 if s == won else 0,
                                                      "won" if s == won else "lost")
                                           for s in range(len(players))])


async def test_own_stats_add_up_the_guest_places_and_no_server(gbot, standin):  # noqa: F811
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    for user in (alice, bob):  # each asks /stats in the group DM through their own install
        standin.install_for(user)
    club = standin.create_guild("Club")  # a server that added the bot
    for user in (alice, bob):
        standin.add_member(club, user)
    hall = standin.create_channel(club, "hall")
    group = standin.create_group_dm("friends", alice, bob)
    # alice plays the AI in the group DM, where the app is a guest
    await steady_koikoi(gbot, group)
    await alice.slash(group, "koikoi", ai="easy", rounds=1)
    await play_out(standin, group, [alice])
    await standin.wait_for(lambda: not gbot.tables.tables, "the group DM's game ended")
    kinds = await gbot.store._db.fetchall("SELECT scope_id, kind FROM guest_scopes")
    assert [tuple(row) for row in kinds] == [(group.id, "group_dm")]  # noted as its table started
    # her games elsewhere: one in another guest place, two on the club's server (won, lost)
    await gbot.store.note_guest_place(DM_ELSEWHERE, "dm")
    await finished(gbot.store, DM_ELSEWHERE, [alice.id, bob.id], won=0)
    await finished(gbot.store, club.id, [alice.id, bob.id], won=0)
    await finished(gbot.store, club.id, [alice.id, bob.id], won=1)

    own = await stats(standin, alice, group)  # hers, in a guest place: every guest place
    assert OWN in own and "2 played" in own and "chips" not in own.lower()
    theirs = await stats(standin, bob, group, user=alice)  # someone else's: this group DM only
    assert OWN not in theirs and "1 played" in theirs
    in_club = await stats(standin, alice, hall)  # the server's record, and one line of her own
    server_part, _, own_line = in_club.partition(OWN)
    assert "2 played\n1 won · 0 drawn · 1 lost" in server_part and own_line.startswith(": 2 played")
    asked_by_bob = await stats(standin, bob, hall, user=alice)  # never another player's own
    assert OWN not in asked_by_bob and "2 played" in asked_by_bob


async def test_a_season_is_refused_for_the_own_record(gbot, standin):  # noqa: F811
    alice = standin.create_user("alice")
    standin.install_for(alice)
    record = await alice.slash(standin.dm_channel(alice), "stats", season="2")
    assert "Only a server has seasons" in " ".join(m.content for m in record.messages)


def button(message, prefix: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix))


async def test_privacy_where_the_app_is_a_guest_covers_every_guest_place(gbot, standin):  # noqa: F811
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    club = standin.create_guild("Club")
    standin.add_member(club, alice)
    group = standin.create_group_dm("friends", alice, bob)
    await steady_koikoi(gbot, group)
    await alice.slash(group, "koikoi", ai="easy", rounds=1)
    await play_out(standin, group, [alice])
    await standin.wait_for(lambda: not gbot.tables.tables, "the group DM's game ended")
    await gbot.store.note_guest_place(DM_ELSEWHERE, "dm")
    await finished(gbot.store, DM_ELSEWHERE, [bob.id, alice.id], won=0)
    await finished(gbot.store, club.id, [alice.id, bob.id], won=0)
    dm = standin.dm_channel(alice)

    shown = await alice.slash(dm, "privacy show")
    card = shown.messages[0]
    assert card.ephemeral and "without the bot" in card.embeds[0]["title"]
    text = stats_text(shown)
    assert "2 games" in text and "2 results" in text and "Chips" not in text
    await alice.click(card, button(card, "hf:pvx:"))
    name = f"hanafuda-member-guest-{alice.id}.json"
    sent = await standin.wait_for(
        lambda: next((m for m in standin.ephemerals(alice) if name in m.files), None), "the export")
    places = json.loads(sent.files[name])["places"]
    assert sorted(int(p["server_id"]) for p in places) == sorted([group.id, DM_ELSEWHERE])

    asked = await alice.slash(dm, "privacy forget")
    confirm = asked.messages[0]
    assert confirm.ephemeral and "every DM, group DM and server without the bot" in confirm.content
    await alice.click(confirm, button(confirm, "hf:pvf:"))
    await standin.wait_for(lambda: standin.message(confirm).content.startswith("✅"),
                           "the forget done", channels=[dm])
    assert (await gbot.store.guest_record(alice.id)).games == 0
    assert (await gbot.store.guest_record(bob.id)).games == 1  # bob's record stays right
    assert (await gbot.store.user_stats(club.id, alice.id)).games == 1  # the server's is its own
    again = await alice.slash(dm, "privacy forget")
    assert "Nothing in DMs, group DMs or servers without the bot" in again.messages[0].content


async def test_an_old_servers_first_channel_is_not_counted_as_a_guest_place(gbot, standin):  # noqa: F811
    alice = standin.create_user("alice")
    standin.install_for(alice)
    old = standin.create_guild("Old Club", with_bot=False)
    standin.add_member(old, alice)
    # Servers made before 2017 began with a channel whose id is the server's own: a guest game
    # there is kept under the id the server's records would have if it added the bot later.
    general = Channel(old.id, CHANNEL_TEXT, name="general", guild=old, position=0)
    old.channels.append(general)
    standin.channels[general.id] = general
    await steady_koikoi(gbot, general)
    await alice.slash(general, "koikoi", ai="easy", rounds=1)
    await play_out(standin, general, [alice])
    await standin.wait_for(lambda: not gbot.tables.tables, "the game ended")
    assert (await gbot.store.user_stats(old.id, alice.id)).games == 1  # the place's own record
    assert await gbot.store._db.fetchall("SELECT scope_id FROM guest_scopes") == []
    assert (await gbot.store.guest_record(alice.id)).games == 0


async def test_a_challenge_in_a_guest_place_notes_it_before_any_table(gbot, standin):  # noqa: F811
    """A player's forget reaches every row of theirs in a guest place, a challenge that never
    became a table included: the place is noted as the challenge opens."""
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    group = standin.create_group_dm("friends", alice, bob)
    await alice.slash(group, "koikoi", opponent=bob, rounds=1)
    kinds = await gbot.store._db.fetchall("SELECT scope_id, kind FROM guest_scopes")
    assert [tuple(row) for row in kinds] == [(group.id, "group_dm")]
    assert not gbot.tables.tables  # no table: only the challenge is stored

