"""One test per rule of the base game (docs/rules-data.md, sections 1-6)."""

from __future__ import annotations

import pytest

import engine
from engine import Config, IllegalAction, apply, legal_actions
from engine.geometry import BORDER_MASK, LABELS, LEAVES, RING_ORDER, parse_label
from engine.position import build

TWO = Config(seats=("human", "human"))
THREE = Config(seats=("human", "human", "human"))
FOUR = Config(seats=("human",) * 4)


def labels(spaces) -> list[str]:
    return [LABELS[i] for i in spaces]


def play_setup(state, spaces):
    for label in spaces:
        state = apply(state, f"place {label}")
    return state


def end_turns(state, n):
    for _ in range(n):
        state = apply(state, "end")
    return state


# -- board -----------------------------------------------------------------------------------


def test_board_has_37_spaces_with_rulebook_soil():
    assert len(LABELS) == 37
    assert sorted(LEAVES).count(4) == 1
    assert [LEAVES.count(k) for k in (1, 2, 3, 4)] == [18, 12, 6, 1]
    assert LEAVES[parse_label("D4")] == 4
    assert LEAVES[parse_label("C3")] == 3
    assert LEAVES[parse_label("B2")] == 2
    assert LEAVES[parse_label("A1")] == 1


def test_labels_follow_rows_and_numbers_from_the_left():
    assert labels(range(4)) == ["A1", "A2", "A3", "A4"]
    assert engine.geometry.COORDS[parse_label("D4")] == (0, 0)
    assert engine.geometry.COORDS[parse_label("A1")] == (0, -3)
    assert engine.geometry.COORDS[parse_label("G1")] == (-3, 3)
    assert engine.geometry.COORDS[parse_label("E6")] == (2, 1)


def test_rings_run_clockwise_from_their_reference_spaces():
    assert labels(RING_ORDER[1]) == (
        [
            "A4",
            "B5",
            "C6",
            "D7",
            "E6",
            "F5",
            "G4",
            "G3",
            "G2",
            "G1",
            "F1",
            "E1",
            "D1",
            "C1",
            "B1",
            "A1",
            "A2",
            "A3",
        ]
    )
    assert labels(RING_ORDER[2])[0] == "B4"
    assert labels(RING_ORDER[3]) == ["C4", "D5", "E4", "E3", "D3", "C3"]
    assert labels(RING_ORDER[4]) == ["D4"]


# -- sun and shadows -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sun", "shaded"),
    [
        (0, ["E3", "F2", "G1"]),  # sun at the NE corner: shadows fall to the SW
        (1, ["D3", "D2", "D1"]),  # E corner: to the W
        (2, ["C3", "B2", "A1"]),  # SE corner: to the NW
        (3, ["C4", "B4", "A4"]),  # SW corner: to the NE
        (4, ["D5", "D6", "D7"]),  # W corner: to the E
        (5, ["E4", "F4", "G4"]),  # NW corner: to the SE
    ],
)
def test_each_sun_position_casts_shadows_away_from_the_sun(sun, shaded):
    state = build(TWO, {"D4": (0, 3)}, sun=sun)
    heights = engine.shadow_map(state)
    assert sorted(labels(i for i, h in enumerate(heights) if h)) == sorted(shaded)
    assert all(heights[parse_label(x)] == 3 for x in shaded)


@pytest.mark.parametrize(("size", "length"), [(1, 1), (2, 2), (3, 3)])
def test_a_tree_shades_as_many_spaces_as_its_size(size, length):
    state = build(TWO, {"A4": (0, size)}, sun=1)  # shadows run west along row A
    heights = engine.shadow_map(state)
    assert labels(i for i, h in enumerate(heights) if h) == ["A1", "A2", "A3"][3 - length :]


def test_a_taller_tree_escapes_a_shadow():
    # Medium tree on D3 shades D2 and D1 westwards (sun E); the large tree on D2 is taller.
    state = build(TWO, {"D3": (0, 2), "D2": (1, 3)}, sun=1)
    assert engine.light_for_sun(state, 1) == [2, 3]


def test_an_equal_or_smaller_tree_is_shaded():
    state = build(TWO, {"D3": (0, 2), "D2": (1, 2), "D1": (1, 1)}, sun=1)
    # D2 (medium) is shaded by the medium on D3; D1 (small) too; D2 still casts on D1.
    assert engine.light_for_sun(state, 1) == [2, 0]


