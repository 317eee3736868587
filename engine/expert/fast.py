"""A fast mutable position for search (issue 18): the base game's rules on a compact state.

``FastGame`` holds a position as a few flat lists and ints. ``copy`` is cheap, ``legal`` lists the
legal actions as small int codes (in the facade's order) and ``make`` performs one in place, with
everything that follows by itself (end of round, photosynthesis, end of game). It plays the base
game for human seats itself; a Cynthia decision, and a game end where Cynthias collect, go through
the facade (``engine.apply``), so her cards are followed exactly. Expansion games are not played
here: search falls back to the facade for them.

``from_state`` / ``to_state`` convert to and from ``GameState``; the differential tests check that
``legal`` and ``make`` agree with ``engine.legal_actions`` and ``engine.apply`` on random games.

Action codes: ``0`` end, ``1 + size`` buy, ``8 + space`` place, ``64 + space`` grow,
``128 + space`` collect, ``256 + 64 * src + dst`` plant.

Speed (issue 18, ``bench/engine_bench.py --bge``): buys come from one table indexed by light and
the store as one number; a seat's plants are kept (``_part``) until the board, the activated
spaces or the seat change, so a buy does not recompute them; grow, collect, place and plant codes
come from bounded memos keyed by masks (pure functions of the key, filled as positions are met);
shadows are unions of per-byte tables; ``make`` tests for a buy and an end first (four decisions in
five); ``FastGame.new`` starts a human-only game without building the facade's state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from operator import add
from typing import Any, cast

from translation import Text, _

from ..actions import Action
from ..config import CYNTHIA, Config
from ..cynthia import LATE, Deck, cards
from ..game import apply, auto_action, new_game
from ..geometry import ALL_MASK, BORDER_MASK, LEAVES, N_CELLS, SUN_CORNER_NAMES, WITHIN
from ..light import SHADOW_MASK
from ..pieces import LIGHT_CAP, PILES, PRICES, SIZE_NAMES, SMALL, STORE_CAPACITY
from ..rng import seed_state, shuffled
from ..state import OVER, PLAY, SETUP, GameState, Phase, SeatState
from .eval import fast_own_value, opening_value, position_margin
from .search import FAST_PATH

END_CODE = 0
BUY_CODE = 1
PLACE_CODE = 8
GROW_CODE = 64
COLLECT_CODE = 128
PLANT_CODE = 256
N_CODES = PLANT_CODE + 64 * N_CELLS

_PHASE = {SETUP: 0, PLAY: 1, OVER: 2}
#: The ``GameState`` slot holding each seat's Cynthia deck (None for a human seat).
DECKS_SLOT = "seat_ext" if "seat_ext" in GameState.__slots__ else "cynthia"
_PHASE_NAME: tuple[Phase, ...] = (SETUP, PLAY, OVER)


def _bit_table(offset: int, code: int = 0) -> tuple[tuple[int, ...], ...]:
    """Per 13-bit chunk value: the set bits' spaces (plus ``code``), the chunk starting at
    ``offset``."""
    table: list[tuple[int, ...]] = [()]
    for m in range(1, 1 << 13):
        low = m & -m
        i = offset + low.bit_length() - 1
        rest = table[m ^ low]
        table.append(((code + i,) + rest) if i < N_CELLS else rest)
    return tuple(table)


_B0, _B1, _B2 = _bit_table(0), _bit_table(13), _bit_table(26)


def bitlist(m: int) -> tuple[int, ...]:
    """The set bits of a board mask, ascending (three table lookups)."""
    return _B0[m & 8191] + _B1[(m >> 13) & 8191] + _B2[m >> 26]


def _make_actions() -> tuple[Action | None, ...]:
    table: list[Action | None] = [None] * N_CODES
    table[END_CODE] = Action("end")
    for size in range(4):
        table[BUY_CODE + size] = Action("buy", (size,))
    for i in range(N_CELLS):
        table[PLACE_CODE + i] = Action("place", (i,))
        table[GROW_CODE + i] = Action("grow", (i,))
        table[COLLECT_CODE + i] = Action("collect", (i,))
        for j in range(N_CELLS):
            table[PLANT_CODE + 64 * i + j] = Action("plant", (i, j))
    return tuple(table)


#: ``ACTIONS[code]``: the facade's ``Action`` for an action code.
ACTIONS = _make_actions()
CODES: dict[Action, int] = {a: c for c, a in enumerate(ACTIONS) if a is not None}

#: Buy price per size and pieces left in the store column (index = pieces left).
_PRICE = tuple(
    tuple(None if left == 0 else PRICES[size][STORE_CAPACITY[size] - left] for left in range(5))
    for size in range(4)
)


class _Memo(dict[int, tuple[int, ...]]):
    """A dict that fills itself: ``memo[key]`` is ``compute(key)``, kept once computed (all
    forgotten at once when ``limit`` keys are held, so memory stays bounded)."""

    __slots__ = ("compute", "limit")

    def __init__(self, compute: Callable[[int], tuple[int, ...]], limit: int) -> None:
        super().__init__()
        self.compute = compute
        self.limit = limit

    def __missing__(self, key: int) -> tuple[int, ...]:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.compute(key)
        return value


#: ``_GROWS[mask]`` / ``_COLLECTS[mask]`` / ``_PLACES[mask]``: the codes for the mask's spaces.
_GROWS = _Memo(lambda m: tuple(map(GROW_CODE.__add__, bitlist(m))), 1 << 16)
_COLLECTS = _Memo(lambda m: tuple(map(COLLECT_CODE.__add__, bitlist(m))), 1 << 14)
_PLACES = _Memo(lambda m: tuple(map(PLACE_CODE.__add__, bitlist(m))), 1 << 14)
#: ``_PLANTS[src << 37 | targets]``: the plant codes from ``src`` to each target, ascending.
_PLANTS = _Memo(
    lambda key: tuple(map((PLANT_CODE + 64 * (key >> 37)).__add__, bitlist(key & ALL_MASK))),
    200_000,
)


#: ``_PLANT_KEYSn[mask]``: per tree of size n in the mask in the mask, ``src << 37 | reach``; ``&``
#: with the free spaces (a negative number: every bit above the board is set) it gives the
#: tree's ``_PLANTS`` key.
def _plant_keys(reach: Sequence[int]) -> _Memo:
    return _Memo(lambda m: tuple(src << 37 | reach[src] for src in bitlist(m)), 1 << 16)


_PLANT_KEYS1, _PLANT_KEYS2, _PLANT_KEYS3 = map(_plant_keys, (WITHIN[1], WITHIN[2], WITHIN[3]))

#: ``_BIT[i]`` is ``1 << i`` and ``_CLEAR[i]`` its complement (shared numbers, none made anew).
_BIT = tuple(1 << i for i in range(64))
_CLEAR = tuple(~(1 << i) for i in range(64))
#: The first index of each seat's four entries in the flat lists, per number of seats.
_SEAT_BASES = tuple(tuple(range(0, 4 * n, 4)) for n in range(5))
#: ``_NEXT_SEAT[n][seat]``: the seat after ``seat`` in an ``n``-seat game.
_NEXT_SEAT = tuple(tuple((seat + 1) % n for seat in range(n)) if n else () for n in range(5))
#: The light cap, once per seat.
_CAPS = (LIGHT_CAP,) * 4

_PILE_LEN = (0,) + tuple(len(PILES[k]) for k in (1, 2, 3, 4))
_ALL_PILES = ((),) + tuple(PILES[k] for k in (1, 2, 3, 4))

#: A seat's store as one number, ``s0 + 5 s1 + 25 s2 + 125 s3`` (``sN``: the pieces left in its
#: column of size N), and the weight of each size (by buy code).
_STORE_WEIGHT = (1, 5, 25, 125)
_STORE_WEIGHT_BY_CODE = (0, *_STORE_WEIGHT)
#: ``_PRICE_BY_CODE[code][left]``: the price of a buy with ``left`` pieces in the column (None
#: where no buy is legal, never read: typed as prices for the buy's hot path).
_PRICE_BY_CODE = cast("tuple[tuple[int, ...], ...]", (None, *_PRICE))


def _store_key(store: list[int], b: int) -> int:
    return store[b] + 5 * store[b + 1] + 25 * store[b + 2] + 125 * store[b + 3]


def _affordable(light: int, key: int) -> tuple[int, ...]:
    left = (key % 5, key // 5 % 5, key // 25 % 5, key // 125)
    return tuple(
        BUY_CODE + size
        for size in range(4)
        if 0 < left[size] <= STORE_CAPACITY[size]
        and PRICES[size][STORE_CAPACITY[size] - left[size]] <= light
    )


#: ``_BUYS[light][store key]``: the buy codes a seat with that light and store can afford.
_BUYS = tuple(
    tuple(_affordable(light, key) for key in range(625)) for light in range(LIGHT_CAP + 1)
)


def _shadow_chunks(sun: int, size: int) -> tuple[tuple[int, ...], ...]:
    """Per byte of a mask of trees of ``size``: the union of their shadows under ``sun``
    (``chunks[c][byte]`` for the trees on spaces ``8c .. 8c + 7``)."""
    table = SHADOW_MASK[sun]
    chunks: list[tuple[int, ...]] = []
    for c in range(0, N_CELLS, 8):
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v
            i = c + low.bit_length() - 1
            row[v] = row[v ^ low] | (table[i][size] if i < N_CELLS else 0)
        chunks.append(tuple(row))
    return tuple(chunks)


#: ``_SHADE[sun][size]``: ``_shadow_chunks`` (size 0 empty: seeds cast no shadow).
_SHADE: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    ((),) + tuple(_shadow_chunks(sun, size) for size in (1, 2, 3)) for sun in range(6)
)


def _shadow(chunks: tuple[tuple[int, ...], ...], m: int) -> int:
    """The union of the shadows of the trees in mask ``m`` (one size, one sun)."""
    c0, c1, c2, c3, c4 = chunks
    return c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255] | c4[m >> 32]


def _photosynthesis_event(round_: int, sun: int, gains: list[int]) -> str:
    """The facade's game-log line for a photosynthesis."""
    parts = ", ".join(f"seat {i + 1} +{g}" for i, g in enumerate(gains))
    return f"Round {round_}, sun at the {SUN_CORNER_NAMES[sun]} corner: photosynthesis {parts}."


