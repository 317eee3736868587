"""The base core: the rules of the base game (docs/rules-data.md, sections 2-6).

It holds the base verbs (each verb's check, performer and generator together), the turn, the
round, photosynthesis, the end of the game, scores and winners; and the facade's entry points
``legal_actions``, ``check`` and ``apply``. It never names a rule layer: a game's layers
(``engine.layers``) are chosen once from its ``Config`` and reached only through the hooks of
``layers.Layer`` and the seats' ``layers.SeatRules``, so a base game knows only base verbs.

``apply`` performs everything that follows by itself: the end of the round, the sun's move, the
first-player token, photosynthesis, the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TypeVar, cast

from translation import Text, _, _n, forms, join

from .actions import (
    UNDOABLE,
    Action,
    IllegalAction,
    not_in_game,
    parse_action,
    reason_of,
    validate,
)
from .config import Config
from .geometry import BORDER_MASK, LABELS, LEAVES, N_CELLS, SUN_CORNER_NAMES, WITHIN, bits
from .layers import (
    NO_SHADE,
    Check,
    Generate,
    Layer,
    LegalPlay,
    Perform,
    SeatRules,
    Verb,
    layers_for,
    seat_rules_for,
)
from .light import light_from_masks, shade_masks, shadow_heights
from .pieces import (
    COLLECT_COST,
    LARGE,
    LIGHT_CAP,
    PLANT_COST,
    PLANT_RANGE,
    SEED,
    STORE_CAPACITY,
    buy_price,
)
from .rng import seed_state
from .state import OVER, PLAY, SETUP, GameState, SeatState, empty_piles

END = Action("end")
# The base game's actions, made once: legal_actions hands out these shared (immutable) objects.
BUY_ACTIONS = tuple(Action("buy", (size,)) for size in range(4))
PLANT_ACTIONS = tuple(
    tuple(Action("plant", (src, dst)) for dst in range(N_CELLS)) for src in range(N_CELLS)
)
GROW_ACTIONS = tuple(Action("grow", (space,)) for space in range(N_CELLS))
COLLECT_ACTIONS = tuple(Action("collect", (space,)) for space in range(N_CELLS))
PLACE_ACTIONS = tuple(Action("place", (space,)) for space in range(N_CELLS))
TREE_NAMES = (_("seed"), _("small tree"), _("medium tree"), _("large tree"))
#: The pieces with their article, said whole (French: "une graine", "un petit arbre").
A_TREE_NAMES = (_("a seed"), _("a small tree"), _("a medium tree"), _("a large tree"))
#: The pieces in the form a translation's template asks for with ``{piece:the}``
#: (`translation.forms`; Hebrew "העץ הקטן", "your small tree": "העץ הקטן שלך").
for _name, _the in zip(
    TREE_NAMES,
    (_("the seed"), _("the small tree"), _("the medium tree"), _("the large tree")),
    strict=True,
):
    forms(_name, the=_the)
ALREADY_USED = _("{space} was already used this turn (one action per space per turn).")


# -- a game's rules, chosen once from its Config ---------------------------------------------


def _overrides(layers: tuple[Layer, ...], hook: str) -> tuple[Layer, ...]:
    """The layers that override ``hook`` (the others do nothing there)."""
    return tuple(x for x in layers if getattr(type(x), hook) is not getattr(Layer, hook))


class GameRules:
    """Everything a game's ``Config`` fixes: its layers, seat rules, verbs and setup order.

    The verbs' checks and performers are composed with the layers' wrappers here, once.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.layers = layers_for(config)
        self.seats: tuple[SeatRules, ...] = seat_rules_for(config)
        # Per seat, looked up on hot paths: grow costs by target size, store or not, prices.
        self.grow_costs = tuple(
            (0, *(r.grow_cost(config, t) for t in (1, 2, 3))) for r in self.seats
        )
        self.has_store = tuple(r.has_store for r in self.seats)
        self.prices = tuple(
            buy_price if type(r).price is SeatRules.price else r.price for r in self.seats
        )
        self.hooks: dict[str, tuple[Layer, ...]] = {
            hook: _overrides(self.layers, hook)
            for hook in (
                "obstacles",
                "extra_trees",
                "extra_shade",
                "legal_play",
                "end_turn",
                "new_round",
                "photosynthesis",
                "end_game",
                "collect_leaves",
                "score_parts",
            )
        }
        self.obstacle_layers = self.hooks["obstacles"]
        self.legal_play_layers = self.hooks["legal_play"]
        self.shade_layers = self.hooks["extra_shade"]
        verbs = {v.name: v for v in BASE_VERBS}
        for layer in self.layers:
            verbs.update((v.name, v) for v in layer.verbs())
        self.verbs: dict[str, Verb] = verbs
        checks: dict[str, Check] = {}
        performs: dict[str, Perform] = {}
        for name, verb in verbs.items():
            check, perform = verb.check, verb.perform
            for layer in _overrides(self.layers, "check"):
                check = _wrap(layer.check, check)
            for layer in _overrides(self.layers, "perform"):
                perform = _wrap(layer.perform, perform)
            checks[name], performs[name] = check, perform
        self.checks: dict[str, Check] = checks
        self.performs: dict[str, Perform] = performs
        n = config.n_seats
        steps: tuple[tuple[int, str], ...] = ()
        for layer in self.layers:
            steps += layer.setup_steps(config)
        self.setup: tuple[tuple[int, str], ...] = steps + tuple(
            (k % n, "tree") for k in range(2 * n)
        )
        self.setup_verbs = {v.setup_kind: v for v in verbs.values() if v.setup_kind}
        self.legal_play = _play_chain(self)