def test_shadows_of_shadowed_trees_still_count():
    # Large D6 shades D5, D4, D3 (sun E). The small on D5 is shaded and still shades D4's small;
    # the medium on D2 is beyond the large tree's reach but within the shaded medium D3's.
    state = build(TWO, {"D6": (0, 3), "D3": (1, 2), "D2": (1, 2)}, sun=1)
    assert engine.light_for_sun(state, 1) == [3, 0]


def test_light_sums_sizes_of_unshadowed_trees_per_seat():
    state = build(THREE, {"A1": (0, 1), "D4": (1, 3), "G4": (2, 2), "C6": (0, 2)}, sun=0)
    assert engine.light_for_sun(state, 0) == [3, 3, 2]


def test_seeds_neither_cast_nor_collect():
    state = build(TWO, {"D4": (0, 0), "D3": (1, 1)}, sun=1)
    assert engine.light_for_sun(state, 1) == [0, 1]
    assert engine.shadow_map(state)[parse_label("D3")] == 0


# -- setup -----------------------------------------------------------------------------------


def test_setup_places_two_small_trees_each_in_turn_order():
    state = engine.new_game(THREE, seed=1)
    order = []
    for label in ["A1", "D1", "G1", "A4", "D7", "G4"]:
        order.append(state.current_seat)
        state = apply(state, f"place {label}")
    assert order == [0, 1, 2, 0, 1, 2]
    assert state.phase == "play" and state.round == 1 and state.sun == 0
    assert state.current_seat == 0 and state.first_seat == 0
    assert [s.available for s in state.seats] == [[2, 2, 1, 0]] * 3


def test_setup_only_on_empty_outer_spaces():
    state = engine.new_game(TWO, seed=1)
    with pytest.raises(IllegalAction, match="outer ring"):
        apply(state, "place D4")
    state = apply(state, "place A1")
    with pytest.raises(IllegalAction, match="A1 is already taken"):
        apply(state, "place A1")
    assert {str(a) for a in legal_actions(state)} == {
        f"place {LABELS[i]}" for i in range(37) if BORDER_MASK >> i & 1 and LABELS[i] != "A1"
    }


def test_setup_ends_with_the_first_photosynthesis():
    state = play_setup(engine.new_game(TWO, seed=1), ["A1", "G1", "A4", "G4"])
    assert [s.light for s in state.seats] == [2, 2]
    # Sun at NE, shadows to the SW: seat 1's small tree on A1 shades seat 2's on B1.
    state = play_setup(engine.new_game(TWO, seed=1), ["A1", "B1", "A4", "G4"])
    assert [s.light for s in state.seats] == [2, 1]


def test_no_other_action_during_setup():
    state = engine.new_game(TWO, seed=1)
    for text in ("end", "buy seed", "grow A1"):
        with pytest.raises(IllegalAction, match="Setup comes first"):
            apply(state, text)


# -- rounds, revolutions, first player -------------------------------------------------------


def test_rounds_rotate_the_first_player_and_move_the_sun():
    state = play_setup(engine.new_game(THREE, seed=1), ["A1", "D1", "G1", "A4", "D7", "G4"])
    seen = []
    for _ in range(7):
        seen.append((state.round, state.revolution, state.sun, state.first_seat))
        turn_order = []
        for _ in range(3):
            turn_order.append(state.current_seat)
            state = apply(state, "end")
        assert turn_order == [(seen[-1][3] + k) % 3 for k in range(3)]
    assert seen == [
        (1, 1, 0, 0),
        (2, 1, 1, 1),
        (3, 1, 2, 2),
        (4, 1, 3, 0),
        (5, 1, 4, 1),
        (6, 1, 5, 2),
        (7, 2, 0, 0),
    ]


@pytest.mark.parametrize(("revolutions", "rounds"), [(3, 18), (4, 24)])
def test_the_game_ends_after_the_last_round(revolutions, rounds):
    cfg = Config(seats=("human", "human"), revolutions=revolutions)
    state = play_setup(engine.new_game(cfg, seed=1), ["A1", "G1", "A4", "G4"])
    played = 0
    while not state.is_over:
        assert state.round == played + 1
        state = end_turns(state, 2)
        played += 1
    assert played == rounds
    assert state.current_seat is None and legal_actions(state) == []
    with pytest.raises(IllegalAction, match="over"):
        apply(state, "end")


