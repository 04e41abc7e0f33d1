"""The Activity's server through the stand-in: the OAuth2 sign-in, the socket's protocol, its
abuse, and presses from a page and from the buttons mixed in one game."""

from __future__ import annotations

import asyncio
import contextlib
import json

import aiohttp
import pytest

from bot.activity.server import DISCORD_ORIGINS, NOT_ALLOWED, SIGN_IN_AGAIN
from bot.cards import card
from bot.config import Settings
from bot.tables import TableManager
from tests.e2e.activity import WAIT, activity_bot, joined, open_page, sign_in
from tests.e2e.playing import controls, game_over, hand_message, move_of, table_messages, table_move
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def abot(start_bot, standin, world, tmp_path):
    """The bot with its Activity on a free port, signing in through the stand-in."""
    settings = Settings(token=standin.token, database_path=tmp_path / "bot.sqlite3",
                        dev_guild_id=world.guild.id, activity_port=0,
                        client_secret=standin.oauth.client_secret)
    bot = await start_bot(activity_bot(settings))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    return bot


def base(bot) -> str:
    return f"http://127.0.0.1:{bot.activity_server.port}"


async def koikoi_against_the_ai(standin, world, user=None):
    user = user or world.admin
    await user.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await standin.wait_for(lambda: table_messages(standin, world.channel), "the table")
    return table


async def test_the_sign_in_exchanges_the_code_and_binds_the_user(abot, standin, world, http):
    async with http.get(f"{base(abot)}/api/config") as response:
        assert (await response.json()) == {"client_id": str(standin.application_id)}
    code = standin.oauth.authorize(world.player)
    async with http.post(f"{base(abot)}/api/token", json={"code": code}) as response:
        signed = await response.json()
        assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
    assert signed["user"] == {"id": str(world.player.id), "name": "bob"}
    assert standin.oauth.tokens[signed["access_token"]].user is world.player
    assert standin.oauth.client_secret not in json.dumps(signed)
    session = abot.activity_server.sessions.get(signed["session"])
    assert session is not None and session.user_id == world.player.id
    # Discord was asked who the token belongs to, as that user
    [me] = [r for r in standin.requests_to("GET /users/@me") if r.status == 200][-1:]
    assert me.status == 200
    # a code works once; a body that is not a code is refused with one sentence
    async with http.post(f"{base(abot)}/api/token", json={"code": code}) as response:
        assert response.status == 401
        assert (await response.json())["error"].startswith("Discord did not confirm who you are")
    for body in ({"code": ""}, {"code": "x" * 201}, {"code": 5}, {"code": "a", "seat": 0}, []):
        async with http.post(f"{base(abot)}/api/token", json=body) as response:
            assert response.status == 400
            assert (await response.json()) == {"error": "The sign-in sent no valid code."}
    async with http.post(f"{base(abot)}/api/token", data="x" * 100_000) as response:
        assert response.status == 413  # beyond any sign-in's size
    # a code Discord exchanged, but whose user Discord could not then say: no session
    standin.fail_next("GET /users/@me", status=503)
    async with http.post(f"{base(abot)}/api/token",
                         json={"code": standin.oauth.authorize(world.player)}) as response:
        assert response.status == 401
    assert len(abot.activity_server.sessions) == 1


async def test_a_sign_in_waits_out_discords_rate_limit(abot, standin, world, http):
    """Many pages signing in at once meet Discord's limit: the sign-in waits as asked, then
    goes on, rather than refusing the player."""
    standin.fail_next("GET /users/@me", status=429, retry_after=0.2)
    signed = await sign_in(http, base(abot), standin, world.player)
    assert signed["user"]["id"] == str(world.player.id)
    answers = [r.status for r in standin.requests_to("GET /users/@me")]
    assert answers[-2:] == [429, 200]


async def test_a_page_waits_out_the_rate_limit_on_its_instance(abot, standin, world, http):
    """Pages joining by the hundred meet more 429s than discord.py waits out by itself."""
    instance = standin.oauth.open_activity(world.channel, world.player)
    standin.fail_next("GET /applications/{application_id}/activity-instances/{instance_id}",
                      status=429, retry_after=0.05, times=6)
    page, _ = await joined(http, base(abot), standin, world.player, instance)
    assert (await page.next(lambda m: m["type"] == "idle", "the page let in"))["lobby"]


