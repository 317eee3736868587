"""Under the Moonlight's names and numbers: the animals, the Baby Turtle tokens, the amounts."""

from __future__ import annotations

ANIMALS = ("boar", "hedgehog", "squirrel", "fox", "owl", "badger", "beaver", "turtle")
BOAR, HEDGEHOG, SQUIRREL, FOX, OWL, BADGER, BEAVER, TURTLE = range(8)
ANIMAL_INDEX = {name: i for i, name in enumerate(ANIMALS)}

BABIES = ("double", "small", "medium", "harvest", "light", "seed", "scoring", "rich")
DOUBLE, B_SMALL, B_MEDIUM, HARVEST, B_LIGHT, B_SEED, SCORING, RICH = range(8)
BABY_INDEX = {name: i for i, name in enumerate(BABIES)}
BABY_TITLES = ("Double", "Small", "Medium", "Harvest", "Light", "Seed", "Scoring", "Rich soil")

#: Light from Nighttime Hunting by level (index 0 unused).
HUNT_GAIN = (0, 3, 7, 10)
STEAL_AMOUNT = 2
BABY_LIGHT = 3
SCORING_POINTS = 3
LUNAR_START = 2

#: Double token state for the current turn.
NO_DOUBLE, DOUBLE_READY, DOUBLE_SPENT = 0, 1, 2

PIECE_WORDS = ("seed", "small tree", "medium tree", "large tree")


def cost_word(n: int) -> str:
    return f"{n} lunar point{'s' if n != 1 else ''}"


#: The abilities' words in the notation (``use <word>``), in the rulebook's order of animals.
ABILITY_ORDER = (
    "dig", "run", "plant", "eat", "scare", "scratch", "steal",
    "hunt", "grow", "dam", "improve", "hatch", "baby",
)  # fmt: skip
#: Each ability's bit in ``Moonlight.used`` (the abilities used this turn).
ABILITY_BIT = {word: 1 << k for k, word in enumerate(ABILITY_ORDER)}
RUN_BIT = ABILITY_BIT["run"]
