"""The Expert's review of a finished game: the turns that cost each person the most.

A *decision* is a person's whole turn in the play phase (a seat the Expert does not play, with
more than one legal action when the turn begins). Beside it stands the Expert's turn from the
same position: the actions the Expert itself plays from there one after another
(``engine.expert.expert_action`` at the review's budget, on the position with the face-down
tokens drawn afresh: ``unseen_redrawn``). Both turns, and the beam's best plans of its best
first actions (``search.root_plans``), are simulated on the same determinisations (common random
numbers; between people each once, worth the worse of the two replies, as in
``search.simulate``). The *loss* of a turn is the best candidate's mean margin less its own: the
expected final margin, in points, the turn gave away by the Expert's reckoning (the Expert's
turn loses a little too when another plan simulated better). The same search, seed and budget
give the same review.

Each decision carries the facts its reason is told with (``TurnFacts``, computed from the
engine: the spaces each turn touched, the light its trees collect over the next rounds, the
tokens it takes, the light its shadows take from the others, the light left to spend), and
``patterns`` names a person's game-long flaws (no token collected, the store never used, seeds
never grown).

``review_plies`` reviews the turns that begin among some plies of a game (so that the bot can
spread a review over many small jobs), ``worst`` picks each person's costliest turns,
``per_turn`` the average a person gave away per turn and ``progress`` gives every seat's score
and light at the end of each round, for the review's chart.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from ..actions import Action
from ..config import Config
from ..game import apply, legal_actions, light_for_sun, new_game, scores, turn_id
from ..geometry import LABELS
from ..state import GameState
from .facade import FacadePosition, redrawn_beach
from .fast import FastGame, code_of
from .search import first_moves, root_plans, simulate

#: A review decision's budget (seconds of the Expert's calibration, counted in simulations): the
#: quick seat's.
REVIEW_BUDGET_S = 0.25
#: Losses below this many points are noise of the search, not a mistake.
MIN_LOSS = 0.5
#: The photosyntheses ahead whose light a turn's facts count.
LIGHT_ROUNDS = 3
#: The data format of a stored decision (a review stored before it is computed again).
FORMAT = 2
#: Longest turn a review follows (a guard: a turn has a handful of actions).
MAX_TURN_ACTIONS = 40


class FactsData(TypedDict):
    """A turn's facts (``TurnFacts``) as JSON data."""

    spaces: list[str]
    light: int
    others: int
    tokens: int
    left: int
    spend: int
    bought: int
    planted: int
    grown: int
    collected: int


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What one turn does, counted by the engine on the position after it (the rest of the
    board unchanged): ``spaces`` it touched (labels, in order); ``light``: what the seat's trees
    collect over the next ``LIGHT_ROUNDS`` photosyntheses (fewer near the end); ``others``: what
    the other seats collect over the same ones; ``tokens``: points of the scoring tokens it
    took; ``left``: light left in hand; ``spend``: light to spend at the seat's next turn (left
    plus the next photosynthesis); counts of pieces ``bought``, ``planted``, ``grown`` and
    trees ``collected``."""

    spaces: tuple[str, ...]
    light: int
    others: int
    tokens: int
    left: int
    spend: int
    bought: int
    planted: int
    grown: int
    collected: int

    def to_dict(self) -> FactsData:
        return {
            "spaces": list(self.spaces),
            "light": self.light,
            "others": self.others,
            "tokens": self.tokens,
            "left": self.left,
            "spend": self.spend,
            "bought": self.bought,
            "planted": self.planted,
            "grown": self.grown,
            "collected": self.collected,
        }

    @classmethod
    def from_dict(cls, d: FactsData) -> TurnFacts:
        return cls(
            tuple(str(x) for x in d["spaces"]),
            int(d["light"]),
            int(d["others"]),
            int(d["tokens"]),
            int(d["left"]),
            int(d["spend"]),
            int(d["bought"]),
            int(d["planted"]),
            int(d["grown"]),
            int(d["collected"]),
        )


class DecisionData(TypedDict):
    """A `Decision` as JSON data (`Decision.to_dict`; losses rounded to hundredths)."""

    ply: int
    seat: int
    round: int
    played: list[str]
    best: list[str]
    loss: float
    best_loss: float
    #: the light the seat's trees and the others' collect over the same rounds with no turn
    light0: int
    others0: int
    #: the photosyntheses ahead the light is counted over (``LIGHT_ROUNDS`` at most)
    ahead: int
    facts: list[FactsData]
    v: int
    #: the candidates' count (the beam's plans simulated beside the two turns)
    plans: NotRequired[int]


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed turn: the one that begins with the ``ply``-th action of the game (0-based;
    the position before it is the one after ``ply`` actions), by ``seat`` in ``round``; the
    actions ``played`` and the Expert's turn (``best``), as notations; ``loss`` and
    ``best_loss``: the expected final margin each gives away against the best plan simulated
    (points, 0 for the best); ``light0`` and ``others0``: the light the seat and the others
    would collect over the next ``ahead`` photosyntheses had the seat done nothing; ``facts``: the played turn's
    and the Expert's (``TurnFacts``)."""

    ply: int
    seat: int
    round: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    loss: float
    best_loss: float = 0.0
    light0: int = 0
    others0: int = 0
    ahead: int = 0
    facts: tuple[TurnFacts, ...] = ()

    @property
    def gap(self) -> float:
        """What the played turn gave away against the Expert's turn (never below 0)."""
        return max(0.0, self.loss - self.best_loss)

    def to_dict(self) -> DecisionData:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "round": self.round,
            "played": list(self.played),
            "best": list(self.best),
            "loss": round(self.loss, 2),
            "best_loss": round(self.best_loss, 2),
            "light0": self.light0,
            "others0": self.others0,
            "ahead": self.ahead,
            "facts": [f.to_dict() for f in self.facts],
            "v": FORMAT,
        }

    @classmethod
    def from_dict(cls, data: DecisionData) -> Decision:
        return cls(
            int(data["ply"]),
            int(data["seat"]),
            int(data["round"]),
            tuple(str(x) for x in data["played"]),
            tuple(str(x) for x in data["best"]),
            float(data["loss"]),
            float(data["best_loss"]),
            int(data["light0"]),
            int(data["others0"]),
            int(data["ahead"]),
            tuple(TurnFacts.from_dict(f) for f in data["facts"]),
        )


