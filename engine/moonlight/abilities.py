"""The forest animals' abilities (RULES-DATA 7.3), one record per ability by its rulebook name,
and the Baby Turtle tokens, one record each.

An ``Ability`` holds everything about one ability: the notation's word (``use hunt 2``), the
animal, the rulebook name, its levels and lunar costs, a one-sentence effect, how it is typed,
its arguments, and its check, performer and candidates. The engine, the renderer and the bot all
read these records (``ABILITY_RECORDS``), so each cost and each effect sentence exists once. The
older tables (``ABILITIES``, ``LEVEL_COSTS``, ``FLAT_COSTS``, ``EAT_COST``, ``USE_USAGE``) are
derived from the records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .. import game as G
from ..actions import Action, IllegalAction
from ..geometry import ADJACENT_MASK, LABELS, LEAVES, N_CELLS, NEIGHBOUR, bits, parse_label
from ..moon import DAM, DAM_GAPS, DAM_MASK, N_GAPS, RIVER_MASK
from ..pieces import LARGE, MEDIUM, SEED, SMALL
from ..state import PLAY, SETUP, GameState
from .ext import gap_words, obstacle_reason, replace_at
from .names import (
    ABILITY_BIT,
    ABILITY_ORDER,
    ANIMAL_INDEX,
    ANIMALS,
    B_LIGHT,
    B_MEDIUM,
    B_SEED,
    B_SMALL,
    BABIES,
    BABY_INDEX,
    BABY_LIGHT,
    BABY_TITLES,
    BADGER,
    BEAVER,
    BOAR,
    DOUBLE,
    DOUBLE_READY,
    FOX,
    HARVEST,
    HEDGEHOG,
    HUNT_GAIN,
    NO_DOUBLE,
    OWL,
    PIECE_WORDS,
    RICH,
    SCORING,
    SCORING_POINTS,
    SQUIRREL,
    STEAL_AMOUNT,
    TURTLE,
    cost_word,
)
from .setup import setup_hint

Check = Callable[[GameState, Action, int, int], "str | None"]
Perform = Callable[[GameState, Action, int, int], None]


@dataclass(frozen=True)
class Ability:
    """One ability of a forest animal.

    ``levels`` are the levels a player names (``use hunt 2``), empty when there are none;
    ``costs`` the lunar cost per level, or one cost; Eating's level is not named but is the
    leaves of the Squirrel's space (``level_by_leaves``). ``args`` are the kinds of what follows
    the level in the notation: ``space``, ``animal``, ``gap`` or ``token`` (a Baby Turtle token,
    with a space for those that name one). ``check(state, action, seat, here)`` gives the reason
    it is refused (besides the animal, the once-per-turn rule and the cost) and
    ``perform(s, action, seat, here)`` changes the copied state ``s``; ``here`` is the animal's
    space. ``candidates(state, seat, here)`` yields the argument tuples worth checking.
    ``acts_on(action, here)`` is ``(action word, space)`` for an ability that counts as an action
    on a space (Digging a collect, Hedgehog Planting a plant, Improving the Dam a grow, the
    Harvest and Seed Baby Turtles a collect and a plant), else None.
    """

    word: str
    animal: int
    title: str
    costs: tuple[int, ...]
    effect: str
    usage: str
    check: Check
    perform: Perform
    candidates: Callable[[GameState, int, int], Iterator[tuple]]
    levels: tuple[int, ...] = ()
    level_by_leaves: bool = False
    args: tuple[str, ...] = ()
    #: The spaces where the ability performs one of the actions (it counts as that action:
    #: the space must not be used yet this turn, and is activated), from the action and the
    #: animal's space; None for the abilities that are not actions (RULES-DATA 7.3).
    acts_on: Callable[[Action, int], tuple[str, int] | None] | None = None
    #: The name on a player's card where the full title does not fit (``Hunting``).
    short: str = ""

    @property
    def card_name(self) -> str:
        """The ability's name on a player's card: its short name, else its title."""
        return self.short or self.title

    def cost(self, state: GameState, action: Action) -> int:
        """The lunar cost of ``action`` (a ``use`` of this ability) in ``state``."""
        if self.levels:
            return self.costs[action.args[1] - 1]
        if self.level_by_leaves:
            return self.costs[LEAVES[state.ext.at[state.current_seat]] - 1]
        return self.costs[0]

    def cost_text(self) -> str:
        """``5/9/12 lunar points`` (by level), ``4 lunar points``."""
        if len(self.costs) == 1:
            return cost_word(self.costs[0])
        text = f"{'/'.join(map(str, self.costs))} lunar points"
        if self.level_by_leaves:
            text += f" on a {'/'.join(str(k) for k in range(1, len(self.costs) + 1))}-leaf space"
        return text


@dataclass(frozen=True)
class BabyTurtle:
    """One Baby Turtle token: its notation word, title, effect, and whether it names a space."""

    token: int
    word: str
    title: str
    effect: str
    needs_space: bool = False


# -- small helpers ---------------------------------------------------------------------------


def _own(state: GameState, seat: int, space: int) -> int:
    c = state.cells[space]
    return -1 if c < 0 or c >> 2 != seat else c & 3


def is_new_seed(state: GameState, space: int) -> bool:
    """A seed placed this turn (planted, or placed/moved by an ability) cannot grow this turn."""
    return bool((state.ext.fresh | state.activated) >> space & 1)


def empty_for_seed(state: GameState, space: int) -> str | None:
    if reason := obstacle_reason(state.ext, space):
        return reason
    if state.cells[space] >= 0:
        return f"{LABELS[space]} is not empty."
    return None


def blocked_reason(state: GameState, space: int) -> str | None:
    """Why an animal cannot stand on ``space``, or None."""
    ext = state.ext
    if reason := obstacle_reason(ext, space):
        return reason
    if ext.animal_mask >> space & 1:
        k = ext.at.index(space)
        return f"The {ANIMALS[ext.animal[k]]} is on {LABELS[space]}."
    return None


def playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        return setup_hint(state)
    if state.phase != PLAY:
        return "The game is over."
    return None


def _grow_free(s: GameState, space: int, source: str = "available") -> None:
    """Grow the piece on ``space`` one size from its owner's available area (or store)."""
    seat, size = G.remove_piece(s, space)
    G.put_piece(s, seat, space, size + 1)
    seat_state = G.copy_seat(s, seat)
    if source == "store":
        seat_state.store[size + 1] -= 1
    else:
        seat_state.available[size + 1] -= 1
    G.return_piece(s, seat, seat_state, size)


