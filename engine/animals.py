"""The forest animals of Under the Moonlight (RULES-DATA 7.3): their moves, the abilities of
the 8 animals with their levels and lunar costs, the Baby Turtle tokens, the legal animal
decisions and the notation of ``move`` and ``use``.

The expansion's state, setup, moon and hooks are in ``moonlight``, which imports this module and
registers its verbs.
"""

from __future__ import annotations

from . import game as G
from .actions import Action, IllegalAction
from .geometry import ADJACENT_MASK, LABELS, LEAVES, N_CELLS, NEIGHBOUR, bits, parse_label
from .moon import DAM, DAM_GAPS, DAM_MASK, N_GAPS, RIVER_MASK
from .moonlight import (
    ABILITIES,
    ABILITY_BIT,
    ABILITY_WORDS,
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
    EAT_COST,
    FLAT_COSTS,
    FOX,
    HARVEST,
    HEDGEHOG,
    HUNT_GAIN,
    LEVEL_COSTS,
    NO_DOUBLE,
    OWL,
    PIECE_WORDS,
    RICH,
    RUN_BIT,
    SCORING,
    SQUIRREL,
    STEAL_AMOUNT,
    TURTLE,
    Moonlight,
    cost_word,
    gap_words,
    replace_at,
    setup_hint,
    steps_allowed,
)
from .pieces import LARGE, LIGHT_CAP, SEED, SMALL
from .state import PLAY, SETUP, GameState

# -- animal moves ---------------------------------------------------------------------------


def _playing(state: GameState) -> str | None:
    if state.phase == SETUP:
        return setup_hint(state)
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


def check_move(state: GameState, a: Action) -> str | None:
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


def do_move(state: GameState, a: Action) -> GameState:
    s = state.copy()
    ext = list(s.ext)
    ext[_AT] = replace_at(ext[_AT], s.current_seat, a.args[0])
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


def check_use(state: GameState, a: Action) -> str | None:
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
        return f"{title}{level} costs {cost_word(cost)}; you have {lunar}."
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
        return f"The Dam must touch the river (G3 G2 G1 F1 E1 D1); at {gap_words(gap)} it does not."
    if not DAM_MASK[gap] >> here & 1:
        return f"The Dam must cover the Beaver's space {LABELS[here]}; at {gap_words(gap)} it does not."
    if state.ext.dam == gap:
        return f"The Dam already stands at {gap_words(gap)}: build it somewhere else."
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


def do_use(state: GameState, a: Action) -> GameState:
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
    s.ext = s.ext._replace(at=replace_at(s.ext.at, k, a.args[2]))


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
    s.events = (*s.events, f"The Beaver builds the Dam at {gap_words(gap)}: {what}.")


def _do_improve(s, a, seat, here):
    _grow_free(s, a.args[1])


def _do_hatch(s, a, seat, here):
    ext = s.ext
    token = ext.beach_token(here)
    s.ext = ext._replace(
        beach=tuple(x for x in ext.beach if x[0] != here),
        babies=replace_at(ext.babies, seat, (*ext.babies[seat], token)),
    )
    s.events = (*s.events, f"The Turtle hatches a Baby Turtle: {BABY_TITLES[token]}.")


def _do_baby(s, a, seat, here):
    ext = s.ext
    token = a.args[1]
    mine = list(ext.babies[seat])
    mine.remove(token)
    s.ext = ext = ext._replace(babies=replace_at(ext.babies, seat, tuple(mine)))
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
        s.ext = ext._replace(scoring=replace_at(ext.scoring, seat, ext.scoring[seat] + 1))
    elif token == RICH:
        s.ext = ext._replace(rich=replace_at(ext.rich, seat, ext.rich[seat] + 1))


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


def legal_animal_play(state: GameState) -> list[Action]:
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


def format_use(args: tuple) -> str:
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


def one_label_parser(verb: str, usage: str):
    def parse(words: list[str]) -> tuple:
        if len(words) != 1:
            raise IllegalAction(f"Write {verb} as '{usage}'.")
        return (_label(words[0]),)

    return parse


def parse_animal(words: list[str]) -> tuple:
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


def parse_use(words: list[str]) -> tuple:
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