def current(data: Sequence[DecisionData] | Sequence[dict[str, Any]]) -> bool:
    """Whether stored decisions are of this format (an older review is computed again)."""
    return all(d.get("v") == FORMAT for d in data)


def is_decision(state: GameState, persons: Sequence[int]) -> bool:
    """Whether the position begins a reviewed turn: a person to act in the play phase, with a
    choice to make."""
    return state.phase == "play" and state.current_seat in persons and len(legal_actions(state)) > 1


def turn_of(state: GameState, notations: Sequence[str]) -> tuple[str, ...]:
    """The actions of ``notations`` (from ``state`` on) that make the turn current in
    ``state``."""
    start = turn_id(state)
    out: list[str] = []
    for notation in notations:
        if turn_id(state) != start or state.is_over:
            break
        out.append(notation)
        state = apply(state, notation)
    return tuple(out)


def play_out(state: GameState, turn: Sequence[str]) -> GameState:
    """The position after ``turn`` (as far as it stays legal: a hidden token drawn afresh may
    change what follows)."""
    legal_now = {str(a) for a in legal_actions(state)}
    for notation in turn:
        if notation not in legal_now:
            break
        state = apply(state, notation)
        legal_now = {str(a) for a in legal_actions(state)} if not state.is_over else set()
    return state


def expert_turn(state: GameState, budget_s: float, seed: int) -> tuple[str, ...]:
    """The actions the Expert plays from ``state`` one after another until the turn ends (each
    decided afresh, as an Expert seat plays), on the position with the face-down tokens drawn
    afresh (``unseen_redrawn``)."""
    from . import expert_action  # the package imports this module's siblings first

    start = turn_id(state)
    s = unseen_redrawn(state, seed)
    out: list[str] = []
    while not s.is_over and turn_id(s) == start and len(out) < MAX_TURN_ACTIONS:
        action = expert_action(s, budget_s=budget_s, seed=seed)
        out.append(str(action))
        s = apply(s, action)
    return tuple(out)