def _place_seed(s: GameState, seat: int, space: int, from_store: bool) -> None:
    seat_state = G.copy_seat(s, seat)
    if from_store:
        seat_state.store[SEED] -= 1
    else:
        seat_state.available[SEED] -= 1
    G.put_piece(s, seat, space, SEED)
    s.ext = s.ext._replace(fresh=s.ext.fresh | 1 << space)


def _free_growth_reason(state: GameState, seat: int, space: int) -> str | None:
    size = _own(state, seat, space)
    if size < 0:
        return f"You have nothing on {LABELS[space]} to grow."
    if size == LARGE:
        return f"The large tree on {LABELS[space]} is fully grown."
    if size == SEED and is_new_seed(state, space):
        return f"The seed on {LABELS[space]} was placed this turn and cannot grow yet."
    if state.seats[seat].available[size + 1] == 0:
        return f"You have no {PIECE_WORDS[size + 1]} available."
    return None


def _nothing(*_args) -> None:
    return None


def _once(*args: tuple) -> Callable[[GameState, int, int], Iterator[tuple]]:
    def candidates(state: GameState, seat: int, here: int) -> Iterator[tuple]:
        yield from args

    return candidates


def _adjacent_animals(state: GameState, seat: int, here: int) -> Iterator[int]:
    """Seats whose animal stands next to ``here`` (not ``seat``'s)."""
    for k, there in enumerate(state.ext.at):
        if k != seat and there >= 0 and ADJACENT_MASK[here] >> there & 1:
            yield k


# -- Boar: Digging ---------------------------------------------------------------------------


