"""Turns: the panel's position, a player's actions (clicked or typed), and undo.

A click carries the game version its component was drawn for and the channel it came from; a
typed command is pinned to the turn it was typed in. The game is read once, under its lock, and
the answer (`TurnResult`) carries all the cog needs to answer and the publisher to draw.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import engine
from bot.services import refusals
from bot.services.base import Applied, Turn, TurnResult, UserError
from bot.services.core import GameCore
from bot.services.experts import seat_to_play
from bot.services.plays import apply_all, replay, run_automa, typed_input, undoable
from bot.services.seats import seat_label
from bot.storage import GameRow
from engine import GameState

log = logging.getLogger(__name__)


class TurnService:
    """Whose turn it is, playing it, and taking an action back."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage
        #: game id -> (user id, actions, version after) of its last typed command's commit
        self._last_typed: dict[int, tuple[int, str, int]] = {}

    async def _active(
        self, game_id: int, version: int | None, channel_id: int | None = None
    ) -> GameRow:
        """The game, checked to be started at `version`."""
        return await self.core.open_game(
            game_id,
            version,
            not_status="lobby",
            refusal=refusals.NOT_STARTED,
            channel_id=channel_id,
        )

    async def check_turn(self, game: GameRow, user_id: int) -> GameState:
        """The state when it is `user_id`'s turn in `game`; otherwise a `UserError`."""
        state = await self.core.state(game)
        if state.is_over or state.current_seat is None:
            raise UserError(refusals.GAME_OVER)
        if not any(s.user_id == user_id for s in game.seats):
            raise UserError(refusals.NOT_A_PLAYER)
        current = game.seats[state.current_seat]
        if current.user_id != user_id:
            raise UserError(refusals.NOT_YOUR_TURN.format(player=seat_label(current)))
        return state

    async def turn(
        self,
        game_id: int,
        user_id: int,
        version: int | None = None,
        *,
        channel_id: int | None = None,
    ) -> Turn:
        """The game and its state when it is `user_id`'s turn (for the turn panel), with
        whether Undo is offered."""
        game = await self._active(game_id, version, channel_id)
        state = await self.check_turn(game, user_id)
        return Turn(game, state, await self.can_undo(game, state, user_id))

    async def current_turn(self, game: GameRow) -> tuple[str, int | None] | None:
        """The game's turn now, `(engine.turn_id, seat)` (None when it is not being played),
        read without waiting for the game's lock: what a typed command is pinned to."""
        if game.status != "active" or game.config is None:
            return None
        state = await self.core.state(game)
        return None if state.is_over else (engine.turn_id(state), state.current_seat)

    async def play(
        self,
        game_id: int,
        user_id: int,
        notation: str,
        version: int | None = None,
        *,
        turn: tuple[str, int | None] | None = None,
        typed_version: int | None = None,
        channel_id: int | None = None,
        offered: Callable[[Sequence[str]], bool] | None = None,
    ) -> TurnResult:
        """Apply the player's action(s) (several separated by `;` all apply or none does),
        then any Cynthia turns after them. `TurnResult.applied` starts with the player's.

        A component carries the `version` it was drawn for; a typed command is pinned to the
        `turn` (`current_turn`: the turn id and its seat) it was typed in, and refused if
        another turn is on by the time it gets the lock (the same intention, say End turn
        clicked and typed at once, must not also play the player's next turn).

        A typed command also carries the game's `typed_version` when it arrived: if the game
        changed since, and that change was this player's identical typed command, it is the
        same command sent several times at once and is refused as already applied (a command
        typed again after the answer arrives at the new version and plays).

        A click passes `offered`, the panel's check of the value clicked against the legal
        actions (`views.panel_offers`): a value it does not offer (forged) plays nothing."""
        async with self.core.lock(game_id):
            game = await self._active(game_id, version, channel_id)
            if turn is not None:
                await self._check_pinned(game, user_id, *turn)
            state = await self.check_turn(game, user_id)
            if offered is not None and not offered([str(a) for a in engine.legal_actions(state)]):
                raise UserError(refusals.NOT_OFFERED)  # a value the clicked panel does not offer
            _, ply = await self.core.state_and_ply(game)
            seat, turn_now = seat_to_play(state), engine.turn_id(state)
            with typed_input():
                actions = engine.parse_actions(notation)
            said = "; ".join(str(a) for a in actions)
            repeated = (user_id, said, game.version)
            if (
                typed_version not in (None, game.version)
                and self._last_typed.get(game.id) == repeated
            ):
                raise UserError(refusals.ALREADY_APPLIED.format(action=said))
            new_state, applied = await asyncio.to_thread(
                apply_all, state, actions, seat, user_id, ply + 1, game
            )
            new_state, automa = await asyncio.to_thread(
                run_automa, new_state, ply + 1 + len(applied)
            )
            played = len(applied)
            applied.extend(automa)
            stored = await self.core.commit_play(
                game, new_state, applied, status="over" if new_state.is_over else None
            )
            self._keep_before(game.id, state, applied, new_state, turn_now)
            if new_state.is_over:
                self.core.forget_state(game.id)
                self._last_typed.pop(game.id, None)
            elif typed_version is not None:
                self._last_typed[game.id] = (user_id, said, stored.version)
            return TurnResult(
                stored,
                new_state,
                tuple(applied),
                turn_now,
                played,
                can_undo=not new_state.is_over
                and undoable(applied[-1], user_id, new_state.current_seat),
            )

    def _keep_before(
        self,
        game_id: int,
        state: GameState,
        applied: Sequence[Applied],
        new_state: GameState,
        turn: str,
    ) -> None:
        """Keep the state before a player's single action, while its turn goes on (`undo`)."""
        if new_state.is_over or engine.turn_id(new_state) != turn:
            self.core.before.pop(game_id, None)
        elif len(applied) == 1:
            kept = self.core.before.setdefault(game_id, {})
            for ply in [p for p in kept if p >= applied[0].ply]:
                del kept[ply]
            kept[applied[0].ply] = state

    async def _check_pinned(self, game: GameRow, user_id: int, turn: str, seat: int | None) -> None:
        """Refuse a command typed in the turn `turn` (of `seat`) if another turn is on now."""
        now = await self.core.state(game)
        if not now.is_over and engine.turn_id(now) == turn:
            return
        if seat is None or game.seats[seat].user_id == user_id:
            raise UserError(refusals.TURN_CHANGED)
        await self.check_turn(game, user_id)  # not a player, or not their turn now
        # Typed in someone else's turn: refused as it was then, even though it is theirs now.
        raise UserError(refusals.NOT_YOUR_TURN.format(player=seat_label(game.seats[seat])))

    async def can_undo(self, game: GameRow, state: GameState, user_id: int) -> bool:
        """Whether `undo` would take something back for this player now."""
        if game.config is None or state.is_over or state.current_seat is None:
            return False
        _, ply = await self.core.state_and_ply(game)
        rows = await self.storage.actions(game.id, after_ply=max(0, ply - 1))
        return undoable(rows[-1] if rows else None, user_id, state.current_seat)

    async def undo(
        self,
        game_id: int,
        user_id: int,
        version: int | None = None,
        *,
        channel_id: int | None = None,
    ) -> TurnResult:
        """Take back the player's last action of the current turn (buy, plant, grow, collect, or
        an animal's step; not an ability, which may have turned a token face up).

        The log is the truth, so undoing removes the last row and rebuilds the state from the
        rest. Nothing before the turn (nor an action that revealed anything) can be undone.
        """
        async with self.core.lock(game_id):
            game = await self._active(game_id, version, channel_id)
            state = await self.check_turn(game, user_id)
            _, ply = await self.core.state_and_ply(game)
            rows = await self.storage.actions(game.id, after_ply=max(0, ply - 2))
            last = rows[-1] if rows else None
            earlier = rows[-2] if len(rows) > 1 else None
            if last is None or not undoable(last, user_id, state.current_seat):
                raise UserError(refusals.NOTHING_TO_UNDO)
            kept_before = self.core.before.get(game.id, {})
            previous = kept_before.get(last.ply)
            for ply in [p for p in kept_before if p >= last.ply]:
                del kept_before[ply]
            if previous is None:  # not kept (several actions typed at once): replay the log
                if game.config is None:  # (never: `state_and_ply` refused a lobby already)
                    raise UserError(refusals.NOT_STARTED)
                kept = [r.notation for r in await self.storage.actions(game.id)][:-1]
                previous = await self.core.replaying(game, replay, game.config, game.seed, kept)
            stored = await self.storage.update_game(
                game.id,
                game.version,
                truncate_after=last.ply - 1,
                snapshot=(last.ply - 1, previous.to_dict()),
            )
            self.core.keep_state(stored, last.ply - 1, previous)
            await self.core.committed(stored, previous)
            undone = Applied(last.ply, last.notation, last.seat, last.user_id)
            log.info("action undone", extra={"game_id": game.id, "ply": last.ply})
            again = not previous.is_over and undoable(earlier, user_id, previous.current_seat)
            return TurnResult(stored, previous, (undone,), engine.turn_id(previous), can_undo=again)
