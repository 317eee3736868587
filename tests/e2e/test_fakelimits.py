"""Self-tests of Discord's limits in the loopback fake (``tests/e2e/fakelimits.py``): rate-limit
buckets and their headers, the global limit, invalid requests, the 3-second and 15-minute
deadlines of interactions, scheduled REST and gateway faults; with plain HTTP and gateway
connections, and with a real discord.py client (the minibot) where its own handling matters."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.e2e import discord_spec
from tests.e2e.fakediscord import (
    DEFAULT_INTERACTION_DEADLINE_S,
    INTERACTION_DEADLINE_S,
    BotProcess,
    FakeDiscord,
    Perm,
)
from tests.e2e.fakelimits import BUCKET_LIMITS, DISCORD_MESSAGE_SEND_LIMIT, Limit

MINIBOT = "tests.e2e.minibot"
COMMAND = {"name": "mini", "description": "a command", "type": 1}


class Answer:
    """One HTTP answer: status, headers, JSON body (None if it had none)."""

    def __init__(self, status: int, headers: Any, body: Any) -> None:
        self.status, self.headers, self.body = status, headers, body


class Rest:
    """Plain HTTP requests to the fake's API, with or without the bot's token."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http

    async def __call__(
        self, method: str, path: str, body: Any = None, *, token: str | None = ""
    ) -> Answer:
        token = self.fake.token if token == "" else token
        headers = {"Authorization": f"Bot {token}"} if token else {}
        url = self.fake.api_base + path
        async with self.http.request(method, url, json=body, headers=headers) as answer:
            raw = await answer.read()
            data = json.loads(raw) if raw else None
            return Answer(answer.status, answer.headers, data)

    async def post(self, channel_id: str, content: str = "hi") -> Answer:
        return await self("POST", f"/channels/{channel_id}/messages", {"content": content})


def test_the_limits_are_on_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAKE_DISCORD_RATE_LIMITS", raising=False)
    assert FakeDiscord().limits.enabled
    monkeypatch.setenv("FAKE_DISCORD_RATE_LIMITS", "0")
    assert not FakeDiscord().limits.enabled


@pytest.fixture
async def rest(fake: FakeDiscord) -> Any:
    async with aiohttp.ClientSession() as http:
        yield Rest(fake, http)