def _chk_dig(state, a, seat, here):
    if _own(state, seat, here) != LARGE:
        return f"Digging collects your own large tree on the Boar's space; {LABELS[here]} has none."
    if a.args[1] == 2 and state.seats[seat].available[SEED] == 0:
        return "Digging level 2 plants a seed from your available area: you have none."
    return None


def _do_dig(s, a, seat, here):
    got = G.collect_tree(s, seat, here, 0)
    text = f"The Boar digs up the large tree on {LABELS[here]}: {got}"
    if a.args[1] == 2:
        _place_seed(s, seat, here, from_store=False)
        text += ", and plants a seed there"
    s.events = (*s.events, text + ".")


# -- Hedgehog: Running, Planting -------------------------------------------------------------


def _chk_hedgehog_plant(state, a, seat, here):
    if reason := empty_for_seed(state, here):
        return f"The Hedgehog plants on its own empty space: {reason}"
    if state.seats[seat].store[SEED] == 0:
        return "Planting takes a seed from your player board: it has none left."
    return None


def _do_hedgehog_plant(s, a, seat, here):
    _place_seed(s, seat, here, from_store=True)


# -- Squirrel: Eating ------------------------------------------------------------------------


def _chk_eat(state, a, seat, here):
    c = state.cells[here]
    if c < 0 or c & 3 != SEED:
        return f"The Squirrel eats a seed on its space; {LABELS[here]} has none."
    if c >> 2 == seat:
        return "The Squirrel eats only an opponent's seed."
    return None


def _do_eat(s, a, seat, here):
    owner, _ = G.remove_piece(s, here)
    owner_state = G.copy_seat(s, owner)
    G.return_piece(s, owner, owner_state, SEED)
    G.gain_light(owner_state, 1)
    G.gain_light(G.copy_seat(s, seat), LEAVES[here])
    s.ext = s.ext._replace(fresh=s.ext.fresh & ~(1 << here))
    s.events = (
        *s.events,
        f"The Squirrel eats seat {owner + 1}'s seed on {LABELS[here]}: seat {owner + 1} +1 light, "
        f"seat {seat + 1} +{LEAVES[here]} light.",
    )


# -- Fox: Scaring, Scratching the soil, Stealing ---------------------------------------------


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
    return blocked_reason(state, dst)


def _scare_candidates(state, seat, here):
    for k in _adjacent_animals(state, seat, here):
        for dst in bits(ADJACENT_MASK[state.ext.at[k]]):
            yield ("scare", state.ext.animal[k], dst)


def _do_scare(s, a, seat, here):
    k = s.ext.seat_of_animal(a.args[1])
    s.ext = s.ext._replace(at=replace_at(s.ext.at, k, a.args[2]))


def scratch_targets(here: int) -> int:
    """Spaces 1 or 2 steps from ``here`` in a straight line."""
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
    if not scratch_targets(here) >> dst & 1:
        return (
            f"{LABELS[dst]} is not 1 or 2 spaces from the Fox on {LABELS[here]} in a straight line."
        )
    return empty_for_seed(state, dst)


def _scratch_candidates(state, seat, here):
    c = state.cells[here]
    if c >= 0 and c & 3 == SEED:
        for dst in bits(scratch_targets(here)):
            yield ("scratch", dst)


def _do_scratch(s, a, seat, here):
    """Not an action on a space: nothing is activated. A seed planted (or placed) this turn
    stays unable to grow wherever it lands; one planted before this turn may still grow."""
    dst = a.args[1]
    new = is_new_seed(s, here)
    owner, _ = G.remove_piece(s, here)
    G.put_piece(s, owner, dst, SEED)
    fresh = s.ext.fresh & ~(1 << here)
    if new:
        fresh |= 1 << dst
    s.ext = s.ext._replace(fresh=fresh)


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


def _steal_candidates(state, seat, here):
    for k in _adjacent_animals(state, seat, here):
        yield ("steal", state.ext.animal[k])


def _do_steal(s, a, seat, here):
    k = s.ext.seat_of_animal(a.args[1])
    victim = G.copy_seat(s, k)
    taken = min(STEAL_AMOUNT, victim.light)
    victim.light -= taken
    G.gain_light(G.copy_seat(s, seat), taken)
    s.events = (*s.events, f"The Fox steals {taken} light from seat {k + 1}.")


