"""The Expert: a searching player for a human seat (issue 18).

How it decides, for the seat to act:

1. **Turn plans.** A beam search over the seat's own actions (``PLAN_WIDTH`` wide) lists
   whole-turn plans (buy, then grow into it, plant, collect ...), each valued by the
   evaluation of the position it reaches. A wide beam matters: in 40 games against Cynthia the
   best plan of a 2-wide beam won 9, of an 8-wide one 25, of a 25-wide one 29.
2. **Lookahead.** The best plans for the best few distinct first actions are each simulated on
   the same *determinisations* of what the seat cannot see (Cynthia's card order and the
   game's RNG drawn afresh): the plan, the other seats' turns until the seat's next turn
   (Cynthias follow their cards, humans play greedy whole turns), then the seat's own next
   turns (``LOOKAHEAD_TURNS``), each planned by a narrower beam. The positions the first and
   the last of them reach are valued by the evaluation, half each (``FIRST_TURN_SHARE``; exact
   scores if the game ends first), and the plan with the best mean is played. This sees what
   a turn sets up for the next ones (light for the coming suns, a piece bought to be grown, a
   tree grown to be collected) and what the other seats do in between. Between people, where
   nothing is drawn, each plan is simulated once with the others' turns greedy and once with
   them planned like the seat's own, and is worth the worse; the budget left simulates the
   next best plans of the same first actions.
3. **Evaluation.** A seat's final score is predicted by a small linear model on position
   features (tokens, light, pieces on the board by size and by the token their soil still
   offers, light income for the next suns, pieces available), with weights that change
   linearly with the rounds left. The weights are tuned on greedy games against the Cynthias
   by ``bench/expert_train.py`` and ship as ``data/expert_weights.json``. A position is worth
   its predicted margin over the best opponent.
4. **Opening.** The starting trees go where the first revolution's light and the richer soil
   within a medium tree's reach are worth most (``expert_moonlight.opening_value``).

Determinism: the work done is counted in simulations, ``SIMULATIONS_PER_SECOND * budget_s``,
and in the positions a turn plan may value (``PLAN_POSITIONS_PER_SECOND * budget_s`` for the
seat's own turn, ``NEXT_TURN_POSITIONS`` for each turn inside a simulation: a turn with many
actions is planned narrower, so a decision stays within its budget), and every random draw
comes from ``seed``, so a seed and a budget always give the same action.

Base games run on ``engine.fast``; expansion games are searched through the facade
(``engine.expert_moonlight``) with the same evaluation and the expansion's score parts.
"""

from __future__ import annotations

import random

from translation import _

from .actions import Action
from .expert_eval import (
    DEFAULT_PARAMS,
    FEATURES,
    N_FEATURES,
    beam_plans,
    best_by_simulation,
    expected_margin,
    fast_eval,
    fast_features,
    fast_own_value,
    fast_values,
    fresh_decks,
    planned_reason,
    seat_features,
    simulated_reason,
    token_at,
    use_weights,
    weights,
)
from .expert_moonlight import opening_value, search_facade
from .fast import ACTIONS, END_CODE, PLACE_CODE, FastGame
from .game import legal_actions
from .state import GameState

#: Lookahead simulations per second of budget, calibrated on the bench machine: about 0.2 s of
#: CPU for a 0.25 s decision (``bench/expert_bench.py`` prints the CPU time per decision). The
#: budget is counted in this work, not in time, so that a seed and a budget give the same
#: decision on any machine.
SIMULATIONS_PER_SECOND = 70
#: The beam's width for the seat's own turn plans: wide enough to find the evaluation's best
#: plan (a width of 400 finds the same plans as 100 in 80 games), narrower at small budgets.
PLAN_WIDTH = 100
#: The beam's width for the seat's next turn inside a simulation.
NEXT_TURN_WIDTH = 8
#: The positions a simulation's turn plan may value (``plan_turn``'s ``max_positions``). Mid-game
#: turns with many actions made a third of the quick decisions take over 0.25 s (at most
#: 0.58 s); with these limits 1 of 250 did (0.27 s), and the play was as strong (see
#: docs/expert.md).
NEXT_TURN_POSITIONS = 150
#: The positions the seat's own turn plans may value, per second of budget.
PLAN_POSITIONS_PER_SECOND = 8_000
#: The seat's own turns after the plan that a simulation plays, each planned by that beam (the
#: first and the last are valued, see ``FIRST_TURN_SHARE``). Over 80 games each, 2 turns
#: against 1: 65 won against 68 of Cynthia's, 52 against 47.5 of the quarter budget's, at twice
#: the CPU.
LOOKAHEAD_TURNS = 2
#: A simulation's value: this share of the margin after the seat's first planned turn, the
#: rest after its last. Where a turn stops moves the evaluation (pieces bought and not yet
#: grown, a collect just made), so two horizons rank plans better than one: over 80 games
#: each, the last turn alone won 63 against Cynthia (+11.2 points a game) and 46 against the
#: quarter budget; half of each, 72 (+16.5) and 49 (other shares tried: git log docs/expert.md).
FIRST_TURN_SHARE = 0.5
#: Candidates simulated: at most this many distinct first actions, and at least this many
#: simulations each.
MAX_CANDIDATES = 6
SIMULATIONS_PER_CANDIDATE = 4
#: In a game without chance a simulation plays two lookaheads (``_simulate``: the other people
#: greedy, and by ``beam_turn``), so it counts for two of the budget's simulations; what the
#: candidates leave goes to their first actions' next best plans
#: (``expert_eval.best_by_simulation``).
NO_CHANCE_SIMULATION_COST = 2