def test_light_never_exceeds_20():
    state = build(TWO, {"D4": (0, 3), "A4": (0, 3), "G1": (0, 2)}, light=[18, 0], sun=0)
    state = end_turns(state, 2)  # next round, sun at E: 8 light would be collected
    assert state.seats[0].light == 20


# -- buying ----------------------------------------------------------------------------------


def test_buying_follows_the_column_prices():
    state = build(TWO, light=[20, 0])
    paid = []
    for _ in range(4):
        before = state.seats[0].light
        state = apply(state, "buy seed")
        paid.append(before - state.seats[0].light)
    assert paid == [1, 1, 2, 2]
    with pytest.raises(IllegalAction, match="no seed left"):
        apply(state, "buy seed")
    assert state.seats[0].available[0] == 6 and state.seats[0].store[0] == 0
    assert engine.next_price(state, 0, 3) == 4
    state = apply(state, "buy large")
    assert engine.next_price(state, 0, 3) == 5
    assert engine.next_price(state, 0, 2) == 3 and engine.next_price(state, 0, 1) == 2


def test_buying_needs_the_light():
    state = build(TWO, light=[2, 0])
    with pytest.raises(IllegalAction, match="costs 3 light points; you have 2"):
        apply(state, "buy medium")
    assert {str(a) for a in legal_actions(state) if a.verb == "buy"} == {"buy seed", "buy small"}


def test_grown_over_piece_returns_to_its_column_and_costs_that_price_again():
    state = build(TWO, {"B2": (0, 0)}, light=[20, 0])
    state = apply(state, "buy small")  # store small 4 -> 3, paid 2
    state = apply(state, "grow B2")  # the seed returns to the seed column (4 of 4: full -> out)
    assert state.seats[0].store[0] == 4 and state.seats[0].out[0] == 1
    assert state.seats[0].light == 20 - 2 - 1
    state = end_turns(state, 3)  # seat 2 starts round 2; then seat 1 again
    assert state.current_seat == 0
    state = apply(state, "grow B2")  # small -> medium: the small returns to its column (3 -> 4)
    assert state.seats[0].store[1] == 4 and state.seats[0].out[1] == 0
    assert engine.next_price(state, 0, 1) == 2


# -- planting --------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "reach"), [(1, 1), (2, 2), (3, 3)])
def test_planting_reaches_as_far_as_the_tree_size(size, reach):
    state = build(TWO, {"D4": (0, size)}, light=[5, 0])
    targets = {str(a).split()[2] for a in legal_actions(state) if a.verb == "plant"}
    expected = {
        LABELS[i] for i in range(37) if 1 <= engine.geometry.distance(i, parse_label("D4")) <= reach
    }
    assert targets == expected


def test_planting_out_of_reach_says_why():
    state = build(TWO, {"C3": (0, 2)}, light=[5, 0])
    with pytest.raises(IllegalAction) as e:
        apply(state, "plant C3 F4")
    assert str(e.value) == (
        "F4 is out of reach: your medium tree on C3 plants up to 2 spaces away."
    )


def test_planting_costs_one_and_uses_an_available_seed():
    state = build(TWO, {"C3": (0, 2)}, light=[5, 0])
    after = apply(state, "plant C3 E4")
    assert after.seats[0].light == 4
    assert after.seats[0].available[0] == 1
    assert after.piece_at(parse_label("E4")) == (0, 0)


def test_planting_needs_a_seed_and_a_light_point():
    state = build(TWO, {"C3": (0, 2)}, light=[0, 0])
    with pytest.raises(IllegalAction, match="costs 1 light point; you have 0"):
        apply(state, "plant C3 C4")
    state = build(TWO, {"C3": (0, 2), "A1": (0, 0), "A2": (0, 0)}, light=[5, 0])
    with pytest.raises(IllegalAction, match="no seed available"):
        apply(state, "plant C3 C4")


def test_planting_only_on_empty_spaces_and_from_trees():
    state = build(TWO, {"C3": (0, 2), "C4": (1, 1), "A1": (0, 0)}, light=[5, 0])
    with pytest.raises(IllegalAction, match="C4 is not empty"):
        apply(state, "plant C3 C4")
    with pytest.raises(IllegalAction, match="only trees spread seeds"):
        apply(state, "plant A1 A2")
    with pytest.raises(IllegalAction, match="no tree on C4"):
        apply(state, "plant C4 C5")


