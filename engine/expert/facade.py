"""The Expert in Under the Moonlight games: the same evaluation, searched through the facade.

``engine.fast`` plays the base game only, so here the turn plans are searched with
``engine.legal_actions`` and ``engine.apply`` (every verb of the expansion included) on a
determinisation of what the seat cannot see: the face-down Baby Turtle tokens are drawn from the
tokens nobody has seen, the animals dealt to the other seats from the animals the seat has not
seen, and Cynthia's card order and the RNG afresh.

As in ``engine.expert``, the best plans for the best few distinct first actions are then each
simulated on the same determinisations: the plan, the other seats' turns until the seat's next
turn, that next turn planned by a narrow beam, the other seats again and the seat's turn after
that, valued by the evaluation half after each of the seat's two planned turns. Between people
(no chance) a plan is judged by the worse of two replies, the other person's turns greedy or
planned like the seat's own, and the budget left simulates the next best plans of the same first
actions. Through the facade a simulation costs more, so the beam is narrower and the simulations
fewer for the same budget.

The evaluation counts a seat's lunar points as those it will hold at the end (``lunar_at_end``):
an animal the moon will light is worth its lunar points to come, and lunar points the cap of 14
would waste cost nothing to spend on an ability. An Owl's lunar points beyond the cap are light
it will hunt (``owl_surplus``).
"""

from __future__ import annotations

import random
from functools import lru_cache

from translation import _

from .actions import Action
from .config import CYNTHIA
from .expert_eval import (
    beam_plans,
    best_by_simulation,
    expected_margin,
    fresh_decks,
    new_memo,
    planned_reason,
    position_margin,
    remember,
    simulated_reason,
)
from .fast import DECKS_SLOT
from .game import (
    apply,
    auto_action,
    legal_actions,
    light_for_sun,
    obstacles,
    perform_unchecked,
    score_parts,
    scores,
)
from .geometry import ALL_MASK, LEAVES, WITHIN, bits
from .moon import moonlit, next_moon
from .moonlight import ANIMALS, BABIES, OWL
from .pieces import LUNAR_CAP, PILES
from .state import GameState

END = Action("end")
_PHASE = {"setup": 0, "play": 1, "over": 2}
#: Lookahead simulations per second of budget through the facade, calibrated like
#: ``engine.expert.SIMULATIONS_PER_SECOND``: a simulation plays two of the seat's turns, and a
#: 0.25 s decision takes about 0.08 s of CPU on average, against a Cynthia as between people.
SIMULATIONS_PER_SECOND = 70
#: At most this many candidates (distinct first actions), each simulated at least this often.
MAX_CANDIDATES = 6
SIMULATIONS_PER_CANDIDATE = 3
#: The beam's width for the seat's own turn plans, per second of budget (at most 100).
PLAN_WIDTH_PER_SECOND = 100
#: The beam's width for the seat's next turn inside a simulation.
NEXT_TURN_WIDTH = 4
#: The positions a simulation's turn plan, and the seat's own turn plans per second of budget,
#: may value (``plan_turn``'s ``max_positions``): a turn with many actions is planned narrower.
#: A simulation plans four turns between people (two of the seat's, two replies), so 150 there
#: let 29 of 280 quick decisions run over 0.25 s of CPU (at most 0.39 s); 75 let 13 of 421
#: (at most 0.29 s), and none since the token points are memoised (at most 0.22 s;
#: docs/expert.md).
NEXT_TURN_POSITIONS = 75
PLAN_POSITIONS_PER_SECOND = 6_000
#: The seat's own turns after the plan that a simulation plays, each planned by that beam; the
#: positions the first and the last reach are valued, half each (``FIRST_TURN_SHARE``). With
#: the worse of two replies between people and the Owl's surplus below, against the quarter
#: budget 158 of 240 won (seeds 0-239) against 142.5 with one turn (docs/expert.md).
LOOKAHEAD_TURNS = 2
FIRST_TURN_SHARE = 0.5
#: Between people a simulation plays two lookaheads (``simulate``: the other person greedy,
#: and by ``_beam_turn``), so it counts for two of the budget's simulations; what the
#: candidates leave goes to their first actions' next best plans
#: (``expert_eval.best_by_simulation``), as in ``engine.expert``.
NO_CHANCE_SIMULATION_COST = 2
#: An Owl's lunar points beyond the cap are light it will hunt (a Nighttime Hunting 3 turns 12
#: of them into 10 light): each is worth this much (``owl_surplus``).
OWL_SURPLUS_VALUE = 0.4
#: The animal the seat keeps of the two dealt, first preferred: the abilities that need no walk
#: first (the Owl hunts anywhere, the Hedgehog plants where it stands), the Turtle last (its
#: tokens lie on the far corners, and the search plans no walk there).
ANIMAL_PREFERENCE = ("owl", "hedgehog", "badger", "boar", "beaver", "squirrel", "fox", "turtle")
#: A simulation stops after this many turns of the other seats if the seat never plays again.
MAX_OTHER_TURNS = 12


