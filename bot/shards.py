"""Which guilds this process serves: its shards, out of the bot's shard count.

Discord gives a guild to shard ``(guild_id >> 22) % shard_count``; a process running shards
``0-3`` of 8 receives the events of exactly those guilds, so it alone drives their games, resumes
them after a restart and settles their half-started lobbies. Direct messages (the hands' controls
among them) reach shard 0 only, whichever guild their game is in: see :mod:`bot.relay`.

    python -m bot --shards 0-3 --shard-count 8     # this process: shards 0, 1, 2 and 3 of 8
    SHARDS=4-7 SHARD_COUNT=8 python -m bot         # the same through the settings
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ShardPlan", "parse_shards", "shard_of"]

MAX_SHARDS = 4096
_RANGE = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


def parse_shards(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0-1,4,6-7"`` as sorted shard ids; ValueError with the reason."""
    ids: set[int] = set()
    for part in text.split(","):
        found = _RANGE.match(part)
        if found is None:
            raise ValueError(f"{part.strip()!r} is not a shard number or a range such as 0-3")
        low = int(found[1])
        high = int(found[2]) if found[2] is not None else low
        if high < low:
            raise ValueError(f"the range {low}-{high} runs backwards")
        if high >= MAX_SHARDS:
            raise ValueError(f"shard {high} is beyond {MAX_SHARDS - 1}")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards this process runs: ``ids`` of ``count``; both None for every shard of the bot
    in this one process (discord.py then asks Discord how many to run)."""

    ids: tuple[int, ...] | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if self.ids is not None and self.count is None:
            raise ValueError("a range of shards needs the shard count of the whole bot")
        if self.count is not None and not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"the shard count must be from 1 to {MAX_SHARDS}")
        if self.ids is not None:
            if not self.ids:
                raise ValueError("the range of shards is empty")
            beyond = [i for i in self.ids if i >= self.count]  # type: ignore[operator]
            if beyond:
                raise ValueError(f"shard {beyond[0]} does not exist: shards are numbered 0 to "
                                 f"{self.count - 1} with a shard count of {self.count}")  # type: ignore[operator]

    @property
    def whole(self) -> bool:
        """Whether this process runs every shard (no other process shares the bot)."""
        return self.ids is None or len(self.ids) == self.count

    @property
    def share(self) -> float:
        """This process's part of the bot: Discord's global REST limit is the bot's, whatever
        the number of processes, so each takes its shards' share of it."""
        return 1.0 if self.whole else len(self.ids) / self.count  # type: ignore[arg-type,operator]

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process receives and drives the guild's events (a DM: shard 0's)."""
        if self.whole:
            return True
        return self.shard_of(guild_id) in self.ids  # type: ignore[operator]

    def shard_of(self, guild_id: int | None) -> int:
        """The guild's shard (0 without a shard count, and for direct messages)."""
        if guild_id is None or not self.count:
            return 0
        return shard_of(guild_id, self.count)

    def describe(self) -> str:
        if self.ids is None:
            return f"all {self.count} shards" if self.count else "every shard Discord recommends"
        return f"shards {_ranges(self.ids)} of {self.count}"


def _ranges(ids: tuple[int, ...]) -> str:
    """(0, 1, 2, 3, 6) as "0-3,6"."""
    runs: list[list[int]] = []
    for shard in ids:
        if runs and shard == runs[-1][1] + 1:
            runs[-1][1] = shard
        else:
            runs.append([shard, shard])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
