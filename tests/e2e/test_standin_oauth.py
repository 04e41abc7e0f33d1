"""The stand-in's OAuth2 side, which an Activity's sign-in meets: the token URL the spec's OAuth2
scheme names, calls with a user's bearer token only where the spec allows them and with the
scopes it names, and the Activity instances; its answers are checked against the spec."""

from __future__ import annotations

import aiohttp
import pytest

from tests.discord_standin.oauth import OAuth

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


def form(standin, **fields) -> dict:
    return {"client_id": str(standin.application_id), "client_secret": standin.oauth.client_secret,
            "grant_type": "authorization_code", **fields}


async def test_a_code_becomes_a_token_once_and_the_token_says_who(standin, world, http):
    assert standin.oauth.token_path == "/oauth2/token"  # the spec's tokenUrl, under the API base
    code = standin.oauth.authorize(world.player)
    async with http.post(f"{standin.api_url}/oauth2/token", data=form(standin, code=code)) as response:
        token = await response.json()
    assert response.status == 200 and token["token_type"] == "Bearer" and token["scope"] == "identify"
    async with http.post(f"{standin.api_url}/oauth2/token", data=form(standin, code=code)) as response:
        assert response.status == 400 and (await response.json())["error"] == "invalid_grant"
    bearer = {"Authorization": f"Bearer {token['access_token']}"}
    async with http.get(f"{standin.api_url}/users/@me", headers=bearer) as response:
        me = await response.json()
    assert me["id"] == str(world.player.id) and me["locale"] == "en-US"
    assert standin.spec.validate_response(standin.spec.find("GET", "/users/@me")[0], me) is None
    # a wrong secret, another grant, a body that is not a form
    async with http.post(f"{standin.api_url}/oauth2/token",
                         data=form(standin, code="x", client_secret="guess")) as response:
        assert response.status == 401 and (await response.json())["error"] == "invalid_client"
    async with http.post(f"{standin.api_url}/oauth2/token",
                         data=form(standin, code="x", grant_type="password")) as response:
        assert response.status == 400 and (await response.json())["error"] == "unsupported_grant_type"
    async with http.post(f"{standin.api_url}/oauth2/token", json=form(standin, code="x")) as response:
        assert response.status == 400
    kinds = [v.kind for v in standin.take_violations()]
    assert kinds == ["invalid-body", "invalid-body"]


async def test_a_bearer_token_reaches_only_what_the_spec_opens_to_it(standin, world, http):
    grant_code = standin.oauth.authorize(world.player, scopes=("guilds",))
    async with http.post(f"{standin.api_url}/oauth2/token", data=form(standin, code=grant_code)) as response:
        token = (await response.json())["access_token"]
    bearer = {"Authorization": f"Bearer {token}"}
    async with http.get(f"{standin.api_url}/users/@me", headers=bearer) as response:
        assert response.status == 403  # /users/@me needs identify
    async with http.get(f"{standin.api_url}/channels/{world.channel.id}", headers=bearer) as response:
        assert response.status == 401  # a bot's route
    async with http.get(f"{standin.api_url}/users/@me", headers={"Authorization": "Bearer nope"}) as response:
        assert response.status == 401
    assert [v.kind for v in standin.take_violations()] == ["unauthorized", "unauthorized"]
    with pytest.raises(ValueError, match="not in the spec's OAuth2 scopes"):
        standin.oauth.authorize(world.player, scopes=("everything",))


async def test_an_activity_instance_says_where_it_runs_and_who_is_in_it(standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin)
    standin.oauth.join_activity(instance, world.player)
    bot = {"Authorization": f"Bot {standin.token}"}
    path = f"/applications/{standin.application_id}/activity-instances"
    async with http.get(f"{standin.api_url}{path}/{instance}", headers=bot) as response:
        found = await response.json()
    assert found["location"] == {"id": f"gc-{world.channel.id}", "kind": "gc",
                                 "channel_id": str(world.channel.id), "guild_id": str(world.guild.id)}
    assert set(found["users"]) == {str(world.admin.id), str(world.player.id)}
    async with http.get(f"{standin.api_url}{path}/i-unknown", headers=bot) as response:
        assert response.status == 404
    assert isinstance(standin.oauth, OAuth) and not standin.violations