class Gateway:
    """A raw gateway connection that records every frame it gets."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.frames: list[dict] = []

    async def connect(self, http: aiohttp.ClientSession, url: str | None = None) -> Gateway:
        self.ws = await http.ws_connect(url or self.fake.gateway_url)
        self.hello = await self.ws.receive_json()
        self.reader = asyncio.create_task(self._read())
        return self

    async def identify(self) -> dict:
        await self.send(2, {"token": self.fake.token, "intents": 1, "properties": {}})
        (ready,) = await self.wait_events("READY")
        return ready

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_json({"op": op, "d": data})

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))
                await self.fake._notify()
        await self.fake._notify()

    def events(self, name: str) -> list[dict]:
        return [f["d"] for f in self.frames if f["op"] == 0 and f["t"] == name]

    def ops(self, op: int) -> list[dict]:
        return [f for f in self.frames if f["op"] == op]

    async def wait_events(self, name: str, count: int = 1) -> list[dict]:
        await self.fake.wait_until(lambda: len(self.events(name)) >= count, 10, name)
        return self.events(name)

    async def closed(self) -> int | None:
        await asyncio.wait_for(self.reader, 10)
        return self.ws.close_code

    async def close(self, code: int = 1000) -> None:
        await self.ws.close(code=code)
        await self.reader


# -- rate-limit buckets ------------------------------------------------------------------------


def test_rate_limit_headers_are_checked_against_the_spec() -> None:
    good = {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "1796000000.250",
        "X-RateLimit-Reset-After": "0.250",
        "X-RateLimit-Bucket": "message-create",
    }
    for status in (200, 404, 429):
        assert discord_spec.header_errors("POST", "/channels/1/messages", status, good) == []
    bad = {**good, "X-RateLimit-Limit": "5.0", "X-RateLimit-Reset-After": "soon"}
    where = "POST /channels/{channel_id}/messages 429 header"
    assert discord_spec.header_errors("POST", "/channels/1/messages", 429, bad) == [
        f"{where} X-RateLimit-Limit: '5.0' is not of type 'integer'",
        f"{where} X-RateLimit-Reset-After: 'soon' is not of type 'number'",
    ]


async def test_message_sends_are_limited_per_channel_with_discords_headers(
    fake: FakeDiscord, rest: Rest
) -> None:
    assert BUCKET_LIMITS["message-create"] == DISCORD_MESSAGE_SEND_LIMIT == Limit(5, 5.0)
    fake.clock.freeze()
    games = fake.add_channel("games")
    answers = [await rest.post(fake.default_channel_id, f"m{i}") for i in range(5)]
    assert [a.status for a in answers] == [200] * 5
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
    first = answers[0].headers
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Bucket"] == "message-create"
    assert first["X-RateLimit-Reset-After"] == "5.000"
    assert float(first["X-RateLimit-Reset"]) == pytest.approx(fake.clock.wall() + 5, abs=0.01)
    assert "X-RateLimit-Scope" not in first and first["Via"] == "1.1 google"
    assert fake.limits.exhausted == [f"POST /channels/{fake.default_channel_id}/messages"]

    fake.clock.advance(2.5)
    over = await rest.post(fake.default_channel_id, "m5")
    assert over.status == 429
    assert over.body == {
        "message": "You are being rate limited.",
        "retry_after": 2.5,
        "global": False,
        "code": 0,
    }
    assert over.headers["Retry-After"] == "3" and over.headers["X-RateLimit-Scope"] == "user"
    assert over.headers["X-RateLimit-Remaining"] == "0"
    assert over.headers["X-RateLimit-Reset-After"] == "2.500"
    assert "X-RateLimit-Global" not in over.headers
    assert [m.content for m in fake.messages()] == [f"m{i}" for i in range(5)]  # not served

    # Another channel is another bucket (its major parameter); the window ends after 5 s.
    other = await rest.post(games, "g0")
    assert other.status == 200 and other.headers["X-RateLimit-Remaining"] == "4"
    fake.clock.advance(2.5)
    again = await rest.post(fake.default_channel_id, "m6")
    assert again.status == 200 and again.headers["X-RateLimit-Remaining"] == "4"
    assert fake.limits.rate_limited == [
        (f"POST /channels/{fake.default_channel_id}/messages", "user", 2.5)
    ]
    assert fake.invalid_requests_last_10min() == 1
    assert await fake.spec_report() == []


async def test_buckets_by_route_and_major_parameter(fake: FakeDiscord, rest: Rest) -> None:
    fake.clock.freeze()
    message = (await rest.post(fake.default_channel_id)).body["id"]
    path = f"/channels/{fake.default_channel_id}/messages/{message}"
    edits = [await rest("PATCH", path, {"content": f"e{i}"}) for i in range(6)]
    assert [e.status for e in edits] == [200] * 5 + [429]
    assert {e.headers["X-RateLimit-Bucket"] for e in edits} == {"message-edit"}
    # Routes outside the table share the default bucket: 5 a second per major parameter.
    gets = [await rest("GET", f"/channels/{fake.default_channel_id}") for _ in range(6)]
    assert [g.status for g in gets] == [200] * 5 + [429]
    assert gets[0].headers["X-RateLimit-Bucket"] == "default"
    assert gets[0].headers["X-RateLimit-Reset-After"] == "1.000"
    me = await rest("GET", "/users/@me")  # no major parameter: a bucket of its own
    assert me.status == 200 and me.headers["X-RateLimit-Remaining"] == "4"
    # A configured limit (per fake) replaces the default one.
    fake.limits.limits["message-create"] = Limit(1, 10.0)
    games = fake.add_channel("games")
    assert [(await rest.post(games)).status for _ in range(2)] == [200, 429]


async def test_global_limit_of_50_a_second_spares_interaction_endpoints(
    fake: FakeDiscord, rest: Rest
) -> None:
    fake.clock.freeze()
    channels = [fake.add_channel(f"c{i}") for i in range(11)]
    answers = [await rest("GET", f"/channels/{c}") for c in channels for _ in range(5)]
    assert [a.status for a in answers[:50]] == [200] * 50
    over = answers[50]
    assert over.status == 429
    assert over.body == {
        "message": "You are being rate limited.",
        "retry_after": 1.0,
        "global": True,
        "code": 0,
    }
    assert over.headers["X-RateLimit-Global"] == "true"
    assert over.headers["X-RateLimit-Scope"] == "global" and over.headers["Retry-After"] == "1"
    # The interaction endpoints are not bound to it: an unknown interaction is a 404 there.
    callback = await rest("POST", "/interactions/1/nope/callback", {"type": 1}, token=None)
    assert callback.status == 404 and callback.body["code"] == 10062
    webhook = await rest("POST", f"/webhooks/{fake.application_id}/nope", {"content": "x"})
    assert webhook.status == 404 and webhook.body["code"] == 10015
    fake.clock.advance(1.0)
    assert (await rest("GET", f"/channels/{channels[0]}")).status == 200


# -- invalid requests --------------------------------------------------------------------------


async def test_invalid_requests_are_counted_for_ten_minutes(fake: FakeDiscord, rest: Rest) -> None:
    fake.clock.freeze()
    secret = fake.add_channel("secret")
    fake.deny_bot(secret, Perm.SEND_MESSAGES)
    assert (await rest("GET", "/users/@me", token="wrong")).status == 401
    forbidden = await rest.post(secret)
    assert forbidden.status == 403 and forbidden.body["code"] == 50013
    assert (await rest("GET", "/channels/999/messages/1")).status == 404  # not invalid
    assert fake.invalid_requests_last_10min() == 2
    # A resource's own (shared) limit is no invalid request; the user's bucket is.
    fake.limits.share_limit("message-create", fake.default_channel_id, 30)
    shared = await rest.post(fake.default_channel_id)
    assert shared.status == 429 and shared.headers["X-RateLimit-Scope"] == "shared"
    assert shared.body["global"] is False and shared.body["retry_after"] == 30.0
    assert fake.invalid_requests_last_10min() == 2
    fake.clock.advance(300)
    for _ in range(6):
        await rest.post(fake.default_channel_id)
    assert fake.invalid_requests_last_10min() == 3  # the sixth send (5 per 5 s)
    fake.clock.advance(301)  # the first two are older than 10 minutes now
    assert fake.invalid_requests_last_10min() == 1
    assert [status for _, _, status in fake.limits.invalid] == [401, 403, 429]


# -- interaction deadlines ---------------------------------------------------------------------


async def _raw_bot(fake: FakeDiscord, http: aiohttp.ClientSession) -> Gateway:
    """A gateway connection with the command ``/mini`` synced, standing in for a bot."""
    rest = Rest(fake, http)
    synced = await rest("PUT", f"/applications/{fake.application_id}/commands", [COMMAND])
    assert synced.status == 200
    gateway = await Gateway(fake).connect(http)
    await gateway.identify()
    return gateway


async def test_first_answer_after_three_seconds_is_unknown_interaction(
    fake: FakeDiscord, rest: Rest
) -> None:
    fake.interaction_deadline = INTERACTION_DEADLINE_S  # Discord's
    alice = fake.add_user("alice")
    gateway = await _raw_bot(fake, rest.http)
    fake.clock.freeze()
    try:
        late, on_time = await fake.slash(alice, "mini"), await fake.slash(alice, "mini")
        fake.clock.advance(3.01)
        on_time.created = fake.clock() - 2.9  # sent 2.9 s ago
        answer = {"type": 4, "data": {"content": "hi"}}
        refused = await rest("POST", f"/interactions/{late.id}/{late.token}/callback", answer)
        assert refused.status == 404
        assert refused.body == {"code": 10062, "message": "Unknown interaction"}
        assert fake.late_interactions == [late] and not late.acknowledged
        served = await rest("POST", f"/interactions/{on_time.id}/{on_time.token}/callback", answer)
        assert served.status == 204 and on_time.content == "hi"
    finally:
        await gateway.close()


async def test_follow_up_after_fifteen_minutes_is_an_expired_token(
    fake: FakeDiscord, rest: Rest
) -> None:
    alice = fake.add_user("alice")
    gateway = await _raw_bot(fake, rest.http)
    try:
        it = await fake.slash(alice, "mini")
        url = f"/interactions/{it.id}/{it.token}/callback"
        assert (await rest("POST", url, {"type": 5}, token=None)).status == 204
        webhook = f"/webhooks/{fake.application_id}/{it.token}"
        fake.clock.advance(14 * 60)
        first = await rest("POST", webhook, {"content": "in time"}, token=None)
        assert first.status == 200 and it.content == "in time"
        fake.clock.advance(60.01)
        expired = await rest("POST", webhook, {"content": "too late"}, token=None)
        assert expired.status == 401
        assert expired.body == {"code": 50027, "message": "Invalid Webhook Token"}
        edit = await rest("PATCH", webhook + "/messages/@original", {"content": "x"}, token=None)
        assert edit.status == 401 and fake.expired_tokens == [it, it]
        assert it.content == "in time" and it.followups == []
        assert fake.invalid_requests_last_10min() == 2
    finally:
        await gateway.close()


async def test_the_default_deadline_is_discords_and_lists_late_answers(
    fake: FakeDiscord, rest: Rest
) -> None:
    assert fake.interaction_deadline == DEFAULT_INTERACTION_DEADLINE_S == 3.0
    alice = fake.add_user("alice")
    gateway = await _raw_bot(fake, rest.http)
    fake.clock.freeze()
    try:
        quick, late = [await fake.slash(alice, "mini") for _ in range(2)]
        answer = {"type": 4, "data": {"content": "hi"}}
        fake.clock.advance(2.99)
        url = f"/interactions/{quick.id}/{quick.token}/callback"
        assert (await rest("POST", url, answer, token=None)).status == 204
        fake.clock.advance(0.02)
        url = f"/interactions/{late.id}/{late.token}/callback"
        refused = await rest("POST", url, answer, token=None)
        assert refused.status == 404 and refused.body["code"] == 10062
        assert fake.late_interactions == [late] and not late.acknowledged
    finally:
        await gateway.close()


# -- REST faults -------------------------------------------------------------------------------


async def test_rest_outage_for_a_stretch_of_seconds(fake: FakeDiscord, rest: Rest) -> None:
    fake.clock.freeze()
    for status, message in [
        (500, "500: Internal Server Error"),
        (502, "502: Bad Gateway"),
        (503, "503: Service Unavailable"),
        (504, "504: Gateway Timeout"),
    ]:
        fake.schedule_rest_outage(status, 10)
        down = await rest.post(fake.default_channel_id, str(status))
        assert down.status == status and down.body == {"code": 0, "message": message}
        fake.clock.advance(10)
    up = await rest.post(fake.default_channel_id, "up")
    assert up.status == 200 and [m.content for m in fake.messages()] == ["up"]
    # An outage may hit some paths only.
    fake.schedule_rest_outage(503, 5, prefix="/channels/")
    assert (await rest.post(fake.default_channel_id)).status == 503
    assert (await rest("GET", "/users/@me")).status == 200
    with pytest.raises(ValueError, match="no fault 501"):
        fake.schedule_rest_outage(501, 5)
    assert len(fake.limits.faults) == 5 and fake.invalid_requests_last_10min() == 0


# -- gateway faults ----------------------------------------------------------------------------


async def _resume(fake: FakeDiscord, http: aiohttp.ClientSession, ready: dict, seq: int) -> Gateway:
    again = await Gateway(fake).connect(http, ready["resume_gateway_url"])
    await again.send(6, {"token": fake.token, "session_id": ready["session_id"], "seq": seq})
    return again


@pytest.mark.parametrize("code", [1006, 4000, 4008])
async def test_resumable_close_replays_missed_events_by_sequence(
    fake: FakeDiscord, rest: Rest, code: int
) -> None:
    gateway = await Gateway(fake).connect(rest.http)
    ready = await gateway.identify()
    assert ready["resume_gateway_url"] == fake.resume_gateway_url != fake.gateway_url
    seen = max(f["s"] for f in gateway.frames if f.get("s"))
    await fake.drop_connection(code)
    assert await gateway.closed() == code  # (1006: no close frame came)
    await fake.wait_until(lambda: not fake.connected, 10, "the drop")
    missed = [fake.add_channel(f"missed{i}") for i in range(3)]  # CHANNEL_CREATE, unsent
    await fake.flush_gateway()
    again = await _resume(fake, rest.http, ready, seen)
    try:
        await again.wait_events("RESUMED")
        replayed = [f for f in again.frames if f["op"] == 0]
        assert [f["t"] for f in replayed] == ["CHANNEL_CREATE"] * 3 + ["RESUMED"]
        assert [f["d"]["id"] for f in replayed[:3]] == missed
        assert [f["s"] for f in replayed] == [seen + 1, seen + 2, seen + 3, seen + 4]
        assert fake.resumes == 1 and fake.resume_paths == ["/gateway-resume/"]
        assert fake.connected and fake.identifies == 1
    finally:
        await again.close()


async def test_session_timed_out_cannot_be_resumed(fake: FakeDiscord, rest: Rest) -> None:
    gateway = await Gateway(fake).connect(rest.http)
    ready = await gateway.identify()
    await fake.drop_connection(4009)
    assert await gateway.closed() == 4009
    again = await _resume(fake, rest.http, ready, 1)
    try:
        await fake.wait_until(lambda: again.ops(9), 10, "op 9")
        assert again.ops(9)[0]["d"] is False and again.events("RESUMED") == []
        assert fake.resumes == 0 and fake.failed_resumes == 1
        await again.identify()
        assert fake.identifies == 2 and fake.connected
    finally:
        await again.close()


@pytest.mark.parametrize("resumable", [True, False])
async def test_invalid_session(fake: FakeDiscord, rest: Rest, resumable: bool) -> None:
    gateway = await Gateway(fake).connect(rest.http)
    ready = await gateway.identify()
    await fake.invalidate_session(resumable=resumable)
    await fake.wait_until(lambda: gateway.ops(9), 10, "op 9")
    assert gateway.ops(9) == [{"op": 9, "d": resumable, "s": None, "t": None}]
    await gateway.close(4000)  # (a close with 1000 would end the session)
    again = await _resume(fake, rest.http, ready, 2)
    try:
        if resumable:
            await again.wait_events("RESUMED")
            assert fake.resumes == 1 and fake.failed_resumes == 0
        else:
            await fake.wait_until(lambda: again.ops(9), 10, "op 9 again")
            assert fake.resumes == 0 and fake.failed_resumes == 1
    finally:
        await again.close()


async def test_an_interaction_is_lost_with_a_session_that_ends_and_kept_by_a_resume(
    fake: FakeDiscord, rest: Rest
) -> None:
    """`lost_by_gateway`: an interaction whose event went out on a session that then ended (op 9,
    not resumable) before a heartbeat said it arrived is lost, as is one made once it is over;
    after a resumable close (4000) the RESUME replays it, and it is not lost."""
    alice = fake.add_user("alice")
    gateway = await _raw_bot(fake, rest.http)
    ready = gateway.events("READY")[0]
    heard = await fake.slash(alice, "mini")
    await gateway.wait_events("INTERACTION_CREATE")
    (heard_seq,) = [f["s"] for f in gateway.frames if f.get("t") == "INTERACTION_CREATE"]
    sent = await fake.slash(alice, "mini")  # goes out, but no heartbeat says it arrived
    await fake.flush_gateway()
    await gateway.send(1, heard_seq)
    await fake.wait_until(lambda: fake.heartbeats >= 1, 10, "the heartbeat")
    assert not fake.lost_by_gateway(sent) and not fake.lost_by_gateway(heard)
    await fake.invalidate_session(resumable=False)
    during = await fake.slash(alice, "mini")  # the socket is still open; the session is over
    await fake.flush_gateway()
    await gateway.close(4000)
    assert [f["id"] for f in gateway.events("INTERACTION_CREATE")] == [heard.id, sent.id]
    assert [fake.lost_by_gateway(it) for it in (heard, sent, during)] == [False, True, True]

    again = await Gateway(fake).connect(rest.http)
    await again.identify()
    kept = await fake.slash(alice, "mini")
    await fake.drop_connection(4000)
    await fake.flush_gateway()
    assert await again.closed() == 4000
    resumed = await _resume(fake, rest.http, again.events("READY")[0], 2)
    try:
        await resumed.wait_events("RESUMED")
        assert [e["id"] for e in resumed.events("INTERACTION_CREATE")] == [kept.id]
        assert not fake.lost_by_gateway(kept)
        assert ready["session_id"] != again.events("READY")[0]["session_id"]
    finally:
        await resumed.close()


async def test_reconnect_op_7_and_lost_heartbeat_acks(fake: FakeDiscord, rest: Rest) -> None:
    gateway = await Gateway(fake).connect(rest.http)
    await gateway.identify()
    try:
        assert gateway.hello["d"]["heartbeat_interval"] == 41250
        await fake.request_reconnect()
        await fake.wait_until(lambda: gateway.ops(7), 10, "op 7")
        fake.lose_heartbeat_acks(2)
        for n in range(1, 4):
            await gateway.send(1, n)
            await fake.wait_until(lambda n=n: fake.heartbeats == n, 10, "a heartbeat")
        await fake.wait_until(lambda: gateway.ops(11), 10, "an ACK")
        assert len(gateway.ops(11)) == 1 and fake.acks_lost == 2  # the third one only
        fake.lose_heartbeat_acks()  # all of them from now on
        await gateway.send(1, 4)
        await fake.wait_until(lambda: fake.heartbeats == 4, 10, "a heartbeat")
        fake.restore_heartbeat_acks()
        await gateway.send(1, 5)
        await fake.wait_until(lambda: len(gateway.ops(11)) == 2, 10, "an ACK")
        assert fake.acks_lost == 3
    finally:
        await gateway.close()


# -- a real discord.py client under the limits -------------------------------------------------


async def test_discord_py_keeps_to_the_buckets(fake: FakeDiscord, bot_process: Any) -> None:
    """discord.py reads the headers and waits for the window instead of getting 429s."""
    fake.limits.limits["message-create"] = Limit(3, 1.0)
    await bot_process(MINIBOT)
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini burst", options={"count": 8})
    await it.wait_response(timeout=30)
    assert it.content == "burst sent 8, failed []"
    assert sorted(m.content for m in fake.messages()) == sorted(f"burst {i}" for i in range(8))
    posts = [r for r in fake.limits.rate_limited if "/messages" in r[0]]
    assert posts == [] and fake.invalid_requests_last_10min() == 0


async def test_discord_py_waits_out_a_global_429(fake: FakeDiscord, bot_process: Any) -> None:
    """Over the global limit discord.py reads ``retry_after`` and ``global``, waits, retries."""
    await bot_process(MINIBOT)
    fake.limits.limits["message-create"] = Limit(20, 1.0)
    fake.limits.global_limit = Limit(3, 1.0)
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini burst", options={"count": 6})
    await it.wait_response(timeout=30)
    assert it.content == "burst sent 6, failed []"
    assert len(fake.messages()) == 6
    scopes = {scope for _, scope, _ in fake.limits.rate_limited}
    assert scopes == {"global"} and fake.invalid_requests_last_10min() >= 1


async def test_discord_py_retries_through_a_500(fake: FakeDiscord, bot_process: Any) -> None:
    await bot_process(MINIBOT)
    alice = fake.add_user("alice")
    games = fake.add_channel("games")
    outage = fake.schedule_rest_outage(500, 3600, prefix=f"/channels/{games}/messages")
    it = await fake.slash(alice, "mini burst", options={"count": 1}, channel_id=games)
    await fake.wait_until(lambda: fake.limits.faults, 10, "the 500")
    outage.end = fake.clock()  # over before discord.py retries (after 1 s)
    await it.wait_response(timeout=30)
    assert it.content == "burst sent 1, failed []"
    assert [m.content for m in fake.messages(games)] == ["burst 0"]  # once, not twice
    assert fake.limits.faults == [(f"POST /channels/{games}/messages", 500)]


@pytest.mark.parametrize("code", [1006, 4000, 4008, 4009])
async def test_discord_py_reconnects_after_close_codes(
    fake: FakeDiscord, bot_process: Any, code: int
) -> None:
    await bot_process(MINIBOT)
    alice = fake.add_user("alice")
    await fake.drop_connection(code)
    if code == 4009:  # the session is over: RESUME refused, then a new IDENTIFY
        await fake.wait_until(lambda: fake.identifies == 2 and fake.connected, 20, "IDENTIFY")
        assert fake.failed_resumes == 1 and fake.resumes == 0
    else:
        await fake.wait_until(lambda: fake.resumes == 1 and fake.connected, 20, "a RESUME")
        assert fake.identifies == 1 and fake.resume_paths == ["/gateway-resume/"]
    it = await fake.slash(alice, "mini play", options={"action": "pass"})
    await it.wait_response()
    assert it.content == "Playing pass x1"


@pytest.mark.parametrize("resumable", [True, False])
async def test_discord_py_after_invalid_session(
    fake: FakeDiscord, bot_process: Any, resumable: bool
) -> None:
    await bot_process(MINIBOT)
    alice = fake.add_user("alice")
    await fake.invalidate_session(resumable=resumable)
    if resumable:
        await fake.wait_until(lambda: fake.resumes == 1 and fake.connected, 20, "a RESUME")
        assert fake.identifies == 1
    else:
        await fake.wait_until(lambda: fake.identifies == 2 and fake.connected, 20, "IDENTIFY")
        assert fake.resumes == 0
    it = await fake.slash(alice, "mini play", options={"action": "grow"})
    await it.wait_response()
    assert it.content == "Playing grow x1"


async def test_discord_py_resumes_when_acks_are_lost(fake: FakeDiscord, bot_process: Any) -> None:
    fake.heartbeat_interval_ms = 200
    minibot: BotProcess = await bot_process(MINIBOT, env={"MINIBOT_HEARTBEAT_TIMEOUT": "1"})
    alice = fake.add_user("alice")
    fake.lose_heartbeat_acks()
    await fake.wait_until(lambda: fake.resumes >= 1 and fake.connected, 20, "a RESUME")
    fake.restore_heartbeat_acks()
    assert fake.acks_lost >= 1 and fake.identifies == 1 and minibot.running
    it = await fake.slash(alice, "mini play", options={"action": "plant"})
    await it.wait_response()
    assert it.content == "Playing plant x1"
