"""Under the Moonlight (docs/rules-data.md#7-under-the-moonlight) as a rule layer: the moon,
the forest animals, the Great Elder Tree and the moonstones, each mode usable alone or combined.

The expansion state is one immutable ``Moonlight`` tuple in ``GameState.ext`` (``ext``); setup
decisions are in ``setup``; each ability is one record in ``abilities`` (``ABILITY_RECORDS``,
``BABY_RECORDS``: name, levels, costs, effect, check, perform), the animals' steps in
``animals``; ``layer`` plugs it all into the base core through the hooks of ``engine.layers``.
The moon's geometry is ``engine.moon``. Importing this package registers the layer.

Decisions (docs/notation.md): ``animal fox`` (keep a dealt animal), ``settle C4`` (place it),
``elder D4``, ``moonstone C2``, ``move C3`` (one animal step), ``use <ability> ...``.
"""

from .abilities import (
    ABILITIES,
    ABILITY_LIST,
    ABILITY_RECORDS,
    ABILITY_WORDS,
    BABY_RECORDS,
    EAT_COST,
    FLAT_COSTS,
    LEVEL_COSTS,
    USE_USAGE,
    Ability,
    BabyTurtle,
    ability_cost,
)
from .ext import (
    Moonlight,
    arrange,
    ext_from_dict,
    gap_words,
    moonlit_next_photosynthesis,
    moonlit_spaces,
    replace_at,
    steps_allowed,
    tracker,
)
from .layer import MoonlightLayer
from .names import (
    ABILITY_BIT,
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
    DOUBLE_SPENT,
    FOX,
    HARVEST,
    HEDGEHOG,
    HUNT_GAIN,
    LUNAR_START,
    NO_DOUBLE,
    OWL,
    RICH,
    RUN_BIT,
    SCORING,
    SCORING_POINTS,
    SQUIRREL,
    STEAL_AMOUNT,
    TURTLE,
    cost_word,
)
from .setup import moonstone_count, setup_hint, setup_schedule

__all__ = [
    "ABILITIES", "ABILITY_BIT", "ABILITY_LIST", "ABILITY_RECORDS", "ABILITY_WORDS",
    "ANIMALS", "ANIMAL_INDEX", "BABIES", "BABY_INDEX", "BABY_LIGHT", "BABY_RECORDS",
    "BABY_TITLES", "BADGER", "BEAVER", "BOAR", "B_LIGHT", "B_MEDIUM", "B_SEED", "B_SMALL",
    "DOUBLE", "DOUBLE_READY", "DOUBLE_SPENT", "EAT_COST", "FLAT_COSTS", "FOX", "HARVEST",
    "HEDGEHOG", "HUNT_GAIN", "LEVEL_COSTS", "LUNAR_START", "NO_DOUBLE", "OWL", "RICH", "RUN_BIT",
    "SCORING", "SCORING_POINTS", "SQUIRREL", "STEAL_AMOUNT", "TURTLE", "USE_USAGE", "Ability",
    "BabyTurtle", "Moonlight", "MoonlightLayer", "ability_cost", "arrange", "cost_word",
    "ext_from_dict", "gap_words", "moonlit_next_photosynthesis", "moonlit_spaces",
    "moonstone_count", "replace_at", "setup_hint", "setup_schedule", "steps_allowed", "tracker",
]  # fmt: skip