_R = TypeVar("_R")


def _wrap(
    hook: Callable[[Callable[[GameState, Action], _R], GameState, Action], _R],
    inner: Callable[[GameState, Action], _R],
) -> Callable[[GameState, Action], _R]:
    """``hook(inner, state, action)`` as a function of ``(state, action)``."""
    return partial(hook, inner)


_RULES: dict[int, tuple[Config, GameRules]] = {}
_RULES_BY_VALUE: dict[Config, GameRules] = {}


def rules_for(config: Config) -> GameRules:
    """The rules of a game with ``config`` (built once per config)."""
    hit = _RULES.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    rules = _RULES_BY_VALUE.get(config)
    if rules is None:
        if len(_RULES_BY_VALUE) > 512:
            _RULES_BY_VALUE.clear()
        rules = _RULES_BY_VALUE[config] = GameRules(config)
    if len(_RULES) > 1024:
        _RULES.clear()
    _RULES[id(config)] = (config, rules)  # the reference keeps the id from being reused
    return rules


def _rules(state: GameState) -> GameRules:
    """The rules of ``state``'s game, kept on the state (``GameState.rules``) once looked up."""
    try:
        rules = state.rules
    except AttributeError:  # a state built slot by slot elsewhere (a search's own positions)
        rules = None
    if rules is None:
        rules = state.rules = rules_for(state.config)
    return rules


# -- new game ------------------------------------------------------------------------------


def new_game(config: Config, seed: int = 0) -> GameState:
    """The state at the first setup decision."""
    rules = rules_for(config)
    s = GameState.__new__(GameState)
    s.config = config
    s.rules = rules
    s.seed = seed
    s.rng = seed_state(seed)
    s.round = 0
    s.revolution = 1
    s.sun = 0
    s.first_seat = 0
    s.phase = SETUP
    s.setup_step = 0
    s.current_seat = rules.setup[0][0]
    s.cells = [-1] * N_CELLS
    s.masks = [0] * (4 * config.n_seats)
    s.activated = 0
    s.piles = empty_piles()
    if config.n_seats == 2:
        s.piles = (*s.piles[:4], ())  # the 4-leaf pile is not used with 2 seats
    s.seats = tuple(
        SeatState(kind, 0, 0, list(r.start_available), list(r.start_store), [0, 0, 0, 0])
        for kind, r in zip(config.seats, rules.seats, strict=True)
    )
    s.seat_ext = (None,) * config.n_seats
    s.ext = None
    s.events = ()
    for layer in rules.layers:
        layer.init(s)
    return s


# -- small rule helpers ---------------------------------------------------------------------


def obstacles(state: GameState) -> int:
    """Spaces holding a layer's obstacle (no seed or tree may go there)."""
    m = 0
    for layer in _rules(state).obstacle_layers:
        m |= layer.obstacles(state)
    return m


def obstacle_name(state: GameState, space: int) -> str:
    """What the obstacle on ``space`` is ("a moonstone"), for a refusal that says what is
    there."""
    for layer in _rules(state).obstacle_layers:
        if (name := layer.obstacle_name(state, space)) is not None:
            return name
    return _("an obstacle")