class StateView:
    """A ``GameState`` read the way ``engine.expert.fast_values`` reads a ``FastGame``."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.config = state.config
        self.phase = _PHASE[state.phase]
        self.round = state.round
        self.sun = state.sun
        self.n = len(state.seats)
        self.masks = state.masks
        self.cyn = tuple(s.kind == CYNTHIA for s in state.seats)
        self.light = [s.light for s in state.seats]
        self.avail = [x for s in state.seats for x in s.available]
        self.taken = [0] + [len(PILES[k]) - len(state.piles[k]) for k in (1, 2, 3, 4)]
        ext = state.ext
        #: What the light depends on besides the masks and the sun: the pieces that shade.
        self.shade_key = None if ext is None else (ext.obstacles, ext.elder, ext.stones)

    def light_for_suns(self, suns: list[int]) -> list[list[int]]:
        return [light_for_sun(self.state, sun) for sun in suns]

    def scores(self) -> list[int]:
        return scores(self.state)

    def token_points(self, seat: int) -> float:
        """Everything that scores but light and Cynthia's trees: tokens, Baby Turtles, and the
        lunar points the seat will hold at the end if it spends none (``lunar_at_end``), and
        an Owl's ``owl_surplus``. Memoised by what they read: in a turn's beam the other seats'
        are the same in every position, and so are the seat's own but after a collect, an
        animal's step or an ability."""
        state = self.state
        seat_state = state.seats[seat]
        key = (
            state.config, seat, seat_state.tokens, seat_state.lunar,
            state.phase, state.round, state.sun, state.ext,
        )  # fmt: skip
        known = _TOKEN_POINTS.get(key)
        if known is None:
            known = _token_points(state, seat)
            remember(_TOKEN_POINTS, key, known)
        points, surplus = known
        return points + OWL_SURPLUS_VALUE * surplus


_TOKEN_POINTS = new_memo()


def _token_points(state: GameState, seat: int) -> tuple[int, int]:
    """``StateView.token_points`` as its points and the Owl's surplus lunar points."""
    parts = score_parts(state, seat)
    if "lunar" in parts:
        parts["lunar"] = lunar_at_end(state, seat)
    points = sum(v for k, v in parts.items() if k not in ("light", "trees"))
    return points, owl_surplus(state, seat)


@lru_cache(maxsize=65_536)
def _lunar_to_come(gap: int, full: bool, sun: int, rounds: int, space: int, elder: int, stones):
    """The lunar points an animal on ``space`` gets at the next ``rounds`` photosyntheses, the
    moon moving on from ``gap`` and ``full`` while the sun moves on from ``sun``."""
    total = 0
    for _round in range(rounds):
        gap, full = next_moon(gap, full, sun)
        sun = (sun + 1) % 6
        if moonlit(gap, elder, stones) >> space & 1:
            total += 2 if full else 1
    return total


def _moonlight_to_come(state: GameState, seat: int) -> int:
    """The lunar points the moon will give the seat's animal where it stands at the
    photosyntheses left (``_lunar_to_come``); 0 before the moon or the animal is placed."""
    ext = state.ext
    space = ext.at[seat] if ext.at else -1
    if ext.moon < 0 or space < 0:
        return 0
    rounds = state.config.last_round - state.round
    return _lunar_to_come(ext.moon, ext.full, state.sun, rounds, space, ext.elder, ext.stones)


