"""Random legal play with every combination of the expansion's modes, 2-4 seats and Cynthias:
invariants, the legal list against the rules, the notation and the position format."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import Action, Config, IllegalAction, apply, legal_actions, parse_action
from engine.game import check
from engine.moonlight import ANIMALS, BABIES
from tests import play_helpers
from tests.play_helpers import BASE_ACTIONS, SPACES, check_base_invariants

EXPANSION_ACTIONS = (
    [Action("animal", (a,)) for a in range(8)]
    + [Action(verb, (i,)) for verb in ("settle", "elder", "moonstone", "move") for i in SPACES]
    + [Action("use", ("dig", k)) for k in (1, 2)]
    + [Action("use", ("hunt", k)) for k in (1, 2, 3)]
    + [Action("use", ("grow", k)) for k in (1, 2)]
    + [Action("use", (name,)) for name in ("run", "plant", "eat", "hatch")]
    + [Action("use", ("scare", a, i)) for a in range(8) for i in SPACES]
    + [Action("use", ("steal", a)) for a in range(8)]
    + [Action("use", ("scratch", i)) for i in SPACES]
    + [Action("use", ("improve", i)) for i in SPACES]
    + [Action("use", ("dam", g)) for g in range(18)]
    + [Action("use", ("baby", t)) for t in (0, 1, 2, 4, 6, 7)]
    + [Action("use", ("baby", t, i)) for t in (3, 5) for i in SPACES]
)
ALL_ACTIONS = BASE_ACTIONS + EXPANSION_ACTIONS


def random_game(cfg: Config, seed: int, on_state=None):
    """Random legal play that favours the animals' abilities a little."""
    return play_helpers.random_game(
        cfg, seed, on_state, favour=lambda legal: [a for a in legal if a.verb == "use"]
    )


def check_invariants(state, previous_piles):
    check_base_invariants(state, previous_piles)
    ext = state.ext
    for seat, s in enumerate(state.seats):
        assert 0 <= s.lunar <= 14
        if s.kind == "cynthia":
            assert s.lunar == 0 and ext.animal[seat] == -1
    spaces = [i for i in ext.at if i >= 0]
    assert len(spaces) == len(set(spaces))  # no two animals on one space
    assert not ext.animal_mask & ext.obstacles
    for i in engine.geometry.bits(ext.obstacles):
        assert state.cells[i] == -1  # nothing grows on an obstacle
    assert ext.obstacles == ext.stones | (1 << ext.elder if ext.elder >= 0 else 0)
    assert ext.stones.bit_count() <= 3
    assert len(ext.beach) + sum(len(b) for b in ext.babies) <= 6
    if ext.moon >= 0:
        assert 0 <= ext.moon < 18


MODES = [(m, e, s) for m in (0, 1) for e in (0, 1) for s in (0, 1) if m or e or s]
modes = st.sampled_from(MODES)
configs = st.builds(
    lambda kinds, m, rev, shadow: Config(
        seats=tuple(kinds),
        revolutions=rev,
        shadow_rule=shadow,
        moon_animals=bool(m[0]),
        elder_tree=bool(m[1]),
        moonstones=bool(m[2]),
    ),
    st.lists(st.sampled_from(["human", "human", "cynthia"]), min_size=2, max_size=4),
    modes,
    st.sampled_from([3, 3, 4]),
    st.booleans(),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(cfg, seed):
    piles = [engine.new_game(cfg, seed).piles]
    samples = []
    rnd = random.Random(seed)

    def on_state(state):
        check_invariants(state, piles[-1])
        piles.append(state.piles)
        if rnd.random() < 0.05:
            samples.append(state)

    final, actions = random_game(cfg, seed, on_state)
    assert final.is_over and final.round == 6 * cfg.revolutions
    assert engine.replay(cfg, seed, actions) == final
    for state in [*samples, final]:
        again = engine.GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert again == state
        assert again.to_dict() == state.to_dict()
    assert len(engine.scores(final)) == cfg.n_seats


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_the_actions_that_pass_the_rules(cfg, seed):
    rnd = random.Random(seed)
    sampled = []

    def on_state(state):
        if state.is_over or state.seats[state.current_seat].kind == "cynthia":
            return
        if rnd.random() < 0.03 or (state.ext.used and rnd.random() < 0.2):
            sampled.append(state)

    random_game(cfg, seed, on_state)
    for state in sampled[:12]:
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {a for a in ALL_ACTIONS if check(state, a) is None}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_raise_a_sentence_and_change_nothing(cfg, seed):
    rnd = random.Random(seed)
    states = []
    random_game(cfg, seed, lambda s: states.append(s) if rnd.random() < 0.03 else None)
    for state in states:
        if state.is_over or state.seats[state.current_seat].kind == "cynthia":
            continue
        legal = set(legal_actions(state))
        before = state.to_dict()
        for action in rnd.sample(EXPANSION_ACTIONS, 40):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as e:
                apply(state, action)
            assert str(e.value).endswith(".")
        assert state.to_dict() == before


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_canonical_notation_parses_back_to_the_action(seed):
    cfg = Config(seats=("human",) * 3, moon_animals=True, elder_tree=True, moonstones=True)

    def on_state(state):
        for action in legal_actions(state):
            text = str(action)
            assert parse_action(text) == action
            assert parse_action(text.upper().replace(" ", "  ")) == action

    random_game(cfg, seed, on_state)


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
    state, _ = random_game(cfg, 5)
    d = state.to_dict()["moonlight"]
    assert set(d) == {"moon", "elder", "moonstones", "dam", "beach", "seats", "turn"}
    assert d["moon"]["phase"] in ("half", "full") and 0 <= d["moon"]["gap"] < 18
    assert len(d["moonstones"]) == 3 and isinstance(d["elder"], str)
    for seat in d["seats"]:
        assert seat["animal"] in ANIMALS and all(b in BABIES for b in seat["babies"])
    base = engine.new_game(Config(seats=("human", "human")))
    assert "moonlight" not in base.to_dict()
