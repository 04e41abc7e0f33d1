"""Playing a game through the stand-in as its users would: look at what they see, press, repeat.

Every step waits on an event of the stand-in (a hand offering a move newer than the last one
pressed, a Slap! message, the table closing), never on time: the bot shows "the latest state",
so a hand may skip intermediate moves, and the helpers only ask for something newer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.discord_standin import Channel, InteractionRecord, Message, SimUser, StandIn

ACT = re.compile(r"hf:act:(?P<gid>\d+):(?P<seq>\d+):")
MAX_MOVES = 5000  # no game of the suite comes near it: reaching it means the game never ends


def table_messages(standin: StandIn, channel: Any) -> list[Message]:
    return [m for m in standin.channel_messages(channel) if "table.png" in m.files]


def controls(message: Message) -> list[str]:
    """The move buttons (hf:act:<gid>:<seq>:<action>) of a hand message."""
    return [c for c in message.custom_ids() if c.startswith("hf:act:")]


def move_of(message: Message) -> int | None:
    """The move number the controls of a hand message were offered for."""
    seqs = [int(m["seq"]) for c in controls(message) if (m := ACT.match(c))]
    return max(seqs) if seqs else None


def hands(standin: StandIn, user: Any) -> list[Message]:
    """The user's private messages (DMs and ephemerals), oldest first."""
    return sorted(standin.dms(user) + standin.ephemerals(user), key=lambda m: m.id)


def hand_message(standin: StandIn, user: Any) -> Message | None:
    """The newest private message of ``user`` that offers moves."""
    return next((m for m in reversed(hands(standin, user)) if controls(m)), None)


def answer_fault(fault: str) -> dict[str, Any]:
    """How the stand-in fails an interaction's answer (``fail_next``'s arguments): "token gone"
    (404), "refused" (400), "cut before twice" (the connection cut before Discord took it, and
    again when the bot sends it once more, so that it never lands), "cut after" (Discord took
    it; its reply is lost)."""
    return {"token gone": {"status": 404}, "refused": {"status": 400},
            "cut before twice": {"drop": "before", "times": 2}, "cut after": {"drop": "after"}}[fault]


def reply_text(record: InteractionRecord) -> str:
    """Everything the bot answered to one interaction, as text."""
    return " ".join(m.content for m in record.messages)


def said(record: InteractionRecord) -> str:
    """Every word the bot answered to one interaction: contents, embeds and laid-out texts."""
    return "\n".join(m.text() for m in record.messages)


def table_move(message: Message) -> int | None:
    """The move number in a table message's small print ("alice to play · move 7")."""
    footer = [line for line in message.text().splitlines() if line.startswith("-# ")]
    found = re.search(r"move (\d+)", footer[-1]) if footer else None
    return int(found[1]) if found else None


def heading(message: Message) -> str:
    """A laid-out message's heading (its first "## " line)."""
    return next((line[3:] for line in message.text().splitlines() if line.startswith("## ")), "")


def small_print(message: Message) -> str:
    """A laid-out message's small print (its "-# " lines)."""
    return "\n".join(line[3:] for line in message.text().splitlines() if line.startswith("-# "))


def section(message: Message, name: str) -> str | None:
    """The text under a laid-out message's section ``name`` (a "### name" line), up to the next
    section or the small print; None when it has no such section."""
    lines = message.text().splitlines()
    if f"### {name}" not in lines:
        return None
    out = []
    for line in lines[lines.index(f"### {name}") + 1:]:
        if line.startswith(("-# ", "### ")):
            break
        out.append(line)
    return "\n".join(out)


def is_closed(message: Message | None) -> bool:
    """A table message whose game ended: its controls are gone."""
    return message is not None and not any(c.startswith("hf:hand:") for c in message.custom_ids())


async def press_first(standin: StandIn, user: Any) -> Message:
    """``user`` presses the first move offered on their hand; returns their next hand once it
    offers a later move (after the press and whatever answer it had, the AI's)."""
    hand = await standin.wait_for(lambda: hand_message(standin, user), f"{user.name}'s moves")
    seq = move_of(hand) or 0
    await user.click(hand, controls(hand)[0])
    return await standin.wait_for(
        lambda: (m := hand_message(standin, user)) is not None and (move_of(m) or 0) > seq and m,
        f"{user.name}'s next move, after the press and its answer")