# -- growing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "cost"), [(0, 1), (1, 2), (2, 3)])
def test_growing_costs_the_next_size(size, cost):
    state = build(TWO, {"D4": (0, size)}, light=[10, 0])
    seat = state.seats[0]
    seat.available[size + 1] = max(seat.available[size + 1], 1)
    after = apply(state, "grow D4")
    assert after.piece_at(parse_label("D4")) == (0, size + 1)
    assert after.seats[0].light == 10 - cost


def test_growing_needs_the_next_size_available():
    state = build(TWO, {"D4": (0, 2)}, light=[10, 0])
    with pytest.raises(IllegalAction, match="no large tree available"):
        apply(state, "grow D4")
    state = build(TWO, {"D4": (0, 3)}, light=[10, 0])
    with pytest.raises(IllegalAction, match="fully grown"):
        apply(state, "grow D4")


# -- collecting ------------------------------------------------------------------------------


def test_collecting_costs_four_and_takes_the_top_token_of_the_soil():
    state = build(THREE, {"D4": (0, 3), "B2": (0, 3)}, light=[9, 0, 0])
    state = apply(state, "collect D4")
    assert state.seats[0].tokens == ((4, 22),)
    assert state.seats[0].light == 5
    assert state.piles[4] == (21, 20)
    assert state.seats[0].store[3] == 1  # back to the player board (both were taken from it)
    state = apply(state, "collect B2")
    assert state.seats[0].tokens == ((4, 22), (2, 17))


def test_collecting_falls_to_the_next_pile_when_empty():
    state = build(THREE, {"C3": (0, 3)}, light=[10, 0, 0])
    state.piles = ((), (12,), (), (), (22,))
    after = apply(state, "collect C3")
    assert after.seats[0].tokens == ((1, 12),)
    state.piles = ((), (), (), (), (22,))
    after = apply(state, "collect C3")
    assert after.seats[0].tokens == ()
    assert after.seats[0].light == 6


def test_two_seat_games_score_the_centre_from_the_3_leaf_pile():
    state = build(TWO, {"D4": (0, 3)}, light=[4, 0])
    assert state.piles[4] == ()
    assert apply(state, "collect D4").seats[0].tokens == ((3, 19),)
    state = build(THREE, {"D4": (0, 3)}, light=[4, 0, 0])
    assert apply(state, "collect D4").seats[0].tokens == ((4, 22),)


def test_collecting_needs_four_light():
    state = build(TWO, {"D4": (0, 3)}, light=[3, 0])
    with pytest.raises(IllegalAction, match="costs 4 light points; you have 3"):
        apply(state, "collect D4")


# -- activation ------------------------------------------------------------------------------


def test_no_plant_then_grow_of_the_seed():
    state = build(TWO, {"C3": (0, 2)}, light=[10, 0])
    state = apply(state, "plant C3 C4")
    with pytest.raises(IllegalAction, match="C4 was already used this turn"):
        apply(state, "grow C4")


def test_no_grow_then_plant_from_it_and_no_two_plants_from_one_tree():
    state = build(TWO, {"C3": (0, 1)}, light=[10, 0])
    grown = apply(state, "grow C3")
    with pytest.raises(IllegalAction, match="C3 was already used"):
        apply(grown, "plant C3 C4")
    planted = apply(state, "plant C3 C4")
    with pytest.raises(IllegalAction, match="C3 was already used"):
        apply(planted, "plant C3 D3")
    with pytest.raises(IllegalAction, match="C3 was already used"):
        apply(planted, "grow C3")


def test_no_collect_then_plant_in_that_space_but_others_may_this_round():
    state = build(TWO, {"D4": (0, 3), "C3": (0, 2), "D5": (1, 2)}, light=[10, 10])
    state = apply(state, "collect D4")
    with pytest.raises(IllegalAction, match="D4 was already used"):
        apply(state, "plant C3 D4")
    state = apply(state, "end")
    state = apply(state, "plant D5 D4")  # seat 2 may use the emptied space in the same round
    assert state.piece_at(parse_label("D4")) == (1, 0)


