"""Fixtures for end-to-end tests against the loopback fake of Discord.

* ``fake``: a started :class:`FakeDiscord`; after the test it stops every bot process, and the test
  fails if anything tried to leave loopback (``fake.violations``), the fake hit an internal error
  (``fake.server_errors``), or a request or response broke Discord's OpenAPI spec
  (``fake.spec_violations``); requests to endpoints the fake lacks (``fake.unhandled``) give a
  warning, which fails the test too (``filterwarnings = ["error", ...]`` in pyproject.toml).
* ``bot_process``: a factory ``await bot_process(module="bot", env=None, wait=True)`` that starts a
  :class:`BotProcess` (forked from this test process's zygote, ``tests/e2e/zygote.py``) and (by
  default) waits until the bot is ready; every process is stopped after the test and its output is
  printed (pytest shows it when the test fails).
* ``loopback_only`` (autouse): the test process itself may not connect beyond loopback either.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.fakediscord import BotProcess, FakeDiscord, shared_zygote
from tests.e2e.launcher import install_guard

E2E = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/e2e/ carries the ``e2e`` marker (``pytest -m "not e2e"`` skips them)."""
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def loopback_only() -> Iterator[list[str]]:
    """Block non-loopback DNS and connections made by the test process; fail if any happened."""
    attempts: list[str] = []
    uninstall = install_guard(attempts.append)
    try:
        yield attempts
    finally:
        uninstall()
    assert not attempts, f"the test process tried to leave loopback: {attempts}"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started loopback fake of Discord (guild "Test Guild", channel fake.default_channel_id)."""
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    limits = server.limits
    if limits.rate_limited or limits.exhausted or server.late_interactions or limits.invalid:
        print(  # what Discord's limits did in this test (pytest shows it with -rA or on failure)
            f"fakediscord limits: buckets used up {limits.exhausted[:20]} "
            f"({len(limits.exhausted)}); "
            f"429s {limits.rate_limited[:20]} ({len(limits.rate_limited)}); "
            f"invalid requests {[w for _, w, _ in limits.invalid][:20]} ({len(limits.invalid)}); "
            f"late first answers {[(it.name, it.callback_delay) for it in server.late_interactions]}"
        )
    if server.unhandled:
        warnings.warn(
            f"fakediscord answered 404 to endpoints it does not implement: {server.unhandled}",
            stacklevel=1,
        )
    assert not server.violations, f"non-loopback requests from the bot: {server.violations}"
    assert not server.server_errors, f"fakediscord internal errors: {server.server_errors}"
    assert not server.spec_violations, (
        f"traffic Discord's OpenAPI spec does not allow: {server.spec_violations[:10]}"
    )


@pytest.fixture
async def bot_process(
    fake: FakeDiscord, tmp_path: Path
) -> AsyncIterator[Callable[..., Awaitable[BotProcess]]]:
    """Factory starting a bot process against ``fake``; ``module="bot"`` is the project's bot."""
    started: list[BotProcess] = []

    async def start(
        module: str = "bot",
        env: dict[str, str] | None = None,
        *,
        wait: bool = True,
        timeout: float = 30,
    ) -> BotProcess:
        # One picture worker a bot (the product's default is one per core): `make test` runs
        # six tests at once on two cores, and each worker warms up by drawing a picture.
        env = {"PICTURE_WORKERS": "1", **(env or {})}
        process = BotProcess(fake, tmp_path, env=env, module=module, zygote=shared_zygote())
        started.append(process)
        await process.start()
        if wait:
            await fake.wait_ready(timeout=timeout)
        return process

    try:
        yield start
    finally:
        for process in started:
            await process.stop()
            print(f"==== output of {process.module} ({process.log_path}) ====")
            print(process.output_tail(200))
