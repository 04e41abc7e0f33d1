"""The Activity socket's checks, alone: what a message may look like, how fast a page may send,
and how long a session lives."""

from __future__ import annotations

import json

import pytest

from bot.activity import protocol
from bot.activity.protocol import BURST, RATE, STRIKES, Bucket, Refused, parse
from bot.activity.sessions import SESSIONS_PER_USER, Sessions

PRESS = {"type": "press", "game": 3, "seq": 4, "key": "#0", "n": 1}


def test_the_messages_a_page_sends_are_read():
    assert parse(json.dumps(PRESS)).fields == {"game": 3, "seq": 4, "key": "#0", "n": 1}
    assert parse(json.dumps({"type": "slap", "game": 3, "n": 9})).type == "slap"
    assert parse(json.dumps({"type": "hint", "game": 3, "n": 10})).fields == {"game": 3, "n": 10}
    assert parse(json.dumps({"type": "rules", "play": "koikoi", "n": 11})).fields == {"play": "koikoi", "n": 11}
    assert parse(json.dumps({"type": "again", "n": 11})).type in protocol.LOBBY
    assert parse(json.dumps({"type": "unseat", "n": 12})).type in protocol.LOBBY
    hello = parse(json.dumps({"type": "hello", "v": 1, "session": "s" * 43, "instance": "i-1-gc-2-3"}))
    assert hello["instance"] == "i-1-gc-2-3"
    for key in ("play:crane>pine_chaff_1", "koikoi", "#999", "go_stop:x+y"):
        assert parse(json.dumps({**PRESS, "key": key}))["key"] == key


@pytest.mark.parametrize("message, code", [
    ("not json", "shape"),
    ("[1, 2]", "shape"),
    (json.dumps({**PRESS, "seat": 0}), "shape"),  # a seat is never the page's to name
    (json.dumps({k: v for k, v in PRESS.items() if k != "n"}), "shape"),
    (json.dumps({**PRESS, "game": "3"}), "shape"),
    (json.dumps({**PRESS, "game": True}), "shape"),
    (json.dumps({**PRESS, "seq": -1}), "shape"),
    (json.dumps({**PRESS, "n": 2**53}), "shape"),
    (json.dumps({**PRESS, "game": 1.5}), "shape"),
    (json.dumps({**PRESS, "type": "cancel"}), "shape"),
    (json.dumps({**PRESS, "key": ""}), "shape"),
    (json.dumps({**PRESS, "key": "#"}), "key"),
    (json.dumps({**PRESS, "key": "#1000"}), "key"),
    (json.dumps({**PRESS, "key": "play crane"}), "key"),
    (json.dumps({"type": "hello", "v": 2, "session": "s", "instance": "i"}), "version"),
    (json.dumps({"type": "hello", "v": 1, "session": "", "instance": "i"}), "shape"),
    (json.dumps({**PRESS, "key": "x" * 3000}), "size"),
    (json.dumps({"type": "hint", "game": 3, "n": 10, "seat": 1}), "shape"),  # a hint names no seat
    (json.dumps({"type": "hint", "game": 3, "n": 10, "rollouts": 10**6}), "shape"),  # nor its budget
    (json.dumps({"type": "hint", "n": 10}), "shape"),
    (json.dumps({"type": "rules", "play": "koikoi", "n": 10, "language": "fr"}), "shape"),  # the page's own
    (json.dumps({"type": "rules", "play": "k" * 201, "n": 10}), "shape"),
    (json.dumps({"type": "again", "game": 3, "n": 11}), "shape"),  # a rematch names no game
])
def test_anything_else_is_refused_with_a_code(message, code):
    with pytest.raises(Refused) as refused:
        parse(message)
    assert refused.value.code == code


def test_a_page_may_burst_then_keep_a_rate_and_strikes_add_up():
    bucket = Bucket(now=0.0)
    assert all(bucket.take(0.0) for _ in range(BURST))
    assert not bucket.take(0.0) and bucket.strikes == 1
    assert bucket.take(1 / RATE)  # a token comes back at the rate
    assert not bucket.take(1 / RATE)
    for _ in range(STRIKES - 2):
        assert not bucket.take(1 / RATE)
    assert bucket.abusive
    assert protocol.MAX_MESSAGE < 1 << 20


def test_sessions_expire_and_a_user_holds_only_a_few():
    now = [0.0]
    sessions = Sessions(lifetime=60, clock=lambda: now[0])
    first = sessions.create(5, "ann", "ja")
    assert sessions.get(first.token) is first
    now[0] = 59.9
    assert sessions.get(first.token) is first
    now[0] = 60
    assert sessions.get(first.token) is None and len(sessions) == 0
    made = [sessions.create(5, "ann", "ja") for _ in range(SESSIONS_PER_USER + 2)]
    assert len(sessions) == SESSIONS_PER_USER
    assert sessions.get(made[0].token) is None and sessions.get(made[-1].token) is made[-1]
    assert len({s.token for s in made}) == len(made)
    other = sessions.create(6, "bo", "en")
    sessions.revoke(other)
    assert sessions.get(other.token) is None
