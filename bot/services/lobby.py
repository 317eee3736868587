"""The lobby: opening one, taking and leaving seats, seating bots, the options, the start, and
a rematch. A click on a lobby of another channel is refused (`GameCore.open_game`)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from typing import cast

import engine
from bot.services import refusals
from bot.services.base import (
    MAX_CYNTHIAS,
    MAX_SEATS,
    MIN_SEATS,
    StaleComponent,
    TurnResult,
    UserError,
    engine_config,
    normalize_options,
)
from bot.services.core import GameCore
from bot.services.experts import FORMER_BOT_KINDS, is_expert
from bot.services.plays import run_automa
from bot.services.seats import expert_name, mention
from bot.storage import ChannelBusy, GameOptions, GameRow, SeatKind, SeatRow, VersionConflict
from bot.storage.locks import KeyedLocks

log = logging.getLogger(__name__)


class LobbyService:
    """Lobbies: from `/ps new` to the start of the game, and rematches."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage
        self._channel_locks = KeyedLocks()

    async def new_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: GameOptions | None = None,
        language: str = "en",
    ) -> GameRow:
        """Open a lobby in a channel, the host in the first seat; `language` is the game's
        (its channel messages')."""
        async with self._channel_locks.hold(channel_id):
            if await self.storage.live_game(channel_id) is not None:
                raise UserError(refusals.CHANNEL_BUSY)
            try:
                game = await self.storage.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    host_name=host_name,
                    options=normalize_options(options),
                    seed=self.core.seed_source(),
                    language=language,
                )
            except ChannelBusy:
                raise UserError(refusals.CHANNEL_BUSY) from None
        log.info("lobby created", extra={"game_id": game.id, "channel_id": channel_id})
        return game

    async def _lobby(
        self, game_id: int, version: int | None, channel_id: int | None = None
    ) -> GameRow:
        """The game, checked to be a lobby at `version` (of the click's `channel_id`)."""
        return await self.core.open_game(
            game_id,
            version,
            not_status="active",
            refusal=refusals.ALREADY_STARTED,
            channel_id=channel_id,
        )

    async def _save_lobby(
        self,
        game: GameRow,
        *,
        seats: Sequence[SeatRow] | None = None,
        options: GameOptions | None = None,
    ) -> GameRow:
        try:
            return await self.storage.update_game(
                game.id, game.version, seats=seats, options=options
            )
        except VersionConflict:
            fresh = await self.storage.get_game(game.id)
            raise StaleComponent(fresh or game) from None

    @staticmethod
    def _renumber(seats: Sequence[SeatRow]) -> list[SeatRow]:
        return [SeatRow(i, s.kind, s.user_id, s.name) for i, s in enumerate(seats)]

    async def join(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        name: str,
        *,
        channel_id: int | None = None,
    ) -> GameRow:
        """Take a seat in the lobby. The version a Join button carries is not checked: what
        guards a seat is checked here, under the lock (already seated, the table full), so
        people clicking Join at the same moment are all seated."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, None, channel_id)
            if any(s.user_id == user_id for s in game.seats):
                raise UserError(refusals.ALREADY_JOINED)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(refusals.GAME_FULL)
            seats = [*game.seats, SeatRow(len(game.seats), "human", user_id, name)]
            return await self._save_lobby(game, seats=seats)

    async def leave(
        self, game_id: int, version: int | None, user_id: int, *, channel_id: int | None = None
    ) -> GameRow:
        """Give up a seat in the lobby (the host stays host, seated or not). Like `join`, not
        checked against the version shown: only whether the user is seated matters."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, None, channel_id)
            if not any(s.user_id == user_id for s in game.seats):
                raise UserError(refusals.NOT_IN_LOBBY)
            seats = self._renumber([s for s in game.seats if s.user_id != user_id])
            return await self._save_lobby(game, seats=seats)

    def _host_only(self, game: GameRow, user_id: int, sentence: str) -> None:
        if user_id != game.host_id:
            raise UserError(sentence.format(host=mention(game.host_id)))

    async def add_cynthia(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        host_only: str = refusals.HOST_ONLY_CYNTHIA,
        *,
        channel_id: int | None = None,
    ) -> GameRow:
        """Seat a Cynthia (host only: else `host_only` is the refusal)."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, host_only)
            cynthias = [s for s in game.seats if s.kind == "cynthia"]
            if len(cynthias) >= MAX_CYNTHIAS:
                raise UserError(refusals.TOO_MANY_CYNTHIAS)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(refusals.GAME_FULL)
            taken = {s.name for s in cynthias}
            name = "Cynthia" if "Cynthia" not in taken else "Cynthia 2"
            seats = [*game.seats, SeatRow(len(game.seats), "cynthia", None, name)]
            return await self._save_lobby(game, seats=seats)

    async def add_bot(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        kind: SeatKind,
        *,
        channel_id: int | None = None,
    ) -> GameRow:
        """Seat a bot (host only): Cynthia (at most 2), or the Expert (the strong one the lobby
        once offered is the Expert now: `FORMER_BOT_KINDS`)."""
        kind = cast("SeatKind", FORMER_BOT_KINDS.get(kind, kind))
        if not is_expert(kind):
            return await self.add_cynthia(
                game_id, version, user_id, refusals.HOST_ONLY_BOTS, channel_id=channel_id
            )
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, refusals.HOST_ONLY_BOTS)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(refusals.GAME_FULL)
            seat = SeatRow(len(game.seats), kind, None, expert_name(game.seats, kind))
            return await self._save_lobby(game, seats=[*game.seats, seat])

    async def remove_bot(
        self, game_id: int, version: int | None, user_id: int, *, channel_id: int | None = None
    ) -> GameRow:
        """Remove the last seated bot, Cynthia or Expert (host only)."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, refusals.HOST_ONLY_BOTS)
            bots = [s for s in game.seats if s.user_id is None]
            if not bots:
                raise UserError(refusals.NO_BOT)
            last = bots[-1]
            seats = self._renumber([s for s in game.seats if s is not last])
            return await self._save_lobby(game, seats=seats)

    async def remove_cynthia(
        self, game_id: int, version: int | None, user_id: int, *, channel_id: int | None = None
    ) -> GameRow:
        """Remove the last seated Cynthia (host only)."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, refusals.HOST_ONLY_CYNTHIA)
            cynthias = [s for s in game.seats if s.kind == "cynthia"]
            if not cynthias:
                raise UserError(refusals.NO_CYNTHIA)
            last = cynthias[-1]
            seats = self._renumber([s for s in game.seats if s is not last])
            return await self._save_lobby(game, seats=seats)

    async def set_options(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        options: GameOptions,
        *,
        channel_id: int | None = None,
    ) -> GameRow:
        """Change the lobby options (host only)."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, refusals.HOST_ONLY_OPTIONS)
            merged = normalize_options({**game.options, **options})
            try:
                engine_config(merged, ("human", "cynthia"))
            except ValueError as exc:
                raise UserError(exc.args[0] if exc.args else str(exc)) from None
            return await self._save_lobby(game, options=merged)

    async def start(
        self, game_id: int, version: int | None, user_id: int, *, channel_id: int | None = None
    ) -> TurnResult:
        """Start the game (host only): fix the seat order, create the engine state, let any
        Cynthia make her setup placements, and commit."""
        async with self.core.lock(game_id):
            game = await self._lobby(game_id, version, channel_id)
            self._host_only(game, user_id, refusals.HOST_ONLY_START)
            if len(game.seats) < MIN_SEATS:
                raise UserError(refusals.TOO_FEW_SEATS)
            if not any(s.kind == "human" for s in game.seats):
                raise UserError(refusals.NO_PERSON)
            seats = list(game.seats)
            if game.options.get("random_seats"):
                random.Random(game.seed).shuffle(seats)
            seats = self._renumber(seats)
            try:
                config = engine_config(game.options, [s.kind for s in seats])
            except ValueError as exc:
                raise UserError(exc.args[0] if exc.args else str(exc)) from None
            state = await asyncio.to_thread(engine.new_game, config, game.seed)
            state, applied = await asyncio.to_thread(run_automa, state, 1)
            stored = await self.core.commit_play(
                game,
                state,
                applied,
                seats=seats,
                config=config.to_dict(),
                status="over" if state.is_over else "active",
            )
            log.info("game started", extra={"game_id": game.id, "seats": len(seats)})
            return TurnResult(stored, state, tuple(applied), None, played=0)

    async def rematch(
        self, game_id: int, user_id: int, *, channel_id: int | None = None
    ) -> GameRow:
        """A new lobby in a finished game's channel with the same seats (those still seated at
        the end, in the same order) and the same options; the player asking is its host."""
        old = await self.core.game_here(game_id, channel_id)
        if old is None or old.status != "over":
            raise UserError(refusals.REMATCH_NOT_OVER)
        seats = list(old.seats)
        me = next((s for s in seats if s.user_id == user_id), None)
        if me is None:
            raise UserError(refusals.REMATCH_PLAYERS_ONLY)
        game = await self.new_lobby(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=user_id,
            host_name=me.name,
            options=old.options,
            language=old.language,
        )
        async with self.core.lock(game.id):
            game = await self._lobby(game.id, None)
            game = await self._save_lobby(game, seats=self._renumber(seats))
        log.info("rematch", extra={"game_id": game.id, "of": old.id})
        return game