async def test_the_page_may_be_framed_by_discord_alone(abot, http):
    for path in ("/", "/.proxy/", "/app.js", "/api/config", "/cards/crane.png"):
        async with http.get(base(abot) + path) as response:
            assert response.status == 200, path
            policy = response.headers["Content-Security-Policy"]
            assert "frame-ancestors " + " ".join(DISCORD_ORIGINS) in policy
            assert "script-src 'self'" in policy and "default-src 'none'" in policy
            assert response.headers["X-Content-Type-Options"] == "nosniff"
    async with http.get(base(abot) + "/cards/crane.png") as response:
        assert response.content_type == "image/png"
        image = await response.read()
        assert image.startswith(b"\x89PNG")
        tag = response.headers["ETag"]
    async with http.get(base(abot) + "/cards/crane.png", headers={"If-None-Match": tag}) as response:
        assert response.status == 304
    for path in ("/cards/no_such_card.png", "/cards/../server.py", "/static/index.html", "/server.py"):
        async with http.get(base(abot) + path) as response:
            assert response.status == 404, path


async def test_a_player_sees_their_hand_and_a_spectator_the_public_table(abot, standin, world, http):
    await koikoi_against_the_ai(standin, world)
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    player, _ = await joined(http, base(abot), standin, world.admin, instance)
    watcher, _ = await joined(http, base(abot), standin, world.player, instance)
    [hello] = [m for m in watcher.messages if m["type"] == "welcome"]
    assert hello["words"]["watching"] == "You are watching this game."
    mine = await player.state(lambda s: s["moves"], "the player's turn")
    theirs = await watcher.state()
    table = abot.tables.get(mine["game"]["id"])
    assert mine["you"]["seat"] == 0 and theirs["you"]["seat"] is None
    assert mine["hand"]["cards"] == table.match.observation(0)["hand"]
    assert theirs["hand"] is None and theirs["moves"] == []
    assert [p["hand_text"] for p in theirs["players"]] == ["8 cards in hand"] * 2
    assert [p["score_text"] for p in theirs["players"]] == ["0 points"] * 2
    ai_hand = table.match.observation(1)["hand"]
    for state in (mine, theirs):  # the AI's hand is in nobody's state
        text = json.dumps(state)
        assert not [card for card in ai_hand if f'"{card}"' in text]
    assert all(set(move) == {"key", "label", "kind", "card", "target", "style"} for move in mine["moves"])
    # every card shown has its name in the reader's language, for its accessible name
    assert {c: mine["cards"][c] for c in mine["hand"]["cards"]} == {c: card(c).name for c in mine["hand"]["cards"]}


async def test_the_socket_refuses_what_a_page_never_sends(abot, standin, world, http):
    await koikoi_against_the_ai(standin, world)
    instance = standin.oauth.open_activity(world.channel, world.admin, world.player)
    player, _ = await joined(http, base(abot), standin, world.admin, instance)
    watcher, _ = await joined(http, base(abot), standin, world.player, instance)
    state = await player.state(lambda s: s["moves"], "the player's turn")
    game_id, seq = state["game"]["id"], state["game"]["seq"]
    table = abot.tables.get(game_id)
    before = await abot.store.load_game(game_id, scope=world.guild.id)

    # another user's seat: the spectator presses the player's move
    watcher.nonce += 1
    await watcher.send(type="press", game=game_id, seq=seq, key="#0", n=watcher.nonce)
    assert (await watcher.answer(watcher.nonce))["text"] == "You are not playing in this game."
    # a seat named in the message is not the protocol's: refused, whatever it says
    await player.send(type="press", game=game_id, seq=seq, key="#0", n=50, seat=0)
    refused = await player.next(lambda m: m["type"] == "refused", "the refusal of a seat")
    assert refused["code"] == "shape"
    # an unknown table, a table of another channel, a key that is no move
    for forged in ({"game": 999_999}, {"game": game_id + 1}):
        player.nonce += 1
        await player.send(type="press", seq=seq, key="#0", n=player.nonce, **forged)
        answer = await player.answer(player.nonce)
        assert answer["code"] == "table", answer
    for key in ("#", "#1000", "play:crane>pine crane", "x" * 101):
        player.nonce += 1
        await player.send(type="press", game=game_id, seq=seq, key=key, n=player.nonce)
        assert (await player.next(lambda m: m["type"] == "refused", key))["code"] in ("key", "shape")
    # a move the turn does not offer, and one of another turn
    for sent_seq, key in ((seq, "#99"), (seq + 1, "#0")):
        player.nonce += 1
        await player.send(type="press", game=game_id, seq=sent_seq, key=key, n=player.nonce)
        assert (await player.answer(player.nonce))["code"] == "table"
    assert table.seq == seq
    # a press, then the same message again: played once, the copy refused before the table
    player.nonce += 1
    press = {"type": "press", "game": game_id, "seq": seq, "key": "#0", "n": player.nonce}
    await player.ws.send_str(json.dumps(press))
    assert (await player.answer(player.nonce))["type"] == "played"
    await player.ws.send_str(json.dumps(press))
    replayed = await player.next(lambda m: m["type"] == "refused" and m["code"] == "replay", "the replay")
    assert replayed["n"] == player.nonce
    after = await abot.store.load_game(game_id, scope=world.guild.id)
    moves = [e for e in after.events if str(e.actor) == str(world.admin.id)]
    assert len(moves) == 1 and before.last_seq == seq and moves[0].seq == seq + 1