def extra_trees(state: GameState) -> int:
    """Obstacles that count as trees (to keep an automa's starting trees apart)."""
    m = 0
    for layer in _rules(state).hooks["extra_trees"]:
        m |= layer.extra_trees(state)
    return m


def extra_shade(state: GameState, sun: int) -> tuple[int, ...]:
    """Shade cast by the layers' pieces, per height."""
    layers = _rules(state).shade_layers
    if not layers:
        return NO_SHADE
    if len(layers) == 1:
        return layers[0].extra_shade(state, sun)
    out = [0, 0, 0, 0]
    for layer in layers:
        for h, m in enumerate(layer.extra_shade(state, sun)):
            out[h] |= m
    return tuple(out)


def shade(state: GameState, sun: int | None = None) -> tuple[int, int, int, int]:
    """``shade[h]``: spaces under a shadow of height >= h with the sun at ``sun``."""
    if sun is None:
        sun = state.sun
    extra = extra_shade(state, sun) if _rules(state).shade_layers else NO_SHADE
    return shade_masks(state.masks, len(state.seats), sun, extra)


def light_for_sun(state: GameState, sun: int) -> list[int]:
    """Light each seat would collect with the sun at ``sun`` on the current board (no cap)."""
    extra = extra_shade(state, sun) if _rules(state).shade_layers else NO_SHADE
    masks, n = state.masks, len(state.seats)
    return light_from_masks(masks, n, shade_masks(masks, n, sun, extra))


def shadow_map(state: GameState, sun: int | None = None) -> list[int]:
    """Per space, the height (0 none, 1..3) of the tallest shadow covering it.

    A layer's piece that shades every tree (the Great Elder Tree) counts as height 3.
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


def seat_rules(state: GameState, seat: int) -> SeatRules:
    """The rules of one seat (its grow costs, prices, store, automa)."""
    return _rules(state).seats[seat]


def grow_cost(state: GameState, seat: int, target: int) -> int:
    """Light points for ``seat`` to grow into ``target`` size (1/2/3 for a human seat)."""
    return _rules(state).grow_costs[seat][target]


def next_price(state: GameState, seat: int, size: int) -> int | None:
    """The price of the next purchase from a store column (None: empty, or no store)."""
    rules = _rules(state)
    if not rules.has_store[seat]:
        return None
    return rules.prices[seat](state.seats[seat].store[size], size)


def is_shadowed(
    state: GameState, space: int, size: int, shade_now: Sequence[int] | None = None
) -> bool:
    """Advanced shadow rule: a piece is shadowed by a shadow at least its size; a seed by any
    tree's shadow."""
    if shade_now is None:
        shade_now = shade(state)
    return bool(shade_now[size] >> space & 1)


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
        return _("no scoring token is left")
    points = state.piles[k][0]
    piles = list(state.piles)
    piles[k] = piles[k][1:]
    state.piles = tuple(piles)
    seat_state.tokens = (*seat_state.tokens, (k, points))
    return token_words(k, points)


def token_words(k: int, points: int) -> Text:
    """A collected token in words, "a 3-leaf token worth 16" (a count: French "un jeton à 1
    feuille", Hebrew "עלה אחד")."""
    return _n("a {n}-leaf token worth {points}", "a {n}-leaf token worth {points}", k,
              points=points)  # fmt: skip


# -- board edits (on a copied state) --------------------------------------------------------


def put_piece(s: GameState, seat: int, space: int, size: int) -> None:
    s.cells[space] = seat * 4 + size
    s.masks[seat * 4 + size] |= 1 << space


def remove_piece(s: GameState, space: int) -> tuple[int, int]:
    """Take the piece off ``space``; returns its ``(seat, size)``."""
    c = s.cells[space]
    s.cells[space] = -1
    s.masks[c] &= ~(1 << space)
    return c >> 2, c & 3


def set_seat(s: GameState, seat: int, seat_state: SeatState) -> None:
    seats = list(s.seats)
    seats[seat] = seat_state
    s.seats = tuple(seats)


def copy_seat(s: GameState, seat: int) -> SeatState:
    """A copy of the seat's state, already put in ``s`` (to change in place)."""
    seat_state = s.seats[seat].copy()
    set_seat(s, seat, seat_state)
    return seat_state


