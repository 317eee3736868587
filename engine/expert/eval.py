"""The Expert's evaluation (see ``engine.expert.search``): a seat's final score, predicted.

Per seat, ``future_tokens``: the tokens its pieces can still become before the end, largest
pieces first, while the light it holds and will collect pays for the grows, the purchases and
the collects, each discounted by the turns it needs and each soil's pile shared with the other
seats; ``spare_light``, the light left over; light, income, pieces that cannot finish; per
size, the pieces on the board at the top token of their soil; the light the board brings over
the rounds left; the pieces in the available area. A linear
model on these features and the features times the phase (rounds left / rounds) predicts the
points still to come; the weights ship as ``data/expert_weights.json`` (``weights_file``, fitted by
``bench/expert_train.py``). A position is worth its predicted margin over the best other seat
(``position_margin``). ``opening_value`` values a starting tree, in the base game and the
expansion alike.

The evaluation reads a position through ``Readable``: the fast path's ``FastGame`` and the
facade's ``engine.expert.moonlight.StateView`` both offer it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from ..config import CYNTHIA, Config
from ..geometry import ALL_MASK, LEAVES, RING_MASK, WITHIN, bits
from ..pieces import LIGHT_CAP, PILES

#: Turns still needed before a piece of each size can be collected (grow steps, then collect).
TURNS_TO_TOKEN = (4, 3, 2, 1)

FEATURES = (
    "future_tokens",
    "spare_light",
    "light",
    "income",
    "pieces_waiting",
    "bias",
    "seeds",
    "small_trees",
    "medium_trees",
    "large_trees",
    "income_left",
    "available",
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
DEFAULT_PARAMS = {"discount": 0.87, "share": 1.0, "buy": 1.0, "income": 1.0}
_PILES = ((),) + tuple(PILES[k] for k in (1, 2, 3, 4))


class Readable(Protocol):
    """A position as the evaluation reads it (``FastGame``, or a ``GameState`` through
    ``moonlight.StateView``): per seat the pieces by size (``masks[4 * seat + size]``), light,
    available pieces (``avail[4 * seat + size]``), whether it is a Cynthia; the tokens taken from
    each pile; and the light the board gives."""

    @property
    def config(self) -> Config: ...
    @property
    def phase(self) -> int: ...  # 0 setup, 1 play, 2 over
    @property
    def round(self) -> int: ...
    @property
    def sun(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def cyn(self) -> tuple[bool, ...]: ...
    @property
    def masks(self) -> Sequence[int]: ...
    @property
    def light(self) -> Sequence[int]: ...
    @property
    def avail(self) -> Sequence[int]: ...
    @property
    def taken(self) -> Sequence[int]: ...
    def light_for_suns(self, suns: list[int]) -> list[list[int]]: ...
    def scores(self) -> list[int]: ...
    def token_points(self, seat: int) -> float: ...


_override: dict[str, Any] = {}


def weights_file() -> Traversable:
    """The shipped weights (``bench/expert_train.py`` and ``bench/expert_calibrate.py`` write
    them here)."""
    return resources.files("photosynthesis_data").joinpath("expert_weights.json")


@cache
def _shipped_weights() -> dict[str, Any]:
    """The shipped weights, read once (the only place that reads ``weights_file``)."""
    data = json.loads(weights_file().read_text())
    out: dict[str, Any] = {kind: [float(x) for x in data[kind]] for kind in ("human", "cynthia")}
    out["params"] = {**DEFAULT_PARAMS, **data.get("params", {})}
    out["reason_level"] = {rules: tuple(ab) for rules, ab in data["reason_level"].items()}
    return out


def learned_file() -> Traversable:
    """The learned evaluation's weights (``bench/expert_learn.py`` writes them here)."""
    return resources.files("photosynthesis_data").joinpath("expert_learned.json")


@cache
def _learned_weights() -> tuple[float, ...]:
    """The learned correction's weights (``LEARNED_FEATURES``, constant then times the phase)."""
    data = json.loads(learned_file().read_text())
    if tuple(data["features"]) != LEARNED_FEATURES:
        raise ValueError("expert_learned.json was fitted on other features")
    return tuple(float(x) for x in data["weights"])


#: Whether the human seats' forecast adds the learned correction (``use_learned``); off unless
#: told (the bot plays with the hand-made evaluation, see docs/expert.md).
_learned: list[tuple[float, ...]] = []