#: ``FastGame.new``'s start position per rule set (False: the facade's ``new_game`` is needed).
_STARTS: dict[Config, FastGame | bool] = {}


def code_of(action: Action) -> int:
    """The code of a base action."""
    return CODES[action]


class FastGame:
    """A mutable position of a base game (see the module docstring).

    Besides the position it keeps ``occ`` (every piece on the board, one mask) and ``_part``
    (the current seat's plants, grows and collects before the light and piece checks, kept until
    the board, the activated spaces or the seat change): code that edits the lists directly
    instead of through ``make`` must set ``occ`` and clear ``_part`` itself.
    """

    __slots__ = (
        "config",
        "seed",
        "rng",
        "n",
        "cyn",
        "round",
        "revolution",
        "sun",
        "first",
        "cur",
        "phase",
        "setup_step",
        "cells",
        "masks",
        "activated",
        "taken",
        "light",
        "lunar",
        "avail",
        "store",
        "out",
        "tokens",
        "decks",
        "events",
        "_template",
        "occ",
        "shadow_rule",
        "last_round",
        "skey",
        "_auto",
        "_after",
        "_part",
    )
    config: Config
    seed: int
    rng: int
    n: int
    cyn: tuple[bool, ...]
    round: int
    revolution: int
    sun: int
    first: int
    cur: int
    phase: int
    setup_step: int
    cells: list[int]
    masks: list[int]
    activated: int
    taken: list[int]
    light: list[int]
    lunar: tuple[int, ...]
    avail: list[int]
    store: list[int]
    out: list[int]
    tokens: list[tuple[tuple[int, int], ...]]
    decks: tuple[Deck | None, ...]
    events: tuple[Any, ...]
    _template: GameState | None
    occ: int
    shadow_rule: bool
    last_round: int
    skey: list[int]
    _auto: tuple[bool, ...]
    _after: tuple[int, GameState] | None
    _part: list[int] | None

    # -- conversion ----------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: GameState) -> FastGame:
        if state.ext is not None:
            raise ValueError("The fast path plays the base game only.")
        g = cls.__new__(cls)
        g.config = state.config
        g.seed = state.seed
        g.rng = state.rng
        g.n = len(state.seats)
        g.cyn = tuple(s.kind == CYNTHIA for s in state.seats)
        g.round = state.round
        g.revolution = state.revolution
        g.sun = state.sun
        g.first = state.first_seat
        g.cur = -1 if state.current_seat is None else state.current_seat
        g.phase = _PHASE[state.phase]
        g.setup_step = state.setup_step
        g.cells = list(state.cells)
        g.masks = list(state.masks)
        g.activated = state.activated
        g.taken = [0] + [_PILE_LEN[k] - len(state.piles[k]) for k in (1, 2, 3, 4)]
        g.light = [s.light for s in state.seats]
        g.lunar = tuple(s.lunar for s in state.seats)
        g.avail = [x for s in state.seats for x in s.available]
        g.store = [x for s in state.seats for x in s.store]
        g.out = [x for s in state.seats for x in s.out]
        g.tokens = [tuple(s.tokens) for s in state.seats]
        g.decks = getattr(state, DECKS_SLOT)
        g.events = state.events
        g._template = state
        occ = 0
        for x in g.masks:
            occ |= x
        g.occ = occ
        g.shadow_rule = state.config.shadow_rule
        g.last_round = state.config.last_round
        g.skey = [_store_key(g.store, b) for b in range(0, 4 * g.n, 4)]
        g._auto = g.cyn if g.phase == 1 and not g.shadow_rule else (True,) * g.n
        g._after = None
        g._part = None
        return g

    @classmethod
    def new(cls, config: Config, seed: int = 0) -> FastGame:
        """The first setup decision of a new game: ``from_state(engine.new_game(config, seed))``,
        without building the facade's state when no seat is a Cynthia (no deal, no shuffle: the
        start differs from one seed to another only by the seed and the RNG)."""
        start = _STARTS.get(config)
        if start is None:
            state = new_game(config, 0)
            start = cls.from_state(state)
            if any(start.cyn) or state.rng != seed_state(0):
                start = False
            if len(_STARTS) >= 64:
                _STARTS.clear()
            _STARTS[config] = start
        if not isinstance(start, FastGame):
            return cls.from_state(new_game(config, seed))
        g = start.copy()
        g.seed = seed
        g.rng = seed_state(seed)
        g._template = None  # made when first needed, by ``template``
        return g

    @property
    def template(self) -> GameState:
        """The state this position came from (for what the fast path does not hold)."""
        if self._template is None:
            self._template = new_game(self.config, self.seed)
        return self._template

    def to_state(self) -> GameState:
        """The position as a ``GameState`` (what the fast path does not hold, such as the
        game's rules, comes from the state it was made from)."""
        s = self.template.copy()
        s.rng = self.rng
        s.round = self.round
        s.revolution = self.revolution
        s.sun = self.sun
        s.first_seat = self.first
        s.current_seat = None if self.cur < 0 else self.cur
        s.phase = _PHASE_NAME[self.phase]
        s.setup_step = self.setup_step
        s.cells = self.cells[:]
        s.masks = self.masks[:]
        s.activated = self.activated
        s.piles = tuple(_ALL_PILES[k][self.taken[k] :] for k in range(5))
        s.seats = tuple(
            SeatState(
                self.config.seats[i],
                self.light[i],
                self.lunar[i],
                self.avail[4 * i : 4 * i + 4],
                self.store[4 * i : 4 * i + 4],
                self.out[4 * i : 4 * i + 4],
                self.tokens[i],
            )
            for i in range(self.n)
        )
        setattr(s, DECKS_SLOT, self.decks)
        s.events = tuple(
            e if isinstance(e, str) else _photosynthesis_event(*e) for e in self.events
        )
        return s

    def copy(self) -> FastGame:
        g = FastGame.__new__(FastGame)
        g.config = self.config
        g.seed = self.seed
        g.rng = self.rng
        g.n = self.n
        g.cyn = self.cyn
        g.round = self.round
        g.revolution = self.revolution
        g.sun = self.sun
        g.first = self.first
        g.cur = self.cur
        g.phase = self.phase
        g.setup_step = self.setup_step
        g.cells = self.cells[:]
        g.masks = self.masks[:]
        g.activated = self.activated
        g.taken = self.taken[:]
        g.light = self.light[:]
        g.lunar = self.lunar
        g.avail = self.avail[:]
        g.store = self.store[:]
        g.out = self.out[:]
        g.tokens = self.tokens[:]
        g.decks = self.decks
        g.events = self.events
        g._template = self._template
        g.occ = self.occ
        g.shadow_rule = self.shadow_rule
        g.last_round = self.last_round
        g.skey = self.skey[:]
        g._auto = self._auto
        g._after = None
        g._part = self._part  # immutable tuples: shared until either side changes the board
        return g

    # -- reading -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == 2

    def occupied(self) -> int:
        return self.occ

    def _size_masks(self) -> tuple[int, int, int]:
        """Every seat's small, medium and large trees (three masks; the seats' are disjoint)."""
        masks = self.masks
        return sum(masks[1::4]), sum(masks[2::4]), sum(masks[3::4])

    def shade(self, sun: int) -> tuple[int, int, int, int]:
        """``shade[h]`` as in ``engine.light.shade_masks`` (no obstacles in the base game)."""
        masks = self.masks
        _, t1, t2, t3 = _SHADE[sun]
        m = sum(masks[3::4])
        c0, c1, c2, c3, c4 = t3
        s3 = c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255] | c4[m >> 32]
        m = sum(masks[2::4])
        c0, c1, c2, c3, c4 = t2
        s2 = (
            c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255] | c4[m >> 32]
        ) | s3
        m = sum(masks[1::4])
        c0, c1, c2, c3, c4 = t1
        trees = (
            c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255] | c4[m >> 32]
        ) | s2
        return (trees, trees, s2, s3)

    def light_for_suns(self, suns: list[int]) -> list[list[int]]:
        """``light_for_sun`` for several sun positions, collecting the trees once."""
        m1, m2, m3 = self._size_masks()
        masks = self.masks
        seats = range(0, 4 * self.n, 4)
        out = []
        for sun in suns:
            _, t1, t2, t3 = _SHADE[sun]
            s3 = _shadow(t3, m3)
            s2 = _shadow(t2, m2) | s3
            s1 = _shadow(t1, m1) | s2
            out.append(
                [
                    (masks[b + 1] & ~s1).bit_count()
                    + 2 * (masks[b + 2] & ~s2).bit_count()
                    + 3 * (masks[b + 3] & ~s3).bit_count()
                    for b in seats
                ]
            )
        return out

    def light_for_sun(self, sun: int) -> list[int]:
        """The light each seat's trees collect with the sun at ``sun`` (no cap applied)."""
        masks = self.masks
        _, t1, t2, t3 = _SHADE[sun]
        m = sum(masks[3::4])
        c0, c1, c2, c3, c4 = t3
        s3 = c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255] | c4[m >> 32]
        m = sum(masks[2::4])
        c0, c1, c2, c3, c4 = t2
        s2 = s3 | c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255]
        s2 |= c4[m >> 32]
        m = sum(masks[1::4])
        c0, c1, c2, c3, c4 = t1
        s1 = s2 | c0[m & 255] | c1[m >> 8 & 255] | c2[m >> 16 & 255] | c3[m >> 24 & 255]
        s1 |= c4[m >> 32]
        lit1, lit2, lit3 = ~s1, ~s2, ~s3
        return [
            (masks[b + 1] & lit1).bit_count()
            + 2 * (masks[b + 2] & lit2).bit_count()
            + 3 * (masks[b + 3] & lit3).bit_count()
            for b in _SEAT_BASES[self.n]
        ]

    def pile_top(self, leaves: int) -> int:
        """Points of the token a collect on ``leaves`` soil would take now (0: none left)."""
        taken = self.taken
        for k in range(leaves, 0, -1):
            t = taken[k]
            if t < _PILE_LEN[k]:
                return _ALL_PILES[k][t]
        return 0

    def token_points(self, seat: int) -> int:
        return sum(p for _, p in self.tokens[seat])

    # -- legal actions -------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The legal action codes, in the order of ``engine.legal_actions``."""
        seat = self.cur
        if self._auto[seat]:  # setup, the end, a Cynthia, or the shadow rule
            return self._legal_other()
        light = self.light[seat]
        if not light:
            return [END_CODE]  # every price is at least 1
        out = [*_BUYS[light][self.skey[seat]]]
        b = 4 * seat
        avail = self.avail
        masks = self.masks
        free = ~self.activated  # not yet acted on
        if avail[b]:
            plants = self._part
            if plants is None:  # as ``_plants(b, 0)``, inline
                empty = free & ~self.occ
                plants = []
                table = _PLANTS
                if m := masks[b + 1] & free:
                    for key in _PLANT_KEYS1[m]:
                        plants += table[key & empty]
                if m := masks[b + 2] & free:
                    for key in _PLANT_KEYS2[m]:
                        plants += table[key & empty]
                if m := masks[b + 3] & free:
                    for key in _PLANT_KEYS3[m]:
                        plants += table[key & empty]
                self._part = plants
            out += plants
        if avail[b + 1] and (m := masks[b] & free):
            out += _GROWS[m]
        if light > 1:
            if avail[b + 2] and (m := masks[b + 1] & free):
                out += _GROWS[m]
            if light > 2:
                if avail[b + 3] and (m := masks[b + 2] & free):
                    out += _GROWS[m]
                if light > 3 and (m := masks[b + 3] & free):
                    out += _COLLECTS[m]
        out.append(END_CODE)
        return out

    def _legal_shadow_rule(self, seat: int, light: int) -> list[int]:
        """``legal`` under the advanced shadow rule: nothing grows or plants from a shadow."""
        out = [*_BUYS[light][self.skey[seat]]]
        b = 4 * seat
        shade = self.shade(self.sun)
        avail = self.avail
        if avail[b]:
            plants = self._part
            if plants is None:
                plants = self._part = self._plants(b, shade)
            out += plants
        act = self.activated
        masks = self.masks
        for size in (0, 1, 2):
            if avail[b + size + 1] and light > size:
                m = masks[b + size] & ~act & ~shade[size]
                if m:
                    out += _GROWS[m]
        if light > 3:
            m = masks[b + 3] & ~act
            if m:
                out += _COLLECTS[m]
        out.append(END_CODE)
        return out

    def _plants(self, b: int, shade: tuple[int, int, int, int] | int) -> list[int]:
        """The seat's plant codes (as if it had a seed and light), by the size of the tree,
        then the tree's space, then the target; ``shade`` is 0 without the shadow rule."""
        act = self.activated
        free = ~(self.occ | act)
        plants = _PLANTS
        out: list[int] = []
        masks = self.masks
        m1 = masks[b + 1]
        m2 = masks[b + 2]
        m3 = masks[b + 3]
        if isinstance(shade, tuple):
            m1 &= ~shade[1]
            m2 &= ~shade[2]
            m3 &= ~shade[3]
        if m := m1 & ~act:
            for key in _PLANT_KEYS1[m]:
                out += plants[key & free]
        if m := m2 & ~act:
            for key in _PLANT_KEYS2[m]:
                out += plants[key & free]
        if m := m3 & ~act:
            for key in _PLANT_KEYS3[m]:
                out += plants[key & free]
        return out

    def _legal_other(self) -> list[int]:
        """Setup, the end, Cynthia's decisions, and every decision under the shadow rule."""
        if self.phase == 2:
            return []
        seat = self.cur
        if self.cyn[seat]:
            return [self._cynthia()[0]]
        if self.phase == 0:
            return [*_PLACES[BORDER_MASK & ~self.occ]]
        light = self.light[seat]
        if not light:
            return [END_CODE]
        return self._legal_shadow_rule(seat, light)

    # -- Cynthia, through the facade -----------------------------------------------------

    def _cynthia(self) -> tuple[int, GameState]:
        """Her decision and the state after it, from the facade (cached until ``make``)."""
        if self._after is None:
            state = self.to_state()
            action = auto_action(state)
            assert action is not None  # a Cynthia is to act
            self._after = (CODES[action], apply(state, action))
        return self._after

    def _load(self, state: GameState) -> None:
        other = FastGame.from_state(state)
        for name in FastGame.__slots__:
            setattr(self, name, getattr(other, name))

    # -- make ----------------------------------------------------------------------------

    def make(self, code: int) -> None:
        """Perform a legal action (a code from ``legal``) in place."""
        self.events = ()
        seat = self.cur
        if self.cyn[seat]:
            self._load(self._cynthia()[1])
            return
        if code < PLACE_CODE:
            if code:  # buy: the board, and so ``_part``, stays
                k = 4 * seat + code - BUY_CODE
                store = self.store
                left = store[k]
                self.light[seat] -= _PRICE_BY_CODE[code][left]
                store[k] = left - 1
                self.skey[seat] -= _STORE_WEIGHT_BY_CODE[code]
                self.avail[k] += 1
                return
            self._part = None  # end of the turn
            self.activated = 0
            seat = _NEXT_SEAT[self.n][seat]
            if seat != self.first:
                self.cur = seat
            else:
                self._end_round()
            return
        self._part = None
        b = 4 * seat
        if code >= PLANT_CODE:
            code -= PLANT_CODE
            bit = _BIT[code & 63]
            self.light[seat] -= 1
            self.avail[b] -= 1
            self.cells[code & 63] = b
            self.masks[b] |= bit
            self.occ |= bit
            self.activated |= _BIT[code >> 6] | bit
        elif code >= COLLECT_CODE:
            space = code - COLLECT_CODE
            bit = _BIT[space]
            self.cells[space] = -1
            self.masks[b + 3] &= ~bit
            self.occ &= ~bit
            self.light[seat] -= 4
            self._return(b + 3)
            taken = self.taken
            for k in range(LEAVES[space], 0, -1):
                t = taken[k]
                if t < _PILE_LEN[k]:
                    taken[k] = t + 1
                    self.tokens[seat] = (*self.tokens[seat], (k, _ALL_PILES[k][t]))
                    break
            self.activated |= bit
        elif code >= GROW_CODE:
            space = code - GROW_CODE
            cells = self.cells
            cell = cells[space]
            cells[space] = cell + 1
            size = cell & 3
            k = b + size
            masks = self.masks
            masks[k] &= _CLEAR[space]
            masks[k + 1] |= _BIT[space]
            self.light[seat] -= size + 1
            self.avail[k + 1] -= 1
            store = self.store
            if store[k] < STORE_CAPACITY[size]:
                store[k] += 1
                self.skey[seat] += _STORE_WEIGHT[size]
            else:
                self.out[k] += 1
            self.activated |= _BIT[space]
        else:
            self._place(code - PLACE_CODE)

    def _return(self, k: int) -> None:
        """A piece of the board goes back to its seat's store, or out of the game if full."""
        if self.store[k] < STORE_CAPACITY[k & 3]:
            self.store[k] += 1
            self.skey[k >> 2] += _STORE_WEIGHT[k & 3]
        else:
            self.out[k] += 1

    def _place(self, space: int) -> None:
        seat = self.cur
        bit = 1 << space
        self.cells[space] = 4 * seat + SMALL
        self.masks[4 * seat + SMALL] |= bit
        self.occ |= bit
        self.avail[4 * seat + SMALL] -= 1
        self.setup_step += 1
        if self.setup_step < 2 * self.n:
            self.cur = self.setup_step % self.n
            return
        self.phase = 1
        self._auto = (True,) * self.n if self.shadow_rule else self.cyn
        self.round = 1
        self.revolution = 1
        self.sun = 0
        self.first = 0
        self.cur = 0
        self._photosynthesis()

    def _end_round(self) -> None:
        """The last seat of the round ended its turn: the next round, or the end."""
        n = self.n
        if self.round >= self.last_round:
            if any(self.cyn):
                self._end_by_facade()  # the facade ends it: the Cynthias' final collects
                return
            self.phase = 2
            self._auto = (True,) * self.n
            self.cur = -1
            self.events = ("The game is over.",)
            return
        self.first = (self.first + 1) % n
        self.round += 1
        self.sun = (self.sun + 1) % 6
        self.revolution = (self.round - 1) // 6 + 1
        if self.sun == 0 and self.revolution == self.config.revolutions and any(self.cyn):
            self._late_half()
        self._photosynthesis()
        self.cur = self.first

    def _end_by_facade(self) -> None:
        self._load(apply(self.to_state(), Action("end")))

    def _late_half(self) -> None:
        """Every Cynthia's deck is shuffled whole from the game's RNG and turned (seat order)."""
        ids = sorted(cards())
        decks: list[Deck | None] = []
        for deck in self.decks:
            if deck is None:
                decks.append(None)
            else:
                order, self.rng = shuffled(ids, self.rng)
                decks.append(Deck(tuple(order), LATE))
        self.decks = tuple(decks)

    def _photosynthesis(self) -> None:
        gains = self.light_for_sun(self.sun)
        light = self.light
        light[:] = map(min, map(add, light, gains), _CAPS)
        self.events = (*self.events, (self.round, self.sun, gains))  # worded by to_state

    # -- the end -------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """The final-score formula on this position (base game)."""
        out = []
        cfg = self.config
        for seat in range(self.n):
            total = self.token_points(seat)
            if self.cyn[seat]:
                if cfg.harder_score_trees:
                    m = self.masks
                    total += sum(size * m[4 * seat + size].bit_count() for size in (1, 2, 3))
            else:
                total += self.light[seat] // 3
            out.append(total)
        return out

    # -- the Expert's search (``engine.expert.search.Position``) --------------------------

    #: The search's calibration on the fast path.
    SEARCH = FAST_PATH

    def to_act(self) -> int:
        return self.cur

    def in_play(self) -> bool:
        return self.phase == 1

    def turn_steps(self, seat: int) -> Iterator[tuple[int, FastGame, Hashable]]:
        """Each code but the end, the position after it (every action of a human seat's turn
        leaves the turn to it), and that position named by its pieces, light, store and tokens
        taken."""
        for code in self.legal():
            if code == END_CODE:
                continue
            child = self.copy()
            child.make(code)
            key = (tuple(child.masks), tuple(child.light), tuple(child.avail), tuple(child.taken))
            yield code, child, key

    def allows(self, action: int) -> bool:
        """Always: a determinisation draws only Cynthia's cards and the RNG afresh, which no
        action of a human seat's turn reads, so a plan made on one is legal on every other."""
        return True

    def play(self, action: int) -> FastGame:
        self.make(action)
        return self

    def end_turn(self) -> FastGame:
        self.make(END_CODE)
        return self

    def end_action(self) -> int:
        return END_CODE

    def cynthia_to_act(self) -> bool:
        return self.cyn[self.cur]

    def cynthia_turn(self) -> FastGame:
        self.make(self.legal()[0])  # her one decision: the whole turn her cards give
        return self

    def seen_by(self, seat: int, rnd: random.Random) -> FastGame:
        """The position itself: what the seat cannot see (Cynthia's cards, the RNG) is read by
        no action of its own turn, and nothing is drawn from ``rnd``."""
        return self

    def determinise(self, seat: int, rnd: random.Random) -> FastGame:
        """A copy where what no seat sees is drawn afresh: Cynthia's cards, then the RNG."""
        d = self.copy()
        if any(deck is not None for deck in self.decks):
            d.decks = fresh_decks(self.decks, rnd)
        d.rng = rnd.getrandbits(64)
        return d

    def has_chance(self) -> bool:
        """Whether a seat is a Cynthia: her cards are all a base game holds that the seats
        cannot foresee (the RNG only shuffles them)."""
        return any(self.cyn)

    #: The evaluation's margin (``eval.position_margin``), called as a method without a call
    #: in between: the beam values every position it meets by it.
    margin = position_margin
    #: The seat's own predicted final score (``eval.fast_own_value``), cheaper than its
    #: margin: its turn moves the other seats' forecasts only through shade and the piles.
    playout_value = fast_own_value

    def action(self, action: int) -> Action:
        found = ACTIONS[action]
        assert found is not None
        return found

    def setup_choice(self) -> tuple[Action, Text]:
        """A starting tree: the border space worth most for the first revolution
        (``eval.opening_value``)."""
        seat = self.cur
        best, best_value = END_CODE, float("-inf")
        for code in self.legal():
            child = self.copy()
            child.make(code)
            light = sum(light[seat] for light in child.light_for_suns(list(range(6))))
            value = opening_value(light, code - PLACE_CODE, child.occupied())
            if value > best_value:
                best, best_value = code, value
        action = self.action(best)
        return action, _("{action}: the starting space worth most", action=str(action))


def fresh_decks(decks: tuple[Deck | None, ...], rnd: random.Random) -> tuple[Deck | None, ...]:
    """Cynthia's decks as a seat sees them (``engine.observation``): how many cards are left and
    the half in use. Which cards, and their order, are drawn afresh: which are left is public
    in the game log, but shuffling those chose worse (docs/expert.md#hidden-information)."""
    ids = sorted(cards())
    return tuple(
        None if deck is None else type(deck)(tuple(rnd.sample(ids, len(deck.cards))), deck.half)
        for deck in decks
    )


__all__ = ["ACTIONS", "CODES", "FastGame", "SIZE_NAMES", "bitlist", "code_of", "fresh_decks"]
