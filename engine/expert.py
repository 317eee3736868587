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
   linearly with the rounds left. The weights are fitted on self-play games by
   ``bench/expert_train.py`` and ship as ``engine/expert_weights.json``. A position is worth its
   predicted margin over the best opponent.

Determinism: the work done is counted in simulations, ``SIMULATIONS_PER_SECOND * budget_s``,
and every random draw comes from ``seed``, so a seed and a budget always give the same action.

Base games run on ``engine.fast``; expansion games use the facade (slower, so fewer simulations
for the same budget) with the same evaluation and the expansion's score parts.
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources

from .actions import Action
from .config import CYNTHIA
from .fast import ACTIONS, CODES, END_CODE, FastGame, bitlist
from .geometry import RING_MASK
from .pieces import LIGHT_CAP, PILES
from .state import GameState

#: Simulations per second of budget (calibrated on the bench machine for base 2-seat games).
SIMULATIONS_PER_SECOND = 100
#: Rounds simulated after the current one.
HORIZON = 1
#: Turns still needed before a piece of each size can be collected (grow steps, then collect).
TURNS_TO_TOKEN = (4, 3, 2, 1)

FEATURES = (
    "future_tokens",
    "spare_light",
    "light",
    "income",
    "pieces_waiting",
    "bias",
)
N_FEATURES = len(FEATURES)
#: Light still to spend on a piece of each size before it is a token (grows, then collect).
HUMAN_COST = (10, 9, 7, 4)
#: What buying a missing piece of each size costs, about (the middle of its column's prices).
BUY_ESTIMATE = (1.5, 2.5, 3.5, 4.5)
#: Shape parameters of ``future_tokens``, fitted with the weights: a token due in ``t`` turns
#: counts ``discount ** t``; each soil's pile goes to the seats in turn, ``share`` collects of the
#: others for each of ours per seat; ``buy`` scales the purchase estimates; ``income`` the light
#: the board's income will bring over the rounds left (the board grows, or gets shaded).
DEFAULT_PARAMS = {"discount": 0.93, "share": 1.0, "buy": 1.0, "income": 1.0}
_PILES = ((),) + tuple(PILES[k] for k in (1, 2, 3, 4))


_override: dict[str, list[float]] = {}


@cache
def _shipped_weights() -> dict:
    text = resources.files("engine").joinpath("expert_weights.json").read_text()
    data = json.loads(text)
    out = {kind: [float(x) for x in data[kind]] for kind in ("human", "cynthia")}
    out["params"] = {**DEFAULT_PARAMS, **data.get("params", {})}
    return out


def weights() -> dict:
    """The fitted weights by seat kind: ``2 * N_FEATURES`` numbers (constant, then x phase),
    and ``params`` (see ``DEFAULT_PARAMS``)."""
    return _override or _shipped_weights()


def use_weights(w: dict | None) -> None:
    """Play with other weights (the training script's candidates); None: the shipped ones."""
    _override.clear()
    if w:
        _override.update({"params": DEFAULT_PARAMS, **w})


# -- features -------------------------------------------------------------------------------


def token_at(taken, leaves: int, offset: int) -> int:
    """The token a collect on ``leaves`` soil would get after ``offset`` more collects there
    (falling to poorer piles when a pile runs out); 0 when none is left."""
    for k in range(leaves, 0, -1):
        left = len(_PILES[k]) - taken[k]
        if offset < left:
            return _PILES[k][taken[k] + offset]
        offset -= max(0, left)
    return 0