async def test_a_flood_or_a_huge_frame_closes_the_socket_and_ends_the_session(abot, standin, world, http):
    await koikoi_against_the_ai(standin, world)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    player, signed = await joined(http, base(abot), standin, world.admin, instance)
    state = await player.state(lambda s: s["moves"], "the player's turn")
    table = abot.tables.get(state["game"]["id"])
    seq = table.seq
    # a thousand messages at once (presses of another turn: none could be played anyway)
    for n in range(1, 1001):
        try:
            await player.send(type="press", game=table.game_id, seq=seq + 1, key="#0", n=n)
        except ConnectionResetError:  # the server closed it already: what the test waits for
            break
    assert await player.closed() == aiohttp.WSCloseCode.POLICY_VIOLATION
    refusals = [m for m in player.messages if m["type"] == "refused"]
    assert refusals and all(m["code"] in ("table", "rate", "busy") for m in refusals)
    assert [m for m in refusals if m["code"] == "rate"][0]["text"] == "You are sending too fast; wait a moment."
    assert not [m for m in player.messages if m["type"] == "played"]
    assert abot.activity_server.sessions.get(signed["session"]) is None  # the session ended with it
    again = await open_page(http, base(abot), signed["session"], instance)
    assert (await again.next(lambda m: True, "the answer"))["code"] == "session"
    assert await again.closed() == SIGN_IN_AGAIN
    assert table.seq == seq

    # a frame of 1 MB: closed at once, the session ended
    player, signed = await joined(http, base(abot), standin, world.admin, instance)
    await player.state(lambda s: s["moves"], "the player's turn")
    huge = json.dumps({"type": "press", "game": table.game_id, "seq": seq, "key": "#0", "n": 1,
                       "pad": "x" * (1 << 20)})
    with contextlib.suppress(ConnectionResetError):  # closed before the frame was all sent
        await player.ws.send_str(huge)
    assert await player.closed() == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await abot.activity_server.socket_ended(2)  # the flooding socket, then this one
    assert abot.activity_server.sessions.get(signed["session"]) is None
    assert table.seq == seq and not table.finished


async def test_a_socket_must_name_a_live_session_and_an_instance_it_is_in(abot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin)
    signed = await sign_in(http, base(abot), standin, world.player)
    for session, place, code in ((signed["session"], instance, NOT_ALLOWED),  # not in it
                                 (signed["session"], "i-forged-instance", NOT_ALLOWED),
                                 ("not-a-session-token-at-all", instance, SIGN_IN_AGAIN)):
        page = await open_page(http, base(abot), session, place)
        goodbye = await page.next(lambda m: m["type"] == "error", "the refusal")
        assert goodbye["text"] and await page.closed() == code
    # one sign-in opens a few pages at once, not more
    standin.oauth.join_activity(instance, world.player)
    pages = [await open_page(http, base(abot), signed["session"], instance) for _ in range(4)]
    for page in pages:
        await page.next(lambda m: m["type"] == "idle", "the channel with no game")
    extra = await open_page(http, base(abot), signed["session"], instance)
    assert (await extra.next(lambda m: True, "the refusal"))["code"] == "sockets"
    assert await extra.closed() == NOT_ALLOWED
    for page in pages:
        await page.ws.close()
    # no hello at all, or something else first
    ws = await http.ws_connect(f"{base(abot)}/ws")
    await ws.send_str(json.dumps({"type": "press", "game": 1, "seq": 0, "key": "#0", "n": 1}))
    assert (await ws.receive()).type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1008
    # a session that expires: the page's next message closes it, and it cannot join again
    page, signed = await joined(http, base(abot), standin, world.player, instance)
    await page.next(lambda m: m["type"] == "idle", "the channel with no game")
    abot.activity_server.sessions.get(signed["session"]).expires = abot.activity_server.sessions.clock() - 1
    await page.send(type="slap", game=1, n=1)
    assert await page.closed() == SIGN_IN_AGAIN
    again = await open_page(http, base(abot), signed["session"], instance)
    assert (await again.next(lambda m: True, "the answer"))["code"] == "session"


