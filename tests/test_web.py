"""The web companion without a browser (issue 59): who sees what (links, `/ps web off`, hidden
and forgotten players), the security headers, the rate limit, the reader's language, the live
events, and the bytes of pages whose positions differ only in hidden information."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp import ClientSession

import engine
from bot.config import ConfigError, WebSettings, load_web_settings
from bot.present import story
from bot.services import GameService
from bot.services.web import HIDDEN_SEAT, token
from bot.storage import SQLiteStorage, SQLStorage
from bot.web import pages
from bot.web.site import CSP, Limiter, Site
from tests import hidden_game
from tests.conftest import ROOT
from tests.web_helpers import GUILD, HOST, played_game


@pytest.fixture
async def service(any_storage: SQLStorage) -> GameService:
    return GameService(any_storage, seed_source=lambda: 7)


def settings(**changes: Any) -> WebSettings:
    """The site on a port the system chooses, on loopback."""
    return WebSettings(
        **{"port": 0, "url": "http://example.test", "host": "127.0.0.1", "rate": 1000, **changes}
    )


@pytest.fixture
async def site(service: GameService) -> AsyncIterator[Site]:
    site = Site(service, settings())
    await site.start()
    yield site
    await site.stop()


@asynccontextmanager
async def reaching(site: Site) -> AsyncIterator[ClientSession]:
    async with ClientSession(base_url=f"http://127.0.0.1:{site.port}") as client:
        yield client


@pytest.fixture
async def client(site: Site) -> AsyncIterator[ClientSession]:
    async with reaching(site) as client:
        yield client


async def test_a_game_is_found_by_its_link_only_while_its_server_shows_it(
    service: GameService, client: ClientSession
) -> None:
    game = await played_game(service, 4)
    assert await service.web.game_path(game) is None  # off by default: no link
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game)
    assert path is not None and re.fullmatch(rf"/g/{game.id}/[A-Za-z0-9_-]{{22}}", path)
    page = await client.get(path)
    assert page.status == 200 and "Ann to play" in await page.text()
    for wrong in (path[:-1] + ("A" if path[-1] != "A" else "B"), f"/g/{game.id + 1}/{path[-22:]}"):
        assert (await client.get(wrong)).status == 404
    await service.web.turn_on(GUILD)  # on again: the same links
    assert await service.web.game_path(game) == path
    await service.web.turn_off(GUILD)
    gone = await client.get(path)
    assert gone.status == 404 and "no longer works" in await gone.text()
    await service.web.turn_on(GUILD)  # a new secret: the old link stays dead
    assert (await client.get(path)).status == 404
    assert (await client.get(await service.web.game_path(game) or "")).status == 200


async def test_every_answer_carries_the_security_headers(
    service: GameService, client: ClientSession
) -> None:
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""
    for url in (path, "/", "/static/site.js", "/static/site.css", "/g/1/nothing", "/nowhere"):
        answer = await client.get(url)
        assert answer.headers["Content-Security-Policy"] == CSP, url
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
    page = await (await client.get(path)).text()
    assert "<script>" not in page and "style=" not in page  # nothing inline: the policy allows none
    assert (await client.get(path)).headers["Cache-Control"] == "no-store"


def test_the_rate_limit_refuses_past_the_burst_then_refills() -> None:
    limiter = Limiter(rate=2, burst=3)
    assert [limiter.allow("a", 10.0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b", 10.0)  # another address has its own
    assert not limiter.allow("a", 10.4)  # 0.8 of a request refilled
    assert limiter.allow("a", 10.5) and not limiter.allow("a", 10.5)


async def test_too_many_requests_get_429_in_the_readers_language(service: GameService) -> None:
    site = Site(service, settings(rate=0.001))
    await site.start()
    async with reaching(site) as client:
        codes = [(await client.get("/static/site.css")).status for _ in range(41)]
        refused = await client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
        assert codes == [200] * 40 + [429] and refused.status == 429
        assert refused.headers["Retry-After"] == "5"
        assert 'lang="fr"' in await refused.text()
    await site.stop()


async def test_the_page_speaks_the_readers_language(
    service: GameService, client: ClientSession
) -> None:
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""
    hebrew = await (await client.get(path, headers={"Accept-Language": "he-IL,he;q=0.9"})).text()
    assert '<html lang="he" dir="rtl">' in hebrew
    dutch = await (await client.get(path, headers={"Accept-Language": "de;q=1, nl;q=0.8"})).text()
    assert '<html lang="nl" dir="ltr">' in dutch
    assert '<html lang="en" dir="ltr">' in await (await client.get(path)).text()


async def test_a_play_reaches_the_live_pages_viewers_as_an_event(
    service: GameService, site: Site, client: ClientSession
) -> None:
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""
    stream = await client.get(path + "/events")
    assert stream.headers["Content-Type"] == "text/event-stream"
    while not site.hub.viewers:  # the stream has joined
        await asyncio.sleep(0.01)
    state = await service.core.state(game)
    played = (await service.turns.play(game.id, HOST, str(engine.legal_actions(state)[0]))).game
    lines = []
    while not lines or lines[-1] != b"\n":
        lines.append(await asyncio.wait_for(stream.content.readline(), 10))
    data = json.loads(next(line for line in lines if line.startswith(b"data: "))[6:])
    assert data["version"] == played.version > game.version
    assert f'data-version="{played.version}"' in data["html"]
    stream.close()


async def test_hidden_and_forgotten_players_never_appear(
    service: GameService, client: ClientSession
) -> None:
    game = await played_game(service)  # over
    await service.web.turn_on(GUILD)
    profile = await service.web.profile_path(GUILD, HOST) or ""
    board = await service.web.board_path(GUILD) or ""
    shown = await client.get(profile)
    assert shown.status == 200 and "Ann" in await shown.text()
    await service.players.set_hidden(HOST, True)
    assert (await client.get(profile)).status == 404
    path = await service.web.game_path(game) or ""
    for url in (path, path + "/replay", path + "/step/1", board):
        text = await (await client.get(url)).text()
        assert "Ann" not in text, url
    assert str(HIDDEN_SEAT) in await (await client.get(path)).text()
    await service.players.set_hidden(HOST, False)
    assert (await client.get(profile)).status == 200
    await service.players.forget(HOST)
    assert (await client.get(profile)).status == 404
    assert "Ann" not in await (await client.get(path + "/replay")).text()


async def test_a_profile_link_is_signed_for_its_player_and_server(
    service: GameService, client: ClientSession
) -> None:
    await played_game(service)
    await service.web.turn_on(GUILD)
    secret = await service.web.link_secret(GUILD)
    assert secret is not None
    forged = f"/p/{GUILD}/{HOST + 1}/{token(secret, 'player', GUILD, HOST)}"
    assert (await client.get(forged)).status == 404
    other = f"/p/{GUILD + 1}/{HOST}/{token(secret, 'player', GUILD, HOST)}"
    assert (await client.get(other)).status == 404
    assert (await client.get(f"/b/{GUILD}/{token(secret, 'player', GUILD, HOST)}")).status == 404


async def test_a_finished_games_replay_steps_and_review(
    service: GameService, client: ClientSession
) -> None:
    game = await played_game(service)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""
    replay = await (await client.get(path + "/replay")).text()
    found = re.search(r'data-last="([0-9]+)"', replay)
    assert found is not None
    last = int(found[1])
    assert last == len(await service.records.log(game))
    assert 'data-step="1"' in replay and "Round 1" in replay
    step = await client.get(f"{path}/step/{last}")
    assert step.status == 200 and f'data-step="{last}"' in await step.text()
    assert (await client.get(f"{path}/step/{last + 1}")).status == 404
    review = await (await client.get(path + "/review")).text()
    assert "has not reviewed this game" in review  # none asked for


@pytest.mark.parametrize("until", [1, 3, 5])
def test_positions_differing_only_in_hidden_information_give_the_same_bytes(until: int) -> None:
    """Ann keeps one of two dealt animals: every page and event of the two games is the same."""
    made = []
    for keep in (0, 1):
        state, log = hidden_game.played(keep, until)
        turns = story.tell(hidden_game.GAME, state, log)
        out = []
        for lang in ("en", "he"):
            fragment = pages.live_fragment(hidden_game.GAME, state, turns, lang)
            out.append(pages.live_page(hidden_game.GAME, fragment, "/g/7/x/events", lang))
            out.append(pages.event(hidden_game.GAME, fragment).decode())
        made.append(out)
    assert made[0] == made[1]
    kept = [hidden_game.played(k, until)[0] for k in (0, 1)]
    assert kept[0].to_dict() != kept[1].to_dict()  # the games differ
    if until == 1:  # told: Ann kept an animal (not which)
        assert "Ann: kept an animal" in made[0][0]


def test_the_site_is_off_unless_web_port_is_set() -> None:
    assert load_web_settings({}) is None
    settings = load_web_settings({"WEB_PORT": "8080", "WEB_URL": "https://ps.example/"})
    assert settings == WebSettings(port=8080, url="https://ps.example")
    assert not settings.separate  # the bot's process serves the pages
    apart = load_web_settings({"WEB_PORT": "8080", "WEB_URL": "https://x", "WEB_SEPARATE": "1"})
    assert apart is not None and apart.separate  # `python -m bot.web` serves them
    for env, word in (
        ({"WEB_PORT": "80a", "WEB_URL": "https://x"}, "WEB_PORT"),
        ({"WEB_PORT": "80"}, "WEB_URL"),
        ({"WEB_PORT": "80", "WEB_URL": "https://x", "WEB_RATE": "-1"}, "WEB_RATE"),
    ):
        with pytest.raises(ConfigError, match=word):
            load_web_settings(env)


async def test_storage_knows_the_switch_and_the_versions(any_storage: SQLStorage) -> None:
    assert await any_storage.web_secret(3) is None
    await any_storage.set_web_secret(3, "s1")
    await any_storage.set_web_secret(3, "s2")  # on already: kept
    assert await any_storage.web_secret(3) == "s1"
    await any_storage.set_web_secret(3, None)
    assert await any_storage.web_secret(3) is None
    assert await any_storage.game_versions([]) == {}
    service = GameService(any_storage, seed_source=lambda: 7)
    game = await played_game(service, 1)
    assert await any_storage.game_versions([game.id, game.id + 9]) == {game.id: game.version}
    assert await any_storage.played_names([HOST, 999], GUILD) == {HOST: "Ann"}


async def test_postgres_announces_every_change_of_a_games_version(open_db) -> None:
    """PostgreSQL's notifications reach another connection (another process's); SQLite has
    none: its readers poll (`GameWatch`)."""
    storage = await open_db()
    heard: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
    listener = await open_db()  # another process's connection
    stop = await listener.listen_games(lambda g, v: heard.put_nowait((g, v)))
    if storage.dialect == "sqlite":
        assert stop is None
        return
    assert stop is not None
    game = await played_game(GameService(storage, seed_source=lambda: 7), 1)
    seen = set()
    while game.version not in {v for _, v in seen}:
        seen.add(await asyncio.wait_for(heard.get(), 10))
    assert {g for g, _ in seen} == {game.id}
    await stop()


async def test_an_address_holds_a_few_streams_and_web_off_ends_them(service: GameService) -> None:
    site = Site(service, settings(streams=2))
    await site.start()
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""
    async with reaching(site) as client:
        streams = [await client.get(path + "/events") for _ in range(2)]
        assert [s.status for s in streams] == [200, 200]
        while sum(len(v) for v in site.hub.viewers.values()) < 2:
            await asyncio.sleep(0.01)
        assert (await client.get(path + "/events")).status == 429
        await service.web.turn_off(GUILD)
        state = await service.core.state(game)
        await service.turns.play(game.id, HOST, str(engine.legal_actions(state)[0]))
        for stream in streams:  # ended, with no event: the page is gone
            assert await asyncio.wait_for(stream.content.read(), 10) == b""
        assert site.streams == {} and site.hub.viewers == {}
    await site.stop()


async def test_the_site_in_its_own_process_follows_the_plays_of_another(tmp_path) -> None:
    """`python -m bot.web` on the bot's SQLite file: a play committed by another process (the
    services here) reaches its viewers (it polls the watched games' versions)."""
    path = tmp_path / "bot.db"
    storage = await SQLiteStorage.open(str(path))
    service = GameService(storage, seed_source=lambda: 7)
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    link = await service.web.game_path(game) or ""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ, "DATABASE_PATH": str(path), "WEB_PORT": str(port),
        "WEB_URL": f"http://127.0.0.1:{port}", "WEB_HOST": "127.0.0.1", "LOG_LEVEL": "WARNING",
    }  # fmt: skip
    env.pop("DATABASE_URL", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.web", env=env, cwd=ROOT, stderr=asyncio.subprocess.PIPE
    )
    try:
        async with ClientSession(base_url=f"http://127.0.0.1:{port}") as client:
            for _ in range(200):  # until it listens
                try:
                    stream = await client.get(link + "/events")
                    break
                except OSError:
                    await asyncio.sleep(0.05)
            assert stream.status == 200
            state = await service.core.state(game)
            played = (
                await service.turns.play(game.id, HOST, str(engine.legal_actions(state)[0]))
            ).game
            seen = []  # (a version committed before the stream opened may come first)
            while played.version not in seen:
                line = await asyncio.wait_for(stream.content.readline(), 10)
                if line.startswith(b"data: "):
                    seen.append(json.loads(line[6:])["version"])
            assert seen[-1] == played.version and seen == sorted(seen)
            stream.close()
    finally:
        process.terminate()
        _, errors = await process.communicate()
        print(errors.decode())  # (pytest shows it when the test fails)
        assert process.returncode == 0
        await storage.close()


async def test_our_own_failure_is_an_apology_logged_without_the_link(
    service: GameService, client: ClientSession, monkeypatch, caplog
) -> None:
    game = await played_game(service, 2)
    await service.web.turn_on(GUILD)
    path = await service.web.game_path(game) or ""

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(pages, "live_fragment", broken)
    answer = await client.get(path)
    assert answer.status == 500 and "Something went wrong on my side" in await answer.text()
    assert answer.headers["Content-Security-Policy"] == CSP
    failed = [r for r in caplog.records if r.getMessage() == "a page failed"]
    assert [getattr(r, "route", None) for r in failed] == ["/g/{game}/{token}"]
    assert path[-22:] not in caplog.text
