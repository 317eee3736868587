"""The Expert's one search, over any position that offers ``Position``.

How it decides, for the seat to act in the play phase:

1. **Turn plans.** A beam search over the seat's own actions (``Settings.max_plan_width``
   wide) lists whole-turn plans (buy, then grow into it, plant, collect ...), each valued by
   the evaluation of the position it reaches (``plan_turn``). A wide beam matters: in 40 games
   against Cynthia the best plan of a 2-wide beam won 9, of an 8-wide one 25, of a 25-wide
   one 29.
2. **Lookahead.** The best plans for the best few distinct first actions are each simulated on
   the same *determinisations* of what the seat cannot see (Cynthia's card order and the
   game's RNG drawn afresh; in the expansion also the face-down Baby Turtle tokens and the
   animals dealt to the other seats): the plan, the other seats' turns until the seat's next
   turn (Cynthias follow their cards, people play greedy whole turns), then the seat's own
   next turns (``LOOKAHEAD_TURNS``), each planned by a narrower beam. The positions the first
   and the last of them reach are valued by the evaluation, half each (``FIRST_TURN_SHARE``;
   exact scores if the game ends first), and the plan with the best mean is played
   (``best_by_simulation``). This sees what a turn sets up for the next ones (light for the
   coming suns, a piece bought to be grown, a tree grown to be collected) and what the other
   seats do in between. Between people, where nothing is drawn, each plan is simulated once
   with the others' turns greedy and once with them planned like the seat's own, and is worth
   the worse; the budget left simulates the next best plans of the same first actions.
3. **Evaluation.** A seat's final score is predicted by a small linear model on position
   features (``engine.expert.eval``), and a position is worth its predicted margin over the
   best opponent; in the expansion the score parts of ``engine.expert.moonlight`` join it.
4. **Setup.** The starting trees go where the first revolution's light and the richer soil
   within a medium tree's reach are worth most (``eval.opening_value``); of the two animals
   dealt, the one the search plays best is kept.

The search is written once, against ``Position``: the base game's fast path
(``engine.expert.fast.FastGame``) and the full engine (``engine.expert.facade.FacadePosition``,
every verb of the expansion) both offer it. A simulation through the facade costs more, so each
carries its own calibration (``Settings``: ``FAST_PATH`` and ``FACADE``).

Determinism: the work done is counted in simulations, ``simulations_per_second * budget_s``,
and in the positions a turn plan may value (``plan_positions_per_second * budget_s`` for the
seat's own turn, ``next_turn_positions`` for each turn inside a simulation: a turn with many
actions is planned narrower, so a decision stays within its budget), and every random draw
comes from the decision's ``random.Random``, so a seed and a budget always give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

from translation import Number, Text, _, _n

from ..actions import Action
from ..config import Config
from .eval import expected_margin

#: The seat's own turns after the plan that a simulation plays, each planned by the narrow beam
#: (the first and the last are valued, see ``FIRST_TURN_SHARE``). Over 80 base games each, 2
#: turns against 1: 65 won against 68 of Cynthia's, 52 against 47.5 of the quarter budget's, at
#: twice the CPU; in the expansion, against the quarter budget 158 of 240 won against 142.5.
LOOKAHEAD_TURNS = 2
#: A simulation's value: this share of the margin after the seat's first planned turn, the
#: rest after its last. Where a turn stops moves the evaluation (pieces bought and not yet
#: grown, a collect just made), so two horizons rank plans better than one: over 80 games
#: each, the last turn alone won 63 against Cynthia (+11.2 points a game) and 46 against the
#: quarter budget; half of each, 72 (+16.5) and 49.
FIRST_TURN_SHARE = 0.5
#: A simulation stops after this many turns of the other seats if the seat never plays again.
MAX_OTHER_TURNS = 12
#: The depth of a person's greedy turn in a simulation (one action at a time, at most this many).
GREEDY_DEPTH = 4


@dataclass(frozen=True)
class Settings:
    """How much a position's search does for a budget (the budget is counted in this work, not
    in time, so that a seed and a budget give the same decision on any machine)."""

    #: Lookahead simulations per second of budget, calibrated on the bench machine
    #: (``bench/expert_bench.py`` prints the CPU time per decision).
    simulations_per_second: int
    #: Candidates simulated: at most this many distinct first actions, and at least this many
    #: simulations each.
    max_candidates: int
    simulations_per_candidate: int
    #: The beam's width for the seat's own turn plans: this many per second of budget, within
    #: these bounds.
    plan_width_per_second: int
    min_plan_width: int
    max_plan_width: int
    #: The positions the seat's own turn plans may value, per second of budget.
    plan_positions_per_second: int
    #: The beam's width, and the positions it may value, for a turn inside a simulation.
    next_turn_width: int
    next_turn_positions: int
    #: The actions a turn plan holds at most.
    plan_depth: int
    #: What one simulation costs between people (it plays two lookaheads, ``simulate``), in
    #: simulations of the budget; what the candidates leave goes to their first actions' next
    #: best plans (``best_by_simulation``).
    no_chance_simulation_cost: int
    #: When the game ends in a simulation after the seat's first planned turn: blend the
    #: first turn's margin with the final one (``FIRST_TURN_SHARE``), or the final scores
    #: alone.
    blend_at_end: bool


#: The base game on the fast path. A 0.25 s decision takes about 0.2 s of CPU. A width of 400
#: finds the same plans as 100 in 80 games; a quarter budget plans about a quarter as wide.
#: Mid-game turns with many actions made a third of the quick decisions take over 0.25 s (at
#: most 0.58 s) before a simulation's turn could value at most 150 positions; then 1 of 250 did
#: (0.27 s), and the play was as strong.
FAST_PATH = Settings(
    simulations_per_second=70,
    max_candidates=6,
    simulations_per_candidate=4,
    plan_width_per_second=400,
    min_plan_width=8,
    max_plan_width=100,
    plan_positions_per_second=8_000,
    next_turn_width=8,
    next_turn_positions=150,
    plan_depth=8,
    no_chance_simulation_cost=2,
    blend_at_end=False,
)
#: The expansion through the facade, where a simulation costs more: a narrower beam for the
#: same budget. A 0.25 s decision takes about 0.08 s of CPU on average, against a Cynthia as
#: between people. A simulation plans four turns between people (two of the seat's, two
#: replies), so 150 positions a turn let 29 of 280 quick decisions run over 0.25 s of CPU (at
#: most 0.39 s); 75 let 13 of 421 (at most 0.29 s), and none since the token points are
#: memoised (at most 0.22 s).
FACADE = Settings(
    simulations_per_second=70,
    max_candidates=6,
    simulations_per_candidate=3,
    plan_width_per_second=100,
    min_plan_width=1,
    max_plan_width=100,
    plan_positions_per_second=6_000,
    next_turn_width=4,
    next_turn_positions=75,
    plan_depth=6,
    no_chance_simulation_cost=2,
    blend_at_end=True,
)

A = TypeVar("A", bound=Hashable)
#: A turn plan: the actions of the seat's turn, without the one ending it.
Plan = tuple[A, ...]


class Position(Protocol[A]):
    """What the search reads and does on a position; ``A`` is its kind of action (an int code
    on the fast path, an ``Action`` through the facade). ``play`` and ``end_turn`` may change
    the position they are called on (the fast path does): the search uses what they return and
    plays only on copies it made (``determinise``, ``turn_steps``)."""

    #: The search's calibration for this kind of position.
    SEARCH: Settings

    @property
    def config(self) -> Config: ...

    @property
    def round(self) -> int: ...

    def to_act(self) -> int:
        """The seat to act."""

    def in_play(self) -> bool:
        """Whether the game is in its play phase (not in setup, not over)."""

    def turn_steps(self, seat: int) -> Iterator[tuple[A, Self, Hashable]]:
        """Each action of ``seat``'s turn that does not end it, as ``(action, the position it
        reaches, a key naming that position)``."""

    def allows(self, action: A) -> bool:
        """Whether ``action``, of a plan made on another determinisation of this position, is
        legal here."""

    def play(self, action: A) -> Self:
        """The position after ``action``."""

    def end_turn(self) -> Self:
        """The position after the seat to act ends its turn."""

    def end_action(self) -> A:
        """The action that ends the turn."""

    def cynthia_to_act(self) -> bool:
        """Whether the seat to act is a Cynthia."""

    def cynthia_turn(self) -> Self:
        """The position after the Cynthia to act has played her cards."""

    def seen_by(self, seat: int, rnd: random.Random) -> Self:
        """The position as ``seat`` may plan its own turn on: what it cannot see and its turn
        may read drawn afresh from ``rnd``."""

    def determinise(self, seat: int, rnd: random.Random) -> Self:
        """A copy where everything ``seat`` cannot see or foresee is drawn afresh from ``rnd``."""

    def has_chance(self) -> bool:
        """Whether the rest of the game holds anything the seats cannot foresee. Without it
        every simulation of a plan plays the same."""

    def margin(self, seat: int) -> float:
        """The evaluation: ``seat``'s predicted final score over the best other seat's."""

    def playout_value(self, seat: int) -> float:
        """What a person's greedy turn in a simulation makes highest for ``seat``."""

    def action(self, action: A) -> Action:
        """The engine's ``Action`` for ``action``."""


