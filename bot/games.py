"""The service layer between Discord and the engine: lobbies, turns, locks, versions, replay.

Every change to a game runs under that game's asyncio lock, checks the version the caller saw
(carried in a component's custom_id), applies the engine's rules, commits, and only then
returns, so the cog answers the interaction after the change is durable.

No rule of the game lives here: legality, turn order and the automa all come from `engine`.
The lobby limits (2-4 seats, at most 2 Cynthias) are the table's seating rules.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import engine
from engine.players import CynthiaPlayer, play_until

from . import expert_texts as xt
from . import experts, story, texts
from .experts import QUICK, Experts, engine_kind, expert_seed, is_expert
from .locks import KeyedLocks
from .storage import (
    ChannelBusy,
    GameRow,
    NewAction,
    SeatRow,
    Storage,
    UnreadableGame,
    VersionConflict,
)
from .story import AUTOPILOT_USER_ID

log = logging.getLogger(__name__)

MAX_SEATS = 4
MIN_SEATS = 2
MAX_CYNTHIAS = 2
#: Cynthia difficulty options, passed to `engine.Config` as they are.
CYNTHIA_OPTIONS = (
    "easier_no_final_collect",
    "easier_grow_plus_one",
    "easier_two_small_start",
    "harder_grow_minus_one",
    "harder_score_trees",
)
#: Under the Moonlight modes, passed to `engine.Config` as they are.
MOONLIGHT_OPTIONS = ("moon_animals", "elder_tree", "moonstones")
#: Correspondence options (`bot.timers`): the turn timer in hours (0 = off), what happens when it
#: runs out (the turn ends as it is, or the autopilot plays it), and what happens when a player
#: leaves a running game (the autopilot takes the seat, or the game ends). First = default.
TIMER_CHOICES: dict[str, tuple[Any, ...]] = {
    "turn_timer": (0, 1, 12, 24, 72),
    "on_timeout": ("end", "autopilot"),
    "on_leave": ("autopilot", "end"),
}
DEFAULT_OPTIONS: dict[str, Any] = {
    **{name: choices[0] for name, choices in TIMER_CHOICES.items()},
    "revolutions": 3,
    "shadow_rule": False,
    "random_seats": False,
    **{name: False for name in MOONLIGHT_OPTIONS},
    **{name: False for name in CYNTHIA_OPTIONS},
    "hints": False,  # `/ps hint`: the Expert suggests the best action to the player to play
}
#: The automa never needs this many actions in a row; the cap only guards against a bug.
MAX_AUTOMA_STEPS = 2000


class UserError(Exception):
    """A refusal caused by the user: one short sentence, shown ephemerally; nothing changed."""


class StaleComponent(UserError):
    """The component was built for an older version of the game."""

    def __init__(self, game: GameRow) -> None:
        super().__init__(texts.STALE)
        self.game = game


#: One action applied to a game (by a player or by the automa): the very row the log stores.
Applied = NewAction


@dataclass(frozen=True)
class TurnResult:
    """What a start or a play did: the stored game, the new state, the actions applied."""

    game: GameRow
    state: Any  # engine.GameState
    applied: tuple[Applied, ...]
    previous_turn: str | None  # `engine.turn_id` of the state before, None at start
    played: int = 1  # how many of `applied` (from the start) were the player's

    @property
    def notations(self) -> list[str]:
        """The player's actions in the notation."""
        return [a.notation for a in self.applied[: self.played]]


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Lobby options with defaults filled in and unknown keys dropped."""
    merged = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key in TIMER_CHOICES:
            merged[key] = value if value in TIMER_CHOICES[key] else merged[key]
        elif key in merged:
            merged[key] = int(value) if key == "revolutions" else bool(value)
    if merged["revolutions"] not in (3, 4):
        merged["revolutions"] = 3
    return merged


def engine_config(options: dict[str, Any], kinds: Sequence[str]) -> engine.Config:
    """The engine config for these lobby options and seat kinds (raises ValueError)."""
    opts = normalize_options(options)
    return engine.Config(
        seats=tuple(engine_kind(kind) for kind in kinds),
        revolutions=opts["revolutions"],
        shadow_rule=opts["shadow_rule"],
        **{name: opts[name] for name in (*MOONLIGHT_OPTIONS, *CYNTHIA_OPTIONS)},
    )


def replay(config: dict[str, Any], seed: int, notations: Sequence[str], start: Any = None) -> Any:
    """The state a stored game's log leads to (`engine.record.replay`, from a snapshot
    `start` when there is one)."""
    return engine.record.replay(engine.Config.from_dict(config), seed, notations, start=start)


def replay_events(
    config: dict[str, Any], seed: int, moves: Sequence[Applied]
) -> list[tuple[str, ...]]:
    """The engine's `events` after each action of a log (pure CPU; run it in a thread)."""
    notations = [move.notation for move in moves]
    return [
        tuple(state.events)
        for state in engine.record.states(engine.Config.from_dict(config), seed, notations)
    ]


