"""The expansion's notation and position format (random legal play with every mode, alone and
together, and with Cynthias is in test_engine_conformance)."""

from __future__ import annotations

import re

import pytest

import engine
from engine import Config, IllegalAction, parse_action
from engine.moonlight import ANIMALS, BABIES
from tests.play_helpers import EXPANSION_ACTIONS, favour_abilities, random_game


def test_every_expansion_action_has_one_canonical_spelling():
    texts = [str(a) for a in EXPANSION_ACTIONS]
    assert len(texts) == len(set(texts))
    for action in EXPANSION_ACTIONS:
        assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("keep fox", "animal fox"),
        ("animal OWL", "animal owl"),
        ("settle c4", "settle C4"),
        ("elder d4", "elder D4"),
        ("stone c2", "moonstone C2"),
        ("m c3", "move C3"),
        ("step c3", "move C3"),
        ("u hunt 2", "use hunt 2"),
        ("use hunting 2", "use hunt 2"),
        ("use digging 1", "use dig 1"),
        ("use build 10", "use dam 10"),
        ("use scratch c5", "use scratch C5"),
        ("use scare owl, d5", "use scare owl D5"),
        ("use steal badger", "use steal badger"),
        ("use running", "use run"),
        ("use baby rich soil", "use baby rich"),
        ("use baby seed e5", "use baby seed E5"),
        ("use baby harvest c3", "use baby harvest C3"),
        ("use steps double", "use baby double"),
        ("use improve f1", "use improve F1"),
    ],
)
def test_forgiving_forms_parse_to_the_canonical_action(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("use", "Write an ability as 'use' and its name"),
        ("use fly", "'fly' is not an ability"),
        ("use hunt 4", "Nighttime Hunting has levels 1 to 3"),
        ("use hunt", "Write it as 'use hunt 1 (2 or 3)'"),
        ("use run 2", "Write it as 'use run'"),
        ("animal dragon", "'dragon' is not an animal"),
        ("animal", "Write the animal you keep as 'animal fox'"),
        ("use dam 18", "The Dam is named by its gap, 0 to 17"),
        ("use baby seed", "Write it as 'use baby seed E5'"),
        ("use baby gold", "Baby Turtle tokens:"),
        ("use baby light c3", "Write it as 'use baby light'"),
        ("use scare owl", "Write it as 'use scare owl C3"),
        ("move", "Write an animal's step as 'move C3'"),
        ("move z9", "'z9' is not a space"),
    ],
)
def test_malformed_expansion_text_is_refused_with_a_sentence(text, message):
    with pytest.raises(IllegalAction, match=re.escape(message)):
        parse_action(text)


def test_the_position_format_has_a_moonlight_key():
    cfg = Config(seats=("human", "human"), moon_animals=True, elder_tree=True, moonstones=True)
    state, _ = random_game(cfg, 5, favour=favour_abilities)
    d = state.to_dict()["moonlight"]
    assert set(d) == {"moon", "elder", "moonstones", "dam", "beach", "seats", "turn"}
    assert d["moon"]["phase"] in ("half", "full") and 0 <= d["moon"]["gap"] < 18
    assert len(d["moonstones"]) == 3 and isinstance(d["elder"], str)
    for seat in d["seats"]:
        assert seat["animal"] in ANIMALS and all(b in BABIES for b in seat["babies"])
    base = engine.new_game(Config(seats=("human", "human")))
    assert "moonlight" not in base.to_dict()