P = TypeVar("P", bound="Position[Any]")


# -- turn plans -----------------------------------------------------------------------------


def plan_turn(
    pos: Position[A],
    seat: int,
    width: int,
    depth: int | None = None,
    measure: Callable[[Position[A]], float] | None = None,
    max_positions: int | None = None,
) -> list[tuple[float, Plan[A]]]:
    """Whole-turn plans ``(value, actions)`` of the seat to act, best first, by a beam search
    from ``pos`` (valued too); ``depth`` actions at most (``Settings.plan_depth`` unless told);
    each position valued by ``measure`` (``seat``'s margin unless told).

    Each step of the beam extends every kept plan by every action of ``pos.turn_steps`` that
    does not end the turn, values the positions reached and keeps the ``width`` best distinct
    positions (two plans reaching the same position are one). Every plan met (the empty one
    included) is a candidate to stop at. With ``max_positions``, a step extends the kept plans
    best first only while the positions valued so far are fewer than that (the best plan
    always), so a turn with many actions is planned narrower, not shorter.
    """
    if depth is None:
        depth = pos.SEARCH.plan_depth
    value = measure if measure is not None else (lambda p: p.margin(seat))
    empty: Plan[A] = ()
    found = {empty: value(pos)}
    beam: list[tuple[float, Plan[A], Position[A]]] = [(found[empty], empty, pos)]
    valued = 0
    for _step in range(depth):
        children: list[tuple[float, Plan[A], Position[A]]] = []
        seen: set[Hashable] = set()
        for _value, plan, at in beam:
            if max_positions is not None and children and valued >= max_positions:
                break
            for step, child, key in at.turn_steps(seat):
                if key in seen:
                    continue
                seen.add(key)
                valued += 1
                children.append((value(child), (*plan, step), child))
        if not children:
            break
        children.sort(key=lambda c: -c[0])
        beam = children[:width]
        for v, plan, _pos in beam:
            found[plan] = v
    return sorted(((v, plan) for plan, v in found.items()), key=lambda vp: -vp[0])


