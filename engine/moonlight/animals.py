"""The forest animals on the board (docs/rules-data.md#73-animals-and-abilities): a step
(``move C3``), the legal animal decisions of a turn (steps and abilities), and the notation of
the expansion's verbs."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from translation import _, _n

from ..actions import Action, Args, IllegalAction
from ..geometry import ADJACENT_MASK, LABELS, N_CELLS, bits
from ..state import GameState
from .abilities import blocked_reason, label, legal_uses, playing
from .ext import Moonlight, replace_at, steps_allowed
from .names import (
    ABILITY_BIT,
    ANIMAL_TITLES,
    ANIMAL_WORDS,
    ANIMALS,
    HEDGEHOG,
    RUN_BIT,
    SQUIRREL,
)


def check_move(state: GameState, a: Action) -> str | None:
    if reason := playing(state):
        return reason
    ext: Moonlight = state.ext
    seat = cast(int, state.current_seat)  # a step of the seat to act
    here = ext.at[seat] if ext.at else -1
    if here < 0:
        return _("You have no animal to move.")
    name = ANIMAL_TITLES[ext.animal[seat]]
    allowed = steps_allowed(state, seat)
    if ext.steps >= allowed:
        if ext.animal[seat] == HEDGEHOG and not ext.used & ABILITY_BIT["run"]:
            return _n(
                "Your {name} has taken its {n} step this turn ('use run' gives one more).",
                "Your {name} has taken its {n} steps this turn ('use run' gives one more).",
                allowed,
                name=name,
            )
        return _n(
            "Your {name} has taken its {n} step this turn.",
            "Your {name} has taken its {n} steps this turn.",
            allowed,
            name=name,
        )
    space = a.args[0]
    if not ADJACENT_MASK[here] >> space & 1:
        return _(
            "{space} is not next to your {name} on {here}: it moves one space.",
            space=LABELS[space],
            name=name,
            here=LABELS[here],
        )
    return blocked_reason(state, space)


_AT = Moonlight._fields.index("at")
_STEPS = Moonlight._fields.index("steps")


def do_move(state: GameState, a: Action) -> GameState:
    s = state.copy()
    ext = list(s.ext)
    ext[_AT] = replace_at(ext[_AT], cast(int, s.current_seat), a.args[0])
    ext[_STEPS] += 1
    s.ext = tuple.__new__(Moonlight, ext)
    return s


#: Shared Action objects for the steps (like ``game.END``).
MOVES = tuple(Action("move", (i,)) for i in range(N_CELLS))


def legal_animal_play(state: GameState) -> list[Action]:
    """The current seat's legal animal decisions: steps, then abilities."""
    ext: Moonlight = state.ext
    seat = cast(int, state.current_seat)  # play: a seat is to act
    here = ext.at[seat]
    animal = ext.animal[seat]
    out: list[Action] = []
    allowed = 2 if animal == SQUIRREL else 1
    if ext.used & RUN_BIT:
        allowed += 1
    if ext.steps < allowed:
        blocked = ext.obstacles
        for i in ext.at:
            if i >= 0:
                blocked |= 1 << i
        for space in bits(ADJACENT_MASK[here] & ~blocked):
            out.append(MOVES[space])
    out.extend(legal_uses(state, seat, animal, here))
    return out


# -- notation --------------------------------------------------------------------------------


def one_label_parser(verb: str, usage: str) -> Callable[[list[str]], Args]:
    def parse(words: list[str]) -> Args:
        if len(words) != 1:
            raise IllegalAction(_("Write {verb} as '{usage}'.", verb=verb, usage=usage))
        return (label(words[0]),)

    return parse


def parse_animal(words: list[str]) -> Args:
    if len(words) != 1:
        raise IllegalAction(_("Write the animal you keep as 'animal fox'."))
    if words[0] not in ANIMAL_WORDS:
        raise IllegalAction(
            _(
                "'{word}' is not an animal ({animals}). Write 'animal fox'.",
                word=words[0],
                animals=", ".join(ANIMALS),
            )
        )
    return (ANIMAL_WORDS[words[0]],)
