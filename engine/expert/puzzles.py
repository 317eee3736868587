"""Puzzles: positions where one whole turn is clearly best, and how an answer is judged (issue 58).

A *turn* is a whole turn of the seat to act: its actions until it ends. Two turns that reach the
same position are one turn (``turn_key``). The Expert analyses a position (``analyse``): the
beam's plans of its own turn (``search.root_plans`` at the budget), deduplicated by the position
they reach, the best ``CANDIDATES`` of them (with the best plan of each of the best distinct first
actions among them), each simulated on the same determinisations (common random numbers, as
``search.best_by_simulation`` and ``review.compare_turns`` do). A position is a puzzle when the
best turn's mean margin beats the second best's by at least ``MIN_GAP`` points at
``PUZZLE_BUDGET_S`` (four times the quick seat's budget), on two analyses with different seeds
that agree on the best turn (``puzzle_check``).

A solver's answer is right when the Expert scores it within ``RIGHT_WITHIN`` points of its best
(``judge``): a turn the analysis simulated is judged by its stored loss, any other by
simulating it beside the best turn on the same determinisations at the quick budget.

``position_key`` names a position by what the seat to act may see (``engine.observation``), so
two puzzles never show the same position.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..game import apply, legal_actions, turn_id
from ..observe import observation
from ..state import GameState
from .facade import FacadePosition, determinise
from .fast import FastGame, code_of
from .search import first_moves, root_plans, simulate

#: The quick seat's budget, and a puzzle's: four times it.
QUICK_BUDGET_S = 0.25
PUZZLE_BUDGET_S = 1.0
#: The best turn beats the second best by at least this many points of expected final margin.
MIN_GAP = 2.0
#: An answer within this many points of the best turn is right.
RIGHT_WITHIN = 0.5
#: The distinct turns an analysis simulates.
CANDIDATES = 8
#: A quick analysis's gap below which a position is not checked fully: where to look
#: (``bench/make_puzzles.py``; in the sample every puzzle showed at least 2.05 there).
PREFILTER_GAP = 1.5
#: Longest turn (a guard: a turn has a handful of actions).
MAX_TURN_ACTIONS = 40


def position_key(state: GameState) -> str:
    """A position's canonical name: a hash of what the seat to act may see of it (the
    observation: no RNG, no deck order, no face-down token), without its ``events`` (what the
    last action set off: how the position was reached, not what it is)."""
    seen = observation(state, state.current_seat)
    seen.pop("events", None)
    text = json.dumps(seen, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def turn_key(state: GameState, turn: Sequence[str]) -> str:
    """The name of the position ``turn`` (notations, its ``end`` included or not) reaches from
    ``state`` before the turn ends: turns reaching the same position are one."""
    return position_key(turn_state(state, turn))


def turn_state(state: GameState, turn: Sequence[str]) -> GameState:
    """The position after ``turn``'s actions but its ``end`` (raises ``ValueError`` for an
    action that is not legal, or that does not belong to the turn)."""
    start = turn_id(state)
    for notation in turn:
        if notation == "end":
            break
        if turn_id(state) != start or state.is_over:
            raise ValueError(f"{notation}: the turn is over")
        if notation not in {str(a) for a in legal_actions(state)}:
            raise ValueError(f"{notation}: not a legal action here")
        state = apply(state, notation)
    return state


def _position(state: GameState) -> Any:
    """The search's position for ``state``: the fast path in base games, the facade else."""
    return FacadePosition(state) if state.ext is not None else FastGame.from_state(state)


def _plan(pos: Any, actions: Sequence[Action]) -> tuple[Any, ...]:
    if isinstance(pos, FastGame):
        return tuple(code_of(a) for a in actions)
    return tuple(actions)


