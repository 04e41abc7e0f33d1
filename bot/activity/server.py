"""The Activity's web server, run by ``python -m bot`` beside the gateway when ACTIVITY_PORT is
set: the page and its card images, the OAuth2 sign-in, and one WebSocket per open page.

Discord shows the page in a frame from its own origin and forwards every request to this port
through the application's URL mapping (docs/activity.md). The sign-in is the Embedded App SDK's:
the page gets a code from ``authorize``, this server exchanges it for a token with the client
secret (which never leaves the server), asks Discord whose token it is, and binds a session to
that user. A socket then names its session and its Activity instance; Discord says which channel
that instance is in and who is in it, so a page can neither choose a channel nor a seat.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSCloseCode, WSMsgType, web

from bot.activity import protocol
from bot.activity.cards import NAMES, card_png
from bot.activity.discord_api import DiscordApi, DiscordRefused
from bot.activity.lobby import ActivityLobbies, Where, press_id
from bot.activity.rules import known, rules_message
from bot.activity.sessions import Session, Sessions, read_ticket, write_ticket
from bot.activity.state import idle_state, plain, welcome
from bot.activity.surface import ActivityPress, ActivitySurface, Viewer
from bot.config import Settings
from bot.i18n import LANGUAGES, N_, language_of, speaking, t
from bot.refusal_text import told
from bot.store import StoreError
from bot.tables import Table, TableError, hints
from rendering import render_deck_sheet, render_yaku_sheet
from rendering.fonts import find_cjk_font

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
FILES = {"": ("index.html", "text/html"), "app.js": ("app.js", "text/javascript"),
         "app.css": ("app.css", "text/css")}
"""The page's files by the name they are asked for: nothing else under static/ is served."""
DISCORD_ORIGINS: tuple[str, ...] = (
    "https://discord.com", "https://*.discord.com", "https://discordapp.com",
    "https://*.discordapp.com", "https://*.discordsays.com")
"""Where Discord's clients frame an Activity: the only pages allowed to frame this one."""
HELLO_SECONDS = 10.0
"""How long a new socket has to say who it is before it is closed."""
HEARTBEAT = 30.0
SOCKETS_PER_SESSION = 4
"""Pages open at once with one sign-in (a page that reconnects closed its old socket first)."""
CODE_MAX = 200
"""An OAuth2 code is about 30 characters: a longer one is not a code."""

RELAY_HEADER = "X-Hanafuda-Relay"
"""The header of a socket one process passes on to another, with its ticket."""

NOTHING_PLAYED = N_("Something went wrong; nothing was played.")
NO_HINT = N_("Something went wrong; there is no hint now.")
NO_RULES = N_("Something went wrong; the rules could not be shown.")
NO_BOARD = N_("Something went wrong; the board could not be shown.")

# Close codes the page acts on: sign in again, or give up with the sentence sent before.
SIGN_IN_AGAIN = 4001
NOT_ALLOWED = 4003


def security_headers(frame_ancestors: Sequence[str]) -> dict[str, str]:
    """Headers on every answer: the page runs only its own code, talks only to this server and
    may be framed only by Discord."""
    policy = "; ".join((
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "font-src 'self'", "base-uri 'none'", "form-action 'none'",
        "frame-ancestors " + " ".join(frame_ancestors)))
    return {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "Cross-Origin-Resource-Policy": "same-origin"}


def request_language(request: web.Request) -> str:
    """The language of a request not signed in yet (its browser's first choice)."""
    first = request.headers.get("Accept-Language", "").split(",", 1)[0].split(";", 1)[0]
    return language_of(first.strip())


def activity_for(settings: Settings, **options: Any) -> Callable[[Any], ActivityServer] | None:
    """How the bot makes its Activity's server, once its store and table service are open, when
    the settings turn the Activity on (ACTIVITY_PORT); None when they leave it off. ``options``
    go to :class:`ActivityServer` (the tests let their own page frame the Activity)."""
    port = settings.activity_port
    if port is None:
        return None
    return lambda bot: ActivityServer(bot, client_secret=settings.client_secret, port=port,
                                      host=settings.activity_host, **options)