# -- Owl: Nighttime Hunting ------------------------------------------------------------------


def _do_hunt(s, a, seat, here):
    G.gain_light(G.copy_seat(s, seat), HUNT_GAIN[a.args[1]])


# -- Badger: Growing -------------------------------------------------------------------------


def _chk_badger(state, a, seat, here):
    if _own(state, seat, here) != SEED:
        return f"The Badger grows your own seed on its space; {LABELS[here]} has none."
    if is_new_seed(state, here):
        return f"The seed on {LABELS[here]} was placed this turn and cannot grow yet."
    seat_state = state.seats[seat]
    if a.args[1] == 1 and seat_state.available[SMALL] == 0:
        return "Growing level 1 takes a small tree from your available area: you have none."
    if a.args[1] == 2 and seat_state.available[SMALL] + seat_state.store[SMALL] == 0:
        return "You have no small tree available or on your player board."
    return None


def _do_badger(s, a, seat, here):
    source = "available"
    if a.args[1] == 2 and s.seats[seat].store[SMALL] > 0:
        source = "store"
    _grow_free(s, here, source)


# -- Beaver: Building the Dam, Improving the Dam ---------------------------------------------


def _chk_dam(state, a, seat, here):
    gap = a.args[1]
    if not DAM_MASK[gap] & RIVER_MASK:
        return f"The Dam must touch the river (G3 G2 G1 F1 E1 D1); at {gap_words(gap)} it does not."
    if not DAM_MASK[gap] >> here & 1:
        return f"The Dam must cover the Beaver's space {LABELS[here]}; at {gap_words(gap)} it does not."
    if state.ext.dam == gap:
        return f"The Dam already stands at {gap_words(gap)}: build it somewhere else."
    return None


def _dam_candidates(state, seat, here):
    for gap in DAM_GAPS:
        if DAM_MASK[gap] >> here & 1:
            yield ("dam", gap)


def _do_dam(s, a, seat, here):
    gap = a.args[1]
    s.ext = s.ext._replace(dam=gap)
    grown = []
    for space in sorted(DAM[gap]):
        c = s.cells[space]
        if c < 0:
            continue
        owner, size = c >> 2, c & 3
        if size == LARGE or (size == SEED and is_new_seed(s, space)):
            continue
        if s.seats[owner].available[size + 1] == 0:
            continue
        _grow_free(s, space)
        grown.append(f"{LABELS[space]} ({PIECE_WORDS[size + 1]})")
    what = ", ".join(grown) if grown else "nothing grows"
    s.events = (*s.events, f"The Beaver builds the Dam at {gap_words(gap)}: {what}.")


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


def _improve_candidates(state, seat, here):
    if state.ext.dam >= 0:
        for space in DAM[state.ext.dam]:
            yield ("improve", space)


def _do_improve(s, a, seat, here):
    _grow_free(s, a.args[1])


# -- Turtle: Hatching a Baby, the Baby Turtle's first steps ----------------------------------


def _chk_hatch(state, a, seat, here):
    if state.ext.beach_token(here) < 0:
        return f"There is no Baby Turtle token on the Turtle's space {LABELS[here]}."
    return None


def _do_hatch(s, a, seat, here):
    ext = s.ext
    token = ext.beach_token(here)
    s.ext = ext._replace(
        beach=tuple(x for x in ext.beach if x[0] != here),
        babies=replace_at(ext.babies, seat, (*ext.babies[seat], token)),
    )
    s.events = (*s.events, f"The Turtle hatches a Baby Turtle: {BABY_TITLES[token]}.")


def _chk_baby(state, a, seat, here):
    ext = state.ext
    token = a.args[1]
    if token not in ext.babies[seat]:
        return f"You have no face-up {BABY_TITLES[token]} Baby Turtle."
    seat_state = state.seats[seat]
    if token == B_SMALL and seat_state.store[SMALL] == 0:
        return "Your player board has no small tree left."
    if token == B_MEDIUM and seat_state.store[MEDIUM] == 0:
        return "Your player board has no medium tree left."
    if token == HARVEST:
        space = a.args[2]
        if _own(state, seat, space) != LARGE:
            return f"You have no large tree on {LABELS[space]} to collect."
    if token == B_SEED:
        if seat_state.available[SEED] == 0:
            return "You have no seed available."
        return empty_for_seed(state, a.args[2])
    if token == DOUBLE and ext.double != NO_DOUBLE:
        return "The Double is already in use this turn."
    return None