def _actions(state: GameState, turn: Sequence[str]) -> list[Action]:
    out: list[Action] = []
    for notation in turn:
        if notation == "end":
            break
        action = next(a for a in legal_actions(state) if str(a) == notation)
        out.append(action)
        state = apply(state, action)
    return out


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of an analysis: its actions (notations, without the final ``end``), the name of
    the position it reaches (``turn_key``) and its mean margin over the simulations."""

    actions: tuple[str, ...]
    key: str
    mean: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """An analysis of a position (``analyse``): its turns, best first, and the simulations
    each got."""

    turns: tuple[Turn, ...]
    per: int

    @property
    def gap(self) -> float:
        """The best turn's lead over the second best (0 with fewer than two turns)."""
        if len(self.turns) < 2:
            return 0.0
        return self.turns[0].mean - self.turns[1].mean


def candidate_turns(
    state: GameState, budget_s: float, seed: int, k: int = CANDIDATES
) -> list[tuple[str, ...]]:
    """The turns an analysis simulates: the beam's plans at ``budget_s`` (on the seat's view),
    best first, one per position reached; the best plan of each of the best distinct first
    actions first, then the next best plans, ``k`` in all."""
    rnd = random.Random(f"puzzle-plans:{seed}")
    pos = _position(state)
    seat = pos.to_act()
    view = pos.seen_by(seat, rnd)
    plans = root_plans(view, seat, budget_s)
    ordered = first_moves(plans, pos.SEARCH.max_candidates) + [p for _v, p in plans]
    out: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for plan in ordered:
        turn = tuple(str(pos.action(step)) for step in plan)
        try:
            key = turn_key(state, turn)
        except ValueError:
            continue  # a plan made on a view where a hidden token differs
        if key in seen:
            continue
        seen.add(key)
        out.append(turn)
        if len(out) == k:
            break
    return out