def lunar_at_end(state: GameState, seat: int) -> int:
    """The lunar points a seat would hold at the end if it spent none and its animal stayed where
    it stands: what it holds plus what the moon will give the animal there at the photosyntheses
    left, at most 14. Lunar points beyond that would be lost at the cap: spending them costs
    nothing, and an animal where the moon will shine is worth its lunar points to come."""
    lunar = state.seats[seat].lunar
    if state.phase != "play":
        return lunar
    return min(LUNAR_CAP, lunar + _moonlight_to_come(state, seat))


def owl_surplus(state: GameState, seat: int) -> int:
    """The lunar points the moon will give a seat's Owl, where it stands, beyond what fills its
    lunar points to the cap of 14 by the end: points ``lunar_at_end`` cannot count, which the Owl
    can still turn into light by Nighttime Hunting. 0 for another animal or one not placed."""
    ext = state.ext
    if ext is None or not ext.at or ext.animal[seat] != OWL or state.phase == "over":
        return 0
    return max(0, state.seats[seat].lunar + _moonlight_to_come(state, seat) - LUNAR_CAP)


def opening_value(light: int, space: int, occupied: int) -> float:
    """What a starting tree on ``space`` is worth: ``light``, the light of the seat's trees over
    the six suns of the first revolution with it there, plus one point per leaf beyond the first
    of every empty space within reach of a medium tree (the richer soil its seeds will open)."""
    free = WITHIN[2][space] & ~occupied & ALL_MASK
    return light + sum(LEAVES[i] - 1 for i in bits(free))


def view_eval(state: GameState, seat: int) -> float:
    return position_margin(StateView(state), seat)


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
        seen = {t for tokens in ext.babies for t in tokens}
        pool = [t for t in range(len(BABIES)) if t not in seen]
        rnd.shuffle(pool)
        ext = ext._replace(beach=tuple((i, pool[k]) for k, (i, _) in enumerate(ext.beach)))
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
    return any(s.kind == CYNTHIA for s in state.seats) or bool(state.ext.beach)


def _key(s: GameState):
    return (tuple(s.cells), s.activated, tuple(x.light for x in s.seats), s.ext, s.piles)


def plan_turn(
    state: GameState, seat: int, width: int, depth: int = 6, max_positions: int | None = None
) -> list[tuple]:
    """Whole-turn plans ``(value, actions)`` best first, by ``expert_eval.beam_plans`` through
    the facade (every verb of the expansion): an action that ends the turn by itself is not a
    step of a plan."""

    def steps(pos: GameState):
        for action in legal_actions(pos):
            if action.verb == "end":
                continue
            child = perform_unchecked(pos, action)  # legal: checked once, not twice
            if child.current_seat == seat and child.phase == "play":
                yield action, child, _key(child)

    return beam_plans(state, steps, lambda pos: view_eval(pos, seat), width, depth, max_positions)


def _opening(after: GameState, seat: int, space: int) -> float:
    light = sum(light_for_sun(after, sun)[seat] for sun in range(6))
    return opening_value(light, space, after.occupied() | obstacles(after))


def _planned_turn(state: GameState, **plan) -> GameState:
    """Another seat's whole turn in a simulation: Cynthia's cards, or a human's best plan of
    ``plan_turn(state, seat, **plan)``."""
    seat = state.current_seat
    if state.seats[seat].kind == CYNTHIA:
        return apply(state, auto_action(state))
    for action in plan_turn(state, seat, **plan)[0][1]:
        state = perform_unchecked(state, action)
    return apply(state, END)


def _other_turn(state: GameState) -> GameState:
    """Another seat's whole turn in a simulation: Cynthia's cards, or a human's greedy plan."""
    return _planned_turn(state, width=1, depth=4)


def _beam_turn(state: GameState) -> GameState:
    """Another seat's whole turn as a simulation plans the seat's own: Cynthia's cards, or a
    human's best plan of a ``NEXT_TURN_WIDTH`` beam on its margin (the other model of a
    person's turn, beside the greedy ``_other_turn``)."""
    return _planned_turn(state, width=NEXT_TURN_WIDTH, max_positions=NEXT_TURN_POSITIONS)