def _baby_candidates(state, seat, here):
    ext = state.ext
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


def _do_baby(s, a, seat, here):
    ext = s.ext
    token = a.args[1]
    mine = list(ext.babies[seat])
    mine.remove(token)
    s.ext = ext = ext._replace(babies=replace_at(ext.babies, seat, tuple(mine)))
    if token == DOUBLE:
        s.ext = ext._replace(double=DOUBLE_READY)
    elif token in (B_SMALL, B_MEDIUM):
        size = SMALL if token == B_SMALL else MEDIUM
        seat_state = G.copy_seat(s, seat)
        seat_state.store[size] -= 1
        seat_state.available[size] += 1
    elif token == HARVEST:
        got = G.collect_tree(s, seat, a.args[2], 0)
        s.events = (*s.events, f"Harvest: the large tree on {LABELS[a.args[2]]} gives {got}.")
    elif token == B_LIGHT:
        G.gain_light(G.copy_seat(s, seat), BABY_LIGHT)
    elif token == B_SEED:
        _place_seed(s, seat, a.args[2], from_store=False)
    elif token == SCORING:
        s.ext = ext._replace(scoring=replace_at(ext.scoring, seat, ext.scoring[seat] + 1))
    elif token == RICH:
        s.ext = ext._replace(rich=replace_at(ext.rich, seat, ext.rich[seat] + 1))


# -- abilities that count as an action on a space ------------------------------------------


def _collects_here(a: Action, here: int) -> tuple[str, int]:
    return ("collect", here)


def _plants_here(a: Action, here: int) -> tuple[str, int]:
    return ("plant", here)


def _grows_named(a: Action, here: int) -> tuple[str, int]:
    return ("grow", a.args[1])


def _baby_acts_on(a: Action, here: int) -> tuple[str, int] | None:
    """The Harvest Baby Turtle collects, the Seed Baby Turtle plants, on the named space."""
    if a.args[1] == HARVEST:
        return ("collect", a.args[2])
    if a.args[1] == B_SEED:
        return ("plant", a.args[2])
    return None


# -- the records -----------------------------------------------------------------------------

_HUNT = "/".join(str(n) for n in HUNT_GAIN[1:])

