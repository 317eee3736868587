"""Under the Moonlight (RULES-DATA section 7): the moon, the forest animals, the Great Elder Tree
and the moonstones, each mode usable alone or combined.

The expansion state is one immutable ``Moonlight`` tuple in ``GameState.ext``. Its verbs register
in the base tables (``actions.FORMATTERS``/``PARSERS``/``VERB_WORDS``, ``game.CHECKS``/
``PERFORMERS``/``SETUP_GENERATORS``) at import; ``game`` calls the hooks below only when
``state.ext is not None``, so the base game pays nothing for the expansion.

Decisions (docs/notation.md): ``animal fox`` (keep a dealt animal), ``settle C4`` (place it),
``elder D4``, ``moonstone C2``, ``move C3`` (one animal step), ``use <ability> ...``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from . import game as G
from .actions import ARG_KINDS, FORMATTERS, PARSERS, VERB_WORDS, Action, IllegalAction
from .config import CYNTHIA, HUMAN, Config
from .geometry import (
    ADJACENT_MASK,
    LABEL_INDEX,
    LABELS,
    LEAVES,
    N_CELLS,
    NEIGHBOUR,
    RING_MASK,
    bits,
    parse_label,
)
from .light import FULL_RAY_MASK, SHADOW_MASK
from .moon import (
    BEACHES,
    BORDER,
    DAM,
    DAM_GAPS,
    DAM_MASK,
    FULL,
    HALF,
    MOON_START,
    N_GAPS,
    PHASE_NAMES,
    RIVER_MASK,
    moonlit,
    next_moon,
)
from .pieces import LARGE, LIGHT_CAP, LUNAR_CAP, SEED, SMALL
from .rng import shuffled
from .state import PLAY, SETUP, GameState

# -- names and numbers ----------------------------------------------------------------------

ANIMALS = ("boar", "hedgehog", "squirrel", "fox", "owl", "badger", "beaver", "turtle")
BOAR, HEDGEHOG, SQUIRREL, FOX, OWL, BADGER, BEAVER, TURTLE = range(8)
ANIMAL_INDEX = {name: i for i, name in enumerate(ANIMALS)}

BABIES = ("double", "small", "medium", "harvest", "light", "seed", "scoring", "rich")
DOUBLE, B_SMALL, B_MEDIUM, HARVEST, B_LIGHT, B_SEED, SCORING, RICH = range(8)
BABY_INDEX = {name: i for i, name in enumerate(BABIES)}
BABY_TITLES = (
    "Double",
    "Small",
    "Medium",
    "Harvest",
    "Light",
    "Seed",
    "Scoring",
    "Rich soil",
)

#: Ability word -> (animal, title). The word is the ability's canonical name in the notation.
ABILITIES: dict[str, tuple[int, str]] = {
    "dig": (BOAR, "Digging"),
    "run": (HEDGEHOG, "Running"),
    "plant": (HEDGEHOG, "Planting"),
    "eat": (SQUIRREL, "Eating"),
    "scare": (FOX, "Scaring"),
    "scratch": (FOX, "Scratching the soil"),
    "steal": (FOX, "Stealing"),
    "hunt": (OWL, "Nighttime Hunting"),
    "grow": (BADGER, "Growing"),
    "dam": (BEAVER, "Building the Dam"),
    "improve": (BEAVER, "Improving the Dam"),
    "hatch": (TURTLE, "Hatching a Baby"),
    "baby": (TURTLE, "The Baby Turtle's first steps"),
}
ABILITY_BIT = {name: 1 << k for k, name in enumerate(ABILITIES)}
RUN_BIT = ABILITY_BIT["run"]
ABILITY_WORDS = {
    **{name: name for name in ABILITIES},
    "digging": "dig", "running": "run", "planting": "plant", "eating": "eat",
    "scaring": "scare", "scratching": "scratch", "stealing": "steal", "hunting": "hunt",
    "growing": "grow", "build": "dam", "building": "dam", "improving": "improve",
    "hatching": "hatch", "steps": "baby", "turtle": "baby",
}  # fmt: skip
#: Abilities with levels: word -> lunar cost per level (index 0 unused).
LEVEL_COSTS = {"dig": (0, 5, 8), "hunt": (0, 5, 9, 12), "grow": (0, 4, 6)}
#: The Squirrel's Eating: cost by the leaves of its space.
EAT_COST = (0, 5, 6, 7, 8)
HUNT_GAIN = (0, 3, 7, 10)
FLAT_COSTS = {
    "run": 1,
    "plant": 3,
    "scare": 1,
    "scratch": 3,
    "steal": 4,
    "dam": 6,
    "improve": 5,
    "hatch": 4,
    "baby": 1,
}
STEAL_AMOUNT = 2
BABY_LIGHT = 3
SCORING_POINTS = 3
LUNAR_START = 2

#: Double token state for the current turn.
NO_DOUBLE, DOUBLE_READY, DOUBLE_SPENT = 0, 1, 2

PIECE_WORDS = ("seed", "small tree", "medium tree", "large tree")


def _cost_word(n: int) -> str:
    return f"{n} lunar point{'s' if n != 1 else ''}"


# -- the expansion state --------------------------------------------------------------------


class Moonlight(NamedTuple):
    """Everything Under the Moonlight adds to a position. Per-seat fields are tuples by seat.

    ``obstacles`` is the bitmask of the Great Elder Tree and the moonstones; ``elder`` its space
    (-1: none); ``stones`` the moonstones; ``moon`` the moon's gap (-1 without the Moon and Forest
    Animals mode) and ``full`` its phase. ``dealt`` the two animals dealt to each seat, ``animal``
    each seat's animal (-1: none) and ``at`` its space (-1: not placed). ``beach`` the face-down
    Baby Turtle tokens as ``(space, token)`` pairs; ``babies`` each seat's face-up tokens;
    ``scoring`` each seat's used Scoring tokens; ``rich`` each seat's pending Rich soil.
    ``dam`` the Dam's gap (-1: not built). The current turn: ``used`` the abilities used (bits of
    ``ABILITY_BIT``), ``steps`` the animal steps taken, ``double`` the Double token (0 none,
    1 ready, 2 spent), ``fresh`` the seeds placed or moved by an ability (they cannot grow).
    """

    obstacles: int = 0
    elder: int = -1
    stones: int = 0
    moon: int = -1
    full: bool = HALF
    dealt: tuple = ()
    animal: tuple = ()
    at: tuple = ()
    beach: tuple = ()
    babies: tuple = ()
    scoring: tuple = ()
    rich: tuple = ()
    dam: int = -1
    used: int = 0
    steps: int = 0
    double: int = NO_DOUBLE
    fresh: int = 0

    @property
    def animal_mask(self) -> int:
        """Spaces holding an animal."""
        m = 0
        for i in self.at:
            if i >= 0:
                m |= 1 << i
        return m

    def seat_of_animal(self, animal: int) -> int:
        """The seat playing ``animal``, or -1."""
        try:
            return self.animal.index(animal)
        except ValueError:
            return -1

    def beach_token(self, space: int) -> int:
        """The face-down Baby Turtle token on a space, or -1."""
        for i, token in self.beach:
            if i == space:
                return token
        return -1

    @property
    def beach_mask(self) -> int:
        return sum(1 << i for i, _ in self.beach)

    def text_marks(self) -> dict[int, str]:
        """Two-character marks of the obstacles, for the text board."""
        marks = {i: "MS" for i in bits(self.stones)}
        if self.elder >= 0:
            marks[self.elder] = "EL"
        return marks

    def to_dict(self) -> dict:
        return {
            "moon": None if self.moon < 0 else {"gap": self.moon, "phase": PHASE_NAMES[self.full]},
            "elder": None if self.elder < 0 else LABELS[self.elder],
            "moonstones": [LABELS[i] for i in bits(self.stones)],
            "dam": None if self.dam < 0 else self.dam,
            "beach": {LABELS[i]: BABIES[t] for i, t in self.beach},
            "seats": [
                {
                    "dealt": [ANIMALS[a] for a in self.dealt[k]],
                    "animal": None if self.animal[k] < 0 else ANIMALS[self.animal[k]],
                    "space": None if self.at[k] < 0 else LABELS[self.at[k]],
                    "babies": [BABIES[t] for t in self.babies[k]],
                    "scoring": self.scoring[k],
                    "rich": self.rich[k],
                }
                for k in range(len(self.animal))
            ],
            "turn": {
                "used": [name for name, bit in ABILITY_BIT.items() if self.used & bit],
                "steps": self.steps,
                "double": ("none", "ready", "spent")[self.double],
                "fresh": [LABELS[i] for i in bits(self.fresh)],
            },
        }


def ext_from_dict(d: dict) -> Moonlight:
    """Rebuild the expansion state from ``Moonlight.to_dict`` data."""
    moon = d.get("moon")
    elder = -1 if d.get("elder") is None else LABEL_INDEX[d["elder"]]
    stones = sum(1 << LABEL_INDEX[x] for x in d.get("moonstones", ()))
    seats = d.get("seats", [])
    turn = d.get("turn", {})
    return Moonlight(
        obstacles=stones | (0 if elder < 0 else 1 << elder),
        elder=elder,
        stones=stones,
        moon=-1 if moon is None else int(moon["gap"]),
        full=FULL if moon is not None and moon["phase"] == "full" else HALF,
        dealt=tuple(tuple(ANIMAL_INDEX[a] for a in x["dealt"]) for x in seats),
        animal=tuple(-1 if x["animal"] is None else ANIMAL_INDEX[x["animal"]] for x in seats),
        at=tuple(-1 if x["space"] is None else LABEL_INDEX[x["space"]] for x in seats),
        beach=tuple(sorted((LABEL_INDEX[k], BABY_INDEX[v]) for k, v in d.get("beach", {}).items())),
        babies=tuple(tuple(BABY_INDEX[t] for t in x["babies"]) for x in seats),
        scoring=tuple(int(x["scoring"]) for x in seats),
        rich=tuple(int(x["rich"]) for x in seats),
        dam=-1 if d.get("dam") is None else int(d["dam"]),
        used=sum(ABILITY_BIT[name] for name in turn.get("used", ())),
        steps=int(turn.get("steps", 0)),
        double=("none", "ready", "spent").index(turn.get("double", "none")),
        fresh=sum(1 << LABEL_INDEX[x] for x in turn.get("fresh", ())),
    )


def _replace_at(t: tuple, k: int, value) -> tuple:
    return (*t[:k], value, *t[k + 1 :])


# -- reading helpers for other layers -------------------------------------------------------


def tracker(state: GameState) -> tuple[int, bool] | None:
    """The Moon Phase Tracker: ``(next gap, next phase)`` (True = Full), None without the moon."""
    ext = state.ext
    if ext is None or ext.moon < 0:
        return None
    return next_moon(ext.moon, ext.full, state.sun)


def moonlit_spaces(state: GameState) -> int:
    """Bitmask of the spaces where an animal would get lunar points now (0 without the moon)."""
    ext = state.ext
    if ext is None or ext.moon < 0:
        return 0
    return moonlit(ext.moon, ext.elder, ext.stones)


def steps_allowed(state: GameState, seat: int) -> int:
    """How many steps the seat's animal may take this turn (Squirrel 2; Running adds 1)."""
    ext = state.ext
    animal = ext.animal[seat]
    n = 2 if animal == SQUIRREL else 1
    if seat == state.current_seat and ext.used & ABILITY_BIT["run"]:
        n += 1
    return n