def test_activations_end_with_the_turn():
    state = build(TWO, {"C3": (0, 2)}, light=[10, 0])
    state = apply(state, "plant C3 C4")
    state = end_turns(state, 3)
    assert state.current_seat == 0 and state.activated == 0
    assert "grow C4" in {str(a) for a in legal_actions(state)}


def test_buying_activates_nothing():
    state = build(TWO, {"C3": (0, 1)}, light=[10, 0])
    state = apply(state, "buy small")
    assert state.activated == 0
    assert "grow C3" in {str(a) for a in legal_actions(state)}


# -- end of the game -------------------------------------------------------------------------


def test_final_score_is_tokens_plus_a_point_per_three_light():
    state = build(TWO, {"D4": (0, 3)}, light=[13, 2])
    state = apply(state, "collect D4")  # 19 points, 9 light left -> 3
    assert engine.scores(state) == [22, 0]
    assert engine.score_parts(state, 0) == {"tokens": 19, "light": 3}


def test_ties_go_to_most_pieces_on_the_board_then_are_shared():
    state = build(TWO, {"A1": (0, 0), "A2": (0, 1), "G1": (1, 1)}, light=[3, 3])
    assert engine.scores(state) == [1, 1]
    assert engine.winners(state) == [0]
    state = build(TWO, {"A1": (0, 0), "G1": (1, 1)}, light=[3, 3])
    assert engine.winners(state) == [0, 1]


# -- advanced shadow rule --------------------------------------------------------------------


def test_shadow_rule_forbids_planting_from_and_growing_shadowed_pieces():
    cfg = Config(seats=("human", "human"), shadow_rule=True)
    # Sun E (1): the large tree on D5 shades D4, D3, D2.
    state = build(
        cfg, {"D5": (1, 3), "D4": (0, 2), "D2": (0, 0), "B2": (0, 1)}, light=[10, 0], sun=1
    )
    state.seats[0].available[2] = 1  # a medium tree to grow into
    with pytest.raises(IllegalAction, match="in shadow and cannot plant"):
        apply(state, "plant D4 C3")
    with pytest.raises(IllegalAction, match="in shadow and cannot grow"):
        apply(state, "grow D2")
    legal = {str(a) for a in legal_actions(state)}
    assert not any(a.startswith("plant D4") for a in legal)
    assert "grow D2" not in legal and "grow D4" not in legal
    assert "grow B2" in legal and "plant B2 B3" in legal
    plain = build(TWO, {"D5": (1, 3), "D4": (0, 2), "D2": (0, 0)}, light=[10, 0], sun=1)
    assert "plant D4 C3" in {str(a) for a in legal_actions(plain)}


def test_a_seed_is_shadowed_by_any_tree_shadow():
    cfg = Config(seats=("human", "human"), shadow_rule=True)
    state = build(cfg, {"D5": (1, 1), "D4": (0, 0)}, light=[10, 0], sun=1)
    with pytest.raises(IllegalAction, match="in shadow"):
        apply(state, "grow D4")


def test_a_taller_tree_is_not_shadowed_under_the_shadow_rule():
    cfg = Config(seats=("human", "human"), shadow_rule=True)
    state = build(cfg, {"D5": (1, 1), "D4": (0, 2)}, light=[10, 0], sun=1)
    assert "plant D4 C3" in {str(a) for a in legal_actions(state)}


# -- illegal actions change nothing ----------------------------------------------------------


def test_an_illegal_action_leaves_the_state_unchanged():
    state = build(TWO, {"C3": (0, 2)}, light=[2, 0])
    before = state.to_dict()
    for text in ("plant C3 G1", "grow A1", "collect C3", "buy large", "place A1", "fly away"):
        with pytest.raises(IllegalAction):
            apply(state, text)
    assert state.to_dict() == before


def test_the_next_photosynthesis_sun():
    state = engine.new_game(TWO, seed=1)
    assert engine.next_photosynthesis_sun(state) == 0  # setup ends with round 1's, sun at NE
    state = play_setup(state, ["A1", "G1", "A4", "G4"])
    assert engine.next_photosynthesis_sun(state) == 1
    assert engine.next_photosynthesis_sun(build(TWO, sun=5, round=12)) == 0
    last = build(TWO, sun=5, round=18)
    assert engine.next_photosynthesis_sun(last) is None
    assert engine.next_photosynthesis_sun(end_turns(last, 2)) is None
