"""The web companion's use cases (issue 59): which servers show their games on the site, the
links to its pages and their check, and what a page may show.

A server's games and players appear on the site only after its admin turned it on (`/ps web
on`). Turning it on gives the server a random secret, kept in the database; every link to one
of its pages carries an HMAC of what it shows (`token`), so links cannot be guessed, and `/ps web
off` deletes the secret: every link of the server stops working (turned on again, the server
gets a new secret and new links). A player's page (profile) is found only while the player has
finished games in that server and has not hidden their profile: `/ps forget` takes their id off
every game, and so their page with it. In the games shown, a person who hid their profile is
`HIDDEN_SEAT`, without their id.

`GameWatch` tells the site, within `POLL_S`, that a watched game's version changed, whichever
process committed it: PostgreSQL announces each change (LISTEN/NOTIFY, migration 18); on SQLite
the versions of the watched games are read again every `POLL_S`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.ratings import FAMILIES, Family
from bot.services.core import GameCore
from bot.services.players import Hidden, LeaderboardPage, PlayerService, Profile
from bot.storage import GameRow, ReviewRow, SeatRow
from translation import _

log = logging.getLogger(__name__)

#: The name of a seat whose person hid their profile (the same words as the profile's).
HIDDEN_SEAT = _("a hidden player")
#: The characters of a link's token (an HMAC-SHA256 cut to 128 bits, in URL-safe base64).
TOKEN_CHARS = 22
#: How often the versions of the watched games are read on SQLite (seconds).
POLL_S = 0.1


def token(secret: str, *what: object) -> str:
    """The token of a link to `what` (its kind and ids), signed with a server's secret."""
    message = ":".join(str(part) for part in what).encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:TOKEN_CHARS]


def _matches(secret: str | None, given: str, *what: object) -> bool:
    return secret is not None and hmac.compare_digest(token(secret, *what), given)


@dataclasses.dataclass(frozen=True)
class ShownGame:
    """A game a link shows: its row (hidden people's seats renamed), and its token."""

    game: GameRow
    token: str