def arrange(
    state: GameState,
    *,
    animals: dict[int, tuple[str, str]] | None = None,
    elder: str | None = None,
    moonstones=(),
    moon: tuple[int, bool] | None = None,
    lunar: list[int] | None = None,
    beach: dict[str, str] | None = None,
    babies: dict[int, list[str]] | None = None,
    dam: int | None = None,
) -> GameState:
    """A copy of ``state`` (a position with the expansion) with expansion pieces set directly.

    For tests, examples and puzzles, like ``engine.position.build``: ``animals`` maps a seat to
    ``(animal name, label)``, ``moon`` is ``(gap, full)``, ``lunar`` each seat's lunar points,
    ``beach`` face-down Baby Turtle tokens by label, ``babies`` each seat's face-up tokens.
    """
    s = state.copy()
    ext = s.ext
    if animals is not None:
        animal, at = list(ext.animal), list(ext.at)
        for seat, (name, label) in animals.items():
            animal[seat] = ANIMAL_INDEX[name]
            at[seat] = LABEL_INDEX[label]
        ext = ext._replace(animal=tuple(animal), at=tuple(at))
    if elder is not None:
        ext = ext._replace(elder=LABEL_INDEX[elder])
    if moonstones:
        ext = ext._replace(stones=sum(1 << LABEL_INDEX[x] for x in moonstones))
    ext = ext._replace(obstacles=ext.stones | (1 << ext.elder if ext.elder >= 0 else 0))
    if moon is not None:
        ext = ext._replace(moon=moon[0], full=bool(moon[1]))
    if beach is not None:
        ext = ext._replace(
            beach=tuple(sorted((LABEL_INDEX[k], BABY_INDEX[v]) for k, v in beach.items()))
        )
    if babies is not None:
        mine = list(ext.babies)
        for seat, names in babies.items():
            mine[seat] = tuple(BABY_INDEX[x] for x in names)
        ext = ext._replace(babies=tuple(mine))
    if dam is not None:
        ext = ext._replace(dam=dam)
    s.ext = ext
    if lunar is not None:
        seats = []
        for seat_state, value in zip(s.seats, lunar, strict=False):
            seat_state = seat_state.copy()
            seat_state.lunar = value
            seats.append(seat_state)
        s.seats = (*seats, *s.seats[len(seats) :])
    return s


# -- setup ----------------------------------------------------------------------------------


def moonstone_count(config: Config) -> int:
    """Moonstones by seat count: 2 seats 3, 3 seats 2, 4 seats 0 (1 with the Great Elder Tree)."""
    if not config.moonstones:
        return 0
    return {2: 3, 3: 2, 4: 1 if config.elder_tree else 0}[config.n_seats]


