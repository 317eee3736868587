"""The moon (docs/rules-data.md#71-the-moon): gaps, beams, its move and phase, lunar points,
moonstones, the Great Elder Tree against the moon and the sun."""

from __future__ import annotations

import pytest

import engine
from engine import Config
from engine.moon import BEAMS
from engine.moonlight import MoonlightLayer, arrange, moonlit_spaces, tracker
from engine.position import build

# -- an independent model of the board, from docs/rules-data.md#1-board ----------------------------

ROWS = "ABCDEFG"
#: docs/rules-data.md#1-board: the border ring clockwise from A4 (border index 0..17).
BORDER = "A4 B5 C6 D7 E6 F5 G4 G3 G2 G1 F1 E1 D1 C1 B1 A1 A2 A3".split()
#: docs/rules-data.md#1-board: E, SE, SW, W, NW, NE.
DIRS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]


def coords(label: str) -> tuple[int, int]:
    r = ROWS.index(label[0]) - 3
    return int(label[1:]) - 1 + max(-3, -3 - r), r


def label_of(q: int, r: int) -> str:
    return f"{ROWS[r + 3]}{q - max(-3, -3 - r) + 1}"


def on_board(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= 3


def walk(label: str, d: int) -> list[str]:
    q, r = coords(label)
    out = []
    while on_board(q, r):
        out.append(label_of(q, r))
        q, r = q + DIRS[d][0], r + DIRS[d][1]
    return out


def expected_beams(gap: int) -> tuple[list[str], list[str]]:
    w = (gap // 3 + 1) % 6
    return walk(BORDER[gap], (w + 2) % 6), walk(BORDER[(gap + 1) % 18], (w + 1) % 6)


def names(spaces) -> list[str]:
    return [engine.geometry.LABELS[i] for i in spaces]


# -- beams -----------------------------------------------------------------------------------


def test_the_two_examples_of_rules_data():
    assert names(BEAMS[10][0]) == "F1 F2 F3 F4 F5".split()
    assert names(BEAMS[10][1]) == "E1 D2 C2 B2 A2".split()
    assert names(BEAMS[0][0]) == "A4 A3 A2 A1".split()
    assert names(BEAMS[0][1]) == "B5 C5 D5 E4 F3 G2".split()


@pytest.mark.parametrize("gap", range(18))
def test_beams_of_every_gap_follow_the_direction_rule(gap):
    first, second = expected_beams(gap)
    assert names(BEAMS[gap][0]) == first
    assert names(BEAMS[gap][1]) == second
    # They start at the two border spaces touching the gap and never cross the centre.
    assert first[0] == BORDER[gap] and second[0] == BORDER[(gap + 1) % 18]
    assert "D4" not in first + second
    # Diverging: after the border spaces the beams never meet again.
    assert not set(first[1:]) & set(second[1:])


# -- the move and the phase ------------------------------------------------------------------


def crosses_by_simulation(gap: int, sun: int) -> bool:
    """Move both for one round in small steps and watch whether the moon passes the sun."""
    steps = 4000
    prev = None
    for k in range(steps + 1):
        t = k / steps
        moon = (gap + 0.5 - 5 * t) % 18
        sun_at = (3 * sun + 3 * t) % 18
        diff = (moon - sun_at) % 18  # ccw distance from the sun to the moon
        if prev is not None and diff > prev + 9:  # wrapped through 0: they met
            return True
        prev = diff
    return False


def round_starts(cfg: Config):
    """(round, moon gap, full, tracker before the round ended) for every round of a game where
    every seat only ends its turn."""
    state = engine.new_game(cfg, seed=3)
    while state.phase == "setup":
        state = engine.apply(state, engine.legal_actions(state)[0])
    seen = []
    while not state.is_over:
        if state.current_seat == state.first_seat:
            seen.append((state.round, state.sun, state.ext.moon, state.ext.full, tracker(state)))
        state = engine.apply(state, "end")
    return seen


def test_moon_starts_at_gap_10_half_and_moves_5_counter_clockwise_with_flips_for_24_rounds():
    cfg = Config(seats=("human", "human"), revolutions=4, moon_animals=True)
    seen = round_starts(cfg)
    assert len(seen) == 24
    assert seen[0][2:4] == (10, False)
    for (rnd, sun, gap, full, preview), (_, _, gap2, full2, _) in zip(seen, seen[1:], strict=False):
        assert gap2 == (gap - 5) % 18
        assert full2 == (full ^ crosses_by_simulation(gap, sun)), rnd
        assert preview == (gap2, full2)  # the Moon Phase Tracker shows the next position
    # The first ten rounds, worked out by hand from docs/rules-data.md#71-the-moon.
    assert [(g, f) for _, _, g, f, _ in seen[:10]] == [
        (10, False), (5, False), (0, True), (13, True), (8, False),
        (3, False), (16, True), (11, True), (6, True), (1, False),
    ]  # fmt: skip


def test_without_the_animal_mode_there_is_no_moon():
    state = engine.new_game(Config(seats=("human", "human"), elder_tree=True, moonstones=True))
    assert state.ext.moon == -1 and tracker(state) is None and moonlit_spaces(state) == 0
    assert state.seats[0].lunar == 0
    assert engine.score_parts(state, 0) == {"tokens": 0, "light": 0}


# -- lunar points ----------------------------------------------------------------------------

TWO = Config(seats=("human", "human"), moon_animals=True, elder_tree=True, moonstones=True)


def lunar_after(state) -> list[int]:
    s = state.copy()
    MoonlightLayer(s.config).photosynthesis(s)
    return [seat.lunar for seat in s.seats]


def test_lit_animals_get_1_at_half_moon_and_2_at_full_moon():
    base = build(TWO, {})
    s = arrange(base, animals={0: ("owl", "F3"), 1: ("fox", "D5")}, moon=(10, False))
    assert lunar_after(s) == [3, 2]  # start at 2; F3 is on the beam F1..F5, D5 is not
    s = arrange(s, moon=(10, True))
    assert lunar_after(s) == [4, 2]
    s = arrange(s, animals={1: ("fox", "B2")})
    assert lunar_after(s) == [4, 4]


def test_lunar_points_are_capped_at_14():
    s = arrange(build(TWO, {}), animals={0: ("owl", "F3")}, moon=(10, True), lunar=[13, 0])
    assert lunar_after(s) == [14, 0]


def test_every_seat_starts_with_2_lunar_points_and_the_first_photosynthesis_pays():
    cfg = Config(seats=("human", "human", "cynthia"), moon_animals=True)
    state = engine.new_game(cfg, seed=1)
    assert [s.lunar for s in state.seats] == [2, 2, 0]


def test_the_elder_tree_blocks_the_moon_along_a_beam():
    s = arrange(
        build(TWO, {}), animals={0: ("owl", "C2"), 1: ("fox", "E1")}, elder="D2", moon=(10, False)
    )
    assert lunar_after(s) == [2, 3]  # E1 is before the Elder Tree on the beam, C2 behind it
    lit = moonlit_spaces(s)
    assert [engine.geometry.LABELS[i] for i in engine.geometry.bits(lit)] == sorted(
        ["E1", "F1", "F2", "F3", "F4", "F5"], key=engine.geometry.LABEL_INDEX.get
    )


def test_moonstones_shine_on_their_neighbours_and_in_chains():
    base = build(TWO, {})
    # B2 is on the beam of gap 10; C3 touches B2; C4 touches C3 (not B2); D5 touches C4.
    chain = arrange(
        base, animals={0: ("owl", "D5"), 1: ("fox", "G4")}, moonstones=["B2", "C3", "C4"]
    )
    chain = arrange(chain, moon=(10, False))
    assert lunar_after(chain) == [3, 2]
    # A moonstone on the centre D4 is never in the moonlight, chains included
    # (docs/rules-data.md#71-the-moon): D5 touches D4 (next to the shining C3) but no other stone
    # of the chain.
    centre = arrange(chain, moonstones=["B2", "C3", "D4"])
    assert lunar_after(centre) == [2, 2]
    # Not lit: no stone of the chain is on a beam.
    unlit = arrange(chain, moonstones=["C3", "D4"])
    assert lunar_after(unlit) == [2, 2]
    # The Elder Tree on D2 keeps the beam off B2, so the whole chain is dark.
    blocked = arrange(chain, elder="D2")
    assert lunar_after(blocked) == [2, 2]


def test_an_animal_lit_twice_gets_the_points_once():
    s = arrange(build(TWO, {}), animals={0: ("owl", "F2")}, moonstones=["F3"], moon=(10, True))
    assert lunar_after(s) == [4, 2]


def test_a_round_change_moves_the_moon_before_lunar_points():
    s = arrange(build(TWO, {}), animals={0: ("owl", "F3"), 1: ("fox", "D5")}, moon=(10, False))
    s = engine.apply(engine.apply(s, "end"), "end")  # round 2: moon at gap 5, still Half
    assert (s.ext.moon, s.ext.full) == (5, False)
    # Gap 5 (F5-G4) beams: F5 E5 D5 C4 B3 A2 and G4 G3 G2 G1: the fox on D5 is lit.
    assert [x.lunar for x in s.seats] == [2, 3]


# -- the Elder Tree and the moonstones against the sun ---------------------------------------


def test_the_elder_tree_shades_every_space_behind_it_to_the_edge_whatever_the_size():
    cfg = Config(seats=("human", "human"), elder_tree=True)
    s = build(cfg, {"E3": (0, 3), "G1": (1, 3), "E4": (0, 1)})
    s = arrange(s, elder="D4")
    # Sun 0 casts towards SW: D4 -> E3 -> F2 -> G1.
    assert engine.light_for_sun(s, 0) == [1, 0]
    assert engine.light_for_sun(s, 1) == [4, 3]  # sun E: shadow to the W of D4, off E3
    shadows = engine.shadow_map(s, 0)
    for label in ("E3", "F2", "G1"):
        assert shadows[engine.geometry.LABEL_INDEX[label]] == 3


def test_a_moonstone_shades_one_space_and_only_small_trees():
    cfg = Config(seats=("human", "human"), moonstones=True)
    small = arrange(build(cfg, {"E3": (0, 1)}), moonstones=["D4"])
    assert engine.light_for_sun(small, 0) == [0, 0]
    medium = arrange(build(cfg, {"E3": (0, 2), "A1": (1, 1)}), moonstones=["D4"])
    assert engine.light_for_sun(medium, 0) == [2, 1]


def test_photosynthesis_applies_the_obstacle_shade():
    cfg = Config(seats=("human", "human"), elder_tree=True)
    s = arrange(build(cfg, {"E3": (0, 3), "C5": (1, 2)}, sun=5, round=6), elder="D4")
    s = engine.apply(engine.apply(s, "end"), "end")  # round 7: sun 0
    assert s.sun == 0
    assert [x.light for x in s.seats] == [0, 2]


def labels_of(mask: int) -> set[str]:
    return {engine.geometry.LABELS[i] for i in range(37) if mask >> i & 1}


def test_the_spaces_the_moon_lights_at_the_next_photosynthesis():
    cfg = Config(seats=("human", "human"), moon_animals=True)
    lit = engine.moonlight.moonlit_next_photosynthesis
    beams = lambda *rows: {lab for row in rows for lab in row.split()}  # noqa: E731
    # Setup ends with round 1's photosynthesis: the moon has not moved from gap 10 (F1|E1).
    setup = engine.new_game(cfg, seed=1)
    assert labels_of(lit(setup)) == beams("F1 F2 F3 F4 F5", "E1 D2 C2 B2 A2")
    # During round 1 the next photosynthesis comes after the move to gap 5 (F5|G4).
    s = arrange(build(cfg, sun=0), moon=(10, False))
    assert labels_of(lit(s)) == beams("F5 E5 D5 C4 B3 A2", "G4 G3 G2 G1")
    # In the last round none is left.
    assert lit(arrange(build(cfg, sun=5, round=18), moon=(10, False))) == 0
