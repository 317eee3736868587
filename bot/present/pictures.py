"""Board pictures for Discord messages: `render` draws and encodes (a palette PNG, made to be
read on a phone, 360-400 px wide: the layouts below), `render.alt` says the same position in
words.

Drawing is pure Python and Pillow work that holds the GIL most of its time. Under load (the
profile of `bench/bot_latency.py --games 50`) it was most of the bot's CPU, and drawn in a
thread it stalled the event loop and used one core. So `picture` draws in a small pool of worker
processes: both cores work and the event loop only waits for the answer. The pool is started
once (on first use, each worker loading fonts and the static board before its first real
picture), replaced when a worker dies (the picture is then drawn again in the new pool), and
stopped by `shutdown` when the bot closes (the pool is `bot.workers.WorkerPool`, shared with the
Expert's decisions). The same position asked again with the same arguments
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
import os
import pickle
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, Unpack

import render
import translation
from bot.workers import ProcessWide, WorkerPool, workers_from_env
from engine import Config, GameState, new_game
from render.alt import alt_text

if TYPE_CHECKING:
    import discord

#: Pictures kept for repeated requests (about 100 KB each).
CACHE_SIZE = 32
#: The layout of each kind of picture the bot sends (`render.draw.LAYOUTS`), every one made to
#: be read on a phone (no text under 9 px shown 400 px wide; `tests/test_bot_every_picture.py`).
#: The game message's picture (and the next-sun preview, a replay's step, an abandoned game's,
#: a lesson's): the board, the sun, the round and the scoring piles; what each seat has is in
#: the message's text (`embeds.seat_fields`).
GAME_LAYOUT = "phone"
#: The private picture after each action of the panel: the board and the card of the one
#: playing (their light, pieces, store with its prices, tokens, animal) under it.
PANEL_LAYOUT = "phone-own"
#: `/ps rules`'s sample positions: the board and every seat's card under it.
RULES_LAYOUT = "phone-cards"
#: `/ps rules`'s sample position: a 3-seat game played by the autopilot until this round.
RULES_SAMPLE_SEED = 7
RULES_SAMPLE_ROUND = 5
RULES_SAMPLE_NAMES = ("Ash", "Birch", "Cedar")
#: The sample position of `/ps rules topic:moonlight`: an expansion game (all three modes) of two
#: people played by the autopilot and a Cynthia, a few rounds in.
MOON_SAMPLE_SEED = 46
MOON_SAMPLE_ROUND = 4


class Said(TypedDict, total=False):
    """What a picture shows besides the position, said the same in its alt text: `board_png`'s
    keyword arguments but the layout."""

    highlight: Sequence[str | tuple[int, str]]
    preview_sun: int | None
    viewer_seat: int | None
    names: Sequence[str] | None
    lang: str | None
    marks: Sequence[str]
    abandoned: bool


class Drawing(Said, total=False):
    """A picture's keyword arguments (`picture`, `board_picture`): what it shows, and its
    layout (`render.draw.LAYOUTS`: `GAME_LAYOUT`, `PANEL_LAYOUT`, `RULES_LAYOUT`)."""

    layout: str


def board_png(
    state: GameState,
    *,
    highlight: Sequence[str | tuple[int, str]] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
    lang: str | None = None,
    marks: Sequence[str] = (),
    layout: str = GAME_LAYOUT,
    abandoned: bool = False,
) -> bytes:
    """`render.board_png` (same arguments; `lang` the language of the picture's words,
    `marks` the spaces a lesson of the tutorial talks about, `layout` one of
    `render.draw.LAYOUTS`, by default the game message's `GAME_LAYOUT` (the bot sends no
    "wide" picture); `abandoned`: nobody to play)."""
    return render.board_png(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=_names(names, lang),
        lang=lang,
        marks=marks,
        layout=layout,
        abandoned=abandoned,
    )


def _names(names: Sequence[str] | None, lang: str | None) -> list[str] | None:
    """The seats' names in `lang` (an Expert's seat name is a `translation.Text`)."""
    return None if names is None else [translation.translate(n, lang) for n in names]


def board_picture(
    state: GameState, *, layout: str = GAME_LAYOUT, **said: Unpack[Said]
) -> tuple[bytes, str]:
    """The picture `board_png` draws with these arguments and its alt text (`render.alt`: the
    position in words, at most 1,024 characters, what the picture shows and nothing more),
    both in the language `lang` (English when not given); the words are the same whatever the
    `layout`."""
    if said.get("names") is not None:
        said["names"] = _names(said["names"], said.get("lang"))
    return board_png(state, layout=layout, **said), alt_text(state, **said)


def sample_position_png(lang: str | None = None) -> tuple[bytes, str]:
    """The board picture for `/ps rules`: a game of three people played by the autopilot a few
    rounds in (pure; run it in a thread)."""
    from engine.players import AutopilotPlayer, play_until

    state = new_game(Config(seats=("human",) * 3), seed=RULES_SAMPLE_SEED)
    players = {k: AutopilotPlayer() for k in range(3)}
    state, _ = play_until(
        state, players, lambda s: s.phase != "setup" and s.round >= RULES_SAMPLE_ROUND
    )
    return board_picture(state, names=list(RULES_SAMPLE_NAMES), lang=lang, layout=RULES_LAYOUT)


def moonlight_sample_png(lang: str | None = None) -> tuple[bytes, str]:
    """The board picture for `/ps rules topic:moonlight` (pure; run it in a thread)."""
    from engine.players import AutopilotPlayer, CynthiaPlayer, play_until

    config = Config(
        seats=("human", "human", "cynthia"), moon_animals=True, elder_tree=True, moonstones=True
    )
    state = new_game(config, seed=MOON_SAMPLE_SEED)
    players = {
        k: CynthiaPlayer() if kind == "cynthia" else AutopilotPlayer()
        for k, kind in enumerate(config.seats)
    }
    state, _ = play_until(
        state, players, lambda s: s.phase != "setup" and s.round >= MOON_SAMPLE_ROUND
    )
    names = [*RULES_SAMPLE_NAMES[:2], "Cynthia"]
    return board_picture(state, names=names, lang=lang, layout=RULES_LAYOUT)


#: The picture each rules topic shows (None: no picture).
RULES_PICTURES = {"base": sample_position_png, "moonlight": moonlight_sample_png}


def _draw(state_bytes: bytes, kwargs: Drawing) -> tuple[bytes, str]:
    """In a worker: `board_picture` of the pickled position."""
    return board_picture(pickle.loads(state_bytes), **kwargs)


def _warm() -> int:
    """In a worker: load the fonts, sprites and static board before the first real picture."""
    import engine

    state = engine.new_game(engine.Config(seats=("human", "human")), seed=1)
    board_picture(state, layout=GAME_LAYOUT)  # (the wide layout is not sent)
    board_picture(state, layout=PANEL_LAYOUT, viewer_seat=0)
    return os.getpid()


def default_workers() -> int:
    """`PICTURE_WORKERS` from the environment, else one per core (at most 2)."""
    return workers_from_env("PICTURE_WORKERS")


@dataclass(order=True)
class _Request:
    """A picture waiting for a worker: those someone waits for first, then in order."""

    background: bool
    order: int
    key: bytes = field(compare=False)
    state_bytes: bytes = field(compare=False)
    kwargs: Drawing = field(compare=False)
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
        self._pool = WorkerPool(
            self.workers, preload=["render", "engine", "bot.present.pictures"], warm=_warm
        )
        self._cache: OrderedDict[bytes, tuple[bytes, str]] = OrderedDict()
        self._queue: list[_Request] = []
        self._busy = 0  # pictures handed to the workers and not yet back
        self._drawing: dict[bytes, asyncio.Future[tuple[bytes, str]]] = {}
        self._order = itertools.count()
        self._tasks: set[asyncio.Future[None]] = set()  # the drawings under way (referenced)
        #: How many pictures were drawn (cache hits and shared requests not counted).
        self.drawn = 0

    async def picture(
        self, state: GameState, *, background: bool = False, **kwargs: Unpack[Drawing]
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
        """Draw a queued picture, hand it to its waiters and to the cache, then the next.

        Only the event loop's end cancels a drawing (its waiters are shielded from it): the
        queued pictures are then dropped with it, not started one after the other into an
        executor that is shut down."""
        try:
            result = await self._run(request.state_bytes, request.kwargs)
        except asyncio.CancelledError:
            request.result.cancel()
            self._drop_queued()
            raise
        except BaseException as exc:
            if not request.result.done():
                request.result.set_exception(exc)
            if not isinstance(exc, Exception):  # (the process is exiting)
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

    def _drop_queued(self) -> None:
        """Cancel every queued picture (a cancelled future, unlike a failed one, is not logged
        when nobody is left to read it)."""
        for request in self._queue:
            request.result.cancel()
            self._drawing.pop(request.key, None)
        self._queue.clear()

    async def _run(self, state_bytes: bytes, kwargs: Drawing) -> tuple[bytes, str]:
        """`_draw` in a worker of the shared machinery (`bot.workers.WorkerPool`: once more in
        a fresh pool if a worker died meanwhile; in a thread when there are no workers)."""
        return await self._pool.run(_draw, state_bytes, kwargs)

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none before the first picture)."""
        return self._pool.worker_pids()

    def close(self) -> None:
        """Stop the workers (after the pictures being drawn); later pictures use a thread."""
        self._pool.close()


_process_wide = ProcessWide(Pictures)


def drawer() -> Pictures:
    """The process-wide drawer (made on first use)."""
    return _process_wide.get()


async def picture(
    state: GameState, *, background: bool = False, **kwargs: Unpack[Drawing]
) -> tuple[bytes, str]:
    """`board_picture(state, **kwargs)` drawn by the process-wide drawer (`background`: after
    the pictures someone waits for)."""
    return await drawer().picture(state, background=background, **kwargs)


def shutdown() -> None:
    """Stop the process-wide drawer's workers (the bot calls this when it closes)."""
    _process_wide.shutdown()


def as_file(picture: tuple[bytes, str], filename: str) -> discord.File:
    """A picture and its alt text as a Discord attachment."""
    # (discord.py is imported here: the picture workers' forkserver imports this module, and
    # does not need discord.py, which took a third of a second of its start)
    import discord

    png, alt = picture
    return discord.File(io.BytesIO(png), filename=filename, description=alt)