def _suns(state: GameState) -> list[int]:
    """The sun positions of the next ``LIGHT_ROUNDS`` photosyntheses after ``state``'s round."""
    left = max(0, state.config.last_round - state.round)
    return [(state.sun + k) % 6 for k in range(1, min(LIGHT_ROUNDS, left) + 1)]


def light_ahead(state: GameState, seat: int, suns: Sequence[int]) -> tuple[int, int]:
    """The light ``seat`` and the other seats collect with the sun at each of ``suns`` on the
    board of ``state`` (nothing else played)."""
    mine = others = 0
    for sun in suns:
        gains = light_for_sun(state, sun)
        mine += gains[seat]
        others += sum(gains) - gains[seat]
    return mine, others


def turn_facts(before: GameState, turn: Sequence[str]) -> TurnFacts:
    """The facts of ``turn`` played from ``before`` (``TurnFacts``)."""
    seat = before.current_seat
    assert seat is not None
    suns = _suns(before)
    state = before
    spaces: list[str] = []
    counts = {"buy": 0, "plant": 0, "grow": 0, "collect": 0}
    for notation in turn:
        action = next((a for a in legal_actions(state) if str(a) == notation), None)
        if action is None:
            break
        if action.verb in counts:
            counts[action.verb] += 1
        if action.verb in ("plant", "grow", "collect"):
            label = LABELS[action.args[-1]]
            if label not in spaces:
                spaces.append(label)
        state = apply(state, action)
    light, others = light_ahead(state, seat, suns)
    tokens = sum(p for _k, p in state.seats[seat].tokens) - sum(
        p for _k, p in before.seats[seat].tokens
    )
    left = state.seats[seat].light
    first = light_ahead(state, seat, suns[:1])[0]
    return TurnFacts(
        tuple(spaces), light, others, tokens, left, left + first,
        counts["buy"], counts["plant"], counts["grow"], counts["collect"],
    )  # fmt: skip


def _plan(pos: Any, state: GameState, turn: Sequence[str]) -> tuple[Any, ...]:
    """A turn as a plan of ``pos``'s actions (codes on the fast path), its final ``end`` left
    out (a plan ends the turn after its last action)."""
    actions: list[Action] = []
    s = state
    for notation in turn:
        action = next((a for a in legal_actions(s) if str(a) == notation), None)
        if action is None:
            break
        actions.append(action)
        s = apply(s, action)
    if actions and actions[-1].verb == "end":
        actions.pop()
    if isinstance(pos, FastGame):
        return tuple(code_of(a) for a in actions)
    return tuple(actions)


