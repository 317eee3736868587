"""Under the Moonlight's setup (docs/rules-data.md#72-setup-with-the-expansion): the animal
draft and placement, the Great Elder Tree and the moonstones, each a verb with its check,
performer and generator.

Decisions: ``animal fox`` (keep a dealt animal), ``settle C4`` (place it), ``elder D4``,
``moonstone C2``. Seats that play by themselves (Cynthia) get no animal; where such a seat
places the Great Elder Tree or a moonstone, its own seat rules choose among the legal spaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import cast

from translation import _, join

from .. import game as G
from ..actions import Action
from ..config import Config
from ..geometry import LABELS, LEAVES, N_CELLS, RING_MASK, bits
from ..layers import Verb, seat_rules_for
from ..moon import BEACHES, HALF, MOON_START
from ..rng import shuffled
from ..state import SETUP, GameState
from .ext import Moonlight, obstacle_reason, replace_at
from .names import ANIMAL_NAMES, ANIMALS, BABIES, LUNAR_START, TURTLE


def _players(config: Config) -> list[int]:
    """Seats that get an animal: every seat a player plays (not an automa)."""
    rules = seat_rules_for(config)
    return [k for k in range(config.n_seats) if not rules[k].automa]


def moonstone_count(config: Config) -> int:
    """Moonstones by seat count: 2 seats 3, 3 seats 2, 4 seats 0 (1 with the Great Elder Tree)."""
    if not config.moonstones:
        return 0
    return {2: 3, 3: 2, 4: 1 if config.elder_tree else 0}[config.n_seats]


@lru_cache(maxsize=256)
def setup_schedule(config: Config) -> tuple[tuple[int, str], ...]:
    """The expansion's setup decisions, before the starting trees
    (docs/rules-data.md#72-setup-with-the-expansion)."""
    n = config.n_seats
    out: list[tuple[int, str]] = []
    if config.moon_animals:
        players = _players(config)
        out += [(k, "animal") for k in players]
        # From the seat before the first seat (seat 0), going backwards.
        out += [(k, "settle") for k in reversed(players)]
    start = n - 1
    if config.elder_tree:
        out.append((n - 1, "elder"))
        start = n - 2
    for j in range(moonstone_count(config)):
        out.append(((start - j) % n, "moonstone"))
    return tuple(out)


def init(s: GameState) -> None:
    """Add the expansion state to a fresh game (``s`` is the new state): deal the animals."""
    cfg = s.config
    n = cfg.n_seats
    dealt: list[tuple[int, ...]] = [()] * n
    if cfg.moon_animals:
        order, s.rng = shuffled(range(len(ANIMALS)), s.rng)
        players = _players(cfg)
        for j, k in enumerate(players):
            dealt[k] = tuple(sorted(order[2 * j : 2 * j + 2]))
        seats = list(s.seats)
        for k in players:
            seats[k] = seats[k].copy()
            seats[k].lunar = LUNAR_START
        s.seats = tuple(seats)
    s.ext = Moonlight(
        moon=MOON_START if cfg.moon_animals else -1,
        full=HALF,
        dealt=tuple(dealt),
        animal=(-1,) * n,
        at=(-1,) * n,
        babies=((),) * n,
        scoring=(0,) * n,
        rich=(0,) * n,
    )


def setup_hint(state: GameState) -> str:
    kind = G.setup_kind(state)
    seat = state.current_seat
    ext = state.ext
    if kind == "animal":
        names = join([f"'animal {ANIMALS[a]}'" for a in ext.dealt[seat]], " / ")
        return _("Setup: first keep one of your two animals: {names}.", names=names)
    if kind == "settle":
        return _(
            "Setup: place your {animal} on an empty 3-leaf space, e.g. 'settle C4'.",
            animal=ANIMAL_NAMES[ext.animal[seat]],
        )
    if kind == "elder":
        return _("Setup: place the Great Elder Tree on an empty space, e.g. 'elder D4'.")
    if kind == "moonstone":
        return _("Setup: place a moonstone on an empty space, e.g. 'moonstone C2'.")
    return _("Setup: place a small tree on an empty outer space, e.g. 'place A1'.")


def _setup_step_reason(state: GameState, kind: str, what: str) -> str | None:
    if state.phase != SETUP or G.setup_kind(state) != kind:
        return _("{what} only during setup, at its turn.", what=what)
    return None


def _check_animal(state: GameState, a: Action) -> str | None:
    if reason := _setup_step_reason(state, "animal", _("Animals are chosen")):
        return reason
    dealt = state.ext.dealt[state.current_seat]
    if a.args[0] not in dealt:
        first, second = (ANIMAL_NAMES[x] for x in dealt)
        return _(
            "You were dealt the {first} and the {second}: keep one of them.",
            first=first,
            second=second,
        )
    return None


def _legal_animal(state: GameState) -> Iterator[Action]:
    for x in state.ext.dealt[cast(int, state.current_seat)]:
        yield Action("animal", (x,))


def _do_animal(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = cast(int, s.current_seat)  # a setup decision of the seat to act
    ext: Moonlight = s.ext._replace(animal=replace_at(s.ext.animal, seat, a.args[0]))
    schedule = G.setup_schedule(s.config)
    last_draft = schedule[s.setup_step + 1][1] != "animal"
    if last_draft and TURTLE in ext.animal:
        # The Turtle is in play: 6 of the 8 Baby Turtle tokens, face down, on the beaches.
        tokens, s.rng = shuffled(range(len(BABIES)), s.rng)
        ext = ext._replace(beach=tuple(sorted(zip(BEACHES, tokens[:6], strict=False))))
        s.events = (*s.events, _("Six Baby Turtle tokens are laid face down on the beaches."))
    s.ext = ext
    return G.advance_setup(s)


def _check_settle(state: GameState, a: Action) -> str | None:
    if reason := _setup_step_reason(state, "settle", _("Animals are placed")):
        return reason
    space = a.args[0]
    if LEAVES[space] != 3:
        return _(
            "Animals start on a 3-leaf space (around D4); {space} is not one.", space=LABELS[space]
        )
    if state.ext.animal_mask >> space & 1:
        return _("Another animal is already on {space}.", space=LABELS[space])
    return None


def _legal_settle(state: GameState) -> Iterator[Action]:
    for space in bits(RING_MASK[3] & ~state.ext.animal_mask):
        yield Action("settle", (space,))


def _do_settle(state: GameState, a: Action) -> GameState:
    s = state.copy()
    s.ext = s.ext._replace(at=replace_at(s.ext.at, cast(int, s.current_seat), a.args[0]))
    return G.advance_setup(s)


def _placement_free(state: GameState) -> int:
    """Spaces where the Great Elder Tree or a moonstone may go."""
    ext: Moonlight = state.ext
    return (
        ((1 << N_CELLS) - 1)
        & ~state.occupied()
        & ~ext.obstacles
        & ~ext.animal_mask
        & ~ext.beach_mask
    )


def _check_obstacle_place(state: GameState, space: int, kind: str, what: str) -> str | None:
    if reason := _setup_step_reason(state, kind, what):
        return reason
    ext = state.ext
    label = LABELS[space]
    if reason := obstacle_reason(ext, space):
        return reason
    if ext.animal_mask >> space & 1:
        return _("{label} holds an animal.", label=label)
    if ext.beach_mask >> space & 1:
        return _("{label} holds a Baby Turtle token.", label=label)
    if state.cells[space] >= 0:
        return _("{label} is not empty.", label=label)
    return None


def _check_elder(state: GameState, a: Action) -> str | None:
    return _check_obstacle_place(state, a.args[0], "elder", _("The Great Elder Tree is placed"))


def _check_moonstone(state: GameState, a: Action) -> str | None:
    return _check_obstacle_place(state, a.args[0], "moonstone", _("Moonstones are placed"))


def _legal_elder(state: GameState) -> Iterator[Action]:
    for space in bits(_placement_free(state)):
        yield Action("elder", (space,))


def _legal_moonstone(state: GameState) -> Iterator[Action]:
    for space in bits(_placement_free(state)):
        yield Action("moonstone", (space,))


def _do_elder(state: GameState, a: Action) -> GameState:
    s = state.copy()
    space = a.args[0]
    s.ext = s.ext._replace(elder=space, obstacles=s.ext.obstacles | 1 << space)
    return G.advance_setup(s)


def _do_moonstone(state: GameState, a: Action) -> GameState:
    s = state.copy()
    bit = 1 << a.args[0]
    s.ext = s.ext._replace(stones=s.ext.stones | bit, obstacles=s.ext.obstacles | bit)
    return G.advance_setup(s)


VERBS = (
    Verb("animal", _check_animal, _do_animal, _legal_animal, setup_kind="animal"),
    Verb("settle", _check_settle, _do_settle, _legal_settle, setup_kind="settle"),
    Verb(
        "elder",
        _check_elder,
        _do_elder,
        _legal_elder,
        setup_kind="elder",
        what=_("the Great Elder Tree"),
    ),
    Verb(
        "moonstone",
        _check_moonstone,
        _do_moonstone,
        _legal_moonstone,
        setup_kind="moonstone",
        what=_("a moonstone"),
    ),
)
