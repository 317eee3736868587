"""The loopback fake holds the bot, and itself, to Discord's own OpenAPI description (issue 13):
every request body and every response is validated, violations fail the test, and the traffic
can be logged."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.e2e import discord_spec
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import start_game
from tests.e2e.helpers import answered


def test_the_spec_is_vendored_with_its_license() -> None:
    spec = discord_spec.spec()
    assert spec["openapi"].startswith("3.1") and len(spec["paths"]) > 100
    license_text = (discord_spec.SPEC_PATH.parent / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "Discord" in license_text


def test_routes_follow_the_specs_templates_literal_parts_first() -> None:
    assert discord_spec.route("/channels/12/messages/34") == (
        "/channels/{channel_id}/messages/{message_id}"
    )
    assert (
        discord_spec.route("/channels/12/messages/pins") == "/channels/{channel_id}/messages/pins"
    )
    assert discord_spec.route("/webhooks/1/abc/messages/@original") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert discord_spec.route("/no/such/route") is None


def test_request_bodies_are_checked_with_integer_snowflakes_as_strings() -> None:
    good = {"content": "hi", "attachments": [{"id": 0, "filename": "board.png"}]}
    assert discord_spec.request_errors("POST", "/channels/1/messages", good) == []
    bad = {"content": "hi", "embeds": [{"title": "t" * 257}]}
    (error,) = discord_spec.request_errors("POST", "/channels/1/messages", bad)
    assert error.startswith("POST /channels/{channel_id}/messages request $.embeds[0].title: ")
    assert error.endswith("is too long")
    wrong = {"content": 5}
    assert discord_spec.request_errors("POST", "/channels/1/messages", wrong) == [
        "POST /channels/{channel_id}/messages request $.content: 5 is not of type 'string', 'null'"
    ]


def test_responses_are_checked_for_their_route_and_status() -> None:
    user = {"id": "1", "username": "a", "avatar": None, "discriminator": "0",
            "public_flags": 0, "global_name": None}  # fmt: skip
    errors = discord_spec.response_errors("GET", "/users/1", 200, user)
    assert errors == [
        "GET /users/{user_id} 200 response $: 'flags' is a required property",
        "GET /users/{user_id} 200 response $: 'primary_guild' is a required property",
    ]
    full = {**user, "flags": 0, "primary_guild": None}
    assert discord_spec.response_errors("GET", "/users/1", 200, full) == []


async def test_a_game_through_the_fake_breaks_no_rule_of_the_spec_and_is_logged(
    fake: FakeDiscord, bot_process, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "traffic.jsonl"
    fake.traffic_path = str(log)
    await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=1)
    it = await answered(await fake.click(alice, msg, msg.find_button(label="Game log")))
    assert it.ephemeral
    assert await fake.spec_report() == []  # and the fixture checks the rest of the test too
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert {tuple(sorted(line)) for line in lines} == {
        ("body", "files", "method", "path", "status")
    }
    posts = [line for line in lines if line["method"] == "POST" and line["path"] == (
        f"/channels/{msg.channel_id}/messages")]  # fmt: skip
    assert posts and posts[0]["files"] == 1 and posts[0]["status"] == 200
    assert posts[0]["body"]["attachments"][0]["filename"] == "board.png"
    assert posts[0]["body"]["attachments"][0]["description"].startswith("Photosynthesis board")
    threads = [
        line for line in lines if line["path"].endswith(f"/messages/{msg.channel_id}/threads")
    ]
    assert (
        len(threads) == 1 and threads[0]["body"]["name"] == "Photosynthesis #1: Alice, Bob, Cynthia"
    )
    callbacks = [line for line in lines if line["path"].endswith("/callback")]
    assert callbacks and all(line["status"] in (200, 204) for line in callbacks)
    assert not any(line["status"] >= 400 for line in lines)


async def _call(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request to the fake as the bot would make it: (status, JSON answer)."""
    url = f"{fake.base_url}/api/v10{path}"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


async def test_a_bad_request_is_answered_400_50035_and_recorded_for_the_fixture() -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        path = f"/channels/{fake.default_channel_id}/messages"
        status, answer = await _call(fake, "POST", path, {"content": 7, "tts": "yes"})
        ok_status, _ = await _call(fake, "POST", path, {"content": "fine"})
    finally:
        await fake.stop()
    assert status == 400 and ok_status == 200
    assert answer == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {
            "content": {
                "_errors": [
                    {
                        "code": 50035,
                        "message": "BASE_TYPE_INVALID: 7 is not of type 'string', 'null'",
                    }
                ]
            },
            "tts": {
                "_errors": [
                    {
                        "code": 50035,
                        "message": "BASE_TYPE_INVALID: 'yes' is not of type 'boolean', 'null'",
                    }
                ]
            },
        },
    }
    assert fake.spec_violations == [
        "POST /channels/{channel_id}/messages request $.content: 7 is not of type 'string', 'null'",
        "POST /channels/{channel_id}/messages request $.tts: 'yes' is not of type 'boolean', 'null'",
    ]
    assert [m.content for m in fake.messages(fake.default_channel_id)] == ["fine"]