# -- turn plans -----------------------------------------------------------------------------


def plan_turn(
    g: FastGame,
    seat: int,
    width: int,
    depth: int = 8,
    measure=fast_eval,
    max_positions: int | None = None,
) -> list[tuple[float, tuple]]:
    """Whole-turn plans for the seat to act, best first: ``(value, codes without end)``, by
    ``expert_eval.beam_plans`` over the fast path's actions, each position valued by ``measure``
    (the margin, ``fast_eval``, unless told) and named by its pieces, light, store and tokens
    taken."""

    def steps(pos: FastGame):
        for code in pos.legal():
            if code == END_CODE:
                continue
            child = pos.copy()
            child.make(code)
            key = (tuple(child.masks), tuple(child.light), tuple(child.avail), tuple(child.taken))
            yield code, child, key

    return beam_plans(g, steps, lambda pos: measure(pos, seat), width, depth, max_positions)


def greedy_turn(g: FastGame) -> None:
    """Play the current human seat's whole turn greedily (the playout policy): one action at a
    time, each the best for the seat's own forecast (``fast_own_value``), stopping where that
    forecast is highest."""
    seat = g.cur
    plans = plan_turn(g, seat, width=1, depth=4, measure=fast_own_value)
    for code in plans[0][1]:
        g.make(code)
    g.make(END_CODE)


# -- hidden information ---------------------------------------------------------------------


def has_chance(g: FastGame) -> bool:
    """Whether the rest of a base game holds anything the seats cannot foresee: a Cynthia's
    cards (the RNG only shuffles them). Without it every simulation of a plan plays the same
    (``expert_moonlight.has_chance`` adds the face-down Baby Turtle tokens)."""
    return any(g.cyn)


def determinise_fast(g: FastGame, rnd: random.Random) -> FastGame:
    """A copy where what no seat sees is drawn afresh: Cynthia's cards and the RNG."""
    d = g.copy()
    if any(deck is not None for deck in g.decks):
        d.decks = fresh_decks(g.decks, rnd)
    d.rng = rnd.getrandbits(64)
    return d


# -- the search -----------------------------------------------------------------------------


def beam_turn(g: FastGame) -> None:
    """Play the current human seat's whole turn as a simulation plans the seat's own: the best
    plan of a ``NEXT_TURN_WIDTH`` beam on its margin (the other model of a person's turn, beside
    ``greedy_turn``)."""
    plans = plan_turn(g, g.cur, width=NEXT_TURN_WIDTH, max_positions=NEXT_TURN_POSITIONS)
    for code in plans[0][1]:
        g.make(code)
    g.make(END_CODE)


def _lookahead(g: FastGame, seat: int, plan: tuple, rnd: random.Random, other) -> float:
    """One lookahead of ``plan`` on a determinisation: the plan, the other seats' turns until the
    seat's next turn (Cynthias by their cards, humans by ``other``), then the seat's own next
    turn, planned by a narrow beam, and so on for ``LOOKAHEAD_TURNS`` turns of the seat. Its
    value blends the margins the evaluation gives the positions the first and the last of those
    turns reach (``FIRST_TURN_SHARE``; exact scores when the game ends first)."""
    d = determinise_fast(g, rnd)
    first = None
    for _turn in range(LOOKAHEAD_TURNS):
        for code in plan:
            d.make(code)
        d.make(END_CODE)
        while d.phase == 1 and d.cur != seat:
            if d.cyn[d.cur]:
                d.make(d.legal()[0])
            else:
                other(d)
        if d.phase != 1:
            return fast_eval(d, seat)
        plans = plan_turn(d, seat, width=NEXT_TURN_WIDTH, max_positions=NEXT_TURN_POSITIONS)
        value, plan = plans[0]
        if first is None:
            first = value
    return FIRST_TURN_SHARE * first + (1 - FIRST_TURN_SHARE) * value


