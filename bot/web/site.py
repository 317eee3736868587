"""The web companion's server (issue 59): aiohttp's, in the bot's process or in its own
(`python -m bot.web`), over the same database.

Routes (every page is found only through a link the bot gives, `bot.services.web`):

- `/g/<game>/<token>`: a game, live while it is played (its script follows `…/events`, Server-Sent
  Events: a new version of the page's changing part within `POLL_S` of each commit);
- `/g/<game>/<token>/replay` and `…/step/<n>`: a finished game's replay, a step at a time;
- `/g/<game>/<token>/review`: its review, the costly turns marked on the chart;
- `/p/<server>/<player>/<token>`: a player's profile in that server;
- `/b/<server>/<token>`: the server's leaderboards;
- `/static/site.css`, `/static/site.js`.

Every answer carries a content security policy (no inline script or style, nothing from
elsewhere), no referrer (the links' tokens stay on the page), no caching of the pages, and no
framing. Each address gets `WebSettings.rate` requests a second (a burst of `BURST`); an event
stream counts once, and an address may hold `WebSettings.streams` of them open at once. No path is logged (a link's token is a key to the page).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from bot.config import WebSettings
from bot.present import story
from bot.present.replays import Lru, Replay, replay
from bot.services import GameService
from bot.services.reviews import people
from bot.services.web import GameWatch, ShownGame, token
from bot.storage import UnreadableGame
from bot.web import pages, static
from translation import LANGUAGES

if TYPE_CHECKING:  # types only: the site reads the services
    from bot.storage import GameRow
    from engine import GameState

log = logging.getLogger(__name__)

#: The content security policy of every answer: the site's own script and style only.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: The requests an address may make at once before the rate applies.
BURST = 40
#: A viewer's events not yet sent (a slower one is disconnected; its browser reconnects).
QUEUE = 16
#: A comment line sent to every viewer this often, so that a closed connection is noticed.
KEEPALIVE_S = 20.0
#: Live games whose last turns' positions are kept (`Told`).
TOLD_KEPT = 500
#: What ends a viewer's stream (its server took its games off the site).
END = b""
#: Replays kept (their positions): a few finished games looked at at once.
REPLAYS_KEPT = 8


def language(request: web.Request) -> str:
    """The reader's language: `?lang=` when it names one of ours, else the first of
    Accept-Language's (by weight) that is ours, else English."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("Accept-Language", "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            with contextlib.suppress(ValueError):
                weight = float(params.strip()[2:])
        code = tag.strip().lower().split("-")[0]
        if code == "iw":
            code = "he"
        wanted.append((-weight, i, code))
    for _w, _i, code in sorted(wanted):
        if code in LANGUAGES:
            return code
    return "en"


@dataclass
class Bucket:
    tokens: float
    at: float


@dataclass
class Limiter:
    """Requests per address: `rate` a second, `burst` at once (a token bucket)."""

    rate: float
    burst: float = BURST
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def allow(self, address: str, now: float) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget the idle addresses
                self.buckets = {
                    a: b for a, b in self.buckets.items() if now - b.at < self.burst / self.rate
                }
            bucket = self.buckets[address] = Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True


@dataclass(eq=False)
class Viewer:
    """One open event stream: its language and the events not yet written to it."""

    lang: str
    queue: asyncio.Queue[bytes]

    def send(self, event: bytes, latest: bool = False) -> None:
        """Queue an event; a viewer that fell `QUEUE` events behind (or `latest`) gets it
        alone: each event holds the whole changing part, the newest replaces the others."""
        if latest or self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(event)


