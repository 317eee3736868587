"""Two bot processes (no Discord) on one PostgreSQL database: each plays its own games, one is
SIGKILLed in the middle and restarted; then every turn's deadline comes due at once while one
process is killed again. No action is lost or applied twice, each deadline fires once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

import engine
from bot.services import GameService
from bot.services.correspondence import Correspondence
from bot.services.plays import replay
from bot.services.scheduler import PENDING, JobStore
from bot.services.seats import AUTOPILOT_USER_ID
from bot.services.timers import HOUR
from bot.storage.postgres import PostgresStorage
from tests import pg_worker
from tests.pg_server import fresh_database

pytestmark = pytest.mark.postgres

T0 = 1_800_000_000.0
TARGET = 10  # plies each game reaches in the first part
REPO = Path(__file__).resolve().parents[1]


class Worker:
    """One `tests.pg_worker` process and the lines it printed."""

    def __init__(
        self, url: str, clock: Path, games: list[int], target: int = TARGET, *extra: str
    ) -> None:
        self.args = [url, str(clock), ",".join(map(str, games)), str(target), *extra]
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.pg_worker", *self.args, cwd=REPO,
            stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        self._reader = asyncio.create_task(self._read(self.proc))

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for line in proc.stdout:
            # A line without its newline was cut by a SIGKILL: the process never reported it.
            if line.endswith(b"\n"):
                self.lines.append(line.decode().strip())

    async def until(self, predicate, timeout: float = 60.0) -> None:
        async def wait() -> None:
            while not predicate(self.lines):
                if self.proc is not None and self.proc.returncode is not None:
                    raise AssertionError(f"worker exited: {self.lines[-5:]}")
                await asyncio.sleep(0.02)

        await asyncio.wait_for(wait(), timeout)

    async def kill(self) -> None:
        assert self.proc is not None and self._reader is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self._reader

    def played(self) -> set[tuple[int, int]]:
        return {
            (int(w[1]), int(w[2]))
            for w in (line.split() for line in self.lines)
            if w[0] == "played"
        }


async def test_two_processes_one_killed_lose_nothing_and_fire_each_deadline_once(
    postgres_server, tmp_path: Path
) -> None:
    url = await fresh_database(postgres_server)
    clock = tmp_path / "clock"
    clock.write_text(str(T0))
    storage = await PostgresStorage.open(url)
    try:
        service = GameService(storage, seed_source=lambda: 5)
        ids = []
        for i in range(4):
            lobby = await service.lobby.new_lobby(
                guild_id=(i % 2) << 22, channel_id=100 + i, host_id=1, host_name="a",
                options={"turn_timer": 1, "on_timeout": "autopilot"},
            )  # fmt: skip
            await service.lobby.join(lobby.id, None, 2, "b")
            ids.append((await service.lobby.start(lobby.id, None, 1)).game.id)
        # The first turns get their clocks and deadlines (the bot plans them on each commit).
        corr = Correspondence(service, _Fixed(T0))
        for game_id in ids:
            game = await service.core.get_game(game_id)
            await corr.timers.plan(game, await service.core.state(game))

        first, second = Worker(url, clock, ids[0::2]), Worker(url, clock, ids[1::2])
        await first.start()
        await second.start()
        await first.until(lambda lines: sum(line.startswith("played") for line in lines) >= 3)
        await first.kill()  # in the middle of its games
        killed_played = first.played()
        await second.until(lambda lines: "done" in lines)
        await first.start()
        await first.until(lambda lines: "done" in lines)

        fresh = GameService(storage)
        before = {}
        for game_id in ids:
            rows = await storage.actions(game_id)
            assert [r.ply for r in rows] == list(range(1, TARGET + 1))
            game = await storage.get_game(game_id)
            state = replay(game.config, game.seed, [r.notation for r in rows])
            assert await fresh.core.state(game) == state
            before[game_id] = (engine.turn_id(state), game.version)
        # Every move a process reported as committed is in the log, the killed one's too.
        for game_id, ply in killed_played | first.played() | second.played():
            assert 1 <= ply <= TARGET and game_id in ids

        # Every current turn's deadline comes due; the second process is killed right away.
        clock.write_text(str(T0 + 2 * HOUR))
        await second.kill()
        await first.until(lambda lines: sum(line.startswith("fired") for line in lines) >= 4)
        await second.start()
        await second.until(lambda lines: "done" in lines)

        async def all_fired() -> None:
            while True:
                jobs = await JobStore(storage).jobs()
                deadlines = [
                    j for j in jobs if j.kind == "deadline" and (j.game_id, j.turn) in {
                        (g, t) for g, (t, _) in before.items()
                    }
                ]  # fmt: skip
                if len(deadlines) == 4 and all(
                    j.outcome and not j.outcome.startswith(PENDING) for j in deadlines
                ):
                    return deadlines
                await asyncio.sleep(0.05)

        deadlines = await asyncio.wait_for(all_fired(), 60)
        for job in deadlines:
            assert job.outcome.startswith("autopilot: ")
            rows = await storage.actions(job.game_id)
            auto = [r for r in rows if r.user_id == AUTOPILOT_USER_ID]
            played = job.outcome[len("autopilot: ") :].split("; ")
            assert [r.notation for r in auto] == played  # applied once, by one process
            assert [r.ply for r in rows] == list(range(1, len(rows) + 1))
    finally:
        for worker in ("first", "second"):
            w = locals().get(worker)
            if w is not None and w.proc is not None and w.proc.returncode is None:
                await w.kill()
        await storage.close()


async def test_a_turn_committed_by_a_process_that_dies_at_once_is_timed_by_another(
    postgres_server, tmp_path: Path
) -> None:
    """Issue 48, defect 6: a process commits a turn and is killed right after the commit (in
    its first commit hook). The turn it started has its clock and deadline all the same, from
    the moment of that commit (they are planned in the commit's transaction), and the other
    process, still up, ends that turn when its time runs out: the dead one never restarts."""
    url = await fresh_database(postgres_server)
    clock = tmp_path / "clock"
    clock.write_text(str(T0 + 600))
    storage = await PostgresStorage.open(url)
    workers: list[Worker] = []
    try:
        service = GameService(storage, seed_source=lambda: 5)
        corr = Correspondence(service, _Fixed(T0))
        lobby = await service.lobby.new_lobby(
            guild_id=0, channel_id=100, host_id=1, host_name="a", options={"turn_timer": 1}
        )
        await service.lobby.join(lobby.id, None, 2, "b")
        started = (await service.lobby.start(lobby.id, None, 1)).game
        game_id = started.id
        first = await corr.timers.plan(started, await service.core.state(started))  # at T0

        survivor = Worker(url, clock, [])
        dying = Worker(url, clock, [game_id], 1, "die-after-commit")
        workers += [survivor, dying]
        await survivor.start()
        await survivor.until(lambda lines: "done" in lines)
        await dying.start()
        await asyncio.wait_for(dying.proc.wait(), 60)
        assert dying.proc.returncode == -signal.SIGKILL
        (line,) = [line for line in dying.lines if line.startswith("committed")]
        game = await storage.get_game(game_id)
        assert line == f"committed {game_id} {game.version}"
        assert [r.user_id for r in await storage.actions(game_id)] == [1]

        # The turn the dead process started is timed from its commit (T0 + 10 minutes).
        state = await service.core.state(game)
        turn = engine.turn_id(state)
        assert turn != first.turn and state.current_seat == 1
        turn_clock = await corr.timers.turn_clock(game_id)
        assert (turn_clock.turn, turn_clock.version) == (turn, game.version)
        assert (turn_clock.user_id, turn_clock.started_at) == (2, T0 + 600)
        (deadline,) = [j for j in await JobStore(storage).jobs(game_id) if j.kind == "deadline"]
        assert (deadline.turn, deadline.due_at, deadline.fired_at) == (turn, T0 + 600 + HOUR, None)

        # Its time runs out: the process still up ends the turn (the autopilot places in setup).
        clock.write_text(str(T0 + 600 + HOUR))
        await survivor.until(
            lambda lines: any(line.startswith(f"fired {deadline.id} ended: ") for line in lines)
        )
        rows = await storage.actions(game_id)
        assert [(r.ply, r.seat, r.user_id) for r in rows] == [
            (1, 0, 1),
            (2, 1, AUTOPILOT_USER_ID),
        ]
        assert f"fired {deadline.id} ended: {rows[1].notation}" in survivor.lines
    finally:
        for worker in workers:
            if worker.proc is not None and worker.proc.returncode is None:
                await worker.kill()
        await storage.close()


def test_a_report_line_is_one_write(monkeypatch) -> None:
    writes: list[str] = []

    class Stdout:
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

        def flush(self) -> None:
            writes.append("<flush>")

    monkeypatch.setattr(sys, "stdout", Stdout())
    pg_worker.say("played", 3, 7, 12)
    assert writes == ["played 3 7 12\n", "<flush>"]


async def test_a_line_cut_by_the_kill_is_not_a_report() -> None:
    worker = Worker("", Path(), [])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys; sys.stdout.write('played 3 7 12\\nplayed')",
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    await worker._read(proc)
    await proc.wait()
    assert worker.lines == ["played 3 7 12"]
    assert worker.played() == {(3, 7)}


class _Fixed:
    fake = True

    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    async def sleep_until(self, when, wake) -> None:  # never used
        await wake.wait()
