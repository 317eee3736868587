"""The picture drawer: worker processes give exactly the picture of the position, survive a
worker's death, and stop cleanly."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import subprocess
import sys

import pytest

import engine
from bot.config import ConfigError
from bot.present import pictures
from render.demo import play_through, touched


@pytest.fixture(scope="module")
def positions():
    """Two positions of one game, one action apart, and what the later one's action touched."""
    config = engine.Config(seats=("human", "human", "cynthia"))
    state, _ = play_through(config, seed=7, rng_seed=7, stop=lambda s: s.round >= 4)
    later, last = play_through(config, seed=7, rng_seed=7, stop=lambda s: s.round >= 5)
    return state, later, touched(last)


async def test_workers_draw_exactly_the_position(positions) -> None:
    state, later, hl = positions
    drawer = pictures.Pictures(workers=1)
    try:
        kwargs = {
            "highlight": hl,
            "viewer_seat": 1,
            "names": ["Ash", "Birch", None],
            "layout": pictures.PANEL_LAYOUT,
        }  # (the viewer's card: a viewer is drawn)
        got = await drawer.picture(later, **kwargs)
        assert got == pictures.board_picture(later, **kwargs)
        assert got[0].startswith(b"\x89PNG")
        assert len(drawer.worker_pids()) == 1
        assert os.getpid() not in drawer.worker_pids()
        other = await drawer.picture(state, names=["Ash", "Birch", None])
        assert other == pictures.board_picture(state, names=["Ash", "Birch", None])
        assert other[0] != got[0]
        # asked again: the same bytes (from the cache), and a different argument is not a hit
        assert await drawer.picture(later, **kwargs) == got
        assert (await drawer.picture(later, **{**kwargs, "viewer_seat": 0}))[0] != got[0]
    finally:
        drawer.close()


async def test_a_killed_worker_is_replaced_and_the_picture_still_drawn(positions) -> None:
    state, later, _ = positions
    drawer = pictures.Pictures(workers=1)
    try:
        await drawer.picture(state)
        (pid,) = drawer.worker_pids()
        os.kill(pid, signal.SIGKILL)
        assert await drawer.picture(later) == pictures.board_picture(later)
        (new_pid,) = drawer.worker_pids()
        assert new_pid != pid
    finally:
        drawer.close()


async def test_close_stops_the_workers_and_later_pictures_are_drawn_here(positions) -> None:
    state, _, _ = positions
    drawer = pictures.Pictures(workers=1)
    await drawer.picture(state)
    (pid,) = drawer.worker_pids()
    drawer.close()
    assert drawer.worker_pids() == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert await drawer.picture(state, names=["A", "B", None]) == pictures.board_picture(
        state, names=["A", "B", None]
    )
    assert drawer.worker_pids() == []


async def test_a_picture_someone_waits_for_is_drawn_before_background_ones(positions) -> None:
    state, later, hl = positions
    drawer = pictures.Pictures(workers=1)
    done: list[str] = []

    async def ask(name: str, position, **kwargs) -> tuple[bytes, str]:
        got = await drawer.picture(position, **kwargs)
        done.append(name)
        return got

    try:
        first = asyncio.create_task(ask("first", state))
        await asyncio.sleep(0)  # handed to the only worker
        asked = [
            asyncio.create_task(ask("game message", later, background=True)),
            asyncio.create_task(ask("preview", later, highlight=hl, viewer_seat=0)),
            asyncio.create_task(ask("the same preview", later, highlight=hl, viewer_seat=0)),
        ]
        results = await asyncio.gather(first, *asked)
        assert done == ["first", "preview", "the same preview", "game message"]
        assert drawer.drawn == 3  # the same picture asked twice meanwhile is drawn once
        assert (
            results[2] == results[3] == pictures.board_picture(later, highlight=hl, viewer_seat=0)
        )
        assert results[1] == pictures.board_picture(later)
    finally:
        drawer.close()


def test_workers_default_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("PICTURE_WORKERS", "0")
    assert pictures.Pictures().workers == 0
    monkeypatch.setenv("PICTURE_WORKERS", "3")
    assert pictures.Pictures().workers == 3
    monkeypatch.setenv("PICTURE_WORKERS", "two")
    with pytest.raises(ConfigError, match="PICTURE_WORKERS must be a whole number"):
        pictures.Pictures()
    monkeypatch.delenv("PICTURE_WORKERS")
    assert pictures.Pictures().workers == min(2, os.cpu_count() or 1)


def test_the_picture_workers_forkserver_imports_no_discord_py() -> None:
    """The forkserver of the picture workers imports what `Pictures` preloads, in every bot
    process at its first picture: discord.py is not among it (it took a third of a second)."""
    preload = ", ".join(pictures.Pictures(workers=1)._pool.preload)
    probe = (
        f"import sys, {preload}; print(sorted(m for m in sys.modules if m.startswith('discord')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pictures_left_queued_at_the_loops_end_are_dropped_without_an_error(
    positions, caplog
) -> None:
    """A bot that shuts down with game messages' pictures still queued: the loop's end cancels
    the drawing under way, and the queued ones are dropped with it, not started one after the
    other into an executor already shut down, each failing with an error nobody reads (which
    asyncio logged, one ERROR a picture)."""
    state, later, _ = positions
    drawer = pictures.Pictures(workers=0)

    async def leave_pictures_queued() -> None:
        for k in range(4):
            names = [f"seat {k}", "B", None]
            asyncio.ensure_future(
                drawer.picture((state, later)[k % 2], background=True, names=names)
            )
        await asyncio.sleep(0)  # the first handed to a thread, three queued

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(leave_pictures_queued())
        gc.collect()
    assert [r.getMessage() for r in caplog.records] == []
    assert drawer._queue == [] and drawer._drawing == {} and drawer._busy == 0