class ActivityServer:
    """The web app and its place in the bot: ``surface`` goes into the bot's surfaces."""

    def __init__(self, bot: Any, *, client_secret: str, port: int = 0, host: str = "127.0.0.1",
                 frame_ancestors: Sequence[str] = DISCORD_ORIGINS,
                 sessions: Sessions | None = None, api: DiscordApi | None = None) -> None:
        self.bot = bot
        self.port, self.host = port, host
        self.secret = client_secret  # signs the tickets of sockets passed between processes
        self.relayed = 0  # sockets passed on to the process that drives their table
        self._peers: aiohttp.ClientSession | None = None  # to the other processes' servers
        self.sessions = sessions or Sessions()
        self.api = api or DiscordApi(bot, client_secret)
        self.surface = ActivitySurface(lambda: getattr(bot, "tables", None))
        self.lobbies = ActivityLobbies(bot)
        self.surface.idle = self._idle
        self.headers = security_headers(frame_ancestors)
        self.clock = time.monotonic
        self._cards: dict[tuple[str, bool], bytes] = {}
        self._sheets: dict[tuple[str, str, str], bytes] = {}  # (drawing, game, language) -> PNG
        self._runner: web.AppRunner | None = None
        self.sockets_ended = 0  # joined sockets whose handling is over (tests wait on it)
        self._reading: set[asyncio.Future[None]] = set()  # lobby statuses being read
        self._ended = asyncio.Event()
        self.app = self._build()

    def _build(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024, middlewares=[self._secure])
        # Discord's proxy strips its /.proxy prefix; a page loaded straight (the tests' frame)
        # keeps it, so both reach the same routes.
        for prefix in ("", "/.proxy"):
            app.router.add_get(prefix + "/", self._file)
            app.router.add_get(prefix + "/{name:app\\.(?:js|css)}", self._file)
            app.router.add_get(prefix + "/cards/{name:[a-z0-9_]+}.png", self._card)
            for folder, draw in (("sheets", render_yaku_sheet), ("decks", render_deck_sheet)):
                app.router.add_get(prefix + f"/{folder}/{{game:[a-z_]+}}-{{language:[a-z]+}}.png",
                                   functools.partial(self._sheet, draw))
            app.router.add_get(prefix + "/fonts/cjk.otf", self._font)
            app.router.add_get(prefix + "/api/config", self._config)
            app.router.add_post(prefix + "/api/token", self._token)
            app.router.add_get(prefix + "/ws", self._socket)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]  # the port bound (port 0: any free one)
        plan = getattr(self.bot, "shard_plan", None)
        if plan is not None and not plan.whole:  # the other processes pass this one its pages
            await self.bot.store.register_activity(list(plan.ids), self.address)
        await self.lobbies.recover(plan.owns if plan is not None else lambda guild_id: True)

    @property
    def address(self) -> str:
        """Where the other processes of the bot reach this one (``host:port``)."""
        host = self.host if self.host not in ("", "0.0.0.0", "::") else socket.gethostname()
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    async def close(self) -> None:
        for task in self._reading:
            task.cancel()
        await self.surface.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()
        if self._peers is not None:
            await self._peers.close()

    # -- HTTP ---------------------------------------------------------------------------------
    @web.middleware
    async def _secure(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # an error answer carries the same headers
            for name, value in self.headers.items():
                exc.headers.setdefault(name, value)
            raise
        for name, value in self.headers.items():
            response.headers.setdefault(name, value)
        return response

    async def _file(self, request: web.Request) -> web.StreamResponse:
        name, kind = FILES[request.match_info.get("name", "")]
        path = STATIC / name
        if not path.is_file():
            raise web.HTTPNotFound(text="The page is not built: see docs/activity.md.")
        return web.FileResponse(path, headers={"Content-Type": kind, "Cache-Control": "no-cache"})

    async def _card(self, request: web.Request) -> web.Response:
        """A card image, drawn by a render worker the first time it is asked for."""
        name = request.match_info["name"]
        korean = name.endswith("_k")
        base = name[:-2] if korean else name
        if base not in NAMES:
            raise web.HTTPNotFound(text="There is no such card.")
        data = self._cards.get((base, korean))
        if data is None:
            data = self._cards[(base, korean)] = await self._draw(card_png, base, korean)
        return _png(request, data)

    async def _sheet(self, draw: Callable[[str, str], bytes], request: web.Request) -> web.Response:
        """A game's picture ``draw`` gives (its yaku sheet or its card chart) in a language,
        drawn by a render worker the first time."""
        game, language = request.match_info["game"], request.match_info["language"]
        if not known(game) or language not in LANGUAGES:
            raise web.HTTPNotFound(text="There is no such sheet.")
        key = (draw.__name__, game, language)
        data = self._sheets.get(key)
        if data is None:
            data = self._sheets[key] = await self._draw(draw, game, language)
        return _png(request, data)

    async def _draw(self, draw: Callable[..., bytes], *args: Any) -> bytes:
        """A picture drawn off the event loop: by a render worker, or a thread without them."""
        pool = getattr(self.bot, "render_pool", None)
        return await (pool.run(draw, *args) if pool is not None else asyncio.to_thread(draw, *args))

    async def _font(self, request: web.Request) -> web.StreamResponse:
        """The CJK font the pictures use, for a device without one (the page asks for it only
        for kana, kanji and Hangul it cannot draw with its own fonts)."""
        path = find_cjk_font()
        if path is None:
            raise web.HTTPNotFound(text="No CJK font is installed.")
        return web.FileResponse(path, headers={"Content-Type": "font/otf",
                                               "Cache-Control": "public, max-age=604800"})

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.bot.application_id)},
                                 headers={"Cache-Control": "no-store"})

    async def _token(self, request: web.Request) -> web.Response:
        """The sign-in: a code from the SDK's ``authorize`` in, the user's access token (for the
        SDK's ``authenticate``) and a session of this server out."""
        with speaking(request_language(request)):
            try:
                body = await request.json()
            except ValueError:
                body = None
            code = body.get("code") if isinstance(body, dict) and set(body) == {"code"} else None
            if not isinstance(code, str) or not 1 <= len(code) <= CODE_MAX:
                return _refuse(400, t("The sign-in sent no valid code."))
            try:
                access_token, expires_in = await self.api.exchange(code)
                who = await self.api.identify(access_token)
            except DiscordRefused as exc:
                log.info("an Activity sign-in was refused: %s", exc)
                return _refuse(401, t("Discord did not confirm who you are; close the Activity "
                                      "and open it again."))
        languages = getattr(self.bot, "languages", None)
        chosen = languages.chosen(who.user_id) if languages is not None else ""
        language = chosen if chosen in LANGUAGES else language_of(who.locale)
        session = self.sessions.create(who.user_id, who.name, language)
        return web.json_response(
            {"access_token": access_token, "expires_in": expires_in, "session": session.token,
             "user": {"id": str(who.user_id), "name": who.name}, "language": language},
            headers={"Cache-Control": "no-store"})

    # -- the socket ---------------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ticket = request.headers.get(RELAY_HEADER)
        fields = read_ticket(self.secret, ticket, time.time()) if ticket is not None else None
        if ticket is not None and fields is None:
            raise web.HTTPForbidden(text="That ticket is not one of this bot's.")
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_MESSAGE, heartbeat=HEARTBEAT)
        await ws.prepare(request)
        if fields is not None:  # passed on by another process, which checked the page
            viewer = self._relayed_viewer(ws, fields)
        else:
            viewer = await self._hello(ws, request_language(request))
        if viewer is None:
            return ws
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    with speaking(viewer.language):
                        going_on = await self._receive(viewer, message.data)
                    if not going_on:
                        break
                elif message.type == WSMsgType.BINARY:
                    await self._close(viewer, WSCloseCode.UNSUPPORTED_DATA, "text frames only")
                    break
                else:
                    if getattr(message.data, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                        # no page sends a frame that big: whoever did is not a page
                        log.info("an Activity socket of user %s sent a frame too big", viewer.user_id)
                        self._end_session(viewer.session, viewer)
                    break
        finally:
            self.surface.leave(viewer)
            viewer.session.sockets.discard(viewer)
            if viewer.pressing is not None and not viewer.pressing.done():
                await asyncio.wait({viewer.pressing})  # a press under way is stored or refused
            self.sockets_ended += 1
            ended, self._ended = self._ended, asyncio.Event()
            ended.set()
        return ws

    async def socket_ended(self, count: int) -> None:
        """Wait until ``count`` joined sockets have ended here, all handling of them done."""
        while self.sockets_ended < count:
            await self._ended.wait()

    async def _hello(self, ws: web.WebSocketResponse, language: str) -> Viewer | None:
        """The first message: the session and the Activity instance, both checked; else the
        socket is closed with a sentence and a code the page acts on."""
        try:
            first = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"no hello")
            return None
        if first.type != WSMsgType.TEXT:
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"no hello")
            return None
        try:
            hello = protocol.parse(first.data)
        except protocol.Refused:
            hello = None
        if hello is None or hello.type != "hello":
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"no hello")
            return None
        session = self.sessions.get(hello["session"])
        if session is None:
            with speaking(language):
                await _goodbye(ws, SIGN_IN_AGAIN, "session", t("Your sign-in has expired; signing in again."))
            return None
        try:
            instance = await self.api.instance(hello["instance"], session.user_id)
        except DiscordRefused as exc:
            log.info("an Activity socket named an instance Discord does not know: %s", exc)
            instance = None
        if instance is None or session.user_id not in instance.users:
            with speaking(session.language):
                await _goodbye(ws, NOT_ALLOWED, "instance", t(
                    "Discord does not show you in this Activity; close it and open it again."))
            return None
        plan = getattr(self.bot, "shard_plan", None)
        if plan is not None and not plan.whole and plan.owns(instance.guild_id) \
                and instance.guild_id is not None and self.bot.get_guild(instance.guild_id) is None:
            # a server's guest place: its games another process drives come here with its pages
            await self.bot.tables.claim_place(instance.channel_id, instance.guild_id)
        if len(session.sockets) >= SOCKETS_PER_SESSION:  # counted after the last await: exact
            with speaking(session.language):
                await _goodbye(ws, NOT_ALLOWED, "sockets", t(
                    "This Activity is open in too many places at once; close one of them."))
            return None
        if plan is not None and not plan.owns(instance.guild_id):
            await self._relay(ws, session, instance, plan.shard_of(instance.guild_id))
            return None
        viewer = Viewer(ws, session, instance.instance_id, instance.channel_id, session.language,
                        self.clock())
        viewer.guild_id = instance.guild_id
        session.sockets.add(viewer)
        self.lobbies.seen(session.user_id, session.name)
        viewer.send(welcome(session.user_id, session.name, session.language))
        self.surface.join(viewer)
        return viewer

    # -- sockets between the processes of a sharded bot -------------------------------------------
    async def _relay(self, ws: web.WebSocketResponse, session: Session, instance: Any, shard: int) -> None:
        """Pass a page's socket on to the process that drives the tables of its channel's shard,
        found in the store, and carry every frame both ways until either side closes. That
        process checks and plays everything; this one only vouches for the sign-in it checked."""
        try:
            address = await self.bot.store.activity_address(shard)
        except StoreError:
            address = None
        if address is None:
            with speaking(session.language):
                await _goodbye(ws, WSCloseCode.TRY_AGAIN_LATER, "away", t(
                    "The part of the bot that runs this channel's games is not reachable; try "
                    "again in a moment."))
            return
        ticket = write_ticket(self.secret, {
            "user": session.user_id, "name": session.name, "language": session.language,
            "left": max(0.0, session.expires - self.sessions.clock()),
            "instance": instance.instance_id, "channel": instance.channel_id,
            "guild": instance.guild_id}, time.time())
        self.relayed += 1
        try:
            if self._peers is None:
                self._peers = aiohttp.ClientSession()
            async with self._peers.ws_connect(f"http://{address}/ws", headers={RELAY_HEADER: ticket},
                                                max_msg_size=0, heartbeat=HEARTBEAT) as owner:
                session.sockets.add(owner)
                try:
                    await _pipe(ws, owner)
                finally:
                    session.sockets.discard(owner)
                if owner.close_code in (WSCloseCode.POLICY_VIOLATION, WSCloseCode.MESSAGE_TOO_BIG):
                    self.sessions.revoke(session)  # the owner ended the session for abuse: so here
        except (aiohttp.ClientError, OSError):
            log.info("the Activity process of shard %s at %s is not reachable", shard, address)
            if not ws.closed:
                with speaking(session.language):
                    await _goodbye(ws, WSCloseCode.TRY_AGAIN_LATER, "away", t(
                        "The part of the bot that runs this channel's games is not reachable; "
                        "try again in a moment."))

    def _relayed_viewer(self, ws: web.WebSocketResponse, fields: dict[str, Any]) -> Viewer:
        """A page another process passed on: its session as that process checked it, for as
        long as it has left (then the page signs in again there)."""
        session = Session("", int(fields["user"]), str(fields["name"]), str(fields["language"]),
                          self.sessions.clock() + float(fields["left"]))
        guild = fields.get("guild")
        viewer = Viewer(ws, session, str(fields["instance"]), int(fields["channel"]), session.language,
                        self.clock())
        viewer.guild_id = int(guild) if guild is not None else None
        session.sockets.add(viewer)
        self.lobbies.seen(session.user_id, session.name)
        viewer.send(welcome(session.user_id, session.name, session.language))
        self.surface.join(viewer)
        return viewer

    async def _receive(self, viewer: Viewer, text: str) -> bool:
        """One message of a joined page; False once the socket is to close."""
        if not viewer.bucket.take(self.clock()):
            if viewer.bucket.abusive:
                log.info("an Activity socket of user %s sent too fast; its session ends", viewer.user_id)
                self._end_session(viewer.session, viewer)
                await self._close(viewer, WSCloseCode.POLICY_VIOLATION, "too many messages")
                return False
            if viewer.bucket.strikes == 1:  # said once: a flood gets no answer per message
                self._refuse(viewer, None, "rate", t("You are sending too fast; wait a moment."))
            return True
        if self.sessions.expired(viewer.session):
            self.sessions.revoke(viewer.session)
            await self._close(viewer, SIGN_IN_AGAIN, "session expired")
            return False
        try:
            message = protocol.parse(text)
        except protocol.Refused as exc:
            viewer.bucket.strikes += 1  # a page never sends one: it counts against the socket
            self._refuse(viewer, None, exc.code, t("That message is not one this page sends; "
                                                   "nothing was played."))
            return True
        nonce = message.fields.get("n")
        if message.type == "hello" or nonce is None:
            self._refuse(viewer, None, "shape", t("This page has already joined."))
            return True
        if nonce <= viewer.last_nonce:  # sent again: the first one already counted
            self._refuse(viewer, nonce, "replay", t("That press was already received; nothing "
                                                    "was played again."))
            return True
        viewer.last_nonce = nonce
        if message.type in ("rules", "board"):  # a read, at any time: it changes nothing
            if viewer.reading is not None and not viewer.reading.done():
                self._refuse(viewer, nonce, "busy", t("The rules are on their way.")
                             if message.type == "rules" else t("The board is on its way."))
                return True
            read = self._rules if message.type == "rules" else self._board
            viewer.reading = asyncio.create_task(read(viewer, message))
            return True
        if message.type in protocol.LOBBY:
            if viewer.pressing is not None and not viewer.pressing.done():
                self._refuse(viewer, nonce, "busy", t("Your previous press is still being played."))
                return True
            viewer.pressing = asyncio.create_task(self._lobby(viewer, message))
            return True
        table = viewer.table
        if table is None or message["game"] != table.game_id:
            self._refuse(viewer, nonce, "table", t("That press is for a game this page is not "
                                                   "showing; nothing was played."))
            return True
        if message.type == "hint":  # beside a press: a hint changes nothing at the table
            if viewer.hinting is not None and not viewer.hinting.done():
                self._refuse(viewer, nonce, "busy", t("Your hint is still being worked out."))
                return True
            viewer.hinting = asyncio.create_task(self._hint(viewer, table, nonce))
            return True
        if viewer.pressing is not None and not viewer.pressing.done():
            self._refuse(viewer, nonce, "busy", t("Your previous press is still being played."))
            return True
        viewer.pressing = asyncio.create_task(self._press(viewer, message))
        return True

    async def _answer(self, viewer: Viewer, nonce: int, code: str, fault: str, what: str,
                      work: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        """Do what a page asked, in its language, and answer it: ``work``'s answer, a table's
        refusal in one sentence (its ``code``), or for a failure nobody foresaw the ``fault``
        sentence, with ``what`` failed in the log."""
        with speaking(viewer.language):
            try:
                answer = await work()
            except TableError as exc:
                self._refuse(viewer, nonce, code, told(exc, self.lobbies.markup))
                return
            except Exception:
                log.exception("%s from the Activity failed", what)
                self._refuse(viewer, nonce, "fault", t(fault))
                return
        viewer.send({**answer, "n": nonce})

    async def _press(self, viewer: Viewer, message: protocol.Message) -> None:
        """A press, through the table service exactly as a button's; the answer is the page's."""
        manager = self.bot.tables
        nonce = message["n"]

        async def play() -> dict[str, Any]:
            if message.type == "slap":
                await manager.slap_by(message["game"], viewer.user_id)
            else:
                await manager.press(message["game"], viewer.user_id, message["seq"],
                                    message["key"], via=ActivityPress(viewer, nonce))
            return {"type": "played"}

        await self._answer(viewer, nonce, "table", NOTHING_PLAYED,
                           f"a press in game {message['game']}", play)

    async def _hint(self, viewer: Viewer, table: Table, nonce: int) -> None:
        """A hint for the viewer's turn, priced in the AI workers as the Hint button's is. The
        same turn gets the same hint, so the page's last one is sent again rather than priced
        again: a page asks for a turn's hint at most once."""
        manager = self.bot.tables

        async def priced() -> dict[str, Any]:
            at, seat = hints.ask(manager, table.game_id, viewer.user_id)
            turn = (at.game_id, at.seq, viewer.language)
            if viewer.last_hint is None or viewer.last_hint[0] != turn:
                configured = getattr(getattr(self.bot, "settings", None), "hint_rollouts", None)
                hint = await hints.price_turn(manager, at, seat, hints.rollouts_for(at.game, configured))
                viewer.last_hint = (turn, {"title": t("💡 Hint"), "note": hint.note(),
                                           "lines": [plain(line) for line in hint.lines()]})
            return {"type": "hint", "game": turn[0], "seq": turn[1], **viewer.last_hint[1]}

        await self._answer(viewer, nonce, "hint", NO_HINT, f"a hint in game {table.game_id}", priced)

    async def _rules(self, viewer: Viewer, message: protocol.Message) -> None:
        """How a game is played and the rules it is played by where the page is: the server's
        house rules, or the game's own in a place the bot is a guest in."""
        game = message["play"]

        async def read() -> dict[str, Any]:
            if not known(game):
                raise TableError(t("There is no such game."))
            place = self._where(viewer).place
            house = None if place.guest else (await self.bot.store.get_settings(place.scope)).rules_for(game)
            return rules_message(game, viewer.language, house)

        await self._answer(viewer, message["n"], "rules", NO_RULES, f"the rules of {game!r}", read)

    async def _board(self, viewer: Viewer, message: protocol.Message) -> None:
        """The board of today's deal of a game in the page's server (bot.activity.lobby)."""
        game = message["play"]

        async def read() -> dict[str, Any]:
            return await self.lobbies.board(self._where(viewer), viewer.user_id, game)

        await self._answer(viewer, message["n"], "board", NO_BOARD, f"the board of {game!r}", read)

    # -- the lobby ----------------------------------------------------------------------------
    def _where(self, viewer: Viewer) -> Where:
        return self.lobbies.where(viewer.guild_id, viewer.channel_id, viewer.language)

    def _idle(self, viewer: Viewer) -> dict[str, Any]:
        """A page with no game: the lobby of its channel, where games may start from a page; how
        its user stands with today's deals follows once the store has said."""
        task = asyncio.ensure_future(self._today(viewer))
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)
        with speaking(viewer.language):
            return idle_state(viewer.language, self.lobbies.offer(viewer.channel_id, viewer.language,
                                                                  viewer.user_id))

    async def _today(self, viewer: Viewer) -> None:
        """Send a page in the lobby how its user stands with today's deal of each game: read
        once for the page, and again only on a new day or once it showed one of their games of
        a deal (nothing else changes it; pages go back to the lobby after every game)."""
        day = self.bot.store.daily_deal_day()
        if viewer.standing is not None and viewer.standing[0] == day:
            viewer.send({"type": "today", "games": viewer.standing[1]})
            return
        with speaking(viewer.language):
            try:
                games = await self.lobbies.today(self._where(viewer), viewer.user_id)
            except StoreError:  # the box says nothing of it this time; pressing still tells
                log.warning("could not read today's deals of user %s", viewer.user_id)
                return
            except Exception:  # nor for a fault nobody foresaw, which the page never hears of
                log.exception("reading today's deals of user %s failed", viewer.user_id)
                return
        viewer.standing = (day, games)
        viewer.send({"type": "today", "games": games})

    async def _lobby(self, viewer: Viewer, message: protocol.Message) -> None:
        """A message of the lobby: a game against the AI, seats opened or taken, or a finished
        game left for the lobby. Games start as a slash command starts them (bot.activity.lobby)."""

        async def act() -> dict[str, Any]:
            running = viewer.table is not None and not viewer.table.finished
            if message.type == "lobby":
                if running:
                    raise TableError(t("This game is still running; the lobby opens when it ends."))
                self.surface.to_lobby(viewer)
            else:
                if running:
                    raise TableError(t("A game is running in this channel already."))
                await self._start(viewer, message)
            return {"type": "played"}

        await self._answer(viewer, message["n"], "lobby", NOTHING_PLAYED,
                           f"a lobby message in channel {viewer.channel_id}", act)

    async def _start(self, viewer: Viewer, message: protocol.Message) -> None:
        where = self._where(viewer)
        user, name = viewer.user_id, viewer.session.name
        if message.type == "ai":
            await self.lobbies.play_ai(where, user, name, message["play"], message["level"],
                                       message["rounds"], press_id())
            return  # the new table reaches every page of the channel as tables do
        if message.type == "daily":  # the player's own: it shows on their pages alone
            self.surface.show(viewer, await self.lobbies.daily(where, user, name, message["play"]))
            return
        if message.type == "again":
            if isinstance(await self.lobbies.again(where, user, name, viewer.table, press_id()), Table):
                return
            self.surface.to_lobby(viewer)  # the seats asked for, taken and waiting for the rest
        elif message.type == "open":
            await self.lobbies.open_seats(where, user, name, message["play"], message["seats"],
                                          message["rounds"])
        elif message.type == "unseat":
            await self.lobbies.unseat(where, user)
        elif isinstance(await self.lobbies.sit(where, user, name, press_id()), Table):
            return
        for other in self.surface.idle_viewers(viewer.channel_id):  # who sits where, everywhere
            other.send(self._idle(other))

    @staticmethod
    def _refuse(viewer: Viewer, nonce: int | None, code: str, text: str) -> None:
        viewer.send({"type": "refused", "n": nonce, "code": code, "text": text})

    async def _close(self, viewer: Viewer, code: int, why: str) -> None:
        await viewer.flushed()
        await viewer.ws.close(code=code, message=why.encode())

    def _end_session(self, session: Session, closing: Viewer) -> None:
        """End a session and close every other page signed in with it (``closing`` is being
        closed by its own handler)."""
        self.sessions.revoke(session)
        for other in list(session.sockets):
            if other is not closing and not other.ws.closed:
                asyncio.create_task(other.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"session ended"))