def _simulate(g: FastGame, seat: int, plan: tuple, rnd: random.Random) -> float:
    """A simulation's value (``_lookahead``), the other people playing greedy turns. In a game
    without chance, where each plan is simulated once, the worse of that and the same lookahead
    with the other people playing ``beam_turn``: a plan is judged by the reply that hurts it
    more."""
    value = _lookahead(g, seat, plan, rnd, greedy_turn)
    if has_chance(g):
        return value
    return min(value, _lookahead(g, seat, plan, rnd, beam_turn))


def root_plans(g: FastGame, seat: int, budget_s: float) -> list[tuple[float, tuple]]:
    """The seat's own turn plans at a budget, best first (``plan_turn``): ``PLAN_WIDTH`` wide,
    narrower at a small budget (a quarter budget plans about a quarter as wide), and at most
    ``PLAN_POSITIONS_PER_SECOND * budget_s`` positions valued."""
    width = max(8, min(PLAN_WIDTH, round(budget_s * 4 * PLAN_WIDTH)))
    return plan_turn(
        g, seat, width=width, max_positions=round(budget_s * PLAN_POSITIONS_PER_SECOND)
    )


def search_fast(g: FastGame, budget_s: float, rnd: random.Random) -> tuple[int, str]:
    """The action to play and a sentence (translatable) saying what the search expects."""
    seat = g.cur
    sims = round(budget_s * SIMULATIONS_PER_SECOND)
    plans = root_plans(g, seat, budget_s)
    lookahead = best_by_simulation(
        plans,
        sims,
        SIMULATIONS_PER_CANDIDATE,
        MAX_CANDIDATES,
        lambda plan, draw: _simulate(g, seat, plan, draw),
        rnd,
        chance=has_chance(g),
        cost=NO_CHANCE_SIMULATION_COST,
    )
    if lookahead is None:
        value, best = plans[0]
        code = best[0] if best else END_CODE
        margin = expected_margin(value, g.config, g.round, seat)
        return code, planned_reason(str(ACTIONS[code]), len(plans), margin)
    best, mean, used = lookahead
    code = best[0] if best else END_CODE
    return code, simulated_reason(
        str(ACTIONS[code]), used, expected_margin(mean, g.config, g.round, seat)
    )


def expert_action(state: GameState, *, budget_s: float = 1.0, seed: int | None = None) -> Action:
    """The Expert's decision for the current seat (a human seat of a running game).

    ``explanation`` says what it expects. The same state, seed and budget give the same action.
    """
    legal = legal_actions(state)
    if not legal:
        raise ValueError("The game is over: there is no decision to make.")
    if len(legal) == 1:
        why = _("{action}: the only legal action", action=str(legal[0]))
        return Action(legal[0].verb, legal[0].args, why)
    rnd = random.Random(f"{seed or 0}:{state.round}:{state.current_seat}:{state.setup_step}")
    if state.ext is not None:
        action, why = search_facade(state, budget_s, rnd)
    elif state.phase == "setup":
        action = _setup_choice(state)
        why = _("{action}: the starting space worth most", action=str(action))
    else:
        code, why = search_fast(FastGame.from_state(state), budget_s, rnd)
        action = ACTIONS[code]
    return Action(action.verb, action.args, why)


def _setup_choice(state: GameState) -> Action:
    """A starting tree: the border space worth most for the first revolution
    (``engine.expert_moonlight.opening_value``)."""
    g = FastGame.from_state(state)
    seat = g.cur
    best, best_value = None, float("-inf")
    for code in g.legal():
        child = g.copy()
        child.make(code)
        light = sum(light[seat] for light in child.light_for_suns(list(range(6))))
        value = opening_value(light, code - PLACE_CODE, child.occupied())
        if value > best_value:
            best, best_value = code, value
    return ACTIONS[best]


class Expert:
    """The Expert as a player: ``step(state) -> Action`` (``engine.players.ExpertPlayer``).

    Its budget counts simulations (``SIMULATIONS_PER_SECOND`` a second), so the same ``seed``
    and budget give the same decisions on any machine."""

    #: The two strengths a seat may have: quick and strong.
    QUICK_S = 0.25
    STRONG_S = 2.0

    def __init__(self, budget_s: float = QUICK_S, seed: int | None = None) -> None:
        self.budget_s = budget_s
        self.seed = seed

    def step(self, state: GameState) -> Action:
        return expert_action(state, budget_s=self.budget_s, seed=self.seed)


__all__ = [
    "DEFAULT_PARAMS",
    "FEATURES",
    "N_FEATURES",
    "Expert",
    "expert_action",
    "fast_features",
    "fast_values",
    "seat_features",
    "token_at",
    "use_weights",
    "weights",
]