def root_plans(pos: Position[A], seat: int, budget_s: float) -> list[tuple[float, Plan[A]]]:
    """The seat's own turn plans at a budget, best first (``plan_turn``): as wide as the
    calibration gives the budget, and at most ``plan_positions_per_second * budget_s``
    positions valued."""
    s = pos.SEARCH
    width = max(s.min_plan_width, min(s.max_plan_width, round(budget_s * s.plan_width_per_second)))
    return plan_turn(pos, seat, width, max_positions=round(budget_s * s.plan_positions_per_second))


def play_plan(pos: P, plan: Plan[A]) -> P:
    """The position after the seat to act plays ``plan`` and ends its turn."""
    for step in plan:
        pos = pos.play(step)
    return pos.end_turn()


def greedy_turn(pos: P) -> P:
    """A person's whole turn in a simulation, greedily (the playout policy): one action at a
    time, each the best for ``playout_value``, stopping where that is highest."""
    seat = pos.to_act()
    best = plan_turn(pos, seat, 1, GREEDY_DEPTH, measure=lambda p: p.playout_value(seat))[0][1]
    return play_plan(pos, best)


def beam_turn(pos: P) -> P:
    """A person's whole turn in a simulation as a simulation plans the seat's own: the best plan
    of the narrow beam on its margin (the other model of a person's turn, beside
    ``greedy_turn``)."""
    s = pos.SEARCH
    seat = pos.to_act()
    best = plan_turn(pos, seat, s.next_turn_width, max_positions=s.next_turn_positions)[0][1]
    return play_plan(pos, best)


