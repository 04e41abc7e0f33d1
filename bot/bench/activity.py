"""Activity benchmark: many tables played from Activity pages over WebSockets, the bot in its own
process with its Activity server on.

    python -m bot.bench activity --tables 200 [--seconds 30] [--moves N] [--ai-delay S]
                                 [--think-ms 0] [--runs 1] [--seed 1] [--json]

Each run starts the local Discord stand-in of the test suite in this process (127.0.0.1 only) and
the real bot in a subprocess aimed at it, with a temporary SQLite database and ACTIVITY_PORT set.
N players, each in a channel of their own (25 to a server) with an Activity instance there, sign
in as a page does (the OAuth2 code to the bot's ``/api/token``), open the page's socket and start
a one-round Koi-Koi match against the AI from the lobby. Once every table runs, each player
presses a random move the state offers as soon as it is offered (or after --think-ms) and starts
a new match from the lobby when one ends, for --seconds. Figures (medians over --runs):

  shown_ms            press -> the first state on the presser's socket that shows the move
                      (p50/p95/p99): the one player of each table is all of its players
  moves_per_s         moves stored per second, the AI's included (each step of a table's move
                      number seen on its page)
  cpu_ms_per_move     the bot's CPU (its process and its worker processes) per move
  kib_per_table       the bot process's memory grown from before the pages opened to when every
                      table ran, per table
  rest_calls_per_move every request the bot sent Discord (the stand-in) during the window, per
                      move (a game started from the lobby lives in the Activity: none)

With --json the last line is one object with the keys ``tables``, ``shown_ms`` {``p50``, ``p95``,
``p99``}, ``moves_per_s``, ``cpu_ms_per_move``, ``kib_per_table``, ``rest_calls_per_move`` (and a
few more, among them the bot's worst loop lag, its stalls with what held the loop, and its
collections in the window: ``loop_lag_ms_max``, ``stalls``, ``loop_thread_ms``). Needs the test extras (``pip install -e '.[test]'``) and Discord's OpenAPI spec (see
docs/development.md). The bot process and the temporary files are removed however the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.bench._loadproc import BotProcess, GroupMonitor, kill_all_started, sample_group
from bot.bench._loadstandin import LoadStandIn
from bot.bench.load import VALIDATE_EVERY, percentile, stall_summary
from bot.cliargs import not_negative
from tests.discord_standin import SpecIndex, SpecMissing, load_spec

PLAYERS_PER_GUILD = 25
SIGN_INS_AT_ONCE = 10
READY_TIMEOUT = 120.0
OPEN_TIMEOUT = 300.0  # every page signed in and its first match dealt
KEYS = ("tables", "shown_ms", "moves_per_s", "cpu_ms_per_move", "kib_per_table", "rest_calls_per_move")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PagePlayer:
    """One table's player: a page's socket, pressing what each state offers."""

    def __init__(self, standin: LoadStandIn, user: Any, instance: str, rng: random.Random,
                 think: float, counted: Any = None) -> None:
        self.standin, self.user, self.instance, self.rng, self.think = standin, user, instance, rng, think
        self.counted = counted  # told of each move seen while measuring (the run's --moves)
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.nonce = 0
        self.game: int | None = None
        self.seq = -1  # the newest move number seen of the current game
        self.pressed: tuple[int, int, float] | None = None  # (game, seq, when) of the press in flight
        self.shown: list[float] = []  # press -> state showing it, seconds
        self.moves = 0
        self.matches = 0
        self.measuring = False
        self.running = asyncio.Event()  # the first match is dealt

    async def open(self, http: aiohttp.ClientSession, base: str) -> None:
        code = self.standin.oauth.authorize(self.user)
        async with http.post(f"{base}/api/token", json={"code": code}) as answer:
            if answer.status != 200:
                raise RuntimeError(f"the sign-in was refused: {await answer.text()}")
            session = (await answer.json())["session"]
        self.ws = await http.ws_connect(f"{base}/ws", max_msg_size=0, heartbeat=None)
        await self._send(type="hello", v=1, session=session, instance=self.instance)
        welcome = await self.ws.receive()  # joined: the server asked Discord about the instance
        if welcome.type != aiohttp.WSMsgType.TEXT or json.loads(welcome.data)["type"] != "welcome":
            raise RuntimeError(f"a page was not let in: {welcome.data!r} ({self.ws.close_code})")

    async def _send(self, **message: Any) -> None:
        assert self.ws is not None
        if message["type"] != "hello":
            self.nonce += 1
            message["n"] = self.nonce
        await self.ws.send_str(json.dumps(message))

    async def play(self, until: asyncio.Event) -> None:
        """Read the socket until ``until`` is set; answer every state that offers a move."""
        assert self.ws is not None
        while not until.is_set():
            received = await self.ws.receive()
            if received.type != aiohttp.WSMsgType.TEXT:
                if until.is_set():
                    return
                raise RuntimeError(f"a page's socket closed ({self.ws.close_code})")
            message = json.loads(received.data)
            kind = message["type"]
            if kind == "idle":
                await self._send(type="ai", play="koikoi", level="normal", rounds=1)
            elif kind == "state":
                await self._state(message)
            elif kind == "refused" and message.get("code") not in ("table", "busy"):
                raise RuntimeError(f"a page's message was refused: {message}")

    async def _state(self, state: dict[str, Any]) -> None:
        now = time.monotonic()
        game, seq = state["game"]["id"], state["game"]["seq"]
        if game != self.game:
            self.game, self.seq = game, seq
            self.running.set()
        elif seq > self.seq:
            if self.measuring:
                self.moves += seq - self.seq
                if self.counted is not None:
                    self.counted(seq - self.seq)
            self.seq = seq
        if self.pressed is not None and self.pressed[0] == game and seq > self.pressed[1]:
            if self.measuring:
                self.shown.append(now - self.pressed[2])
            self.pressed = None
        if state["game"]["over"]:
            self.pressed = None
            self.matches += 1
            await self._send(type="lobby")
            return
        if state["moves"] and self.pressed is None:
            if self.think:
                await asyncio.sleep(self.think)
            move = self.rng.randrange(len(state["moves"]))
            self.pressed = (game, seq, time.monotonic())
            await self._send(type="press", game=game, seq=seq, key=state["moves"][move]["key"])

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()


class ActivityRun:
    """One run: the stand-in, the bot process with its Activity, the pages."""

    def __init__(self, spec: SpecIndex, *, tables: int, seconds: float, think: float, seed: int,
                 ai_delay: float | None, moves: int | None = None) -> None:
        self.tables, self.seconds, self.think, self.seed, self.ai_delay = tables, seconds, think, seed, ai_delay
        self.standin = LoadStandIn(spec, validate_every=VALIDATE_EVERY)
        self.players: list[PagePlayer] = []
        self.target, self.seen = moves, 0
        self.enough = asyncio.Event()  # --moves were seen: the window ends before --seconds

    def _counted(self, moves: int) -> None:
        self.seen += moves
        if self.target is not None and self.seen >= self.target:
            self.enough.set()

    def _populate(self) -> None:
        si = self.standin
        guild = None
        for i in range(self.tables):
            if i % PLAYERS_PER_GUILD == 0:
                guild = si.create_guild(f"Activity server {i // PLAYERS_PER_GUILD + 1}")
            user = si.create_user(f"player{i + 1}")
            si.add_member(guild, user)
            channel = si.create_channel(guild, f"table-{i + 1}")
            instance = si.oauth.open_activity(channel, user)
            self.players.append(PagePlayer(si, user, instance, random.Random(self.seed * 100_003 + i),
                                           self.think, self._counted))

    async def execute(self) -> dict[str, Any]:
        tmp = Path(tempfile.mkdtemp(prefix="hanafuda-activity-"))
        bot: BotProcess | None = None
        try:
            await self.standin.start()
            self._populate()
            port = free_port()
            bot = await BotProcess.start(api=self.standin.api_url, gateway=self.standin.gateway_url,
                                         token=self.standin.token, db=tmp / "bot.sqlite3",
                                         log_path=tmp / "bot.log", ai_delay=self.ai_delay,
                                         activity=(port, self.standin.oauth.client_secret))
            await bot.wait_ready(READY_TIMEOUT)
            try:
                return await self._measure(bot, f"http://127.0.0.1:{port}")
            except RuntimeError:
                print(bot.log_tail(), file=sys.stderr)  # why the bot refused a page
                raise
        finally:
            for player in self.players:
                await player.close()
            if bot is not None:
                await bot.stop()
            await self.standin.stop()
            shutil.rmtree(tmp, ignore_errors=True)

    async def _measure(self, bot: BotProcess, base: str) -> dict[str, Any]:
        si = self.standin
        before = sample_group(bot.pid).bot_rss
        stop = asyncio.Event()
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            # a few sign-ins at a time, as pages arrive: all at once would only measure
            # Discord's rate limit on them
            for start in range(0, len(self.players), SIGN_INS_AT_ONCE):
                await asyncio.gather(*(p.open(http, base)
                                       for p in self.players[start:start + SIGN_INS_AT_ONCE]))
            playing = [asyncio.create_task(p.play(stop)) for p in self.players]
            try:
                opened = asyncio.ensure_future(asyncio.gather(*(p.running.wait() for p in self.players)))
                done, _ = await asyncio.wait([opened, *playing], timeout=OPEN_TIMEOUT,
                                             return_when=asyncio.FIRST_COMPLETED)
                if opened not in done:
                    opened.cancel()
                    for task in done:
                        task.result()  # a page that failed while its first match was dealt
                    running = sum(p.running.is_set() for p in self.players)
                    raise RuntimeError(f"only {running} of {self.tables} tables were dealt in "
                                       f"{OPEN_TIMEOUT:.0f} s")
                grown = sample_group(bot.pid).bot_rss - before
                monitor = GroupMonitor(bot.pid)
                rest0 = si.rest_total
                for player in self.players:
                    player.measuring = True
                monitor.start()
                t0, wall0 = time.monotonic(), time.time()
                enough = asyncio.create_task(self.enough.wait())
                done, _ = await asyncio.wait([*playing, enough], timeout=self.seconds,
                                             return_when=asyncio.FIRST_COMPLETED)
                enough.cancel()
                for task in done:
                    if task is not enough:
                        task.result()  # a page that failed: the run is not a measurement
                window, wall1 = time.monotonic() - t0, time.time()
                for player in self.players:
                    player.measuring = False
                rest = si.rest_total - rest0
                await monitor.stop()
            finally:
                stop.set()
                for task in playing:
                    task.cancel()
                await asyncio.gather(*playing, return_exceptions=True)
        _, group_cpu = monitor.cpu_percent()
        shown = [s for p in self.players for s in p.shown]
        moves = sum(p.moves for p in self.players)
        cpu_ms = group_cpu / 100 * window * 1000
        return {
            "tables": self.tables,
            "shown_ms": {f"p{q}": _ms(percentile(shown, q)) for q in (50, 95, 99)},
            "moves_per_s": round(moves / window, 1),
            "cpu_ms_per_move": round(cpu_ms / moves, 2) if moves else None,
            "kib_per_table": round(grown / 1024 / self.tables, 1),
            "rest_calls_per_move": round(rest / moves, 3) if moves else None,
            "moves": moves, "presses_shown": len(shown), "seconds": round(window, 1),
            "matches_finished": sum(p.matches for p in self.players),
            "cpu_percent": round(group_cpu, 1), "rest_calls": rest,
            "loop_lag_ms_max": bot.lag_max(wall0, wall1),
            "stalls": {**stall_summary(bot.stalls_between(wall0, wall1)),
                       "gc": bot.gc_between(wall0, wall1)},
            "loop_thread_ms": bot.loop_between(wall0, wall1),
            "violations": sorted({v.kind for v in si.violations}),
        }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the runs (the nested percentiles each on their own)."""
    out: dict[str, Any] = {"tables": runs[0]["tables"], "runs": len(runs)}
    for key, value in runs[0].items():
        if key == "tables":
            continue
        if isinstance(value, dict):  # percentiles each on their own; what is not a number, per run
            out[key] = {k: _median([r[key][k] for r in runs])
                        if all(isinstance(r[key][k], int | float | None) for r in runs)
                        else [r[key][k] for r in runs] for k in value}
        elif isinstance(value, int | float):
            out[key] = _median([r[key] for r in runs])
        else:
            out[key] = value
    return out