def return_piece(s: GameState, seat: int, seat_state: SeatState, size: int) -> None:
    """A piece leaves the board: to its store column, or out of the game when it is full.

    A seat without a store (seat rules) has it available again at once.
    """
    if not (s.rules or _rules(s)).has_store[seat]:
        seat_state.available[size] += 1
    elif seat_state.store[size] < STORE_CAPACITY[size]:
        seat_state.store[size] += 1
    else:
        seat_state.out[size] += 1


def gain_light(seat_state: SeatState, n: int) -> None:
    seat_state.light = min(LIGHT_CAP, seat_state.light + n)


def leaves_for_collect(s: GameState, seat: int, space: int) -> int:
    """The soil a collect scores from: the space's leaves (a layer may change it; ``s`` is the
    state being built)."""
    leaves = LEAVES[space]
    for layer in _rules(s).hooks["collect_leaves"]:
        leaves = layer.collect_leaves(s, seat, leaves)
    return leaves


def collect_tree(s: GameState, seat: int, space: int, cost: int) -> str:
    """Remove a large tree (state already copied), pay ``cost``, take a token; says which."""
    remove_piece(s, space)
    seat_state = copy_seat(s, seat)
    seat_state.light -= cost
    return_piece(s, seat, seat_state, LARGE)
    return take_token(s, seat_state, leaves_for_collect(s, seat, space))


# -- setup ----------------------------------------------------------------------------------


def setup_schedule(config: Config) -> tuple[tuple[int, str], ...]:
    """The setup decisions in order, as ``(seat, kind)``: the layers' own decisions first, then
    each seat in turn places a starting tree, then a second round in the same order."""
    return rules_for(config).setup


def setup_kind(state: GameState) -> str:
    return _rules(state).setup[state.setup_step][1]


def starting_tree_size(state: GameState) -> int:
    """The size of the starting tree the current seat places now (seat rules)."""
    seat = cast(int, state.current_seat)  # setup: a seat is to act
    schedule = _rules(state).setup
    placement = sum(
        1 for k in range(state.setup_step) if schedule[k] == (seat, "tree")
    )  # this seat's earlier placements
    return _rules(state).seats[seat].starting_tree_size(state.config, placement)


def advance_setup(s: GameState) -> GameState:
    """After a setup decision: the next decision, or the start of round 1."""
    s.setup_step += 1
    schedule = _rules(s).setup
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


def _check_place(state: GameState, a: Action) -> str | None:
    if state.phase != SETUP or setup_kind(state) != "tree":
        return _("Starting trees are placed only during setup.")
    space = a.args[0]
    if not BORDER_MASK >> space & 1:
        return _(
            "Starting trees go on the outer ring (1-leaf spaces); {space} is not on it.",
            space=LABELS[space],
        )
    if state.cells[space] >= 0 or obstacles(state) >> space & 1:
        return _("{space} is already taken.", space=LABELS[space])
    return None


def _legal_place(state: GameState) -> Iterator[Action]:
    free = BORDER_MASK & ~state.occupied() & ~obstacles(state)
    for space in bits(free):
        yield PLACE_ACTIONS[space]


