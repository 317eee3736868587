"""The Expert's review of a finished game at the service level (issue 47): asked once, computed
range by range in the Expert's workers, its progress stored (SQLite and PostgreSQL), resumed
once after a restart, stored when done."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

import engine
from bot.config import ConfigError
from bot.services.base import UserError
from bot.services.core import GameCore
from bot.services.experts import REVIEW_NICE, niced, review_nice
from bot.services.reviews import CHUNK_PLIES, Retries, ReviewService, people
from bot.storage import NewAction, SeatRow
from engine.expert.review import Decision
from engine.players import AutopilotPlayer

CONFIG = engine.Config(seats=("human", "cynthia"))
SEED = 5
CHANNEL = 300


class Crash(Exception):
    """The bot process dying in the middle of a review."""


class StubExperts:
    """The Expert's workers: each range of plies "reviewed" as one decision of seat 0 whose loss
    is its first ply; `crash_after` ranges, the process dies."""

    scale = 1.0

    def __init__(self, crash_after: int | None = None) -> None:
        self.ranges: list[range] = []
        self.crash_after = crash_after

    async def review(self, config, seed, notations, persons, plies, budget_s) -> list[dict]:
        if self.crash_after is not None and len(self.ranges) == self.crash_after:
            raise Crash
        assert persons == [0] and budget_s == 0.25
        self.ranges.append(plies)
        return [decision(plies.start, float(plies.start))]


def decision(ply: int, loss: float) -> dict[str, Any]:
    """A stored decision of seat 0 at `ply` that gives away `loss` (the Expert's turn: none)."""
    facts = Decision(0, 0, 1, (), (), 0.0).to_dict() | {
        "facts": [
            {"spaces": [], "light": 0, "others": 0, "tokens": 0, "left": 0, "spend": 0,
             "bought": 0, "planted": 0, "grown": 0, "collected": 0},
        ] * 2,
    }  # fmt: skip
    return facts | {"ply": ply, "played": ["end"], "best": ["buy seed", "end"], "loss": loss}


async def finished_game(storage: Any) -> tuple[int, list[str]]:
    state = engine.new_game(CONFIG, SEED)
    notations = []
    while not state.is_over:
        action = AutopilotPlayer().step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    game = await storage.create_game(
        guild_id=1, channel_id=CHANNEL, host_id=10, host_name="ann", options={}, seed=SEED
    )
    seats = [SeatRow(0, "human", 10, "ann"), SeatRow(1, "cynthia", None, "Cynthia")]
    log = [NewAction(n + 1, text, 0, 10) for n, text in enumerate(notations)]
    await storage.update_game(
        game.id, game.version, seats=seats, config=CONFIG.to_dict(), status="over", actions=log
    )
    return game.id, notations


async def test_a_review_is_resumed_once_after_a_restart_and_stored_when_done(
    any_storage,
) -> None:
    game_id, notations = await finished_game(any_storage)
    core = GameCore(any_storage)
    crashing = ReviewService(core, StubExperts(crash_after=2))  # type: ignore[arg-type]
    game, review, made = await crashing.ask(game_id, CHANNEL)
    assert (review.status, review.attempts, made) == ("running", 1, True)
    assert (await crashing.ask(game_id, CHANNEL))[2] is False  # a second click makes none
    with pytest.raises(Crash):
        await crashing.run(game_id)
    # The failure of a run marks it failed; a restart (the process gone, its row "running")
    # is what resumes: put the row back as a dead process leaves it.
    await any_storage.update_review(game_id, status="running")
    stored = await any_storage.review(game_id)
    assert stored.next_ply == 2 * CHUNK_PLIES and len(stored.decisions) == 2
    # The restart: resumed once, from where it stopped.
    experts = StubExperts()
    restarted = ReviewService(core, experts)  # type: ignore[arg-type]
    (left,) = await restarted.to_finish()
    assert left.game_id == game_id and await restarted.resume(left)
    done = await restarted.run(game_id)
    assert experts.ranges[0] == range(2 * CHUNK_PLIES, 3 * CHUNK_PLIES)
    assert experts.ranges[-1].stop == len(notations)
    assert (done.status, done.attempts, done.next_ply) == ("done", 2, len(notations))
    starts = list(range(0, len(notations), CHUNK_PLIES))
    assert [d["ply"] for d in done.decisions] == starts
    # The costliest three of the person (seat 0 only), shown again without being computed.
    (part,) = people(game, done, notations)
    assert part.seat == 0 and [d.ply for d in part.decisions] == starts[::-1][:3]
    assert part.turns == len(starts) and part.per_turn == sum(starts) / len(starts)
    again = await restarted.run(game_id)
    assert again == done and experts.ranges[-1].stop == len(notations)
    assert len(experts.ranges) == len(starts) - 2


async def test_a_review_interrupted_twice_is_given_up(any_storage) -> None:
    game_id, _notations = await finished_game(any_storage)
    core = GameCore(any_storage)
    service = ReviewService(core, StubExperts())  # type: ignore[arg-type]
    await service.ask(game_id, CHANNEL)
    (left,) = await service.to_finish()
    assert await service.resume(left)  # the second run
    (left,) = await service.to_finish()
    assert left.attempts == 2 and not await service.resume(left)  # a third: given up
    assert await service.to_finish() == []
    assert (await any_storage.review(game_id)).status == "failed"
    with pytest.raises(UserError, match="could not review"):
        await service.ask(game_id, CHANNEL)


async def test_only_a_finished_game_of_this_channel_is_reviewed(any_storage) -> None:
    game_id, _notations = await finished_game(any_storage)
    service = ReviewService(GameCore(any_storage), StubExperts())  # type: ignore[arg-type]
    with pytest.raises(UserError, match="another channel"):
        await service.ask(game_id, CHANNEL + 1)
    running = await any_storage.create_game(
        guild_id=1, channel_id=CHANNEL + 2, host_id=10, host_name="ann", options={}, seed=1
    )
    with pytest.raises(UserError, match="Only a finished game"):
        await service.ask(running.id, CHANNEL + 2)
    assert await any_storage.review(running.id) is None


def test_a_review_runs_in_a_niced_thread_and_the_worker_keeps_its_priority() -> None:
    def nice_here() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = nice_here()
    assert niced(nice_here) == max(before, REVIEW_NICE) == REVIEW_NICE
    assert nice_here() == before
    with pytest.raises(ZeroDivisionError):
        niced(lambda: 1 / 0)
    assert review_nice({}) == 15 and review_nice({"PS_REVIEW_NICE": "0"}) == 0
    with pytest.raises(ConfigError, match="PS_REVIEW_NICE must be a whole number"):
        review_nice({"PS_REVIEW_NICE": "-3"})


async def test_a_review_of_the_earlier_kind_is_computed_again_turn_by_turn(any_storage) -> None:
    """A review stored before decisions were turns (one action each) is computed again at the
    next click, from the start; a review of this kind is shown as it is."""
    game_id, _notations = await finished_game(any_storage)
    service = ReviewService(GameCore(any_storage), StubExperts())  # type: ignore[arg-type]
    await service.ask(game_id, CHANNEL)
    old = {"ply": 3, "seat": 0, "round": 1, "played": "end", "best": "buy seed", "loss": 2.0}
    await any_storage.update_review(
        game_id, status="posted", next_ply=99, decisions=[old], posted=3
    )
    _game, review, made = await service.ask(game_id, CHANNEL)
    assert made and (review.status, review.next_ply, review.decisions, review.posted) == (
        "running",
        0,
        [],
        0,
    )
    await service.run(game_id)
    _game, again, made = await service.ask(game_id, CHANNEL)
    assert not made and again.status == "done" and again.decisions[0]["v"] == 2


async def test_try_again_refuses_what_the_review_does_not_hold(any_storage) -> None:
    game_id, notations = await finished_game(any_storage)
    core = GameCore(any_storage)
    retries = Retries(core, StubExperts())  # type: ignore[arg-type]
    with pytest.raises(UserError, match="not ready yet"):
        await retries.at(game_id, CHANNEL, 0, [])
    service = ReviewService(core, StubExperts())  # type: ignore[arg-type]
    await service.ask(game_id, CHANNEL)
    await service.run(game_id)
    with pytest.raises(UserError, match="no such turn"):
        await retries.at(game_id, CHANNEL, 1, [])
    with pytest.raises(UserError, match="another channel"):
        await retries.at(game_id, CHANNEL + 1, 0, [])
    attempt = await retries.at(game_id, CHANNEL, CHUNK_PLIES, [])
    assert attempt.state == engine.replay(CONFIG, SEED, notations[:CHUNK_PLIES])
    assert attempt.tried == () and not attempt.over
    first = [str(a) for a in engine.legal_actions(attempt.state)]
    moved = await retries.at(game_id, CHANNEL, CHUNK_PLIES, [len(first) - 1])
    assert moved.tried == (first[-1],)
    with pytest.raises(UserError, match="not offered"):
        await retries.at(game_id, CHANNEL, CHUNK_PLIES, [len(first)])
