"""A game's end without a winner: abandoned by its host (or a moderator), or a lobby left idle
until it expires. Both run what follows a game's end (`GameCore.ended`: the turn timers clear its clock)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from bot.services import refusals
from bot.services.base import UserError
from bot.services.core import GameCore
from bot.storage import GameRow, UnreadableGame, VersionConflict

log = logging.getLogger(__name__)


class EndingService:
    """Abandoning a game, and expiring idle lobbies."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage

    async def may_abandon(self, channel_id: int, user_id: int, can_manage: bool) -> GameRow:
        """The channel's live game, if `user_id` may abandon it (its host, or someone who can
        manage the channel); otherwise a `UserError`. (`/ps abandon` asks to confirm first.)"""
        game = await self.storage.live_game(channel_id)
        if game is None:
            raise UserError(refusals.NO_GAME_HERE)
        if user_id != game.host_id and not can_manage:
            raise UserError(refusals.ABANDON_FORBIDDEN)
        return game

    async def abandon(self, channel_id: int, user_id: int, can_manage: bool) -> GameRow:
        """End the channel's game early (its host, or someone who can manage the channel)."""
        game = await self.may_abandon(channel_id, user_id, can_manage)
        return await self.abandon_game(game.id, user_id, can_manage)

    async def abandon_game(
        self, game_id: int, user_id: int, can_manage: bool, *, channel_id: int | None = None
    ) -> GameRow:
        """End a game early (its host, or someone who can manage the channel)."""
        async with self.core.lock(game_id):
            game = await self.core.game_here(game_id, channel_id)
            if game is None or not game.is_live:
                raise UserError(refusals.NO_GAME_HERE)
            if user_id != game.host_id and not can_manage:
                raise UserError(refusals.ABANDON_FORBIDDEN)
            stored = await self.storage.update_game(game.id, game.version, status="abandoned")
            await self.core.ended(stored)
        self.core.forget(game.id)
        log.info("game abandoned", extra={"game_id": game.id, "user_id": user_id})
        return stored

    async def expire_lobbies(
        self, max_age: timedelta, now: datetime | None = None
    ) -> list[GameRow]:
        """Close lobbies untouched for longer than `max_age`, freeing their channels. Each lobby
        on its own: one that fails is logged and the others still expire (a damaged row is
        quarantined where it is read)."""
        now = now or datetime.now(UTC)
        expired = []
        for game in await self.storage.games_with_status("lobby"):
            if now - game.updated < max_age:
                continue
            try:
                async with self.core.lock(game.id):
                    try:
                        stored = await self.storage.update_game(
                            game.id, game.version, status="expired"
                        )
                    except VersionConflict:
                        continue  # touched meanwhile: not idle
                    await self.core.ended(stored)
            except UnreadableGame:
                continue  # quarantined and logged
            except Exception:
                log.exception("could not expire a lobby", extra={"game_id": game.id})
                continue
            expired.append(stored)
        return expired