class WebService:
    """The site's switch per server, its links, and what each link may show."""

    def __init__(self, core: GameCore, players: PlayerService) -> None:
        self.core = core
        self.storage = core.storage
        self.players = players

    # --- /ps web on|off ---

    async def turn_on(self, guild_id: int) -> None:
        """Show the server's games and players on the site (its links keep working when it was
        on already)."""
        await self.storage.set_web_secret(guild_id, secrets.token_urlsafe(32))

    async def turn_off(self, guild_id: int) -> None:
        """Take the server's games and players off the site: every link of it stops working."""
        await self.storage.set_web_secret(guild_id, None)

    async def is_on(self, guild_id: int | None) -> bool:
        return guild_id is not None and await self.storage.web_secret(guild_id) is not None

    # --- links (paths under WEB_URL) ---

    async def game_path(self, game: GameRow) -> str | None:
        """The path of a game's page (live while played, then its replay and review); None when
        the server's site is off."""
        secret = None if game.guild_id is None else await self.storage.web_secret(game.guild_id)
        return None if secret is None else f"/g/{game.id}/{token(secret, 'game', game.id)}"

    async def profile_path(self, guild_id: int | None, user_id: int) -> str | None:
        """The path of a person's page in a server; None when the site is off there."""
        secret = None if guild_id is None else await self.storage.web_secret(guild_id)
        if secret is None:
            return None
        return f"/p/{guild_id}/{user_id}/{token(secret, 'player', guild_id, user_id)}"

    async def board_path(self, guild_id: int | None) -> str | None:
        """The path of a server's leaderboards; None when the site is off there."""
        secret = None if guild_id is None else await self.storage.web_secret(guild_id)
        return None if secret is None else f"/b/{guild_id}/{token(secret, 'board', guild_id)}"

    # --- what a link shows (None: nothing, to anyone) ---

    async def game(self, game_id: int, given: str) -> ShownGame | None:
        """A started game (played or over) of a server whose site is on, when `given` is its
        token; the seats of people who hid their profile are `HIDDEN_SEAT`'s."""
        game = await self.core.get_game(game_id)
        if game is None or game.guild_id is None or game.config is None:
            return None
        if game.status not in ("active", "over"):
            return None
        secret = await self.storage.web_secret(game.guild_id)
        if not _matches(secret, given, "game", game.id):
            return None
        return ShownGame(await self.without_hidden(game), given)

    async def without_hidden(self, game: GameRow) -> GameRow:
        """`game` with the seats of the people who hid their profile renamed, without their id."""
        people = [s.user_id for s in game.seats if s.user_id is not None]
        hidden = await self.storage.hidden_users(people) if people else set()
        if not hidden:
            return game
        seats = tuple(
            SeatRow(s.position, s.kind, None, HIDDEN_SEAT) if s.user_id in hidden else s
            for s in game.seats
        )
        return dataclasses.replace(game, seats=seats)

    async def review(self, game: GameRow) -> ReviewRow | None:
        """A finished game's review, when one was made and is done."""
        review = await self.storage.review(game.id)
        if review is None or review.status not in ("done", "posted"):
            return None
        return review

    async def profile(self, guild_id: int, user_id: int, given: str) -> Profile | None:
        """A person's profile in a server whose site is on, when `given` is its token, they
        have finished games there and did not hide it (a forgotten person has none: their id
        left every game)."""
        if not _matches(
            await self.storage.web_secret(guild_id), given, "player", guild_id, user_id
        ):
            return None
        profile = await self.players.profile(guild_id, user_id, reader_id=0)
        if isinstance(profile, Hidden) or profile.played == 0:
            return None
        return profile

    async def leaderboards(
        self, guild_id: int, given: str
    ) -> list[tuple[LeaderboardPage, dict[int, str]]] | None:
        """A server's leaderboards (the first page of each rule family), with the names its
        players last played under, when `given` is their token."""
        if not _matches(await self.storage.web_secret(guild_id), given, "board", guild_id):
            return None
        boards = []
        for family in FAMILIES:
            board = await self.players.leaderboard(family, guild_id, 0, None)
            people = [e.user_id for e in board.entries if e.user_id is not None]
            hidden = await self.storage.hidden_users(people) if people else set()
            entries = tuple(e for e in board.entries if e.user_id not in hidden)
            names = await self.storage.played_names(people, guild_id)
            boards.append((dataclasses.replace(board, entries=entries), names))
        return boards

    async def names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        return await self.storage.played_names(user_ids, guild_id)

    async def link_secret(self, guild_id: int) -> str | None:
        """A server's secret, for signing the links a page carries to other pages."""
        return await self.storage.web_secret(guild_id)


def family_of(name: str) -> Family | None:
    return next((f for f in FAMILIES if f == name), None)


class GameWatch:
    """Calls `changed(game_id, version)` when a watched game's stored version changes (by any
    process): PostgreSQL's notifications, else (SQLite) a read of the watched games' versions
    every `POLL_S`."""

    def __init__(self, core: GameCore, changed: Callable[[int, int], None]) -> None:
        self.storage = core.storage
        self.changed = changed
        self.versions: dict[int, int] = {}
        self._stop: Callable[[], Awaitable[None]] | None = None
        self._task: asyncio.Task[None] | None = None
        #: how the site learns of a play: "notify" (PostgreSQL) or "poll" (SQLite)
        self.mode = "poll"

    async def start(self) -> None:
        self._stop = await self.storage.listen_games(self.heard)
        if self._stop is not None:
            self.mode = "notify"
        else:
            self._task = asyncio.create_task(self._poll())

    def watch(self, game_id: int, version: int) -> None:
        self.versions.setdefault(game_id, version)

    def unwatch(self, game_id: int) -> None:
        self.versions.pop(game_id, None)

    def heard(self, game_id: int, version: int) -> None:
        """A game's version is known to be `version`: `changed` when it is newer."""
        known = self.versions.get(game_id)
        if known is not None and version > known:
            self.versions[game_id] = version
            self.changed(game_id, version)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_S)
            try:
                if self.versions:
                    for game_id, version in (
                        await self.storage.game_versions(list(self.versions))
                    ).items():
                        self.heard(game_id, version)
            except Exception:  # a failed read is tried again at the next poll
                log.exception("reading the watched games' versions failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._stop is not None:
            await self._stop()
