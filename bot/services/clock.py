"""The time the turn timers run on: the real clock, or (tests only) a clock read from a file.

Deadlines are UNIX times (float seconds). The scheduler asks its clock for `now()` and sleeps
with `sleep_until(when, wake)`, which returns at `when` or as soon as `wake` is set.

The controllable clock is for tests, never for production: it is used only when the environment
variable ``PS_FAKE_CLOCK_FILE`` names a file that exists and holds a number (the current fake
UNIX time); otherwise the bot refuses to start (`ConfigError`). It logs a warning at start. Fake
time moves only when a test rewrites the file, so with it the scheduler does not sleep on a
timer: it waits for a poke. A test pokes the bot process with SIGUSR1 after writing the file
(`install_poke_signal`); the real clock installs no signal handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from bot.config import ConfigError

log = logging.getLogger(__name__)

FAKE_CLOCK_ENV = "PS_FAKE_CLOCK_FILE"
#: The real clock never sleeps longer than this: a wall-clock jump is noticed within it.
MAX_SLEEP = 15 * 60.0


class Clock(Protocol):
    """What the scheduler and the turn timers need from time."""

    #: True for the test clock: the process then accepts SIGUSR1 pokes.
    fake: bool

    def now(self) -> float:
        """The current UNIX time in seconds."""
        ...

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        """Return at `when` (None: no due time), or earlier once `wake` is set."""
        ...


async def _wait(wake: asyncio.Event, timeout: float | None) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), timeout)


class RealClock:
    """Wall-clock time; sleeps on the event loop, at most `MAX_SLEEP` at a time."""

    fake = False

    def __init__(self, time_source: Callable[[], float] = time.time) -> None:
        self._time = time_source

    def now(self) -> float:
        return self._time()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        timeout = MAX_SLEEP if when is None else min(MAX_SLEEP, max(0.0, when - self.now()))
        if timeout > 0:
            await _wait(wake, timeout)


class FileClock:
    """Tests only: the current time is the number in a file; it moves when a test writes it.

    `sleep_until` returns at once when `when` has come, otherwise only when woken.
    """

    fake = True

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.now()  # fail early on a missing or malformed file

    def now(self) -> float:
        try:
            return float(self.path.read_text().strip())
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{FAKE_CLOCK_ENV}: cannot read a time from {self.path}") from exc

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        if when is not None and when <= self.now():
            return
        await _wait(wake, None)


def stored_time(clock: Clock) -> Callable[[], str]:
    """The time as the storage writes it (ISO 8601, UTC, milliseconds), read from `clock`:
    the bot's storage stamps its rows (a game's finish, so its season) on the bot's clock."""

    def now() -> str:
        return datetime.fromtimestamp(clock.now(), UTC).isoformat(timespec="milliseconds")

    return now


def clock_from_env(env: Mapping[str, str] | None = None) -> Clock:
    """The real clock, unless `PS_FAKE_CLOCK_FILE` is set (tests): then a `FileClock`."""
    env = os.environ if env is None else env
    path = env.get(FAKE_CLOCK_ENV, "").strip()
    if not path:
        return RealClock()
    if not Path(path).is_file():
        raise ConfigError(f"{FAKE_CLOCK_ENV} is set but {path!r} is not a file.")
    log.warning("FAKE CLOCK IN USE (tests only): time is read from a file", extra={"path": path})
    return FileClock(path)


def install_poke_signal(clock: Clock, poke: Callable[[], None]) -> bool:
    """With the test clock, make SIGUSR1 call `poke` (the test moved time). Returns whether it
    was installed (never with the real clock)."""
    if not clock.fake:
        return False
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, poke)
    return True
