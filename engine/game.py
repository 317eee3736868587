"""The rules of the base game: setup, the turn, the round, the end (RULES-DATA sections 2-6).

``legal_actions`` lists the legal actions; ``apply`` checks an action with the same rules and
performs it, then everything that follows by itself (the end of the round, the sun's move, the
first-player token, photosynthesis, the end of the game). Each action verb has a *check* (the
reason it is illegal, or None), a *generator* of its legal instances and a *performer*; the
expansion registers its verbs in the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import cynthia
from .actions import (
    UNDOABLE_VERBS,
    VERB_OWNERS,
    Action,
    IllegalAction,
    not_in_game,
    parse_action,
    validate,
)
from .config import CYNTHIA, Config
from .geometry import BORDER_MASK, LABELS, LEAVES, N_CELLS, SUN_CORNER_NAMES, WITHIN, bits
from .light import light_from_masks, shade_masks, shadow_heights
from .pieces import (
    COLLECT_COST,
    CYNTHIA_TOTAL,
    LARGE,
    LIGHT_CAP,
    PLANT_COST,
    PLANT_RANGE,
    SEED,
    SIZE_NAMES,
    SMALL,
    START_AVAILABLE,
    STORE_CAPACITY,
    buy_price,
)
from .rng import seed_state
from .state import OVER, PLAY, SETUP, GameState, SeatState, empty_piles

NO_SHADE = (0, 0, 0, 0)
END = Action("end")
# The base game's actions, made once: legal_actions hands out these shared (immutable) objects.
BUY_ACTIONS = tuple(Action("buy", (size,)) for size in range(4))
PLANT_ACTIONS = tuple(
    tuple(Action("plant", (src, dst)) for dst in range(N_CELLS)) for src in range(N_CELLS)
)
GROW_ACTIONS = tuple(Action("grow", (space,)) for space in range(N_CELLS))
COLLECT_ACTIONS = tuple(Action("collect", (space,)) for space in range(N_CELLS))
TREE_NAMES = ("seed", "small tree", "medium tree", "large tree")


# -- new game ------------------------------------------------------------------------------


def new_game(config: Config, seed: int = 0) -> GameState:
    """The state at the first setup decision."""
    s = GameState.__new__(GameState)
    s.config = config
    s.seed = seed
    s.rng = seed_state(seed)
    s.round = 0
    s.revolution = 1
    s.sun = 0
    s.first_seat = 0
    s.current_seat = 0
    s.phase = SETUP
    s.setup_step = 0
    s.cells = [-1] * N_CELLS
    s.masks = [0] * (4 * config.n_seats)
    s.activated = 0
    s.piles = empty_piles()
    if config.n_seats == 2:
        s.piles = (*s.piles[:4], ())  # the 4-leaf pile is not used with 2 seats
    seats = []
    for kind in config.seats:
        if kind == CYNTHIA:
            seats.append(SeatState(kind, 0, 0, list(CYNTHIA_TOTAL), [0, 0, 0, 0], [0, 0, 0, 0]))
        else:
            seats.append(
                SeatState(kind, 0, 0, list(START_AVAILABLE), list(STORE_CAPACITY), [0, 0, 0, 0])
            )
    s.seats = tuple(seats)
    s.cynthia = (None,) * config.n_seats
    s.ext = None
    s.events = ()
    s = cynthia.init_decks(s)
    if config.expansion:
        s = moonlight.init(s)
    return s


# -- small rule helpers ---------------------------------------------------------------------


def obstacles(state: GameState) -> int:
    """Spaces holding an expansion obstacle (Great Elder Tree, moonstones)."""
    return 0 if state.ext is None else state.ext.obstacles


def extra_shade(state: GameState, sun: int):
    """Shade cast by the expansion's obstacles, per height."""
    if state.ext is None:
        return NO_SHADE
    return moonlight.extra_shade(state, sun)


def shade(state: GameState, sun: int | None = None):
    """``shade[h]``: spaces under a shadow of height >= h with the sun at ``sun``."""
    if sun is None:
        sun = state.sun
    return shade_masks(state.masks, len(state.seats), sun, extra_shade(state, sun))


def light_for_sun(state: GameState, sun: int) -> list[int]:
    """Light each seat would collect with the sun at ``sun`` on the current board (no cap)."""
    return light_from_masks(state.masks, len(state.seats), shade(state, sun))