ABILITY_LIST: tuple[Ability, ...] = (
    Ability(
        "dig", BOAR, "Digging", (5, 8),
        "collect your large tree on the Boar's space without paying light; "
        "level 2 then plants a seed from your available area there",
        "use dig 1 (or 2)", _chk_dig, _do_dig, _once(("dig", 1), ("dig", 2)), levels=(1, 2),
        acts_on=_collects_here,
    ),
    Ability(
        "run", HEDGEHOG, "Running", (1,),
        "the Hedgehog takes one more step this turn",
        "use run", _nothing, _nothing, _once(("run",)),
    ),
    Ability(
        "plant", HEDGEHOG, "Planting", (3,),
        "a seed from your player board onto the Hedgehog's empty space, without buying it",
        "use plant", _chk_hedgehog_plant, _do_hedgehog_plant, _once(("plant",)),
        acts_on=_plants_here,
    ),
    Ability(
        "eat", SQUIRREL, "Eating", (5, 6, 7, 8),
        "eat an opponent's seed on the Squirrel's space: its owner gets 1 light back, "
        "you get 1 light per leaf of the space",
        "use eat", _chk_eat, _do_eat, _once(("eat",)), level_by_leaves=True,
    ),
    Ability(
        "scare", FOX, "Scaring", (1,),
        "move an animal next to the Fox one step",
        "use scare owl C3 (the animal, then where it goes)",
        _chk_scare, _do_scare, _scare_candidates, args=("animal", "space"),
    ),
    Ability(
        "steal", FOX, "Stealing", (4,),
        f"take {STEAL_AMOUNT} light from a seat whose animal is next to the Fox",
        "use steal owl (the animal of the seat you steal from)",
        _chk_steal, _do_steal, _steal_candidates, args=("animal",),
    ),
    Ability(
        "scratch", FOX, "Scratching the soil", (3,),
        "move the seed on the Fox's space 1 or 2 spaces in a straight line",
        "use scratch C5 (where the seed goes)",
        _chk_scratch, _do_scratch, _scratch_candidates, args=("space",),
        short="Scratching",
    ),
    Ability(
        "hunt", OWL, "Nighttime Hunting", (5, 9, 12),
        f"gain {_HUNT} light",
        "use hunt 1 (2 or 3)", _nothing, _do_hunt,
        _once(("hunt", 1), ("hunt", 2), ("hunt", 3)), levels=(1, 2, 3),
        short="Hunting",
    ),
    Ability(
        "grow", BADGER, "Growing", (4, 6),
        "your seed on the Badger's space becomes a small tree "
        "(level 2: the tree may come from your player board)",
        "use grow 1 (or 2)", _chk_badger, _do_badger, _once(("grow", 1), ("grow", 2)),
        levels=(1, 2),
    ),
    Ability(
        "dam", BEAVER, "Building the Dam", (6,),
        "build the Dam over the Beaver (two border spaces and the 2-leaf space between, "
        "touching the river): every piece on it grows one size for free",
        "use dam 10 (the gap 0-17 the Dam faces)",
        _chk_dam, _do_dam, _dam_candidates, args=("gap",),
        short="Dam",
    ),
    Ability(
        "improve", BEAVER, "Improving the Dam", (5,),
        "with the Beaver on the Dam, grow one of your pieces on the Dam for free",
        "use improve F1 (your piece on the Dam)",
        _chk_improve, _do_improve, _improve_candidates, args=("space",),
        acts_on=_grows_named,
        short="Improving",
    ),
    Ability(
        "hatch", TURTLE, "Hatching a Baby", (4,),
        "turn the face-down Baby Turtle token on the Turtle's space face up: it is yours",
        "use hatch", _chk_hatch, _do_hatch, _once(("hatch",)),
        short="Hatching",
    ),
    Ability(
        "baby", TURTLE, "The Baby Turtle's first steps", (1,),
        "use one of your face-up Baby Turtle tokens (each once)",
        "use baby light (or a token that needs a space: use baby seed E5)",
        _chk_baby, _do_baby, _baby_candidates, args=("token",), acts_on=_baby_acts_on,
        short="First steps",
    ),
)  # fmt: skip
#: The records by notation word, in the rulebook's order (``ABILITY_LIST`` is the order in
#: which the legal actions list them: a Fox's Stealing comes before its Scratching).
ABILITY_RECORDS: dict[str, Ability] = {
    word: next(a for a in ABILITY_LIST if a.word == word) for word in ABILITY_ORDER
}
assert len(ABILITY_RECORDS) == len(ABILITY_LIST)

BABY_RECORDS: tuple[BabyTurtle, ...] = (
    BabyTurtle(DOUBLE, "double", "Double", "one more action on a space you already used this turn"),
    BabyTurtle(
        B_SMALL, "small", "Small", "a small tree from your player board to your available area"
    ),
    BabyTurtle(
        B_MEDIUM, "medium", "Medium", "a medium tree from your player board to your available area"
    ),
    BabyTurtle(
        HARVEST,
        "harvest",
        "Harvest",
        "collect one of your large trees (named) without paying light",
        needs_space=True,
    ),
    BabyTurtle(B_LIGHT, "light", "Light", f"+{BABY_LIGHT} light"),
    BabyTurtle(
        B_SEED,
        "seed",
        "Seed",
        "plant an available seed on any empty space (named) for free",
        needs_space=True,
    ),
    BabyTurtle(SCORING, "scoring", "Scoring", f"{SCORING_POINTS} points at the end"),
    BabyTurtle(RICH, "rich", "Rich soil", "your next collect takes a token of one more leaf"),
)
assert tuple(b.word for b in BABY_RECORDS) == BABIES

