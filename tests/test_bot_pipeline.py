"""What follows a commit (`bot.discord.pipeline`): the turn timers, the game message, the Expert's
driver, in that order and each on its own; and the game message held until the answer
(`Publisher.holding`)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord.pipeline import Pipeline
from bot.discord.publisher import Publisher
from bot.services import GameService
from bot.services.bots import ExpertDriver
from bot.storage import SQLiteStorage

ALICE, BOB = 11, 22


class Recorder:
    """Stands for the timers, the publisher and the driver: says what each was asked, in order."""

    def __init__(self, *, failing: str | None = None) -> None:
        self.calls: list[tuple[str, int]] = []
        self.failing = failing

    def _say(self, step: str, version: int) -> None:
        self.calls.append((step, version))
        if step == self.failing:
            raise RuntimeError(f"{step} failed")

    async def in_commit(self, game: Any, state: Any) -> None:
        self._say("plan", game.version)

    async def on_commit(self, game: Any, state: Any) -> None:
        self._say("timers", game.version)

    async def on_end(self, game: Any) -> None:
        self._say("ended", game.version)

    async def publish(self, game: Any, state: Any) -> None:
        self._say("publish", game.version)

    def wants(self, game: Any, state: Any) -> bool:
        return True

    def drive(self, game_id: int) -> None:
        self._say("drive", -1)


@pytest.fixture
async def games():
    storage = await SQLiteStorage.open(":memory:")
    try:
        yield GameService(storage, seed_source=lambda: 5)
    finally:
        await storage.close()


async def _started(games: GameService) -> Any:
    game = await games.lobby.new_lobby(guild_id=1, channel_id=7, host_id=ALICE, host_name="a")
    game = await games.lobby.join(game.id, None, BOB, "b")
    return (await games.lobby.start(game.id, None, ALICE)).game


async def test_a_play_is_planned_in_its_commit_then_timed_published_and_driven(games) -> None:
    rec = Recorder()
    games.core.after = Pipeline(rec, rec, rec)  # type: ignore[arg-type]
    game = await _started(games)
    assert rec.calls == [
        ("plan", game.version),
        ("timers", game.version),
        ("publish", game.version),
        ("drive", -1),
    ]
    rec.calls.clear()
    played = await games.turns.play(game.id, ALICE, "place A1")
    v = played.game.version
    assert v == game.version + 1
    # planned with the game as it will be stored, then the three steps after the commit
    assert rec.calls == [("plan", v), ("timers", v), ("publish", v), ("drive", -1)]


async def test_an_undo_is_published_without_planning_a_turn(games) -> None:
    rec = Recorder()
    game = await _started(games)
    # to a round where buying is undoable: play setup through the services, no pipeline
    for notation in ("place A1", "place A2", "place G1", "place G2"):
        who = game.seats[(await games.core.state(game)).current_seat].user_id
        game = (await games.turns.play(game.id, who, notation)).game
    state = await games.core.state(game)
    mover = game.seats[state.current_seat].user_id
    game = (await games.turns.play(game.id, mover, "buy seed")).game
    games.core.after = Pipeline(rec, rec, rec)  # type: ignore[arg-type]
    undone = await games.turns.undo(game.id, mover)
    assert rec.calls == [
        ("timers", undone.game.version),
        ("publish", undone.game.version),
        ("drive", -1),
    ]


async def test_a_failing_step_leaves_the_commit_and_the_other_steps(games, caplog) -> None:
    rec = Recorder(failing="timers")
    games.core.after = Pipeline(rec, rec, rec)  # type: ignore[arg-type]
    game = await _started(games)
    stored = await games.core.get_game(game.id)
    assert stored is not None and stored.status == "active" and stored.version == game.version
    assert [c[0] for c in rec.calls] == ["plan", "timers", "publish", "drive"]
    assert "after a commit" in caplog.text and "timers failed" in caplog.text


async def test_the_experts_driver_is_asked_only_for_an_experts_turn(games) -> None:
    game = await _started(games)
    state = await games.core.state(game)
    assert not ExpertDriver.wants(game, state)  # two people
    seats = tuple(
        s if i != state.current_seat else s.__class__(s.position, "expert", None, "Expert (quick)")
        for i, s in enumerate(game.seats)
    )
    assert ExpertDriver.wants(game.__class__(**{**game.__dict__, "seats": seats}), state)
    assert not ExpertDriver.wants(
        game.__class__(**{**game.__dict__, "seats": seats, "status": "over"}), state
    )


async def test_a_game_message_asked_for_while_answering_waits_for_the_answer() -> None:
    bot = SimpleNamespace(games=SimpleNamespace(core=SimpleNamespace()))
    publisher = Publisher(bot)  # type: ignore[arg-type]
    drawn: list[int] = []

    async def publish_now(game: Any, state: Any = None) -> None:
        drawn.append(game.version)

    publisher._publish_now = publish_now  # type: ignore[method-assign]
    game = SimpleNamespace(version=1, options={})
    await publisher.publish(game, None)
    assert drawn == [1]  # no answer under way: at once
    async with publisher.holding():
        await publisher.publish(SimpleNamespace(version=2, options={}), None)
        await publisher.publish(SimpleNamespace(version=3, options={}), None)
        assert drawn == [1]  # held while the answer is made
        task = asyncio.create_task(publisher.publish(SimpleNamespace(version=4, options={}), None))
        await task  # a task started inside the block is held with it
        assert drawn == [1]
    assert drawn == [1, 2, 3, 4]  # in order, once the block ends

    async def later() -> None:
        await asyncio.sleep(0)
        await publisher.publish(SimpleNamespace(version=6, options={}), None)

    async with publisher.holding():
        straggler = asyncio.create_task(later())  # outlives the block
    await straggler
    assert drawn == [1, 2, 3, 4, 6]  # after the block: no longer held
