"""Self-tests of the fake's guilds and shards, with raw gateway connections (no bot process):
each IDENTIFY with ``shard: [id, count]`` gets READY and GUILD_CREATE for the guilds of its
shard only, ``(guild_id >> 22) % count == id``, and each guild's events (interactions included)
reach only its shard's connection; direct messages go to shard 0."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from tests.e2e.fakediscord import FakeDiscord, Perm, shard_of

COMMAND = {"name": "mini", "description": "a command", "type": 1}


class Shard:
    """A gateway connection identified with a shard, recording every event it gets."""

    def __init__(self, fake: FakeDiscord, shard: list[int] | None) -> None:
        self.fake, self.shard = fake, shard
        self.events: list[tuple[str, dict]] = []

    async def connect(self, session: aiohttp.ClientSession) -> Shard:
        self.ws = await session.ws_connect(self.fake.gateway_url)
        hello = await self.ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": self.fake.token, "intents": 1, "properties": {}}
        if self.shard is not None:
            identify["shard"] = self.shard
        await self.ws.send_json({"op": 2, "d": identify})
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for msg in self.ws:
            frame = json.loads(msg.data)
            if frame["op"] == 0:
                self.events.append((frame["t"], frame["d"]))
                await self.fake._notify()

    def got(self, event: str) -> list[dict]:
        return [d for t, d in self.events if t == event]

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


async def test_guild_ids_on_chosen_shards(fake: FakeDiscord) -> None:
    ids = [fake.add_guild(f"g{i}", shard=(i % 3, 3)) for i in range(6)]
    assert [shard_of(g, 3) for g in ids] == [0, 1, 2, 0, 1, 2]
    assert ids == sorted(ids, key=int) and len(set(ids)) == 6
    assert all(int(g) > int(fake.guild_id) for g in ids)
    assert fake.guilds_of_shard(1, 3) == [g for g in fake.guilds if shard_of(g, 3) == 1]
    with pytest.raises(ValueError, match="no shard 2 of 2"):
        fake.add_guild("bad", shard=(2, 2))


async def test_members_roles_and_channels_are_per_guild(fake: FakeDiscord) -> None:
    other = fake.add_guild("Other Guild")
    alice = fake.add_user("alice")
    mod = fake.add_user("mod", manage_channels=True, guild_id=other)
    assert alice["id"] in fake.members and alice["id"] not in fake.guilds[other].members
    assert mod["id"] in fake.guilds[other].members and mod["id"] not in fake.members
    assert fake.permissions(mod, other) & Perm.MANAGE_CHANNELS
    assert fake.permissions(mod) == 0  # not a member of the default guild
    fake.add_member(alice, other)
    assert fake.permissions(alice, other) == Perm.EVERYONE
    chan = fake.add_channel("there", guild_id=other)
    assert fake.channels[chan]["guild_id"] == other
    assert fake.channel_permissions(mod, chan) & Perm.MANAGE_CHANNELS
    payload = fake._guild_payload(other)
    assert [c["id"] for c in payload["channels"]] == [chan]
    assert {m["user"]["id"] for m in payload["members"]} == {
        fake.application_id,
        fake.owner["id"],
        mod["id"],
        alice["id"],
    }
    default = fake._guild_payload()
    assert [c["id"] for c in default["channels"]] == [fake.default_channel_id]
    assert {r["name"] for r in payload["roles"]} == {"@everyone", "PhotoBot", "Moderator"}
    assert {r["name"] for r in default["roles"]} == {"@everyone", "PhotoBot"}


async def test_two_shards_get_their_own_guilds_and_events(fake: FakeDiscord) -> None:
    home = shard_of(fake.guild_id, 2)
    away = fake.add_guild("Away", shard=(1 - home, 2))
    guild_of_shard = {home: fake.guild_id, 1 - home: away}
    chans = {home: fake.default_channel_id, 1 - home: fake.add_channel("away", guild_id=away)}
    alice = fake.add_user("alice")
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(url, json=[COMMAND]) as answer:
            assert answer.status == 200
        shards = {k: await Shard(fake, [k, 2]).connect(http) for k in (0, 1)}
        try:
            await fake.wait_until(lambda: fake.connected, 10, "both shards")
            assert fake.live_shards() == {(0, 2), (1, 2)}
            for k, shard in shards.items():
                (ready,) = shard.got("READY")
                assert ready["shard"] == [k, 2]
                assert ready["guilds"] == [{"id": guild_of_shard[k], "unavailable": True}]
                assert [g["id"] for g in shard.got("GUILD_CREATE")] == [guild_of_shard[k]]

            # An interaction in each guild, a member who joins the away guild, a DM.
            with pytest.raises(LookupError, match="not a member"):
                await fake.slash(alice, "mini", channel_id=chans[1 - home])
            fake.add_member(alice, away)
            sent = {k: await fake.slash(alice, "mini", channel_id=chans[k]) for k in (0, 1)}
            dm = fake._dm_channel(alice["id"])["id"]
            await fake.send_message(alice, "hello", channel_id=dm)

            def arrived() -> bool:
                return all(len(s.got("INTERACTION_CREATE")) == 1 for s in shards.values()) and (
                    shards[0].got("MESSAGE_CREATE")
                )

            await fake.wait_until(arrived, 10, "the events")
            for k, shard in shards.items():
                (interaction,) = shard.got("INTERACTION_CREATE")
                assert interaction["id"] == sent[k].id
                assert interaction["guild_id"] == guild_of_shard[k]
                assert interaction["channel_id"] == chans[k]
                assert interaction["member"]["user"]["id"] == alice["id"]
                joined = [m["guild_id"] for m in shard.got("GUILD_MEMBER_ADD")]
                assert joined == ([away] if k != home else [])  # alice joined the away guild
            assert [m["channel_id"] for m in shards[0].got("MESSAGE_CREATE")] == [dm]
            assert shards[1].got("MESSAGE_CREATE") == []

            # The away guild's shard drops: its guild has no connection, the other still works.
            await shards[1 - home].close()
            await fake.wait_until(lambda: not fake.connected, 10, "the drop")
            assert fake.live_shards() == {(home, 2)}
            with pytest.raises(RuntimeError, match="not connected"):
                await fake.slash(alice, "mini", channel_id=chans[1 - home])
            again = await fake.slash(alice, "mini", channel_id=chans[home])
            await fake.wait_until(
                lambda: len(shards[home].got("INTERACTION_CREATE")) == 2, 10, "the interaction"
            )
            assert shards[home].got("INTERACTION_CREATE")[-1]["id"] == again.id
        finally:
            for shard in shards.values():
                await shard.close()


async def test_a_new_guild_is_announced_to_its_shard_only(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        shards = {k: await Shard(fake, [k, 2]).connect(http) for k in (0, 1)}
        try:
            await fake.wait_until(lambda: fake.live_shards() == {(0, 2), (1, 2)}, 10, "shards")
            before = {k: len(s.got("GUILD_CREATE")) for k, s in shards.items()}
            new = fake.add_guild("New", shard=(1, 2))
            await fake.wait_until(
                lambda: len(shards[1].got("GUILD_CREATE")) == before[1] + 1, 10, "GUILD_CREATE"
            )
            assert shards[1].got("GUILD_CREATE")[-1]["id"] == new
            chan = fake.add_channel("new", guild_id=new)
            await fake.wait_until(lambda: shards[1].got("CHANNEL_CREATE"), 10, "CHANNEL_CREATE")
            assert [c["id"] for c in shards[1].got("CHANNEL_CREATE")] == [chan]
            assert len(shards[0].got("GUILD_CREATE")) == before[0]
            assert shards[0].got("CHANNEL_CREATE") == []
        finally:
            for shard in shards.values():
                await shard.close()


async def test_invalid_shard_is_refused(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url)
        await ws.receive_json()
        identify = {"token": fake.token, "intents": 1, "properties": {}, "shard": [2, 2]}
        await ws.send_json({"op": 2, "d": identify})
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        await ws.close()
    assert fake.identifies == 0 and fake.live_shards() == set()