async def test_presses_from_the_page_and_the_buttons_mix_in_one_game(abot, standin, world, http):
    """One Koi-Koi game against the AI: the player presses on the page and on their hand
    message in turn; the page and the message always come to the same state."""
    table_message = await koikoi_against_the_ai(standin, world)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(abot), standin, world.admin, instance)
    pressed, by_page, by_button = -1, 0, 0
    while True:
        state = await page.state(lambda s, after=pressed: s["game"]["over"] or (s["moves"] and s["game"]["seq"] > after),
                                 f"a turn after move {pressed}, or the end")
        if state["game"]["over"]:
            break
        pressed = seq = state["game"]["seq"]
        # the game waits for this player: the table message shows the very move the page shows
        await standin.wait_for(lambda seq=seq: table_move(standin.message(table_message)) == seq,
                               f"the table message at move {seq}")
        if (by_page + by_button) % 2 == 0:
            nonce = await page.press(state)
            assert (await page.answer(nonce))["type"] == "played"
            by_page += 1
        else:
            hand = await standin.wait_for(
                lambda seq=seq: (m := hand_message(standin, world.admin)) and move_of(m) == seq and m,
                f"the hand message offering move {seq}")
            await world.admin.click(hand, controls(hand)[0])
            by_button += 1
    final = await game_over(standin, world.channel)
    assert by_page and by_button, (by_page, by_button)
    # the page asked Discord about its instance once, when it joined: nothing per move
    assert len(standin.requests_to(
        "GET /applications/{application_id}/activity-instances/{instance_id}")) == 1
    game = await abot.store.load_game(state["game"]["id"], scope=world.guild.id)
    assert game.status == "finished" and state["game"]["seq"] == game.last_seq
    # the page's last state and the final table message say the same result
    assert [p["score"] for p in state["players"]] == game.state["match"]["scores"]
    assert state["result"]["text"].split(" · ")[0] in final.text()


@pytest.mark.parametrize("drop", ["before it is stored", "after it is stored"])
async def test_a_press_whose_socket_drops_before_its_answer_is_kept_and_shown_again(
        abot, standin, world, http, monkeypatch, drop):
    """The page's socket drops while its press is under way (the page never hears "played"): the
    press is stored all the same, once, and the page, joined again, is shown the move made."""
    table_message = await koikoi_against_the_ai(standin, world)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, signed = await joined(http, base(abot), standin, world.admin, instance)
    state = await page.state(lambda s: s["moves"], "the player's turn")
    seq, pressing, go = state["game"]["seq"], asyncio.Event(), asyncio.Event()
    press, mine = abot.tables.press, lambda record: [e for e in record.events if e.actor == world.admin.id]
    before = mine(await abot.store.load_game(state["game"]["id"], scope=world.guild.id))

    async def held(*args, **kwargs):  # the socket drops while the press is here
        if drop == "after it is stored":
            shown = await press(*args, **kwargs)
            pressing.set()
            await go.wait()
            return shown
        pressing.set()
        await go.wait()
        return await press(*args, **kwargs)

    monkeypatch.setattr(abot.tables, "press", held)
    ended = abot.activity_server.sockets_ended
    await page.press(state)
    await asyncio.wait_for(pressing.wait(), WAIT)
    await page.ws.close()
    go.set()
    await asyncio.wait_for(abot.activity_server.socket_ended(ended + 1), WAIT)
    game = await abot.store.load_game(state["game"]["id"], scope=world.guild.id)
    assert game.last_seq > seq  # stored, with the AI's answer after it maybe
    again = await open_page(http, base(abot), signed["session"], instance)
    await again.next(lambda m: m["type"] == "welcome", "the welcome")
    await again.state(lambda s: s["game"]["seq"] > seq, "the table after the press")
    await standin.wait_for(lambda: table_move(standin.message(table_message)) > seq,
                           "the table message after the press")
    assert len(mine(game)) == len(before) + 1  # once


