"""A zygote for the e2e tests' bot processes: one process that imports the bot once and forks.

Every e2e test starts one or more bot processes, some of them several times; each start of a
fresh interpreter spends about 0.9 s of CPU importing discord.py, aiohttp, Pillow and the bot
before it does anything, some 100 s of the suite's CPU on two cores. A :class:`Zygote` is a
process that has imported all of that once (:data:`PRELOAD`, nothing of it configured or
started), and read the shipped files the bot reads on first use (:func:`_read_data`: the
translation catalogs, the fonts' character maps), and then forks a bot process on request. The
child makes itself what a fresh ``python tests/e2e/launcher.py ...`` would be:

* its own session and process group (``start_new_session=True``);
* stdin from ``/dev/null``, stdout and stderr appended to the log file;
* the working directory and the whole environment of the request;
* then it runs :func:`tests.e2e.launcher.main` with the request's arguments and leaves through
  the interpreter's normal exit (``atexit`` handlers, non-daemon threads joined, exit code from
  ``SystemExit``), as the launcher's own process would.

Nothing of the bot ran in the zygote (but the reading of those files of the repository, kept as
they were read), and the bot reads its settings from the environment when it starts, so a forked
bot behaves like a fresh one; the module-level ``random`` generator is reseeded
in every fork by Python itself. The pytest process talks to its zygote over a socket pair (one JSON
line a request, one a reply): ``spawn`` returns the child's pid once the child has its own session
and has opened its log file; ``status`` returns an exit code (``-N`` for a signal N, as
:mod:`asyncio` reports it), reaping the child first if it has not been reaped on its SIGCHLD.
:class:`ZygoteProcess` is the test side of one child, with the part of
:class:`asyncio.subprocess.Process` that :class:`~tests.e2e.fakediscord.BotProcess` uses; it learns
of the exit from a pidfd.

The zygote is a test harness, not the product: ``make run`` starts ``python -m bot``, and the
e2e tests that check the real start (``test_startup_secrets``, the missing module) and the
benches still start fresh interpreters.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: What the zygote imports before its first fork: the bot, its extensions and storages, the
#: libraries they import, and the launcher (which imports discord.py's internals it patches in
#: the child).
PRELOAD = (
    "tests.e2e.launcher",
    "discord",
    "discord.gateway",
    "discord.http",
    "discord.state",
    "yarl",
    "dotenv",  # bot.__main__'s imports (not itself: runpy warns of a __main__ imported before)
    "bot.config",
    "bot.logs",
    "bot.present.texts",
    "bot.discord.app",
    "bot.services.clock",
    "bot.services.correspondence",
    "bot.services.scheduler",
    "bot.services.timers",
    "bot.storage.sqlite",
    "bot.storage.postgres",
    "bot.discord.cogs.board",
    "bot.discord.cogs.correspondence",
    "bot.discord.cogs.expert",
    "bot.discord.cogs.learn",
    "bot.discord.cogs.lobby",
    "bot.discord.cogs.play",
    "bot.discord.cogs.players",
    "render.review",
    "render.chart",
)


@functools.cache
def available() -> bool:
    """Whether this system can follow a forked child's exit from another process (Linux's
    pidfd, 5.3 and later); without it the tests start fresh interpreters."""
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


# --- the zygote process -------------------------------------------------------------------


@dataclass
class _Job:
    """What a forked child is to become."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    log_path: str


def _serve(channel: socket.socket) -> _Job | None:
    """Answer requests until the test process goes away (``None``: the zygote exits) or a fork
    happens (in the child: return the job it is to run)."""
    for name in PRELOAD:
        importlib.import_module(name)
    _read_data()
    if threading.active_count() != 1:  # a fork copies only the thread that forks
        raise RuntimeError(f"a preloaded module started a thread: {threading.enumerate()}")
    # What the imports made stays out of every child's garbage collections: a collection that
    # visited it would write to each object, and copy each page of it into the child.
    gc.collect()
    gc.freeze()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    statuses: dict[int, int] = {}

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            statuses[pid] = os.waitstatus_to_exitcode(status)

    reader = channel.makefile("rb")
    channel.sendall(b'{"ready": true}\n')
    while True:
        readable, _, _ = select.select([channel, wake_r], [], [])
        if wake_r in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 512)
            reap()
        if channel not in readable:
            continue
        line = reader.readline()
        if not line:
            return None
        request = json.loads(line)
        if request["op"] == "spawn":
            job = _Job(request["argv"], request["env"], request["cwd"], request["log_path"])
            started_r, started_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.setsid()
                _take_log(job.log_path)  # before the reply: the log exists once spawn returns
                for fd in (wake_r, wake_w, started_r):
                    os.close(fd)
                reader.close()
                channel.close()
                os.close(started_w)  # the zygote's reply may go: this process has its session
                return job
            os.close(started_w)
            os.read(started_r, 1)  # EOF once the child has its own session (or died)
            os.close(started_r)
            reply: dict[str, object] = {"pid": pid}
        elif request["op"] == "status":
            pid = request["pid"]
            if pid not in statuses:
                with contextlib.suppress(ChildProcessError):
                    _, status = os.waitpid(pid, 0)
                    statuses[pid] = os.waitstatus_to_exitcode(status)
            if pid in statuses:
                reply = {"pid": pid, "returncode": statuses.pop(pid)}
            else:
                reply = {"error": f"{pid} is no child of the zygote, or its code was given"}
        else:
            reply = {"error": f"unknown op {request['op']!r}"}
        channel.sendall(json.dumps(reply).encode() + b"\n")


