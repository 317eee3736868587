"""The Expert: a searching player for a human seat (issue 18).

How it decides, for the seat to act:

1. **Turn plans.** A beam search over the seat's own actions lists whole-turn plans (buy, then
   grow into it, plant, collect ...), each valued by the evaluation of the position it reaches.
2. **Simulations.** The best few plans are played out: the plan, then the rest of the round and
   ``HORIZON`` more rounds by every seat, on a *determinisation* of what the seat cannot see
   (Cynthia's card order and the game's RNG are drawn afresh; in expansion games the face-down
   Baby Turtle tokens and the animals dealt to others too). Human seats play greedy whole turns
   with the evaluation; Cynthias follow their cards through the facade. The leaf is valued by
   the evaluation (exact scores at the end of the game). Simulations go to the plans by
   successive halving, and the plan with the best mean is played.
3. **Evaluation.** A seat's final score is predicted by a small linear model on position
   features (tokens, light, pieces on the board by size and by the token their soil still
   offers, light income for the next two suns, pieces available), with weights that change
   linearly with the rounds left. The weights are tuned on greedy games against the Cynthias
   by ``bench/expert_train.py`` and ship as ``engine/expert_weights.json``. A position is worth
   its predicted margin over the best opponent.
4. **Opening.** The starting trees go where the first revolution's light and the richer soil
   within a medium tree's reach are worth most (``expert_moonlight.opening_value``).

Determinism: the work done is counted in simulations, ``SIMULATIONS_PER_SECOND * budget_s``,
and every random draw comes from ``seed``, so a seed and a budget always give the same action.

Base games run on ``engine.fast``; expansion games use the facade (slower, so fewer simulations
for the same budget) with the same evaluation and the expansion's score parts.
"""

from __future__ import annotations

import random

from translation import _, _n

from .actions import Action
from .expert_eval import (
    DEFAULT_PARAMS,
    FEATURES,
    N_FEATURES,
    fast_eval,
    fast_features,
    fast_own_value,
    fast_values,
    fresh_decks,
    seat_features,
    token_at,
    use_weights,
    weights,
)
from .expert_moonlight import opening_value, search_facade
from .fast import ACTIONS, END_CODE, PLACE_CODE, FastGame
from .game import legal_actions
from .state import GameState

#: Playout turns of a human seat per second of budget, calibrated on the bench machine: about
#: 0.2 s of CPU for a 0.25 s decision (``bench/expert_bench.py`` prints the CPU time per
#: decision). The budget is counted in this work, not in time, so that a seed and a budget give
#: the same decision on any machine; a playout costs the turns it will play (an early playout
#: to the end of the game costs more than a late one).
TURNS_PER_SECOND = 2000
#: A Cynthia's playout turn, in human turns (her cards through the facade are cheaper than a
#: greedy turn's search).
CYNTHIA_TURN = 0.35
#: Rounds simulated after the current one (None: to the end of the game, whose leaf is the
#: exact final margin).
HORIZON: int | None = None


def playout_cost(g: FastGame) -> float:
    """The work of one playout from ``g``, in human playout turns."""
    rounds = g.config.last_round - g.round + 1
    if HORIZON is not None:
        rounds = min(rounds, HORIZON + 1)
    return rounds * sum(CYNTHIA_TURN if c else 1.0 for c in g.cyn)


# -- turn plans -----------------------------------------------------------------------------


def plan_turn(
    g: FastGame, seat: int, width: int, depth: int = 8, measure=fast_eval
) -> list[tuple[float, tuple]]:
    """Whole-turn plans for the seat to act, best first: ``(value, codes without end)``.

    A beam search: each step extends every kept plan by every legal action but ``end``, values
    the positions by ``measure`` (the margin, ``fast_eval``, unless told) and keeps the ``width``
    best distinct positions. Every plan met (the empty one included) is a candidate to stop at.
    """
    start = (measure(g, seat), (), g)
    found = {(): start[0]}
    beam = [start]
    for _step in range(depth):
        children = []
        seen = set()
        for _value, codes, pos in beam:
            for code in pos.legal():
                if code == END_CODE:
                    continue
                child = pos.copy()
                child.make(code)
                key = (
                    tuple(child.masks),
                    tuple(child.light),
                    tuple(child.avail),
                    tuple(child.taken),
                )
                if key in seen:
                    continue
                seen.add(key)
                children.append((measure(child, seat), (*codes, code), child))
        if not children:
            break
        children.sort(key=lambda c: -c[0])
        beam = children[:width]
        for value, codes, _pos in beam:
            found[codes] = value
    plans = sorted(found.items(), key=lambda kv: -kv[1])
    return [(value, codes) for codes, value in plans]


