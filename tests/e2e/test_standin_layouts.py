"""The stand-in refuses laid-out messages (Components V2) as Discord does: content or embeds
beside the flag, more than 40 components, more than 4000 characters of text, a picture naming
no attachment, the flag taken off again, and new components without the flag. Driven with raw
HTTP, like tests/e2e/test_standin_checks.py."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.discord_standin import StandIn
from tests.discord_standin.layouts import MESSAGE_FLAG_COMPONENTS_V2 as V2

QUIET = {"allowed_mentions": {"parse": []}}
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


@pytest.fixture
async def http(standin: StandIn):
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {standin.token}"}) as session:
        yield session


@pytest.fixture
def channel(standin: StandIn):
    return standin.create_channel(standin.create_guild("Layouts"), "general")


def text(content: str) -> dict:
    return {"type": 10, "content": content}


def container(*children: dict) -> dict:
    return {"type": 17, "components": list(children)}


def picture(name: str, description: str = "the table") -> dict:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}, "description": description}]}


def button(custom_id: str) -> dict:
    return {"type": 2, "style": 2, "label": custom_id, "custom_id": custom_id}


async def send(http, url: str, body: dict, files: dict[str, bytes] | None = None, method: str = "POST"):
    """A request as discord.py makes it: JSON, or multipart with the files beside the payload."""
    body = {**QUIET, **body}
    if files:
        body["attachments"] = [{"id": i, "filename": name} for i, name in enumerate(files)]
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, data) in enumerate(files.items()):
            form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
        request = http.request(method, url, data=form)
    else:
        request = http.request(method, url, json=body)
    async with request as resp:
        return resp.status, await resp.json()


async def test_a_laid_out_message_with_its_picture_is_taken_and_returned_unfurled(standin, http, channel):
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    body = {"flags": V2, "components": [container(text("## Koi-Koi"), picture("table.png"),
                                                  {"type": 1, "components": [button("hf:hand:1")]})]}
    status, data = await send(http, url, body, {"table.png": PNG})
    assert status == 200, data
    [item] = data["components"][0]["components"][1]["items"]
    assert item["media"]["attachment_id"] == data["attachments"][0]["id"]  # as Discord returns it
    [message] = standin.channel_messages(channel)
    assert message.laid_out and message.text() == "## Koi-Koi\nthe table"
    assert message.custom_ids() == ["hf:hand:1"]
    assert standin.take_violations() == []


@pytest.mark.parametrize(("body", "why"), [
    ({"flags": V2, "content": "hello", "components": [container(text("x"))]}, "content cannot"),
    ({"flags": V2, "embeds": [{"title": "t"}], "components": [container(text("x"))]}, "embeds cannot"),
    ({"flags": V2, "components": [container(*[text("x")] * 20), container(*[text("y")] * 20)]}, "42 components"),
    ({"flags": V2, "components": [container(text("x" * 2001), text("y" * 2000))]}, "4001 characters"),
    ({"flags": V2, "components": [container(picture("hand.png"))]}, "names no attachment"),
    ({"components": [container(text("x"))]}, "need the IS_COMPONENTS_V2 flag"),
    ({"content": "x", "components": [{"type": 1, "components": [button(f"b{i}")]} for i in range(6)]},
     "6 action rows"),
])
async def test_what_discord_refuses_in_a_laid_out_message_is_refused(standin, http, channel, body, why):
    status, data = await send(http, f"{standin.api_url}/channels/{channel.id}/messages", body)
    assert status == 400 and data["code"] == 50035, data
    [violation] = standin.take_violations()
    assert violation.kind == "components" and why in violation.detail, violation.detail
    assert standin.channel_messages(channel) == []


async def test_an_old_message_becomes_laid_out_once_and_stays_so(standin, http, channel):
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    status, old = await send(http, url, {"embeds": [{"title": "Koi-Koi"}],
                                         "components": [{"type": 1, "components": [button("hf:hand:1")]}]})
    assert status == 200
    edit = f"{url}/{old['id']}"
    # an edit that keeps the embed beside the flag is refused, and changes nothing
    status, _ = await send(http, edit, {"flags": V2, "components": [container(text("## Koi-Koi"))]}, method="PATCH")
    assert status == 400 and standin.take_violations()[0].detail.startswith("embeds cannot")
    # clearing content and embeds as it sets the flag is how a message is laid out anew
    status, data = await send(http, edit, {"flags": V2, "content": None, "embeds": [],
                                           "components": [container(text("## Koi-Koi"))]}, method="PATCH")
    assert status == 200 and data["flags"] & V2 and data["embeds"] == []
    status, _ = await send(http, edit, {"flags": 0, "content": "back", "components": []}, method="PATCH")
    assert status == 400 and "cannot be removed" in standin.take_violations()[0].detail
    [message] = standin.channel_messages(channel)
    assert message.laid_out and message.text() == "## Koi-Koi"
