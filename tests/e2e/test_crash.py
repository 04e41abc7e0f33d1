"""The bot killed while staked tables play (eight in the suite), and started again: nothing it
acknowledged is lost, every game replays, no game is stuck, every table shows its stored state,
and every chip is accounted for. On PostgreSQL the database server is also restarted under the
running bot.

The real bot runs in its own process (``tests.e2e.shardbot``) against the stand-in. Members play
Koi-Koi, Go-Stop, Seotda and First Bloom against the AI with stakes, and two of them a staked
Koi-Koi duel they started with a challenge, pressing a random offered move as soon as their hand
offers one, and Slap! as soon as a First Bloom race calls them. The bot is SIGKILLed several times: at a random moment, or right after it
acknowledged a press. After the last kill the tables play on, the bot is stopped with SIGTERM (a
clean stop, which must exit 0) and started once more, and everything is checked against the
store. All along, Discord itself fails now and then: a few of the bot's messages, edits, DM
channels and answers through a press's token are refused for a passing reason (a server error, a
rate limit past its bucket) or have their connection cut, before Discord took them or after.
``HANAFUDA_CRASH_RUNS`` repeats the whole run (default 1), ``HANAFUDA_CRASH_KILLS`` and
``HANAFUDA_CRASH_TABLES`` set its kills and tables, ``HANAFUDA_CRASH_FAULTS`` the share of those
requests that fail (default 0.1), and ``HANAFUDA_CRASH_REPORT`` names a file
that receives one JSON line of figures per run. ``HANAFUDA_CRASH_STALLS`` names a file that
receives every stall of the test process's own loop over a second (the stand-in and the players
run there: a stall of theirs looks like a bot that does not answer).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.checkup import check_store
from bot.stallwatch import StallRecorder
from bot.store import EVERY_SERVER, Store
from bot.tables import Table
from tests import pgserver
from tests.discord_standin import InteractionRecord, Message, SimUser, StandIn, WaitTimeout
from tests.e2e.playing import hands, is_closed, reply_text, table_messages, table_move

ROOT = Path(__file__).resolve().parents[2]
RUNS = int(os.environ.get("HANAFUDA_CRASH_RUNS", "1"))
# The suite runs a lighter round (3 kills, 8 tables); the figures in docs/reliability.md come
# from HANAFUDA_CRASH_RUNS=10 HANAFUDA_CRASH_KILLS=4 HANAFUDA_CRASH_TABLES=12.
KILLS = int(os.environ.get("HANAFUDA_CRASH_KILLS", "3"))
TABLES = int(os.environ.get("HANAFUDA_CRASH_TABLES", "8"))
FAULT_RATE = float(os.environ.get("HANAFUDA_CRASH_FAULTS", "0.1"))
# What the bot sends on its own or through a press's token; the presses' own callbacks are left
# alone, so that an answered press is one the player saw answered.
FAULTED_ROUTES = ("POST /channels/{channel_id}/messages",
                  "PATCH /channels/{channel_id}/messages/{message_id}",
                  "POST /users/@me/channels",
                  "POST /webhooks/{webhook_id}/{webhook_token}",
                  "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                  "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
FAULTS = ({"status": 500}, {"status": 429}, {"drop": "before"}, {"drop": "after"})
# Once every table is seated, the presses' own answers are cut too: a press whose answer Discord
# did not take may be stored all the same, but a press answered with a refusal must not be.
ANSWER = "POST /interactions/{interaction_id}/{interaction_token}/callback"
AFTER_LAST_KILL = 3  # presses per table after the last restart before the clean stop
GAMES = (("koikoi", {"rounds": 2, "stake": 2}), ("gostop", {"rounds": 2, "stake": 1}),
         ("seotda", {"rounds": 3, "stake": 60}), ("firstbloom", {"players": 5, "rounds": 2, "stake": 1}))
DUEL = ("koikoi", {"rounds": 2, "stake": 2})  # two members, one challenging the other
RACE_SECONDS = "2"  # First Bloom's slap race, short so that a round's end does not hold the run
MOVE = re.compile(r"hf:(?:act|mv):(?P<gid>\d+):(?P<seq>\d+):")
SLAP = re.compile(r"hf:slap:(?P<gid>\d+)$")
DEFERRED_UPDATE = 6  # the callback that says "taken" without a message of its own
CUT = 499  # the status the stand-in logs for a request whose connection it cut


@dataclass
class Press:
    user: SimUser
    gid: int
    seq: int
    record: InteractionRecord
    epoch: int  # how many times the bot had been started when it was pressed
    slap: bool = False  # Slap! in a race, not a move

    @property
    def taken(self) -> bool:
        initial = self.record.initial
        return initial is not None and not self.slap and initial.type == DEFERRED_UPDATE

    @property
    def slapped(self) -> bool:
        """A slap answered as counted (its place in the race)."""
        initial = self.record.initial
        return self.slap and initial is not None and str(
            (initial.body.get("data") or {}).get("content", "")).startswith("Slap!")

    @property
    def refused(self) -> bool:
        """Answered with a sentence that it was not played (not one that it waits for the
        database, after which it may well be)."""
        initial = self.record.initial
        return not self.slap and initial is not None and initial.type != DEFERRED_UPDATE and \
            "not saved yet" not in str((initial.body.get("data") or {}).get("content", ""))


@dataclass
class Seat:
    user: SimUser
    channel: Any
    game: str
    options: dict[str, Any]
    gid: int | None = None
    pressed: int = -1
    over: bool = False
    presses: int = 0
    host: Seat | None = None  # the challenger, for the member who accepts a duel
    raced: set[int] = field(default_factory=set)  # race messages the seat pressed Slap! on

    @property
    def tables(self) -> bool:
        """Whether the seat stands for its table (a duel's guest is the host's table)."""
        return self.host is None


@dataclass
class Bot:
    proc: asyncio.subprocess.Process
    log: Path
    epoch: int
    events: list[dict[str, Any]] = field(default_factory=list)

    async def next_event(self, standin: StandIn) -> dict[str, Any]:
        assert self.proc.stdout is not None
        # A start spawns worker processes and publishes commands: on a busy machine, more than a
        # wait for one message.
        line = await asyncio.wait_for(self.proc.stdout.readline(), 3 * standin.wait_timeout)
        if not line:
            raise AssertionError(f"the bot ended:\n{self.log.read_text()[-3000:]}")
        event = json.loads(line)
        self.events.append(event)
        return event


class Run:
    """One run: the stand-in's world, the bot process, the players and what they saw."""

    def __init__(self, standin: StandIn, tmp_path: Path, database: str, *, seed: int,
                 postgres: pgserver.Server | None) -> None:
        self.standin = standin
        self.tmp = tmp_path
        self.database = database
        self.postgres = postgres
        self.rng = random.Random(seed)
        self.bot: Bot | None = None
        self.epoch = 0
        self.up = asyncio.Event()
        self.db_back = asyncio.Event()  # clear while the database server restarts
        self.db_back.set()
        self.presses: list[Press] = []
        self.kills = 0
        self.db_restarts = 0
        self.stuck_games: list[dict[str, Any]] = []  # what each stuck game was waiting for
        self.ended_by_ai = 0  # games the AI's moves finished after the last start
        self.chance = random.Random(seed + 1)  # the faults' own draws: the players' stay as they were
        self.faults = [standin.fail_next(route, times=10**9, where=self._unlucky, **fault)
                       for route in FAULTED_ROUTES for fault in FAULTS]
        guild = standin.create_guild("Crash Club")
        users = [standin.create_user(f"player{i}") for i in range(TABLES // 2)]
        for user in users:
            standin.add_member(guild, user)
        self.seats = [Seat(users[i % len(users)], standin.create_channel(guild, f"table-{i}"),
                           *GAMES[i % len(GAMES)]) for i in range(TABLES)]
        duelists = [standin.create_user(f"duelist{i}") for i in range(2)]
        for user in duelists:
            standin.add_member(guild, user)
        host = Seat(duelists[0], standin.create_channel(guild, "duel"), *DUEL)
        self.seats += [host, Seat(duelists[1], host.channel, *DUEL, host=host)]

    def at_table(self, seat: Seat) -> list[Seat]:
        """The seats of the members playing at ``seat``'s table."""
        return [s for s in self.seats if s.channel is seat.channel]

    def _unlucky(self, call: Any) -> bool:
        return self.chance.random() < FAULT_RATE / len(FAULTS)

    def calm(self) -> int:
        """Discord stops failing (for the checks at the end); how many requests it failed."""
        failed = 0
        for fault in self.faults:
            failed += 10**9 - fault.remaining
            fault.remaining = 0
        return failed

    # -- the bot process ------------------------------------------------------------------------
    async def start_bot(self) -> None:
        env = {**os.environ, "DISCORD_TOKEN": self.standin.token, "RENDER_WORKERS": "1",
               "AI_WORKERS": "1", "HANAFUDA_STANDIN_API": self.standin.api_url,
               "HANAFUDA_STANDIN_GATEWAY": self.standin.gateway_url,
               "HANAFUDA_SYNC": "1" if self.epoch == 0 else "0", "HANAFUDA_AI_DELAY": "0.05",
               "HANAFUDA_RACE_SECONDS": RACE_SECONDS}
        for name in ("SHARDS", "SHARD_COUNT", "DATABASE_URL", "DATABASE_PATH"):
            env.pop(name, None)
        env["DATABASE_URL" if self.postgres else "DATABASE_PATH"] = self.database
        self.epoch += 1
        log = self.tmp / f"bot-{self.epoch}.log"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.shardbot", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=log.open("w"))
        self.bot = Bot(proc, log, self.epoch)
        ready = await self.bot.next_event(self.standin)
        assert ready["event"] == "ready", ready
        self.up.set()
        self.standin.notify_change()  # the players waiting for the bot look again

    async def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed (the workers end with their parent)."""
        assert self.bot is not None
        self.up.clear()
        self.bot.proc.kill()
        await self.bot.proc.wait()
        self.kills += 1
        self.standin.notify_change()
        await self.standin.wait_for(lambda: not self.standin.gateway.connected,
                                    "the killed bot's gateway connection closed")

    async def stop(self) -> int:
        """SIGTERM: the clean stop, which must end the process with exit code 0."""
        assert self.bot is not None
        self.up.clear()
        self.bot.proc.terminate()
        while (await self.bot.next_event(self.standin))["event"] != "exit":
            pass
        return await self.bot.proc.wait()

    # -- players -------------------------------------------------------------------------------
    def offer(self, seat: Seat) -> tuple[int, Message, str] | None:
        """The newest move the seat's hand offers above the last one pressed: (seq, hand, id)."""
        if seat.gid is None:
            return None
        for message in reversed(hands(self.standin, seat.user)):
            found = [(int(m["seq"]), c) for c in message.custom_ids()
                     if (m := MOVE.match(c)) and int(m["gid"]) == seat.gid]
            if found:
                seq = found[0][0]
                if seq <= seat.pressed:
                    return None
                return seq, message, self.rng.choice([c for s, c in found if s == seq])
        return None

    def race(self, seat: Seat) -> tuple[Message, str] | None:
        """A race message of the seat's game that calls its member and that they have not
        pressed Slap! on yet: (message, its Slap! control)."""
        for message in reversed(self.standin.channel_messages(seat.channel)):
            slap = next((c for c in message.custom_ids()
                         if (m := SLAP.match(c)) and int(m["gid"]) == seat.gid), None)
            if slap is not None and not message.deleted and message.id not in seat.raced \
                    and f"<@{seat.user.id}>" in message.content:
                return message, slap
        return None

    def table_over(self, seat: Seat) -> bool:
        tables = [m for m in table_messages(self.standin, seat.channel)
                  if any(str(seat.gid) in c for c in m.custom_ids()) or is_closed(m)]
        return bool(tables) and is_closed(tables[-1]) and seat.gid is not None

    async def sit_down(self, seat: Seat) -> None:
        """Start the seat's table: against the AI, or a duel its host challenges its guest to."""
        before = len(table_messages(self.standin, seat.channel))
        guests = [s for s in self.at_table(seat) if s is not seat]
        if guests:
            challenge = (await seat.user.slash(seat.channel, seat.game, opponent=guests[0].user,
                                               **seat.options)).original
            assert challenge is not None
            await guests[0].user.click(challenge, next(c for c in challenge.custom_ids()
                                                       if ":accept:" in c))
        else:
            await seat.user.slash(seat.channel, seat.game, ai="normal", **seat.options)
        message = (await self.standin.wait_for(
            lambda: len(found := table_messages(self.standin, seat.channel)) > before and found,
            f"the table of {seat.game} in #{seat.channel.name}", channels=[seat.channel]))[-1]
        seat.gid = next(int(c.split(":")[2]) for c in message.custom_ids() if c.startswith("hf:hand:"))
        for guest in guests:
            guest.gid = seat.gid

    async def press(self, seat: Seat, until: asyncio.Event) -> bool:
        """One move of the seat (none once ``until`` is set: at a duel, the other member may
        have stopped playing), or False once its game is over."""
        await self.up.wait()
        epoch = self.epoch
        try:
            step = await self.standin.wait_for(
                lambda: ("over", None) if self.table_over(seat) else ("stop", None) if until.is_set() else
                (("slap", race) if (race := self.race(seat)) else
                 (("move", found) if (found := self.offer(seat)) else
                  (("down", None) if not self.up.is_set() else None))),
                f"a move of {seat.user.name} in game {seat.gid}")
        except WaitTimeout as exc:  # say what the player saw, and what the bot knew
            shown = {s.user.name: [(m.id, m.deleted, [c for c in m.custom_ids() if f":{s.gid}:" in c][:3])
                                   for m in hands(self.standin, s.user)
                                   if any(f":{s.gid}:" in c for c in m.custom_ids())
                                   or any(a.filename == "hand.png" for a in m.attachments)][-6:]
                     for s in self.at_table(seat)}
            async with await Store.open(self.database) as store:
                record = await store.load_game(seat.gid, scope=EVERY_SERVER, with_events=False)
                noted = await store.surface_notes("discord").read(seat.gid)
            table = Table.from_record(record)
            pressed = [(p.user.name, p.seq, p.epoch, p.record.initial and p.record.initial.type,
                        reply_text(p.record)[:50]) for p in self.presses if p.gid == seat.gid][-4:]
            raise AssertionError(
                f"game {seat.gid} ({record.status}) stored move {record.last_seq}, pressed "
                f"{seat.pressed}, current {table.match.current_player}, where it is shown "
                f"{noted}; its last presses {pressed}; hand messages "
                f"{shown}; bot log: {self.bot.log.read_text()[-2500:] if self.bot else ''}") from exc
        if step[0] == "over":
            seat.over = True
            return False
        if step[0] in ("down", "stop"):
            return True
        if step[0] == "slap":
            return await self.slap(seat, *step[1], epoch)
        seq, message, custom_id = step[1]
        try:
            if custom_id.startswith("hf:mv:"):
                options = message.find_component(custom_id)
                record = await self.standin.dispatch_interaction(
                    seat.user, message.channel, 3, {"custom_id": custom_id, "component_type": 3,
                                                    "values": [options["options"][0]["value"]]},
                    target=message)
            else:
                record = await seat.user.press(message, custom_id)
        except (RuntimeError, ConnectionError):  # the bot went down between the look and the press
            return True
        press = Press(seat.user, seat.gid, seq, record, epoch)
        self.presses.append(press)
        seat.pressed, seat.presses = seq, seat.presses + 1
        await self.standin.wait_for(lambda: record.initial is not None or self.epoch != epoch
                                    or not self.up.is_set() or self.answer_cut(record),
                                    f"the answer to a press in game {seat.gid}")
        if record.initial is None:
            seat.pressed = seq - 1  # never answered (the bot died): the same move may be offered again
        elif record.initial.type != DEFERRED_UPDATE and "database" in str(
                (record.initial.body.get("data") or {}).get("content", "")):
            # not taken because the database was away (the move was refused, or is told later):
            # the player presses the same move again once it is back
            await self.db_back.wait()
            seat.pressed = seq - 1
        return True

    async def slap(self, seat: Seat, message: Message, slap: str, epoch: int) -> bool:
        """Slap! in a race; a slap the bot never answered (it went down) is pressed again."""
        seat.raced.add(message.id)
        try:
            record = await seat.user.press(message, slap)
        except (RuntimeError, ConnectionError):
            seat.raced.discard(message.id)
            return True
        self.presses.append(Press(seat.user, seat.gid, seat.pressed, record, epoch, slap=True))
        await self.standin.wait_for(lambda: record.initial is not None or self.epoch != epoch
                                    or not self.up.is_set() or self.answer_cut(record),
                                    f"the answer to a slap in game {seat.gid}")
        if record.initial is None:
            seat.raced.discard(message.id)
        return True

    def answer_cut(self, record: InteractionRecord) -> bool:
        """Whether the bot's answer to a press was cut off before Discord took it: the player
        sees "This interaction failed" and looks at their hand again."""
        where = f"/interactions/{record.id}/"
        latest = itertools.islice(reversed(self.standin.requests), 300)  # it comes at once
        return any(r.status == CUT and where in r.path for r in latest)

    async def play(self, seat: Seat, until: asyncio.Event) -> None:
        while not until.is_set():
            if not await self.press(seat, until):
                return

    async def play_on(self, seat: Seat, presses: int) -> None:
        """After the last kill, the members at ``seat``'s table play until each made ``presses``
        more, or the game ended (at a duel one plays on while the other still owes presses)."""
        group = self.at_table(seat)
        start = {id(s): s.presses for s in group}
        enough = asyncio.Event()

        async def one(seat: Seat) -> None:
            while not enough.is_set():
                if not await self.press(seat, enough) or all(
                        s.over or s.presses - start[id(s)] >= presses for s in group):
                    enough.set()
                    self.standin.notify_change()  # the others stop waiting for a move
        await asyncio.gather(*map(one, group))

    # -- the run ---------------------------------------------------------------------------------
    async def taken_count(self) -> int:
        return sum(p.taken for p in self.presses)

    async def go(self) -> dict[str, Any]:
        await self.start_bot()
        await self.standin.wait_for(lambda: self.standin.find_command("seotda", None) is not None
                                    or self.standin.find_command("seotda", self.seats[0].channel.guild),
                                    "the commands published")
        for seat in filter(Seat.tables.fget, self.seats):
            await self.sit_down(seat)
        # Cut connections only: after a server error or a 429 discord.py sends the answer again
        # once its pause is over, which may land past Discord's window however quick the bot was.
        self.faults += [self.standin.fail_next(ANSWER, times=10**9, where=self._unlucky, **fault)
                        for fault in FAULTS if "drop" in fault]
        stop_playing = asyncio.Event()
        players = [asyncio.create_task(self.play(seat, stop_playing)) for seat in self.seats]
        try:
            for k in range(KILLS):
                taken = sum(p.taken for p in self.presses)
                await self.standin.wait_for(
                    lambda t=taken: sum(p.taken for p in self.presses) >= t + self.rng.randint(6, 14)
                    or all(s.over for s in self.seats), "presses before the next kill")
                if self.postgres is not None and k == 1:
                    self.db_back.clear()
                    try:
                        await asyncio.to_thread(self.postgres.restart)  # under the running bot
                    finally:
                        self.db_back.set()
                    self.db_restarts += 1
                    continue
                if k % 2 == 0:  # right after an acknowledgement
                    seen = sum(p.record.initial is not None for p in self.presses)
                    await self.standin.wait_for(
                        lambda s=seen: sum(p.record.initial is not None for p in self.presses) > s
                        or all(x.over for x in self.seats), "an acknowledgement to kill after")
                await self.kill()
                await self.start_bot()
            stop_playing.set()
            self.standin.notify_change()
            await asyncio.gather(*players)
            await asyncio.gather(*(self.play_on(seat, AFTER_LAST_KILL)
                                   for seat in filter(Seat.tables.fget, self.seats)))
        finally:
            stop_playing.set()
            for task in players:
                task.cancel()
        faulted = self.calm()
        exit_code = await self.stop()
        assert exit_code == 0, self.bot.log.read_text()[-3000:]
        await self.start_bot()  # a clean start after the clean stop: every table is brought up to date
        stuck = await self.check_tables()
        assert await self.stop() == 0
        refusals: dict[str, int] = {}
        for press in self.presses:
            if press.record.initial is not None and not press.taken and not press.slapped:
                text = str((press.record.initial.body.get("data") or {}).get("content", ""))[:60]
                refusals[text] = refusals.get(text, 0) + 1
        return {"kills": self.kills, "db_restarts": self.db_restarts, "faulted": faulted,
                "presses": len(self.presses), "slaps": sum(p.slap for p in self.presses),
                "slapped": sum(p.slapped for p in self.presses),
                "taken": sum(p.taken for p in self.presses),
                "unanswered": sum(p.record.initial is None for p in self.presses),
                "refused": refusals, "stuck": stuck, "stuck_games": self.stuck_games,
                "ended_by_ai": self.ended_by_ai,
                **(await self.check_store())}

    async def check_tables(self) -> int:
        """Every table and hand shows the stored state: a running game waits for its human with
        that move offered, an ended one has no control left. The stuck games are counted."""
        async with await Store.open(self.database) as store:
            records = {s.gid: await store.load_game(s.gid, scope=EVERY_SERVER, with_events=False) for s in self.seats}
            noted = {s.gid: await store.surface_notes("discord").read(s.gid) for s in self.seats}
        stuck = 0
        for seat in filter(Seat.tables.fget, self.seats):
            record = records[seat.gid]
            # A match over whose settlement the stop (or the database) interrupted is settled
            # by the start: it must end up shown as over, like one that ended before.
            if record.status != "running" or Table.from_record(record).match.is_over:
                try:
                    await self.standin.wait_for(lambda s=seat: self.table_over(s) and not self.offered(s),
                                                f"the end of game {seat.gid} shown")
                except WaitTimeout as exc:  # say which surface is stale
                    live = [(m.id, m.custom_ids()) for m in hands(self.standin, seat.user)
                            if any((c := MOVE.match(i)) and int(c["gid"]) == seat.gid
                                   for i in m.custom_ids())]
                    raise AssertionError(
                        f"game {seat.gid} ({record.status}, {record.end_reason}) at move "
                        f"{record.last_seq}: table shows its end: {self.table_over(seat)}; hands "
                        f"that still offer moves: {live}; where it is shown: "
                        f"{noted[seat.gid]}") from exc
                continue
            table = Table.from_record(record)
            current = table.match.current_player
            if current is None or not isinstance(table.players[current], int) or table.in_race:
                # The AI's turn, or a slap race: the AI must move (the race close) now that the
                # bot is back, until the human is offered a move or the match ends (then the
                # table shows the end).
                try:
                    await self.standin.wait_for(
                        lambda s=seat: self.offered(s) is not None or self.table_over(s),
                        f"the AI's move (or the race's close) in game {seat.gid} after the restart")
                except Exception:
                    async with await Store.open(self.database) as store:
                        now = await store.load_game(seat.gid, scope=EVERY_SERVER, with_events=False)
                    stuck += 1
                    self.stuck_games.append({
                        "game": seat.gid, "kind": seat.game, "status": record.status,
                        "stored_move": record.last_seq, "current": current,
                        "phase": getattr(table.match.round, "phase", None),
                        "stored_after_wait": [now.status, now.last_seq],
                        "log": self.bot.log.read_text()[-1500:]})
                    continue
                if self.table_over(seat) and self.offered(seat) is None:
                    self.ended_by_ai += 1  # the AI's moves after the start ended the match
                    continue
            # the member whose move it is (at a duel, either) is offered it
            mover = next((s for s in self.at_table(seat) if table.players[current] == s.user.id
                          and not table.in_race), seat)
            await self.standin.wait_for(
                lambda s=mover, t=table: (offered := self.offered(s)) is not None and offered >= t.seq
                and (shown := self.shown_move(s)) is not None and shown >= offered,
                f"game {seat.gid}'s table and hand at its stored move")
        for seat in filter(Seat.tables.fget, self.seats):
            # however often its edits and posts failed, a game has one table message (each seat
            # plays in a channel of its own)
            shown = [m.id for m in table_messages(self.standin, seat.channel) if not m.deleted]
            assert len(shown) == 1, f"game {seat.gid} shows {len(shown)} tables: {shown}"
        return stuck

    def offered(self, seat: Seat) -> int | None:
        for message in reversed(hands(self.standin, seat.user)):
            seqs = [int(m["seq"]) for c in message.custom_ids()
                    if (m := MOVE.match(c)) and int(m["gid"]) == seat.gid]
            if seqs:
                return seqs[0]
        return None

    def shown_move(self, seat: Seat) -> int | None:
        tables = [m for m in table_messages(self.standin, seat.channel)
                  if any(f":{seat.gid}" in c for c in m.custom_ids())]
        return table_move(tables[-1]) if tables else None

    async def check_store(self) -> dict[str, Any]:
        async with await Store.open(self.database) as store:
            lost = []
            slapped: dict[tuple[int, int], int] = {}
            for press in self.presses:
                if press.slapped:
                    slapped[press.gid, press.user.id] = slapped.get((press.gid, press.user.id), 0) + 1
                if not press.taken:
                    continue
                record = await store.load_game(press.gid, scope=EVERY_SERVER)
                if not any(e.seq == press.seq + 1 and e.actor == press.user.id for e in record.events):
                    lost.append((press.gid, press.seq, press.user.name))
            for (gid, user), count in slapped.items():
                record = await store.load_game(gid, scope=EVERY_SERVER)
                stored = sum(1 for e in record.events if e.actor == user
                             for x in e.events if x["type"] == "slap")
                if stored < count:
                    lost.append((gid, "slaps", user, count - stored))
            # A move every press of which was refused (its answer a sentence other than "waiting
            # for the database") was not played by that player.
            refused: dict[tuple[int, int, int], bool] = {}
            for press in filter(lambda p: not p.slap, self.presses):
                key = (press.gid, press.seq, press.user.id)
                refused[key] = refused.get(key, True) and press.refused
            played_anyway = []
            for (gid, seq, user), every in refused.items():
                record = await store.load_game(gid, scope=EVERY_SERVER)
                if every and any(e.seq == seq + 1 and e.actor == user for e in record.events):
                    played_anyway.append((gid, seq, user))
            report = await check_store(store)
            audit = await store.audit()
        assert not lost, f"acknowledged presses missing from the store: {lost}"
        assert not played_anyway, f"presses refused and yet played: {played_anyway}"
        assert report.ok, report.summary()
        assert audit.ok and audit.total == 0, audit.problems
        return {"lost": len(lost), "games": sum(s.tables for s in self.seats), "replayed": report.replayed,
                "resumed": report.resumed}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    if request.param == "sqlite":
        yield None, str(tmp_path / "crash.sqlite3")
        return
    server = pgserver.server()
    name = server.new_database()
    yield server, server.url(name)
    server.drop_database(name)


@pytest.mark.slow(seconds=170)
async def test_kills_lose_no_acknowledged_press_and_leave_nothing_stale(standin, tmp_path, database):
    server, url = database
    standin.wait_timeout = max(standin.wait_timeout, 90.0)
    figures = []
    stalls = os.environ.get("HANAFUDA_CRASH_STALLS")
    recorder = None
    if stalls:
        def note(stall) -> None:
            with open(stalls, "a") as out:
                out.write(json.dumps({"run": len(figures), **stall.describe(stacks=2, depth=20)}) + "\n")
        recorder = StallRecorder(1.0, on_stall=note)
        recorder.start()
    for run in range(RUNS):
        if run:
            url = _fresh(server, tmp_path, run)
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        playing = Run(standin, folder, url, seed=run, postgres=server)
        try:
            figures.append(await playing.go())
        finally:  # a failed run leaves no bot behind
            if playing.bot is not None and playing.bot.proc.returncode is None:
                playing.bot.proc.kill()
                await playing.bot.proc.wait()
        # presses the killed bot never answered are the point of the test, not a fault
        standin.violations[:] = [v for v in standin.violations if v.kind != "no-ack"]
    if recorder is not None:
        recorder.stop()
    report = os.environ.get("HANAFUDA_CRASH_REPORT")
    if report:
        with open(report, "a") as out:
            for line in figures:
                out.write(json.dumps({"database": "postgresql" if server else "sqlite", **line}) + "\n")
    assert all(f["lost"] == 0 and f["stuck"] == 0 for f in figures), figures
    assert all(f["taken"] > 0 and f["kills"] >= 2 for f in figures), figures
    assert all(f["faulted"] > 0 for f in figures) or FAULT_RATE == 0, figures


def _fresh(server: pgserver.Server | None, tmp_path: Path, run: int) -> str:
    if server is None:
        return str(tmp_path / f"crash-{run}.sqlite3")
    return server.url(server.new_database())