def _median(values: list[Any]) -> Any:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bot.bench activity",
                                description="Tables played from Activity pages over WebSockets.")
    p.add_argument("--tables", type=int, required=True, help="tables, one page each")
    p.add_argument("--seconds", type=float, default=30.0, help="the measured window (default 30)")
    p.add_argument("--moves", type=int, default=None,
                   help="end the window once this many moves were seen (--seconds still bounds it)")
    p.add_argument("--think-ms", type=float, default=0.0, help="a player's pause before each press")
    p.add_argument("--ai-delay", type=not_negative, default=None,
                   help="the AI's pause before its move, seconds (default: production's)")
    p.add_argument("--runs", type=int, default=1, help="runs; the figures are their medians")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    args = p.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.runs < 1 or args.think_ms < 0:
        p.error("--tables and --runs must be at least 1, --seconds positive, --think-ms not negative")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    try:
        spec = load_spec()
    except SpecMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    runs = []
    try:
        for run in range(args.runs):
            figures = asyncio.run(ActivityRun(spec, tables=args.tables, seconds=args.seconds,
                                              think=args.think_ms / 1000, seed=args.seed + run,
                                              ai_delay=args.ai_delay, moves=args.moves).execute())
            runs.append(figures)
            if not args.json:
                print(f"run {run + 1}: {json.dumps(figures)}", file=sys.stderr)
    finally:
        kill_all_started()
    result = median_of(runs)
    if args.json:
        print(json.dumps(result))
        return
    shown = result["shown_ms"]
    print(f"{result['tables']} tables, {result['runs']} run(s), medians:\n"
          f"  press -> shown   p50 {shown['p50']} ms  p95 {shown['p95']} ms  p99 {shown['p99']} ms\n"
          f"  moves/s          {result['moves_per_s']}\n"
          f"  CPU per move     {result['cpu_ms_per_move']} ms\n"
          f"  memory per table {result['kib_per_table']} KiB\n"
          f"  REST per move    {result['rest_calls_per_move']}")