def use_learned(on: bool | Sequence[float]) -> None:
    """Play with the learned correction of a person's forecast (``LEARNED_FEATURES``): True, the
    weights in ``data/expert_learned.json``; a sequence, those weights (the training script's);
    False, without it (the default)."""
    _learned.clear()
    for memo in _MEMOS:
        memo.clear()
    if on is True:
        _learned.append(_learned_weights())
    elif on is not False:
        _learned.append(tuple(float(x) for x in on))


def weights() -> dict[str, Any]:
    """The fitted weights by seat kind: ``2 * N_FEATURES`` numbers (constant, then x phase),
    and ``params`` (see ``DEFAULT_PARAMS``)."""
    return _override or _shipped_weights()


def use_weights(w: dict[str, Any] | None) -> None:
    """Play with other weights (the training script's candidates); None: the shipped ones."""
    _override.clear()
    for memo in _MEMOS:
        memo.clear()
    if w:
        _override.update({"params": DEFAULT_PARAMS, **w})


# -- features -------------------------------------------------------------------------------


@cache
def _token_runs(taken: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per soil (leaves): the tokens successive collects there would get, in order, for a given
    count of tokens ``taken`` from each pile: that soil's pile, then the poorer ones."""
    return tuple(
        tuple(t for k in range(leaves, 0, -1) for t in _PILES[k][taken[k] :]) for leaves in range(5)
    )


def token_at(taken: Sequence[int], leaves: int, offset: int) -> int:
    """The token a collect on ``leaves`` soil would get after ``offset`` more collects there
    (falling to poorer piles when a pile runs out); 0 when none is left."""
    run = _token_runs(tuple(taken))[leaves]
    return run[offset] if offset < len(run) else 0


def seat_features(
    masks: Sequence[int],
    seat: int,
    light: int,
    avail: Sequence[int],
    rounds_left: int,
    taken: Sequence[int],
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
    runs = _token_runs(tuple(taken))
    spare = list(avail)
    used = [0, 0, 0, 0, 0]
    future = 0.0
    waiting = 0
    # Per size: the top token of each piece's soil (tenths of points), if it can still finish.
    on_board = [0.0, 0.0, 0.0, 0.0]
    for size in (3, 2, 1, 0):
        turns = 4 - size
        m = masks[b + size]
        if not m:
            continue
        if turns > rounds_left:
            waiting += m.bit_count()
            continue
        counts = [(leaves, (m & RING_MASK[leaves]).bit_count()) for leaves in (4, 3, 2, 1)]
        for leaves, count in counts:
            if count:
                run = runs[leaves]
                on_board[size] += 0.1 * count * (run[0] if run else 0)
        if grow_costs is None:
            base_cost = HUMAN_COST[size]
        else:
            base_cost = sum(grow_costs[t] for t in range(size + 1, 4)) + 4
        factor = discount**turns
        for leaves, count in counts:
            run = runs[leaves]
            for _piece in range(count):
                cost: float = base_cost
                if grow_costs is None:
                    for t in range(size + 1, 4):
                        if spare[t] > 0:
                            spare[t] -= 1
                        else:
                            cost += buy * BUY_ESTIMATE[t]
                if cost > budget:
                    waiting += 1
                    continue
                offset = int(used[leaves] * offset_step)
                value = run[offset] if offset < len(run) else 0
                used[leaves] += 1
                budget -= cost
                future += value * factor
    return [
        future,
        budget,
        float(light),
        float(incomes[1]),
        float(waiting),
        1.0,
        *on_board,
        0.1 * incomes[0],
        float(avail[1] + 2 * avail[2] + 3 * avail[3]) if grow_costs is None else 0.0,
    ]


#: The learned correction's features (``learned_features``): per size and soil (leaves), the
#: seat's pieces there; the pieces available per size; light; the next round's income; a bias.
LEARNED_FEATURES = (
    "bias",
    "light",
    "income",
    *(
        f"{name}_{leaves}"
        for name in ("seeds", "small", "medium", "large")
        for leaves in (1, 2, 3, 4)
    ),
    *(f"available_{name}" for name in ("seeds", "small", "medium", "large")),
)
N_LEARNED = len(LEARNED_FEATURES)


def learned_features(
    masks: Sequence[int], seat: int, light: int, avail: Sequence[int], income: int
) -> list[float]:
    """A seat's ``LEARNED_FEATURES`` (``avail``: its four available counts)."""
    b = 4 * seat
    out = [1.0, float(light), float(income)]
    for size in range(4):
        m = masks[b + size]
        out.extend(float((m & RING_MASK[leaves]).bit_count()) for leaves in (1, 2, 3, 4))
    out.extend(float(a) for a in avail)
    return out


def learned_correction(w: Sequence[float], f: list[float], phase: float) -> float:
    """The learned points to come beyond the hand-made forecast: ``f`` dotted with the weights,
    the constant ones plus the phase ones times ``phase``."""
    total = 0.0
    for j in range(N_LEARNED):
        x = f[j]
        if x:
            total += x * (w[j] + w[N_LEARNED + j] * phase)
    return total


def predict(w: list[float], f: list[float], phase: float) -> float:
    """Predicted points still to come (beyond the tokens held) for a feature vector."""
    total = 0.0
    for j in range(N_FEATURES):
        total += f[j] * (w[j] + w[N_FEATURES + j] * phase)
    return total


def _incomes(g: Readable, rounds_left: int, seats: Sequence[int]) -> list[tuple[int, int]]:
    """For each of ``seats``: the light it collects on this board over the rounds left (the next
    three suns exactly, then repeated), and in the next round."""
    if rounds_left <= 0:
        return [(0, 0)] * len(seats)
    # The light depends on the masks, the sun and, in an expansion game, the shade of the Great
    # Elder Tree and the moonstones (``shade_key`` of ``moonlight.StateView``).
    key = (g.sun, rounds_left, getattr(g, "shade_key", None), *g.masks)
    every = _INCOMES.get(key)
    if every is None:
        k = min(3, rounds_left)
        exact = g.light_for_suns([(g.sun + j) % 6 for j in range(1, k + 1)])
        cycles, rest = divmod(rounds_left, k)
        every = [
            (cycles * sum(e[s] for e in exact) + sum(e[s] for e in exact[:rest]), exact[0][s])
            for s in range(g.n)
        ]
        remember(_INCOMES, key, every)
    return [every[s] for s in seats]


#: Every memo ``new_memo`` made: ``use_weights`` clears them all.
_MEMOS: list[dict[Any, Any]] = []
MEMO_SIZE = 50_000


def new_memo() -> dict[Any, Any]:
    """An empty memo that ``use_weights`` clears with the evaluation's own."""
    memo: dict[Any, Any] = {}
    _MEMOS.append(memo)
    return memo


#: Memos of ``_incomes`` (by the board and the sun) and of a seat's forecast (by the parts of the
#: position it reads): in a turn's beam most children share the board (a purchase) or another
#: seat's pieces and light. Both are pure functions of their keys.
_INCOMES = new_memo()
_FORECASTS = new_memo()


def remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` in ``memo`` (cleared when it holds ``MEMO_SIZE`` entries)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value


def _seat_features(
    g: Readable, seat: int, rounds_left: int, income: tuple[int, int], params: dict[str, float]
) -> list[float]:
    """``seat_features`` of one seat of a fast position (a Cynthia's with her grow costs)."""
    cfg = g.config
    cyn_costs = None
    if g.cyn[seat]:
        cyn_costs = tuple(
            0 if t == 0 else 2 * t + cfg.easier_grow_plus_one - cfg.harder_grow_minus_one
            for t in range(4)
        )
    b = 4 * seat
    return seat_features(
        g.masks,
        seat,
        g.light[seat],
        g.avail[b : b + 4],
        rounds_left,
        g.taken,
        g.n,
        income,
        cyn_costs,
        params,
    )


def fast_features(g: Readable) -> list[list[float]]:
    """Every seat's features on a fast position."""
    rounds_left = g.config.last_round - g.round
    params = weights()["params"]
    seats = range(g.n)
    incomes = _incomes(g, rounds_left, seats)
    return [_seat_features(g, s, rounds_left, incomes[s], params) for s in seats]


def _forecast(
    g: Readable, seat: int, rounds_left: int, income: tuple[int, int], w: dict[str, Any]
) -> float:
    """A seat's predicted points still to come beyond its tokens (``predict`` on its features)."""
    b = 4 * seat
    key = (g.config, seat, rounds_left, income, g.light[seat], *g.masks[b : b + 4])
    key += (*g.avail[b : b + 4], *g.taken)
    value: float | None = _FORECASTS.get(key)
    if value is None:
        f = _seat_features(g, seat, rounds_left, income, w["params"])
        kind = "cynthia" if g.cyn[seat] else "human"
        phase = rounds_left / g.config.last_round
        value = predict(w[kind], f, phase)
        if _learned and kind == "human":
            lf = learned_features(g.masks, seat, g.light[seat], g.avail[b : b + 4], income[1])
            value += learned_correction(_learned[0], lf, phase)
        remember(_FORECASTS, key, value)
    return value


def fast_values(g: Readable) -> list[float]:
    """Each seat's predicted final score (exact scores once the game is over)."""
    if g.phase == 2:
        return [float(x) for x in g.scores()]
    w = weights()
    rounds_left = g.config.last_round - g.round
    seats = range(g.n)
    incomes = _incomes(g, rounds_left, seats)
    out: list[float] = []
    for s in seats:
        value = g.token_points(s) + _forecast(g, s, rounds_left, incomes[s], w)
        if g.cyn[s] and g.config.harder_score_trees:
            m = g.masks
            value += sum(size * m[4 * s + size].bit_count() for size in (1, 2, 3))
        out.append(value)
    return out


def fast_own_value(g: Readable, seat: int) -> float:
    """One human seat's predicted final score alone (``fast_values`` for that seat, the others'
    features not computed): the playout policy's cheaper measure of its own turn, which moves
    the other seats' forecasts only through shade and the piles."""
    if g.phase == 2:
        return float(g.scores()[seat])
    rounds_left = g.config.last_round - g.round
    (income,) = _incomes(g, rounds_left, (seat,))
    return g.token_points(seat) + _forecast(g, seat, rounds_left, income, weights())


def margin(values: list[float], seat: int) -> float:
    """A seat's value over the best of the others."""
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


def position_margin(g: Readable, seat: int) -> float:
    """The evaluation's margin of ``seat`` on a position (a ``FastGame``, or anything read
    like one): its value over the best other seat's.

    A person's forecast is lower than Cynthia's by ``reason_level`` early on (see
    ``expected_margin``), so where both a person and a Cynthia are among the other seats, the
    best of them is found with the Cynthias' values lowered by that level, and the margin is
    then lowered by it too, as against Cynthias alone: without it, a seat facing a person and
    a Cynthia would measure itself against her and ignore the person until the level faded. In
    every other game (only Cynthias, only people, the game over) this is ``margin``."""
    values = fast_values(g)
    cyn = g.cyn
    if g.phase == 2 or not _people_and_cynthias(cyn, seat):
        return margin(values, seat)
    level = reason_level(g.config, g.round)
    best = max(v - level if cyn[i] else v for i, v in enumerate(values) if i != seat)
    return values[seat] - best - level


@cache
def _people_and_cynthias(cyn: tuple[bool, ...], seat: int) -> bool:
    """Whether the seats other than ``seat`` hold both a person and a Cynthia (``cyn``: which
    seats are Cynthias). The same for every position of a game, so it is worked out once."""
    others = [c for i, c in enumerate(cyn) if i != seat]
    return any(others) and not all(others)


def expected_margin(margin: float, config: Config, round_: int, seat: int) -> float:
    """The final margin a reason line says ``seat`` can expect, from the evaluation's ``margin``
    in ``round_``.

    Against a Cynthia the evaluation's margin is low early on: her forecast is fitted to the
    points she scores (``bench/expert_train.py``), the human seat's weights are tuned to choose
    well, not to predict its score, and they predict far too few points while much of the game is
    left. That level is the same for every candidate of a decision, so it changes no choice,
    but without it a reason line said "expected margin -34.1 points" in round 1 of a game the
    Expert won by 50. So the line adds the level, ``a * phase + b * phase ** 2`` (phase: the
    rounds left over the rounds, so a four-revolution game is read on the same scale),
    ``reason_level`` in ``data/expert_weights.json`` for the base game and the expansion,
    fitted on the Expert's games against the Cynthias by ``bench/expert_calibrate.py``. Between
    people both sides' forecasts have the same level: the margin stands as it is."""
    if not any(kind == CYNTHIA for i, kind in enumerate(config.seats) if i != seat):
        return margin
    return margin + reason_level(config, round_)


def reason_level(config: Config, round_: int) -> float:
    """How many points more than a person's forecast a seat's final score stands to be, as
    Cynthia's forecast predicts hers, in ``round_``: ``a * phase + b * phase ** 2`` (phase: the
    rounds left over the rounds), ``reason_level`` of the rule set in ``expert_weights.json``."""
    level: tuple[float, float] = _shipped_weights()["reason_level"][
        "moonlight" if config.expansion else "base"
    ]
    a, b = level
    phase = max(0, config.last_round - round_) / config.last_round
    return a * phase + b * phase * phase


def opening_value(light: int, space: int, occupied: int) -> float:
    """What a starting tree on ``space`` is worth: ``light``, the light of the seat's trees over
    the six suns of the first revolution with it there, plus one point per leaf beyond the first
    of every empty space within reach of a medium tree (the richer soil its seeds will open)."""
    free = WITHIN[2][space] & ~occupied & ALL_MASK
    return float(light + sum(LEAVES[i] - 1 for i in bits(free)))
