"""The full engine as a position of the Expert's search (``search.Position``): expansion games.

The fast path plays the base game only, so Under the Moonlight games are searched through the
facade: ``engine.legal_actions`` and ``engine.perform_unchecked`` (every verb of the expansion),
on a determinisation of what the seat cannot see: the face-down Baby Turtle tokens are drawn
from the tokens nobody has seen, the animals dealt to the other seats from the animals the seat
has not seen, and Cynthia's card order and the RNG afresh. The evaluation reads the state
through ``moonlight.StateView``, with the expansion's score parts.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator

from translation import Text, _

from ..actions import Action
from ..config import CYNTHIA, Config
from ..game import apply, auto_action, legal_actions, light_for_sun, obstacles, perform_unchecked
from ..moonlight import ANIMALS, BABIES, Moonlight
from ..state import GameState
from .eval import opening_value, position_margin
from .fast import DECKS_SLOT, fresh_decks
from .moonlight import StateView
from .search import FACADE

END = Action("end")
#: The animal the seat keeps of the two dealt, first preferred: the abilities that need no walk
#: first (the Owl hunts anywhere, the Hedgehog plants where it stands), the Turtle last (its
#: tokens lie on the far corners, and the search plans no walk there).
ANIMAL_PREFERENCE = ("owl", "hedgehog", "badger", "boar", "beaver", "squirrel", "fox", "turtle")


class FacadePosition:
    """A ``GameState`` as a position of the search (see the module docstring)."""

    __slots__ = ("state",)

    #: The search's calibration through the facade.
    SEARCH = FACADE

    def __init__(self, state: GameState) -> None:
        self.state = state

    @property
    def config(self) -> Config:
        return self.state.config

    @property
    def round(self) -> int:
        return self.state.round

    def to_act(self) -> int:
        seat = self.state.current_seat
        return -1 if seat is None else seat

    def in_play(self) -> bool:
        return self.state.phase == "play"

    def turn_steps(self, seat: int) -> Iterator[tuple[Action, FacadePosition, Hashable]]:
        """Each legal action but the end that leaves the turn to ``seat`` (an action that ends
        the turn by itself is not a step of a plan)."""
        for action in legal_actions(self.state):
            if action.verb == "end":
                continue
            child = perform_unchecked(self.state, action)  # legal: checked once, not twice
            if child.current_seat == seat and child.phase == "play":
                yield action, FacadePosition(child), _key(child)

    def allows(self, action: Action) -> bool:
        return action in legal_actions(self.state)

    def play(self, action: Action) -> FacadePosition:
        return FacadePosition(perform_unchecked(self.state, action))

    def end_turn(self) -> FacadePosition:
        return FacadePosition(apply(self.state, END))

    def end_action(self) -> Action:
        legal = legal_actions(self.state)
        return next((a for a in legal if a.verb == "end"), legal[0])

    def cynthia_to_act(self) -> bool:
        return self.state.seats[self.to_act()].kind == CYNTHIA

    def cynthia_turn(self) -> FacadePosition:
        action = auto_action(self.state)
        assert action is not None  # a Cynthia is to act
        return FacadePosition(apply(self.state, action))

    def seen_by(self, seat: int, rnd: random.Random) -> FacadePosition:
        """A determinisation: the seat's own actions (an ability, a Baby Turtle token taken) may
        read what it cannot see."""
        return self.determinise(seat, rnd)

    def determinise(self, seat: int, rnd: random.Random) -> FacadePosition:
        return FacadePosition(determinise(self.state, seat, rnd))

    def has_chance(self) -> bool:
        return has_chance(self.state)

    def margin(self, seat: int) -> float:
        return position_margin(StateView(self.state), seat)

    def playout_value(self, seat: int) -> float:
        """The seat's margin, as in its own turn plans."""
        return position_margin(StateView(self.state), seat)

    def action(self, action: Action) -> Action:
        return action

    def setup_choice(self, rnd: random.Random) -> tuple[Action, Text]:
        """A setup decision on a determinisation: of the two animals dealt, the one first in
        ``ANIMAL_PREFERENCE``; a starting tree where ``eval.opening_value`` is highest; any
        other choice where the evaluation's margin is."""
        seat = self.to_act()
        d = determinise(self.state, seat, rnd)
        legal = legal_actions(d)
        if all(a.verb == "animal" for a in legal):
            best = min(legal, key=lambda a: ANIMAL_PREFERENCE.index(ANIMALS[a.args[0]]))
            why = _("{action}: of the two animals dealt, the one it plays best", action=str(best))
            return best, why
        if all(a.verb == "place" for a in legal):
            best = max(legal, key=lambda a: _opening(apply(d, a), seat, a.args[0]))
        else:
            best = max(legal, key=lambda a: view_eval(apply(d, a), seat))
        return best, _("{action}: the setup choice worth most", action=str(best))