def shadow_map(state: GameState, sun: int | None = None) -> list[int]:
    """Per space, the height (0 none, 1..3) of the tallest shadow covering it.

    The Great Elder Tree's shadow shades every tree, so its spaces count as height 3.
    """
    return shadow_heights(shade(state, sun))


def next_photosynthesis_sun(state: GameState) -> int | None:
    """The sun position of the next photosynthesis, or None when there is none left.

    During setup it is round 1's (the sun does not move before round 1); during a round, the next
    round's, one position clockwise; in the last round and after the game, none.
    """
    if state.phase == SETUP:
        return 0
    if state.phase == OVER or state.round >= state.config.last_round:
        return None
    return (state.sun + 1) % 6


def grow_cost(state: GameState, seat: int, target: int) -> int:
    """Light points to grow into ``target`` size: 1/2/3, or Cynthia's 2/4/6 with options."""
    if state.seats[seat].kind != CYNTHIA:
        return target
    cfg = state.config
    return 2 * target + cfg.easier_grow_plus_one - cfg.harder_grow_minus_one


def next_price(state: GameState, seat: int, size: int) -> int | None:
    """The price of the next purchase from a store column (None when empty, or for Cynthia)."""
    seat_state = state.seats[seat]
    if seat_state.kind == CYNTHIA:
        return None
    return buy_price(seat_state.store[size], size)


def is_shadowed(state: GameState, space: int, size: int, shade_now=None) -> bool:
    """Advanced shadow rule: a piece is shadowed by a shadow at least its size; a seed by any
    tree's shadow (the Great Elder Tree's too, not a moonstone's)."""
    if shade_now is None:
        shade_now = shade(state)
    return bool(shade_now[size] >> space & 1)


def _return_piece(seat_state: SeatState, size: int) -> None:
    """A piece leaves the board: to its store column, or out of the game when it is full.

    Cynthia has no store: her pieces are available again at once.
    """
    if seat_state.kind == CYNTHIA:
        seat_state.available[size] += 1
    elif seat_state.store[size] < STORE_CAPACITY[size]:
        seat_state.store[size] += 1
    else:
        seat_state.out[size] += 1


def pile_for(state: GameState, leaves: int) -> int:
    """The pile a collect on ``leaves`` soil takes from (falling to poorer piles), 0 if none."""
    for k in range(leaves, 0, -1):
        if state.piles[k]:
            return k
    return 0


def take_token(state: GameState, seat_state: SeatState, leaves: int) -> str:
    """Move the top token of the right pile to the seat (state and seat already copied)."""
    k = pile_for(state, leaves)
    if k == 0:
        return "no scoring token is left"
    points = state.piles[k][0]
    piles = list(state.piles)
    piles[k] = piles[k][1:]
    state.piles = tuple(piles)
    seat_state.tokens = (*seat_state.tokens, (k, points))
    return f"a {k}-leaf token worth {points}"


# -- setup ----------------------------------------------------------------------------------


def setup_schedule(config: Config) -> tuple[tuple[int, str], ...]:
    """The setup decisions in order, as ``(seat, kind)``.

    Base game: each seat in turn places a starting tree, then a second round in the same order.
    The expansion puts its own decisions (animals, the Great Elder Tree, moonstones) first.
    """
    n = config.n_seats
    trees = tuple((k % n, "tree") for k in range(2 * n))
    if config.expansion:
        return moonlight.setup_schedule(config) + trees
    return trees


def setup_kind(state: GameState) -> str:
    return setup_schedule(state.config)[state.setup_step][1]


def starting_tree_size(state: GameState) -> int:
    """A human places small trees; Cynthia her small first, then a medium (two small: easier)."""
    seat = state.current_seat
    if state.seats[seat].kind == CYNTHIA and not state.config.easier_two_small_start:
        n = state.n_seats
        tree_steps = [
            k for k, (_, kind) in enumerate(setup_schedule(state.config)) if kind == "tree"
        ]
        if tree_steps.index(state.setup_step) >= n:
            return 2
    return SMALL