AUTOPILOT_NOTE = "autopilot"
#: How many times an Expert's turn is thought again when its game changed meanwhile.
EXPERT_RETRIES = 3


def apply_turn(
    state: Any, actions: Sequence[Any], first_ply: int, user_id: int | None, note: str | None
) -> tuple[Any, list[Applied]]:
    """Apply the actions a player (the Expert, the autopilot) chose for the current seat's
    turn; each is logged with `user_id` and `note`, or else the explanation the engine gave
    with it (the Expert's: "grow B5: best of 24 simulations, expected margin +3.1 points",
    kept as the engine words it, so that it can be translated like Cynthia's reasons)."""
    seat = state.current_seat
    applied = []
    for i, action in enumerate(actions):
        state = engine.apply(state, action)
        why = note if note is not None else getattr(action, "explanation", None) or None
        applied.append(Applied(first_ply + i, str(action), seat, user_id, why))
    return state, applied


def run_automa(state: Any, first_ply: int) -> tuple[Any, list[Applied]]:
    """Let Cynthia seats act while it is their turn; returns the new state and their actions."""
    cynthia = {k: CynthiaPlayer() for k, seat in enumerate(state.seats) if seat.kind == "cynthia"}
    applied: list[Applied] = []

    def log(before: Any, action: Any, after: Any) -> None:
        explanation = getattr(action, "explanation", "") or None
        applied.append(
            Applied(first_ply + len(applied), str(action), before.current_seat, None, explanation)
        )

    state, _ = play_until(state, cynthia, on_action=log, max_steps=MAX_AUTOMA_STEPS)
    return state, applied


def _undoable(row: Any, user_id: int, current_seat: int) -> bool:
    """A logged action its player may take back: theirs, of this turn, revealing nothing."""
    return (
        row is not None
        and row.user_id == user_id
        and row.seat == current_seat
        and engine.can_undo(row.notation)
    )


@contextmanager
def typed_input(names: Sequence[str] = ()) -> Iterator[None]:
    """Around the engine reading what a user typed: its refusal becomes a `UserError` (with
    the players' `names` for "seat 2" when given), and so does anything else it raises for
    such input (logged by type only: never the text)."""
    try:
        yield
    except engine.IllegalAction as exc:
        reason = exc.args[0] if exc.args else str(exc)  # a `translation.Text` from the engine
        raise UserError(story.named(reason, names) if names else reason) from None
    except Exception as exc:  # the engine's defect on odd input, still the user's answer
        log.warning("the engine raised %s on typed input", type(exc).__name__)
        raise UserError(texts.UNPLAYABLE) from None


def _apply_all(
    state: Any,
    actions: Sequence[Any],
    seat: int,
    user_id: int,
    first_ply: int,
    names: Sequence[str] = (),
) -> tuple[Any, list[Applied]]:
    """Apply a player's actions in order; all or nothing (raises `UserError`, its refusal
    naming the players by `names`)."""
    applied: list[Applied] = []
    turn = engine.turn_id(state)
    for action in actions:
        if state.is_over or engine.turn_id(state) != turn:
            done = ", ".join(f"'{a.notation}'" for a in applied)
            raise UserError(texts.TURN_OVER_AFTER.format(actions=done))
        with typed_input(names):
            state = engine.apply(state, action)
        applied.append(Applied(first_ply + len(applied), str(action), seat, user_id))
    return state, applied


def _status_error(game: GameRow) -> UserError | None:
    if game.status == "over":
        return UserError(texts.GAME_OVER)
    if game.status == "abandoned":
        return UserError(texts.GAME_ABANDONED)
    if game.status == "expired":
        return UserError(texts.GAME_EXPIRED)
    return None


def expert_name(seats: Sequence[SeatRow], kind: str) -> str:
    """The name of a new Expert seat: "Expert (quick)", "Expert (strong)", then "Expert 2 (quick)"
    and so on: a name not yet taken."""
    taken = {s.name for s in seats}
    for n in range(1, MAX_SEATS + 1):
        name = xt.expert_seat(kind, n)
        if name not in taken:
            return name
    raise UserError(texts.GAME_FULL)


def mention(user_id: int) -> str:
    """A Discord user mention."""
    return f"<@{user_id}>"


def seat_label(seat: SeatRow) -> str:
    """How a seat is named in messages: a mention for humans, the name for Cynthias."""
    return mention(seat.user_id) if seat.user_id is not None else xt.shown_name(seat)


def _shared_experts() -> Experts:
    return experts.shared()


