"""The zygote (``tests/e2e/zygote.py``) forks bot processes that are what a fresh interpreter
running the launcher would be: the same session of their own, directory, environment, open
files, arguments and exit codes; killed, they are gone with their group."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.fakediscord import LAUNCHER, BotProcess, FakeDiscord, bot_base_env
from tests.e2e.zygote import Zygote, available

pytestmark = pytest.mark.skipif(not available(), reason="no pidfd: the bots start fresh")

ARGS = [
    "--api",
    "http://127.0.0.1:9/api/v10",
    "--gateway",
    "ws://127.0.0.1:9/gateway/",
    "--module",
    "tests.e2e.zygote_probe",
]


@pytest.fixture
def zygote() -> Iterator[Zygote]:
    process = Zygote(bot_base_env())
    try:
        yield process
    finally:
        process.close()


def facts(log: Path) -> dict:
    (line,) = [line for line in log.read_text().splitlines() if line.startswith("{")]
    return json.loads(line)


async def fresh(env: dict[str, str], cwd: Path, log: Path) -> int:
    with open(log, "ab") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(LAUNCHER),
            *ARGS,
            cwd=str(cwd),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
    return await asyncio.wait_for(process.wait(), 30)


async def test_a_forked_bot_process_is_what_a_fresh_one_would_be(
    zygote: Zygote, tmp_path: Path
) -> None:
    env = {**bot_base_env(), "PROBE_EXIT": "3", "SOME_SETTING": "forked"}
    child = zygote.spawn(ARGS, env, str(tmp_path), str(tmp_path / "forked.log"))
    assert await asyncio.wait_for(child.wait(), 30) == 3
    assert child.returncode == 3
    assert await fresh(env, tmp_path, tmp_path / "fresh.log") == 3

    forked, started = facts(tmp_path / "forked.log"), facts(tmp_path / "fresh.log")
    assert forked["pid"] == child.pid
    for one in (forked, started):
        assert one["pgid"] == one["sid"] == one["pid"]  # a session and group of its own
        assert one["cwd"] == str(tmp_path)
        assert one["environ"] == env  # exactly the request's: nothing of the zygote's
        assert one["fds"] == [0, 1, 2]  # nothing of the zygote's channel or pipes
        assert one["stdin"] == os.devnull
        assert one["stdout_is_stderr"] is True
        assert one["threads"] == 1  # forked from a process with no other thread
    assert forked["argv"] == started["argv"]


async def test_a_killed_child_reports_the_signal_and_its_group_is_gone(
    zygote: Zygote, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    child = zygote.spawn(ARGS, {**bot_base_env(), "PROBE_WAIT": "1"}, str(tmp_path), str(log))
    assert log.exists()  # spawn returns once the child has opened its log
    for _ in range(600):  # until it says it waits (at most a minute)
        if "waiting" in log.read_text():
            break
        await asyncio.sleep(0.1)
    assert child.returncode is None
    os.killpg(child.pid, signal.SIGKILL)
    assert await asyncio.wait_for(child.wait(), 30) == -signal.SIGKILL
    with pytest.raises(ProcessLookupError):  # reaped: neither the process nor a zombie is left
        os.killpg(child.pid, 0)
    child.send_signal(signal.SIGTERM)  # once it has exited: nothing to signal, no error


async def test_an_exception_exits_with_1_and_its_traceback(zygote: Zygote, tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    child = zygote.spawn(ARGS, {**bot_base_env(), "PROBE_RAISE": "boom"}, str(tmp_path), str(log))
    assert await asyncio.wait_for(child.wait(), 30) == 1
    assert "RuntimeError: boom" in log.read_text()


async def test_each_child_is_a_new_process(zygote: Zygote, tmp_path: Path) -> None:
    children = [
        zygote.spawn(ARGS, bot_base_env(), str(tmp_path), str(tmp_path / f"{k}.log"))
        for k in range(3)
    ]
    assert [await asyncio.wait_for(c.wait(), 30) for c in children] == [0, 0, 0]
    pids = [facts(tmp_path / f"{k}.log")["pid"] for k in range(3)]
    assert pids == [c.pid for c in children] and len(set(pids)) == 3
    assert zygote.alive


async def test_a_forked_bot_that_cannot_start_is_reported(
    fake: FakeDiscord, tmp_path: Path, zygote: Zygote
) -> None:
    bot = BotProcess(fake, tmp_path, module="tests.e2e.no_such_module", zygote=zygote)
    await bot.start()
    with pytest.raises(RuntimeError, match="exited with code 1"):
        await fake.wait_ready(timeout=30)
    assert "No module named" in bot.output() and "tests.e2e.no_such_module" in bot.output()
    assert await bot.stop() == 1


async def test_a_forked_bot_starts_and_stops_as_a_fresh_one_does(bot_process, fake) -> None:
    bot = await bot_process()  # (the fixture forks it from this test process's zygote)
    assert bot.zygote is not None
    assert await bot.stop() == 0
    out = bot.output()
    assert '"message": "ready"' in out and '"message": "shutting down"' in out
    assert "Warning" not in out and "Traceback" not in out


def test_asking_for_the_code_of_no_child_of_its_own_is_refused(zygote: Zygote) -> None:
    with pytest.raises(RuntimeError, match="is no child of the zygote"):
        zygote.returncode(os.getpid())
    assert zygote.alive