def _do_place(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = cast(int, s.current_seat)
    size = starting_tree_size(state)
    put_piece(s, seat, a.args[0], size)
    copy_seat(s, seat).available[size] -= 1
    return advance_setup(s)


# -- the four actions -----------------------------------------------------------------------


def light_points(n: int) -> str:
    """``1 light point``, ``3 light points``."""
    return _n("{n} light point", "{n} light points", n)


def _not_playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        if setup_kind(state) == "tree":
            return _(
                "Setup comes first: place a small tree on an empty outer space, e.g. 'place A1'."
            )
        return _("Setup comes first.")
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
    seat = cast(int, state.current_seat)
    seat_state = state.seats[seat]
    rules = cast(GameRules, state.rules)  # the facade looked the rules up before any verb runs
    if not rules.has_store[seat]:
        return _("This seat has no player board: all its pieces are available, it never buys.")
    price = rules.prices[seat](seat_state.store[size], size)
    if price is None:
        return _("Your player board has no {piece} left to buy.", piece=TREE_NAMES[size])
    if price > seat_state.light:
        return _(
            "Buying {piece} costs {cost}; you have {light}.",
            piece=A_TREE_NAMES[size],
            cost=light_points(price),
            light=seat_state.light,
        )
    return None


def _do_buy(state: GameState, a: Action) -> GameState:
    size = a.args[0]
    s = state.copy()
    seat = cast(int, s.current_seat)
    seat_state = copy_seat(s, seat)
    price = cast(GameRules, s.rules).prices[seat](seat_state.store[size], size)  # checked
    seat_state.light -= cast(int, price)
    seat_state.store[size] -= 1
    seat_state.available[size] += 1
    return s


def _check_plant(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    src, dst = a.args
    seat = cast(int, state.current_seat)
    seat_state = state.seats[seat]
    size = _own_piece(state, seat, src)
    if size is None:
        return _("You have no tree on {src} to plant from.", src=LABELS[src])
    if size == SEED:
        return _("The seed on {src} cannot plant: only trees spread seeds.", src=LABELS[src])
    if state.activated >> src & 1:
        return ALREADY_USED.format(space=LABELS[src])
    if state.cells[dst] >= 0:
        return _("{dst} is not empty.", dst=LABELS[dst])
    if obstacles(state) >> dst & 1:  # what is there, not "not empty"
        return _(
            "{dst} holds {obstacle}: nothing can be planted there.",
            dst=LABELS[dst],
            obstacle=obstacle_name(state, dst),
        )
    if state.activated >> dst & 1:
        return ALREADY_USED.format(space=LABELS[dst])
    if not WITHIN[PLANT_RANGE[size]][src] >> dst & 1:
        reach = PLANT_RANGE[size]
        return _n(
            "{dst} is out of reach: your {piece} on {src} plants up to {n} space away.",
            "{dst} is out of reach: your {piece} on {src} plants up to {n} spaces away.",
            reach,
            dst=LABELS[dst],
            piece=TREE_NAMES[size],
            src=LABELS[src],
        )
    if seat_state.light < PLANT_COST:  # what it costs first: buying the seed costs light too
        return _(
            "Planting costs {cost}; you have {light}.",
            cost=light_points(PLANT_COST),
            light=seat_state.light,
        )
    if seat_state.available[SEED] == 0:
        return _("You have no seed available: buy one first.")
    if state.config.shadow_rule and is_shadowed(state, src, size):
        return _(
            "Shadow rule: your {piece} on {src} is in shadow and cannot plant.",
            piece=TREE_NAMES[size],
            src=LABELS[src],
        )
    return None


def _do_plant(state: GameState, a: Action) -> GameState:
    src, dst = a.args
    s = state.copy()
    seat = cast(int, s.current_seat)
    seat_state = copy_seat(s, seat)
    seat_state.light -= PLANT_COST
    seat_state.available[SEED] -= 1
    put_piece(s, seat, dst, SEED)
    s.activated |= (1 << src) | (1 << dst)
    return s


def _check_grow(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    space = a.args[0]
    seat = cast(int, state.current_seat)
    seat_state = state.seats[seat]
    size = _own_piece(state, seat, space)
    if size is None:
        return _("You have nothing on {space} to grow.", space=LABELS[space])
    if size == LARGE:
        return _(
            "The large tree on {space} is fully grown: collect it instead.", space=LABELS[space]
        )
    if state.activated >> space & 1:
        return ALREADY_USED.format(space=LABELS[space])
    cost = cast(GameRules, state.rules).grow_costs[seat][size + 1]  # looked up by the facade
    if seat_state.light < cost:  # what it costs first: buying the piece costs light too
        return _(
            "Growing into a {piece} costs {cost}; you have {light}.",
            piece=TREE_NAMES[size + 1],
            cost=light_points(cost),
            light=seat_state.light,
        )
    if seat_state.available[size + 1] == 0:
        return _("You have no {piece} available: buy one first.", piece=TREE_NAMES[size + 1])
    if state.config.shadow_rule and is_shadowed(state, space, size):
        return _(
            "Shadow rule: your {piece} on {space} is in shadow and cannot grow.",
            piece=TREE_NAMES[size],
            space=LABELS[space],
        )
    return None


def _do_grow(state: GameState, a: Action) -> GameState:
    space = a.args[0]
    s = state.copy()
    seat = cast(int, s.current_seat)
    _seat, size = remove_piece(s, space)
    put_piece(s, seat, space, size + 1)
    seat_state = copy_seat(s, seat)
    seat_state.light -= cast(GameRules, s.rules).grow_costs[seat][size + 1]  # apply looked them up
    seat_state.available[size + 1] -= 1
    return_piece(s, seat, seat_state, size)
    s.activated |= 1 << space
    return s


def _check_collect(state: GameState, a: Action) -> str | None:
    if reason := _not_playing(state):
        return reason
    space = a.args[0]
    seat = cast(int, state.current_seat)
    size = _own_piece(state, seat, space)
    if size != LARGE:
        return _("You have no large tree on {space} to collect.", space=LABELS[space])
    if state.activated >> space & 1:
        return ALREADY_USED.format(space=LABELS[space])
    light = state.seats[seat].light
    if light < COLLECT_COST:
        return _(
            "Collecting costs {cost}; you have {light}.",
            cost=light_points(COLLECT_COST),
            light=light,
        )
    return None


def _do_collect(state: GameState, a: Action) -> GameState:
    space = a.args[0]
    s = state.copy()
    collect_tree(s, cast(int, s.current_seat), space, COLLECT_COST)
    s.activated |= 1 << space
    return s


def _check_end(state: GameState, a: Action) -> str | None:
    return _not_playing(state)


def _do_end(state: GameState, a: Action) -> GameState:
    s = state.copy()
    end_turn(s)
    return s


BASE_VERBS = (
    Verb("place", _check_place, _do_place, _legal_place, setup_kind="tree"),
    Verb("buy", _check_buy, _do_buy, undoable=True),
    Verb("plant", _check_plant, _do_plant, undoable=True),
    Verb("grow", _check_grow, _do_grow, undoable=True),
    Verb("collect", _check_collect, _do_collect, undoable=True),
    Verb("end", _check_end, _do_end),
)
UNDOABLE.update(v.name for v in BASE_VERBS if v.undoable)


# -- turn, round, game end ------------------------------------------------------------------


def end_turn(s: GameState) -> None:
    """End the current seat's turn (state already copied); runs the end of round when due."""
    rules = s.rules or _rules(s)
    s.activated = 0
    for layer in rules.hooks["end_turn"]:
        layer.end_turn(s)
    n = len(s.seats)
    nxt = (cast(int, s.current_seat) + 1) % n
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
    for layer in rules.hooks["new_round"]:
        layer.new_round(s)
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
    parts = join([_("seat {seat} +{gain}", seat=i + 1, gain=g) for i, g in enumerate(gains)], ", ")
    s.events = (
        *s.events,
        _(
            "Round {round}, sun at the {corner} corner: photosynthesis {parts}.",
            round=s.round,
            corner=SUN_CORNER_NAMES[s.sun],
            parts=parts,
        ),
    )
    for layer in _rules(s).hooks["photosynthesis"]:
        layer.photosynthesis(s)


def _end_game(s: GameState) -> None:
    for layer in _rules(s).hooks["end_game"]:
        layer.end_game(s)
    s.phase = OVER
    s.current_seat = None
    s.events = (*s.events, _("The game is over."))


# -- scoring --------------------------------------------------------------------------------


def score_parts(state: GameState, seat: int) -> dict[str, int]:
    """The parts of a seat's final score: tokens, light (1 per 3), and the layers' parts."""
    seat_state = state.seats[seat]
    parts = {
        "tokens": sum(points for _leaves, points in seat_state.tokens),
        "light": seat_state.light // 3,
    }
    for layer in _rules(state).hooks["score_parts"]:
        layer.score_parts(state, seat, parts)
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


# -- the facade: legal actions, check and apply ---------------------------------------------


def base_legal_play(state: GameState, game_rules: GameRules | None = None) -> list[Action]:
    """The legal buy, plant, grow and collect actions of the current seat (no layer)."""
    if game_rules is None:
        game_rules = _rules(state)
    seat = cast(int, state.current_seat)  # play: a seat is to act
    seat_state = state.seats[seat]
    light = seat_state.light
    base = seat * 4
    masks = state.masks
    activated = state.activated
    out: list[Action] = []
    # Buy
    if game_rules.has_store[seat]:
        price_of = game_rules.prices[seat]
        store = seat_state.store
        for size in range(4):
            price = price_of(store[size], size)
            if price is not None and price <= light:
                out.append(BUY_ACTIONS[size])
    shade_now = shade(state) if state.config.shadow_rule else None
    # Plant
    if seat_state.available[SEED] and light >= PLANT_COST:
        blocked = state.occupied() | activated
        for layer in game_rules.obstacle_layers:
            blocked |= layer.obstacles(state)
        free = ~blocked
        for size in (1, 2, 3):
            sources = masks[base + size] & ~activated
            if shade_now is not None:
                sources &= ~shade_now[size]
            reach = WITHIN[size]
            for src in bits(sources):
                row = PLANT_ACTIONS[src]
                out.extend([row[dst] for dst in bits(reach[src] & free)])
    # Grow
    costs = game_rules.grow_costs[seat]
    available = seat_state.available
    for size in (0, 1, 2):
        if available[size + 1] and light >= costs[size + 1]:
            spaces = masks[base + size] & ~activated
            if shade_now is not None:
                spaces &= ~shade_now[size]
            out.extend([GROW_ACTIONS[space] for space in bits(spaces)])
    # Collect
    if light >= COLLECT_COST:
        out.extend([COLLECT_ACTIONS[space] for space in bits(masks[base + LARGE] & ~activated)])
    return out


def _play_chain(rules: GameRules) -> Callable[[GameState], list[Action]]:
    """The legal play-phase actions but ``end`` as one function: the base game's, then each
    layer's ``legal_play`` on top (built once per game's rules)."""

    def base(state: GameState) -> list[Action]:
        return base_legal_play(state, rules)

    chain = base
    for layer in rules.legal_play_layers:

        def chain(state: GameState, layer: Layer = layer, below: LegalPlay = chain) -> list[Action]:
            return layer.legal_play(state, below(state), below)

    return chain


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action for the current seat, once each (an automa seat: its one decision)."""
    if state.phase == OVER:
        return []
    rules = _rules(state)
    seat_rule = rules.seats[cast(int, state.current_seat)]  # not over: a seat is to act
    if seat_rule.automa:
        return [seat_rule.decide(state)[0]]
    if state.phase == SETUP:
        kind = rules.setup[state.setup_step][1]
        generate = cast(Generate, rules.setup_verbs[kind].generate)  # a setup verb has one
        return list(generate(state))
    out = rules.legal_play(state) if rules.legal_play_layers else base_legal_play(state, rules)
    out.append(END)
    return out


def check(state: GameState, action: Action) -> str | None:
    """Why ``action`` is illegal for a player's seat now, or None when it is legal."""
    if state.phase == OVER:
        return _("The game is over.")
    try:
        validate(action)
    except IllegalAction as e:
        return reason_of(e)
    return _rule_check(state, action)


def _rule_check(state: GameState, action: Action) -> str | None:
    """``check`` for a well-formed action in a game still running."""
    rule = _rules(state).checks.get(action.verb)
    if rule is None:
        return not_in_game(action.verb)
    return rule(state, action)


def apply(state: GameState, action: Action | str) -> GameState:
    """The state after ``action`` (an Action or notation); ``state`` is never changed.

    Raises ``IllegalAction`` with a sentence saying why when the action is not legal.
    """
    action = parse_action(action)
    if state.phase == OVER:
        raise IllegalAction(_("The game is over."))
    rules = _rules(state)
    rule = rules.checks.get(action.verb)
    if rule is None:
        raise IllegalAction(not_in_game(action.verb))
    seat_rule = rules.seats[cast(int, state.current_seat)]  # not over: a seat is to act
    if seat_rule.automa:
        decision, decided = seat_rule.decide(state)
        if action != decision:
            raise IllegalAction(seat_rule.refusal(decision, action))
        return seat_rule.perform(state, decided, decision)
    reason = rule(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    return rules.performs[action.verb](state, action)


def perform_unchecked(state: GameState, action: Action) -> GameState:
    """Perform an action already known to be legal (an automa's own decisions)."""
    return _rules(state).performs[action.verb](state, action)


def auto_action(state: GameState) -> Action | None:
    """The next decision when the current seat is an automa (Cynthia), else None."""
    if state.phase == OVER:
        return None
    seat_rule = _rules(state).seats[cast(int, state.current_seat)]  # not over: one is to act
    if not seat_rule.automa:
        return None
    return seat_rule.decide(state)[0]


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
    return parse_action(action).verb in UNDOABLE