async def table_posted(standin: StandIn, channel: Channel, count: int = 1) -> list[Message]:
    """Wait until ``count`` table messages are in the channel."""
    return await standin.wait_for(
        lambda: (found := table_messages(standin, channel)) and len(found) >= count and found,
        f"{count} table message(s) in #{channel.name}",
        channels=[channel],
    )


async def game_over(standin: StandIn, channel: Channel) -> Message:
    """Wait until the newest table message of the channel shows the game closed."""
    return await standin.wait_for(
        lambda: (found := table_messages(standin, channel)) and is_closed(found[-1]) and found[-1],
        f"the end of the game in #{channel.name}",
        channels=[channel],
    )


Slappers = Callable[[Message], Awaitable[Sequence[SimUser]]]


@dataclass
class Player:
    """Drives ``users`` through a game in ``channel``: each user offered a move presses its first
    button; a user whose DMs are closed presses My hand when the bot asks them to.

    ``on_race(race_message)`` decides who presses Slap! in a First Bloom race (default: every
    user the race message calls), pressed in that order without waiting in between.
    """

    standin: StandIn
    channel: Channel
    users: Sequence[SimUser]
    on_race: Slappers | None = None
    pressed: int = -1  # the newest move number a user pressed a control of
    moves: int = 0
    races: list[list[InteractionRecord]] = field(default_factory=list)
    _seen: set[int] = field(default_factory=set)  # race and "press My hand" messages handled

    def next_step(self) -> tuple[str, Any] | None:
        tables = table_messages(self.standin, self.channel)
        if tables and is_closed(tables[-1]):
            return ("over", tables[-1])
        offers = [
            (seq, user, msg)
            for user in self.users
            if (msg := hand_message(self.standin, user)) is not None
            and (seq := move_of(msg)) is not None
            and seq > self.pressed
        ]
        if offers:
            seq, user, msg = max(offers, key=lambda o: o[0])
            return ("move", (seq, user, msg))
        for msg in reversed(self.standin.channel_messages(self.channel)):
            if msg.id in self._seen:
                continue
            if any(c.startswith("hf:slap:") for c in msg.custom_ids()):
                return ("race", msg)
            if "My hand" in msg.content:
                asked = [u for u in self.users if f"<@{u.id}>" in msg.content]
                if asked and tables:
                    return ("ask", (asked[0], msg, tables[-1]))
        return None

    async def step(self) -> bool:
        """Make the next move of the game; False once the game is over."""
        kind, what = await self.standin.wait_for(
            self.next_step,
            f"a hand with a move newer than move {self.pressed}, a race or the end of the game",
            channels=[self.channel],
        )
        if kind == "over":
            return False
        if kind == "move":
            seq, user, msg = what
            self.pressed = seq
            self.moves += 1
            assert self.moves < MAX_MOVES, "the game does not end"
            await user.click(msg, controls(msg)[0])
        elif kind == "ask":
            user, msg, table = what
            self._seen.add(msg.id)
            gid = next(c for c in table.custom_ids() if c.startswith("hf:hand:"))
            record = await user.click(table, gid)
            hand = record.messages[-1]
            if "This game is over" in reply_text(record):
                return True  # it ended before its table showed it: the next step finds the end
            assert hand.ephemeral and "hand.png" in hand.files, reply_text(record)
        else:
            self._seen.add(what.id)
            order = (
                await self.on_race(what)
                if self.on_race
                else [u for u in self.users if f"<@{u.id}>" in what.content]
            )
            slap = next(c for c in what.custom_ids() if c.startswith("hf:slap:"))
            presses = [await user.press(what, slap) for user in order]
            for record in presses:
                await self.standin.finish_interaction(record)
                if not self.on_race:  # answered in the presser's language ("Slap!", "タッチ！", "탁!")
                    assert reply_text(record), record.data
            self.races.append(presses)
        return True

    async def play(self) -> Player:
        """Play until the game is over."""
        while await self.step():
            pass
        return self


async def play_out(
    standin: StandIn,
    channel: Channel,
    users: Sequence[SimUser],
    *,
    on_race: Slappers | None = None,
) -> Player:
    """Every user to act presses their first offered move until the table shows the game over."""
    return await Player(standin, channel, users, on_race).play()