@pytest.mark.parametrize("started", ["by a command", "in the Activity"])
async def test_after_a_restart_a_page_signs_in_again_and_sees_the_same_table(
        start_bot, standin, world, tmp_path, http, monkeypatch, started):
    db = tmp_path / "restart.sqlite3"

    def settings(port: int) -> Settings:
        return Settings(token=standin.token, database_path=db, dev_guild_id=world.guild.id,
                        activity_port=port, client_secret=standin.oauth.client_secret)

    # the AI thinks for an hour: nothing moves between the restart and the look at the table
    monkeypatch.setattr(TableManager, "ai_delay", 3600.0)
    first = await start_bot(activity_bot(settings(0)))
    await human_moves_first(first, world)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    if started == "by a command":
        await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
        page, _ = await joined(http, base(first), standin, world.admin, instance)
    else:  # from the page's lobby: the table lives in the Activity alone
        page, _ = await joined(http, base(first), standin, world.admin, instance)
        page.nonce += 1
        await page.send(type="ai", play="koikoi", level="normal", rounds=0, n=page.nonce)
        assert (await page.answer(page.nonce))["type"] == "played"
    state = await page.state(lambda s: s["moves"], "the player's turn")
    nonce = await page.press(state)
    assert (await page.answer(nonce))["type"] == "played"
    before = await page.state(lambda s, seq=state["game"]["seq"]: s["game"]["seq"] == seq + 1, "the move")
    port = first.activity_server.port
    await first.close()
    assert await page.closed() == 1012  # "restarting": the page opens its socket again

    second = await start_bot(activity_bot(settings(port)))
    assert second.activity_server.port == port
    page, signed = await joined(http, base(second), standin, world.admin, instance)
    after = await page.state()
    for part in ("game", "players", "field", "hand", "stock", "log", "you"):
        assert after[part] == before[part], part
    assert signed["session"] not in first.activity_server.sessions._by_token
    await second.publisher.drain()
    assert bool(table_messages(standin, world.channel)) == (started == "by a command")


async def test_a_page_open_before_the_game_shows_it_and_warns_when_time_runs_short(abot, standin, world, http):
    abot.tables.timeout_override = 0.5  # the player never moves: warned, then played for
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(abot), standin, world.admin, instance)
    await page.next(lambda m: m["type"] == "idle", "the channel with no game yet")
    await koikoi_against_the_ai(standin, world)
    state = await page.state(lambda s: s["moves"], "the player's turn")
    # the move's short deadline, set when the turn began (not later than the state was sent)
    assert state["turn"]["deadline"] is not None
    assert state["turn"]["deadline"] <= state["turn"]["now"] + abot.tables.timeout_override
    warn = await page.next(lambda m: m["type"] == "warn", "the warning")
    assert warn["text"].startswith("Hurry:") and warn["seconds"] >= 0
    later = await page.state(lambda s, seq=state["game"]["seq"]: s["game"]["seq"] > seq, "the move played for them")
    assert later["game"]["id"] == state["game"]["id"]


@pytest.mark.parametrize("game, options", [
    ("mushi", {"ai": "easy", "rounds": 1}),
    ("sakura", {"ai": "normal", "rounds": 1}),
    ("hanaawase", {"ai": "normal", "rounds": 1}),
    ("firstbloom", {"ai": "normal", "rounds": 1}),
    ("seotda", {"ai": "normal", "rounds": 1}),
])
async def test_every_other_game_plays_to_its_end_from_a_page(abot, standin, world, http, game, options):
    """The protocol knows no game: the moves are the service's keys, Slap! a message of its own."""
    record = await world.admin.slash(world.channel, game, **options)
    assert record.response_type == 5, record
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(abot), standin, world.admin, instance)
    pressed = slapped = -1
    presses = late = 0
    while True:
        state = await page.state(
            lambda s, p=pressed, r=slapped: s["game"]["over"] or (s["moves"] and s["game"]["seq"] > p)
            or (s["race"] and s["race"]["can_slap"] and s["game"]["seq"] > r),
            f"a turn after move {pressed}, a race or the end")
        if state["game"]["over"]:
            break
        if state["race"] and state["race"]["can_slap"]:
            slapped = state["game"]["seq"]
            page.nonce += 1
            await page.send(type="slap", game=state["game"]["id"], n=page.nonce)
        else:
            pressed = state["game"]["seq"]
            nonce = await page.press(state)
            answer = await page.answer(nonce)
            # a move the game made meanwhile (a forced one) outdates the press: refused, and the
            # newer state comes next, as on a real page
            late += answer["type"] == "refused"
            assert answer["type"] == "played" or "earlier turn" in answer["text"], answer
            presses += 1
        assert presses < 2000
    assert presses > late and state["result"]["text"]
    assert not abot.tables.tables
