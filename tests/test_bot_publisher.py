"""The publisher's transport under Discord's limits (issue 46), without Discord: a channel whose
posts and edits wait or fail as a test says.

* the newest position wins: positions asked for while a post waits are skipped but the
  newest, and a new turn's post never waits behind an edit of the old turn stuck on its rate
  limit (the edit is left to land, never cancelled: discord.py's request cancelled during a
  global rate limit would block every later one; the old message's buttons go in an edit of
  their own, after it);
* a post or edit that fails on Discord's side is retried until it lands, and a post that had
  landed before its answer was lost is not doubled (its nonce, as Discord's `enforce_nonce`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import engine
from bot.discord import publisher as publisher_module
from bot.discord.publisher import Publisher

THREAD = 500


@dataclass
class Channel:
    """Posts and edits as Discord answers them: `gate` holds them (a rate limit's wait),
    `fail` makes the next ones fail after (`landed`) or before landing."""

    posts: list[dict[str, Any]] = field(default_factory=list)
    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    cancelled_edits: int = 0
    post_gate: asyncio.Event = field(default_factory=asyncio.Event)
    edit_gate: asyncio.Event = field(default_factory=asyncio.Event)
    post_failures: list[bool] = field(default_factory=list)  # True: it landed all the same
    failure: discord.HTTPException = field(
        default_factory=lambda: discord.DiscordServerError(
            SimpleNamespace(status=503, reason="down"), "down"
        )
    )
    id: int = THREAD

    async def send(self, **fields: Any) -> SimpleNamespace:
        await self.post_gate.wait()
        nonce = fields.get("nonce")
        earlier = [p for p in self.posts if nonce is not None and p["nonce"] == nonce]
        landed = earlier[0] if earlier else {**fields, "id": 1000 + len(self.posts)}
        if not earlier:
            self.posts.append(landed)
        if self.post_failures:
            if not self.post_failures.pop(0) and not earlier:
                self.posts.remove(landed)
            raise self.failure
        return SimpleNamespace(id=landed["id"])

    def get_partial_message(self, message_id: int) -> SimpleNamespace:
        async def edit(**fields: Any) -> None:
            try:
                await self.edit_gate.wait()
            except asyncio.CancelledError:
                self.cancelled_edits += 1
                raise
            self.edits.append((message_id, fields))

        return SimpleNamespace(edit=edit)


class Storage:
    def __init__(self) -> None:
        self.messages: dict[tuple[int, str], tuple[int, int]] = {}

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        return self.messages.get((game_id, kind))

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        self.messages[(game_id, kind)] = (channel_id, message_id)

    async def follow_modes(self, game_id: int) -> dict[int, str]:
        return {}  # nobody muted or followed the game


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> tuple[Publisher, Channel, Storage]:
    channel, storage = Channel(), Storage()
    bot = SimpleNamespace(
        storage=storage,
        get_partial_messageable=lambda channel_id: channel,
        dispatch=lambda *args: None,
        games=SimpleNamespace(core=SimpleNamespace()),
    )
    publisher = Publisher(bot)  # type: ignore[arg-type]

    async def parts(game: Any, state: Any, **kwargs: Any) -> tuple[Any, Any, None]:
        return f"embed v{game.version}", f"picture v{game.version}", None

    async def thread(game: Any) -> int:
        return THREAD

    monkeypatch.setattr(publisher, "game_message_parts", parts)
    monkeypatch.setattr(publisher, "game_thread", thread)
    monkeypatch.setattr(publisher_module, "EDIT_DELAY", 0.01)
    monkeypatch.setattr(publisher_module, "RETRY_FIRST_S", 0.01)
    return publisher, channel, storage


def game_at(version: int) -> SimpleNamespace:
    seats = [SimpleNamespace(user_id=11, kind="human"), SimpleNamespace(user_id=22, kind="human")]
    return SimpleNamespace(
        id=7,
        version=version,
        config=object(),
        status="active",
        language="en",
        seats=seats,
        options={},  # (a game row's lobby options: not a daily challenge)
    )


def turns(count: int) -> list[engine.GameState]:
    """`count` positions, each a new turn (setup placements)."""
    states = [engine.new_game(engine.Config(seats=("human", "human")), seed=1)]
    while len(states) < count:
        states.append(engine.apply(states[-1], engine.legal_actions(states[-1])[0]))
    return states


async def settle(publisher: Publisher) -> None:
    for _ in range(3):
        await publisher.settled(7)
        await asyncio.sleep(0.05)


async def test_the_newest_position_wins_and_a_new_turn_never_waits_behind_an_edit(world) -> None:
    publisher, channel, storage = world
    states = turns(5)
    channel.post_gate.set()
    await publisher.publish(game_at(1), states[0])
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v1"]
    # An edit of the same turn waits on its rate limit (the gate stays shut)...
    await publisher.publish(game_at(2), states[0])
    await asyncio.sleep(0.1)
    assert channel.edits == [] and 7 in publisher._editing
    # ...and the next turn comes: it is posted at once, the stale edit left to land (never
    # cancelled).
    await publisher.publish(game_at(3), states[1])
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v1", "embed v3"]
    assert channel.cancelled_edits == 0 and 1000 in publisher._left
    assert storage.messages[(7, "game")] == (THREAD, 1001)
    # While a post waits, three more turns pass: only the newest is posted after it.
    channel.post_gate.clear()
    await publisher.publish(game_at(4), states[2])
    await asyncio.sleep(0.05)
    for version, state in ((5, states[3]), (6, states[4])):
        await publisher.publish(game_at(version), state)
    channel.post_gate.set()
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v1", "embed v3", "embed v4", "embed v6"]
    assert [p["content"] for p in channel.posts] == ["<@11>, it is your turn."] + [
        f"<@{user}>, it is your turn." for user in (22, 11, 11)
    ]
    # The channel's edit bucket opens again: the stale edit of v2 lands, then the old messages
    # lose their buttons in edits of their own, each once (v1's after the stale edit).
    channel.edit_gate.set()
    await settle(publisher)
    assert [(m, f.get("embed", "-"), f["view"]) for m, f in channel.edits] == [
        (1000, "embed v2", None),
        (1000, "-", None),
        (1001, "-", None),
        (1002, "-", None),
    ]
    assert publisher._left == {}


async def test_a_post_lost_to_a_5xx_is_retried_until_it_lands_never_doubled(world) -> None:
    publisher, channel, storage = world
    (state,) = turns(1)
    channel.post_gate.set()
    # Discord fails twice: once before the message was made, once after (the answer lost).
    channel.post_failures = [False, True, False]
    await publisher.publish(game_at(1), state)
    await settle(publisher)
    assert channel.post_failures == []
    assert [(p["id"], p["nonce"], p["embed"]) for p in channel.posts] == [
        (1000, "g7.1", "embed v1")
    ]
    assert storage.messages[(7, "game")] == (THREAD, 1000)


async def test_a_post_that_keeps_failing_gives_way_to_a_newer_position(world) -> None:
    publisher, channel, storage = world
    first, second = turns(2)
    channel.post_gate.set()
    channel.post_failures = [False] * 1000  # Discord is down
    await publisher.publish(game_at(1), first)
    await asyncio.sleep(0.05)
    assert channel.posts == [] and 7 in publisher._workers
    await publisher.publish(game_at(2), second)
    channel.post_failures = []  # and up again
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v2"]
    assert storage.messages[(7, "game")] == (THREAD, channel.posts[0]["id"])


async def test_a_rate_limit_given_up_is_tried_again_a_4xx_is_not(world) -> None:
    publisher, channel, storage = world
    first, second = turns(2)
    channel.post_gate.set()
    too_many = SimpleNamespace(status=429, reason="Too Many Requests")
    channel.failure = discord.HTTPException(too_many, "You are being rate limited.")
    channel.post_failures = [False, False]
    await publisher.publish(game_at(1), first)
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v1"] and channel.post_failures == []
    # A 4xx is our mistake or a channel gone: logged, not tried again.
    channel.failure = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "no")
    channel.post_failures = [False, False]
    await publisher.publish(game_at(2), second)
    await settle(publisher)
    assert [p["embed"] for p in channel.posts] == ["embed v1"] and channel.post_failures == [False]


async def test_stop_cancels_the_posts_edits_and_strips_under_way_and_starts_no_more(world) -> None:
    """At shutdown nothing is left running on the closed session (each would fail and log an
    error); the game is stored, and the next start redraws it."""
    publisher, channel, storage = world
    states = turns(3)
    channel.post_gate.set()
    await publisher.publish(game_at(1), states[0])
    await settle(publisher)
    await publisher.publish(game_at(2), states[1])
    await settle(publisher)
    # v1's message waits to lose its buttons, and an edit of v2's turn to show v3.
    await publisher.publish(game_at(3), states[1])
    await asyncio.sleep(0.1)
    assert 7 in publisher._editing and 7 in publisher._strippers
    edit, stripper = publisher._editing[7], publisher._strippers[7]
    await publisher.stop()
    assert edit.cancelled() and stripper.cancelled() and channel.cancelled_edits == 2
    assert publisher._workers == {} and publisher._editing == {} and publisher._strippers == {}
    channel.post_gate.clear()
    await publisher.publish(game_at(4), states[2])  # asked for after the stop: not started
    publisher._strip(7, (THREAD, 1001))
    assert publisher._workers == {} and publisher._strippers == {}
    channel.post_gate.set()
    channel.edit_gate.set()
    await asyncio.sleep(0.05)
    assert [p["embed"] for p in channel.posts] == ["embed v1", "embed v2"] and channel.edits == []