async def test_a_bad_response_of_the_fake_is_recorded_for_the_fixture() -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        del fake.bot_user["flags"]  # as the fake answered users before issue 13
        status, answer = await _call(fake, "GET", "/users/@me")
        missing_status, _ = await _call(fake, "GET", "/channels/404")
    finally:
        await fake.stop()
    assert status == 200 and "flags" not in answer and missing_status == 404
    assert fake.spec_violations == ["GET /users/@me 200 response $: 'flags' is a required property"]


def test_error_answers_are_checked_against_the_specs_shared_error_response() -> None:
    errors = discord_spec.response_errors(
        "GET", "/channels/1", 404, {"code": 10003, "message": "Unknown Channel"}
    )
    assert errors == []
    bad = {"code": 50035, "message": "Invalid Form Body", "errors": {"_errors": [{"message": "x"}]}}
    (error,) = discord_spec.response_errors("POST", "/channels/1/messages", 400, bad)
    assert error.startswith("POST /channels/{channel_id}/messages 400 response $.errors")


async def test_interaction_payloads_are_checked_part_by_part() -> None:
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("alice")
    payload = {
        "type": 9,  # no such interaction type
        "context": 0,
        "user": alice,
        "entitlements": [],
        "data": {"resolved": {"roles": {"5": {"id": "5", "name": "mods"}}}},
    }
    try:
        fake._check_interaction(payload)
        found = await fake.spec_report()
    finally:
        await fake.stop()
    assert (
        found[0]
        == "INTERACTION_CREATE InteractionTypes $: 9 is not valid under any of the given schemas"
    )
    roles = found[1:]  # the role lacks most of its fields: the first few are reported
    assert len(roles) == discord_spec.MAX_ERRORS
    assert "INTERACTION_CREATE GuildRoleResponse $: 'permissions' is a required property" in roles
    assert all(r.startswith("INTERACTION_CREATE GuildRoleResponse $: '") for r in roles)
    assert discord_spec.schema_errors("UserResponse", alice) == []


def test_no_keyword_of_the_spec_answers_by_more_than_its_schema_and_value() -> None:
    """The memoised check (`discord_spec._Checker`) keeps whether a value is valid under each
    schema the spec refers to: right only while no keyword looks beyond the schema and the value
    (``unevaluated*`` looks at its siblings' results, ``$dynamicRef`` at the path taken) and every
    ``$ref`` points into the spec itself."""
    keywords: set[str] = set()
    refs: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keywords.update(node.keys() & {"unevaluatedProperties", "unevaluatedItems",
                                           "$dynamicRef", "$recursiveRef", "$id"})  # fmt: skip
            if isinstance(node.get("$ref"), str):
                refs.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(discord_spec.spec())
    assert keywords == set()
    assert len(refs) > 100 and all(isinstance(discord_spec._target(r), dict) for r in refs)


def _broken(value: Any) -> list[Any]:
    """`value` broken one way at a time: each key dropped, each leaf of another type, each text
    too long, each list emptied and doubled."""
    out: list[Any] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append({k: v for k, v in value.items() if k != key})
            out += [{**value, key: changed} for changed in _broken(item)]
    elif isinstance(value, list):
        out += [[], value * 2]
        for i, item in enumerate(value):
            out += [[*value[:i], changed, *value[i + 1 :]] for changed in _broken(item)]
    elif isinstance(value, str):
        out += [value * 1000, 7, None]
    elif isinstance(value, bool) or value is None:
        out += ["yes", 2]
    elif isinstance(value, int | float):
        out += [-value - 1, value * 10**6, "7", 0.5]
    return out


def test_the_memoised_check_agrees_with_jsonschema_on_good_and_broken_bodies() -> None:
    """Whether a body is valid is the same through the memoised check as through jsonschema
    itself, for a message with embeds and components and for hundreds of broken copies."""
    message = {
        "content": "Alice to play",
        "embeds": [
            {
                "title": "Photosynthesis",
                "description": "Round 3",
                "color": 3066993,
                "fields": [{"name": "Turn", "value": "<@1>", "inline": False}],
                "footer": {"text": "action 4 of 9"},
                "image": {"url": "attachment://board.png"},
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Take my turn", "custom_id": "ps:turn:1"},
                    {"type": 2, "style": 2, "label": "Game log", "custom_id": "ps:log:1"},
                ],
            },
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": "ps:pick:1",
                        "options": [{"label": "grow D4", "value": "grow D4", "default": False}],
                        "min_values": 1,
                        "max_values": 1,
                    }
                ],
            },
        ],
        "attachments": [{"id": "0", "filename": "board.png", "description": "The board"}],
        "allowed_mentions": {"parse": [], "users": ["1"]},
    }
    validator = discord_spec._validator("/channels/{channel_id}/messages", "post", "request")
    assert validator is not None
    checker = discord_spec._checker(validator)
    bodies = [message, *_broken(message)]
    verdicts = [validator.is_valid(body) for body in bodies]
    assert verdicts[0] and not all(verdicts)  # the message is valid, some broken ones are not
    assert [checker.is_valid(body) for body in bodies] == verdicts
    assert [checker.is_valid(body) for body in bodies] == verdicts  # memoised: the same again