def view_eval(state: GameState, seat: int) -> float:
    """The evaluation's margin of ``seat`` on a state (``eval.position_margin``)."""
    return position_margin(StateView(state), seat)


def _key(s: GameState) -> Hashable:
    return (tuple(s.cells), s.activated, tuple(x.light for x in s.seats), s.ext, s.piles)


def _opening(after: GameState, seat: int, space: int) -> float:
    light = sum(light_for_sun(after, sun)[seat] for sun in range(6))
    return opening_value(light, space, after.occupied() | obstacles(after))


def redrawn_beach(ext: Moonlight, rnd: random.Random) -> Moonlight:
    """The expansion's pieces (``Moonlight``) with the face-down Baby Turtle tokens on the
    beaches drawn afresh from those nobody has seen face up."""
    seen = {t for tokens in ext.babies for t in tokens}
    pool = [t for t in range(len(BABIES)) if t not in seen]
    rnd.shuffle(pool)
    return ext._replace(beach=tuple((i, pool[k]) for k, (i, _) in enumerate(ext.beach)))


def determinise(state: GameState, seat: int, rnd: random.Random) -> GameState:
    """A copy where what ``seat`` cannot see is drawn afresh (see the module docstring)."""
    s = state.copy()
    s.rng = rnd.getrandbits(64)
    decks = getattr(s, DECKS_SLOT)
    if any(deck is not None for deck in decks):
        setattr(s, DECKS_SLOT, fresh_decks(decks, rnd))
    ext = s.ext
    if ext is None:
        return s
    if ext.beach:
        ext = redrawn_beach(ext, rnd)
    if any(ext.dealt):
        # Another seat's animal shows once it stands on the board; until then it is in hand.
        mine = set(ext.dealt[seat])
        shown = {a for k, a in enumerate(ext.animal) if k != seat and ext.at[k] >= 0}
        pool = [a for a in range(len(ANIMALS)) if a not in mine and a not in shown]
        rnd.shuffle(pool)
        dealt, animal = list(ext.dealt), list(ext.animal)
        for k, pair in enumerate(ext.dealt):
            if k == seat or not pair:
                continue
            keep = [ext.animal[k]] if ext.at[k] >= 0 else []
            while len(keep) < 2:
                keep.append(pool.pop())
            if ext.animal[k] >= 0 and ext.at[k] < 0:
                animal[k] = keep[0]  # kept but not yet placed: which one is unseen
            dealt[k] = tuple(sorted(keep))
        ext = ext._replace(dealt=tuple(dealt), animal=tuple(animal))
    s.ext = ext
    return s


def has_chance(state: GameState) -> bool:
    """Whether what is left of the game holds anything the seats cannot foresee: a Cynthia's
    cards (and the RNG that shuffles them) or a face-down Baby Turtle token. Without it every
    simulation of a plan plays the same."""
    return any(s.kind == CYNTHIA for s in state.seats) or bool(state.ext and state.ext.beach)
