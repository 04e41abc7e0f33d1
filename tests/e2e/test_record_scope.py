"""Every persistent control, pressed from where its record may not be read.

The walk takes the routes from the bot itself (every ``discord.ui.DynamicItem`` the cogs
register), writes custom ids for each from its template, naming the records of two servers
(games finished and running, tournaments, lobbies and a challenge), and presses each one on a
message holding it: from a DM, from another server, from another channel, and in the records'
own channel by a member who is no part of them. Every press is answered, and no answer shows
anything of a server the press may not read: a press from a server reads only that server's
records, one from a DM only what the presser took part in (here: nothing).
"""

from __future__ import annotations

import itertools
import re
import re._constants as sre
import re._parser as sre_parse
import time
import typing
from collections.abc import Mapping
from dataclasses import dataclass

import discord
import pytest

from bot.store import EVERY_SERVER
from tests.discord_standin import Channel, Message, SimUser
from tests.e2e.community_data import play_game, start_hbot
from tests.e2e.playing import table_posted

pytestmark = pytest.mark.asyncio

OPS = ["join", "leave", "start", "cancel", "accept", "decline"]
SELECTED = "1"  # the value a menu press sends


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


# -- custom ids from a route's template --------------------------------------------------------
def custom_ids(template: re.Pattern[str], samples: Mapping[str, list[str | None]]) -> list[str]:
    """Every custom id the template matches with its named groups taken from ``samples`` (None:
    an optional group left out); the rest of the template is written its first way. A group
    without samples fails the walk: a new route names what its values point at."""
    parsed = sre_parse.parse(template.pattern)
    names = {number: name for name, number in parsed.state.groupdict.items()}

    def sequence(items) -> list[str]:
        out = [""]
        for op, av in items:
            out = [head + tail for head in out for tail in one(op, av)]
        return out

    def one(op, av) -> list[str]:
        if op is sre.LITERAL:
            return [chr(av)]
        if op is sre.IN:
            kind, value = av[0]
            return [chr(value[0] if kind is sre.RANGE else value)] if kind in (
                sre.RANGE, sre.LITERAL) else ["0"]
        if op is sre.SUBPATTERN:
            name = names.get(av[0])
            if name is None:
                return sequence(av[3])
            assert name in samples, f"no sample values for {{{name}}} of {template.pattern}"
            return [v for v in samples[name] if v is not None]
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, _, body = av
            written = sequence(body)
            return ["", *written] if low == 0 else [w * low for w in written]
        if op is sre.BRANCH:
            return sequence(av[1][0])
        raise AssertionError(f"the walk cannot write {op} of {template.pattern}")

    found = sorted({c for c in sequence(parsed) if template.fullmatch(c) and len(c) <= 100})
    assert found, f"no custom id written for {template.pattern}"
    return found


def component_type(route: type) -> int:
    """2 for a button route, 3 for a string menu."""
    for base in getattr(route, "__orig_bases__", ()):
        if typing.get_origin(base) is discord.ui.DynamicItem:
            return 3 if issubclass(typing.get_args(base)[0], discord.ui.Select) else 2
    raise AssertionError(f"{route.__name__} is no DynamicItem")


def holding(standin, channel: Channel, custom_id: str, kind: int) -> Message:
    """A message of the bot in ``channel`` holding the control (as a forged or stale one would)."""
    control = ({"type": 2, "style": 2, "label": "Press", "custom_id": custom_id} if kind == 2 else
               {"type": 3, "custom_id": custom_id,
                "options": [{"label": SELECTED, "value": SELECTED}]})
    return standin.bot_message(channel, [{"type": 1, "components": [control]}])


def texts(messages: list[Message]) -> str:
    """Everything a member reads in these messages: content, embeds, controls, text files."""
    parts = []
    for m in messages:
        parts.append(m.text())
        parts += [(e.get("author") or {}).get("name", "") for e in m.embeds]
        parts += [str(c.get("label", "")) + " " + str(c.get("placeholder", "")) + " "
                  + " ".join(o.get("label", "") for o in c.get("options", []))
                  for c in walk(m.components)]
        parts += [data.decode("utf-8", "ignore") for name, data in m.files.items()
                  if not name.endswith(".png")]
    return "\n".join(parts).lower()


def walk(components):
    for c in components:
        yield c
        yield from walk(c.get("components") or [])


@dataclass
class Place:
    """Where a press comes from, and the texts of the records it may not read."""

    name: str
    user: SimUser
    channel: Channel
    forbidden: tuple[str, ...]


def markers(guild, *people: SimUser) -> tuple[str, ...]:
    """What would show a server's records: its name, its members' names and mentions."""
    return (guild.name.lower(), *(p.name for p in people), *(f"<@{p.id}>" for p in people))


