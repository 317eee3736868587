"""Per-game locks: one holder per game at a time, and no entry left for a game no one touches
(issue 13 item 12: the lock dictionary grew with every game ever played)."""

from __future__ import annotations

import asyncio

from bot.storage.locks import KeyedLocks


async def test_one_holder_per_key_and_other_keys_run_alongside() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(7):
            order.append("first in")
            first_in.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with locks.hold(7):
            order.append("second in")

    async def other_game() -> None:
        await first_in.wait()
        async with locks.hold(8):
            order.append("other game in")
        release.set()

    await asyncio.gather(first(), second(), other_game())
    assert order == ["first in", "other game in", "first out", "second in"]
    assert len(locks) == 0


async def test_entries_are_dropped_after_use_even_after_an_error_or_a_cancel() -> None:
    locks = KeyedLocks()
    for game_id in range(2000):
        async with locks.hold(game_id):
            assert len(locks) == 1
    assert len(locks) == 0

    try:
        async with locks.hold(1):
            raise ValueError("boom")
    except ValueError:
        pass
    assert len(locks) == 0

    holder_in = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold(5):
            holder_in.set()
            await release.wait()

    async def waiter() -> None:
        async with locks.hold(5):
            raise AssertionError("a cancelled waiter never gets the lock")

    held = asyncio.create_task(holder())
    await holder_in.wait()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert len(locks) == 1
    waiting.cancel()
    release.set()
    await held
    assert waiting.cancelled()
    assert len(locks) == 0
