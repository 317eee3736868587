"""Board pictures for Discord messages: `render` draws and encodes (a palette PNG, made to be
read 400-550 px wide), `render.alt` says the same position in words.

Drawing is pure Python and Pillow work that holds the GIL most of its time. Under load (the
profile of `bench/bot_latency.py --games 50`) it was most of the bot's CPU, and drawn in a
thread it stalled the event loop and used one core. So `picture` draws in a small pool of worker
processes: both cores work and the event loop only waits for the answer. The pool is started
once (on first use, each worker loading fonts and the static board before its first real
picture), replaced when a worker dies (the picture is then drawn again in the new pool), and
stopped by `shutdown` when the bot closes. The same position asked again with the same arguments
(a resync, a second preview) is answered from a small cache keyed by the exact pickled position
and arguments, so a picture is always exactly its position.

`PICTURE_WORKERS` (environment) sets the number of worker processes (default: one per core, at
most 2); 0 draws in a thread of the bot's own process instead.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import io
import itertools
import multiprocessing
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import discord

import render
from render.alt import alt_text

from .config import ConfigError

#: Pictures kept for repeated requests (about 100 KB each).
CACHE_SIZE = 32


def board_png(
    state: Any,
    *,
    highlight: Sequence[Any] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
    lang: str | None = None,
) -> bytes:
    """`render.board_png` (same arguments; `lang` the language of the picture's words)."""
    return render.board_png(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=names,
        lang=lang,
    )


def board_picture(state: Any, **kwargs: Any) -> tuple[bytes, str]:
    """The picture `board_png` draws with `kwargs` and its alt text (`render.alt`: the
    position in words, at most 1,024 characters, what the picture shows and nothing more),
    both in the language `lang` (English when not given)."""
    return board_png(state, **kwargs), alt_text(state, **kwargs)


def _draw(state_bytes: bytes, kwargs: dict[str, Any]) -> tuple[bytes, str]:
    """In a worker: `board_picture` of the pickled position."""
    return board_picture(pickle.loads(state_bytes), **kwargs)


def _warm() -> int:
    """In a worker: load the fonts, sprites and static board before the first real picture."""
    import engine

    board_picture(engine.new_game(engine.Config(seats=("human", "human")), seed=1))
    return os.getpid()


def default_workers() -> int:
    """`PICTURE_WORKERS` from the environment, else one per core (at most 2)."""
    value = os.environ.get("PICTURE_WORKERS", "").strip()
    if not value:
        return min(2, os.cpu_count() or 1)
    if not value.isdigit():
        raise ConfigError(f"PICTURE_WORKERS must be a whole number (0 or more), not {value!r}.")
    return int(value)


@dataclass(order=True)
class _Request:
    """A picture waiting for a worker: those someone waits for first, then in order."""

    background: bool
    order: int
    key: bytes = field(compare=False)
    state_bytes: bytes = field(compare=False)
    kwargs: dict[str, Any] = field(compare=False)
    result: asyncio.Future[tuple[bytes, str]] = field(compare=False)
    tries: int = field(default=0, compare=False)


class Pictures:
    """Draws pictures in worker processes (in a thread when `workers` is 0 or once closed).

    The drawer keeps its own queue and hands a worker one picture at a time, so that a picture
    someone waits for (a panel's preview) is drawn before the background ones already queued
    (the public game message's), and the same picture asked for twice while it is being drawn
    is drawn once."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._cache: OrderedDict[bytes, tuple[bytes, str]] = OrderedDict()
        self._queue: list[_Request] = []
        self._busy = 0  # pictures handed to the workers and not yet back
        self._drawing: dict[bytes, asyncio.Future[tuple[bytes, str]]] = {}
        self._order = itertools.count()
        self._tasks: set[asyncio.Future[None]] = set()  # the drawings under way (referenced)
        #: How many pictures were drawn (cache hits and shared requests not counted).
        self.drawn = 0

    def _executor(self) -> Executor | None:
        with self._lock:
            if self._closed or self.workers <= 0:
                return None
            if self._pool is None:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["render", "engine", "bot.pictures"])
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
                for _ in range(self.workers):
                    self._pool.submit(_warm)
            return self._pool

    def _replace(self, broken: Executor) -> None:
        """Drop a pool whose worker died (the next picture starts a new one)."""
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def picture(
        self, state: Any, *, background: bool = False, **kwargs: Any
    ) -> tuple[bytes, str]:
        """`board_picture(state, **kwargs)`: PNG bytes and alt text. `background`: nobody
        waits for this one (drawn after every picture someone waits for)."""
        state_bytes = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        key = hashlib.blake2b(
            state_bytes + repr(sorted(kwargs.items())).encode(), digest_size=16
        ).digest()
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.get_running_loop().create_future()
            self._drawing[key] = drawing
            order = next(self._order)
            heapq.heappush(
                self._queue, _Request(background, order, key, state_bytes, kwargs, drawing)
            )
            self._next()
        elif not background:  # someone waits for it now: ahead of the background ones
            for request in self._queue:
                if request.key == key and request.background:
                    request.background = False
                    heapq.heapify(self._queue)
        return await asyncio.shield(drawing)  # one waiter cancelled: not the others

    def _next(self) -> None:
        """Hand queued pictures to free workers (to a thread when there are none)."""
        while self._queue and self._busy < max(1, self.workers):
            request = heapq.heappop(self._queue)
            self._busy += 1
            task = asyncio.ensure_future(self._draw(request))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _draw(self, request: _Request) -> None:
        """Draw a queued picture, hand it to its waiters and to the cache, then the next."""
        try:
            result = await self._run(request.state_bytes, request.kwargs)
        except BaseException as exc:
            if not request.result.done():
                request.result.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        else:
            self.drawn += 1
            self._cache[request.key] = result
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            if not request.result.done():
                request.result.set_result(result)
        finally:
            self._drawing.pop(request.key, None)
            self._busy -= 1
            self._next()

    async def _run(self, state_bytes: bytes, kwargs: dict[str, Any]) -> tuple[bytes, str]:
        """`_draw` in a worker (once more in a fresh pool if a worker died meanwhile; in a
        thread when there are no workers)."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self._executor()
            if pool is None:
                break
            try:
                return await loop.run_in_executor(pool, _draw, state_bytes, kwargs)
            except BrokenProcessPool:
                self._replace(pool)
        return await asyncio.to_thread(_draw, state_bytes, kwargs)

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none before the first picture)."""
        with self._lock:
            pool = self._pool
        return sorted(pool._processes or {}) if pool is not None else []

    def close(self) -> None:
        """Stop the workers (after the pictures being drawn); later pictures use a thread."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


_default: Pictures | None = None
_default_lock = threading.Lock()


def drawer() -> Pictures:
    """The process-wide drawer (made on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Pictures()
        return _default


async def picture(state: Any, *, background: bool = False, **kwargs: Any) -> tuple[bytes, str]:
    """`board_picture(state, **kwargs)` drawn by the process-wide drawer (`background`: after
    the pictures someone waits for)."""
    return await drawer().picture(state, background=background, **kwargs)


def shutdown() -> None:
    """Stop the process-wide drawer's workers (the bot calls this when it closes)."""
    global _default
    with _default_lock:
        current, _default = _default, None
    if current is not None:
        current.close()


def as_file(picture: tuple[bytes, str], filename: str) -> discord.File:
    """A picture and its alt text as a Discord attachment."""
    png, alt = picture
    return discord.File(io.BytesIO(png), filename=filename, description=alt)
