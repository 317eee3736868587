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
"""

from __future__ import annotations

from .actions import Action
from .config import CYNTHIA
from .cynthia import LATE, Deck, cards
from .game import apply, auto_action
from .geometry import BORDER_MASK, LEAVES, N_CELLS, SUN_CORNER_NAMES, WITHIN
from .light import SHADOW_MASK
from .pieces import LIGHT_CAP, PILES, PRICES, SIZE_NAMES, SMALL, STORE_CAPACITY
from .rng import shuffled
from .state import OVER, PLAY, SETUP, GameState, SeatState

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
_PHASE_NAME = (SETUP, PLAY, OVER)


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
_NEVER = 99  # a price no seat can pay: the column is empty
_PRICE0, _PRICE1, _PRICE2, _PRICE3 = (
    tuple(_NEVER if p is None else p for p in row) for row in _PRICE
)
#: Plant reach of a tree by size (1..3), per space.
_REACH = (None, WITHIN[1], WITHIN[2], WITHIN[3])
#: Grow and collect codes of the spaces in a mask chunk (as ``_B0`` .. ``_B2``).
_G0, _G1, _G2 = (_bit_table(o, GROW_CODE) for o in (0, 13, 26))
_C0, _C1, _C2 = (_bit_table(o, COLLECT_CODE) for o in (0, 13, 26))
#: Plant codes from one tree: ``src << 37 | targets`` -> codes (filled as met, bounded).
_PLANT_CACHE: dict[int, tuple[int, ...]] = {}
_PLANT_CACHE_LIMIT = 200_000


def _plant_codes(key: int) -> tuple[int, ...]:
    src, targets = key >> 37, key & ((1 << 37) - 1)
    codes = tuple(PLANT_CODE + 64 * src + d for d in bitlist(targets))
    if len(_PLANT_CACHE) >= _PLANT_CACHE_LIMIT:
        _PLANT_CACHE.clear()
    _PLANT_CACHE[key] = codes
    return codes


_PILE_LEN = (0,) + tuple(len(PILES[k]) for k in (1, 2, 3, 4))
_ALL_PILES = ((),) + tuple(PILES[k] for k in (1, 2, 3, 4))


def _photosynthesis_event(round_: int, sun: int, gains: list[int]) -> str:
    """The facade's game-log line for a photosynthesis."""
    parts = ", ".join(f"seat {i + 1} +{g}" for i, g in enumerate(gains))
    return f"Round {round_}, sun at the {SUN_CORNER_NAMES[sun]} corner: photosynthesis {parts}."


def code_of(action: Action) -> int:
    """The code of a base action."""
    return CODES[action]


