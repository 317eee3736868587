"""The forest animals' abilities (docs/rules-data.md#73-animals-and-abilities), one record per
ability by its rulebook name, and the Baby Turtle tokens, one record each.

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
from typing import cast

from translation import _, _n, _p, join

from .. import game as G
from ..actions import Action, Args, IllegalAction, reason_of
from ..geometry import ADJACENT_MASK, LABELS, LEAVES, N_CELLS, NEIGHBOUR, bits, parse_label
from ..moon import DAM, DAM_GAPS, DAM_MASK, N_GAPS, RIVER_MASK
from ..pieces import LARGE, MEDIUM, SEED, SMALL
from ..state import PLAY, SETUP, GameState
from .ext import Moonlight, gap_words, obstacle_reason, replace_at
from .names import (
    ABILITY_BIT,
    ABILITY_ORDER,
    ANIMAL_NAMES,
    ANIMAL_TITLES,
    ANIMAL_WORDS,
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
    candidates: Callable[[GameState, int, int], Iterator[Args]]
    levels: tuple[int, ...] = ()
    level_by_leaves: bool = False
    args: tuple[str, ...] = ()
    #: The spaces where the ability performs one of the actions (it counts as that action:
    #: the space must not be used yet this turn, and is activated), from the action and the
    #: animal's space; None for the abilities that are not actions
    #: (docs/rules-data.md#73-animals-and-abilities).
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
            level: int = action.args[1]
            return self.costs[level - 1]
        if self.level_by_leaves:
            here: int = state.ext.at[cast(int, state.current_seat)]
            return self.costs[LEAVES[here] - 1]
        return self.costs[0]

    def cost_text(self) -> str:
        """``5/9/12 lunar points`` (by level), ``4 lunar points``."""
        if len(self.costs) == 1:
            return cost_word(self.costs[0])
        costs = "/".join(map(str, self.costs))
        if self.level_by_leaves:
            leaves = "/".join(str(k) for k in range(1, len(self.costs) + 1))
            return _("{costs} lunar points on a {leaves}-leaf space", costs=costs, leaves=leaves)
        return _("{costs} lunar points", costs=costs)


@dataclass(frozen=True)
class BabyTurtle:
    """One Baby Turtle token: its notation word, title, effect, and whether it names a space."""

    token: int
    word: str
    title: str
    effect: str
    needs_space: bool = False


#: The base actions an ability counts as, in a sentence (``a collect there``).
ACTION_NOUNS = {"collect": _p("action", "collect"), "plant": _p("action", "plant"),
                "grow": _p("action", "grow")}  # fmt: skip


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
        return _("{space} is not empty.", space=LABELS[space])
    return None


def blocked_reason(state: GameState, space: int) -> str | None:
    """Why an animal cannot stand on ``space``, or None."""
    ext = state.ext
    if reason := obstacle_reason(ext, space):
        return reason
    if ext.animal_mask >> space & 1:
        k = ext.at.index(space)
        return _(
            "The {animal} is on {space}.", animal=ANIMAL_NAMES[ext.animal[k]], space=LABELS[space]
        )
    return None


def playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        return setup_hint(state)
    if state.phase != PLAY:
        return _("The game is over.")
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
        return _("You have nothing on {space} to grow.", space=LABELS[space])
    if size == LARGE:
        return _("The large tree on {space} is fully grown.", space=LABELS[space])
    if size == SEED and is_new_seed(state, space):
        return _(
            "The seed on {space} was placed this turn and cannot grow yet.", space=LABELS[space]
        )
    if state.seats[seat].available[size + 1] == 0:
        return _("You have no {piece} available.", piece=PIECE_WORDS[size + 1])
    return None


def _nothing(*_args: object) -> None:
    return None


def _once(*args: Args) -> Callable[[GameState, int, int], Iterator[Args]]:
    def candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
        yield from args

    return candidates


def _adjacent_animals(state: GameState, seat: int, here: int) -> Iterator[int]:
    """Seats whose animal stands next to ``here`` (not ``seat``'s)."""
    for k, there in enumerate(state.ext.at):
        if k != seat and there >= 0 and ADJACENT_MASK[here] >> there & 1:
            yield k


# -- Boar: Digging ---------------------------------------------------------------------------


def _chk_dig(state: GameState, a: Action, seat: int, here: int) -> str | None:
    if _own(state, seat, here) != LARGE:
        return _(
            "Digging collects your own large tree on the Boar's space; {here} has none.",
            here=LABELS[here],
        )
    if a.args[1] == 2 and state.seats[seat].available[SEED] == 0:
        return _("Digging level 2 plants a seed from your available area: you have none.")
    return None


def _do_dig(s: GameState, a: Action, seat: int, here: int) -> None:
    got = G.collect_tree(s, seat, here, 0)
    if a.args[1] == 2:
        _place_seed(s, seat, here, from_store=False)
        text = _("The Boar digs up the large tree on {space}: {got}, and plants a seed there.",
                 space=LABELS[here], got=got)  # fmt: skip
    else:
        text = _("The Boar digs up the large tree on {space}: {got}.", space=LABELS[here],
                 got=got)  # fmt: skip
    s.events = (*s.events, text)


# -- Hedgehog: Running, Planting -------------------------------------------------------------


def _chk_hedgehog_plant(state: GameState, a: Action, seat: int, here: int) -> str | None:
    if reason := empty_for_seed(state, here):
        return _("The Hedgehog plants on its own empty space: {reason}", reason=reason)
    if state.seats[seat].store[SEED] == 0:
        return _("Planting takes a seed from your player board: it has none left.")
    return None


def _do_hedgehog_plant(s: GameState, a: Action, seat: int, here: int) -> None:
    _place_seed(s, seat, here, from_store=True)


# -- Squirrel: Eating ------------------------------------------------------------------------


def _chk_eat(state: GameState, a: Action, seat: int, here: int) -> str | None:
    c = state.cells[here]
    if c < 0 or c & 3 != SEED:
        return _("The Squirrel eats a seed on its space; {here} has none.", here=LABELS[here])
    if c >> 2 == seat:
        return _("The Squirrel eats only an opponent's seed.")
    return None


def _do_eat(s: GameState, a: Action, seat: int, here: int) -> None:
    owner, _size = G.remove_piece(s, here)
    owner_state = G.copy_seat(s, owner)
    G.return_piece(s, owner, owner_state, SEED)
    G.gain_light(owner_state, 1)
    G.gain_light(G.copy_seat(s, seat), LEAVES[here])
    s.ext = s.ext._replace(fresh=s.ext.fresh & ~(1 << here))
    s.events = (
        *s.events,
        _(
            "The Squirrel eats seat {n}'s seed on {here}: seat {n} +1 light, seat {n2} +{leaves} light.",
            n=owner + 1,
            here=LABELS[here],
            n2=seat + 1,
            leaves=LEAVES[here],
        ),
    )


# -- Fox: Scaring, Scratching the soil, Stealing ---------------------------------------------


def _chk_scare(state: GameState, a: Action, seat: int, here: int) -> str | None:
    target, dst = a.args[1], a.args[2]
    ext = state.ext
    k = ext.seat_of_animal(target)
    if k < 0 or ext.at[k] < 0:
        return _("The {animal} is not in this game.", animal=ANIMAL_NAMES[target])
    if k == seat:
        return _("The Fox scares another animal, not itself.")
    there = ext.at[k]
    if not ADJACENT_MASK[here] >> there & 1:
        return _(
            "The {animal} on {there} is not next to the Fox.",
            animal=ANIMAL_NAMES[target],
            there=LABELS[there],
        )
    if not ADJACENT_MASK[there] >> dst & 1:
        return _(
            "{dst} is not next to the {animal} on {there}.",
            dst=LABELS[dst],
            animal=ANIMAL_NAMES[target],
            there=LABELS[there],
        )
    return blocked_reason(state, dst)


def _scare_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
    for k in _adjacent_animals(state, seat, here):
        for dst in bits(ADJACENT_MASK[state.ext.at[k]]):
            yield ("scare", state.ext.animal[k], dst)


def _do_scare(s: GameState, a: Action, seat: int, here: int) -> None:
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


def _chk_scratch(state: GameState, a: Action, seat: int, here: int) -> str | None:
    c = state.cells[here]
    if c < 0 or c & 3 != SEED:
        return _("The Fox scratches a seed on its own space; {here} has none.", here=LABELS[here])
    dst = a.args[1]
    if not scratch_targets(here) >> dst & 1:
        return _(
            "{dst} is not 1 or 2 spaces from the Fox on {here} in a straight line.",
            dst=LABELS[dst],
            here=LABELS[here],
        )
    return empty_for_seed(state, dst)


def _scratch_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
    c = state.cells[here]
    if c >= 0 and c & 3 == SEED:
        for dst in bits(scratch_targets(here)):
            yield ("scratch", dst)


def _do_scratch(s: GameState, a: Action, seat: int, here: int) -> None:
    """Not an action on a space: nothing is activated. A seed planted (or placed) this turn
    stays unable to grow wherever it lands; one planted before this turn may still grow."""
    dst = a.args[1]
    new = is_new_seed(s, here)
    owner, _size = G.remove_piece(s, here)
    G.put_piece(s, owner, dst, SEED)
    fresh = s.ext.fresh & ~(1 << here)
    if new:
        fresh |= 1 << dst
    s.ext = s.ext._replace(fresh=fresh)


def _chk_steal(state: GameState, a: Action, seat: int, here: int) -> str | None:
    ext = state.ext
    target = a.args[1]
    k = ext.seat_of_animal(target)
    if k < 0 or ext.at[k] < 0:
        return _("The {animal} is not in this game.", animal=ANIMAL_NAMES[target])
    if k == seat:
        return _("The Fox steals from another seat.")
    if not ADJACENT_MASK[here] >> ext.at[k] & 1:
        return _(
            "The {animal} on {space} is not next to the Fox.",
            animal=ANIMAL_NAMES[target],
            space=LABELS[ext.at[k]],
        )
    if state.seats[k].light == 0:
        return _(
            "Seat {n} (the {animal}) has no light points to steal.",
            n=k + 1,
            animal=ANIMAL_NAMES[target],
        )
    return None


def _steal_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
    for k in _adjacent_animals(state, seat, here):
        yield ("steal", state.ext.animal[k])


def _do_steal(s: GameState, a: Action, seat: int, here: int) -> None:
    k = s.ext.seat_of_animal(a.args[1])
    victim = G.copy_seat(s, k)
    taken = min(STEAL_AMOUNT, victim.light)
    victim.light -= taken
    G.gain_light(G.copy_seat(s, seat), taken)
    s.events = (*s.events, _("The Fox steals {taken} light from seat {n}.", taken=taken, n=k + 1))


# -- Owl: Nighttime Hunting ------------------------------------------------------------------


def _do_hunt(s: GameState, a: Action, seat: int, here: int) -> None:
    G.gain_light(G.copy_seat(s, seat), HUNT_GAIN[a.args[1]])


# -- Badger: Growing -------------------------------------------------------------------------


def _chk_badger(state: GameState, a: Action, seat: int, here: int) -> str | None:
    if _own(state, seat, here) != SEED:
        return _("The Badger grows your own seed on its space; {here} has none.", here=LABELS[here])
    if is_new_seed(state, here):
        return _("The seed on {here} was placed this turn and cannot grow yet.", here=LABELS[here])
    seat_state = state.seats[seat]
    if a.args[1] == 1 and seat_state.available[SMALL] == 0:
        return _("Growing level 1 takes a small tree from your available area: you have none.")
    if a.args[1] == 2 and seat_state.available[SMALL] + seat_state.store[SMALL] == 0:
        return _("You have no small tree available or on your player board.")
    return None


def _do_badger(s: GameState, a: Action, seat: int, here: int) -> None:
    source = "available"
    if a.args[1] == 2 and s.seats[seat].store[SMALL] > 0:
        source = "store"
    _grow_free(s, here, source)


# -- Beaver: Building the Dam, Improving the Dam ---------------------------------------------


def _chk_dam(state: GameState, a: Action, seat: int, here: int) -> str | None:
    gap = a.args[1]
    if not DAM_MASK[gap] & RIVER_MASK:
        return _(
            "The Dam must touch the river (G3 G2 G1 F1 E1 D1); at {gap_words} it does not.",
            gap_words=gap_words(gap),
        )
    if not DAM_MASK[gap] >> here & 1:
        return _(
            "The Dam must cover the Beaver's space {here}; at {gap_words} it does not.",
            here=LABELS[here],
            gap_words=gap_words(gap),
        )
    if state.ext.dam == gap:
        return _(
            "The Dam already stands at {gap_words}: build it somewhere else.",
            gap_words=gap_words(gap),
        )
    return None


def _dam_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
    for gap in DAM_GAPS:
        if DAM_MASK[gap] >> here & 1:
            yield ("dam", gap)


def _do_dam(s: GameState, a: Action, seat: int, here: int) -> None:
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
        grown.append(_("{space} ({piece})", space=LABELS[space], piece=PIECE_WORDS[size + 1]))
    what = join(grown, ", ") if grown else _("nothing grows")
    s.events = (
        *s.events,
        _("The Beaver builds the Dam at {gap_words}: {what}.", gap_words=gap_words(gap), what=what),
    )


def _chk_improve(state: GameState, a: Action, seat: int, here: int) -> str | None:
    ext = state.ext
    if ext.dam < 0:
        return _("The Dam has not been built.")
    if not DAM_MASK[ext.dam] >> here & 1:
        return _("The Beaver must stand on the Dam to improve it.")
    space = a.args[1]
    if not DAM_MASK[ext.dam] >> space & 1:
        return _("{space} is not on the Dam.", space=LABELS[space])
    return _free_growth_reason(state, seat, space)


def _improve_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
    if state.ext.dam >= 0:
        for space in DAM[state.ext.dam]:
            yield ("improve", space)


def _do_improve(s: GameState, a: Action, seat: int, here: int) -> None:
    _grow_free(s, a.args[1])


# -- Turtle: Hatching a Baby, the Baby Turtle's first steps ----------------------------------


def _chk_hatch(state: GameState, a: Action, seat: int, here: int) -> str | None:
    if state.ext.beach_token(here) < 0:
        return _("There is no Baby Turtle token on the Turtle's space {here}.", here=LABELS[here])
    return None


def _do_hatch(s: GameState, a: Action, seat: int, here: int) -> None:
    ext = s.ext
    token = ext.beach_token(here)
    s.ext = ext._replace(
        beach=tuple(x for x in ext.beach if x[0] != here),
        babies=replace_at(ext.babies, seat, (*ext.babies[seat], token)),
    )
    s.events = (
        *s.events,
        _("The Turtle hatches a Baby Turtle: {baby_titles}.", baby_titles=BABY_TITLES[token]),
    )


def _chk_baby(state: GameState, a: Action, seat: int, here: int) -> str | None:
    ext = state.ext
    token = a.args[1]
    if token not in ext.babies[seat]:
        return _("You have no face-up {baby_titles} Baby Turtle.", baby_titles=BABY_TITLES[token])
    seat_state = state.seats[seat]
    if token == B_SMALL and seat_state.store[SMALL] == 0:
        return _("Your player board has no small tree left.")
    if token == B_MEDIUM and seat_state.store[MEDIUM] == 0:
        return _("Your player board has no medium tree left.")
    if token == HARVEST:
        space = a.args[2]
        if _own(state, seat, space) != LARGE:
            return _("You have no large tree on {space} to collect.", space=LABELS[space])
    if token == B_SEED:
        if seat_state.available[SEED] == 0:
            return _("You have no seed available.")
        return empty_for_seed(state, a.args[2])
    if token == DOUBLE and ext.double != NO_DOUBLE:
        return _("The Double is already in use this turn.")
    return None


def _baby_candidates(state: GameState, seat: int, here: int) -> Iterator[Args]:
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


def _do_baby(s: GameState, a: Action, seat: int, here: int) -> None:
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
        s.events = (
            *s.events,
            _("Harvest: the large tree on {space} gives {got}.", space=LABELS[a.args[2]], got=got),
        )
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
        "dig", BOAR, _("Digging"), (5, 8),
        _("collect your large tree on the Boar's space without paying light; level 2 then plants a seed from your available area there"),
        _("use dig 1 (or 2)"), _chk_dig, _do_dig, _once(("dig", 1), ("dig", 2)), levels=(1, 2),
        acts_on=_collects_here,
    ),
    Ability(
        "run", HEDGEHOG, _("Running"), (1,),
        _("the Hedgehog takes one more step this turn"),
        _("use run"), _nothing, _nothing, _once(("run",)),
    ),
    Ability(
        "plant", HEDGEHOG, _("Planting"), (3,),
        _("a seed from your player board onto the Hedgehog's empty space, without buying it"),
        _("use plant"), _chk_hedgehog_plant, _do_hedgehog_plant, _once(("plant",)),
        acts_on=_plants_here,
    ),
    Ability(
        "eat", SQUIRREL, _("Eating"), (5, 6, 7, 8),
        _("eat an opponent's seed on the Squirrel's space: its owner gets 1 light back, you get 1 light per leaf of the space"),
        _("use eat"), _chk_eat, _do_eat, _once(("eat",)), level_by_leaves=True,
    ),
    Ability(
        "scare", FOX, _("Scaring"), (1,),
        _("move an animal next to the Fox one step"),
        _("use scare owl C3 (the animal, then where it goes)"),
        _chk_scare, _do_scare, _scare_candidates, args=("animal", "space"),
    ),
    Ability(
        "steal", FOX, _("Stealing"), (4,),
        _("take {steal_amount} light from a seat whose animal is next to the Fox", steal_amount=STEAL_AMOUNT),
        _("use steal owl (the animal of the seat you steal from)"),
        _chk_steal, _do_steal, _steal_candidates, args=("animal",),
    ),
    Ability(
        "scratch", FOX, _("Scratching the soil"), (3,),
        _("move the seed on the Fox's space 1 or 2 spaces in a straight line"),
        _("use scratch C5 (where the seed goes)"),
        _chk_scratch, _do_scratch, _scratch_candidates, args=("space",),
        short=_p("ability", "Scratching"),
    ),
    Ability(
        "hunt", OWL, _("Nighttime Hunting"), (5, 9, 12),
        _("gain {hunt} light", hunt=_HUNT),
        _("use hunt 1 (2 or 3)"), _nothing, _do_hunt,
        _once(("hunt", 1), ("hunt", 2), ("hunt", 3)), levels=(1, 2, 3),
        short=_p("ability", "Hunting"),
    ),
    Ability(
        "grow", BADGER, _("Growing"), (4, 6),
        _("your seed on the Badger's space becomes a small tree (level 2: the tree may come from your player board)"),
        _("use grow 1 (or 2)"), _chk_badger, _do_badger, _once(("grow", 1), ("grow", 2)),
        levels=(1, 2),
    ),
    Ability(
        "dam", BEAVER, _("Building the Dam"), (6,),
        _("build the Dam over the Beaver (two border spaces and the 2-leaf space between, touching the river): every piece on it grows one size for free"),
        _("use dam 10 (the gap 0-17 the Dam faces)"),
        _chk_dam, _do_dam, _dam_candidates, args=("gap",),
        short=_p("ability", "Dam"),
    ),
    Ability(
        "improve", BEAVER, _("Improving the Dam"), (5,),
        _("with the Beaver on the Dam, grow one of your pieces on the Dam for free"),
        _("use improve F1 (your piece on the Dam)"),
        _chk_improve, _do_improve, _improve_candidates, args=("space",),
        acts_on=_grows_named,
        short=_p("ability", "Improving"),
    ),
    Ability(
        "hatch", TURTLE, _("Hatching a Baby"), (4,),
        _("turn the face-down Baby Turtle token on the Turtle's space face up: it is yours"),
        _("use hatch"), _chk_hatch, _do_hatch, _once(("hatch",)),
        short=_p("ability", "Hatching"),
    ),
    Ability(
        "baby", TURTLE, _("The Baby Turtle's first steps"), (1,),
        _("use one of your face-up Baby Turtle tokens (each once)"),
        _("use baby light (or a token that needs a space: use baby seed E5)"),
        _chk_baby, _do_baby, _baby_candidates, args=("token",), acts_on=_baby_acts_on,
        short=_("First steps"),
    ),
)  # fmt: skip
#: The records by notation word, in the rulebook's order (``ABILITY_LIST`` is the order in
#: which the legal actions list them: a Fox's Stealing comes before its Scratching).
ABILITY_RECORDS: dict[str, Ability] = {
    word: next(a for a in ABILITY_LIST if a.word == word) for word in ABILITY_ORDER
}
assert len(ABILITY_RECORDS) == len(ABILITY_LIST)

