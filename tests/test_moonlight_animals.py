"""The forest animals (docs/rules-data.md#73-animals-and-abilities): moves and every ability at
every level, with its cost, its effect and each way it is refused."""

from __future__ import annotations

import re

import pytest

import engine
from engine import Config, IllegalAction, parse_action
from engine.game import check
from engine.geometry import LABEL_INDEX
from engine.moonlight import arrange
from engine.position import build
from tests.moon_positions import TWO, pos
from tests.play_helpers import ALL_ACTIONS

H = "human"
THREE = Config(seats=(H, H, H), moon_animals=True)


def ok(state, text):
    """Apply a legal action (it must be listed by legal_actions)."""
    assert parse_action(text) in engine.legal_actions(state), text
    return engine.apply(state, text)


def refused(state, text, match):
    with pytest.raises(IllegalAction, match=re.escape(match)) as e:
        engine.apply(state, text)
    assert str(e.value).endswith(".")
    assert parse_action(text) not in engine.legal_actions(state)


def at(state, label):
    return state.piece_at(LABEL_INDEX[label])


def where(state, seat):
    return engine.geometry.LABELS[state.ext.at[seat]]


def next_turn(state, seat=0):
    """End turns until ``seat`` plays again."""
    state = engine.apply(state, "end")
    while state.current_seat != seat:
        state = engine.apply(state, "end")
    return state


# -- moves -----------------------------------------------------------------------------------


def test_an_animal_moves_one_step_per_turn():
    s = pos({"D5": (0, 1)}, animals={0: ("owl", "D4"), 1: ("fox", "A1")}, light=(5, 0))
    s = ok(s, "move D5")  # onto a space with a tree: allowed
    assert where(s, 0) == "D5" and s.activated == 0 and s.ext.steps == 1
    refused(s, "move D6", "Your Owl has taken its 1 step this turn.")
    s = ok(s, "grow D5")  # the move was not an action on D5
    s = next_turn(s)
    assert s.current_seat == 0 and s.ext.steps == 0
    s = ok(s, "move D6")
    assert where(s, 0) == "D6"


def test_a_move_must_go_to_an_adjacent_free_space():
    s = pos(animals={0: ("owl", "D4"), 1: ("fox", "D5")}, elder="C3", moonstones=["C4"])
    refused(s, "move D6", "D6 is not next to your Owl on D4: it moves one space.")
    refused(s, "move D5", "The fox is on D5.")
    refused(s, "move C3", "C3 holds the Great Elder Tree.")
    refused(s, "move C4", "C4 holds a moonstone.")
    moves = sorted(str(a) for a in engine.legal_actions(s) if a.verb == "move")
    assert moves == ["move D3", "move E3", "move E4"]


def test_the_squirrel_moves_two_steps_turning_freely():
    s = pos(animals={0: ("squirrel", "D4"), 1: ("fox", "A1")})
    s = ok(ok(s, "move D5"), "move E5")
    assert where(s, 0) == "E5"
    refused(s, "move E6", "Your Squirrel has taken its 2 steps this turn.")


def test_the_hedgehog_runs_one_more_step_for_1_lunar_point():
    s = pos(animals={0: ("hedgehog", "D4"), 1: ("fox", "A1")}, lunar=(1, 0))
    s = ok(s, "move D5")
    refused(s, "move D6", "taken its 1 step this turn ('use run' gives one more).")
    s = ok(s, "use run")
    assert s.seats[0].lunar == 0
    s = ok(s, "move D6")
    refused(s, "move D7", "Your Hedgehog has taken its 2 steps this turn.")
    refused(s, "use run", "You already used Running this turn")


def test_running_costs_1():
    s = pos(animals={0: ("hedgehog", "D4"), 1: ("fox", "A1")}, lunar=(0, 0))
    refused(s, "use run", "Running costs 1 lunar point; you have 0.")


def test_abilities_belong_to_their_animal_and_wait_for_play():
    s = pos(animals={0: ("owl", "D4"), 1: ("fox", "A1")})
    refused(s, "use dig 1", "Digging is the Boar's ability; your animal is the Owl.")
    setup = engine.new_game(TWO, seed=1)
    with pytest.raises(IllegalAction, match="first keep one of your two animals"):
        engine.apply(setup, "use hunt 1")
    cyn = pos(animals={0: ("owl", "D4")}, cfg=Config(seats=(H, "cynthia"), moon_animals=True))
    cyn = engine.apply(cyn, "end")
    assert cyn.current_seat == 1
    assert all(a.verb not in ("move", "use") for a in engine.legal_actions(cyn))


# -- Boar ------------------------------------------------------------------------------------