# -- the lookahead --------------------------------------------------------------------------


def lookahead(
    pos: Position[A],
    seat: int,
    plan: Plan[A],
    rnd: random.Random,
    other: Callable[[Position[A]], Position[A]],
) -> float:
    """One lookahead of ``plan`` on a fresh determinisation: the plan (as far as it stays
    legal there), the other seats' turns until the seat's next turn (Cynthias by their cards,
    people by ``other``), then the seat's own next turn, planned by the narrow beam, and so on
    for ``LOOKAHEAD_TURNS`` turns of the seat. Its value blends the margins the evaluation
    gives the positions the first and the last of those turns reach (``FIRST_TURN_SHARE``);
    when the game ends first, the final margin (blended or alone: ``Settings.blend_at_end``)."""
    s = pos.SEARCH
    d = pos.determinise(seat, rnd)
    first: float | None = None
    value = 0.0
    for _turn in range(LOOKAHEAD_TURNS):
        for step in plan:
            if not d.allows(step):
                break  # what was hidden made the rest of the plan different here
            d = d.play(step)
        if d.in_play() and d.to_act() == seat:
            d = d.end_turn()
        for _other in range(MAX_OTHER_TURNS):
            if not d.in_play() or d.to_act() == seat:
                break
            d = d.cynthia_turn() if d.cynthia_to_act() else other(d)
        if not d.in_play() or d.to_act() != seat:
            last = d.margin(seat)
            return _horizons(first, last) if first is not None and s.blend_at_end else last
        value, plan = plan_turn(d, seat, s.next_turn_width, max_positions=s.next_turn_positions)[0]
        if first is None:
            first = value
    assert first is not None
    return _horizons(first, value)


def _horizons(first: float, last: float) -> float:
    """A lookahead's value from the margins after the seat's first and last planned turns."""
    return FIRST_TURN_SHARE * first + (1 - FIRST_TURN_SHARE) * last


def simulate(pos: Position[A], seat: int, plan: Plan[A], rnd: random.Random) -> float:
    """A simulation's value (``lookahead``), the other people playing greedy turns. In a game
    without chance, where each plan is simulated once, the worse of that and the same lookahead
    with the other people playing ``beam_turn``: a plan is judged by the reply that hurts it
    more."""
    value = lookahead(pos, seat, plan, rnd, greedy_turn)
    if pos.has_chance():
        return value
    return min(value, lookahead(pos, seat, plan, rnd, beam_turn))


# -- choosing among plans -------------------------------------------------------------------


def first_moves(plans: list[tuple[float, Plan[A]]], k: int) -> list[Plan[A]]:
    """The best plan for each of the ``k`` best distinct first actions, from plans ``(value,
    actions)`` best first (the decision is the first action: two plans that begin alike
    compete for nothing)."""
    out: list[Plan[A]] = []
    seen: set[A | None] = set()
    for _value, acts in plans:
        first = acts[0] if acts else None
        if first not in seen:
            seen.add(first)
            out.append(acts)
            if len(out) == k:
                break
    return out


