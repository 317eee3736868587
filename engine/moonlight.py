"""Under the Moonlight (RULES-DATA section 7): the moon, the forest animals, the Great Elder Tree
and the moonstones, each mode usable alone or combined.

The expansion state is one immutable ``Moonlight`` tuple in ``GameState.ext``. Its verbs register
in the base tables (``actions.FORMATTERS``/``PARSERS``/``VERB_WORDS``, ``game.CHECKS``/
``PERFORMERS``/``SETUP_GENERATORS``) at import; ``game`` calls the hooks below only when
``state.ext is not None``, so the base game pays nothing for the expansion.

Decisions (docs/notation.md): ``animal fox`` (keep a dealt animal), ``settle C4`` (place it),
``elder D4``, ``moonstone C2``, ``move C3`` (one animal step), ``use <ability> ...``. The animals'
moves and abilities are in ``engine.animals``; the moon's geometry in ``engine.moon``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from . import game as G
from .actions import (
    ARG_KINDS,
    FORMATTERS,
    PARSERS,
    UNDOABLE_VERBS,
    VERB_OWNERS,
    VERB_WORDS,
    Action,
)
from .config import CYNTHIA, HUMAN, Config
from .geometry import (
    LABEL_INDEX,
    LABELS,
    LEAVES,
    N_CELLS,
    RING_MASK,
    bits,
)
from .layers import Layer, register
from .light import FULL_RAY_MASK, SHADOW_MASK
from .moon import (
    BEACHES,
    BORDER,
    FULL,
    HALF,
    MOON_START,
    N_GAPS,
    PHASE_NAMES,
    moonlit,
    next_moon,
)
from .pieces import LUNAR_CAP
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


def cost_word(n: int) -> str:
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


def replace_at(t: tuple, k: int, value) -> tuple:
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


def moonlit_next_photosynthesis(state: GameState) -> int:
    """Bitmask of the spaces the moon will light at the next photosynthesis (0: none left, or no
    moon). During setup the moon has not moved yet; during a round it will have moved on."""
    ext = state.ext
    if ext is None or ext.moon < 0 or G.next_photosynthesis_sun(state) is None:
        return 0
    gap = ext.moon if state.phase == SETUP else tracker(state)[0]
    return moonlit(gap, ext.elder, ext.stones)


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


def setup_hint(state: GameState) -> str:
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
    ext = s.ext._replace(animal=replace_at(s.ext.animal, seat, a.args[0]))
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
    s.ext = s.ext._replace(at=replace_at(s.ext.at, s.current_seat, a.args[0]))
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
        state.ext = ext._replace(rich=replace_at(ext.rich, seat, ext.rich[seat] - 1))
        return min(4, leaves + 1)
    return leaves


_TURN_FIELDS = 4  # used, steps, double, fresh: the last fields of Moonlight
_NO_TURN = (0, 0, NO_DOUBLE, 0)


def end_turn(s: GameState) -> None:
    """The turn's ability uses, steps, Double token and fresh seeds end with it."""
    ext = s.ext
    if ext[-_TURN_FIELDS:] != _NO_TURN:
        s.ext = tuple.__new__(Moonlight, ext[:-_TURN_FIELDS] + _NO_TURN)


def gap_words(gap: int) -> str:
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
        f"The moon moves to {gap_words(gap)}{flip}: {PHASE_NAMES[full].capitalize()} Moon.",
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
    s.events = (*s.events, f"Moonlight ({phase} Moon at {gap_words(ext.moon)}): {got}.")


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
            return setup_hint(state)
        return rule(state, action)
    if verb in _SPACE_VERBS and state.phase == PLAY:
        ext = state.ext
        space = action.args[0]
        own = state.cells[space] >= 0 and state.cells[space] >> 2 == state.current_seat
        if verb == "grow" and own and ext.fresh >> space & 1:
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
            if a.verb not in _SPACE_VERBS or (a.verb == "grow" and ext.fresh >> a.args[0] & 1):
                continue
            if _reused(state, a).bit_count() == 1:
                out.append(a)
    if ext.at and ext.at[state.current_seat] >= 0:
        out.extend(animals.legal_animal_play(state))
    for gen in G.PLAY_GENERATORS:
        out.extend(gen(state))
    out.append(G.END)
    return out


# The animals (moves, abilities, their notation) live in their own module, which reads the
# names and the state above; it is imported here, once everything it needs is defined.
from . import animals  # noqa: E402
from .animals import USE_USAGE, ability_cost  # noqa: E402, F401  (part of this module's API)


def _register() -> None:
    FORMATTERS.update(
        {
            "animal": lambda a: f"animal {ANIMALS[a[0]]}",
            "settle": lambda a: f"settle {LABELS[a[0]]}",
            "elder": lambda a: f"elder {LABELS[a[0]]}",
            "moonstone": lambda a: f"moonstone {LABELS[a[0]]}",
            "move": lambda a: f"move {LABELS[a[0]]}",
            "use": animals.format_use,
        }
    )
    PARSERS.update(
        {
            "animal": animals.parse_animal,
            "settle": animals.one_label_parser("an animal's placement", "settle C4"),
            "elder": animals.one_label_parser("the Great Elder Tree's placement", "elder D4"),
            "moonstone": animals.one_label_parser("a moonstone's placement", "moonstone C2"),
            "move": animals.one_label_parser("an animal's step", "move C3"),
            "use": animals.parse_use,
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
    UNDOABLE_VERBS.add("move")
    VERB_OWNERS.update(
        dict.fromkeys(("animal", "settle", "move", "use"), "Under the Moonlight's forest animals")
    )
    VERB_OWNERS["elder"] = "Under the Moonlight's Great Elder Tree"
    VERB_OWNERS["moonstone"] = "Under the Moonlight's moonstones"
    ARG_KINDS.update({verb: ("space",) for verb in ("settle", "elder", "moonstone", "move")})
    G.CHECKS.update(
        {
            "animal": _check_animal,
            "settle": _check_settle,
            "elder": _check_elder,
            "moonstone": _check_moonstone,
            "move": animals.check_move,
            "use": animals.check_use,
        }
    )
    G.PERFORMERS.update(
        {
            "animal": _do_animal,
            "settle": _do_settle,
            "elder": _do_elder,
            "moonstone": _do_moonstone,
            "move": animals.do_move,
            "use": animals.do_use,
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


@register
class MoonlightLayer(Layer):
    """Under the Moonlight as a rule layer (any of its three modes)."""

    name = "moonlight"

    @classmethod
    def applies(cls, config: Config) -> bool:
        return config.expansion

    def hidden(self, config: Config) -> dict[str, str]:
        out = {}
        if config.moon_animals:
            out["moonlight.seats.dealt"] = "the two animals dealt to each other seat"
            out["moonlight.beach"] = "which Baby Turtle token lies face down on each beach"
        return out

    def observe(self, state: GameState, seat: int | None, d: dict) -> None:
        ml = d["moonlight"]
        ml["beach"] = sorted(ml["beach"])  # the spaces only: the tokens lie face down
        for k, x in enumerate(ml["seats"]):
            if k != seat:
                x["dealt"] = []
                if x["space"] is None:
                    x["animal"] = None  # kept in hand until it is placed