BABY_RECORDS: tuple[BabyTurtle, ...] = (
    BabyTurtle(
        DOUBLE,
        "double",
        BABY_TITLES[DOUBLE],
        _("one more action on a space you already used this turn"),
    ),
    BabyTurtle(
        B_SMALL,
        "small",
        BABY_TITLES[B_SMALL],
        _("a small tree from your player board to your available area"),
    ),
    BabyTurtle(
        B_MEDIUM,
        "medium",
        BABY_TITLES[B_MEDIUM],
        _("a medium tree from your player board to your available area"),
    ),
    BabyTurtle(
        HARVEST,
        "harvest",
        BABY_TITLES[HARVEST],
        _("collect one of your large trees (named) without paying light"),
        needs_space=True,
    ),
    BabyTurtle(B_LIGHT, "light", BABY_TITLES[B_LIGHT], _("+{n} light", n=BABY_LIGHT)),
    BabyTurtle(
        B_SEED,
        "seed",
        BABY_TITLES[B_SEED],
        _("plant an available seed on any empty space (named) for free"),
        needs_space=True,
    ),
    BabyTurtle(
        SCORING,
        "scoring",
        BABY_TITLES[SCORING],
        _("{scoring_points} points at the end", scoring_points=SCORING_POINTS),
    ),
    BabyTurtle(
        RICH, "rich", BABY_TITLES[RICH], _("your next collect takes a token of one more leaf")
    ),
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
    ext: Moonlight = state.ext
    seat = cast(int, state.current_seat)  # play: a seat is to act
    ability = ABILITY_RECORDS[a.args[0]]
    owner, title = ability.animal, ability.title
    animal = ext.animal[seat] if ext.animal else -1
    if animal < 0 or ext.at[seat] < 0:
        return _("You have no animal.")
    if animal != owner:
        return _(
            "{title} is the {owner}'s ability; your animal is the {animal}.",
            title=title,
            owner=ANIMAL_TITLES[owner],
            animal=ANIMAL_TITLES[animal],
        )
    if ext.used & ABILITY_BIT[ability.word]:
        return _("You already used {title} this turn (each ability once per turn).", title=title)
    reason = ability.check(state, a, seat, ext.at[seat])
    if reason:
        return reason
    if reason := _used_space(state, ability, a, ext.at[seat]):
        return reason
    cost = ability.cost(state, a)
    lunar = state.seats[seat].lunar
    if lunar < cost:
        if ability.levels:
            return _("{title} level {level} costs {cost}; you have {lunar}.", title=title,
                     level=a.args[1], cost=cost_word(cost), lunar=lunar)  # fmt: skip
        if ability.level_by_leaves:
            leaves = LEAVES[ext.at[seat]]
            return _n("{title} level {level} (a {level}-leaf space) costs {cost}; you have "
                      "{lunar}.", "{title} level {level} (a {level}-leaf space) costs {cost}; "
                      "you have {lunar}.", leaves, title=title, level=leaves,
                      cost=cost_word(cost), lunar=lunar)  # fmt: skip
        return _("{title} costs {cost}; you have {lunar}.", title=title, cost=cost_word(cost),
                 lunar=lunar)  # fmt: skip
    return None


def _used_space(state: GameState, ability: Ability, a: Action, here: int) -> str | None:
    """An ability that counts as an action cannot act on a space already used this turn."""
    if ability.acts_on is None:
        return None
    acted = ability.acts_on(a, here)
    if acted is not None and state.activated >> acted[1] & 1:
        return _(
            "{space} was already used this turn (one action per space per turn), and {title} "
            "counts as a {action} there.",
            space=LABELS[acted[1]],
            title=ability.title,
            action=ACTION_NOUNS.get(acted[0], acted[0]),
        )
    return None


def do_use(state: GameState, a: Action) -> GameState:
    s = state.copy()
    seat = cast(int, s.current_seat)  # play: a seat is to act
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


_USES: dict[Args, Action] = {}


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


def format_use(args: Args) -> str:
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
        raise IllegalAction(reason_of(e)) from None


def _animal_word(word: str, usage: str) -> int:
    if word not in ANIMAL_WORDS:
        raise IllegalAction(
            _(
                "'{word}' is not an animal ({names}). Write {usage}.",
                word=word,
                names=", ".join(ANIMALS),
                usage=usage,
            )
        )
    return ANIMAL_WORDS[word]


def _parse_token(rest: list[str], usage: str) -> Args:
    if rest[-2:] == ["rich", "soil"]:
        rest = [*rest[:-2], "rich"]
    if not rest or rest[0] not in BABY_INDEX:
        raise IllegalAction(
            _("Baby Turtle tokens: {names}. {usage}", names=", ".join(BABIES), usage=usage)
        )
    token = BABY_INDEX[rest[0]]
    if BABY_RECORDS[token].needs_space:
        if len(rest) != 2:
            raise IllegalAction(
                _("Write it as 'use baby {babies} E5' (the space).", babies=BABIES[token])
            )
        return (token, label(rest[1]))
    if len(rest) != 1:
        raise IllegalAction(_("Write it as 'use baby {babies}'.", babies=BABIES[token]))
    return (token,)


def parse_use(words: list[str]) -> Args:
    if not words:
        raise IllegalAction(
            _(
                "Write an ability as 'use' and its name, e.g. 'use hunt 2'; abilities: {names}.",
                names=", ".join(ABILITY_RECORDS),
            )  # fmt: skip
        )
    word = ABILITY_WORDS.get(words[0])
    if word is None:
        raise IllegalAction(
            _(
                "'{words}' is not an ability. Abilities: {names}.",
                words=words[0],
                names=", ".join(ABILITY_RECORDS),
            )
        )
    ability = ABILITY_RECORDS[word]
    rest = words[1:]
    usage = _("Write it as '{usage}'.", usage=ability.usage)
    if ability.args == ("token",):
        return (word, *_parse_token(rest, usage))
    if len(rest) != len(ability.args) + bool(ability.levels):
        raise IllegalAction(usage)
    out: list[object] = [word]
    if ability.levels:
        top = ability.levels[-1]
        if not rest[0].isdigit() or not 1 <= int(rest[0]) <= top:
            raise IllegalAction(
                _(
                    "{title} has levels 1 to {top}. {usage}",
                    title=ability.title,
                    top=top,
                    usage=usage,
                )
            )
        out.append(int(rest.pop(0)))
    for kind, text in zip(ability.args, rest, strict=True):
        if kind == "gap":
            if not text.isdigit() or not 0 <= int(text) < N_GAPS:
                raise IllegalAction(_("The Dam is named by its gap, 0 to 17. {usage}", usage=usage))
            out.append(int(text))
        elif kind == "animal":
            out.append(_animal_word(text, usage))
        else:
            out.append(label(text))
    return tuple(out)