# The older tables, derived from the records (read by render/ and bot/).
#: Ability word -> (animal, rulebook name).
ABILITIES: dict[str, tuple[int, str]] = {
    a.word: (a.animal, a.title) for a in ABILITY_RECORDS.values()
}
#: Abilities with named levels: word -> lunar cost per level (index 0 unused).
LEVEL_COSTS = {a.word: (0, *a.costs) for a in ABILITY_RECORDS.values() if a.levels}
#: The Squirrel's Eating: cost by the leaves of its space (index 0 unused).
EAT_COST = (0, *ABILITY_RECORDS["eat"].costs)
FLAT_COSTS = {a.word: a.costs[0] for a in ABILITY_RECORDS.values() if len(a.costs) == 1}
USE_USAGE = {a.word: a.usage for a in ABILITY_RECORDS.values()}
#: Words a player may type for an ability -> its notation word.
ABILITY_WORDS = {
    **{word: word for word in ABILITY_RECORDS},
    "digging": "dig", "running": "run", "planting": "plant", "eating": "eat",
    "scaring": "scare", "scratching": "scratch", "stealing": "steal", "hunting": "hunt",
    "growing": "grow", "build": "dam", "building": "dam", "improving": "improve",
    "hatching": "hatch", "steps": "baby", "turtle": "baby",
}  # fmt: skip


def ability_cost(state: GameState, a: Action) -> int:
    """The lunar cost of ``use ...`` (Eating: by the leaves of the Squirrel's space)."""
    return ABILITY_RECORDS[a.args[0]].cost(state, a)


# -- the ``use`` verb ------------------------------------------------------------------------


def check_use(state: GameState, a: Action) -> str | None:
    if reason := playing(state):
        return reason
    ext = state.ext
    seat = state.current_seat
    ability = ABILITY_RECORDS[a.args[0]]
    owner, title = ability.animal, ability.title
    animal = ext.animal[seat] if ext.animal else -1
    if animal < 0 or ext.at[seat] < 0:
        return "You have no animal."
    if animal != owner:
        return (
            f"{title} is the {ANIMALS[owner].capitalize()}'s ability; your animal is the "
            f"{ANIMALS[animal].capitalize()}."
        )
    if ext.used & ABILITY_BIT[ability.word]:
        return f"You already used {title} this turn (each ability once per turn)."
    reason = ability.check(state, a, seat, ext.at[seat])
    if reason:
        return reason
    if reason := _used_space(state, ability, a, ext.at[seat]):
        return reason
    cost = ability.cost(state, a)
    lunar = state.seats[seat].lunar
    if lunar < cost:
        level = ""
        if ability.levels:
            level = f" level {a.args[1]}"
        elif ability.level_by_leaves:
            leaves = LEAVES[ext.at[seat]]
            level = f" level {leaves} (a {leaves}-leaf space)"
        return f"{title}{level} costs {cost_word(cost)}; you have {lunar}."
    return None


def _used_space(state: GameState, ability: Ability, a: Action, here: int) -> str | None:
    """An ability that counts as an action cannot act on a space already used this turn."""
    if ability.acts_on is None:
        return None
    acted = ability.acts_on(a, here)
    if acted is not None and state.activated >> acted[1] & 1:
        return (
            f"{LABELS[acted[1]]} was already used this turn (one action per space per turn), "
            f"and {ability.title} counts as a {acted[0]} there."
        )
    return None


