"""Setup with Under the Moonlight (docs/rules-data.md#72-setup-with-the-expansion): the draft,
animal placement, the Great Elder Tree, moonstones, Baby Turtle tokens, Cynthia's placements,
then the starting trees."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import engine
from engine import Config, IllegalAction
from engine.game import setup_schedule
from engine.geometry import LABEL_INDEX, LABELS, LEAVES, bits
from engine.moonlight import ANIMALS, BABIES

H, C = "human", "cynthia"
DECK = {c["id"]: c for c in json.loads(Path("data/cynthia-deck.json").read_text())["cards"]}


def expansion_steps(cfg: Config):
    return [x for x in setup_schedule(cfg) if x[1] != "tree"]


@pytest.mark.parametrize(
    ("seats", "modes", "steps"),
    [
        (
            (H, H),
            (True, True, True),
            [(0, "animal"), (1, "animal"), (1, "settle"), (0, "settle"), (1, "elder"),
             (0, "moonstone"), (1, "moonstone"), (0, "moonstone")],
        ),
        (
            (H, H, H),
            (True, True, True),
            [(0, "animal"), (1, "animal"), (2, "animal"), (2, "settle"), (1, "settle"),
             (0, "settle"), (2, "elder"), (1, "moonstone"), (0, "moonstone")],
        ),
        (
            (H, H, H, H),
            (True, True, True),
            [(0, "animal"), (1, "animal"), (2, "animal"), (3, "animal"), (3, "settle"),
             (2, "settle"), (1, "settle"), (0, "settle"), (3, "elder"), (2, "moonstone")],
        ),
        ((H, H, H, H), (False, False, True), []),  # 4 seats, no Elder Tree: no moonstones
        ((H, H, H), (False, False, True), [(2, "moonstone"), (1, "moonstone")]),
        ((H, H), (False, True, False), [(1, "elder")]),
        (
            (H, H, C),
            (True, True, True),
            [(0, "animal"), (1, "animal"), (1, "settle"), (0, "settle"), (2, "elder"),
             (1, "moonstone"), (0, "moonstone")],
        ),
    ],
)  # fmt: skip
def test_setup_order(seats, modes, steps):
    cfg = Config(seats=seats, moon_animals=modes[0], elder_tree=modes[1], moonstones=modes[2])
    assert expansion_steps(cfg) == steps
    trees = [x for x in setup_schedule(cfg) if x[1] == "tree"]
    assert trees == [(k % len(seats), "tree") for k in range(2 * len(seats))]


def test_the_draft_deals_two_different_animals_to_each_human_from_the_game_rng():
    cfg = Config(seats=(H, H, C, H), moon_animals=True)
    state = engine.new_game(cfg, seed=5)
    dealt = state.ext.dealt
    assert dealt[2] == ()
    all_dealt = [a for d in dealt for a in d]
    assert [len(d) for d in dealt] == [2, 2, 0, 2] and len(set(all_dealt)) == 6
    assert engine.new_game(cfg, seed=5).ext.dealt == dealt  # deterministic
    others = {engine.new_game(cfg, seed=k).ext.dealt for k in range(10)}
    assert len(others) > 1  # and random


def test_keeping_an_animal():
    state = engine.new_game(Config(seats=(H, H), moon_animals=True), seed=2)
    dealt = state.ext.dealt[0]
    assert [str(a) for a in engine.legal_actions(state)] == [f"animal {ANIMALS[a]}" for a in dealt]
    other = next(a for a in range(8) if a not in dealt)
    with pytest.raises(IllegalAction, match="You were dealt the"):
        engine.apply(state, f"animal {ANIMALS[other]}")
    with pytest.raises(IllegalAction, match="first keep one of your two animals"):
        engine.apply(state, "place A1")
    after = engine.apply(state, f"animal {ANIMALS[dealt[1]]}")
    assert after.ext.animal[0] == dealt[1] and after.current_seat == 1


def play_drafts(state, pick=0):
    while state.phase == "setup" and engine.legal_actions(state)[0].verb == "animal":
        state = engine.apply(state, engine.legal_actions(state)[pick])
    return state


def test_animals_are_placed_backwards_on_empty_3_leaf_spaces():
    state = play_drafts(engine.new_game(Config(seats=(H, H, H), moon_animals=True), seed=4))
    assert state.current_seat == 2
    assert [LABELS[a.args[0]] for a in engine.legal_actions(state)] == [
        "C3", "C4", "D3", "D5", "E3", "E4"
    ]  # fmt: skip
    with pytest.raises(IllegalAction, match="Animals start on a 3-leaf space"):
        engine.apply(state, "settle D4")
    state = engine.apply(state, "settle C3")
    assert state.current_seat == 1
    with pytest.raises(IllegalAction, match="Another animal is already on C3"):
        engine.apply(state, "settle C3")
    state = engine.apply(engine.apply(state, "settle D5"), "settle E4")
    assert [LABELS[i] for i in state.ext.at] == ["E4", "D5", "C3"]
    assert state.phase == "setup" and engine.legal_actions(state)[0].verb == "place"


def test_elder_tree_and_moonstones_avoid_animals_and_obstacles():
    cfg = Config(seats=(H, H), moon_animals=True, elder_tree=True, moonstones=True)
    state = play_drafts(engine.new_game(cfg, seed=8))
    state = engine.apply(engine.apply(state, "settle C3"), "settle C4")
    assert state.current_seat == 1
    legal = {LABELS[a.args[0]] for a in engine.legal_actions(state)}
    assert "C3" not in legal and "C4" not in legal and "D4" in legal
    with pytest.raises(IllegalAction, match="C3 holds an animal"):
        engine.apply(state, "elder C3")
    with pytest.raises(IllegalAction, match="place the Great Elder Tree"):
        engine.apply(state, "moonstone D4")
    state = engine.apply(state, "elder D4")
    assert state.ext.elder == LABEL_INDEX["D4"] and state.current_seat == 0
    with pytest.raises(IllegalAction, match="D4 holds the Great Elder Tree"):
        engine.apply(state, "moonstone D4")
    state = engine.apply(state, "moonstone E3")
    with pytest.raises(IllegalAction, match="E3 holds a moonstone"):
        engine.apply(state, "moonstone E3")
    state = engine.apply(engine.apply(state, "moonstone A1"), "moonstone G4")
    assert [LABELS[i] for i in bits(state.ext.stones)] == ["A1", "E3", "G4"]
    assert state.ext.obstacles == state.ext.stones | 1 << LABEL_INDEX["D4"]
    # Starting trees: A1 and G4 are obstacles now.
    legal = {LABELS[a.args[0]] for a in engine.legal_actions(state)}
    assert legal == {LABELS[i] for i in range(37) if LEAVES[i] == 1} - {"A1", "G4"}
    with pytest.raises(IllegalAction, match="A1 is already taken"):
        engine.apply(state, "place A1")


def seed_with_turtle(cfg):
    for seed in range(200):
        state = engine.new_game(cfg, seed=seed)
        if 7 in state.ext.dealt[0]:
            return state
    raise AssertionError("no seed deals the Turtle")


def test_baby_turtle_tokens_lie_on_the_beaches_when_the_turtle_is_kept():
    cfg = Config(seats=(H, H), moon_animals=True, elder_tree=True)
    state = seed_with_turtle(cfg)
    state = engine.apply(state, "animal turtle")
    assert state.ext.beach == ()
    state = engine.apply(state, engine.legal_actions(state)[0])
    beach = state.ext.beach
    assert [LABELS[i] for i, _ in beach] == ["A1", "A4", "D1", "D7", "G1", "G4"]
    assert len({t for _, t in beach}) == 6
    state = engine.apply(engine.apply(state, "settle C3"), "settle C4")
    with pytest.raises(IllegalAction, match="A4 holds a Baby Turtle token"):
        engine.apply(state, "elder A4")
    assert "A4" not in {LABELS[a.args[0]] for a in engine.legal_actions(state)}


def test_no_tokens_when_the_turtle_is_dealt_but_not_kept():
    cfg = Config(seats=(H, H), moon_animals=True)
    state = seed_with_turtle(cfg)
    other = next(a for a in state.ext.dealt[0] if a != 7)
    state = engine.apply(state, f"animal {ANIMALS[other]}")
    state = engine.apply(state, engine.legal_actions(state)[0])
    assert 7 not in state.ext.animal and state.ext.beach == ()
    assert state.to_dict()["moonlight"]["beach"] == {}


def ring2_clockwise() -> list[str]:
    """The 2-leaf ring clockwise on screen from B4 (docs/rules-data.md#1-board), by angle."""

    def angle(label):
        q, r = LABEL_INDEX[label], None
        q, r = engine.geometry.COORDS[q]
        x, y = math.sqrt(3) * (q + r / 2), 1.5 * r
        return math.atan2(y, x)  # y grows downward: increasing angle is clockwise

    ring = [LABELS[i] for i in range(37) if LEAVES[i] == 2]
    start = angle("B4")
    return sorted(ring, key=lambda x: (angle(x) - start) % (2 * math.pi))


def test_cynthia_places_the_elder_tree_and_moonstones_by_directional_selection():
    cfg = Config(seats=(H, C), elder_tree=True, moonstones=True)
    state = engine.new_game(cfg, seed=11)
    assert state.current_seat == 1  # Cynthia is the last seat: she places the Elder Tree
    deck = state.seat_ext[1].cards
    setup = DECK[deck[0]]["setup"]
    order = ring2_clockwise()
    if setup["direction"] == "ccw":
        order = order[:1] + order[:0:-1]
    expected = order[(setup["count"] - 1) % 12]
    legal = engine.legal_actions(state)
    assert [str(a) for a in legal] == [f"elder {expected}"]
    assert engine.auto_action(state) == legal[0]
    assert "Directional Selection" in legal[0].explanation
    with pytest.raises(IllegalAction, match="Cynthia's cards decide"):
        engine.apply(state, "elder A1" if expected != "A1" else "elder A2")
    state = engine.apply(state, legal[0])
    assert state.seat_ext[1].cards == deck[1:]
    assert LABELS[state.ext.elder] == expected
    # Moonstones: the human (seat 0), then Cynthia, then the human.
    state = engine.apply(state, "moonstone A1")
    card = DECK[state.seat_ext[1].cards[0]]["setup"]
    order = ring2_clockwise()
    if card["direction"] == "ccw":
        order = order[:1] + order[:0:-1]
    order = [x for x in order if x != expected]
    stone = order[(card["count"] - 1) % 11]
    assert [str(a) for a in engine.legal_actions(state)] == [f"moonstone {stone}"]
    state = engine.apply(state, f"moonstone {stone}")
    assert state.current_seat == 0


def test_a_whole_setup_then_the_first_photosynthesis_gives_lunar_points():
    cfg = Config(seats=(H, H), moon_animals=True)
    state = play_drafts(engine.new_game(cfg, seed=3))
    # No 3-leaf space is on a beam of gap 10, so nobody is lit at the first photosynthesis.
    state = engine.apply(engine.apply(state, "settle E3"), "settle C3")
    for label in ("A1", "A4", "G1", "G4"):
        state = engine.apply(state, f"place {label}")
    assert state.phase == "play" and state.round == 1
    assert [s.lunar for s in state.seats] == [2, 2]


def test_an_animal_on_a_lit_3_leaf_space_gets_the_first_lunar_points():
    # No 3-leaf space is on a beam of gap 10 (E1 D2 C2 B2 A2 / F1..F5): with a moonstone on
    # D2 (2-leaf, lit), the animal on D3 next to it is lit by the first photosynthesis.
    cfg = Config(seats=(H, H), moon_animals=True, moonstones=True)
    state = play_drafts(engine.new_game(cfg, seed=3))
    state = engine.apply(engine.apply(state, "settle E4"), "settle D3")
    for label in ("D2", "A2", "B1"):
        state = engine.apply(state, f"moonstone {label}")
    for label in ("A1", "A4", "G1", "G4"):
        state = engine.apply(state, f"place {label}")
    assert state.phase == "play"
    assert [s.lunar for s in state.seats] == [3, 2]
    assert any("Moonlight" in e for e in state.events)


def test_setup_replays_from_its_record():
    cfg = Config(seats=(H, C, H), moon_animals=True, elder_tree=True, moonstones=True)
    state = engine.new_game(cfg, seed=21)
    log = []
    while state.phase == "setup":
        action = engine.legal_actions(state)[-1]
        log.append(str(action))
        state = engine.apply(state, action)
    assert engine.replay(cfg, 21, log) == state
    assert engine.GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert "moonlight" in state.to_dict()
    assert sorted(BABIES) == sorted(set(BABIES))