def _lookahead(state: GameState, seat: int, acts: tuple, rnd: random.Random, other) -> float:
    """One lookahead of the plan ``acts`` on a fresh determinisation: the plan, the other seats'
    turns (``other``) until the seat's next turn, that turn planned by a narrow beam, and so on
    for ``LOOKAHEAD_TURNS`` turns of the seat. Its value blends the margins the evaluation gives
    the positions the first and the last of those turns reach (``FIRST_TURN_SHARE``; the end of
    the game when it comes first)."""
    s = determinise(state, seat, rnd)
    first = None
    for _turn in range(LOOKAHEAD_TURNS):
        for action in acts:
            if action not in legal_actions(s):
                break  # what was hidden made the rest of the plan different here
            s = perform_unchecked(s, action)
        if s.phase == "play" and s.current_seat == seat:
            s = apply(s, END)
        for _other in range(MAX_OTHER_TURNS):
            if s.phase != "play" or s.current_seat == seat:
                break
            s = other(s)
        if s.phase != "play" or s.current_seat != seat:
            last = view_eval(s, seat)
            return last if first is None else _horizons(first, last)
        value, acts = plan_turn(s, seat, NEXT_TURN_WIDTH, max_positions=NEXT_TURN_POSITIONS)[0]
        if first is None:
            first = value
    return _horizons(first, value)


def _horizons(first: float, last: float) -> float:
    """A lookahead's value from the margins after the seat's first and last planned turns."""
    return FIRST_TURN_SHARE * first + (1 - FIRST_TURN_SHARE) * last


def simulate(state: GameState, seat: int, acts: tuple, rnd: random.Random) -> float:
    """A simulation's value (``_lookahead``), the other people playing greedy turns. In a game
    without chance, where each plan is simulated once, the worse of that and the same lookahead
    with the other people playing ``_beam_turn``: a plan is judged by the reply that hurts it
    more."""
    value = _lookahead(state, seat, acts, rnd, _other_turn)
    if has_chance(state):
        return value
    return min(value, _lookahead(state, seat, acts, rnd, _beam_turn))


def _end(legal: list[Action]) -> Action:
    """Ending the turn, among the legal actions."""
    return next((a for a in legal if a.verb == "end"), legal[0])


def search_facade(state: GameState, budget_s: float, rnd: random.Random) -> tuple[Action, str]:
    """The Expert's decision in an expansion game: ``(action, what it expects)``."""
    seat = state.current_seat
    d = determinise(state, seat, rnd)
    legal = legal_actions(d)
    if state.phase != "play":
        if all(a.verb == "animal" for a in legal):
            best = min(legal, key=lambda a: ANIMAL_PREFERENCE.index(ANIMALS[a.args[0]]))
            why = _("{action}: of the two animals dealt, the one it plays best", action=str(best))
            return best, why
        if all(a.verb == "place" for a in legal):
            best = max(legal, key=lambda a: _opening(apply(d, a), seat, a.args[0]))
        else:
            best = max(legal, key=lambda a: view_eval(apply(d, a), seat))
        return best, _("{action}: the setup choice worth most", action=str(best))
    width = min(100, max(1, round(budget_s * PLAN_WIDTH_PER_SECOND)))
    plans = plan_turn(d, seat, width, max_positions=round(budget_s * PLAN_POSITIONS_PER_SECOND))
    lookahead = best_by_simulation(
        plans,
        round(budget_s * SIMULATIONS_PER_SECOND),
        SIMULATIONS_PER_CANDIDATE,
        MAX_CANDIDATES,
        lambda acts, draw: simulate(state, seat, acts, draw),
        rnd,
        chance=has_chance(state),
        cost=NO_CHANCE_SIMULATION_COST,
    )
    if lookahead is not None:
        best, mean, used = lookahead
        action = best[0] if best else _end(legal)
        return action, simulated_reason(str(action), used, _expected(state, seat, mean))
    value, acts = plans[0]
    if not acts:
        end = _end(legal)
        why = _(
            "{action}: nothing beats ending the turn, expected margin {margin} points",
            action=str(end),
            margin=f"{_expected(state, seat, value):+.1f}",
        )
        return end, why
    return acts[0], planned_reason(str(acts[0]), len(plans), _expected(state, seat, value))


def _expected(state: GameState, seat: int, value: float) -> float:
    """The final margin a reason line states for the evaluation's margin ``value``."""
    return expected_margin(value, state.config, state.round, seat)