def do_use(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = s.current_seat
    ability = ABILITY_RECORDS[a.args[0]]
    here = s.ext.at[seat]
    G.copy_seat(s, seat).lunar -= ability.cost(state, a)
    s.ext = s.ext._replace(used=s.ext.used | ABILITY_BIT[ability.word])
    ability.perform(s, a, seat, here)
    if ability.acts_on is not None:
        acted = ability.acts_on(a, here)
        if acted is not None:
            s.activated |= 1 << acted[1]  # it counts as that action: the space is used
    return s


_USES: dict[tuple, Action] = {}


#: Each animal's abilities, by animal index, in ``ABILITY_LIST``'s order.
ABILITIES_OF: tuple[tuple[Ability, ...], ...] = tuple(
    tuple(a for a in ABILITY_LIST if a.animal == animal) for animal in range(len(ANIMALS))
)


def legal_uses(state: GameState, seat: int, animal: int, here: int) -> list[Action]:
    """Every legal ``use`` of the seat's animal standing on ``here``."""
    used = state.ext.used
    lunar = state.seats[seat].lunar
    out: list[Action] = []
    if lunar == 0:  # every ability costs at least 1
        return out
    for ability in ABILITIES_OF[animal]:
        if used & ABILITY_BIT[ability.word]:
            continue
        for args in ability.candidates(state, seat, here):
            a = _USES.get(args)
            if a is None:
                a = _USES[args] = Action("use", args)
            if (
                lunar >= ability.cost(state, a)
                and ability.check(state, a, seat, here) is None
                and (ability.acts_on is None or _used_space(state, ability, a, here) is None)
            ):
                out.append(a)
    return out


# -- notation of ``use`` ---------------------------------------------------------------------


def format_use(args: tuple) -> str:
    ability = ABILITY_RECORDS[args[0]]
    parts = ["use", ability.word]
    rest = list(args[1:])
    if ability.levels:
        parts.append(str(rest.pop(0)))
    for kind, value in zip(ability.args, rest, strict=False):
        if kind == "gap":
            parts.append(str(value))
        elif kind == "animal":
            parts.append(ANIMALS[value])
        elif kind == "token":
            parts.append(BABIES[value])
        else:
            parts.append(LABELS[value])
    if ability.args == ("token",) and len(rest) > 1:
        parts.append(LABELS[rest[1]])
    return " ".join(parts)


def label(word: str) -> int:
    try:
        return parse_label(word)
    except ValueError as e:
        raise IllegalAction(str(e)) from None


def _animal_word(word: str, usage: str) -> int:
    if word not in ANIMAL_INDEX:
        raise IllegalAction(f"'{word}' is not an animal ({', '.join(ANIMALS)}). Write {usage}.")
    return ANIMAL_INDEX[word]


def _parse_token(rest: list[str], usage: str) -> tuple:
    if rest[-2:] == ["rich", "soil"]:
        rest = [*rest[:-2], "rich"]
    if not rest or rest[0] not in BABY_INDEX:
        raise IllegalAction(f"Baby Turtle tokens: {', '.join(BABIES)}. {usage}")
    token = BABY_INDEX[rest[0]]
    if BABY_RECORDS[token].needs_space:
        if len(rest) != 2:
            raise IllegalAction(f"Write it as 'use baby {BABIES[token]} E5' (the space).")
        return (token, label(rest[1]))
    if len(rest) != 1:
        raise IllegalAction(f"Write it as 'use baby {BABIES[token]}'.")
    return (token,)


def parse_use(words: list[str]) -> tuple:
    if not words:
        raise IllegalAction(
            "Write an ability as 'use' and its name, e.g. 'use hunt 2'; abilities: "
            + ", ".join(ABILITY_RECORDS)
            + "."
        )
    word = ABILITY_WORDS.get(words[0])
    if word is None:
        raise IllegalAction(
            f"'{words[0]}' is not an ability. Abilities: {', '.join(ABILITY_RECORDS)}."
        )
    ability = ABILITY_RECORDS[word]
    rest = words[1:]
    usage = f"Write it as '{ability.usage}'."
    if ability.args == ("token",):
        return (word, *_parse_token(rest, usage))
    if len(rest) != len(ability.args) + bool(ability.levels):
        raise IllegalAction(usage)
    out: list = [word]
    if ability.levels:
        top = ability.levels[-1]
        if not rest[0].isdigit() or not 1 <= int(rest[0]) <= top:
            raise IllegalAction(f"{ability.title} has levels 1 to {top}. {usage}")
        out.append(int(rest.pop(0)))
    for kind, text in zip(ability.args, rest, strict=True):
        if kind == "gap":
            if not text.isdigit() or not 0 <= int(text) < N_GAPS:
                raise IllegalAction(f"The Dam is named by its gap, 0 to 17. {usage}")
            out.append(int(text))
        elif kind == "animal":
            out.append(_animal_word(text, usage))
        else:
            out.append(label(text))
    return tuple(out)