class Hub:
    """The viewers of each live game, and what each new version of it sends them: the live
    part of the page is built once per version and language, then queued to every viewer."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.viewers: dict[int, set[Viewer]] = {}
        self.watch = GameWatch(games.core, self._changed)
        self._busy: set[int] = set()
        self._again: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.told: Told = {}
        #: for the bench: (game id, version) -> when its event was queued (loop time)
        self.sent_at: Callable[[int, int], None] | None = None

    async def start(self) -> None:
        await self.watch.start()

    async def stop(self) -> None:
        await self.watch.stop()
        for task in list(self._tasks):
            task.cancel()

    def join(self, game: GameRow, lang: str) -> Viewer:
        viewer = Viewer(lang, asyncio.Queue(QUEUE))
        self.viewers.setdefault(game.id, set()).add(viewer)
        self.watch.watch(game.id, game.version)
        return viewer

    def leave(self, game_id: int, viewer: Viewer) -> None:
        watching = self.viewers.get(game_id)
        if watching is None:
            return
        watching.discard(viewer)
        if not watching:
            del self.viewers[game_id]
            self.watch.unwatch(game_id)

    def _changed(self, game_id: int, version: int) -> None:
        if game_id in self._busy:
            self._again.add(game_id)
            return
        self._busy.add(game_id)
        task = asyncio.create_task(self._send(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                await self._send_once(game_id)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("sending a game's new version failed", extra={"game_id": game_id})
        finally:
            self._busy.discard(game_id)

    async def _send_once(self, game_id: int) -> None:
        viewers = self.viewers.get(game_id)
        if not viewers:
            return
        game = await self.games.core.get_game(game_id)
        if game is None or game.config is None:
            return
        path = await self.games.web.game_path(game)
        if path is None:  # `/ps web off`: the streams end
            for viewer in list(viewers):
                viewer.send(END, latest=True)
            return
        game = await self.games.web.without_hidden(game)
        langs = {v.lang for v in viewers}
        made = await live_parts(self.games, game, path, langs, self.told)
        for lang, fragment in made.items():
            event = pages.event(game, fragment)
            for viewer in list(viewers):
                if viewer.lang != lang:
                    continue
                viewer.send(event)
        if self.sent_at is not None:
            self.sent_at(game.id, game.version)


#: The positions of the live games' last turns kept between tellings (`story.tell`'s `known`):
#: a game's next telling replays only the actions since.
Told = dict[int, dict[int, tuple[int, "GameState"]]]


async def live_parts(
    games: GameService, game: GameRow, path: str, langs: set[str], told: Told | None = None
) -> dict[str, str]:
    """The live part of a game's page (at `path`) in each language (its links to the replay
    and review once it is over); `told` keeps the positions its story replayed, for the next
    telling. The story and the pages are made in one thread's run (each wait for a thread is
    a turn of the loop and a wake-up of the thread, which a busy machine makes slow)."""
    state = await games.core.state(game)
    rows = await games.records.log(game)
    known = None if told is None else told.get(game.id)
    keep: dict[int, tuple[int, GameState]] = {}
    links = pages.LiveLinks()
    if game.status == "over":
        links = pages.LiveLinks(f"{path}/replay", f"{path}/review")

    def made() -> dict[str, str]:
        turns = story.tell(game, state, rows, known, keep)
        return {
            lang: pages.live_fragment(game, state, turns, lang, links) for lang in sorted(langs)
        }

    fragments = await asyncio.to_thread(made)
    if told is not None:
        if game.status == "active" and not state.is_over:
            told[game.id] = keep
            while len(told) > TOLD_KEPT:
                del told[next(iter(told))]
        else:
            told.pop(game.id, None)
    return fragments


class Site:
    """The web companion: its aiohttp application and where it listens."""

    def __init__(self, games: GameService, settings: WebSettings) -> None:
        self.games = games
        self.settings = settings
        self.hub = Hub(games)
        self.limiter = Limiter(settings.rate)
        #: the event streams open per address (at most `WebSettings.streams`)
        self.streams: dict[str, int] = {}
        self.replays: Lru[int, Replay] = Lru(REPLAYS_KEPT)
        self.runner: web.AppRunner | None = None
        self.app = web.Application(middlewares=[self._guard])
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/static/site.css", self.css)
        self.app.router.add_get("/static/site.js", self.js)
        self.app.router.add_get("/g/{game:[0-9]{1,19}}/{token}", self.live)
        self.app.router.add_get("/g/{game:[0-9]{1,19}}/{token}/events", self.events)
        self.app.router.add_get("/g/{game:[0-9]{1,19}}/{token}/replay", self.replay)
        self.app.router.add_get("/g/{game:[0-9]{1,19}}/{token}/step/{step:[0-9]{1,5}}", self.step)
        self.app.router.add_get("/g/{game:[0-9]{1,19}}/{token}/review", self.review)
        self.app.router.add_get("/p/{guild:[0-9]{1,19}}/{user:[0-9]{1,19}}/{token}", self.profile)
        self.app.router.add_get("/b/{guild:[0-9]{1,19}}/{token}", self.boards)

    # --- running ---

    async def start(self) -> None:
        await self.hub.start()
        self.runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self.runner.setup()
        tcp = web.TCPSite(self.runner, self.settings.host, self.settings.port, backlog=2048)
        await tcp.start()
        log.info(
            "web companion listening",
            extra={"host": self.settings.host, "port": self.port, "updates": self.hub.watch.mode},
        )

    @property
    def port(self) -> int:
        """The port listened on (the one the system chose for port 0)."""
        if self.runner is None:
            return self.settings.port
        for server in self.runner.addresses:
            return int(server[1])
        return self.settings.port

    async def stop(self) -> None:
        await self.hub.stop()
        if self.runner is not None:
            await self.runner.cleanup()

    # --- every answer ---

    def _address(self, request: web.Request) -> str:
        if self.settings.forwarded:
            hops = request.headers.get("X-Forwarded-For", "")
            if hops:
                return hops.split(",")[-1].strip()
        return request.remote or "?"

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        lang = language(request)
        response: web.StreamResponse
        if not self.limiter.allow(self._address(request), time.monotonic()):
            response = _html(pages.too_many(lang), 429)
            response.headers["Retry-After"] = "5"
        else:
            try:
                response = await handler(request)
            except (web.HTTPNotFound, UnreadableGame):  # (a damaged game is set aside, logged)
                response = _html(pages.not_found(lang), 404)
            except web.HTTPException as exc:
                response = web.Response(status=exc.status, text=exc.reason)
            except Exception:  # our bug: logged by the route's pattern (never its token)
                route = request.match_info.route.resource
                log.exception("a page failed", extra={"route": route.canonical if route else "?"})
                response = _html(pages.failed(lang), 500)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
            response.headers.setdefault("Cache-Control", "no-store")
            response.headers["Vary"] = "Accept-Language"
        return response

    # --- the pages ---

    async def index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPNotFound()

    async def css(self, request: web.Request) -> web.StreamResponse:
        return web.Response(
            text=static.CSS, content_type="text/css", headers={"Cache-Control": "max-age=3600"}
        )

    async def js(self, request: web.Request) -> web.StreamResponse:
        return web.Response(
            text=static.JS,
            content_type="text/javascript",
            headers={"Cache-Control": "max-age=3600"},
        )

    async def _game(self, request: web.Request) -> ShownGame:
        shown = await self.games.web.game(
            int(request.match_info["game"]), request.match_info["token"]
        )
        if shown is None:
            raise web.HTTPNotFound()
        return shown

    def _base(self, shown: ShownGame) -> str:
        return f"/g/{shown.game.id}/{shown.token}"

    async def live(self, request: web.Request) -> web.StreamResponse:
        shown = await self._game(request)
        lang = language(request)
        base = self._base(shown)
        fragment = (await live_parts(self.games, shown.game, base, {lang}, self.hub.told))[lang]
        events = f"{base}/events?lang={lang}"
        return _html(pages.live_page(shown.game, fragment, events, lang))

    async def events(self, request: web.Request) -> web.StreamResponse:
        shown = await self._game(request)
        lang = language(request)
        address = self._address(request)
        if self.streams.get(address, 0) >= self.settings.streams:
            return _html(pages.too_many(lang), 429)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # a proxy passes each event on at once
                **SECURITY_HEADERS,
            }
        )
        await response.prepare(request)
        viewer = self.hub.join(shown.game, lang)
        self.streams[address] = self.streams.get(address, 0) + 1
        try:
            fresh = await self.games.core.get_game(shown.game.id)
            if fresh is not None and fresh.version != shown.game.version:
                self.hub.watch.heard(fresh.id, fresh.version)  # a play between page and stream
            while True:
                try:
                    event = await asyncio.wait_for(viewer.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    event = b": keepalive\n\n"
                if event == END:
                    break
                await response.write(event)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.leave(shown.game.id, viewer)
            self.streams[address] -= 1
            if not self.streams[address]:
                del self.streams[address]
        return response

    async def _replay(self, shown: ShownGame) -> Replay:
        if shown.game.status != "over":
            raise web.HTTPNotFound()
        kept = self.replays.get(shown.game.id)
        if kept is not None and kept.game == shown.game:
            return kept
        made = await self.games.records.replay(shown.game, replay)
        return self.replays.put(shown.game.id, made)

    async def replay(self, request: web.Request) -> web.StreamResponse:
        shown = await self._game(request)
        kept = await self._replay(shown)
        lang = language(request)
        html = await asyncio.to_thread(
            pages.replay_page, shown.game, kept, kept.last, self._base(shown), lang
        )
        return _html(html)

    async def step(self, request: web.Request) -> web.StreamResponse:
        shown = await self._game(request)
        kept = await self._replay(shown)
        step = int(request.match_info["step"])
        if step > kept.last:
            raise web.HTTPNotFound()
        lang = language(request)
        return _html(pages.step_fragment(shown.game, kept, step, lang))

    async def review(self, request: web.Request) -> web.StreamResponse:
        shown = await self._game(request)
        kept = await self._replay(shown)
        lang = language(request)
        row = await self.games.web.review(shown.game)
        parts = None
        if row is not None:
            notations = [m.notation for m in kept.moves]
            parts = await asyncio.to_thread(people, shown.game, row, notations)
        html = await asyncio.to_thread(
            pages.review_page, shown.game, kept, parts, self._base(shown), lang
        )
        return _html(html)

    async def profile(self, request: web.Request) -> web.StreamResponse:
        guild_id, user_id = int(request.match_info["guild"]), int(request.match_info["user"])
        found = await self.games.web.profile(guild_id, user_id, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        secret = await self.games.web.link_secret(guild_id)
        links = {}
        if secret is not None:
            for game in found.recent:
                links[game.game_id] = f"/g/{game.game_id}/{token(secret, 'game', game.game_id)}"
        name = (await self.games.web.names(guild_id, [user_id])).get(user_id, "?")
        lang = language(request)
        return _html(pages.profile_page(found, name, links, lang))

    async def boards(self, request: web.Request) -> web.StreamResponse:
        guild_id = int(request.match_info["guild"])
        boards = await self.games.web.leaderboards(guild_id, request.match_info["token"])
        if boards is None:
            raise web.HTTPNotFound()
        secret = await self.games.web.link_secret(guild_id)
        links: dict[int, str] = {}
        for board, _names in boards:
            for entry in board.entries:
                if entry.user_id is not None and secret is not None:
                    mac = token(secret, "player", guild_id, entry.user_id)
                    links[entry.user_id] = f"/p/{guild_id}/{entry.user_id}/{mac}"
        return _html(pages.boards_page(boards, links, language(request)))


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")