async def test_every_persistent_control_reveals_nothing_of_another_server(hbot, standin, world):
    store = hbot.store
    a, a_channel = world.guild, world.channel  # server A: the records' own channel
    quillon, zinnia = standin.create_user("quillon"), standin.create_user("zinnia")
    nadia, dorian = standin.create_user("nadia"), standin.create_user("dorian")
    lounge = standin.create_channel(a, "lounge")
    b = standin.create_guild("Brackwater Hall")
    b_channel = standin.create_channel(b, "general")
    bertrand, oswin = standin.create_user("bertrand"), standin.create_user("oswin")
    mallory = standin.create_user("mallory")  # in no server the walk names; presses from her DM
    for guild, people in ((a, (quillon, zinnia, nadia, dorian)), (b, (bertrand, oswin))):
        for person in people:
            standin.add_member(guild, person)

    # server A: a finished game, a live table, a tournament, a lobby and a challenge
    a_done, _ = await play_game(store, a.id, "koikoi", [quillon.id, zinnia.id],
                                ["quillon", "zinnia"], seed=3, channel_id=a_channel.id)
    await quillon.slash(a_channel, "koikoi", ai="easy")
    await table_posted(standin, a_channel)
    [a_live] = [g.game_id for g in await store.list_running_games(a.id)]
    a_cup = await store.create_tournament(a.id, a_channel.id, created_by=zinnia.id, game="koikoi",
                                          format="swiss", rules={"rounds": 1}, fee=10, key="a")
    await store.join_tournament(a_cup.tournament_id, a.id, quillon.id, "quillon")
    lobby_args = dict(game="koikoi", min_seats=2, max_seats=2, expires_at=time.time() + 3600)
    a_lobby = await store.create_lobby("lobby", a.id, a_channel.id, quillon.id, **lobby_args)
    a_challenge = await store.create_lobby("challenge", a.id, a_channel.id, quillon.id,
                                           opponent_id=zinnia.id, **lobby_args)
    # server B: the same of its own, stored
    b_done, _ = await play_game(store, b.id, "koikoi", [bertrand.id, "ai:easy"],
                                ["bertrand", "AI"], seed=4, channel_id=b_channel.id)
    b_live, _ = await play_game(store, b.id, "koikoi", [bertrand.id, "ai:easy"],
                                ["bertrand", "AI"], seed=5, channel_id=b_channel.id, finish=False)
    b_cup = await store.create_tournament(b.id, b_channel.id, created_by=bertrand.id,
                                          game="koikoi", format="swiss", rules={"rounds": 1},
                                          fee=0, key="b")
    await store.join_tournament(b_cup.tournament_id, b.id, bertrand.id, "bertrand")
    b_lobby = await store.create_lobby("lobby", b.id, b_channel.id, bertrand.id, **lobby_args)
    reminders = [await store.set_daily_reminder(a.id, quillon.id, True),
                 await store.set_daily_reminder(b.id, bertrand.id, True)]

    of_a, of_b = markers(a, quillon, zinnia), markers(b, bertrand)
    places = [Place("a DM", mallory, mallory.dm_channel, of_a + of_b),
              Place("another server", oswin, b_channel, of_a),
              Place("another channel", dorian, lounge, of_b),
              Place("a non-member in the records' channel", nadia, a_channel, of_b)]
    routes = list(hbot.dynamic_items)
    assert len(routes) >= 20, [r.__name__ for r in routes]

    for place in places:
        samples: dict[str, list[str | None]] = {
            "gid": [str(g) for g in (a_done, a_live, b_done, b_live)],
            "tid": [str(a_cup.tournament_id), str(b_cup.tournament_id)],
            "lobby": [a_lobby.lobby_id, a_challenge.lobby_id, b_lobby.lobby_id],
            "op": OPS, "asker": [str(place.user.id)], "user": [str(place.user.id)],
            "member": [str(place.user.id), str(quillon.id)],
            "seq": ["0"], "part": ["0"], "action": ["#0"], "step": ["0"], "page": ["0"],
            "game": ["koikoi"], "order": ["rating"], "period": ["all"], "dir": ["next"],
            "season": [None], "tag": [None], "sure": [None, ":sure"],
            "expires": [str(int(time.time()) + 3600)], "nonce": ["0123456789ab"],
            "key": [r.key for r in reminders],
        }
        start = standin.ids.next()
        pressed = 0
        for route in routes:
            kind = component_type(route)
            template = route.__discord_ui_compiled_template__
            for custom_id in custom_ids(template, samples):
                message = holding(standin, place.channel, custom_id, kind)
                record = await (place.user.click(message, custom_id) if kind == 2 else
                                place.user.select(message, custom_id, [SELECTED]))
                assert record.initial is not None, f"{custom_id} from {place.name}: no answer"
                shown = texts([*record.messages, standin.message(message)])
                leaked = [m for m in place.forbidden if m.lower() in shown]
                assert not leaked, f"{custom_id} from {place.name} shows {leaked}:\n{shown}"
                pressed += 1
        assert pressed >= len(routes)
        # what answers after the acknowledgement (a deferred edit, a DM) must not show it either
        await standin.settle()
        later = [m for m in itertools.chain(standin.channel_messages(place.channel,
                                                                     include_ephemeral=True),
                                            standin.channel_messages(place.user.dm_channel))
                 if m.id > start and m.is_visible_to(place.user)]
        shown = texts(later)
        assert not [m for m in place.forbidden if m.lower() in shown], (place.name, shown)

    # from a DM, a player reads the game he sat at
    replay = holding(standin, quillon.dm_channel, f"hf:rp:{a_done}:0", 2)
    await quillon.click(replay, f"hf:rp:{a_done}:0")
    shown = await standin.wait_for(lambda: "replay.png" in standin.message(replay).files
                                   and standin.message(replay), "the replay in his DM")
    assert "zinnia" in texts([shown])

    # nothing of either server changed hands through the walk
    assert (await store.load_game(a_done, scope=EVERY_SERVER)).status == "finished"
    assert await store.daily_reminder(a.id, quillon.id) == reminders[0]  # no one else's Stop took it
    assert (await store.audit()).ok
