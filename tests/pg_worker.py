"""One bot process without Discord, for `tests/test_bot_processes.py`: the game service and the
scheduler on a shared PostgreSQL database, playing the first legal move of its own games.

    python -m tests.pg_worker DATABASE_URL CLOCK_FILE GAME_IDS TARGET_PLY [die-after-commit]

It prints `played GAME PLY` after each committed move, `done` when every game of its own
reached TARGET_PLY, and `fired JOB OUTCOME` for each timer job it fired; then it keeps its
scheduler running until killed. The time is the number in CLOCK_FILE (written by the test).
GAME_IDS may be empty (a process that only fires jobs). With `die-after-commit` it prints
`committed GAME VERSION` after its first commit and SIGKILLs itself there, before anything
else the commit is followed by (the commit hooks)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

import engine
from bot.services import GameService
from bot.services.base import UserError
from bot.services.correspondence import Correspondence
from bot.services.scheduler import Job, JobStore, Scheduler
from bot.storage.postgres import PostgresStorage


class SharedFileClock:
    """The time in a file every process reads; sleeps at most `tick` seconds at a time."""

    fake = True

    def __init__(self, path: str, tick: float = 0.05) -> None:
        self.path, self.tick = Path(path), tick

    def now(self) -> float:
        return float(self.path.read_text())

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        while when is None or when > self.now():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.tick)
            if wake.is_set():
                return


def say(*words: object) -> None:
    """Print one report line in one write: `print(*words)` writes each word and separator apart
    when stdout is unbuffered, so a SIGKILL between them left a bare "played" in the pipe."""
    sys.stdout.write(" ".join(map(str, words)) + "\n")
    sys.stdout.flush()


async def main(
    url: str, clock_file: str, game_ids: list[int], target: int, die_after_commit: bool = False
) -> None:
    storage = await PostgresStorage.open(url)
    games = GameService(storage)
    clock = SharedFileClock(clock_file)
    corr = Correspondence(games, clock)
    games.core.after = corr.timers
    if die_after_commit:
        timers = corr.timers

        class DieAfterCommit:
            """The timers' planning in the commit, then the process killed before anything
            follows the commit."""

            in_commit = timers.in_commit
            on_end = timers.on_end

            async def on_commit(self, game, state) -> None:
                say("committed", game.id, game.version)
                os.kill(os.getpid(), signal.SIGKILL)

        games.core.after = DieAfterCommit()

    async def fire(job: Job) -> str:
        outcome = (await corr.fire(job)).outcome
        say("fired", job.id, outcome)
        return outcome

    scheduler = Scheduler(JobStore(storage), clock, fire, poll=0.05)
    scheduler.start()
    todo = set(game_ids)
    while todo:
        for game_id in sorted(todo):
            game = await games.core.get_game(game_id)
            assert game is not None
            state = await games.core.state(game)
            ply = len(await storage.actions(game_id))
            if ply >= target or state.is_over:
                todo.discard(game_id)
                continue
            user = game.seats[state.current_seat].user_id
            with contextlib.suppress(UserError):
                result = await games.turns.play(game_id, user, str(engine.legal_actions(state)[0]))
                say("played", game_id, len(await storage.actions(game_id)), result.game.version)
    say("done")
    await asyncio.Event().wait()


if __name__ == "__main__":
    url, clock_file, ids, target = sys.argv[1:5]
    die_after_commit = sys.argv[5:] == ["die-after-commit"]
    game_ids = [int(i) for i in ids.split(",") if i]
    asyncio.run(main(url, clock_file, game_ids, int(target), die_after_commit))
