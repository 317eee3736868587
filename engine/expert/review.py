"""The Expert's review of a finished game: the decisions that cost each person the most.

For each decision of a person (a seat the Expert does not play, in the play phase, with more
than one legal action) the search of a decision (``search.decide``) is run once more, with the
action played among its candidates: the beam's turn plans (``search.root_plans``), the best plan
of each of its best first actions, and the best plan that begins with the action played (planned
from the position it reaches when the beam had dropped it). All are simulated on the same
determinisations (common random numbers; between people each once, worth the worse of the two
replies, as in ``search.simulate``). The *loss* of the decision is the best candidate's mean
margin less the mean of the action played: the expected final margin, in points, the action
gave away by the Expert's reckoning. The same search, seed and budget give the same review.

``review_plies`` reviews some plies of a game (so that the bot can spread a review over many
small jobs), ``worst`` picks each person's costliest decisions and ``progress`` gives every
seat's score and light at the end of each round, for the review's chart.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from ..actions import Action
from ..config import Config
from ..game import apply, legal_actions, new_game, scores
from ..state import GameState
from .facade import FacadePosition, redrawn_beach
from .fast import FastGame, code_of
from .search import first_moves, plan_turn, root_plans, simulate

#: A review decision's budget (seconds of the Expert's calibration, counted in simulations): the
#: quick seat's. A base 2-person game of about 170 decisions is reviewed in 15-30 s of CPU.
REVIEW_BUDGET_S = 0.25
#: Losses below this many points are noise of the search, not a mistake.
MIN_LOSS = 0.5


class DecisionData(TypedDict):
    """A `Decision` as JSON data (`Decision.to_dict`; the loss rounded to hundredths)."""

    ply: int
    seat: int
    round: int
    played: str
    best: str
    loss: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision: the ``ply``-th action of the game (0-based; the position before it
    is the one after ``ply`` actions), by ``seat`` in ``round``; what was ``played`` and what the
    Expert chose (``best``), as notations; ``loss``: expected final margin given away (points,
    0 when the action played was the Expert's choice or as good)."""

    ply: int
    seat: int
    round: int
    played: str
    best: str
    loss: float

    def to_dict(self) -> DecisionData:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "round": self.round,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 2),
        }

    @classmethod
    def from_dict(cls, data: DecisionData) -> Decision:
        return cls(
            int(data["ply"]),
            int(data["seat"]),
            int(data["round"]),
            str(data["played"]),
            str(data["best"]),
            float(data["loss"]),
        )


def is_decision(state: GameState, persons: Sequence[int]) -> bool:
    """Whether the position is a reviewed decision: a person to act in the play phase, with a
    choice to make."""
    return state.phase == "play" and state.current_seat in persons and len(legal_actions(state)) > 1


def decision_loss(
    state: GameState, played: Action, budget_s: float = REVIEW_BUDGET_S, seed: int = 0
) -> tuple[Action, float]:
    """The Expert's choice in ``state`` and what ``played`` gives away against it (see the
    module docstring), in points of expected final margin (never below 0)."""
    rnd = random.Random(f"review:{seed}:{state.round}:{state.current_seat}:{played}")
    if state.ext is not None:
        pos: Any = FacadePosition(state)
        code: Any = played
    else:
        pos = FastGame.from_state(state)
        code = code_of(played)
    s = pos.SEARCH
    seat = pos.to_act()
    view = pos.seen_by(seat, rnd)
    plans = root_plans(view, seat, budget_s)
    end = view.end_action()
    candidates = first_moves(plans, s.max_candidates)
    mine = _played_plan(view, seat, plans, code, end)
    if mine not in candidates:
        candidates.append(mine)
    sims = round(budget_s * s.simulations_per_second)
    if pos.has_chance():
        per = max(s.simulations_per_candidate, sims // len(candidates))
    else:
        per = 1  # every simulation of a plan plays the same game
    draws = [rnd.getrandbits(64) for _ in range(per)]
    means = {
        c: sum(simulate(pos, seat, c, random.Random(draw)) for draw in draws) / per
        for c in candidates
    }
    best = max(candidates, key=means.__getitem__)
    loss = max(0.0, means[best] - means[mine])
    if loss == 0.0:
        return played, 0.0
    return pos.action(best[0] if best else end), loss


def _played_plan(view: Any, seat: int, plans: list[Any], code: Any, end: Any) -> tuple[Any, ...]:
    """The best turn plan that begins with the action played: from the beam's plans, else
    planned on from the position it reaches (the beam had dropped it)."""
    if code == end:
        return ()
    for _value, acts in plans:
        if acts and acts[0] == code:
            return tuple(acts)
    for step, child, _key in view.turn_steps(seat):
        if step == code:
            s = view.SEARCH
            rest = plan_turn(child, seat, s.next_turn_width, max_positions=s.next_turn_positions)
            return (code, *rest[0][1])
    return (code,)  # an action that ends the turn by itself


def review_plies(
    config: Config,
    seed: int,
    notations: Sequence[str],
    persons: Sequence[int],
    plies: range,
    *,
    budget_s: float = REVIEW_BUDGET_S,
    review_seed: int = 0,
    start: GameState | None = None,
) -> list[Decision]:
    """The decisions of ``persons`` among the game's ``plies`` (indexes of ``notations``),
    reviewed (``decision_loss``); the game is replayed from its start (``start``, when given:
    a position built for a test)."""
    state = new_game(config, seed) if start is None else start
    out: list[Decision] = []
    for ply, notation in enumerate(notations):
        if ply >= plies.stop:
            break
        if ply in plies and is_decision(state, persons):
            played = next(a for a in legal_actions(state) if str(a) == notation)
            best, loss = decision_loss(state, played, budget_s, review_seed)
            seat = state.current_seat
            assert seat is not None
            out.append(Decision(ply, seat, state.round, notation, str(best), loss))
        state = apply(state, notation)
    return out


def unseen_redrawn(state: GameState, seed: int = 0) -> GameState:
    """``state`` with what nobody at the table may know by the end of the game drawn afresh
    (``seed`` chooses): the face-down Baby Turtle tokens on the beaches. A review draws what
    the Expert would have played from it, so that a hatching the game never made turns up no
    token the game kept face down."""
    ext = state.ext
    if ext is None or not ext.beach:
        return state
    s = state.copy()
    s.ext = redrawn_beach(ext, random.Random(f"review-unseen:{seed}"))
    return s


def worst(decisions: Sequence[Decision], seat: int, k: int = 3) -> list[Decision]:
    """The ``k`` decisions of ``seat`` that gave away the most (at least ``MIN_LOSS`` each),
    costliest first (the earlier of equal ones first)."""
    mine = [d for d in decisions if d.seat == seat and d.loss >= MIN_LOSS]
    return sorted(mine, key=lambda d: (-d.loss, d.ply))[:k]


def progress(config: Config, seed: int, notations: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Every seat's ``(score, light)`` when each round's play begins and at the end of the game
    (the last entry), for the review's chart."""
    state = new_game(config, seed)
    out: list[list[tuple[int, int]]] = []

    def point(s: GameState) -> list[tuple[int, int]]:
        return [(score, seat.light) for score, seat in zip(scores(s), s.seats, strict=True)]

    started = False
    for notation in notations:
        before = state
        state = apply(state, notation)
        if not started and state.phase == "play":
            started = True
            out.append(point(state))
        elif started and state.round != before.round:
            out.append(point(state))
    if started:
        out.append(point(state))
    return out
