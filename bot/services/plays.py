"""The engine's steps of a play, pure CPU (the services run them in a thread): replaying a
stored log, applying a player's actions, letting Cynthia act, and what may be undone."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import engine
from bot.ratings import places_of
from bot.services import refusals
from bot.services.base import Applied, UserError
from bot.services.experts import seat_to_play
from bot.storage import ActionRow, Finish, FinishedSeat, GameRow, NewAction
from engine import Action, ConfigDict, GameState
from engine import moonlight as ml
from engine.players import CynthiaPlayer, play_until

log = logging.getLogger(__name__)

#: The automa never needs this many actions in a row; the cap only guards against a bug.
MAX_AUTOMA_STEPS = 2000


def replay(
    config: ConfigDict, seed: int, notations: Sequence[str], start: GameState | None = None
) -> GameState:
    """The state a stored game's log leads to (`engine.record.replay`, from a snapshot
    `start` when there is one)."""
    return engine.record.replay(engine.Config.from_dict(config), seed, notations, start=start)


def finish_of(state: GameState) -> Finish:
    """How each seat of a finished game finished: its place (the rules' order, ties shared:
    `bot.ratings.places_of`), its score with the score's parts, its Moonlight animal."""
    places = places_of(state)
    animals = getattr(state.ext, "animal", None) or ()
    seats = []
    for seat in range(len(state.seats)):
        parts = engine.score_parts(state, seat)
        animal = animals[seat] if seat < len(animals) and animals[seat] >= 0 else None
        seats.append(
            FinishedSeat(
                seat,
                places[seat],
                sum(parts.values()),
                parts,
                None if animal is None else ml.ANIMALS[animal],
            )
        )
    return Finish(tuple(seats))


def replay_events(config: ConfigDict, seed: int, moves: Sequence[Applied]) -> list[tuple[str, ...]]:
    """The engine's `events` after each action of a log (pure CPU; run it in a thread)."""
    notations = [move.notation for move in moves]
    return [
        tuple(state.events)
        for state in engine.record.states(engine.Config.from_dict(config), seed, notations)
    ]


def apply_turn(
    state: GameState,
    actions: Sequence[Action],
    first_ply: int,
    user_id: int | None,
    note: str | None,
) -> tuple[GameState, list[Applied]]:
    """Apply the actions a player (the Expert, the autopilot) chose for the current seat's
    turn; each is logged with `user_id` and `note`, or else the explanation the engine gave
    with it (the Expert's: "grow B5: best of 24 simulations, expected margin +3.1 points",
    kept as the engine words it, so that it can be translated like Cynthia's reasons)."""
    seat = seat_to_play(state)
    applied: list[Applied] = []
    for i, action in enumerate(actions):
        state = engine.apply(state, action)
        why = note if note is not None else getattr(action, "explanation", None) or None
        applied.append(Applied(first_ply + i, str(action), seat, user_id, why))
    return state, applied


def run_automa(state: GameState, first_ply: int) -> tuple[GameState, list[Applied]]:
    """Let Cynthia seats act while it is their turn; returns the new state and their actions."""
    cynthia = {k: CynthiaPlayer() for k, seat in enumerate(state.seats) if seat.kind == "cynthia"}
    applied: list[Applied] = []

    def log(before: GameState, action: Action, after: GameState) -> None:
        explanation = getattr(action, "explanation", "") or None
        applied.append(
            Applied(first_ply + len(applied), str(action), seat_to_play(before), None, explanation)
        )

    state, _ = play_until(state, cynthia, on_action=log, max_steps=MAX_AUTOMA_STEPS)
    return state, applied


def undoable(row: ActionRow | NewAction | None, user_id: int, current_seat: int | None) -> bool:
    """A logged action its player may take back: theirs, of this turn, revealing nothing."""
    return (
        row is not None
        and row.user_id == user_id
        and row.seat == current_seat
        and engine.can_undo(row.notation)
    )


@contextmanager
def typed_input(game: GameRow | None = None) -> Iterator[None]:
    """Around the engine reading what a user typed: its refusal becomes a `UserError` (naming
    the seats of `game` for "seat 2" when given), and so does anything else it raises for
    such input (logged by type only: never the text)."""
    try:
        yield
    except engine.IllegalAction as exc:
        reason = exc.args[0] if exc.args else str(exc)  # a `translation.Text` from the engine
        raise UserError(reason, seats_of=game) from None
    except Exception as exc:  # the engine's defect on odd input, still the user's answer
        log.warning("the engine raised %s on typed input", type(exc).__name__)
        raise UserError(refusals.UNPLAYABLE) from None


def apply_all(
    state: GameState,
    actions: Sequence[Action],
    seat: int,
    user_id: int,
    first_ply: int,
    game: GameRow | None = None,
) -> tuple[GameState, list[Applied]]:
    """Apply a player's actions in order; all or nothing (raises `UserError`, its refusal
    naming the seats of `game`)."""
    applied: list[Applied] = []
    turn = engine.turn_id(state)
    for action in actions:
        if state.is_over or engine.turn_id(state) != turn:
            done = ", ".join(f"'{a.notation}'" for a in applied)
            raise UserError(refusals.TURN_OVER_AFTER.format(actions=done))
        with typed_input(game):
            state = engine.apply(state, action)
        applied.append(Applied(first_ply + len(applied), str(action), seat, user_id))
    return state, applied