@lru_cache(maxsize=256)
def setup_schedule(config: Config) -> tuple[tuple[int, str], ...]:
    """The expansion's setup decisions, before the starting trees (RULES-DATA 7.2)."""
    n = config.n_seats
    out: list[tuple[int, str]] = []
    if config.moon_animals:
        humans = [k for k in range(n) if config.seats[k] == HUMAN]
        out += [(k, "animal") for k in humans]
        # From the seat before the first seat (seat 0), going backwards.
        out += [(k, "settle") for k in range(n - 1, -1, -1) if config.seats[k] == HUMAN]
    start = n - 1
    if config.elder_tree:
        out.append((n - 1, "elder"))
        start = n - 2
    for j in range(moonstone_count(config)):
        out.append(((start - j) % n, "moonstone"))
    return tuple(out)


def init(s: GameState) -> GameState:
    """Add the expansion state to a fresh game (``s`` is the new state): deal the animals."""
    cfg = s.config
    n = cfg.n_seats
    dealt: list[tuple[int, ...]] = [()] * n
    if cfg.moon_animals:
        order, s.rng = shuffled(range(len(ANIMALS)), s.rng)
        j = 0
        for k in range(n):
            if cfg.seats[k] == HUMAN:
                dealt[k] = tuple(sorted(order[j : j + 2]))
                j += 2
        seats = []
        for seat_state in s.seats:
            if seat_state.kind == HUMAN:
                seat_state = seat_state.copy()
                seat_state.lunar = LUNAR_START
            seats.append(seat_state)
        s.seats = tuple(seats)
    s.ext = Moonlight(
        moon=MOON_START if cfg.moon_animals else -1,
        full=HALF,
        dealt=tuple(dealt),
        animal=(-1,) * n,
        at=(-1,) * n,
        babies=((),) * n,
        scoring=(0,) * n,
        rich=(0,) * n,
    )
    s.current_seat = G.setup_schedule(cfg)[0][0]  # the first setup decision may not be seat 0's
    return s


def _setup_hint(state: GameState) -> str:
    kind = G.setup_kind(state)
    seat = state.current_seat
    ext = state.ext
    if kind == "animal":
        names = " or ".join(f"'animal {ANIMALS[a]}'" for a in ext.dealt[seat])
        return f"Setup: first keep one of your two animals: {names}."
    if kind == "settle":
        return (
            f"Setup: place your {ANIMALS[ext.animal[seat]]} on an empty 3-leaf space, "
            "e.g. 'settle C4'."
        )
    if kind == "elder":
        return "Setup: place the Great Elder Tree on an empty space, e.g. 'elder D4'."
    if kind == "moonstone":
        return "Setup: place a moonstone on an empty space, e.g. 'moonstone C2'."
    return "Setup: place a small tree on an empty outer space, e.g. 'place A1'."


SETUP_VERBS = {"animal": "animal", "settle": "settle", "elder": "elder", "moonstone": "moonstone"}


def _setup_step_reason(state: GameState, kind: str, what: str) -> str | None:
    if state.phase != SETUP or G.setup_kind(state) != kind:
        return f"{what} only during setup, at its turn."
    return None


def _check_animal(state: GameState, a: Action) -> str | None:
    if reason := _setup_step_reason(state, "animal", "Animals are chosen"):
        return reason
    dealt = state.ext.dealt[state.current_seat]
    if a.args[0] not in dealt:
        names = " and the ".join(ANIMALS[x] for x in dealt)
        return f"You were dealt the {names}: keep one of them."
    return None


def _legal_animal(state: GameState):
    for x in state.ext.dealt[state.current_seat]:
        yield Action("animal", (x,))