def _read_data() -> None:
    """Read here, once, the shipped files each bot reads on first use: every language's
    catalogs (a bot translates its commands' names and descriptions into every language for the
    sync as it starts, parsing the .po files again: 0.15 s of CPU a bot), and the characters
    each font has (a seat's name is cleaned with them: up to 0.1 s). `translation._catalog` and
    `render.fonts._coverage` keep what the files say, and no test changes them while it runs,
    so a child that finds them read works as one that reads them itself."""
    import translation
    from render import fonts

    for lang in translation.LANGUAGES:
        translation._catalog(lang)
    for face in fonts.FACES:
        fonts._coverage(face)


def _take_log(log_path: str) -> None:
    """In the forked child: stdout and stderr appended to the log file."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)


def _become(job: _Job) -> None:
    """In the forked child, its log taken: stdin, directory and environment, then the launcher."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.chdir(job.cwd)
    os.environ.clear()
    os.environ.update(job.env)
    from tests.e2e import launcher

    launcher.main(job.argv)


def main() -> None:
    channel = socket.socket(fileno=int(sys.argv[1]))
    job = _serve(channel)
    if job is not None:
        _become(job)


# --- the test process's side --------------------------------------------------------------


class Zygote:
    """A zygote process and the channel to it (one per test process, see :func:`shared`)."""

    def __init__(self, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair()
        self._lock = threading.Lock()
        self._channel = ours
        self._reader = ours.makefile("rb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.zygote", str(theirs.fileno())],
            cwd=str(REPO_ROOT),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # (an xdist worker's stdout may be its channel)
            pass_fds=[theirs.fileno()],
        )
        theirs.close()
        ready = self._reader.readline()
        if not ready:
            self.close()
            raise RuntimeError(
                f"the zygote exited while importing (code {self.process.returncode})"
            )

    def _ask(self, request: dict[str, object]) -> dict[str, object]:
        with self._lock:
            self._channel.sendall(json.dumps(request).encode() + b"\n")
            line = self._reader.readline()
        if not line:
            raise RuntimeError("the zygote is gone")
        reply: dict[str, object] = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"zygote: {reply['error']}")
        return reply

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def spawn(self, argv: list[str], env: dict[str, str], cwd: str, log_path: str) -> ZygoteProcess:
        """Fork a bot process running ``launcher.main(argv)``; return it once it has its own
        session (its pid is its process group's id)."""
        reply = self._ask(
            {"op": "spawn", "argv": argv, "env": env, "cwd": cwd, "log_path": log_path}
        )
        pid = reply["pid"]
        assert isinstance(pid, int)
        return ZygoteProcess(self, pid)

    def returncode(self, pid: int) -> int:
        """The exit code of an exited child (waits for it if it is still running)."""
        code = self._ask({"op": "status", "pid": pid})["returncode"]
        assert isinstance(code, int)
        return code

    def close(self) -> None:
        for stream in (self._reader, self._channel):  # the reader holds the socket open too
            with contextlib.suppress(OSError):
                stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
            return
        self.process.kill()
        self.process.wait()


class ZygoteProcess:
    """A bot process forked by a :class:`Zygote`: ``pid``, ``returncode``, ``wait()`` and
    ``send_signal()``, as :class:`asyncio.subprocess.Process` has them."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid
        self.returncode: int | None = None
        self._exited: asyncio.Future[int] | None = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # gone already (and reaped): the zygote has its code
            self._pidfd = None
            self.returncode = zygote.returncode(pid)

    async def wait(self) -> int:
        if self.returncode is not None:
            return self.returncode
        if self._exited is None:
            loop = asyncio.get_running_loop()
            self._exited = loop.create_future()
            assert self._pidfd is not None
            loop.add_reader(self._pidfd, self._on_exit, loop)
        return await asyncio.shield(self._exited)

    def _on_exit(self, loop: asyncio.AbstractEventLoop) -> None:
        assert self._pidfd is not None and self._exited is not None
        loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        self._pidfd = None
        self.returncode = self._zygote.returncode(self.pid)
        self._exited.set_result(self.returncode)

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signum)


_shared: Zygote | None = None


def shared(env: dict[str, str]) -> Zygote | None:
    """This test process's zygote, started on first use with ``env`` (the bot processes' base
    environment); ``None`` where :func:`available` says no, or with ``E2E_ZYGOTE=0`` in the
    environment (fresh interpreters, as before, for a side-by-side measure)."""
    global _shared
    if os.environ.get("E2E_ZYGOTE", "1") == "0" or not available():
        return None
    if _shared is None or not _shared.alive:
        if _shared is not None:
            _shared.close()
        _shared = Zygote(env)
    return _shared


if __name__ == "__main__":
    main()