def draws_for(state: GameState, n_turns: int, budget_s: float, seed: int) -> list[int]:
    """The determinisations ``n_turns`` turns from ``state`` are simulated on, as seeds:
    ``budget_s`` of the Expert's simulations shared by the turns (at least the calibration's
    minimum each; one where nothing is drawn, as ``search.simulate`` plays both replies)."""
    rnd = random.Random(f"puzzle:{seed}:{state.round}:{state.current_seat}")
    pos = _position(state)
    s = pos.SEARCH
    sims = round(budget_s * s.simulations_per_second)
    per = max(s.simulations_per_candidate, sims // n_turns) if pos.has_chance() else 1
    return [rnd.getrandbits(64) for _ in range(per)]


def turn_mean(state: GameState, turn: Sequence[str], draws: Sequence[int]) -> float:
    """A turn's mean margin from ``state`` over the determinisations ``draws``."""
    pos = _position(state)
    plan = _plan(pos, _actions(state, turn))
    seat = pos.to_act()
    return sum(simulate(pos, seat, plan, random.Random(d)) for d in draws) / len(draws)


def simulated_means(
    state: GameState, turns: Sequence[Sequence[str]], budget_s: float, seed: int
) -> tuple[list[float], int]:
    """Each turn's mean margin (from ``state``) over the same determinisations
    (``draws_for``), and how many each got."""
    draws = draws_for(state, len(turns), budget_s, seed)
    return [turn_mean(state, t, draws) for t in turns], len(draws)


def analyse(state: GameState, budget_s: float = PUZZLE_BUDGET_S, seed: int = 0) -> Analysis:
    """The position's candidate turns (``candidate_turns``) simulated (``simulated_means``),
    best first."""
    turns = candidate_turns(state, budget_s, seed)
    if not turns:
        return Analysis((), 0)
    means, per = simulated_means(state, turns, budget_s, seed)
    ranked = sorted(
        (Turn(t, turn_key(state, t), m) for t, m in zip(turns, means, strict=True)),
        key=lambda t: -t.mean,
    )
    return Analysis(tuple(ranked), per)


def is_puzzle_position(state: GameState) -> bool:
    """Whether a puzzle may start here: a person to act in the play phase with a choice."""
    seat = state.current_seat
    return (
        state.phase == "play"
        and seat is not None
        and state.seats[seat].kind == "human"
        and len(legal_actions(state)) > 1
    )


def puzzle_check(
    state: GameState, seeds: Sequence[int], budget_s: float = PUZZLE_BUDGET_S
) -> list[Analysis] | None:
    """The analyses of ``state`` with each of ``seeds`` if every one finds the same best turn
    at least ``MIN_GAP`` points ahead of the second best, else None (stops at the first that
    fails)."""
    out: list[Analysis] = []
    for seed in seeds:
        a = analyse(state, budget_s, seed)
        if a.gap < MIN_GAP or (out and a.turns[0].key != out[0].turns[0].key):
            return None
        out.append(a)
    return out


def stored_position(state: GameState, salt: str) -> GameState:
    """The position a puzzle keeps: what its seat cannot see (the RNG, Cynthia's deck order,
    face-down tokens, the animals in others' hands) drawn afresh from ``salt``, so that a
    puzzle taken from a game holds nothing of that game's hidden information."""
    seat = state.current_seat
    assert seat is not None
    return determinise(state, seat, random.Random(f"puzzle-store:{salt}"))


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judged answer: its ``loss`` against the best turn (points, never below 0) and whether
    it is right (within ``RIGHT_WITHIN``)."""

    loss: float

    @property
    def right(self) -> bool:
        return self.loss <= RIGHT_WITHIN


#: The seed of the judge's determinisations (``judge``): the same for every solver.
JUDGE_SEED = 0


def best_on_judge_draws(state: GameState, best: Sequence[str], budget_s: float) -> float:
    """The best turn's mean on the determinisations ``judge`` simulates an answer on."""
    return turn_mean(state, best, draws_for(state, 2, budget_s, JUDGE_SEED))


def judge(
    state: GameState,
    answer: Sequence[str],
    known: dict[str, float],
    best_mean: float,
    *,
    budget_s: float = QUICK_BUDGET_S,
) -> Verdict:
    """Judge ``answer`` (a whole turn from ``state``, notations): by ``known`` losses
    (position reached -> points behind the best) for the turns the analysis simulated, else by
    simulating it at ``budget_s`` on the determinisations the best turn's ``best_mean`` was
    taken on (``best_on_judge_draws``: the two share the budget, as two candidates do)."""
    key = turn_key(state, answer)
    if key in known:
        return Verdict(max(0.0, known[key]))
    mean = turn_mean(state, answer, draws_for(state, 2, budget_s, JUDGE_SEED))
    return Verdict(max(0.0, best_mean - mean))


# -- the puzzle record (docs/puzzles.md#the-format) -------------------------------------------

#: The format of a puzzle record.
FORMAT = 1
#: The shipped puzzles, in the data package.
SHIPPED_RESOURCE = "puzzles.json"
DATA = "photosynthesis_data"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A puzzle: the position (``GameState.to_dict``, hidden information drawn afresh:
    ``stored_position``) with the seat to act, its ``key`` (``position_key``), the ``rules``
    (``"base"`` or ``"moonlight"``), where it was taken (``source``), the best turn (notations)
    and the expected final margin it leads to (``margin``, the reason line's), its lead over the
    second best (``gap``, the smaller of the two checks'), the losses of every turn the checks
    simulated (position reached -> points behind the best, the best's 0) and the seeds of the
    two checks."""

    key: str
    rules: str
    source: str
    position: dict[str, Any]
    best: tuple[str, ...]
    margin: float
    gap: float
    losses: dict[str, float]
    seeds: tuple[int, ...]
    #: the best turn's mean on the judge's determinisations (``best_on_judge_draws``)
    best_quick: float

    @property
    def state(self) -> GameState:
        return GameState.from_dict(self.position)

    @property
    def seat(self) -> int:
        seat = self.position["current_seat"]
        assert isinstance(seat, int)
        return seat

    @property
    def round(self) -> int:
        return int(self.position["round"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "key": self.key,
            "rules": self.rules,
            "source": self.source,
            "position": self.position,
            "best": list(self.best),
            "margin": round(self.margin, 2),
            "gap": round(self.gap, 2),
            "losses": {k: round(v, 2) for k, v in sorted(self.losses.items())},
            "seeds": list(self.seeds),
            "best_quick": round(self.best_quick, 4),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Puzzle:
        if d.get("format") != FORMAT:
            raise ValueError(f"puzzle format {d.get('format')!r}, expected {FORMAT}")
        return cls(
            str(d["key"]),
            str(d["rules"]),
            str(d["source"]),
            dict(d["position"]),
            tuple(str(x) for x in d["best"]),
            float(d["margin"]),
            float(d["gap"]),
            {str(k): float(v) for k, v in d["losses"].items()},
            tuple(int(x) for x in d["seeds"]),
            float(d["best_quick"]),
        )

    def judge(self, answer: Sequence[str], *, budget_s: float = QUICK_BUDGET_S) -> Verdict:
        """``judge`` on this puzzle's position, known losses and best turn's mean."""
        return judge(self.state, answer, self.losses, self.best_quick, budget_s=budget_s)


def make_puzzle(state: GameState, source: str, seeds: Sequence[int]) -> Puzzle | None:
    """The puzzle ``state`` makes (``puzzle_check`` with ``seeds`` at ``PUZZLE_BUDGET_S``), or
    None. The losses of a turn both checks simulated are averaged."""
    from .eval import expected_margin

    if not is_puzzle_position(state):
        return None
    checks = puzzle_check(state, seeds)
    if checks is None:
        return None
    seat = state.current_seat
    assert seat is not None
    found: dict[str, list[float]] = {}
    for a in checks:
        top = a.turns[0].mean
        for t in a.turns:
            found.setdefault(t.key, []).append(top - t.mean)
    losses = {k: sum(v) / len(v) for k, v in found.items()}
    best = checks[0].turns[0]
    mean = sum(a.turns[0].mean for a in checks) / len(checks)
    stored = stored_position(state, position_key(state))
    return Puzzle(
        key=position_key(state),
        rules="base" if state.ext is None else "moonlight",
        source=source,
        position=stored.to_dict(),
        best=best.actions,
        margin=expected_margin(mean, state.config, state.round, seat),
        gap=min(a.gap for a in checks),
        losses=losses,
        seeds=tuple(seeds),
        best_quick=best_on_judge_draws(stored, best.actions, QUICK_BUDGET_S),
    )


def load_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file's text (``{"format": 1, "puzzles": [...]}``)."""
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"puzzle file format {data.get('format')!r}, expected {FORMAT}")
    return [Puzzle.from_dict(p) for p in data["puzzles"]]


def dump_puzzles(puzzles: Sequence[Puzzle]) -> str:
    """A puzzle file's text (one puzzle a line, so that a diff reads)."""
    lines = ",\n".join(
        json.dumps(p.to_dict(), sort_keys=True, separators=(",", ":")) for p in puzzles
    )
    return f'{{"format": {FORMAT}, "puzzles": [\n{lines}\n]}}\n'


def shipped_puzzles() -> list[Puzzle]:
    """The puzzles shipped in ``data/puzzles.json``."""
    from importlib import resources

    return load_puzzles(resources.files(DATA).joinpath(SHIPPED_RESOURCE).read_text("utf-8"))


def turn_starts(state: GameState, notations: Sequence[str]) -> list[GameState]:
    """The positions where a person's turn begins with a choice (``is_puzzle_position``) in the
    game ``notations`` play from ``state``."""
    out: list[GameState] = []
    last = None
    for notation in notations:
        if is_puzzle_position(state) and turn_id(state) != last:
            out.append(state)
        last = turn_id(state)
        state = apply(state, notation)
    return out