def seat_features(
    masks,
    seat: int,
    light: int,
    avail,
    rounds_left: int,
    taken,
    n_seats: int,
    incomes: tuple[int, int],
    grow_costs: tuple[int, ...] | None,
    params: dict[str, float],
) -> list[float]:
    """One seat's features (``FEATURES``).

    ``future_tokens``: the tokens its pieces can still become before the end, larger pieces
    first (then richer soil), while the light it has and will collect (``incomes``: all the
    rounds left, the next round) pays for the grows, the purchases and the collects; each
    discounted by the turns it needs, and each soil's pile shared with the other seats.
    ``spare_light``: the light left over after those plans. ``grow_costs`` is None for a human
    seat (grow into size t costs t, pieces are bought), or Cynthia's costs per target size (her
    pieces are all available).
    """
    b = 4 * seat
    discount, buy = params["discount"], params["buy"]
    offset_step = max(1.0, params["share"] * (n_seats - 1) + 1)
    # Light beyond the cap at the next photosynthesis is lost: hoarding is not saving.
    budget = light + params["income"] * incomes[0] - max(0, light + incomes[1] - LIGHT_CAP)
    spare = list(avail)
    used = [0, 0, 0, 0, 0]
    future = 0.0
    waiting = 0
    for size in (3, 2, 1, 0):
        turns = 4 - size
        m = masks[b + size]
        if not m:
            continue
        if turns > rounds_left:
            waiting += m.bit_count()
            continue
        if grow_costs is None:
            base_cost = HUMAN_COST[size]
        else:
            base_cost = sum(grow_costs[t] for t in range(size + 1, 4)) + 4
        factor = discount**turns
        for leaves in (4, 3, 2, 1):
            for _ in bitlist(m & RING_MASK[leaves]):
                cost = base_cost
                if grow_costs is None:
                    for t in range(size + 1, 4):
                        if spare[t] > 0:
                            spare[t] -= 1
                        else:
                            cost += buy * BUY_ESTIMATE[t]
                if cost > budget:
                    waiting += 1
                    continue
                value = token_at(taken, leaves, int(used[leaves] * offset_step))
                used[leaves] += 1
                budget -= cost
                future += value * factor
    return [future, budget, float(light), float(incomes[1]), float(waiting), 1.0]


def predict(w: list[float], f: list[float], phase: float) -> float:
    """Predicted points still to come (beyond the tokens held) for a feature vector."""
    total = 0.0
    for j in range(N_FEATURES):
        total += f[j] * (w[j] + w[N_FEATURES + j] * phase)
    return total


def _incomes(g: FastGame, rounds_left: int) -> list[tuple[int, int]]:
    """Per seat: the light it collects on this board over the rounds left (the next three suns
    exactly, then repeated), and in the next round."""
    if rounds_left <= 0:
        return [(0, 0)] * g.n
    k = min(3, rounds_left)
    exact = g.light_for_suns([(g.sun + j) % 6 for j in range(1, k + 1)])
    cycles, rest = divmod(rounds_left, k)
    return [
        (cycles * sum(e[s] for e in exact) + sum(e[s] for e in exact[:rest]), exact[0][s])
        for s in range(g.n)
    ]


def fast_features(g: FastGame) -> list[list[float]]:
    """Every seat's features on a fast position."""
    rounds_left = g.config.last_round - g.round
    incomes = _incomes(g, rounds_left)
    cfg = g.config
    params = weights()["params"]
    cyn_costs = tuple(
        0 if t == 0 else 2 * t + cfg.easier_grow_plus_one - cfg.harder_grow_minus_one
        for t in range(4)
    )
    return [
        seat_features(
            g.masks,
            s,
            g.light[s],
            g.avail[4 * s : 4 * s + 4],
            rounds_left,
            g.taken,
            g.n,
            incomes[s],
            cyn_costs if g.cyn[s] else None,
            params,
        )
        for s in range(g.n)
    ]


def fast_values(g: FastGame) -> list[float]:
    """Each seat's predicted final score (exact scores once the game is over)."""
    if g.phase == 2:
        return [float(x) for x in g.scores()]
    w = weights()
    phase = (g.config.last_round - g.round) / g.config.last_round
    out = []
    for s, f in enumerate(fast_features(g)):
        kind = "cynthia" if g.cyn[s] else "human"
        value = g.token_points(s) + predict(w[kind], f, phase)
        if g.cyn[s] and g.config.harder_score_trees:
            m = g.masks
            value += sum(size * m[4 * s + size].bit_count() for size in (1, 2, 3))
        out.append(value)
    return out


def margin(values: list[float], seat: int) -> float:
    """A seat's value over the best of the others."""
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


def fast_eval(g: FastGame, seat: int) -> float:
    return margin(fast_values(g), seat)


# -- turn plans -----------------------------------------------------------------------------