class GameService:
    """Lobbies and games on top of a `Storage`. One instance per bot process."""

    def __init__(
        self,
        storage: Storage,
        *,
        seed_source: Callable[[], int] | None = None,
        experts: Experts | None = None,
    ) -> None:
        self.storage = storage
        #: The Expert's decisions (its seats, the autopilot, hints), in worker processes.
        self.experts = experts if experts is not None else _shared_experts()
        self._channel_locks = KeyedLocks()
        self._states: dict[int, tuple[int, int, Any]] = {}  # game id -> (version, ply, state)
        #: game id -> {ply: the state before it} for the player's single actions of the turn
        #: being played: what `undo` goes back to without replaying the log.
        self._before: dict[int, dict[int, Any]] = {}
        #: game id -> the states of the actions the game message told last (`story.tell`)
        self._told: dict[int, dict[int, tuple[int, Any]]] = {}
        #: game id -> (user id, actions, version after) of its last typed command's commit
        self._last_typed: dict[int, tuple[int, str, int]] = {}
        sysrand = random.SystemRandom()
        self._seed_source = seed_source or (lambda: sysrand.randrange(2**31))
        #: Awaited after every committed play (under the game's lock) with the stored game and
        #: its new state: the turn timers (`bot.timers`) plan the next deadline there.
        self.commit_hooks: list[Callable[[GameRow, Any], Awaitable[None]]] = []
        #: Awaited (under the game's lock) with the stored game when a game or lobby ends
        #: without a play (abandoned, expired): the turn timers clear its clock and jobs there.
        self.end_hooks: list[Callable[[GameRow], Awaitable[None]]] = []
        #: Extra embed fields `(name, value)` for the game message (`notes`).
        self.note_providers: list[Callable[[GameRow, Any], Awaitable[tuple[str, str] | None]]] = []

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The lock every change to this game runs under (`async with service.lock(id):`)."""
        return self.storage.lock(game_id)

    # --- reading ---

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or in play in a channel, if any."""
        return await self.storage.live_game(channel_id)

    async def shown_game(self, channel_id: int) -> GameRow | None:
        """The game `/ps status` shows: the one in the lobby or in play, or else the channel's
        last started game (over or abandoned), so its result stays visible after the end."""
        live = await self.storage.live_game(channel_id)
        return live if live is not None else await self.storage.latest_started_game(channel_id)

    async def game_for_log(self, channel_id: int) -> tuple[GameRow, list[Applied]]:
        """The channel's game in play, or else its last started one, with its whole log."""
        game = await self.storage.latest_started_game(channel_id)
        if game is None:
            raise UserError(texts.NO_GAME_HERE)
        rows = await self.storage.actions(game.id)
        return game, [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        return await self.storage.get_game(game_id)

    async def game_channel(self, game: GameRow) -> int:
        """Where a game's running messages go: its thread once it has one, else its channel."""
        thread = await self.storage.message(game.id, "thread")
        return thread[0] if thread is not None else game.channel_id

    async def belongs_here(self, game: GameRow, channel_id: int | None) -> bool:
        """Whether an interaction in `channel_id` may act on `game`: its channel or its thread."""
        return channel_id == game.channel_id or channel_id == await self.game_channel(game)

    async def state(self, game: GameRow) -> Any:
        """The engine state of a started game, from the cache or rebuilt from the log."""
        return (await self._state_and_ply(game))[0]

    async def _state_and_ply(self, game: GameRow) -> tuple[Any, int]:
        if game.config is None:
            raise UserError(texts.NOT_STARTED)
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[2], cached[1]
        start, after = None, 0
        snap = await self.storage.snapshot(game.id)
        if snap is not None:
            try:
                start, after = engine.GameState.from_dict(snap[1]), snap[0]
            except Exception:  # a stale cache is never fatal: replay the whole log instead
                log.warning("snapshot unusable, replaying the log", extra={"game_id": game.id})
                start, after = None, 0
        rows = await self.storage.actions(game.id, after_ply=after)
        try:
            state = await asyncio.to_thread(
                replay, game.config, game.seed, [r.notation for r in rows], start
            )
        except Exception as exc:  # the stored game itself is damaged: set it aside
            reason = f"its action log no longer replays ({type(exc).__name__})"
            await self.storage.quarantine(game.id, reason)
            raise UnreadableGame(game.id, reason) from None
        ply = rows[-1].ply if rows else after
        self._states[game.id] = (game.version, ply, state)
        return state, ply

    # --- the lobby ---

    async def new_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        language: str = "en",
    ) -> GameRow:
        """Open a lobby in a channel, the host in the first seat; `language` is the game's
        (its channel messages')."""
        async with self._channel_locks.hold(channel_id):
            if await self.storage.live_game(channel_id) is not None:
                raise UserError(texts.CHANNEL_BUSY)
            try:
                game = await self.storage.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    host_name=host_name,
                    options=normalize_options(options),
                    seed=self._seed_source(),
                    language=language,
                )
            except ChannelBusy:
                raise UserError(texts.CHANNEL_BUSY) from None
        log.info("lobby created", extra={"game_id": game.id, "channel_id": channel_id})
        return game

    async def _open_game(
        self, game_id: int, version: int | None, *, not_status: str, refusal: str
    ) -> GameRow:
        """The game, still open and not in status `not_status` (refused with `refusal`), at
        `version` (call under the game's lock; None: any version)."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise UserError(texts.GAME_GONE)
        error = _status_error(game)
        if error is not None:
            raise error
        if game.status == not_status:
            raise UserError(refusal)
        if version is not None and version != game.version:
            raise StaleComponent(game)
        return game

    async def _lobby(self, game_id: int, version: int | None) -> GameRow:
        """The game, checked to be a lobby at `version`."""
        return await self._open_game(
            game_id, version, not_status="active", refusal=texts.ALREADY_STARTED
        )

    async def _save_lobby(self, game: GameRow, **changes: Any) -> GameRow:
        try:
            return await self.storage.update_game(game.id, game.version, **changes)
        except VersionConflict:
            fresh = await self.storage.get_game(game.id)
            raise StaleComponent(fresh or game) from None

    @staticmethod
    def _renumber(seats: Sequence[SeatRow]) -> list[SeatRow]:
        return [SeatRow(i, s.kind, s.user_id, s.name) for i, s in enumerate(seats)]

    async def join(self, game_id: int, version: int | None, user_id: int, name: str) -> GameRow:
        """Take a seat in the lobby. The version a Join button carries is not checked: what
        guards a seat is checked here, under the lock (already seated, the table full), so
        people clicking Join at the same moment are all seated."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, None)
            if any(s.user_id == user_id for s in game.seats):
                raise UserError(texts.ALREADY_JOINED)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(texts.GAME_FULL)
            seats = [*game.seats, SeatRow(len(game.seats), "human", user_id, name)]
            return await self._save_lobby(game, seats=seats)

    async def leave(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        """Give up a seat in the lobby (the host stays host, seated or not). Like `join`, not
        checked against the version shown: only whether the user is seated matters."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, None)
            if not any(s.user_id == user_id for s in game.seats):
                raise UserError(texts.NOT_IN_LOBBY)
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
        host_only: str = texts.HOST_ONLY_CYNTHIA,
    ) -> GameRow:
        """Seat a Cynthia (host only: else `host_only` is the refusal)."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, host_only)
            cynthias = [s for s in game.seats if s.kind == "cynthia"]
            if len(cynthias) >= MAX_CYNTHIAS:
                raise UserError(texts.TOO_MANY_CYNTHIAS)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(texts.GAME_FULL)
            taken = {s.name for s in cynthias}
            name = "Cynthia" if "Cynthia" not in taken else "Cynthia 2"
            seats = [*game.seats, SeatRow(len(game.seats), "cynthia", None, name)]
            return await self._save_lobby(game, seats=seats)

    async def add_bot(self, game_id: int, version: int | None, user_id: int, kind: str) -> GameRow:
        """Seat a bot (host only): Cynthia (at most 2), or the Expert, quick or strong."""
        if not is_expert(kind):
            return await self.add_cynthia(game_id, version, user_id, xt.HOST_ONLY_BOTS)
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, xt.HOST_ONLY_BOTS)
            if len(game.seats) >= MAX_SEATS:
                raise UserError(texts.GAME_FULL)
            seat = SeatRow(len(game.seats), kind, None, expert_name(game.seats, kind))
            return await self._save_lobby(game, seats=[*game.seats, seat])

    async def remove_bot(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        """Remove the last seated bot, Cynthia or Expert (host only)."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, xt.HOST_ONLY_BOTS)
            bots = [s for s in game.seats if s.user_id is None]
            if not bots:
                raise UserError(xt.NO_BOT)
            last = bots[-1]
            seats = self._renumber([s for s in game.seats if s is not last])
            return await self._save_lobby(game, seats=seats)

    async def remove_cynthia(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        """Remove the last seated Cynthia (host only)."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, texts.HOST_ONLY_CYNTHIA)
            cynthias = [s for s in game.seats if s.kind == "cynthia"]
            if not cynthias:
                raise UserError(texts.NO_CYNTHIA)
            last = cynthias[-1]
            seats = self._renumber([s for s in game.seats if s is not last])
            return await self._save_lobby(game, seats=seats)

    async def set_options(
        self, game_id: int, version: int | None, user_id: int, options: dict[str, Any]
    ) -> GameRow:
        """Change the lobby options (host only)."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, texts.HOST_ONLY_OPTIONS)
            merged = normalize_options({**game.options, **options})
            try:
                engine_config(merged, ("human", "cynthia"))
            except ValueError as exc:
                raise UserError(exc.args[0] if exc.args else str(exc)) from None
            return await self._save_lobby(game, options=merged)

    async def start(self, game_id: int, version: int | None, user_id: int) -> TurnResult:
        """Start the game (host only): fix the seat order, create the engine state, let any
        Cynthia make her setup placements, and commit."""
        async with self.lock(game_id):
            game = await self._lobby(game_id, version)
            self._host_only(game, user_id, texts.HOST_ONLY_START)
            if len(game.seats) < MIN_SEATS:
                raise UserError(texts.TOO_FEW_SEATS)
            if not any(s.kind == "human" for s in game.seats):
                raise UserError(texts.NO_PERSON)
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
            stored = await self._commit_play(
                game,
                state,
                applied,
                seats=seats,
                config=config.to_dict(),
                status="over" if state.is_over else "active",
            )
            log.info("game started", extra={"game_id": game.id, "seats": len(seats)})
            return TurnResult(stored, state, tuple(applied), None, played=0)

    # --- play ---

    async def _active(self, game_id: int, version: int | None) -> GameRow:
        """The game, checked to be started at `version`."""
        return await self._open_game(
            game_id, version, not_status="lobby", refusal=texts.NOT_STARTED
        )

    async def check_turn(self, game: GameRow, user_id: int) -> Any:
        """The state when it is `user_id`'s turn in `game`; otherwise a `UserError`."""
        state = await self.state(game)
        if state.is_over or state.current_seat is None:
            raise UserError(texts.GAME_OVER)
        if not any(s.user_id == user_id for s in game.seats):
            raise UserError(texts.NOT_A_PLAYER)
        current = game.seats[state.current_seat]
        if current.user_id != user_id:
            raise UserError(texts.NOT_YOUR_TURN.format(player=seat_label(current)))
        return state

    async def turn(
        self, game_id: int, user_id: int, version: int | None = None
    ) -> tuple[GameRow, Any]:
        """The game and its state when it is `user_id`'s turn (for the turn panel)."""
        game = await self._active(game_id, version)
        return game, await self.check_turn(game, user_id)

    async def recent(self, game: GameRow, count: int) -> list[Applied]:
        """The last `count` logged actions of a game, oldest first."""
        if game.config is None:
            return []
        _, ply = await self._state_and_ply(game)
        rows = await self.storage.actions(game.id, after_ply=max(0, ply - count))
        return [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def story(self, game: GameRow, state: Any) -> list[story.Turn]:
        """The turns the game message tells (`bot.story.tell`): since the player to play last
        finished a turn, with their events and the spaces they changed."""
        if game.config is None:
            return []
        rows = await self.storage.actions(game.id)
        keep: dict[int, tuple[int, Any]] = {}
        turns = await asyncio.to_thread(
            story.tell, game, state, rows, self._told.get(game.id), keep
        )
        if game.status == "active" and not state.is_over:
            self._told[game.id] = keep  # the next telling replays only what came since
        else:
            self._told.pop(game.id, None)
        return turns

    async def history(self, game: GameRow) -> list[tuple[Applied, tuple[str, ...]]]:
        """Every logged action of a started game with the events it set off (photosynthesis,
        Cynthia's card draws, the end of the game), replayed from the log."""
        if game.config is None:
            raise UserError(texts.NOT_STARTED)
        rows = await self.storage.actions(game.id)
        moves = [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]
        events = await asyncio.to_thread(replay_events, game.config, game.seed, moves)
        return list(zip(moves, events, strict=True))

    async def current_turn(self, game_id: int) -> tuple[str, int | None] | None:
        """The game's turn now, `(engine.turn_id, seat)` (None when it is not being played),
        read without waiting for the game's lock: what a typed command is pinned to."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status != "active" or game.config is None:
            return None
        state = await self.state(game)
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
    ) -> TurnResult:
        """Apply the player's action(s) (several separated by `;` all apply or none does),
        then any Cynthia turns after them. `TurnResult.applied` starts with the player's.

        A component carries the `version` it was drawn for; a typed command is pinned to the
        `turn` (`current_turn`: the turn id and its seat) it was typed in, and refused if another turn is on by the time
        it gets the lock (the same intention, say End turn clicked and typed at once, must
        not also play the player's next turn).

        A typed command also carries the game's `typed_version` when it arrived: if the game
        changed since, and that change was this player's identical typed command, it is the
        same command sent several times at once and is refused as already applied (a command
        typed again after the answer arrives at the new version and plays)."""
        async with self.lock(game_id):
            game = await self._active(game_id, version)
            if turn is not None:
                await self._check_pinned(game, user_id, *turn)
            state = await self.check_turn(game, user_id)
            _, ply = await self._state_and_ply(game)
            seat, turn = state.current_seat, engine.turn_id(state)
            with typed_input():
                actions = engine.parse_actions(notation)
            said = "; ".join(str(a) for a in actions)
            repeated = (user_id, said, game.version)
            if (
                typed_version not in (None, game.version)
                and self._last_typed.get(game.id) == repeated
            ):
                raise UserError(texts.ALREADY_APPLIED.format(action=said))
            new_state, applied = await asyncio.to_thread(
                _apply_all, state, actions, seat, user_id, ply + 1,
                [story.player_name(game, i) for i in range(len(game.seats))],
            )  # fmt: skip
            new_state, automa = await asyncio.to_thread(
                run_automa, new_state, ply + 1 + len(applied)
            )
            played = len(applied)
            applied.extend(automa)
            stored = await self._commit_play(
                game, new_state, applied, status="over" if new_state.is_over else None
            )
            self._keep_before(game.id, state, applied, new_state, turn)
            if new_state.is_over:
                self._states.pop(game.id, None)
                self._last_typed.pop(game.id, None)
            elif typed_version is not None:
                self._last_typed[game.id] = (user_id, said, stored.version)
            return TurnResult(stored, new_state, tuple(applied), turn, played)

    def _keep_before(
        self, game_id: int, state: Any, applied: Sequence[Applied], new_state: Any, turn: str
    ) -> None:
        """Keep the state before a player's single action, while its turn goes on (`undo`)."""
        if new_state.is_over or engine.turn_id(new_state) != turn:
            self._before.pop(game_id, None)
        elif len(applied) == 1:
            kept = self._before.setdefault(game_id, {})
            for ply in [p for p in kept if p >= applied[0].ply]:
                del kept[ply]
            kept[applied[0].ply] = state

    async def _check_pinned(self, game: GameRow, user_id: int, turn: str, seat: int | None) -> None:
        """Refuse a command typed in the turn `turn` (of `seat`) if another turn is on now."""
        now = await self.state(game)
        if not now.is_over and engine.turn_id(now) == turn:
            return
        if seat is None or game.seats[seat].user_id == user_id:
            raise UserError(texts.TURN_CHANGED)
        await self.check_turn(game, user_id)  # not a player, or not their turn now
        # Typed in someone else's turn: refused as it was then, even though it is theirs now.
        raise UserError(texts.NOT_YOUR_TURN.format(player=seat_label(game.seats[seat])))

    async def can_undo(self, game: GameRow, state: Any, user_id: int) -> bool:
        """Whether `undo` would take something back for this player now."""
        if game.config is None or state.is_over or state.current_seat is None:
            return False
        _, ply = await self._state_and_ply(game)
        rows = await self.storage.actions(game.id, after_ply=max(0, ply - 1))
        return _undoable(rows[-1] if rows else None, user_id, state.current_seat)

    async def undo(self, game_id: int, user_id: int, version: int | None = None) -> TurnResult:
        """Take back the player's last action of the current turn (buy, plant, grow, collect, or
        an animal's step; not an ability, which may have turned a token face up).

        The log is the truth, so undoing removes the last row and rebuilds the state from the
        rest. Nothing before the turn (nor an action that revealed anything) can be undone.
        """
        async with self.lock(game_id):
            game = await self._active(game_id, version)
            state = await self.check_turn(game, user_id)
            _, ply = await self._state_and_ply(game)
            rows = await self.storage.actions(game.id, after_ply=max(0, ply - 1))
            last = rows[-1] if rows else None
            if last is None or not _undoable(last, user_id, state.current_seat):
                raise UserError(texts.NOTHING_TO_UNDO)
            kept_before = self._before.get(game.id, {})
            previous = kept_before.get(last.ply)
            for ply in [p for p in kept_before if p >= last.ply]:
                del kept_before[ply]
            if previous is None:  # not kept (several actions typed at once): replay the log
                kept = [r.notation for r in await self.storage.actions(game.id)][:-1]
                previous = await asyncio.to_thread(replay, game.config, game.seed, kept)
            stored = await self.storage.update_game(
                game.id,
                game.version,
                truncate_after=last.ply - 1,
                snapshot=(last.ply - 1, previous.to_dict()),
            )
            self._states[game.id] = (stored.version, last.ply - 1, previous)
            undone = Applied(last.ply, last.notation, last.seat, last.user_id)
            log.info("action undone", extra={"game_id": game.id, "ply": last.ply})
            return TurnResult(stored, previous, (undone,), engine.turn_id(previous))

    async def resume_automa(self, game_id: int) -> TurnResult | None:
        """Let Cynthia act if it is her turn (after a crash between two commits); else None."""
        async with self.lock(game_id):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active":
                return None
            state, ply = await self._state_and_ply(game)
            new_state, applied = await asyncio.to_thread(run_automa, state, ply + 1)
            if not applied:
                return None
            stored = await self._commit_play(
                game, new_state, applied, status="over" if new_state.is_over else None
            )
            self._before.pop(game.id, None)
            return TurnResult(stored, new_state, tuple(applied), engine.turn_id(state), played=0)

    async def play_automatically(
        self,
        game_id: int,
        turn: str,
        *,
        autopilot: bool,
        job_outcome: Callable[[Sequence[Applied]], tuple[int, str]] | None = None,
    ) -> TurnResult | None:
        """Finish the turn `turn` (an `engine.turn_id`) for its seat, through the same path as a
        player's actions: the autopilot plays it (`autopilot`), or it ends as it is (`end`;
        a decision that cannot be ended, such as a setup placement, is the autopilot's).
        Actions are logged with `AUTOPILOT_USER_ID`. None when that turn is no longer being
        played (already played, game over or ended): a deadline for it is void.
        `job_outcome(the seat's actions)` gives the timer job's (id, outcome) to record with
        the turn, in the same commit."""
        async with self.lock(game_id):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active":
                return None
            state, ply = await self._state_and_ply(game)
            if state.is_over or engine.turn_id(state) != turn:
                return None
            actions = await self._expert_turn(game, state, QUICK, end_only=not autopilot)
            new_state, applied = await asyncio.to_thread(
                apply_turn, state, actions, ply + 1, AUTOPILOT_USER_ID, AUTOPILOT_NOTE
            )
            played = len(applied)
            outcome = job_outcome(applied[:played]) if job_outcome is not None else None
            new_state, automa = await asyncio.to_thread(run_automa, new_state, ply + 1 + played)
            applied.extend(automa)
            stored = await self._commit_play(
                game,
                new_state,
                applied,
                status="over" if new_state.is_over else None,
                job_outcome=outcome,
            )
            self._before.pop(game.id, None)
            if new_state.is_over:
                self._states.pop(game.id, None)
            return TurnResult(stored, new_state, tuple(applied), engine.turn_id(state), played)

    # --- the Expert ---

    async def _expert_turn(
        self, game: GameRow, state: Any, kind: str, *, end_only: bool = False
    ) -> list[Any]:
        """The Expert's actions for the current seat's turn, thought in a worker process (the
        one-ply autopilot's if the Expert fails: a game never stalls on it)."""
        try:
            return await self.experts.turn(state, kind, expert_seed(game.seed), end_only=end_only)
        except Exception:
            log.exception("the Expert failed; the autopilot plays", extra={"game_id": game.id})
            return await asyncio.to_thread(experts.autopilot_turn, state, end_only)

    async def expert_to_play(self, game_id: int) -> bool:
        """Whether the game is being played and its current seat is an Expert's."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status != "active" or game.config is None:
            return False
        state = await self.state(game)
        return not state.is_over and is_expert(game.seats[state.current_seat].kind)

    async def play_expert(self, game_id: int) -> TurnResult | None:
        """Let an Expert seat play its turn if it is its turn (else None), then any Cynthia.

        The Expert thinks in a worker process without holding the game's lock (other clicks
        on the game are answered meanwhile: they are refused, it is not their turn); its turn
        is then applied and committed whole under the lock, if the game is still at the
        position it thought about (else it thinks again). Its actions are logged with no user
        and its reason, like Cynthia's. A bot stopped while it thinks has committed nothing:
        the turn is played again, the same (`expert_seed`), when it restarts."""
        for _ in range(EXPERT_RETRIES):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active" or game.config is None:
                return None
            state, ply = await self._state_and_ply(game)
            if state.is_over or not is_expert(game.seats[state.current_seat].kind):
                return None
            kind, turn = game.seats[state.current_seat].kind, engine.turn_id(state)
            actions = await self._expert_turn(game, state, kind)
            async with self.lock(game_id):
                game = await self.storage.get_game(game_id)
                if game is None or game.status != "active":
                    return None
                now, now_ply = await self._state_and_ply(game)
                if (
                    now_ply != ply
                    or now.is_over
                    or engine.turn_id(now) != turn
                    or game.seats[now.current_seat].kind != kind
                ):
                    continue  # the game moved on meanwhile (another process played this turn)
                new_state, applied = await asyncio.to_thread(
                    apply_turn, now, actions, ply + 1, None, None
                )
                played = len(applied)
                new_state, automa = await asyncio.to_thread(run_automa, new_state, ply + 1 + played)
                applied.extend(automa)
                stored = await self._commit_play(
                    game, new_state, applied, status="over" if new_state.is_over else None
                )
                if new_state.is_over:
                    self._states.pop(game.id, None)
                log.info("the Expert played", extra={"game_id": game.id, "actions": played})
                return TurnResult(stored, new_state, tuple(applied), turn, played)
        return None

    async def hint_position(self, channel_id: int, user_id: int) -> tuple[GameRow, Any]:
        """The channel's game and its state, when `user_id` may have a hint now (`hint`).
        Refusals: no game here, hints off in this game, not started, not a player, not your
        turn."""
        game = await self.storage.live_game(channel_id)
        if game is None:
            raise UserError(texts.NO_GAME_HERE)
        if not game.options.get("hints"):
            raise UserError(xt.HINTS_OFF)
        if game.status != "active":
            raise UserError(texts.NOT_STARTED)
        return game, await self.check_turn(game, user_id)

    async def hint(self, game: GameRow, state: Any) -> Any:
        """The Expert's suggestion (at the quick budget) for the player to play in `state`,
        thought in a worker process; it is not played. Its search sees only what that player
        sees (`engine.expert`: what is hidden is drawn afresh)."""
        return await self.experts.decide(state, QUICK, expert_seed(game.seed))

    async def _commit_play(
        self,
        game: GameRow,
        state: Any,
        applied: Sequence[Applied],
        *,
        last_ply: int | None = None,
        **changes: Any,
    ) -> GameRow:
        """Append `applied` to the log with a snapshot of `state`, and bump the version."""
        if last_ply is None:
            last_ply = applied[-1].ply if applied else 0
        stored = await self.storage.update_game(
            game.id,
            game.version,
            actions=applied,
            snapshot=(last_ply, state.to_dict()),
            **{k: v for k, v in changes.items() if v is not None},
        )
        self._states[game.id] = (stored.version, last_ply, state)
        for hook in self.commit_hooks:
            try:
                await hook(stored, state)
            except Exception:  # the play is committed; a hook's failure must not undo it
                log.exception("commit hook failed", extra={"game_id": game.id})
        return stored

    async def notes(self, game: GameRow, state: Any) -> list[tuple[str, str]]:
        """Extra `(name, value)` embed fields for the game message (e.g. the turn deadline)."""
        notes = []
        for provider in self.note_providers:
            note = await provider(game, state)
            if note is not None:
                notes.append(note)
        return notes

    # --- ending ---

    async def may_abandon(self, channel_id: int, user_id: int, can_manage: bool) -> GameRow:
        """The channel's live game, if `user_id` may abandon it (its host, or someone who can
        manage the channel); otherwise a `UserError`. (`/ps abandon` asks to confirm first.)"""
        game = await self.storage.live_game(channel_id)
        if game is None:
            raise UserError(texts.NO_GAME_HERE)
        if user_id != game.host_id and not can_manage:
            raise UserError(texts.ABANDON_FORBIDDEN)
        return game

    async def abandon(self, channel_id: int, user_id: int, can_manage: bool) -> GameRow:
        """End the channel's game early (its host, or someone who can manage the channel)."""
        game = await self.may_abandon(channel_id, user_id, can_manage)
        return await self.abandon_game(game.id, user_id, can_manage)

    async def abandon_game(self, game_id: int, user_id: int, can_manage: bool) -> GameRow:
        """End a game early (its host, or someone who can manage the channel)."""
        game = await self.storage.get_game(game_id)
        if game is None:
            raise UserError(texts.NO_GAME_HERE)
        async with self.lock(game.id):
            game = await self.storage.get_game(game.id)
            if game is None or not game.is_live:
                raise UserError(texts.NO_GAME_HERE)
            if user_id != game.host_id and not can_manage:
                raise UserError(texts.ABANDON_FORBIDDEN)
            stored = await self.storage.update_game(game.id, game.version, status="abandoned")
            await self.run_end_hooks(stored)
        self._states.pop(game.id, None)
        self._before.pop(game.id, None)
        self._told.pop(game.id, None)
        log.info("game abandoned", extra={"game_id": game.id, "user_id": user_id})
        return stored

    async def rematch(self, game_id: int, user_id: int) -> GameRow:
        """A new lobby in a finished game's channel with the same seats (those still seated at
        the end, in the same order) and the same options; the player asking is its host."""
        old = await self.storage.get_game(game_id)
        if old is None or old.status != "over":
            raise UserError(texts.REMATCH_NOT_OVER)
        seats = list(old.seats)
        me = next((s for s in seats if s.user_id == user_id), None)
        if me is None:
            raise UserError(texts.REMATCH_PLAYERS_ONLY)
        game = await self.new_lobby(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=user_id,
            host_name=me.name,
            options=old.options,
            language=old.language,
        )
        async with self.lock(game.id):
            game = await self._lobby(game.id, None)
            game = await self._save_lobby(game, seats=self._renumber(seats))
        log.info("rematch", extra={"game_id": game.id, "of": old.id})
        return game

    async def expire_lobbies(
        self, max_age: timedelta, now: datetime | None = None
    ) -> list[GameRow]:
        """Close lobbies untouched for longer than `max_age`, freeing their channels."""
        now = now or datetime.now(UTC)
        expired = []
        for game in await self.storage.games_with_status("lobby"):
            if now - datetime.fromisoformat(game.updated_at) < max_age:
                continue
            async with self.lock(game.id):
                try:
                    stored = await self.storage.update_game(game.id, game.version, status="expired")
                except VersionConflict:
                    continue  # touched meanwhile: not idle
                await self.run_end_hooks(stored)
                expired.append(stored)
        return expired

    async def run_end_hooks(self, game: GameRow) -> None:
        """Run `end_hooks` for a game that just ended (call under its lock)."""
        for hook in self.end_hooks:
            try:
                await hook(game)
            except Exception:  # the game has ended; a hook's failure must not undo that
                log.exception("end hook failed", extra={"game_id": game.id})