def _check_place(state: GameState, a: Action) -> str | None:
    if state.phase != SETUP or setup_kind(state) != "tree":
        return "Starting trees are placed only during setup."
    space = a.args[0]
    if not BORDER_MASK >> space & 1:
        return f"Starting trees go on the outer ring (1-leaf spaces); {LABELS[space]} is not on it."
    if state.cells[space] >= 0 or obstacles(state) >> space & 1:
        return f"{LABELS[space]} is already taken."
    return None


def _legal_place(state: GameState) -> Iterator[Action]:
    free = BORDER_MASK & ~state.occupied() & ~obstacles(state)
    for space in bits(free):
        yield Action("place", (space,))


def _do_place(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = s.current_seat
    size = starting_tree_size(state)
    _put(s, seat, a.args[0], size)
    seat_state = s.seats[seat].copy()
    seat_state.available[size] -= 1
    _set_seat(s, seat, seat_state)
    return advance_setup(s)


def advance_setup(s: GameState) -> GameState:
    """After a setup decision: the next decision, or the start of round 1."""
    s.setup_step += 1
    schedule = setup_schedule(s.config)
    if s.setup_step < len(schedule):
        s.current_seat = schedule[s.setup_step][0]
        return s
    s.phase = PLAY
    s.round = 1
    s.revolution = 1
    s.sun = 0
    s.first_seat = 0
    s.current_seat = 0
    _photosynthesis(s)
    return s


# -- board edits (on a copied state) --------------------------------------------------------


def _put(s: GameState, seat: int, space: int, size: int) -> None:
    s.cells[space] = seat * 4 + size
    s.masks[seat * 4 + size] |= 1 << space


def _remove(s: GameState, space: int) -> tuple[int, int]:
    c = s.cells[space]
    s.cells[space] = -1
    s.masks[c] &= ~(1 << space)
    return c >> 2, c & 3


def _set_seat(s: GameState, seat: int, seat_state: SeatState) -> None:
    seats = list(s.seats)
    seats[seat] = seat_state
    s.seats = tuple(seats)


# -- the four actions -----------------------------------------------------------------------


def _not_playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        if setup_kind(state) == "tree":
            return "Setup comes first: place a small tree on an empty outer space, e.g. 'place A1'."
        return "Setup comes first."
    return None


def _own_piece(state: GameState, seat: int, space: int) -> int | None:
    c = state.cells[space]
    if c < 0 or c >> 2 != seat:
        return None
    return c & 3


def _check_buy(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    size = a.args[0]
    seat_state = state.seats[state.current_seat]
    if seat_state.kind == CYNTHIA:
        return "Cynthia never buys: all her pieces are available."
    price = buy_price(seat_state.store[size], size)
    if price is None:
        return f"Your player board has no {SIZE_NAMES[size]} left to buy."
    if price > seat_state.light:
        return (
            f"Buying a {SIZE_NAMES[size]} costs {price} light points; you have {seat_state.light}."
        )
    return None


def _do_buy(state: GameState, a: Action) -> GameState:
    size = a.args[0]
    s = state.copy()
    seat_state = s.seats[s.current_seat].copy()
    seat_state.light -= buy_price(seat_state.store[size], size)
    seat_state.store[size] -= 1
    seat_state.available[size] += 1
    _set_seat(s, s.current_seat, seat_state)
    return s


def _check_plant(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    src, dst = a.args
    seat = state.current_seat
    seat_state = state.seats[seat]
    size = _own_piece(state, seat, src)
    if size is None:
        return f"You have no tree on {LABELS[src]} to plant from."
    if size == SEED:
        return f"The seed on {LABELS[src]} cannot plant: only trees spread seeds."
    if state.activated >> src & 1:
        return f"{LABELS[src]} was already used this turn (one action per space per turn)."
    if state.cells[dst] >= 0 or obstacles(state) >> dst & 1:
        return f"{LABELS[dst]} is not empty."
    if state.activated >> dst & 1:
        return f"{LABELS[dst]} was already used this turn (one action per space per turn)."
    if not WITHIN[PLANT_RANGE[size]][src] >> dst & 1:
        reach = PLANT_RANGE[size]
        return (
            f"{LABELS[dst]} is out of reach: your {TREE_NAMES[size]} on {LABELS[src]} plants "
            f"up to {reach} space{'s' if reach > 1 else ''} away."
        )
    if seat_state.available[SEED] == 0:
        return "You have no seed available: buy one first."
    if seat_state.light < PLANT_COST:
        return f"Planting costs {PLANT_COST} light point; you have {seat_state.light}."
    if state.config.shadow_rule and is_shadowed(state, src, size):
        return (
            f"Shadow rule: your {TREE_NAMES[size]} on {LABELS[src]} is in shadow and cannot plant."
        )
    return None


def _do_plant(state: GameState, a: Action) -> GameState:
    src, dst = a.args
    s = state.copy()
    seat = s.current_seat
    seat_state = s.seats[seat].copy()
    seat_state.light -= PLANT_COST
    seat_state.available[SEED] -= 1
    _set_seat(s, seat, seat_state)
    _put(s, seat, dst, SEED)
    s.activated |= (1 << src) | (1 << dst)
    return s


def _check_grow(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    space = a.args[0]
    seat = state.current_seat
    seat_state = state.seats[seat]
    size = _own_piece(state, seat, space)
    if size is None:
        return f"You have nothing on {LABELS[space]} to grow."
    if size == LARGE:
        return f"The large tree on {LABELS[space]} is fully grown: collect it instead."
    if state.activated >> space & 1:
        return f"{LABELS[space]} was already used this turn (one action per space per turn)."
    if seat_state.available[size + 1] == 0:
        return f"You have no {TREE_NAMES[size + 1]} available: buy one first."
    cost = grow_cost(state, seat, size + 1)
    if seat_state.light < cost:
        return f"Growing into a {TREE_NAMES[size + 1]} costs {cost} light points; you have {seat_state.light}."
    if state.config.shadow_rule and is_shadowed(state, space, size):
        return (
            f"Shadow rule: your {TREE_NAMES[size]} on {LABELS[space]} is in shadow and cannot grow."
        )
    return None


def _do_grow(state: GameState, a: Action) -> GameState:
    space = a.args[0]
    s = state.copy()
    seat = s.current_seat
    _, size = _remove(s, space)
    _put(s, seat, space, size + 1)
    seat_state = s.seats[seat].copy()
    seat_state.light -= grow_cost(state, seat, size + 1)
    seat_state.available[size + 1] -= 1
    _return_piece(seat_state, size)
    _set_seat(s, seat, seat_state)
    s.activated |= 1 << space
    return s


def _check_collect(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    space = a.args[0]
    seat = state.current_seat
    size = _own_piece(state, seat, space)
    if size != LARGE:
        return f"You have no large tree on {LABELS[space]} to collect."
    if state.activated >> space & 1:
        return f"{LABELS[space]} was already used this turn (one action per space per turn)."
    light = state.seats[seat].light
    if light < COLLECT_COST:
        return f"Collecting costs {COLLECT_COST} light points; you have {light}."
    return None


def collect_tree(s: GameState, seat: int, space: int, cost: int) -> str:
    """Remove a large tree (state already copied), pay ``cost``, take a token; says which."""
    _remove(s, space)
    seat_state = s.seats[seat].copy()
    seat_state.light -= cost
    _return_piece(seat_state, LARGE)
    got = take_token(s, seat_state, leaves_for_collect(s, seat, space))
    _set_seat(s, seat, seat_state)
    return got


def leaves_for_collect(state: GameState, seat: int, space: int) -> int:
    """The soil a collect scores from: the space's leaves (the expansion may enrich it)."""
    leaves = LEAVES[space]
    if state.ext is not None:
        leaves = moonlight.collect_leaves(state, seat, leaves)
    return leaves


def _do_collect(state: GameState, a: Action) -> GameState:
    space = a.args[0]
    s = state.copy()
    collect_tree(s, s.current_seat, space, COLLECT_COST)
    s.activated |= 1 << space
    return s


def _check_end(state: GameState, a: Action) -> str | None:
    return _not_playing(state)


def _do_end(state: GameState, a: Action) -> GameState:
    s = state.copy()
    end_turn(s)
    return s


# -- turn, round, game end ------------------------------------------------------------------


def end_turn(s: GameState) -> None:
    """End the current seat's turn (state already copied); runs the end of round when due."""
    s.activated = 0
    if s.ext is not None:
        moonlight.end_turn(s)
    n = len(s.seats)
    nxt = (s.current_seat + 1) % n
    if nxt != s.first_seat:
        s.current_seat = nxt
        return
    if s.round >= s.config.last_round:
        _end_game(s)
        return
    # A new round: the first-player token passes on, the sun moves one position clockwise.
    s.first_seat = (s.first_seat + 1) % n
    s.round += 1
    s.sun = (s.sun + 1) % 6
    s.revolution = (s.round - 1) // 6 + 1
    if s.sun == 0 and s.revolution == s.config.revolutions:
        cynthia.start_late_half(s)
    if s.ext is not None:
        moonlight.start_round(s)
    _photosynthesis(s)
    s.current_seat = s.first_seat


def _photosynthesis(s: GameState) -> None:
    """Every unshadowed tree gives its owner light points by size; no seat holds more than 20."""
    gains = light_for_sun(s, s.sun)
    seats = list(s.seats)
    for seat, gain in enumerate(gains):
        if gain:
            seat_state = seats[seat].copy()
            seat_state.light = min(LIGHT_CAP, seat_state.light + gain)
            seats[seat] = seat_state
    s.seats = tuple(seats)
    parts = ", ".join(f"seat {i + 1} +{g}" for i, g in enumerate(gains))
    s.events = (
        *s.events,
        f"Round {s.round}, sun at the {SUN_CORNER_NAMES[s.sun]} corner: photosynthesis {parts}.",
    )
    if s.ext is not None:
        moonlight.photosynthesis(s)


def _end_game(s: GameState) -> None:
    cynthia.final_collects(s)
    s.phase = OVER
    s.current_seat = None
    s.events = (*s.events, "The game is over.")


# -- scoring --------------------------------------------------------------------------------


def score_parts(state: GameState, seat: int) -> dict[str, int]:
    """The parts of a seat's final score: tokens, light (1 per 3), and options/expansion parts."""
    seat_state = state.seats[seat]
    parts = {"tokens": sum(points for _, points in seat_state.tokens)}
    if seat_state.kind == CYNTHIA:
        if state.config.harder_score_trees:
            parts["trees"] = sum(
                size * state.masks[seat * 4 + size].bit_count() for size in (1, 2, 3)
            )
    else:
        parts["light"] = seat_state.light // 3
    if state.ext is not None:
        parts.update(moonlight.score_parts(state, seat))
    return parts


def scores(state: GameState) -> list[int]:
    """The final-score formula applied to the current state, per seat."""
    return [sum(score_parts(state, seat).values()) for seat in range(len(state.seats))]


def winners(state: GameState) -> list[int]:
    """Seats with the best score; ties go to most seeds and trees on the board, then share."""
    sc = scores(state)
    best = max(sc)
    tied = [i for i, x in enumerate(sc) if x == best]
    most = max(state.board_count(i) for i in tied)
    return [i for i in tied if state.board_count(i) == most]


# -- the facade: legal actions and apply ----------------------------------------------------

Check = Callable[[GameState, Action], "str | None"]
Perform = Callable[[GameState, Action], GameState]

CHECKS: dict[str, Check] = {
    "place": _check_place,
    "buy": _check_buy,
    "plant": _check_plant,
    "grow": _check_grow,
    "collect": _check_collect,
    "end": _check_end,
}
PERFORMERS: dict[str, Perform] = {
    "place": _do_place,
    "buy": _do_buy,
    "plant": _do_plant,
    "grow": _do_grow,
    "collect": _do_collect,
    "end": _do_end,
}


def _legal_play(state: GameState) -> list[Action]:
    seat = state.current_seat
    seat_state = state.seats[seat]
    light = seat_state.light
    base = seat * 4
    masks = state.masks
    activated = state.activated
    out: list[Action] = []
    # Buy
    if seat_state.kind != CYNTHIA:
        for size in range(4):
            price = buy_price(seat_state.store[size], size)
            if price is not None and price <= light:
                out.append(BUY_ACTIONS[size])
    shade_now = shade(state) if state.config.shadow_rule else None
    # Plant
    if seat_state.available[SEED] and light >= PLANT_COST:
        free = ~(state.occupied() | activated | obstacles(state))
        for size in (1, 2, 3):
            sources = masks[base + size] & ~activated
            if shade_now is not None:
                sources &= ~shade_now[size]
            reach = WITHIN[size]
            for src in bits(sources):
                row = PLANT_ACTIONS[src]
                out.extend([row[dst] for dst in bits(reach[src] & free)])
    # Grow
    for size in (0, 1, 2):
        if seat_state.available[size + 1] and light >= grow_cost(state, seat, size + 1):
            spaces = masks[base + size] & ~activated
            if shade_now is not None:
                spaces &= ~shade_now[size]
            out.extend([GROW_ACTIONS[space] for space in bits(spaces)])
    # Collect
    if light >= COLLECT_COST:
        out.extend([COLLECT_ACTIONS[space] for space in bits(masks[base + LARGE] & ~activated)])
    return out


#: Extra generators of legal actions during play (the expansion registers its own).
PLAY_GENERATORS: list[Callable[[GameState], list[Action]]] = []
#: Generators of legal setup decisions by setup kind.
SETUP_GENERATORS: dict[str, Callable[[GameState], Iterator[Action]]] = {"tree": _legal_place}


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action for the current seat, once each (Cynthia: her one decision)."""
    if state.phase == OVER:
        return []
    if state.seats[state.current_seat].kind == CYNTHIA:
        return [cynthia.decide(state)[0]]
    if state.phase == SETUP:
        return list(SETUP_GENERATORS[setup_kind(state)](state))
    if state.ext is not None:
        return moonlight.legal_play(state)
    out = _legal_play(state)
    for gen in PLAY_GENERATORS:
        out.extend(gen(state))
    out.append(END)
    return out


def check(state: GameState, action: Action) -> str | None:
    """Why ``action`` is illegal for a human seat now, or None when it is legal."""
    if state.phase == OVER:
        return "The game is over."
    try:
        validate(action)
    except IllegalAction as e:
        return str(e)
    return _rule_check(state, action)


def _rule_check(state: GameState, action: Action) -> str | None:
    """``check`` for a well-formed action in a game still running."""
    rule = CHECKS.get(action.verb)
    if rule is None or (state.ext is None and action.verb in VERB_OWNERS):
        return not_in_game(action.verb)
    if state.ext is not None:
        return moonlight.check(state, action, rule)
    return rule(state, action)


def apply(state: GameState, action: Action | str) -> GameState:
    """The state after ``action`` (an Action or notation); ``state`` is never changed.

    Raises ``IllegalAction`` with a sentence saying why when the action is not legal.
    """
    action = parse_action(action)
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    seat = state.current_seat
    if state.seats[seat].kind == CYNTHIA:
        decision, decided = cynthia.decide(state)
        if action != decision:
            raise IllegalAction(
                f"Cynthia's cards decide her moves: she plays '{decision}', not '{action}'."
            )
        return cynthia.perform(state, decided, decision)
    reason = _rule_check(state, action)  # parse_action has checked it is well formed
    if reason is not None:
        raise IllegalAction(reason)
    if state.ext is not None:
        return moonlight.perform(state, action)
    return PERFORMERS[action.verb](state, action)


def perform_unchecked(state: GameState, action: Action) -> GameState:
    """Perform an action already known to be legal (the automa's own decisions)."""
    return PERFORMERS[action.verb](state, action)


def turn_id(state: GameState) -> str:
    """Identifies one turn: the same while one seat plays its turn, different after.

    In play a seat has one turn per round; each setup decision is a turn of its own; once the
    game is over it is ``"over"``. A short string, fit for a component id or a log.
    """
    if state.phase == OVER:
        return "over"
    if state.phase == SETUP:
        return f"setup:{state.setup_step}:{state.current_seat}"
    return f"play:{state.round}:{state.current_seat}"


def can_undo(action: Action | str) -> bool:
    """Whether a player may take ``action`` back within the turn: it reveals nothing hidden,
    draws nothing at random and involves no other seat (buy, plant, grow, collect, move)."""
    return parse_action(action).verb in UNDOABLE_VERBS


def auto_action(state: GameState) -> Action | None:
    """Cynthia's next decision when the current seat is a Cynthia, else None."""
    if state.phase == OVER or state.seats[state.current_seat].kind != CYNTHIA:
        return None
    return cynthia.decide(state)[0]


# The expansion's hooks above (``moonlight`` imports this module, so it comes last).
from . import moonlight  # noqa: E402