def plan_turn(g: FastGame, seat: int, width: int, depth: int = 8) -> list[tuple[float, tuple]]:
    """Whole-turn plans for the seat to act, best first: ``(value, codes without end)``.

    A beam search: each step extends every kept plan by every legal action but ``end``, values
    the positions by ``fast_eval`` and keeps the ``width`` best distinct positions. Every plan
    met (the empty one included) is a candidate to stop at.
    """
    start = (fast_eval(g, seat), (), g)
    found = {(): start[0]}
    beam = [start]
    for _ in range(depth):
        children = []
        seen = set()
        for _, codes, pos in beam:
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
                children.append((fast_eval(child, seat), (*codes, code), child))
        if not children:
            break
        children.sort(key=lambda c: -c[0])
        beam = children[:width]
        for value, codes, _ in beam:
            found[codes] = value
    plans = sorted(found.items(), key=lambda kv: -kv[1])
    return [(value, codes) for codes, value in plans]


def greedy_turn(g: FastGame) -> None:
    """Play the current human seat's whole turn greedily (the playout policy)."""
    seat = g.cur
    plans = plan_turn(g, seat, width=1, depth=4)
    for code in plans[0][1]:
        g.make(code)
    g.make(END_CODE)


# -- hidden information ---------------------------------------------------------------------


def fresh_decks(decks: tuple, rnd: random.Random) -> tuple:
    """Cynthia's decks as a seat sees them (``engine.observation``): how many cards are left and
    the half in use. Which cards, and their order, are drawn afresh."""
    from .cynthia import cards  # noqa: PLC0415

    ids = sorted(cards())
    return tuple(
        None if deck is None else type(deck)(tuple(rnd.sample(ids, len(deck.cards))), deck.half)
        for deck in decks
    )


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
    stop = d.round + HORIZON
    while d.phase == 1 and d.round <= stop:
        if d.cyn[d.cur]:
            d.make(d.legal()[0])
        else:
            greedy_turn(d)
    return fast_eval(d, seat)


def search_fast(g: FastGame, budget_s: float, rnd: random.Random) -> tuple[int, str]:
    """The action to play and a sentence saying what the search expects."""
    seat = g.cur
    sims = max(1, round(budget_s * SIMULATIONS_PER_SECOND))
    width = min(8, 2 + sims // 10)  # more budget: a wider beam and more plans simulated
    plans = plan_turn(g, seat, width=width)
    k = min(len(plans), 2 + sims // 20, 8)
    candidates = [codes for _, codes in plans[:k]]
    if len(candidates) == 1 or sims < 2:
        best = candidates[0]
        return (best[0] if best else END_CODE), f"planned turn valued {plans[0][0]:+.1f}"
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
    return code, f"best of {used} simulations, expected margin {mean:+.1f} points"


def expert_action(state: GameState, *, budget_s: float = 1.0, seed: int | None = None) -> Action:
    """The Expert's decision for the current seat (a human seat of a running game).

    ``explanation`` says what it expects. The same state, seed and budget give the same action.
    """
    from . import legal_actions  # noqa: PLC0415 (the facade imports this module)

    legal = legal_actions(state)
    if not legal:
        raise ValueError("The game is over: there is no decision to make.")
    if len(legal) == 1:
        return legal[0]
    rnd = random.Random(f"{seed or 0}:{state.round}:{state.current_seat}:{state.setup_step}")
    if state.ext is not None:
        from .expert_moonlight import search_facade  # noqa: PLC0415

        action, why = search_facade(state, budget_s, rnd)
    elif state.phase == "setup":
        action, why = _setup_choice(state), "the starting space worth most"
    else:
        code, why = search_fast(FastGame.from_state(state), budget_s, rnd)
        action = ACTIONS[code]
    out = Action(action.verb, action.args, f"{action}: {why}")
    return out


def _setup_choice(state: GameState) -> Action:
    """A starting tree: the border space whose position is worth most after the placement."""
    g = FastGame.from_state(state)
    seat = g.cur
    best, best_value = None, float("-inf")
    for code in g.legal():
        child = g.copy()
        child.make(code)
        feats = fast_features(child)[seat]
        # Sunlight over the first suns, and room: the income of the first two rounds.
        value = sum(child.light_for_sun(s)[seat] for s in range(3)) + 0.01 * feats[0]
        if value > best_value:
            best, best_value = code, value
    return ACTIONS[best]


class Expert:
    """The Expert as a player: ``step(state) -> Action`` (see ``engine.players``)."""

    def __init__(self, budget_s: float = 0.25, seed: int | None = None) -> None:
        self.budget_s = budget_s
        self.seed = seed

    def step(self, state: GameState) -> Action:
        return expert_action(state, budget_s=self.budget_s, seed=self.seed)


__all__ = ["CODES", "CYNTHIA", "Expert", "expert_action"]
