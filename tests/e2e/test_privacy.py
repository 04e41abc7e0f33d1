"""/privacy and /privacy-admin end to end through the Discord stand-in: what a member sees, the
export file, forgetting with its confirmation (a double press forgets once), a running game that
refuses, staff acting for a member, and the ledger balanced afterwards; another server's data of
the same member stays as it was."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime

import pytest

from bot.store import LedgerLine, StoreUnavailable
from cogs.community import ledger_line
from cogs.privacy import UPLOAD_LIMIT, _encoded
from tests.discord_standin import CommandHidden
from tests.e2e.community_data import (
    assert_anywhere,
    assert_guild_only,
    embed,
    field,
    only_private,
    play_game,
    start_hbot,
)

pytestmark = pytest.mark.asyncio

ELSEWHERE = 424242  # another server of the same bot (its rows only in the store)


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def button(message, prefix: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix))


async def edited(standin, message, starts: str | tuple[str, ...]):
    """The message once the bot edited it to start with ``starts``."""
    return await standin.wait_for(
        lambda: (m := standin.message(message)).content.startswith(starts) and m,
        f"the message edited to {starts!r}", channels=[message.channel])


async def test_a_member_sees_exports_and_forgets_their_data(hbot, standin, world):
    store, guild, bob, alice = hbot.store, world.guild.id, world.player, world.admin
    for user in (bob.id, alice.id):
        await store.open_account(guild, user)
    await store.open_account(ELSEWHERE, bob.id)
    gid, _ = await play_game(store, guild, "koikoi", [bob.id, alice.id], ["bob", "alice"],
                             seed=3, stake=20)
    other, _ = await play_game(store, ELSEWHERE, "koikoi", [bob.id, "ai:normal"], ["bob", "AI"])
    running, _ = await play_game(store, guild, "koikoi", [bob.id, "ai:normal"], ["bob", "AI"],
                                 finish=False)
    elsewhere_before = await store.member_data(ELSEWHERE, bob.id)

    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    assert_anywhere(commands["privacy"])  # where the app is a guest, about every guest place
    assert_guild_only(commands["privacy-admin"])
    assert commands["privacy-admin"]["default_member_permissions"] == str(1 << 5)

    shown = await bob.slash(world.channel, "privacy show")
    assert only_private(shown)
    card = shown.messages[0]
    assert "2 games" in field(card, "Games") and "#" + str(running) in field(card, "Games")
    assert "1 result" in field(card, "Results")

    # the export: a private file of his rows on this server
    await bob.click(card, button(card, "hf:pvx:"))
    name = f"hanafuda-member-{guild}-{bob.id}.json"
    sent = await standin.wait_for(
        lambda: next((m for m in standin.ephemerals(bob) if name in m.files), None),
        "the export file", channels=[world.channel])
    doc = json.loads(sent.files[name])
    assert doc["server_id"] == str(guild) and doc["user_id"] == str(bob.id)
    assert [g["game_id"] for g in doc["games"]] == [gid, running]
    assert other not in {g["game_id"] for g in doc["games"]}
    assert doc["account"]["balance"] == await store.balance(guild, bob.id)

    # a running game refuses, and nothing changes
    refused = await bob.slash(world.channel, "privacy forget")
    assert f"#{running}" in refused.messages[0].content and not refused.messages[0].custom_ids()
    await store.cancel_game(running)

    asked = await bob.slash(world.channel, "privacy forget")
    assert only_private(asked)
    confirm = asked.messages[0]
    assert "stays with that anonymous account" in confirm.content
    forget = button(confirm, "hf:pvf:")
    first = await bob.press(confirm, forget)
    second = await bob.press(confirm, forget)  # a double click: one forget
    await standin.finish_interaction(first)
    await standin.finish_interaction(second)
    await edited(standin, confirm, ("✅", "Nothing on this server identifies you"))

    assert not (await store.member_data(guild, bob.id)).stored_here
    pseudonyms = await store._db.fetchall(
        "SELECT user_id, balance FROM accounts WHERE guild_id = ? AND user_id < 0", (guild,))
    assert len(pseudonyms) == 1
    audit = await store.audit()
    assert audit.ok, audit.problems
    assert await store.member_data(ELSEWHERE, bob.id) == elsewhere_before

    # the finished game still replays, his seat named as a former member
    replayed = await bob.slash(world.channel, "replay", game_id=gid)
    frame = await standin.wait_for(
        lambda: next((m for m in replayed.messages if "replay.png" in m.files), None),
        "the replay", channels=[world.channel])
    assert [f["name"] for f in embed(frame)["fields"]][:2] == ["a former member", "alice"]


@pytest.mark.parametrize("fault", ["none", "answer-failed", "database-away"])
async def test_staff_forget_a_member_who_asked_them(hbot, standin, world, monkeypatch, fault):
    """``answer-failed``: Discord fails the confirmation's final answer (its token gone), after
    the forgetting is stored; ``database-away``: the database fails the look for the messages
    that show her, just after. Her name goes from the tournament's message all the same."""
    store, guild, alice, bob, shy = hbot.store, world.guild.id, world.admin, world.player, world.shy
    for user in (alice.id, shy.id):
        await store.open_account(guild, user)
    gid, _ = await play_game(store, guild, "koikoi", [shy.id, alice.id], ["shy", "alice"],
                             seed=5, stake=10)

    with pytest.raises(CommandHidden):
        await bob.slash(world.channel, "privacy-admin show", user=shy)
    standin.permit_command(world.guild, "privacy-admin", bob)  # opened to him: still refused
    for command, options in (("privacy-admin show", {}), ("privacy-admin forget", {"reason": "x"})):
        denied = await bob.slash(world.channel, command, user=shy, **options)
        assert "Manage Server" in denied.messages[0].content

    # a tournament she played in, called off once running: its message names its entrants (with
    # no dealt-hand yaku, whose deal would end the one-round match before the call-off)
    await store.set_house_rules(guild, "koikoi", {"teyaku": "off"})
    created = await alice.slash(world.channel, "tournament create", game="koikoi", format="swiss",
                                rounds=1)
    tour = created.original
    for user in (shy, alice):
        await user.click(tour, button(tour, "hf:tn:join:"))
    await alice.click(tour, button(tour, "hf:tn:start:"))
    await alice.click(standin.message(tour), button(standin.message(tour), "hf:tn:cancel:"))
    await standin.wait_for(lambda: "Cancelled" in embed(standin.message(tour))["description"],
                           "the tournament called off")
    assert "carol" in embed(standin.message(tour))["fields"][-1]["value"]

    shown = await alice.slash(world.channel, "privacy-admin show", user=shy)
    assert only_private(shown) and f"<@{shy.id}>" in embed(shown.messages[0])["description"]
    asked = await alice.slash(world.channel, "privacy-admin forget", user=shy,
                              reason="asked by direct message")
    confirm = asked.messages[0]
    assert "asked by direct message" in confirm.content
    answer = None if fault != "answer-failed" else standin.fail_next(
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", status=404)
    if fault == "database-away":
        look, failed = store.unshown_tournaments, []

        async def away_once(*args, **kwargs):
            if not failed:
                failed.append(1)
                raise StoreUnavailable("locked")
            return await look(*args, **kwargs)

        monkeypatch.setattr(store, "unshown_tournaments", away_once)
    await alice.click(confirm, button(confirm, "hf:pvf:"))
    if answer is None:
        await edited(standin, confirm, "✅")
    else:  # its last step, after the forgetting is stored
        await standin.wait_for(lambda: answer.remaining == 0, "the final answer, failed",
                               channels=[world.channel])

    assert not (await store.member_data(guild, shy.id)).stored_here
    assert (await store.member_data(guild, alice.id)).results == 1  # the other player keeps hers
    record = await store.load_game(gid, scope=guild)
    assert record.players[0] < 0 and shy.id not in record.players
    await standin.wait_for(lambda: "a former member" in embed(standin.message(tour))["fields"][-1]["value"],
                           "the tournament's message without her name")
    assert "carol" not in embed(standin.message(tour))["fields"][-1]["value"]
    assert (await store.audit()).ok


async def test_an_export_too_large_for_an_upload_is_gzipped():
    small = {"games": [1, 2]}
    assert _encoded(small) == (json.dumps(small, indent=1).encode(), ".json")
    big = {"ledger": ["x" * 1000] * (UPLOAD_LIMIT // 1000 + 1)}
    data, suffix = _encoded(big)
    assert suffix == ".json.gz" and len(data) < UPLOAD_LIMIT
    assert json.loads(gzip.decompress(data)) == big


async def test_a_gift_to_or_from_a_former_member_names_no_one():
    line = LedgerLine(transfer_id=1, created_at=datetime(2026, 1, 1, tzinfo=UTC), kind="transfer",
                      amount=25, balance_after=1025, counterparty=-77, counterparty_kind="user",
                      game_id=None, actor=-77, reason="gift from a former member")
    text = ledger_line(line)
    assert "from a former member" in text and "<@" not in text