def _do_animal(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = s.current_seat
    ext = s.ext._replace(animal=_replace_at(s.ext.animal, seat, a.args[0]))
    schedule = G.setup_schedule(s.config)
    last_draft = schedule[s.setup_step + 1][1] != "animal"
    if last_draft and TURTLE in ext.animal:
        # The Turtle is in play: 6 of the 8 Baby Turtle tokens, face down, on the beaches.
        tokens, s.rng = shuffled(range(len(BABIES)), s.rng)
        ext = ext._replace(beach=tuple(sorted(zip(BEACHES, tokens[:6], strict=False))))
        s.events = (*s.events, "Six Baby Turtle tokens are laid face down on the beaches.")
    s.ext = ext
    return G.advance_setup(s)


def _check_settle(state: GameState, a: Action) -> str | None:
    if reason := _setup_step_reason(state, "settle", "Animals are placed"):
        return reason
    space = a.args[0]
    if LEAVES[space] != 3:
        return f"Animals start on a 3-leaf space (around D4); {LABELS[space]} is not one."
    if state.ext.animal_mask >> space & 1:
        return f"Another animal is already on {LABELS[space]}."
    return None


def _legal_settle(state: GameState):
    for space in bits(RING_MASK[3] & ~state.ext.animal_mask):
        yield Action("settle", (space,))


def _do_settle(state: GameState, a: Action) -> GameState:
    s = state.copy()
    s.ext = s.ext._replace(at=_replace_at(s.ext.at, s.current_seat, a.args[0]))
    return G.advance_setup(s)


def _placement_free(state: GameState) -> int:
    """Spaces where the Great Elder Tree or a moonstone may go."""
    ext = state.ext
    return (
        ((1 << N_CELLS) - 1)
        & ~state.occupied()
        & ~ext.obstacles
        & ~ext.animal_mask
        & ~ext.beach_mask
    )


def _check_obstacle_place(state: GameState, space: int, kind: str, what: str) -> str | None:
    if reason := _setup_step_reason(state, kind, what):
        return reason
    ext = state.ext
    label = LABELS[space]
    if ext.elder == space:
        return f"{label} holds the Great Elder Tree."
    if ext.stones >> space & 1:
        return f"{label} holds a moonstone."
    if ext.animal_mask >> space & 1:
        return f"{label} holds an animal."
    if ext.beach_mask >> space & 1:
        return f"{label} holds a Baby Turtle token."
    if state.cells[space] >= 0:
        return f"{label} is not empty."
    return None


def _check_elder(state: GameState, a: Action) -> str | None:
    return _check_obstacle_place(state, a.args[0], "elder", "The Great Elder Tree is placed")


def _check_moonstone(state: GameState, a: Action) -> str | None:
    return _check_obstacle_place(state, a.args[0], "moonstone", "Moonstones are placed")


def _legal_elder(state: GameState):
    for space in bits(_placement_free(state)):
        yield Action("elder", (space,))


def _legal_moonstone(state: GameState):
    for space in bits(_placement_free(state)):
        yield Action("moonstone", (space,))


def _do_elder(state: GameState, a: Action) -> GameState:
    s = state.copy()
    space = a.args[0]
    s.ext = s.ext._replace(elder=space, obstacles=s.ext.obstacles | 1 << space)
    return G.advance_setup(s)


def _do_moonstone(state: GameState, a: Action) -> GameState:
    s = state.copy()
    bit = 1 << a.args[0]
    s.ext = s.ext._replace(stones=s.ext.stones | bit, obstacles=s.ext.obstacles | bit)
    return G.advance_setup(s)


def cynthia_setup(state: GameState, deck):
    """A Cynthia's Great Elder Tree or moonstone placement: ``(Action, cynthia.Turn)``.

    She draws a card and takes the empty space chosen by Directional Selection on the 2-leaf
    ring with the card's setup arrow and number (RULES-DATA 7.2).
    """
    from . import cynthia  # noqa: PLC0415

    kind = G.setup_kind(state)
    card_id, after, rng, reshuffled = cynthia.draw(deck, state.rng)
    sel = cynthia.cards()[card_id]["setup"]
    eligible = _placement_free(state) & RING_MASK[2]
    space = cynthia.directional(eligible, 2, sel["direction"], sel["count"])
    what = "the Great Elder Tree" if kind == "elder" else "a moonstone"
    n = eligible.bit_count()
    explanation = (
        f"Card {card_id} setup" + (" (deck reshuffled)" if reshuffled else "") + f": {what} on "
        f"{LABELS[space]} by Directional Selection ({sel['direction']} {sel['count']}) among "
        f"{n} empty 2-leaf space{'s' if n != 1 else ''}."
    )
    return Action(kind, (space,), explanation), cynthia.Turn(after, rng)


# -- hooks called by the base game ----------------------------------------------------------


@lru_cache(maxsize=4096)
def _obstacle_shade(elder: int, stones: int, sun: int) -> tuple[int, int, int, int]:
    s3 = FULL_RAY_MASK[sun][elder] if elder >= 0 else 0
    s1 = 0
    table = SHADOW_MASK[sun]
    for i in bits(stones):
        s1 |= table[i][1]
    return (0, s1, 0, s3)


def extra_shade(state: GameState, sun: int) -> tuple[int, int, int, int]:
    """Sun shade of the Great Elder Tree (every space behind it, all sizes) and the moonstones
    (one space, small trees only), in ``light.shade_masks``'s ``extra`` form."""
    ext = state.ext
    if not ext.obstacles:
        return G.NO_SHADE
    return _obstacle_shade(ext.elder, ext.stones, sun)


def collect_leaves(state: GameState, seat: int, leaves: int) -> int:
    """Rich soil: a pending token makes this collect score one more leaf (4 stays 4).

    Called on the state being built (already copied) by ``game.collect_tree``; it uses up the
    token there.
    """
    ext = state.ext
    if ext.rich and ext.rich[seat]:
        state.ext = ext._replace(rich=_replace_at(ext.rich, seat, ext.rich[seat] - 1))
        return min(4, leaves + 1)
    return leaves


_TURN_FIELDS = 4  # used, steps, double, fresh: the last fields of Moonlight
_NO_TURN = (0, 0, NO_DOUBLE, 0)


def end_turn(s: GameState) -> None:
    """The turn's ability uses, steps, Double token and fresh seeds end with it."""
    ext = s.ext
    if ext[-_TURN_FIELDS:] != _NO_TURN:
        s.ext = tuple.__new__(Moonlight, ext[:-_TURN_FIELDS] + _NO_TURN)


def _gap_words(gap: int) -> str:
    return f"gap {gap} ({LABELS[BORDER[gap]]}-{LABELS[BORDER[(gap + 1) % N_GAPS]]})"


def start_round(s: GameState) -> None:
    """The moon moves 5 gaps counter-clockwise as the sun moves (``s.sun`` is already moved)."""
    ext = s.ext
    if ext.moon < 0:
        return
    gap, full = next_moon(ext.moon, ext.full, (s.sun - 1) % 6)
    s.ext = ext._replace(moon=gap, full=full)
    flip = " and turns" if full != ext.full else ""
    s.events = (
        *s.events,
        f"The moon moves to {_gap_words(gap)}{flip}: {PHASE_NAMES[full].capitalize()} Moon.",
    )


def photosynthesis(s: GameState) -> None:
    """Lunar points: each lit animal gives its seat 1 (Half Moon) or 2 (Full Moon), cap 14."""
    ext = s.ext
    if ext.moon < 0 or not any(i >= 0 for i in ext.at):
        return
    lit = moonlit(ext.moon, ext.elder, ext.stones)
    gain = 2 if ext.full else 1
    seats = list(s.seats)
    parts = []
    for seat, space in enumerate(ext.at):
        if space >= 0 and lit >> space & 1:
            seat_state = seats[seat].copy()
            seat_state.lunar = min(LUNAR_CAP, seat_state.lunar + gain)
            seats[seat] = seat_state
            parts.append(f"seat {seat + 1}'s {ANIMALS[ext.animal[seat]]} +{gain}")
    s.seats = tuple(seats)
    phase = PHASE_NAMES[ext.full].capitalize()
    got = ", ".join(parts) if parts else "no animal is lit"
    s.events = (*s.events, f"Moonlight ({phase} Moon at {_gap_words(ext.moon)}): {got}.")


def score_parts(state: GameState, seat: int) -> dict[str, int]:
    """One point per unused lunar point; 3 per used Scoring Baby Turtle."""
    ext = state.ext
    if not state.config.moon_animals or state.seats[seat].kind == CYNTHIA:
        return {}
    return {"lunar": state.seats[seat].lunar, "baby turtle": SCORING_POINTS * ext.scoring[seat]}


# -- play: checks and performers wrapping the base game --------------------------------------

_SPACE_VERBS = frozenset(("plant", "grow", "collect"))


def _reused(state: GameState, a: Action) -> int:
    """Spaces of a plant/grow/collect already activated this turn."""
    m = 0
    for i in a.args:
        m |= 1 << i
    return m & state.activated


def check(state: GameState, action: Action, rule) -> str | None:
    """``game.check`` for a position with the expansion: setup order, fresh seeds, Double."""
    verb = action.verb
    if state.phase == SETUP:
        kind = G.setup_kind(state)
        if kind != "tree" and verb != SETUP_VERBS.get(kind):
            return _setup_hint(state)
        return rule(state, action)
    if verb in _SPACE_VERBS and state.phase == PLAY:
        ext = state.ext
        if verb == "grow" and ext.fresh >> action.args[0] & 1:
            return (
                f"The seed on {LABELS[action.args[0]]} was placed by an animal or a Baby Turtle "
                "this turn and cannot grow until your next turn."
            )
        if ext.double == DOUBLE_READY:
            reused = _reused(state, action)
            if reused and reused.bit_count() == 1:
                tmp = state.copy()
                tmp.activated &= ~reused
                return rule(tmp, action)
    return rule(state, action)


def perform(state: GameState, action: Action) -> GameState:
    """``game.apply``'s last step with the expansion: a second action on a space uses Double."""
    if action.verb in _SPACE_VERBS and state.ext.double == DOUBLE_READY:
        reused = _reused(state, action)
        if reused:
            tmp = state.copy()
            tmp.activated &= ~reused
            s = G.PERFORMERS[action.verb](tmp, action)
            s.activated |= state.activated
            s.ext = s.ext._replace(double=DOUBLE_SPENT)
            return s
    return G.PERFORMERS[action.verb](state, action)


def legal_play(state: GameState) -> list[Action]:
    """``game.legal_actions`` in the play phase with the expansion."""
    out = G._legal_play(state)
    ext = state.ext
    if ext.fresh:
        fresh = ext.fresh
        out = [a for a in out if not (a.verb == "grow" and fresh >> a.args[0] & 1)]
    if ext.double == DOUBLE_READY and state.activated:
        tmp = state.copy()
        tmp.activated = 0
        for a in G._legal_play(tmp):
            if a.verb == "grow" and ext.fresh >> a.args[0] & 1:
                continue
            if _reused(state, a).bit_count() == 1:
                out.append(a)
    if ext.at and ext.at[state.current_seat] >= 0:
        out.extend(_legal_animal_play(state))
    for gen in G.PLAY_GENERATORS:
        out.extend(gen(state))
    out.append(G.END)
    return out


# -- animal moves ---------------------------------------------------------------------------


def _playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        return _setup_hint(state)
    if state.phase != PLAY:
        return "The game is over."
    return None


def _blocked_reason(state: GameState, space: int) -> str | None:
    """Why an animal cannot stand on ``space``, or None."""
    ext = state.ext
    label = LABELS[space]
    if ext.elder == space:
        return f"{label} holds the Great Elder Tree."
    if ext.stones >> space & 1:
        return f"{label} holds a moonstone."
    if ext.animal_mask >> space & 1:
        k = ext.at.index(space)
        return f"The {ANIMALS[ext.animal[k]]} is on {label}."
    return None


def _check_move(state: GameState, a: Action) -> str | None:
    if reason := _playing(state):
        return reason
    ext = state.ext
    seat = state.current_seat
    here = ext.at[seat] if ext.at else -1
    if here < 0:
        return "You have no animal to move."
    name = ANIMALS[ext.animal[seat]].capitalize()
    allowed = steps_allowed(state, seat)
    if ext.steps >= allowed:
        more = ""
        if ext.animal[seat] == HEDGEHOG and not ext.used & ABILITY_BIT["run"]:
            more = " ('use run' gives one more)"
        return (
            f"Your {name} has taken its {allowed} step{'s' if allowed > 1 else ''} this turn{more}."
        )
    space = a.args[0]
    if not ADJACENT_MASK[here] >> space & 1:
        return f"{LABELS[space]} is not next to your {name} on {LABELS[here]}: it moves one space."
    return _blocked_reason(state, space)


_AT = Moonlight._fields.index("at")
_STEPS = Moonlight._fields.index("steps")


def _do_move(state: GameState, a: Action) -> GameState:
    s = state.copy()
    ext = list(s.ext)
    ext[_AT] = _replace_at(ext[_AT], s.current_seat, a.args[0])
    ext[_STEPS] += 1
    s.ext = tuple.__new__(Moonlight, ext)
    return s


# -- abilities ------------------------------------------------------------------------------


def ability_cost(state: GameState, a: Action) -> int:
    """The lunar cost of ``use ...`` (Eating: by the leaves of the Squirrel's space)."""
    name = a.args[0]
    if name in LEVEL_COSTS:
        return LEVEL_COSTS[name][a.args[1]]
    if name == "eat":
        return EAT_COST[LEAVES[state.ext.at[state.current_seat]]]
    return FLAT_COSTS[name]


def _own(state: GameState, seat: int, space: int) -> int:
    c = state.cells[space]
    return -1 if c < 0 or c >> 2 != seat else c & 3


def _is_new_seed(state: GameState, space: int) -> bool:
    """A seed placed this turn (planted, or placed/moved by an ability) cannot grow this turn."""
    return bool((state.ext.fresh | state.activated) >> space & 1)


def _empty_for_seed(state: GameState, space: int) -> str | None:
    label = LABELS[space]
    if state.ext.obstacles >> space & 1:
        what = "the Great Elder Tree" if state.ext.elder == space else "a moonstone"
        return f"{label} holds {what}."
    if state.cells[space] >= 0:
        return f"{label} is not empty."
    return None


def _check_use(state: GameState, a: Action) -> str | None:
    if reason := _playing(state):
        return reason
    ext = state.ext
    seat = state.current_seat
    name = a.args[0]
    owner, title = ABILITIES[name]
    animal = ext.animal[seat] if ext.animal else -1
    if animal < 0 or ext.at[seat] < 0:
        return "You have no animal."
    if animal != owner:
        return (
            f"{title} is the {ANIMALS[owner].capitalize()}'s ability; your animal is the "
            f"{ANIMALS[animal].capitalize()}."
        )
    if ext.used & ABILITY_BIT[name]:
        return f"You already used {title} this turn (each ability once per turn)."
    reason = _ABILITY_CHECKS[name](state, a, seat, ext.at[seat])
    if reason:
        return reason
    cost = ability_cost(state, a)
    lunar = state.seats[seat].lunar
    if lunar < cost:
        level = ""
        if name in LEVEL_COSTS:
            level = f" level {a.args[1]}"
        elif name == "eat":
            level = f" level {LEAVES[ext.at[seat]]} (a {LEAVES[ext.at[seat]]}-leaf space)"
        return f"{title}{level} costs {_cost_word(cost)}; you have {lunar}."
    return None


def _chk_dig(state, a, seat, here):
    if _own(state, seat, here) != LARGE:
        return f"Digging collects your own large tree on the Boar's space; {LABELS[here]} has none."
    if a.args[1] == 2 and state.seats[seat].available[SEED] == 0:
        return "Digging level 2 plants a seed from your available area: you have none."
    return None


def _chk_run(state, a, seat, here):
    return None


def _chk_hedgehog_plant(state, a, seat, here):
    if reason := _empty_for_seed(state, here):
        return f"The Hedgehog plants on its own empty space: {reason}"
    if state.seats[seat].store[SEED] == 0:
        return "Planting takes a seed from your player board: it has none left."
    return None


def _chk_eat(state, a, seat, here):
    c = state.cells[here]
    if c < 0 or c & 3 != SEED:
        return f"The Squirrel eats a seed on its space; {LABELS[here]} has none."
    if c >> 2 == seat:
        return "The Squirrel eats only an opponent's seed."
    return None


def _chk_scare(state, a, seat, here):
    target, dst = a.args[1], a.args[2]
    ext = state.ext
    k = ext.seat_of_animal(target)
    if k < 0 or ext.at[k] < 0:
        return f"The {ANIMALS[target]} is not in this game."
    if k == seat:
        return "The Fox scares another animal, not itself."
    there = ext.at[k]
    if not ADJACENT_MASK[here] >> there & 1:
        return f"The {ANIMALS[target]} on {LABELS[there]} is not next to the Fox."
    if not ADJACENT_MASK[there] >> dst & 1:
        return f"{LABELS[dst]} is not next to the {ANIMALS[target]} on {LABELS[there]}."
    return _blocked_reason(state, dst)


def _scratch_targets(here: int) -> int:
    m = 0
    for d in range(6):
        one = NEIGHBOUR[here][d]
        if one >= 0:
            m |= 1 << one
            two = NEIGHBOUR[one][d]
            if two >= 0:
                m |= 1 << two
    return m


def _chk_scratch(state, a, seat, here):
    c = state.cells[here]
    if c < 0 or c & 3 != SEED:
        return f"The Fox scratches a seed on its own space; {LABELS[here]} has none."
    dst = a.args[1]
    if not _scratch_targets(here) >> dst & 1:
        return (
            f"{LABELS[dst]} is not 1 or 2 spaces from the Fox on {LABELS[here]} in a straight line."
        )
    return _empty_for_seed(state, dst)


def _chk_steal(state, a, seat, here):
    ext = state.ext
    target = a.args[1]
    k = ext.seat_of_animal(target)
    if k < 0 or ext.at[k] < 0:
        return f"The {ANIMALS[target]} is not in this game."
    if k == seat:
        return "The Fox steals from another seat."
    if not ADJACENT_MASK[here] >> ext.at[k] & 1:
        return f"The {ANIMALS[target]} on {LABELS[ext.at[k]]} is not next to the Fox."
    if state.seats[k].light == 0:
        return f"Seat {k + 1} (the {ANIMALS[target]}) has no light points to steal."
    return None


def _chk_hunt(state, a, seat, here):
    return None


def _chk_badger(state, a, seat, here):
    if _own(state, seat, here) != SEED:
        return f"The Badger grows your own seed on its space; {LABELS[here]} has none."
    if _is_new_seed(state, here):
        return f"The seed on {LABELS[here]} was placed this turn and cannot grow yet."
    seat_state = state.seats[seat]
    if a.args[1] == 1 and seat_state.available[SMALL] == 0:
        return "Growing level 1 takes a small tree from your available area: you have none."
    if a.args[1] == 2 and seat_state.available[SMALL] + seat_state.store[SMALL] == 0:
        return "You have no small tree available or on your player board."
    return None


def _chk_dam(state, a, seat, here):
    gap = a.args[1]
    if not DAM_MASK[gap] & RIVER_MASK:
        return (
            f"The Dam must touch the river (G3 G2 G1 F1 E1 D1); at {_gap_words(gap)} it does not."
        )
    if not DAM_MASK[gap] >> here & 1:
        return f"The Dam must cover the Beaver's space {LABELS[here]}; at {_gap_words(gap)} it does not."
    if state.ext.dam == gap:
        return f"The Dam already stands at {_gap_words(gap)}: build it somewhere else."
    return None


def _chk_improve(state, a, seat, here):
    ext = state.ext
    if ext.dam < 0:
        return "The Dam has not been built."
    if not DAM_MASK[ext.dam] >> here & 1:
        return "The Beaver must stand on the Dam to improve it."
    space = a.args[1]
    if not DAM_MASK[ext.dam] >> space & 1:
        return f"{LABELS[space]} is not on the Dam."
    return _free_growth_reason(state, seat, space)


def _free_growth_reason(state: GameState, seat: int, space: int) -> str | None:
    size = _own(state, seat, space)
    if size < 0:
        return f"You have nothing on {LABELS[space]} to grow."
    if size == LARGE:
        return f"The large tree on {LABELS[space]} is fully grown."
    if size == SEED and _is_new_seed(state, space):
        return f"The seed on {LABELS[space]} was placed this turn and cannot grow yet."
    if state.seats[seat].available[size + 1] == 0:
        return f"You have no {PIECE_WORDS[size + 1]} available."
    return None


def _chk_hatch(state, a, seat, here):
    if state.ext.beach_token(here) < 0:
        return f"There is no Baby Turtle token on the Turtle's space {LABELS[here]}."
    return None


def _chk_baby(state, a, seat, here):
    ext = state.ext
    token = a.args[1]
    if token not in ext.babies[seat]:
        return f"You have no face-up {BABY_TITLES[token]} Baby Turtle."
    seat_state = state.seats[seat]
    if token == B_SMALL and seat_state.store[SMALL] == 0:
        return "Your player board has no small tree left."
    if token == B_MEDIUM and seat_state.store[2] == 0:
        return "Your player board has no medium tree left."
    if token == HARVEST:
        space = a.args[2]
        if _own(state, seat, space) != LARGE:
            return f"You have no large tree on {LABELS[space]} to collect."
    if token == B_SEED:
        if seat_state.available[SEED] == 0:
            return "You have no seed available."
        return _empty_for_seed(state, a.args[2])
    if token == DOUBLE and ext.double != NO_DOUBLE:
        return "The Double is already in use this turn."
    return None


_ABILITY_CHECKS = {
    "dig": _chk_dig,
    "run": _chk_run,
    "plant": _chk_hedgehog_plant,
    "eat": _chk_eat,
    "scare": _chk_scare,
    "scratch": _chk_scratch,
    "steal": _chk_steal,
    "hunt": _chk_hunt,
    "grow": _chk_badger,
    "dam": _chk_dam,
    "improve": _chk_improve,
    "hatch": _chk_hatch,
    "baby": _chk_baby,
}


# -- ability performers ---------------------------------------------------------------------


def _grow_free(s: GameState, space: int, source: str = "available") -> None:
    """Grow the piece on ``space`` one size from its owner's available area (or store)."""
    seat, size = G._remove(s, space)
    G._put(s, seat, space, size + 1)
    seat_state = s.seats[seat].copy()
    if source == "store":
        seat_state.store[size + 1] -= 1
    else:
        seat_state.available[size + 1] -= 1
    G._return_piece(seat_state, size)
    G._set_seat(s, seat, seat_state)


def _gain_light(seat_state, n: int) -> None:
    seat_state.light = min(LIGHT_CAP, seat_state.light + n)


def _do_use(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = s.current_seat
    name = a.args[0]
    seat_state = s.seats[seat].copy()
    seat_state.lunar -= ability_cost(state, a)
    G._set_seat(s, seat, seat_state)
    s.ext = s.ext._replace(used=s.ext.used | ABILITY_BIT[name])
    _ABILITY_PERFORMERS[name](s, a, seat, s.ext.at[seat])
    return s


def _seat(s: GameState, seat: int):
    """A copy of the seat's state, already put in ``s``."""
    seat_state = s.seats[seat].copy()
    G._set_seat(s, seat, seat_state)
    return seat_state


def _place_seed(s: GameState, seat: int, space: int, from_store: bool) -> None:
    seat_state = _seat(s, seat)
    if from_store:
        seat_state.store[SEED] -= 1
    else:
        seat_state.available[SEED] -= 1
    G._put(s, seat, space, SEED)
    s.ext = s.ext._replace(fresh=s.ext.fresh | 1 << space)


def _do_dig(s, a, seat, here):
    got = G.collect_tree(s, seat, here, 0)
    text = f"The Boar digs up the large tree on {LABELS[here]}: {got}"
    if a.args[1] == 2:
        _place_seed(s, seat, here, from_store=False)
        text += ", and plants a seed there"
    s.events = (*s.events, text + ".")


def _do_run(s, a, seat, here):
    pass


def _do_hedgehog_plant(s, a, seat, here):
    _place_seed(s, seat, here, from_store=True)


def _do_eat(s, a, seat, here):
    owner, _ = G._remove(s, here)
    owner_state = _seat(s, owner)
    G._return_piece(owner_state, SEED)
    _gain_light(owner_state, 1)
    _gain_light(_seat(s, seat), LEAVES[here])
    s.ext = s.ext._replace(fresh=s.ext.fresh & ~(1 << here))
    s.events = (
        *s.events,
        f"The Squirrel eats seat {owner + 1}'s seed on {LABELS[here]}: seat {owner + 1} +1 light, "
        f"seat {seat + 1} +{LEAVES[here]} light.",
    )


def _do_scare(s, a, seat, here):
    k = s.ext.seat_of_animal(a.args[1])
    s.ext = s.ext._replace(at=_replace_at(s.ext.at, k, a.args[2]))


def _do_scratch(s, a, seat, here):
    dst = a.args[1]
    owner, _ = G._remove(s, here)
    G._put(s, owner, dst, SEED)
    s.ext = s.ext._replace(fresh=(s.ext.fresh & ~(1 << here)) | 1 << dst)


def _do_steal(s, a, seat, here):
    k = s.ext.seat_of_animal(a.args[1])
    victim = _seat(s, k)
    taken = min(STEAL_AMOUNT, victim.light)
    victim.light -= taken
    _gain_light(_seat(s, seat), taken)
    s.events = (*s.events, f"The Fox steals {taken} light from seat {k + 1}.")


def _do_hunt(s, a, seat, here):
    _gain_light(_seat(s, seat), HUNT_GAIN[a.args[1]])


def _do_badger(s, a, seat, here):
    seat_state = s.seats[seat]
    source = "available"
    if a.args[1] == 2 and seat_state.store[SMALL] > 0:
        source = "store"
    _grow_free(s, here, source)


def _do_dam(s, a, seat, here):
    gap = a.args[1]
    s.ext = s.ext._replace(dam=gap)
    grown = []
    for space in sorted(DAM[gap]):
        c = s.cells[space]
        if c < 0:
            continue
        owner, size = c >> 2, c & 3
        if size == LARGE or (size == SEED and _is_new_seed(s, space)):
            continue
        if s.seats[owner].available[size + 1] == 0:
            continue
        _grow_free(s, space)
        grown.append(f"{LABELS[space]} ({PIECE_WORDS[size + 1]})")
    what = ", ".join(grown) if grown else "nothing grows"
    s.events = (*s.events, f"The Beaver builds the Dam at {_gap_words(gap)}: {what}.")


def _do_improve(s, a, seat, here):
    _grow_free(s, a.args[1])


def _do_hatch(s, a, seat, here):
    ext = s.ext
    token = ext.beach_token(here)
    s.ext = ext._replace(
        beach=tuple(x for x in ext.beach if x[0] != here),
        babies=_replace_at(ext.babies, seat, (*ext.babies[seat], token)),
    )
    s.events = (*s.events, f"The Turtle hatches a Baby Turtle: {BABY_TITLES[token]}.")


def _do_baby(s, a, seat, here):
    ext = s.ext
    token = a.args[1]
    mine = list(ext.babies[seat])
    mine.remove(token)
    s.ext = ext = ext._replace(babies=_replace_at(ext.babies, seat, tuple(mine)))
    if token == DOUBLE:
        s.ext = ext._replace(double=DOUBLE_READY)
    elif token in (B_SMALL, B_MEDIUM):
        size = SMALL if token == B_SMALL else 2
        seat_state = _seat(s, seat)
        seat_state.store[size] -= 1
        seat_state.available[size] += 1
    elif token == HARVEST:
        got = G.collect_tree(s, seat, a.args[2], 0)
        s.events = (*s.events, f"Harvest: the large tree on {LABELS[a.args[2]]} gives {got}.")
    elif token == B_LIGHT:
        _gain_light(_seat(s, seat), BABY_LIGHT)
    elif token == B_SEED:
        _place_seed(s, seat, a.args[2], from_store=False)
    elif token == SCORING:
        s.ext = ext._replace(scoring=_replace_at(ext.scoring, seat, ext.scoring[seat] + 1))
    elif token == RICH:
        s.ext = ext._replace(rich=_replace_at(ext.rich, seat, ext.rich[seat] + 1))


_ABILITY_PERFORMERS = {
    "dig": _do_dig,
    "run": _do_run,
    "plant": _do_hedgehog_plant,
    "eat": _do_eat,
    "scare": _do_scare,
    "scratch": _do_scratch,
    "steal": _do_steal,
    "hunt": _do_hunt,
    "grow": _do_badger,
    "dam": _do_dam,
    "improve": _do_improve,
    "hatch": _do_hatch,
    "baby": _do_baby,
}


# -- legal animal decisions -----------------------------------------------------------------


def _candidates(state: GameState, seat: int, animal: int, here: int):
    """Every ``use`` the animal might make here (the checks sort out the legal ones)."""
    ext = state.ext
    if animal == BOAR:
        yield ("dig", 1)
        yield ("dig", 2)
    elif animal == HEDGEHOG:
        yield ("run",)
        yield ("plant",)
    elif animal == SQUIRREL:
        yield ("eat",)
    elif animal == FOX:
        for k, there in enumerate(ext.at):
            if k != seat and there >= 0 and ADJACENT_MASK[here] >> there & 1:
                for dst in bits(ADJACENT_MASK[there]):
                    yield ("scare", ext.animal[k], dst)
                yield ("steal", ext.animal[k])
        c = state.cells[here]
        if c >= 0 and c & 3 == SEED:
            for dst in bits(_scratch_targets(here)):
                yield ("scratch", dst)
    elif animal == OWL:
        yield ("hunt", 1)
        yield ("hunt", 2)
        yield ("hunt", 3)
    elif animal == BADGER:
        yield ("grow", 1)
        yield ("grow", 2)
    elif animal == BEAVER:
        for gap in DAM_GAPS:
            if DAM_MASK[gap] >> here & 1:
                yield ("dam", gap)
        if ext.dam >= 0:
            for space in DAM[ext.dam]:
                yield ("improve", space)
    elif animal == TURTLE:
        yield ("hatch",)
        for token in sorted(set(ext.babies[seat])):
            if token == HARVEST:
                for space in bits(state.masks[seat * 4 + LARGE]):
                    yield ("baby", token, space)
            elif token == B_SEED:
                free = ((1 << N_CELLS) - 1) & ~state.occupied() & ~ext.obstacles
                for space in bits(free):
                    yield ("baby", token, space)
            else:
                yield ("baby", token)


#: Shared Action objects for the animal decisions (like ``game.END``).
MOVES = tuple(Action("move", (i,)) for i in range(N_CELLS))
_USES: dict[tuple, Action] = {}


def _legal_animal_play(state: GameState) -> list[Action]:
    ext = state.ext
    seat = state.current_seat
    here = ext.at[seat]
    animal = ext.animal[seat]
    used = ext.used
    out = []
    allowed = 2 if animal == SQUIRREL else 1
    if used & RUN_BIT:
        allowed += 1
    if ext.steps < allowed:
        blocked = ext.obstacles
        for i in ext.at:
            if i >= 0:
                blocked |= 1 << i
        for space in bits(ADJACENT_MASK[here] & ~blocked):
            out.append(MOVES[space])
    lunar = state.seats[seat].lunar
    if lunar == 0:  # every ability costs at least 1
        return out
    for args in _candidates(state, seat, animal, here):
        name = args[0]
        if used & ABILITY_BIT[name]:
            continue
        a = _USES.get(args)
        if a is None:
            a = _USES[args] = Action("use", args)
        if lunar < ability_cost(state, a):
            continue
        if _ABILITY_CHECKS[name](state, a, seat, here) is None:
            out.append(a)
    return out


# -- notation -------------------------------------------------------------------------------


def _fmt_use(args: tuple) -> str:
    name = args[0]
    parts = ["use", name]
    if name in LEVEL_COSTS or name == "dam":
        parts.append(str(args[1]))
    elif name in ("scratch", "improve"):
        parts.append(LABELS[args[1]])
    elif name == "scare":
        parts += [ANIMALS[args[1]], LABELS[args[2]]]
    elif name == "steal":
        parts.append(ANIMALS[args[1]])
    elif name == "baby":
        parts.append(BABIES[args[1]])
        if len(args) > 2:
            parts.append(LABELS[args[2]])
    return " ".join(parts)


def _label(word: str) -> int:
    try:
        return parse_label(word)
    except ValueError as e:
        raise IllegalAction(str(e)) from None


def _animal_word(word: str, usage: str) -> int:
    if word not in ANIMAL_INDEX:
        raise IllegalAction(f"'{word}' is not an animal ({', '.join(ANIMALS)}). Write {usage}.")
    return ANIMAL_INDEX[word]


def _one_label(verb: str, usage: str):
    def parse(words: list[str]) -> tuple:
        if len(words) != 1:
            raise IllegalAction(f"Write {verb} as '{usage}'.")
        return (_label(words[0]),)

    return parse


def _parse_animal(words: list[str]) -> tuple:
    if len(words) != 1:
        raise IllegalAction("Write the animal you keep as 'animal fox'.")
    return (_animal_word(words[0], "'animal fox'"),)


USE_USAGE = {
    "dig": "use dig 1 (or 2)",
    "run": "use run",
    "plant": "use plant",
    "eat": "use eat",
    "scare": "use scare owl C3 (the animal, then where it goes)",
    "scratch": "use scratch C5 (where the seed goes)",
    "steal": "use steal owl (the animal of the seat you steal from)",
    "hunt": "use hunt 1 (2 or 3)",
    "grow": "use grow 1 (or 2)",
    "dam": "use dam 10 (the gap 0-17 the Dam faces)",
    "improve": "use improve F1 (your piece on the Dam)",
    "hatch": "use hatch",
    "baby": "use baby light (or a token that needs a space: use baby seed E5)",
}


def _parse_use(words: list[str]) -> tuple:
    if not words:
        raise IllegalAction(
            "Write an ability as 'use' and its name, e.g. 'use hunt 2'; abilities: "
            + ", ".join(ABILITIES)
            + "."
        )
    name = ABILITY_WORDS.get(words[0])
    if name is None:
        raise IllegalAction(f"'{words[0]}' is not an ability. Abilities: {', '.join(ABILITIES)}.")
    rest = words[1:]
    usage = f"Write it as '{USE_USAGE[name]}'."

    def need(n: int) -> None:
        if len(rest) != n:
            raise IllegalAction(usage)

    if name in LEVEL_COSTS:
        need(1)
        top = len(LEVEL_COSTS[name]) - 1
        if not rest[0].isdigit() or not 1 <= int(rest[0]) <= top:
            raise IllegalAction(f"{ABILITIES[name][1]} has levels 1 to {top}. {usage}")
        return (name, int(rest[0]))
    if name in ("run", "plant", "eat", "hatch"):
        need(0)
        return (name,)
    if name == "dam":
        need(1)
        if not rest[0].isdigit() or not 0 <= int(rest[0]) < N_GAPS:
            raise IllegalAction(f"The Dam is named by its gap, 0 to 17. {usage}")
        return (name, int(rest[0]))
    if name in ("scratch", "improve"):
        need(1)
        return (name, _label(rest[0]))
    if name == "scare":
        need(2)
        return (name, _animal_word(rest[0], usage), _label(rest[1]))
    if name == "steal":
        need(1)
        return (name, _animal_word(rest[0], usage))
    # baby
    if rest[-2:] == ["rich", "soil"]:
        rest = [*rest[:-2], "rich"]
    if not rest or rest[0] not in BABY_INDEX:
        raise IllegalAction(f"Baby Turtle tokens: {', '.join(BABIES)}. {usage}")
    token = BABY_INDEX[rest[0]]
    if token in (HARVEST, B_SEED):
        if len(rest) != 2:
            raise IllegalAction(f"Write it as 'use baby {BABIES[token]} E5' (the space).")
        return (name, token, _label(rest[1]))
    if len(rest) != 1:
        raise IllegalAction(f"Write it as 'use baby {BABIES[token]}'.")
    return (name, token)


def _register() -> None:
    FORMATTERS.update(
        {
            "animal": lambda a: f"animal {ANIMALS[a[0]]}",
            "settle": lambda a: f"settle {LABELS[a[0]]}",
            "elder": lambda a: f"elder {LABELS[a[0]]}",
            "moonstone": lambda a: f"moonstone {LABELS[a[0]]}",
            "move": lambda a: f"move {LABELS[a[0]]}",
            "use": _fmt_use,
        }
    )
    PARSERS.update(
        {
            "animal": _parse_animal,
            "settle": _one_label("an animal's placement", "settle C4"),
            "elder": _one_label("the Great Elder Tree's placement", "elder D4"),
            "moonstone": _one_label("a moonstone's placement", "moonstone C2"),
            "move": _one_label("an animal's step", "move C3"),
            "use": _parse_use,
        }
    )
    VERB_WORDS.update(
        {
            "animal": "animal", "keep": "animal",
            "settle": "settle",
            "elder": "elder",
            "moonstone": "moonstone", "stone": "moonstone",
            "move": "move", "m": "move", "step": "move",
            "use": "use", "u": "use",
        }
    )  # fmt: skip
    # Well-formedness of Action objects (actions.validate): the one-space verbs by kind; the
    # others (animal, use) by reading their canonical text back.
    ARG_KINDS.update({verb: ("space",) for verb in ("settle", "elder", "moonstone", "move")})
    G.CHECKS.update(
        {
            "animal": _check_animal,
            "settle": _check_settle,
            "elder": _check_elder,
            "moonstone": _check_moonstone,
            "move": _check_move,
            "use": _check_use,
        }
    )
    G.PERFORMERS.update(
        {
            "animal": _do_animal,
            "settle": _do_settle,
            "elder": _do_elder,
            "moonstone": _do_moonstone,
            "move": _do_move,
            "use": _do_use,
        }
    )
    G.SETUP_GENERATORS.update(
        {
            "animal": _legal_animal,
            "settle": _legal_settle,
            "elder": _legal_elder,
            "moonstone": _legal_moonstone,
        }
    )


_register()