def best_by_simulation(
    plans: list[tuple[float, Plan[A]]],
    sims: int,
    at_least: int,
    at_most: int,
    simulate: Callable[[Plan[A], random.Random], float],
    rnd: random.Random,
    chance: bool = True,
    cost: int = 0,
) -> tuple[Plan[A], float, int] | None:
    """The lookahead's choice: ``(plan, its mean, simulations used)``, or None when ``sims``
    cannot give 2 candidates 2 simulations each (then the beam's best plan stands).

    Each candidate gets at least ``at_least`` simulations, or, when the budget cannot give two
    candidates that many, two candidates share what there is: a small budget still uses its
    time (a quarter of the quick budget compares 2 plans twice each rather than none). The
    candidates are the best plans of up to ``at_most`` distinct first actions
    (``first_moves``); each is simulated (``simulate(plan, rnd)``) on the same determinisations,
    common random numbers, so plans are compared on the same hidden cards and the same draws.
    The first of equal means wins: the beam's order.

    Without ``chance`` every simulation of a plan plays the same game, so each candidate is
    simulated once. With a ``cost`` (what one such simulation costs, in simulations), the
    budget the candidates leave goes to the next best plans that begin with the same first
    actions (``alternatives``): ``sims // (cost * candidates)`` plans a first action, each
    simulated once, and a first action is worth the best of its plans.
    """
    each = min(at_least, max(2, sims // 2))
    k = min(at_most, sims // each)
    candidates = first_moves(plans, k) if k >= 2 else []
    if len(candidates) < 2:
        return None
    if not chance:
        per_first = max(1, sims // (cost * len(candidates))) if cost else 1
        return _best_of_alternatives(plans, candidates, per_first, simulate, rnd.getrandbits(64))
    per = sims // len(candidates)
    draws = [rnd.getrandbits(64) for _ in range(per)]
    means = {c: sum(simulate(c, random.Random(draw)) for draw in draws) / per for c in candidates}
    best = max(candidates, key=means.__getitem__)
    return best, means[best], per * len(candidates)


def alternatives(
    plans: list[tuple[float, Plan[A]]], candidates: list[Plan[A]], each: int
) -> list[Plan[A]]:
    """For each candidate (``first_moves``), in their order, the best ``each`` plans that begin
    with its first action (the candidate first), from plans ``(value, actions)`` best first."""
    by_first: dict[A | None, list[Plan[A]]] = {}
    for _value, acts in plans:
        same = by_first.setdefault(acts[0] if acts else None, [])
        if len(same) < each:
            same.append(acts)
    return [acts for c in candidates for acts in by_first[c[0] if c else None]]


def _best_of_alternatives(
    plans: list[tuple[float, Plan[A]]],
    candidates: list[Plan[A]],
    each: int,
    simulate: Callable[[Plan[A], random.Random], float],
    draw: int,
) -> tuple[Plan[A], float, int]:
    """``best_by_simulation`` without chance: the best ``each`` plans of each candidate's first
    action (``alternatives``) simulated once, on one draw; the first of equal values wins."""
    tried = alternatives(plans, candidates, each)
    values = [simulate(acts, random.Random(draw)) for acts in tried]
    best = max(range(len(tried)), key=values.__getitem__)
    return tried[best], values[best], len(tried)


# -- the decision ---------------------------------------------------------------------------


def decide(pos: Position[A], budget_s: float, rnd: random.Random) -> tuple[Action, Text]:
    """The play-phase decision of the seat to act (see the module docstring) and the sentence
    (translatable) saying what the search expects."""
    s = pos.SEARCH
    seat = pos.to_act()
    view = pos.seen_by(seat, rnd)
    plans = root_plans(view, seat, budget_s)
    chosen = best_by_simulation(
        plans,
        round(budget_s * s.simulations_per_second),
        s.simulations_per_candidate,
        s.max_candidates,
        lambda plan, draw: simulate(pos, seat, plan, draw),
        rnd,
        chance=pos.has_chance(),
        cost=s.no_chance_simulation_cost,
    )
    if chosen is not None:
        best, mean, used = chosen
        action = pos.action(best[0] if best else view.end_action())
        return action, simulated_reason(str(action), used, _expected(pos, seat, mean))
    value, acts = plans[0]
    if not acts:
        end = pos.action(view.end_action())
        why = _(
            "{action}: nothing beats ending the turn, expected margin {margin} points",
            action=str(end),
            margin=Number(_expected(pos, seat, value), signed=True),
        )
        return end, why
    action = pos.action(acts[0])
    return action, planned_reason(str(action), len(plans), _expected(pos, seat, value))


def _expected(pos: Position[A], seat: int, value: float) -> float:
    """The final margin a reason line states for the evaluation's margin ``value``."""
    return expected_margin(value, pos.config, pos.round, seat)


def planned_reason(action: str, count: int, margin: float) -> Text:
    """The reason line of a decision that plays the beam's best plan of ``count`` plans, with
    the ``expected_margin`` it stands for."""
    return _(
        "{action}: best of {count} turn plans, expected margin {margin} points",
        action=action,
        count=Number(count, 0),
        margin=Number(margin, signed=True),
    )


def simulated_reason(action: str, used: int, margin: float) -> Text:
    """The reason line of a decision taken by ``best_by_simulation``, with the
    ``expected_margin`` of the best plan's mean."""
    return _n(
        "{action}: best of {count} simulation, expected margin {margin} points",
        "{action}: best of {count} simulations, expected margin {margin} points",
        used,
        action=action,
        count=Number(used, 0),
        margin=Number(margin, signed=True),
    )
