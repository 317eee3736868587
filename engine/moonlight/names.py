"""Under the Moonlight's names and numbers: the animals, the Baby Turtle tokens, the amounts."""

from __future__ import annotations

from translation import _, _n, _p, forms

ANIMALS = ("boar", "hedgehog", "squirrel", "fox", "owl", "badger", "beaver", "turtle")
BOAR, HEDGEHOG, SQUIRREL, FOX, OWL, BADGER, BEAVER, TURTLE = range(8)
ANIMAL_INDEX = {name: i for i, name in enumerate(ANIMALS)}
#: Words a player may type for an animal: the notation's, and the Dutch, French and Hebrew
#: names (``animal vos``, ``animal renard``, ``animal שועל`` all keep the fox).
ANIMAL_WORDS = {
    **ANIMAL_INDEX,
    "everzwijn": BOAR, "zwijn": BOAR, "egel": HEDGEHOG, "eekhoorn": SQUIRREL, "vos": FOX,
    "uil": OWL, "das": BADGER, "bever": BEAVER, "schildpad": TURTLE,
    "sanglier": BOAR, "hérisson": HEDGEHOG, "herisson": HEDGEHOG, "écureuil": SQUIRREL,
    "ecureuil": SQUIRREL, "renard": FOX, "hibou": OWL, "chouette": OWL, "blaireau": BADGER,
    "castor": BEAVER, "tortue": TURTLE,
    "חזיר": BOAR, "קיפוד": HEDGEHOG, "סנאי": SQUIRREL, "שועל": FOX, "ינשוף": OWL,
    "גירית": BADGER, "בונה": BEAVER, "צב": TURTLE,
}  # fmt: skip
#: The expansion's verbs in the other languages, by canonical verb.
LANGUAGE_VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "animal": {"nl": ("dier", "houd"), "fr": ("garder", "garde"), "he": ("חיה", "שמור")},
    "settle": {"nl": ("vestig", "zet"), "fr": ("installer", "installe"), "he": ("מקם",)},
    "elder": {"nl": ("oudeboom",), "fr": ("ancien",), "he": ("עתיק",)},
    "moonstone": {"nl": ("maansteen",), "fr": ("pierre",), "he": ("אבן",)},
    "move": {"nl": ("verplaats", "stap"), "fr": ("déplacer", "deplacer", "bouger"),
             "he": ("הזז", "זוז")},
    "use": {"nl": ("gebruik",), "fr": ("utiliser", "utilise"), "he": ("השתמש",)},
}  # fmt: skip
#: The animals' names inside a sentence (translatable; the notation keeps ``ANIMALS``).
ANIMAL_NAMES = (
    _p("animal", "boar"), _p("animal", "hedgehog"), _p("animal", "squirrel"),
    _p("animal", "fox"), _p("animal", "owl"), _p("animal", "badger"),
    _p("animal", "beaver"), _p("animal", "turtle"),
)  # fmt: skip
#: The animals' names as titles (the Boar, on a player's card).
ANIMAL_TITLES = (
    _p("animal", "Boar"), _p("animal", "Hedgehog"), _p("animal", "Squirrel"),
    _p("animal", "Fox"), _p("animal", "Owl"), _p("animal", "Badger"),
    _p("animal", "Beaver"), _p("animal", "Turtle"),
)  # fmt: skip
#: The animals' names in the forms a translation's template asks for with a format spec
#: (`translation.forms`): "{animal:the}" (French "la tortue", "l'écureuil", Dutch "het
#: everzwijn", Hebrew "חזיר הבר"), "{animal:The}" to start a sentence, "{owner:of_the}"
#: (French "de la tortue", "du castor"). English says "the {animal}" in its templates.
_THE = (
    _p("animal", "the Boar"), _p("animal", "the Hedgehog"), _p("animal", "the Squirrel"),
    _p("animal", "the Fox"), _p("animal", "the Owl"), _p("animal", "the Badger"),
    _p("animal", "the Beaver"), _p("animal", "the Turtle"),
)  # fmt: skip
_THE_FIRST = (
    _p("animal", "The Boar"), _p("animal", "The Hedgehog"), _p("animal", "The Squirrel"),
    _p("animal", "The Fox"), _p("animal", "The Owl"), _p("animal", "The Badger"),
    _p("animal", "The Beaver"), _p("animal", "The Turtle"),
)  # fmt: skip
_OF_THE = (
    _p("animal", "of the Boar"), _p("animal", "of the Hedgehog"), _p("animal", "of the Squirrel"),
    _p("animal", "of the Fox"), _p("animal", "of the Owl"), _p("animal", "of the Badger"),
    _p("animal", "of the Beaver"), _p("animal", "of the Turtle"),
)  # fmt: skip
for _i in range(len(ANIMALS)):
    for _name in (ANIMAL_NAMES[_i], ANIMAL_TITLES[_i]):
        forms(_name, the=_THE[_i], The=_THE_FIRST[_i], of_the=_OF_THE[_i])

BABIES = ("double", "small", "medium", "harvest", "light", "seed", "scoring", "rich")
DOUBLE, B_SMALL, B_MEDIUM, HARVEST, B_LIGHT, B_SEED, SCORING, RICH = range(8)
BABY_INDEX = {name: i for i, name in enumerate(BABIES)}
BABY_TITLES = (
    _p("baby turtle", "Double"), _p("baby turtle", "Small"), _p("baby turtle", "Medium"),
    _p("baby turtle", "Harvest"), _p("baby turtle", "Light"), _p("baby turtle", "Seed"),
    _p("baby turtle", "Scoring"), _p("baby turtle", "Rich soil"),
)  # fmt: skip

#: Light from Nighttime Hunting by level (index 0 unused).
HUNT_GAIN = (0, 3, 7, 10)
STEAL_AMOUNT = 2
BABY_LIGHT = 3
SCORING_POINTS = 3
LUNAR_START = 2

#: Double token state for the current turn.
NO_DOUBLE, DOUBLE_READY, DOUBLE_SPENT = 0, 1, 2

PIECE_WORDS = (_("seed"), _("small tree"), _("medium tree"), _("large tree"))


def cost_word(n: int) -> str:
    return _n("{n} lunar point", "{n} lunar points", n)


#: The abilities' words in the notation (``use <word>``), in the rulebook's order of animals.
ABILITY_ORDER = (
    "dig", "run", "plant", "eat", "scare", "scratch", "steal",
    "hunt", "grow", "dam", "improve", "hatch", "baby",
)  # fmt: skip
#: Each ability's bit in ``Moonlight.used`` (the abilities used this turn).
ABILITY_BIT = {word: 1 << k for k, word in enumerate(ABILITY_ORDER)}
RUN_BIT = ABILITY_BIT["run"]