async def _pipe(page: web.WebSocketResponse, owner: aiohttp.ClientWebSocketResponse) -> None:
    """Carry text frames both ways between a page and the owner's socket; when one side closes,
    close the other with the same code (the page acts on the owner's codes)."""

    async def to_owner() -> None:
        async for message in page:
            if message.type != WSMsgType.TEXT:
                break
            await owner.send_str(message.data)
        await owner.close(code=page.close_code or WSCloseCode.OK)

    async def to_page() -> None:
        async for message in owner:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            await page.send_str(message.data)
        await page.close(code=owner.close_code or WSCloseCode.OK)

    tasks = [asyncio.create_task(to_owner()), asyncio.create_task(to_page())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if not owner.closed:
            await owner.close()
        if not page.closed:
            await page.close(code=owner.close_code or WSCloseCode.GOING_AWAY)


def _png(request: web.Request, data: bytes) -> web.Response:
    """A picture that never changes for its address: cached a day, or 304 to a page that has it."""
    tag = '"' + hashlib.blake2b(data, digest_size=8).hexdigest() + '"'
    if request.headers.get("If-None-Match") == tag:
        return web.Response(status=304, headers={"ETag": tag})
    return web.Response(body=data, content_type="image/png",
                        headers={"ETag": tag, "Cache-Control": "public, max-age=86400"})


def _refuse(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status, headers={"Cache-Control": "no-store"})


async def _goodbye(ws: web.WebSocketResponse, code: int, reason: str, text: str) -> None:
    await ws.send_json({"type": "error", "code": reason, "text": text})
    await ws.close(code=code, message=reason.encode())
