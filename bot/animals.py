"""What the bot says about the forest animals of Under the Moonlight: each animal's abilities,
their lunar costs and a one-line effect, and the Baby Turtle tokens.

The names, costs and amounts are read from `engine.moonlight`; only the wording lives here. The
draft panel, the "Use ability" panel and `/ps rules topic:animals` all print from this module.
"""

from __future__ import annotations

from engine import moonlight as ml

#: The notation's words for an animal's abilities, in the engine's order.
ANIMAL_ABILITIES: dict[str, tuple[str, ...]] = {
    name: tuple(word for word, (owner, _) in ml.ABILITIES.items() if owner == i)
    for i, name in enumerate(ml.ANIMALS)
}

_HUNT = "/".join(str(n) for n in ml.HUNT_GAIN[1:])

#: One line per ability: what it does (costs come from `cost_text`).
EFFECTS: dict[str, str] = {
    "dig": "collect your large tree on the Boar's space without paying light; "
    "level 2 then plants a seed from your available area there",
    "run": "the Hedgehog takes one more step this turn",
    "plant": "a seed from your player board onto the Hedgehog's empty space, without buying it",
    "eat": "eat an opponent's seed on the Squirrel's space: its owner gets 1 light back, "
    "you get 1 light per leaf of the space",
    "scare": "move an animal next to the Fox one step",
    "scratch": "move the seed on the Fox's space 1 or 2 spaces in a straight line",
    "steal": f"take {ml.STEAL_AMOUNT} light from a seat whose animal is next to the Fox",
    "hunt": f"gain {_HUNT} light",
    "grow": "your seed on the Badger's space becomes a small tree "
    "(level 2: the tree may come from your player board)",
    "dam": "build the Dam over the Beaver (two border spaces and the 2-leaf space between, "
    "touching the river): every piece on it grows one size for free",
    "improve": "with the Beaver on the Dam, grow one of your pieces on the Dam for free",
    "hatch": "turn the face-down Baby Turtle token on the Turtle's space face up: it is yours",
    "baby": "use one of your face-up Baby Turtle tokens (each once)",
}
#: The animals' passive traits (no lunar cost).
PASSIVE = {"squirrel": "moves one or two steps a turn (other animals one)"}

#: The Baby Turtle tokens by the notation's word: what each does.
BABY_EFFECTS: dict[str, str] = {
    "double": "one more action on a space you already used this turn",
    "small": "a small tree from your player board to your available area",
    "medium": "a medium tree from your player board to your available area",
    "harvest": "collect one of your large trees (named) without paying light",
    "light": f"+{ml.BABY_LIGHT} light",
    "seed": "plant an available seed on any empty space (named) for free",
    "scoring": f"{ml.SCORING_POINTS} points at the end",
    "rich": "your next collect takes a token of one more leaf",
}

#: The Baby Turtle tokens that name a space, as typed after the token.
BABY_TARGETS = {"harvest": " C3", "seed": " E5"}


def lunar(n: int) -> str:
    """`5 lunar points`, `1 lunar point`."""
    return f"{n} lunar point{'s' if n != 1 else ''}"


def title(word: str) -> str:
    """An ability's title, e.g. `Nighttime Hunting`."""
    return ml.ABILITIES[word][1]


def cost_text(word: str) -> str:
    """What an ability costs: `5/9/12 lunar points` (by level), `4 lunar points`."""
    if word in ml.LEVEL_COSTS:
        return f"{'/'.join(map(str, ml.LEVEL_COSTS[word][1:]))} lunar points"
    if word == "eat":
        costs = ml.EAT_COST[1:]
        return f"{'/'.join(map(str, costs))} lunar points on a 1/2/3/4-leaf space"
    return lunar(ml.FLAT_COSTS[word])


def usage(word: str) -> str:
    """How an ability is typed: `use hunt 1/2/3`, `use scare owl C3`."""
    if word in ml.LEVEL_COSTS:
        levels = range(1, len(ml.LEVEL_COSTS[word]))
        return f"use {word} {'/'.join(map(str, levels))}"
    if word == "baby":
        return "use baby <token>"
    return ml.USE_USAGE[word].split(" (")[0]


def ability_line(word: str) -> str:
    """`**Nighttime Hunting** (`use hunt 1/2/3`, 5/9/12 lunar points): gain 3/7/10 light`."""
    return f"**{title(word)}** (`{usage(word)}`, {cost_text(word)}): {EFFECTS[word]}"


def card(animal: str, *, header: bool = True) -> str:
    """An animal and all its abilities, one per line (for the draft and the rules)."""
    lines = [f"**{animal.capitalize()}**"] if header else []
    if animal in PASSIVE:
        lines.append(f"\N{BULLET} always: {PASSIVE[animal]}")
    lines += [f"\N{BULLET} {ability_line(word)}" for word in ANIMAL_ABILITIES[animal]]
    return "\n".join(lines)


def short(animal: str) -> str:
    """One line: `Owl: Nighttime Hunting 5/9/12`, within a select option's 100 characters."""
    parts = []
    for word in ANIMAL_ABILITIES[animal]:
        if word in ml.LEVEL_COSTS:
            costs = "/".join(map(str, ml.LEVEL_COSTS[word][1:]))
        elif word == "eat":
            costs = "/".join(map(str, ml.EAT_COST[1:]))
        else:
            costs = str(ml.FLAT_COSTS[word])
        parts.append(f"{title(word)} {costs}")
    return f"{animal.capitalize()}: " + ", ".join(parts) + " lunar"


def babies_text() -> str:
    """The Baby Turtle tokens, one per line."""
    return "\n".join(
        f"\N{BULLET} **{ml.BABY_TITLES[i]}** (`use baby {word}{BABY_TARGETS.get(word, '')}`): "
        f"{BABY_EFFECTS[word]}"
        for i, word in enumerate(ml.BABIES)
    )