def test_boar_digging_1_collects_its_own_large_tree_without_light():
    s = pos({"C3": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")})
    store = s.seats[0].store[3]
    s = ok(s, "use dig 1")
    assert at(s, "C3") is None and s.seats[0].tokens == ((3, 19),)
    assert s.seats[0].light == 0 and s.seats[0].lunar == 9 and s.seats[0].store[3] == store + 1
    # Digging counts as a collect: it activates the Boar's space
    # (docs/rules-data.md#73-animals-and-abilities).
    assert s.activated == 1 << LABEL_INDEX["C3"]


def test_boar_digging_refusals():
    s = pos({"C3": (1, 3), "C4": (0, 2)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")})
    refused(s, "use dig 1", "Digging collects your own large tree on the Boar's space; C3 has")
    s = pos({"C4": (0, 2)}, animals={0: ("boar", "C4"), 1: ("fox", "A1")})
    refused(s, "use dig 1", "C4 has none.")
    s = pos({"C3": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, lunar=(4, 0))
    refused(s, "use dig 1", "Digging level 1 costs 5 lunar points; you have 4.")
    s = pos({"C3": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, lunar=(7, 0))
    refused(s, "use dig 2", "Digging level 2 costs 8 lunar points; you have 7.")
    # Once per turn by name: a second large tree one step away.
    s = pos({"C3": (0, 3), "C4": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")})
    s = ok(ok(s, "use dig 1"), "move C4")
    refused(s, "use dig 2", "You already used Digging this turn")


def test_boar_digging_2_also_plants_a_seed_that_cannot_grow_this_turn():
    s = pos({"C3": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, light=(5, 0))
    seeds = s.seats[0].available[0]
    s = ok(s, "use dig 2")
    assert at(s, "C3") == (0, 0) and s.seats[0].available[0] == seeds - 1
    assert s.seats[0].lunar == 6 and s.seats[0].tokens == ((3, 19),)
    refused(s, "grow C3", "was placed by an animal or a Baby Turtle this turn")
    s = next_turn(s)
    assert parse_action("grow C3") in engine.legal_actions(s)


def test_boar_digging_2_needs_an_available_seed():
    s = pos({"C3": (0, 3)}, animals={0: ("boar", "C3"), 1: ("fox", "A1")})
    seat = s.seats[0].copy()
    seat.store[0] += seat.available[0]
    seat.available[0] = 0
    s.seats = (seat, s.seats[1])
    refused(
        s, "use dig 2", "Digging level 2 plants a seed from your available area: you have none."
    )


# -- Hedgehog --------------------------------------------------------------------------------


def test_hedgehog_planting_takes_a_seed_from_the_store():
    s = pos(animals={0: ("hedgehog", "D5"), 1: ("fox", "A1")}, light=(3, 0))
    store, avail = s.seats[0].store[0], s.seats[0].available[0]
    s = ok(ok(s, "use run"), "use plant")  # different abilities combine
    assert at(s, "D5") == (0, 0)
    assert s.seats[0].store[0] == store - 1 and s.seats[0].available[0] == avail
    # Hedgehog Planting counts as a plant on its space: the space is activated.
    assert s.seats[0].lunar == 10 and s.seats[0].light == 3
    assert s.activated == 1 << LABEL_INDEX["D5"]
    refused(s, "grow D5", "cannot grow until your next turn")


def test_hedgehog_planting_refusals():
    s = pos({"D5": (1, 0)}, animals={0: ("hedgehog", "D5"), 1: ("fox", "A1")})
    refused(s, "use plant", "The Hedgehog plants on its own empty space: D5 is not empty.")
    s = pos(animals={0: ("hedgehog", "D5"), 1: ("fox", "A1")}, lunar=(2, 0))
    refused(s, "use plant", "Planting costs 3 lunar points; you have 2.")
    s = pos(animals={0: ("hedgehog", "D5"), 1: ("fox", "A1")})
    seat = s.seats[0].copy()
    seat.out[0], seat.store[0] = seat.store[0], 0
    s.seats = (seat, s.seats[1])
    refused(s, "use plant", "Planting takes a seed from your player board: it has none left.")


# -- Squirrel --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "leaves", "cost"), [("A1", 1, 5), ("B2", 2, 6), ("C3", 3, 7), ("D4", 4, 8)]
)
def test_squirrel_eating_each_level(label, leaves, cost):
    s = pos({label: (1, 0)}, animals={0: ("squirrel", label), 1: ("fox", "G4")}, light=(2, 2))
    assert s.seats[1].store[0] == 4  # full: the eaten seed leaves the game
    s = ok(s, "use eat")
    assert at(s, label) is None
    assert s.seats[0].light == 2 + leaves and s.seats[1].light == 3
    assert s.seats[0].lunar == 14 - cost and s.seats[1].out[0] == 1
    assert s.activated == 0


def test_an_eaten_seed_goes_back_to_a_store_with_room():
    s = pos({"B2": (1, 0)}, animals={0: ("squirrel", "B2"), 1: ("fox", "G4")})
    seat = s.seats[1].copy()
    seat.store[0] -= 1
    seat.available[0] += 1
    s.seats = (s.seats[0], seat)
    s = ok(s, "use eat")
    assert s.seats[1].store[0] == 4 and s.seats[1].out[0] == 0


def test_squirrel_eating_refusals():
    s = pos({"B2": (0, 0)}, animals={0: ("squirrel", "B2"), 1: ("fox", "G4")})
    refused(s, "use eat", "The Squirrel eats only an opponent's seed.")
    s = pos({"B2": (1, 1)}, animals={0: ("squirrel", "B2"), 1: ("fox", "G4")})
    refused(s, "use eat", "The Squirrel eats a seed on its space; B2 has none.")
    s = pos({"D4": (1, 0)}, animals={0: ("squirrel", "D4"), 1: ("fox", "G4")}, lunar=(7, 0))
    refused(s, "use eat", "Eating level 4 (a 4-leaf space) costs 8 lunar points; you have 7.")


def test_eating_is_not_an_action_on_the_space():
    s = pos(
        {"B2": (1, 0), "B3": (0, 1)},
        animals={0: ("squirrel", "B2"), 1: ("fox", "G4")},
        light=(1, 0),
    )
    s = ok(s, "use eat")
    s = ok(s, "plant B3 B2")  # the space the seed was eaten on is free for a planting
    assert at(s, "B2") == (0, 0)


# -- Fox -------------------------------------------------------------------------------------


def test_fox_scaring_moves_an_adjacent_animal_one_step():
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D5")}, lunar=(1, 0))
    s = ok(s, "use scare owl D6")
    assert where(s, 1) == "D6" and where(s, 0) == "D4" and s.seats[0].lunar == 0
    assert s.ext.steps == 0  # the Fox can still move itself
    s = ok(s, "move D5")


def test_fox_scaring_refusals():
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D6")}, elder="E5", moonstones=["C5"])
    refused(s, "use scare owl D7", "The owl on D6 is not next to the Fox.")
    refused(s, "use scare boar D5", "The boar is not in this game.")
    refused(s, "use scare fox D5", "The Fox scares another animal, not itself.")
    s = arrange(s, animals={1: ("owl", "D5")})
    refused(s, "use scare owl D7", "D7 is not next to the owl on D5.")
    refused(s, "use scare owl D4", "The fox is on D4.")
    refused(s, "use scare owl E5", "E5 holds the Great Elder Tree.")
    refused(s, "use scare owl C5", "C5 holds a moonstone.")
    poor = arrange(s, lunar=[0, 0])
    refused(poor, "use scare owl D6", "Scaring costs 1 lunar point; you have 0.")
    s = ok(s, "use scare owl D6")
    s = arrange(s, animals={1: ("owl", "D5")})
    refused(s, "use scare owl D6", "You already used Scaring this turn")


def test_fox_scratching_moves_any_seed_1_or_2_spaces_in_a_line():
    s = pos({"D4": (1, 0)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")})
    s = ok(s, "use scratch D6")
    assert at(s, "D4") is None and at(s, "D6") == (1, 0) and s.seats[0].lunar == 11
    s = pos({"D4": (0, 0)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")}, light=(5, 0))
    s = ok(s, "use scratch B2")  # two steps NW
    assert at(s, "B2") == (0, 0) and s.activated == 0  # Scratching is not an action
    # A seed planted before this turn, moved by Scratching, may grow
    # (docs/rules-data.md#73-animals-and-abilities).
    s = ok(s, "grow B2")
    assert at(s, "B2") == (0, 1)


def test_a_just_planted_seed_can_be_scratched_but_not_grown():
    s = pos({"D5": (0, 1)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")}, light=(5, 0))
    s = ok(s, "plant D5 D4")
    s = ok(s, "use scratch D3")
    assert at(s, "D3") == (0, 0) and at(s, "D4") is None
    refused(s, "grow D3", "cannot grow until your next turn")


def test_fox_scratching_refusals():
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "A1")})
    refused(s, "use scratch D6", "The Fox scratches a seed on its own space; D4 has none.")
    s = pos({"D4": (1, 0), "D6": (0, 1)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")})
    s = arrange(s, moonstones=["B2"], elder="D2")
    refused(s, "use scratch C5", "C5 is not 1 or 2 spaces from the Fox on D4 in a straight line.")
    refused(s, "use scratch D7", "D7 is not 1 or 2 spaces from the Fox on D4")
    refused(s, "use scratch D6", "D6 is not empty.")
    refused(s, "use scratch B2", "B2 holds a moonstone.")
    refused(s, "use scratch D2", "D2 holds the Great Elder Tree.")
    refused(arrange(s, lunar=[2, 0]), "use scratch D5", "Scratching the soil costs 3 lunar points")


def test_fox_stealing_takes_2_light_from_an_adjacent_animals_seat():
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D5")}, light=(19, 5))
    s = ok(s, "use steal owl")
    assert [x.light for x in s.seats] == [20, 3] and s.seats[0].lunar == 10
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D5")}, light=(0, 1))
    s = ok(s, "use steal owl")
    assert [x.light for x in s.seats] == [1, 0]


def test_fox_stealing_refusals():
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D6")}, light=(0, 5))
    refused(s, "use steal owl", "The owl on D6 is not next to the Fox.")
    s = arrange(s, animals={1: ("owl", "D5")})
    refused(arrange(s, lunar=[3, 0]), "use steal owl", "Stealing costs 4 lunar points; you have 3.")
    s = ok(s, "use steal owl")
    refused(s, "use steal owl", "You already used Stealing this turn")
    s = pos(animals={0: ("fox", "D4"), 1: ("owl", "D5")}, light=(0, 0))
    refused(s, "use steal owl", "Seat 2 (the owl) has no light points to steal.")


# -- Owl -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "cost", "gain"), [(1, 5, 3), (2, 9, 7), (3, 12, 10)])
def test_owl_hunting_each_level(level, cost, gain):
    s = pos(animals={0: ("owl", "D4"), 1: ("fox", "A1")}, light=(1, 0))
    s = ok(s, f"use hunt {level}")
    assert s.seats[0].light == 1 + gain and s.seats[0].lunar == 14 - cost
    refused(s, f"use hunt {4 - level}", "You already used Nighttime Hunting this turn")
    poor = pos(animals={0: ("owl", "D4"), 1: ("fox", "A1")}, lunar=(cost - 1, 0))
    refused(
        poor,
        f"use hunt {level}",
        f"Nighttime Hunting level {level} costs {cost} lunar points; you have {cost - 1}.",
    )


def test_hunting_light_is_capped_at_20():
    s = pos(animals={0: ("owl", "D4"), 1: ("fox", "A1")}, light=(15, 0))
    assert ok(s, "use hunt 2").seats[0].light == 20


# -- Badger ----------------------------------------------------------------------------------


def test_badger_growing_1_grows_its_own_seed_from_the_available_area():
    s = pos({"E3": (0, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")}, light=(2, 0))
    small = s.seats[0].available[1]
    s = ok(s, "use grow 1")
    assert at(s, "E3") == (0, 1) and s.seats[0].available[1] == small - 1
    assert s.seats[0].lunar == 10 and s.seats[0].out[0] == 1  # the store of seeds was full
    s = ok(s, "grow E3")  # not an action on the space: it may grow again
    assert at(s, "E3") == (0, 2)


def test_badger_growing_2_takes_the_small_tree_from_the_player_board():
    s = pos({"E3": (0, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")})
    avail, store = s.seats[0].available[1], s.seats[0].store[1]
    s = ok(s, "use grow 2")
    assert at(s, "E3") == (0, 1) and s.seats[0].lunar == 8
    assert s.seats[0].available[1] == avail and s.seats[0].store[1] == store - 1
    # With an empty small-tree column it takes one from the available area.
    s = pos({"E3": (0, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")})
    seat = s.seats[0].copy()
    seat.out[1], seat.store[1] = seat.store[1], 0
    s.seats = (seat, s.seats[1])
    s = ok(s, "use grow 2")
    assert s.seats[0].available[1] == avail - 1


def test_badger_growing_refusals():
    s = pos({"E3": (1, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")})
    refused(s, "use grow 1", "The Badger grows your own seed on its space; E3 has none.")
    s = pos({"E4": (0, 1)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")}, light=(1, 0))
    s = ok(s, "plant E4 E3")
    refused(s, "use grow 1", "The seed on E3 was placed this turn and cannot grow yet.")
    s = pos({"E3": (0, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")}, lunar=(5, 0))
    refused(s, "use grow 2", "Growing level 2 costs 6 lunar points; you have 5.")
    seat = s.seats[0].copy()
    seat.out[1] += seat.available[1]
    seat.available[1] = 0
    s.seats = (seat, s.seats[1])
    refused(s, "use grow 1", "Growing level 1 takes a small tree from your available area")
    seat = seat.copy()
    seat.out[1] += seat.store[1]
    seat.store[1] = 0
    s.seats = (seat, s.seats[1])
    refused(s, "use grow 2", "You have no small tree available or on your player board.")


# -- Beaver and the Dam ----------------------------------------------------------------------


def test_building_the_dam_grows_every_piece_on_it_once():
    s = pos(
        {"F1": (0, 0), "E1": (1, 1), "E2": (0, 3)},
        animals={0: ("beaver", "F1"), 1: ("fox", "A4")},
    )
    legal = sorted(str(a) for a in engine.legal_actions(s) if a.verb == "use")
    assert legal == ["use dam 10", "use dam 9"]
    s = ok(s, "use dam 10")  # F1 E1 and E2
    assert (at(s, "F1"), at(s, "E1"), at(s, "E2")) == ((0, 1), (1, 2), (0, 3))
    assert s.ext.dam == 10 and s.seats[0].lunar == 8 and s.activated == 0
    refused(s, "use dam 9", "You already used Building the Dam this turn")
    s = next_turn(s)
    refused(s, "use dam 10", "The Dam already stands at gap 10 (F1-E1): build it somewhere else.")
    s = ok(s, "use dam 9")  # G1 F1 F2
    assert s.ext.dam == 9 and at(s, "F1") == (0, 2)


def test_the_dam_grows_a_piece_only_when_its_owner_has_the_next_size_available():
    s = pos({"F1": (1, 1), "E1": (0, 0)}, animals={0: ("beaver", "E1"), 1: ("fox", "A4")})
    seat = s.seats[1].copy()
    seat.store[2] += seat.available[2]
    seat.available[2] = 0
    s.seats = (s.seats[0], seat)
    s = ok(s, "use dam 10")
    assert at(s, "F1") == (1, 1) and at(s, "E1") == (0, 1)


def test_a_seed_planted_this_turn_does_not_grow_with_the_dam():
    s = pos({"E2": (0, 1)}, animals={0: ("beaver", "E1"), 1: ("fox", "A4")}, light=(1, 0))
    s = ok(ok(s, "plant E2 F1"), "use dam 10")
    assert at(s, "F1") == (0, 0) and at(s, "E2") == (0, 2)


def test_dam_refusals():
    s = pos(animals={0: ("beaver", "F1"), 1: ("fox", "A4")})
    refused(
        s, "use dam 11", "The Dam must cover the Beaver's space F1; at gap 11 (E1-D1) it does not."
    )
    s = pos(animals={0: ("beaver", "A1"), 1: ("fox", "A4")})
    refused(s, "use dam 15", "The Dam must touch the river (G3 G2 G1 F1 E1 D1); at gap 15")
    s = pos(animals={0: ("beaver", "F1"), 1: ("fox", "A4")}, lunar=(5, 0))
    refused(s, "use dam 10", "Building the Dam costs 6 lunar points; you have 5.")


def test_improving_the_dam_grows_one_own_piece_on_it_for_free():
    s = pos({"F1": (0, 1), "E1": (1, 0)}, animals={0: ("beaver", "E2"), 1: ("fox", "A4")}, dam=10)
    s = ok(s, "use improve F1")
    assert at(s, "F1") == (0, 2) and s.seats[0].lunar == 9 and s.seats[0].light == 0
    refused(s, "use improve F1", "You already used Improving the Dam this turn")


def test_improving_the_dam_refusals():
    board = {"F1": (0, 3), "E1": (1, 0), "D1": (0, 0)}
    s = pos(board, animals={0: ("beaver", "E2"), 1: ("fox", "A4")})
    refused(s, "use improve F1", "The Dam has not been built.")
    s = arrange(s, dam=10)
    refused(s, "use improve F1", "The large tree on F1 is fully grown.")
    refused(s, "use improve E1", "You have nothing on E1 to grow.")
    refused(s, "use improve D1", "D1 is not on the Dam.")
    refused(s, "use improve E2", "You have nothing on E2 to grow.")
    off = arrange(s, animals={0: ("beaver", "D2")})
    refused(off, "use improve F1", "The Beaver must stand on the Dam to improve it.")
    poor = arrange(
        pos({"F1": (0, 1)}, animals={0: ("beaver", "E2"), 1: ("fox", "A4")}, dam=10), lunar=[4, 0]
    )
    refused(poor, "use improve F1", "Improving the Dam costs 5 lunar points; you have 4.")


# -- Turtle and the Baby Turtle tokens -------------------------------------------------------


def turtle(board=None, babies=(), **kw):
    kw.setdefault("beach", {"A4": "light", "G1": "seed"})
    return pos(
        board, animals={0: ("turtle", "A4"), 1: ("fox", "D4")}, babies={0: list(babies)}, **kw
    )


def test_hatching_takes_the_token_on_the_turtles_space():
    s = ok(turtle(), "use hatch")
    assert s.ext.babies[0] == (4,) and s.ext.beach == ((LABEL_INDEX["G1"], 5),)
    assert s.seats[0].lunar == 10
    assert any("Light" in e for e in s.events)
    refused(turtle(lunar=(3, 0)), "use hatch", "Hatching a Baby costs 4 lunar points; you have 3.")
    refused(arrange(turtle(), animals={0: ("turtle", "A3")}), "use hatch", "There is no Baby")


def test_hatching_and_first_steps_combine_but_one_baby_per_turn():
    s = ok(turtle(babies=["light", "scoring"]), "use hatch")
    s = ok(s, "use baby light")
    refused(s, "use baby scoring", "You already used The Baby Turtle's first steps this turn")
    refused(turtle(babies=["light"], lunar=(0, 0)), "use baby light", "costs 1 lunar point")
    refused(turtle(babies=["light"]), "use baby seed G4", "You have no face-up Seed Baby Turtle.")


def test_baby_double_allows_two_actions_on_one_space():
    s = turtle({"D5": (0, 0)}, babies=["double"], light=(10, 0))
    s = ok(s, "grow D5")
    refused(s, "grow D5", "D5 was already used this turn")
    s = ok(s, "use baby double")
    assert s.ext.babies[0] == () and s.seats[0].lunar == 13
    s = ok(s, "grow D5")
    assert at(s, "D5") == (0, 2)
    refused(s, "grow D5", "D5 was already used this turn")


def test_baby_double_plant_then_grow_the_same_seed():
    s = turtle({"D5": (0, 1)}, babies=["double"], light=(10, 0))
    s = ok(ok(ok(s, "use baby double"), "plant D5 D6"), "grow D6")
    assert at(s, "D6") == (0, 1)
    refused(s, "grow D5", "D5 was already used this turn")  # the Double is spent


@pytest.mark.parametrize(("token", "size"), [("small", 1), ("medium", 2)])
def test_baby_small_and_medium_take_a_tree_from_the_store(token, size):
    s = turtle(babies=[token])
    avail, store = s.seats[0].available[size], s.seats[0].store[size]
    s = ok(s, f"use baby {token}")
    assert s.seats[0].available[size] == avail + 1 and s.seats[0].store[size] == store - 1
    empty = turtle(babies=[token])
    seat = empty.seats[0].copy()
    seat.out[size], seat.store[size] = seat.store[size], 0
    empty.seats = (seat, empty.seats[1])
    refused(empty, f"use baby {token}", f"Your player board has no {token} tree left.")


def test_baby_harvest_collects_a_large_tree_anywhere_for_free():
    s = turtle({"C3": (0, 3), "C4": (1, 3)}, babies=["harvest"])
    refused(s, "use baby harvest C4", "You have no large tree on C4 to collect.")
    s = ok(s, "use baby harvest C3")
    assert at(s, "C3") is None and s.seats[0].tokens == ((3, 19),) and s.seats[0].light == 0
    assert s.activated == 1 << LABEL_INDEX["C3"]  # the Harvest counts as a collect


def test_baby_light_gives_3_light():
    s = ok(turtle(babies=["light"], light=(18, 0)), "use baby light")
    assert s.seats[0].light == 20 and s.ext.babies[0] == ()
    assert ok(turtle(babies=["light"]), "use baby light").seats[0].light == 3


def test_baby_seed_plants_an_available_seed_anywhere():
    s = turtle({"D5": (1, 1)}, babies=["seed"], moonstones=["B2"])
    refused(s, "use baby seed D5", "D5 is not empty.")
    refused(s, "use baby seed B2", "B2 holds a moonstone.")
    seeds = s.seats[0].available[0]
    s = ok(s, "use baby seed G4")
    assert at(s, "G4") == (0, 0) and s.seats[0].available[0] == seeds - 1 and s.seats[0].light == 0
    refused(s, "grow G4", "cannot grow until your next turn")


def test_baby_scoring_is_worth_3_at_the_end():
    s = ok(turtle(babies=["scoring"], lunar=(6, 0)), "use baby scoring")
    assert s.ext.babies[0] == () and s.ext.scoring[0] == 1
    assert engine.score_parts(s, 0) == {"tokens": 0, "light": 0, "lunar": 5, "baby turtle": 3}
    assert engine.scores(s) == [8, 0]


def test_baby_rich_soil_makes_the_next_collect_score_one_more_leaf():
    board = {"C3": (0, 3), "B2": (0, 3)}
    s = turtle(board, babies=["rich"], cfg=THREE, light=(20, 0, 0), lunar=(14, 0, 0))
    s = ok(ok(s, "use baby rich"), "collect C3")
    assert s.seats[0].tokens == ((4, 22),) and s.ext.rich[0] == 0
    s = ok(s, "collect B2")  # used up: a normal 2-leaf token
    assert s.seats[0].tokens[-1] == (2, 17)
    # 4 leaves stay 4.
    board = {"D4": (0, 3)}
    s = turtle(board, babies=["rich"], cfg=THREE, light=(20, 0, 0), lunar=(14, 0, 0))
    s = ok(ok(s, "use baby rich"), "collect D4")
    assert s.seats[0].tokens == ((4, 22),) and s.ext.rich[0] == 0


def test_end_scoring_counts_unused_lunar_points():
    s = pos(animals={0: ("owl", "D4"), 1: ("fox", "A1")}, lunar=(7, 2), light=(9, 2))
    assert engine.score_parts(s, 0) == {"tokens": 0, "light": 3, "lunar": 7, "baby turtle": 0}
    assert engine.scores(s) == [10, 2]


# -- the legal list in the special cases -----------------------------------------------------


def assert_legal_list_matches_the_rules(state):
    legal = engine.legal_actions(state)
    assert len(legal) == len(set(legal))
    assert set(legal) == {a for a in ALL_ACTIONS if check(state, a) is None}


def test_the_legal_list_with_a_ready_double_and_fresh_seeds():
    board = {"D5": (0, 1), "C3": (0, 3), "B2": (0, 0), "E5": (1, 1)}
    s = turtle(board, babies=["double"], light=(20, 0))
    s = ok(ok(s, "grow D5"), "plant C3 C4")
    assert_legal_list_matches_the_rules(s)
    s = ok(s, "use baby double")
    assert parse_action("grow C4") in engine.legal_actions(s)  # the seed planted this turn
    s = ok(s, "buy seed")
    assert parse_action("plant D5 D6") in engine.legal_actions(s)  # or D5 again
    assert_legal_list_matches_the_rules(s)
    fox = pos(
        {"D4": (0, 0), "D5": (0, 1)}, animals={0: ("fox", "D4"), 1: ("owl", "D3")}, light=(9, 9)
    )
    fox = ok(fox, "use scratch D6")
    assert_legal_list_matches_the_rules(fox)


def test_obstacles_refuse_planting_and_placing():
    s = pos({"D5": (0, 2)}, animals={0: ("owl", "A1")}, elder="D4", moonstones=["D6"], light=(5, 0))
    # Each refusal says what is there (issue 44), not "is not empty".
    refused(s, "plant D5 D4", "D4 holds the Great Elder Tree: nothing can be planted there.")
    refused(s, "plant D5 D6", "D6 holds a moonstone: nothing can be planted there.")
    targets = {str(a) for a in engine.legal_actions(s) if a.verb == "plant"}
    assert "plant D5 D7" in targets and len(targets) == 16


@pytest.mark.parametrize(
    ("animal", "board", "start", "first", "then", "second", "title"),
    [
        ("squirrel", {"B2": (1, 0), "B3": (1, 0)}, "B2", "use eat", "B3", "use eat", "Eating"),
        ("hedgehog", {}, "D5", "use plant", "D6", "use plant", "Planting"),
        ("fox", {"D4": (1, 0), "D5": (1, 0)}, "D4", "use scratch D6", "D5", "use scratch C5", "Scratching the soil"),
        ("badger", {"E3": (0, 0), "E4": (0, 0)}, "E3", "use grow 1", "E4", "use grow 2", "Growing"),
        ("turtle", {}, "A4", "use hatch", "G1", "use hatch", "Hatching a Baby"),
    ],
)  # fmt: skip
def test_each_ability_once_per_turn(animal, board, start, first, then, second, title):
    s = pos(
        board, animals={0: (animal, start), 1: ("owl", "A1")}, beach={"A4": "light", "G1": "seed"}
    )
    s = ok(s, first)
    s = arrange(s, animals={0: (animal, then)})  # stand where it could be used again
    refused(s, second, f"You already used {title} this turn (each ability once per turn).")
    s = next_turn(s)
    s = arrange(s, animals={0: (animal, then)})
    assert parse_action(second) in engine.legal_actions(s)


# -- found in review -------------------------------------------------------------------------


def test_a_ready_double_lists_each_purchase_once():
    cfg = Config(seats=(H, H), moon_animals=True)
    s = build(cfg, {"A1": (0, 0)}, light=[10, 0])
    s = arrange(
        s, animals={0: ("turtle", "C3"), 1: ("owl", "C4")}, lunar=[5, 0], babies={0: ["double"]}
    )
    s = ok(s, "grow A1")  # A1 is space 0, the same number as 'buy seed''s size
    s = ok(s, "use baby double")
    legal = [str(a) for a in engine.legal_actions(s)]
    assert len(legal) == len(set(legal))
    assert legal.count("buy seed") == 1
    assert "grow A1" in legal  # the Double makes a second action on A1 legal


def test_a_moonstone_shadow_does_not_stop_a_seed_under_the_shadow_rule():
    cfg = Config(seats=(H, H), moonstones=True, shadow_rule=True)
    # Sun at NE: shadows fall SW; the moonstone on A3 shades B3 (small trees only).
    s = build(cfg, {"B3": (0, 0)}, light=[10, 0])
    s = arrange(s, moonstones=["A3"])
    assert engine.shadow_map(s)[LABEL_INDEX["B3"]] == 1
    s = ok(s, "grow B3")  # the seed is not shadowed by a stone
    assert at(s, "B3") == (0, 1)
    s = build(cfg, {"B3": (0, 1), "A2": (0, 1)}, light=[10, 0])
    s = arrange(s, moonstones=["A3"])
    refused(s, "grow B3", "Shadow rule: your small tree on B3 is in shadow and cannot grow.")
    # A tree's shadow still shadows a seed.
    s = build(cfg, {"B3": (0, 0), "A3": (1, 1)}, light=[10, 0])
    refused(s, "grow B3", "Shadow rule: your seed on B3 is in shadow and cannot grow.")


def test_an_opponents_moved_seed_is_refused_as_not_yours():
    s = pos({"D4": (1, 0)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")}, light=(5, 0))
    s = ok(s, "use scratch D6")
    refused(s, "grow D6", "You have nothing on D6 to grow.")


def test_negative_numbers_are_refused():
    with pytest.raises(IllegalAction, match="never negative"):
        parse_action("use dam -1")
    assert str(parse_action("p c3-e5")) == "plant C3 E5"


def test_cynthia_keeps_her_starting_trees_away_from_the_great_elder_tree():
    cfg = Config(seats=("cynthia", H), elder_tree=True)
    s = engine.new_game(cfg, seed=3)
    s = engine.apply(s, "elder B2")  # the last seat places it; B2 touches A1, A2 and B1
    decision = engine.auto_action(s)
    assert "among 15 valid spaces" in decision.explanation
    assert str(decision) not in ("place A1", "place A2", "place B1")


# -- abilities and activation (docs/rules-data.md#73-animals-and-abilities) ------------------------


def test_a_space_already_used_cannot_be_dug_and_a_dug_space_cannot_be_used_again():
    board = {"C3": (0, 3), "C4": (0, 2)}
    s = pos(board, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "plant C3 D3")  # the large tree on C3 planted: C3 is used
    refused(s, "use dig 1", "C3 was already used this turn (one action per space per turn)")
    s = pos(board, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "use dig 2")
    refused(s, "plant C4 C3", "C3 is not empty.")
    refused(s, "grow C3", "cannot grow until your next turn")
    s = pos(board, animals={0: ("boar", "C3"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "use dig 1")
    refused(s, "plant C4 C3", "C3 was already used this turn")


def test_hedgehog_planting_refuses_a_space_used_this_turn():
    s = pos({"D5": (0, 3)}, animals={0: ("hedgehog", "D5"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "collect D5")
    refused(s, "use plant", "D5 was already used this turn (one action per space per turn)")


def test_improving_the_dam_counts_as_a_grow():
    s = pos({"F1": (0, 0)}, animals={0: ("beaver", "F1"), 1: ("fox", "A1")}, dam=9, light=(8, 0))
    s = ok(s, "use improve F1")
    assert at(s, "F1") == (0, 1) and s.activated == 1 << LABEL_INDEX["F1"]
    refused(s, "grow F1", "F1 was already used this turn")
    s = pos({"F1": (0, 0)}, animals={0: ("beaver", "F1"), 1: ("fox", "A1")}, dam=9, light=(8, 0))
    s = ok(s, "grow F1")
    refused(s, "use improve F1", "F1 was already used this turn")


def test_building_the_dam_does_not_activate_and_its_growth_may_grow_again():
    s = pos({"F1": (0, 0)}, animals={0: ("beaver", "F1"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "use dam 9")
    assert at(s, "F1") == (0, 1) and s.activated == 0
    s = ok(s, "grow F1")
    assert at(s, "F1") == (0, 2)


def test_the_badger_does_not_activate_its_new_small_tree_may_grow():
    s = pos({"E3": (0, 0)}, animals={0: ("badger", "E3"), 1: ("fox", "A1")}, light=(8, 0))
    s = ok(s, "use grow 1")
    assert at(s, "E3") == (0, 1) and s.activated == 0
    s = ok(s, "grow E3")
    assert at(s, "E3") == (0, 2)


def test_eating_does_not_activate_the_space():
    s = pos({"D5": (1, 0), "D6": (0, 1)}, animals={0: ("squirrel", "D5"), 1: ("fox", "A1")})
    s = ok(s, "use eat")
    assert s.activated == 0


def test_the_seed_baby_turtle_counts_as_a_plant_on_its_target():
    s = turtle(babies=["seed"])
    s = ok(s, "use baby seed G4")
    assert s.activated == 1 << LABEL_INDEX["G4"]
    s = turtle({"G1": (0, 3)}, babies=["seed"], light=(8, 0))
    s = ok(s, "collect G1")
    refused(s, "use baby seed G1", "G1 was already used this turn")


def test_the_harvest_baby_turtle_refuses_a_space_used_this_turn():
    s = turtle({"C3": (0, 3)}, babies=["harvest"], light=(8, 0))
    s = ok(s, "plant C3 C2")
    refused(s, "use baby harvest C3", "C3 was already used this turn")


def test_a_seed_planted_this_turn_and_scratched_cannot_grow_but_an_old_one_can():
    s = pos(
        {"D5": (0, 1), "D4": (0, 0)}, animals={0: ("fox", "D4"), 1: ("owl", "A1")}, light=(8, 0)
    )
    s = ok(s, "use scratch D2")  # the seed was on D4 before this turn
    s = ok(s, "grow D2")
    assert at(s, "D2") == (0, 1)
