"""Per-key asyncio locks that live only while someone holds or waits for them.

A `defaultdict(asyncio.Lock)` keyed by game id keeps one lock for every game ever played
(issue 13 item 12); here the entry goes away when its last user leaves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    """`async with locks.hold(key):` runs one holder per key at a time."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        """Hold `key`'s lock; the entry is dropped when no one holds or waits for it."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._entries[key]

    def __len__(self) -> int:
        """How many keys are held or waited for right now."""
        return len(self._entries)