def compare_turns(
    state: GameState,
    turns: Sequence[Sequence[str]],
    budget_s: float = REVIEW_BUDGET_S,
    seed: int = 0,
) -> tuple[list[float], int]:
    """What each of ``turns`` (from ``state``, the position a turn begins) gives away, in points
    of expected final margin, against the best of them and of the beam's plans of its best
    first actions, all simulated on the same determinisations; and how many plans were
    simulated."""
    rnd = random.Random(f"review:{seed}:{state.round}:{state.current_seat}")
    pos: Any = FacadePosition(state) if state.ext is not None else FastGame.from_state(state)
    s = pos.SEARCH
    seat = pos.to_act()
    view = pos.seen_by(seat, rnd)
    mine = [_plan(pos, state, t) for t in turns]
    candidates = first_moves(root_plans(view, seat, budget_s), s.max_candidates)
    for plan in mine:
        if plan not in candidates:
            candidates.append(plan)
    sims = round(budget_s * s.simulations_per_second)
    per = max(s.simulations_per_candidate, sims // len(candidates)) if pos.has_chance() else 1
    draws = [rnd.getrandbits(64) for _ in range(per)]
    means = {
        c: sum(simulate(pos, seat, c, random.Random(draw)) for draw in draws) / per
        for c in candidates
    }
    top = max(means.values())
    return [max(0.0, top - means[plan]) for plan in mine], len(candidates)


def review_turn(
    state: GameState, played: Sequence[str], ply: int, budget_s: float, seed: int
) -> Decision:
    """The decision of the turn ``played`` from ``state``: beside the Expert's turn, each with
    what it gives away and its facts."""
    seat = state.current_seat
    assert seat is not None
    best = expert_turn(state, budget_s, seed)
    (loss, best_loss), _n = compare_turns(state, [played, best], budget_s, seed)
    if tuple(played) == best:
        loss = best_loss
    light0, others0 = light_ahead(state, seat, _suns(state))
    facts = (turn_facts(state, played), turn_facts(unseen_redrawn(state, seed), best))
    ahead = len(_suns(state))
    return Decision(
        ply, seat, state.round, tuple(played), best, loss, best_loss, light0, others0, ahead,
        facts,
    )  # fmt: skip


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
    """The turns of ``persons`` that begin among the game's ``plies`` (indexes of
    ``notations``), reviewed (``review_turn``); the game is replayed from its start
    (``start``, when given: a position built for a test)."""
    state = new_game(config, seed) if start is None else start
    out: list[Decision] = []
    turn = None
    for ply, notation in enumerate(notations):
        if ply >= plies.stop:
            break
        begins = turn_id(state) != turn
        turn = turn_id(state)
        if begins and ply in plies and is_decision(state, persons):
            played = turn_of(state, notations[ply:])
            out.append(review_turn(state, played, ply, budget_s, review_seed))
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
    """The ``k`` turns of ``seat`` that gave away the most (at least ``MIN_LOSS`` each, and
    not the Expert's own turn), costliest first (the earlier of equal ones first)."""
    mine = [
        d for d in decisions
        if d.seat == seat and d.loss >= MIN_LOSS and d.played != d.best
    ]  # fmt: skip
    return sorted(mine, key=lambda d: (-d.loss, d.ply))[:k]


def per_turn(decisions: Sequence[Decision], seat: int) -> float | None:
    """The points ``seat`` gave away per reviewed turn on average (None: no turn reviewed)."""
    mine = [d.loss for d in decisions if d.seat == seat]
    return sum(mine) / len(mine) if mine else None


class Pattern(TypedDict):
    """A flaw a whole game shows (``patterns``): its ``kind`` and the numbers it is told with."""

    kind: str
    rounds: int
    count: int


def patterns(config: Config, seed: int, notations: Sequence[str], seat: int) -> list[Pattern]:
    """The flaws ``seat``'s whole game shows, each with its numbers: ``no_token`` (no scoring
    token collected in all the rounds played), ``store_unused`` (nothing bought: the store
    stayed full; ``count`` the pieces in it), ``seeds_not_grown`` (``count`` seeds planted,
    none grown into a small tree)."""
    state = new_game(config, seed)
    start = state
    bought = planted = seeds_grown = collected = 0
    for notation in notations:
        if state.phase == "play" and state.current_seat == seat:
            action = next((a for a in legal_actions(state) if str(a) == notation), None)
            if action is not None:
                if action.verb == "buy":
                    bought += 1
                elif action.verb == "plant":
                    planted += 1
                elif action.verb == "collect":
                    collected += 1
                elif action.verb == "grow" and state.cells[action.args[0]] & 3 == 0:
                    seeds_grown += 1
        state = apply(state, notation)
    rounds = state.round if not state.is_over else config.last_round
    out: list[Pattern] = []
    if state.round < 1 or seat >= len(state.seats) or state.seats[seat].kind != "human":
        return out
    if collected == 0:
        out.append({"kind": "no_token", "rounds": rounds, "count": 0})
    if bought == 0 and sum(start.seats[seat].store) > 0:
        out.append(
            {"kind": "store_unused", "rounds": rounds, "count": sum(start.seats[seat].store)}
        )
    if planted > 0 and seeds_grown == 0:
        out.append({"kind": "seeds_not_grown", "rounds": rounds, "count": planted})
    return out


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