class FastGame:
    """A mutable position of a base game (see the module docstring)."""

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
        "template",
        "_after",
    )

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
        g.template = state
        g._after = None
        return g

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
        g.template = self.template
        g._after = None
        return g

    # -- reading -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == 2

    def occupied(self) -> int:
        m = 0
        for x in self.masks:
            m |= x
        return m

    def shade(self, sun: int) -> tuple[int, int, int, int]:
        """``shade[h]`` as in ``engine.light.shade_masks`` (no obstacles in the base game)."""
        table = SHADOW_MASK[sun]
        masks = self.masks
        s1 = s2 = s3 = 0
        for base in range(0, 4 * self.n, 4):
            for i in bitlist(masks[base + 3]):
                s3 |= table[i][3]
            for i in bitlist(masks[base + 2]):
                s2 |= table[i][2]
            for i in bitlist(masks[base + 1]):
                s1 |= table[i][1]
        s2 |= s3
        trees = s1 | s2
        return (trees, trees, s2, s3)

    def light_for_suns(self, suns: list[int]) -> list[list[int]]:
        """``light_for_sun`` for several sun positions, walking the trees once."""
        tables = [SHADOW_MASK[sun] for sun in suns]
        k = len(suns)
        s1, s2, s3 = [0] * k, [0] * k, [0] * k
        masks = self.masks
        for base in range(0, 4 * self.n, 4):
            for size, acc in ((3, s3), (2, s2), (1, s1)):
                for i in bitlist(masks[base + size]):
                    for j in range(k):
                        acc[j] |= tables[j][i][size]
        out = []
        for j in range(k):
            t3 = s3[j]
            t2 = s2[j] | t3
            t1 = s1[j] | t2
            out.append(
                [
                    (masks[b + 1] & ~t1).bit_count()
                    + 2 * (masks[b + 2] & ~t2).bit_count()
                    + 3 * (masks[b + 3] & ~t3).bit_count()
                    for b in range(0, 4 * self.n, 4)
                ]
            )
        return out

    def light_for_sun(self, sun: int) -> list[int]:
        _, s1, s2, s3 = self.shade(sun)
        masks = self.masks
        return [
            (masks[b + 1] & ~s1).bit_count()
            + 2 * (masks[b + 2] & ~s2).bit_count()
            + 3 * (masks[b + 3] & ~s3).bit_count()
            for b in range(0, 4 * self.n, 4)
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
        if self.phase != 1 or self.cyn[seat]:
            return self._legal_other()
        light = self.light[seat]
        b = 4 * seat
        store = self.store
        out = [
            code
            for code, price in (
                (1, _PRICE0[store[b]]),
                (2, _PRICE1[store[b + 1]]),
                (3, _PRICE2[store[b + 2]]),
                (4, _PRICE3[store[b + 3]]),
            )
            if price <= light
        ]
        if light == 0:
            out.append(END_CODE)
            return out
        masks = self.masks
        avail = self.avail
        act = self.activated
        shade = self.shade(self.sun) if self.config.shadow_rule else None
        if avail[b]:
            free = act
            for x in masks:
                free |= x
            free = ~free
            cache = _PLANT_CACHE
            for size in (1, 2, 3):
                src_mask = masks[b + size] & ~act
                if shade is not None:
                    src_mask &= ~shade[size]
                if src_mask:
                    reach = _REACH[size]
                    for src in bitlist(src_mask):
                        key = src << 37 | (reach[src] & free)
                        codes = cache.get(key)
                        if codes is None:
                            codes = _plant_codes(key)
                        out += codes
        for size in (0, 1, 2):
            if avail[b + size + 1] and light > size:
                spaces = masks[b + size] & ~act
                if shade is not None:
                    spaces &= ~shade[size]
                if spaces:
                    out += _G0[spaces & 8191] + _G1[(spaces >> 13) & 8191] + _G2[spaces >> 26]
        if light >= 4:
            spaces = masks[b + 3] & ~act
            if spaces:
                out += _C0[spaces & 8191] + _C1[(spaces >> 13) & 8191] + _C2[spaces >> 26]
        out.append(END_CODE)
        return out

    def _legal_other(self) -> list[int]:
        """Setup, the end, and Cynthia's decisions."""
        if self.phase == 2:
            return []
        if self.cyn[self.cur]:
            return [self._cynthia()[0]]
        free = BORDER_MASK & ~self.occupied()
        return [PLACE_CODE + i for i in bitlist(free)]

    # -- Cynthia, through the facade -----------------------------------------------------

    def _cynthia(self) -> tuple[int, GameState]:
        """Her decision and the state after it, from the facade (cached until ``make``)."""
        if self._after is None:
            state = self.to_state()
            action = auto_action(state)
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
            after = self._cynthia()[1]
            self._load(after)
            return
        self._after = None
        b = 4 * seat
        if code >= PLANT_CODE:
            code -= PLANT_CODE
            src, dst = code >> 6, code & 63
            self.light[seat] -= 1
            self.avail[b] -= 1
            self.cells[dst] = b
            self.masks[b] |= 1 << dst
            self.activated |= (1 << src) | (1 << dst)
        elif code >= COLLECT_CODE:
            space = code - COLLECT_CODE
            bit = 1 << space
            self.cells[space] = -1
            self.masks[b + 3] &= ~bit
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
            bit = 1 << space
            size = self.cells[space] & 3
            self.cells[space] += 1
            self.masks[b + size] &= ~bit
            self.masks[b + size + 1] |= bit
            self.light[seat] -= size + 1
            self.avail[b + size + 1] -= 1
            self._return(b + size)
            self.activated |= bit
        elif code >= PLACE_CODE:
            self._place(code - PLACE_CODE)
        elif code == END_CODE:
            self._end_turn()
        else:
            size = code - BUY_CODE
            self.light[seat] -= _PRICE[size][self.store[b + size]]
            self.store[b + size] -= 1
            self.avail[b + size] += 1

    def _return(self, k: int) -> None:
        if self.store[k] < STORE_CAPACITY[k & 3]:
            self.store[k] += 1
        else:
            self.out[k] += 1

    def _place(self, space: int) -> None:
        seat = self.cur
        self.cells[space] = 4 * seat + SMALL
        self.masks[4 * seat + SMALL] |= 1 << space
        self.avail[4 * seat + SMALL] -= 1
        self.setup_step += 1
        if self.setup_step < 2 * self.n:
            self.cur = self.setup_step % self.n
            return
        self.phase = 1
        self.round = 1
        self.revolution = 1
        self.sun = 0
        self.first = 0
        self.cur = 0
        self._photosynthesis()

    def _end_turn(self) -> None:
        self.activated = 0
        n = self.n
        nxt = (self.cur + 1) % n
        if nxt != self.first:
            self.cur = nxt
            return
        if self.round >= self.config.last_round:
            if any(self.cyn):
                self._end_by_facade()  # the facade ends it: the Cynthias' final collects
                return
            self.phase = 2
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
        self._load(apply(self.to_state(), ACTIONS[END_CODE]))

    def _late_half(self) -> None:
        """Every Cynthia's deck is shuffled whole from the game's RNG and turned (seat order)."""
        ids = sorted(cards())
        decks = []
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
        for seat, gain in enumerate(gains):
            if gain:
                light[seat] = min(LIGHT_CAP, light[seat] + gain)
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


__all__ = ["ACTIONS", "CODES", "FastGame", "SIZE_NAMES", "bitlist", "code_of"]