def first_moves(plans: list[tuple[float, tuple]], k: int) -> list[tuple]:
    """The best plan for each of the ``k`` best distinct first actions (the decision is the
    first action: two plans that begin alike compete for nothing)."""
    out, seen = [], set()
    for _value, codes in plans:
        first = codes[0] if codes else END_CODE
        if first not in seen:
            seen.add(first)
            out.append(codes)
            if len(out) == k:
                break
    return out


DISTINCT = True


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


def determinise_fast(g: FastGame, rnd: random.Random) -> FastGame:
    """A copy where what no seat sees is drawn afresh: Cynthia's cards and the RNG."""
    d = g.copy()
    if any(deck is not None for deck in g.decks):
        d.decks = fresh_decks(g.decks, rnd)
    d.rng = rnd.getrandbits(64)
    return d


# -- the search -----------------------------------------------------------------------------


def _simulate(g: FastGame, seat: int, plan: tuple, rnd: random.Random) -> float:
    """One playout of ``plan`` on a determinisation; the leaf's margin for ``seat``."""
    d = determinise_fast(g, rnd)
    for code in plan:
        d.make(code)
    d.make(END_CODE)
    stop = d.config.last_round if HORIZON is None else d.round + HORIZON
    while d.phase == 1 and d.round <= stop:
        if d.cyn[d.cur]:
            d.make(d.legal()[0])
        else:
            greedy_turn(d)
    return fast_eval(d, seat)


def search_fast(g: FastGame, budget_s: float, rnd: random.Random) -> tuple[int, str]:
    """The action to play and a sentence (translatable) saying what the search expects."""
    seat = g.cur
    sims = max(1, round(budget_s * TURNS_PER_SECOND / playout_cost(g)))
    width = min(8, 2 + sims // 10)  # more budget: a wider beam and more plans simulated
    plans = plan_turn(g, seat, width=width)
    k = min(len(plans), 2 + sims // 20, 8)
    candidates = first_moves(plans, k) if DISTINCT else [codes for _, codes in plans[:k]]
    if len(candidates) == 1 or sims < 2:
        best = candidates[0]
        code = best[0] if best else END_CODE
        why = _(
            "{action}: the planned turn, expected margin {margin} points",
            action=str(ACTIONS[code]),
            margin=f"{plans[0][0]:+.1f}",
        )
        return code, why
    # Common random numbers: every plan's j-th playout uses the j-th determinisation, so plans
    # are compared on the same hidden cards and the same draws.
    draws = [rnd.getrandbits(64) for _ in range(sims)]
    totals = {c: 0.0 for c in candidates}
    counts = {c: 0 for c in candidates}
    alive = list(candidates)
    rounds = max(1, (len(alive) - 1).bit_length())
    used = 0
    for r in range(rounds):
        per = max(1, (sims - used) // (len(alive) * (rounds - r)))
        for c in alive:
            start = counts[c]
            for j in range(start, start + per):
                totals[c] += _simulate(g, seat, c, random.Random(draws[j % sims]))
                counts[c] += 1
                used += 1
        alive.sort(key=lambda c: -totals[c] / counts[c])
        if r < rounds - 1:
            alive = alive[: max(1, (len(alive) + 1) // 2)]
    best = alive[0]
    mean = totals[best] / counts[best]
    code = best[0] if best else END_CODE
    why = _n(
        "{action}: best of {count} simulation, expected margin {margin} points",
        "{action}: best of {count} simulations, expected margin {margin} points",
        used,
        action=str(ACTIONS[code]),
        count=f"{used:,}",
        margin=f"{mean:+.1f}",
    )
    return code, why


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

    Its budget counts playouts (``SIMULATIONS_PER_SECOND`` a second), so the same ``seed`` and
    budget give the same decisions on any machine."""

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
