"""What the bot says about the forest animals of Under the Moonlight: each animal's abilities,
their lunar costs and a one-line effect, and the Baby Turtle tokens.

The names, costs and amounts are read from `engine.moonlight`; only the wording lives here. The
draft panel, the "Use ability" panel and `/ps rules topic:animals` all print from this module.
"""

from __future__ import annotations

from engine import moonlight as ml
from translation import Text, _, _n, _p, join

#: Each ability's one record (name, levels, lunar costs, effect sentence), by notation word.
RECORDS = ml.ABILITY_RECORDS

#: The notation's words for an animal's abilities, in the engine's order.
ANIMAL_ABILITIES: dict[str, tuple[str, ...]] = {
    name: tuple(word for word, record in RECORDS.items() if record.animal == i)
    for i, name in enumerate(ml.ANIMALS)
}

#: The animals' passive traits (no lunar cost).
PASSIVE = {"squirrel": _("moves one or two steps a turn (other animals one)")}

#: The animals' names, by the engine's word (the rulebook's names in each language).
ANIMAL_NAMES: dict[str, Text] = {
    "boar": _p("animal", "Boar"),
    "hedgehog": _p("animal", "Hedgehog"),
    "squirrel": _p("animal", "Squirrel"),
    "fox": _p("animal", "Fox"),
    "owl": _p("animal", "Owl"),
    "badger": _p("animal", "Badger"),
    "beaver": _p("animal", "Beaver"),
    "turtle": _p("animal", "Turtle"),
}


def animal_name(word: str) -> Text | str:
    """`Owl` for `owl` (a text of the catalogs)."""
    return ANIMAL_NAMES.get(word, word.capitalize())


#: The Baby Turtle tokens that name a space, as typed after the token.
BABY_TARGETS = {"harvest": " C3", "seed": " E5"}


def lunar(n: int) -> Text:
    """`5 lunar points`, `1 lunar point`."""
    return _n("{n} lunar point", "{n} lunar points", n)


def title(word: str) -> str:
    """An ability's title, e.g. `Nighttime Hunting`."""
    return RECORDS[word].title


def _costs(word: str) -> str:
    """`5/9/12`, `5/6/7/8`, `4`: an ability's lunar costs, by level or leaves."""
    return "/".join(map(str, RECORDS[word].costs))


def cost_text(word: str) -> str:
    """What an ability costs: `5/9/12 lunar points` (by level), `4 lunar points`."""
    return RECORDS[word].cost_text()


def usage(word: str) -> str:
    """How an ability is typed: `use hunt 1/2/3`, `use scare owl C3`."""
    record = RECORDS[word]
    if record.levels:
        return f"use {word} {'/'.join(map(str, record.levels))}"
    if word == "baby":
        return "use baby <token>"
    return record.usage.split(" (")[0]


def ability_line(word: str) -> Text:
    """`**Nighttime Hunting** (`use hunt 1/2/3`, 5/9/12 lunar points): gain 3/7/10 light`."""
    return join(
        ["**", title(word), f"** (`{usage(word)}`, ", cost_text(word), "): ", RECORDS[word].effect],
        "",
    )


def card(animal: str, *, header: bool = True) -> Text:
    """An animal and all its abilities, one per line (for the draft and the rules)."""
    lines: list[str] = [join(["**", animal_name(animal), "**"], "")] if header else []
    if animal in PASSIVE:
        lines.append(_("\N{BULLET} always: {what}", what=PASSIVE[animal]))
    lines += [join(["\N{BULLET}", ability_line(word)]) for word in ANIMAL_ABILITIES[animal]]
    return join(lines, "\n")


def short(animal: str) -> Text:
    """One line: `Owl: Nighttime Hunting 5/9/12`, within a select option's 100 characters."""
    parts = [join([title(word), _costs(word)]) for word in ANIMAL_ABILITIES[animal]]
    return _("{animal}: {abilities} lunar", animal=animal_name(animal), abilities=join(parts, ", "))


def babies_text() -> Text:
    """The Baby Turtle tokens, one per line."""
    return join(
        [
            join(
                [
                    "\N{BULLET} **",
                    baby.title,
                    f"** (`use baby {baby.word}{BABY_TARGETS.get(baby.word, '')}`): ",
                    baby.effect,
                ],
                "",
            )
            for baby in ml.BABY_RECORDS
        ],
        "\n",
    )
