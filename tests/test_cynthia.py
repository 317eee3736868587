"""Cynthia, the automa (engine/cynthia.py; docs/rules-data.md#8-cynthia).

Positions are built from a new game's position data with the board, light, round and deck set
by hand, so each test names the card it uses. Sun positions: round ``r`` plays with the sun at
``(r - 1) % 6``; the Future Light Points Check looks one position on (round 1: shadows fall W).
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import cynthia, game
from engine.config import CYNTHIA, HUMAN, Config
from engine.geometry import LABEL_INDEX, LABELS, RING_MASK
from engine.pieces import CYNTHIA_TOTAL, SIZE_NAMES
from engine.rng import shuffled
from engine.state import GameState

C, H = CYNTHIA, HUMAN
SEED, SMALL, MEDIUM, LARGE = range(4)


def sp(label: str) -> int:
    return LABEL_INDEX[label]


def mask(*labels: str) -> int:
    return sum(1 << sp(label) for label in labels)


def make(
    board: dict[str, tuple[int, int]],
    *,
    seats=(C, H),
    light=(10, 0),
    round: int = 1,
    deck=(1,),
    half: str = "early",
    activated=(),
    current: int = 0,
    first: int | None = None,
    revolutions: int = 3,
    **options,
) -> GameState:
    """A position during play: ``board`` maps labels to ``(seat, size)``."""
    cfg = Config(seats=tuple(seats), revolutions=revolutions, **options)
    d = engine.new_game(cfg, seed=7).to_dict()
    d.update(
        phase="play",
        round=round,
        revolution=(round - 1) // 6 + 1,
        sun=(round - 1) % 6,
        current_seat=current,
        first_seat=current if first is None else first,
        setup_step=2 * len(seats),
    )
    d["board"] = {label: {"seat": s, "size": z} for label, (s, z) in board.items()}
    d["activated"] = list(activated)
    for i, seat in enumerate(d["seats"]):
        seat["light"] = light[i]
        if seat["kind"] == C:
            avail = list(CYNTHIA_TOTAL)
            for s, z in board.values():
                if s == i:
                    avail[z] -= 1
            seat["available"] = dict(zip(SIZE_NAMES, avail))
            d["cynthia"][i] = {"deck": list(deck), "half": half}
    return GameState.from_dict(d)


def decide(state: GameState) -> engine.Action:
    action = engine.auto_action(state)
    assert action is not None
    return action


def play(config: Config, seed: int) -> tuple[GameState, list[str]]:
    """A whole game: humans pick uniformly among the legal actions, Cynthias decide."""
    rnd = random.Random(seed)
    state = engine.new_game(config, seed)
    log: list[str] = []
    while not state.is_over:
        actions = engine.legal_actions(state)
        if state.seats[state.current_seat].kind == C:
            assert len(actions) == 1 and actions[0].explanation
            action = actions[0]
            if action.verb != "place":
                # Her decisions obey the rules every player obeys.
                assert game.check(state, action) is None, (str(action), action.explanation)
        else:
            action = rnd.choice(actions)
        log.append(str(action))
        state = engine.apply(state, str(action))
    return state, log


# -- Directional Selection --------------------------------------------------------------------


def test_reference_spaces_start_each_ring():
    assert [LABELS[cynthia.WALK[k]["cw"][0]] for k in (1, 2, 3, 4)] == ["A4", "B4", "C4", "D4"]
    assert [LABELS[i] for i in cynthia.WALK[3]["cw"]] == ["C4", "D5", "E4", "E3", "D3", "C3"]
    assert [LABELS[i] for i in cynthia.WALK[3]["ccw"]] == ["C4", "C3", "D3", "E3", "E4", "D5"]


def test_directional_selection_counts_the_reference_space_when_eligible():
    border = RING_MASK[1]
    assert LABELS[cynthia.directional(border, 1, "cw", 1)] == "A4"
    assert LABELS[cynthia.directional(border, 1, "ccw", 1)] == "A4"
    assert LABELS[cynthia.directional(border, 1, "cw", 2)] == "B5"
    assert LABELS[cynthia.directional(border, 1, "ccw", 2)] == "A3"
    assert LABELS[cynthia.directional(mask("D4"), 4, "ccw", 3)] == "D4"


def test_directional_selection_skips_spaces_that_are_not_eligible():
    eligible = mask("D5", "C3")
    assert LABELS[cynthia.directional(eligible, 3, "cw", 1)] == "D5"
    assert LABELS[cynthia.directional(eligible, 3, "ccw", 1)] == "C3"
    assert LABELS[cynthia.directional(eligible, 3, "cw", 2)] == "C3"
    assert LABELS[cynthia.directional(eligible, 3, "ccw", 2)] == "D5"


def test_directional_selection_wraps_round_when_the_count_is_larger():
    eligible = mask("B5", "G1", "A3")  # border order: B5 (1), G1 (9), A3 (17)
    assert LABELS[cynthia.directional(eligible, 1, "cw", 4)] == "B5"
    assert LABELS[cynthia.directional(eligible, 1, "cw", 5)] == "G1"
    assert LABELS[cynthia.directional(eligible, 1, "cw", 6)] == "A3"
    assert LABELS[cynthia.directional(eligible, 1, "ccw", 4)] == "A3"
    assert LABELS[cynthia.directional(eligible, 1, "ccw", 5)] == "G1"
    assert LABELS[cynthia.directional(mask("E6"), 1, "ccw", 6)] == "E6"


def test_directional_selection_refuses_spaces_off_the_ring():
    with pytest.raises(ValueError):
        cynthia.directional(mask("A4", "C4"), 1, "cw", 1)
    with pytest.raises(ValueError):
        cynthia.directional(0, 2, "cw", 1)


# -- setup ------------------------------------------------------------------------------------


def _new_game_with_deck(cfg: Config, deck) -> GameState:
    d = engine.new_game(cfg, seed=3).to_dict()
    for i, kind in enumerate(cfg.seats):
        if kind == C:
            d["cynthia"][i]["deck"] = list(deck)
    return GameState.from_dict(d)


def test_setup_small_then_medium_on_valid_border_spaces():
    s = _new_game_with_deck(Config(seats=(C, H)), (3, 2, 5))
    first = decide(s)
    # Card 3 setup: cw 3 over all 18 free border spaces: A4, B5, C6.
    assert str(first) == "place C6"
    assert first.explanation == (
        "Card 3 setup: small tree on C6 by Directional Selection (cw 3) among 18 valid spaces "
        "(empty border spaces not next to a tree)."
    )
    s = engine.apply(s, first)
    assert s.piece_at(sp("C6")) == (0, SMALL)
    assert s.seat_ext[0].cards == (2, 5)
    s = engine.apply(s, "place A4")
    # Card 2 setup: ccw 2; A4, C6 taken, A3 B5 D7 next to them: A2 (1), A1 (2).
    assert str(decide(s)) == "place A1"
    s = engine.apply(s, "place A1")
    assert s.piece_at(sp("A1")) == (0, MEDIUM)
    assert s.seats[0].available == [3, 2, 2, 2]
    s = engine.apply(s, "place D1")
    assert s.phase == "play" and s.round == 1


def test_setup_easier_two_small_trees():
    s = _new_game_with_deck(Config(seats=(C, H), easier_two_small_start=True), (3, 2))
    for action in ("place C6", "place A4", "place A1", "place D1"):
        s = engine.apply(s, action)
    assert s.piece_at(sp("A1")) == (0, SMALL)
    assert s.seats[0].available == [3, 1, 3, 2]


def test_setup_falls_back_to_any_empty_border_space():
    cfg = Config(seats=(H, H, H, C))
    d = engine.new_game(cfg, seed=3).to_dict()
    trees = {"A4": 0, "B5": 1, "D7": 2, "G4": 3, "G1": 0, "D1": 1, "A1": 2}
    d.update(setup_step=7, current_seat=3)
    d["board"] = {label: {"seat": seat, "size": SMALL} for label, seat in trees.items()}
    d["cynthia"][3]["deck"] = [1, 4]
    s = GameState.from_dict(d)
    action = decide(s)
    # Every empty border space is next to a tree: card 1 setup (cw 1) over all of them.
    assert str(action) == "place C6"
    assert "no border space is free of neighbours, so any empty border space" in (
        action.explanation
    )
    assert "among 11 valid spaces" in action.explanation
    s = engine.apply(s, action)
    assert s.piece_at(sp("C6")) == (3, MEDIUM)
    assert s.phase == "play"


def test_setup_decks_are_shuffled_from_the_seed():
    a = engine.new_game(Config(seats=(C, C)), seed=11)
    b = engine.new_game(Config(seats=(C, C)), seed=11)
    assert a.seat_ext == b.seat_ext
    assert sorted(a.seat_ext[0].cards) == list(range(1, 15))
    assert a.seat_ext[0] != a.seat_ext[1]
    assert engine.new_game(Config(seats=(C, C)), seed=12).seat_ext != a.seat_ext


# -- turn structure ---------------------------------------------------------------------------


def test_turn_ends_without_a_card_when_she_has_no_light():
    s = make({"B4": (0, SMALL)}, light=(0, 0), deck=(1, 2))
    action, turn = cynthia.decide(s)
    assert str(action) == "end"
    assert action.explanation == "She has no light points left, so her turn ends."
    assert turn == (s.seat_ext[0], s.rng)
    after = engine.apply(s, "end")
    assert after.current_seat == 1 and after.seat_ext[0].cards == (1, 2)


def test_turn_ends_when_every_space_of_hers_is_activated():
    s = make({"B4": (0, SMALL), "C4": (0, SEED)}, activated=("B4", "C4"), deck=(1, 2))
    action, turn = cynthia.decide(s)
    assert str(action) == "end"
    assert action.explanation == (
        "Every space with one of her pieces has been activated, so her turn ends."
    )
    assert turn.deck.cards == (1, 2)
    # A space emptied by a collect does not count: only her pieces' spaces.
    s = make({"B4": (0, SMALL)}, activated=("C4",), deck=(1, 2))
    assert str(decide(s)) != "end"


def test_turn_ends_when_she_has_no_piece_on_the_board():
    s = make({}, deck=(1,))
    action = decide(s)
    assert str(action) == "end"
    assert action.explanation == "She has no piece on the board, so her turn ends."


def test_a_card_that_gives_no_action_ends_the_turn_and_is_used_up():
    # Card 5 early: plant limit 1+2 = 3; light 1 pays neither a grow nor a collect.
    s = make({"B4": (0, SMALL), "D1": (0, SMALL), "G1": (0, SMALL)}, light=(1, 0), deck=(5, 6))
    action, turn = cynthia.decide(s)
    assert str(action) == "end"
    assert action.explanation == (
        "Card 5 early: Collect: no large tree; Grow: no small tree left; medium costs 4 > 1; "
        "large costs 6 > 1; Plant: 3 spaces occupied, not fewer than 1+2; "
        "no action, so her turn ends."
    )
    assert turn.deck.cards == (6,)
    after = engine.apply(s, "end")
    assert after.seat_ext[0].cards == (6,) and after.current_seat == 1


def test_one_action_per_card_then_the_next_card():
    s = make({"B4": (0, SMALL), "C4": (0, SEED)}, light=(10, 0), deck=(1, 2, 3))
    s = engine.apply(s, decide(s))  # card 1: grow to small first
    assert s.piece_at(sp("C4")) == (0, SMALL) and s.seat_ext[0].cards == (2, 3)
    assert s.seats[0].light == 8 and s.activated == mask("C4")
    action = decide(s)  # card 2: medium first; C4 is activated, so B4
    assert str(action) == "grow B4" and action.explanation.startswith("Card 2 early: ")
    s = engine.apply(s, action)
    assert s.seats[0].light == 4 and s.seat_ext[0].cards == (3,)
    assert s.seats[0].available == [3, 2, 2, 2]  # the small went back to available at once
    action = decide(s)
    assert str(action) == "end"
    assert "Every space with one of her pieces has been activated" in action.explanation


def test_an_empty_deck_is_reshuffled_from_the_game_rng():
    s = make({"B4": (0, SMALL)}, deck=())
    action, turn = cynthia.decide(s)
    ids, rng = shuffled(list(range(1, 15)), s.rng)
    assert turn.rng == rng != s.rng
    assert turn.deck.cards == tuple(ids[1:])
    assert action.explanation.startswith(f"Card {ids[0]} early (deck reshuffled): ")
    after = engine.apply(s, action)
    assert after.rng == rng and after.seat_ext[0] == turn.deck


def test_decide_does_not_change_the_state():
    s = make({"B4": (0, SMALL), "C4": (0, SEED)}, deck=())
    before = s.to_dict()
    assert cynthia.decide(s)[0] == cynthia.decide(s)[0]
    assert s.to_dict() == before


def test_she_plays_only_her_decision():
    s = make({"B4": (0, SMALL), "C4": (0, SEED)}, deck=(1,))
    assert engine.legal_actions(s) == [engine.parse_action("grow C4")]
    with pytest.raises(engine.IllegalAction, match="Cynthia's cards decide her moves"):
        engine.apply(s, "grow B4")
    assert engine.auto_action(make({"B4": (1, SMALL)}, current=1)) is None


# -- Collect and the Future Light Points Check ------------------------------------------------

COLLECT_BOARD = {"B4": (0, LARGE), "D1": (0, MEDIUM), "G1": (0, MEDIUM)}


def test_collect_when_future_light_reaches_revolution_plus_card():
    # Without B4, with the sun at E next: D1 and G1 collect 2 each: FLP 4.
    action = decide(make(COLLECT_BOARD, deck=(1,)))  # card 1 early: collect 3
    assert str(action) == "collect B4"
    assert action.explanation == (
        "Card 1 early: Collect on B4 (B4 FLP 4 >= 1+3): the only valid choice."
    )
    after = engine.apply(make(COLLECT_BOARD, deck=(1,)), action)
    assert after.seats[0].tokens == ((2, 17),) and after.seats[0].light == 6
    assert after.seats[0].available[LARGE] == 2


def test_collect_not_valid_below_the_threshold():
    action = decide(make(COLLECT_BOARD, deck=(2,)))  # card 2 early: collect 4
    assert "Collect: none valid (B4 FLP 4 < 1+4)" in action.explanation
    # Then Grow: medium (no small), small (no seed), large: D1 or G1, same FLP: ccw 2 -> G1.
    assert str(action) == "grow G1"
    assert action.explanation == (
        "Card 2 early: Collect: none valid (B4 FLP 4 < 1+4); Grow (no small tree to grow to "
        "medium; no seed to grow to small) to large on G1: Directional Selection (ccw 2 among "
        "D1 G1)."
    )


def test_future_light_uses_the_next_sun_position():
    # The human's large tree on D2 shades D1 only with the sun at E (next), not at NE (now).
    board = {**COLLECT_BOARD, "D2": (1, LARGE)}
    s = make(board, deck=(1,))
    assert game.light_for_sun(s, 0)[0] == 7 and game.light_for_sun(s, 1)[0] == 5
    assert "Collect: none valid (B4 FLP 2 < 1+3)" in decide(s).explanation


def test_future_light_check_keeps_the_current_revolution():
    # Round 6 (revolution 1): the check looks at the sun of round 7, still against 1 + 3.
    action = decide(make(COLLECT_BOARD, round=6, deck=(1,)))
    assert str(action) == "collect B4" and "B4 FLP 4 >= 1+3" in action.explanation
    action = decide(make(COLLECT_BOARD, round=7, deck=(1,)))
    assert "Collect: none valid (B4 FLP 4 < 2+3)" in action.explanation


def test_collect_needs_four_light_and_an_unactivated_large_tree():
    action = decide(make(COLLECT_BOARD, light=(3, 0), deck=(1,)))
    assert "Collect: not enough light (3 < 4)" in action.explanation
    action = decide(make(COLLECT_BOARD, activated=("B4",), deck=(1,)))
    assert "Collect: her large trees are already activated" in action.explanation


LATE_BOARD = {"B4": (0, LARGE), "B2": (0, LARGE), "B5": (1, LARGE)}


def test_late_half_collects_whenever_both_large_trees_are_on_the_board():
    # B5 shades both of her large trees with the sun at E: FLP 0 < 3+0, yet she collects.
    action = decide(make(LATE_BOARD, round=13, half="late", deck=(2,)))
    assert str(action) == "collect B4"
    assert action.explanation == (
        "Card 2 late: Collect on B4 (both large trees on the board in the late half): "
        "Directional Selection (cw 1 among B2 B4)."
    )
    # Revolution 3 of a 4-revolution game still uses the early half: the check decides.
    action = decide(make(LATE_BOARD, round=13, revolutions=4, deck=(2,)))
    assert "Collect: none valid (B2 FLP 0 < 3+4, B4 FLP 0 < 3+4)" in action.explanation


def test_late_half_with_one_large_tree_uses_the_check():
    action = decide(make({"B4": (0, LARGE)}, round=13, half="late", deck=(2,)))
    assert str(action) != "collect B4"
    assert "Collect: none valid (B4 FLP 0 < 3+0)" in action.explanation


def test_collect_tiebreak_closest_to_centre():
    board = {"C4": (0, LARGE), "A4": (0, LARGE), "D1": (0, MEDIUM), "G1": (0, MEDIUM)}
    action = decide(make(board, deck=(3,)))  # collect 2: both valid (FLP 7)
    assert str(action) == "collect C4"
    assert action.explanation.endswith("(A4 FLP 7 >= 1+2, C4 FLP 7 >= 1+2): closest to centre.")


def test_collect_tiebreak_higher_future_light():
    # Without B4 the small tree on B3 is in light: FLP 4; without B2, B4 shades it: FLP 3.
    board = {"B4": (0, LARGE), "B2": (0, LARGE), "B3": (0, SMALL)}
    action = decide(make(board, deck=(7,)))  # card 7: collect 2; cw 4 would pick B2
    assert str(action) == "collect B4"
    assert action.explanation.endswith("higher FLP.")


def test_collect_tiebreak_directional_selection():
    board = {"B4": (0, LARGE), "B2": (0, LARGE)}
    assert str(decide(make(board, deck=(7,)))) == "collect B2"  # cw 4 among B4, B2
    assert str(decide(make(board, deck=(3,)))) == "collect B4"  # cw 3


# -- Grow -------------------------------------------------------------------------------------


def test_grow_tries_the_sizes_in_the_card_order():
    board = {"C4": (0, SEED), "A4": (0, SMALL)}
    assert str(decide(make(board, deck=(1,)))) == "grow C4"  # small first
    assert str(decide(make(board, deck=(2,)))) == "grow A4"  # medium first


def test_grow_skips_sizes_she_cannot_afford():
    board = {"C4": (0, SEED), "A4": (0, SMALL)}
    action = decide(make(board, light=(3, 0), deck=(2,)))
    assert str(action) == "grow C4"
    assert action.explanation == (
        "Card 2 early: Collect: no large tree; Grow (medium costs 4 > 3) to small on C4: "
        "the only valid choice."
    )


def test_grow_tiebreak_highest_own_future_light():
    # All mediums are on the board. Large on G4 would shade her G1 with the sun at E.
    board = {"D1": (0, MEDIUM), "G1": (0, MEDIUM), "G4": (0, MEDIUM), "A4": (0, SMALL)}
    action = decide(make(board, deck=(2,)))
    assert str(action) == "grow G1"
    assert action.explanation == (
        "Card 2 early: Collect: no large tree; Grow (no medium tree left; no seed to grow to "
        "small) to large on G1: highest own FLP, then Directional Selection (ccw 2 among D1 G1)."
    )


def test_grow_tiebreak_closest_to_centre():
    board = {"A4": (0, SMALL), "B4": (0, SMALL), "C3": (0, SMALL)}
    action = decide(make(board, deck=(2,)))
    assert str(action) == "grow C3" and action.explanation.endswith("closest to centre.")


def test_grow_tiebreak_lowest_opponents_future_light():
    # A medium on D5 would shade the human's small tree on D3 with the sun at E; on C3 not.
    board = {"D5": (0, SMALL), "C3": (0, SMALL), "D3": (1, SMALL)}
    action = decide(make(board, deck=(7,)))  # card 7: medium first, cw 4 would pick C3
    assert str(action) == "grow D5"
    assert action.explanation.endswith("to medium on D5: lowest opponents' FLP.")
    action = decide(make(board, deck=(7,), cynthia_opponent_tiebreak=False))
    assert str(action) == "grow C3"
    assert action.explanation.endswith("Directional Selection (cw 4 among C3 D5).")


def test_grow_skips_activated_spaces():
    board = {"C4": (0, SMALL), "A4": (0, SMALL)}
    assert str(decide(make(board, deck=(2,)))) == "grow C4"
    assert str(decide(make(board, deck=(2,), activated=("C4",)))) == "grow A4"


def test_grow_obeys_the_advanced_shadow_rule():
    # The human's small tree on B4 shades C4 with the sun at NE.
    board = {"C4": (0, SMALL), "A1": (0, SMALL), "B4": (1, SMALL)}
    assert str(decide(make(board, deck=(2,)))) == "grow C4"
    action = decide(make(board, deck=(2,), shadow_rule=True))
    assert str(action) == "grow A1"


def test_grow_cost_options():
    s = make({})
    assert [game.grow_cost(s, 0, t) for t in (1, 2, 3)] == [2, 4, 6]
    assert [game.grow_cost(s, 1, t) for t in (1, 2, 3)] == [1, 2, 3]
    easier = make({}, easier_grow_plus_one=True)
    assert [game.grow_cost(easier, 0, t) for t in (1, 2, 3)] == [3, 5, 7]
    harder = make({}, harder_grow_minus_one=True)
    assert [game.grow_cost(harder, 0, t) for t in (1, 2, 3)] == [1, 3, 5]


def test_grow_cost_options_change_her_decisions():
    board = {"C4": (0, SEED), "A4": (0, SMALL)}
    s = make(board, light=(4, 0), deck=(2,))
    assert str(decide(s)) == "grow A4"
    assert engine.apply(s, "grow A4").seats[0].light == 0
    s = make(board, light=(4, 0), deck=(2,), easier_grow_plus_one=True)
    action = decide(s)
    assert str(action) == "grow C4" and "medium costs 5 > 4" in action.explanation
    assert engine.apply(s, action).seats[0].light == 1
    s = make(board, light=(3, 0), deck=(2,), harder_grow_minus_one=True)
    assert str(decide(s)) == "grow A4"
    assert engine.apply(s, "grow A4").seats[0].light == 0


# -- Plant ------------------------------------------------------------------------------------


def test_plant_limit_early_half():
    # Card 5 early: plant 2, rings 3-1-2-4. Light 1: no grow, no collect.
    two = {"B4": (0, SMALL), "G1": (0, SMALL)}
    action = decide(make(two, light=(1, 0), deck=(5,)))
    assert str(action) == "plant B4 C4"
    three = {**two, "D1": (0, SMALL)}
    action = decide(make(three, light=(1, 0), deck=(5,)))
    assert str(action) == "end"
    assert "Plant: 3 spaces occupied, not fewer than 1+2" in action.explanation
    action = decide(make(three, light=(1, 0), round=7, deck=(5,)))
    assert str(action) == "plant B4 C4" and "Plant (3 < 2+2)" in action.explanation


PLANT_FOUR = {"B4": (0, SMALL), "G1": (0, SMALL), "D1": (0, SMALL), "A1": (0, SEED)}


def test_plant_limit_late_half_is_three_plus_card():
    # Card 5 late: plant 2 -> 3+2 = 5; rings 2-1-3-4, ccw 1.
    action = decide(make(PLANT_FOUR, light=(1, 0), round=13, half="late", deck=(5,)))
    assert str(action) == "plant B4 B3"
    assert "Plant (4 < 3+2)" in action.explanation
    five = {**PLANT_FOUR, "E1": (0, SEED)}
    action = decide(make(five, light=(1, 0), round=13, half="late", deck=(5,)))
    assert "Plant: 5 spaces occupied, not fewer than 3+2" in action.explanation
    # Revolution 4 of a 4-revolution game: still 3 + card, not 4 + card.
    action = decide(make(five, light=(1, 0), round=19, revolutions=4, half="late", deck=(5,)))
    assert str(action) == "end"
    assert "Plant: 5 spaces occupied, not fewer than 3+2" in action.explanation


def test_plant_follows_the_ring_order_of_the_card():
    board = {"B4": (0, SMALL)}
    # Card 2 early: rings 3-2-1-4: C4 is the only 3-leaf space next to B4.
    assert str(decide(make(board, light=(1, 0), deck=(2,)))) == "plant B4 C4"
    # Card 4 early: rings 1-2-3-4: A3, A4, B5; A3 and B5 have 3 empty neighbours, A4 two.
    action = decide(make(board, light=(1, 0), deck=(4,)))
    assert str(action) == "plant B4 A3"
    assert action.explanation == (
        "Card 4 early: Collect: no large tree; Grow: medium costs 4 > 1; large costs 6 > 1; "
        "small costs 2 > 1; Plant (1 < 1+4) on A3 (ring 1, rings 1-2-3-4): most empty "
        "neighbours, then Directional Selection (ccw 1 among A3 B5); from the small tree on "
        "B4: the only valid choice."
    )


def test_plant_tiebreak_most_empty_neighbours():
    board = {"B4": (0, SMALL), "A2": (1, SEED)}  # A3 now has 2 empty neighbours
    action = decide(make(board, light=(1, 0), deck=(4,)))
    assert str(action) == "plant B4 B5"
    assert "on B5 (ring 1, rings 1-2-3-4): most empty neighbours;" in action.explanation


def test_plant_skips_activated_and_occupied_targets():
    board = {"B4": (0, SMALL), "A2": (1, SEED)}
    # B5 activated: A3 and A4 have 2 empty neighbours each; ccw 1 from A4 picks A4.
    action = decide(make(board, light=(1, 0), deck=(4,), activated=("B5",)))
    assert str(action) == "plant B4 A4"
    board = {"B4": (0, SMALL), "A3": (1, SEED), "A4": (1, SEED), "B5": (1, SEED)}
    assert str(decide(make(board, light=(1, 0), deck=(4,)))) == "plant B4 B3"


def test_tree_of_origin_smallest():
    # Card 7 late: rings 4-2-3-1, plant 2; the centre is in reach of all three.
    board = {"D5": (0, SMALL), "B4": (0, MEDIUM), "A4": (0, LARGE)}
    action = decide(make(board, light=(1, 0), round=13, half="late", deck=(7,)))
    assert str(action) == "plant D5 D4"
    assert action.explanation.endswith("from the small tree on D5: smallest.")


def test_tree_of_origin_outermost_ring():
    board = {"B4": (0, MEDIUM), "C3": (0, MEDIUM)}
    action = decide(make(board, light=(1, 0), round=13, half="late", deck=(7,)))
    assert str(action) == "plant B4 D4"
    assert action.explanation.endswith("from the medium tree on B4: outermost ring.")


def test_tree_of_origin_directional_selection():
    board = {"B4": (0, MEDIUM), "D6": (0, MEDIUM), "C3": (0, MEDIUM)}
    # Smallest: all medium; outermost: B4 and D6 (ring 2); then the card's selection.
    action = decide(make(board, light=(1, 0), round=13, half="late", deck=(7,)))  # ccw 2
    assert str(action) == "plant D6 D4"
    assert action.explanation.endswith(
        "from the medium tree on D6: outermost ring, then Directional Selection "
        "(ccw 2 among B4 D6)."
    )
    action = decide(make(board, light=(1, 0), round=13, half="late", deck=(10,)))  # cw 1
    assert str(action) == "plant B4 D4"
    # An activated tree plants nothing.
    action = decide(make(board, light=(1, 0), round=13, half="late", deck=(10,), activated=("B4",)))
    assert str(action) == "plant D6 D4"


def test_plant_obeys_the_advanced_shadow_rule():
    # With the sun at NE the human's large on A4 shades B4 (and C4, D4).
    board = {"B4": (0, MEDIUM), "D6": (0, MEDIUM), "A4": (1, LARGE)}
    s = make(board, light=(1, 0), round=13, half="late", deck=(10,), shadow_rule=True)
    assert str(decide(s)) == "plant D6 D4"


def test_plant_needs_a_seed_left():
    board = {"B4": (0, SMALL), "A1": (0, SEED), "A2": (0, SEED), "A3": (0, SEED)}
    action = decide(make(board, light=(1, 0), deck=(4,)))
    assert str(action) == "end" and "Plant: no seed left" in action.explanation


# -- the end of the game ----------------------------------------------------------------------


def _last_turn(board, **kw) -> GameState:
    """Round 18, Cynthia (seat 1) takes the last turn with no light: she ends it."""
    kw.setdefault("seats", (H, C))
    return make(board, round=18, light=(0, 0), current=1, first=0, **kw)


def test_final_collect_closest_to_centre_free():
    s = engine.apply(_last_turn({"C4": (1, LARGE), "A4": (1, LARGE)}), "end")
    assert s.is_over
    assert s.seats[1].tokens == ((3, 19),) and s.seats[1].light == 0
    assert s.piece_at(sp("A4")) == (1, LARGE) and s.piece_at(sp("C4")) is None
    assert s.events == (
        "After the last round Cynthia (seat 2) collects her large tree on C4 for free "
        "(closest to the centre): a 3-leaf token worth 19.",
        "The game is over.",
    )
    assert engine.scores(s) == [0, 19]


def test_final_collect_tie_uses_a_freshly_drawn_card():
    s = _last_turn({"B4": (1, LARGE), "B2": (1, LARGE)}, half="late", deck=(7, 1))
    s = engine.apply(s, "end")
    # Card 7 late: ccw 2 on ring 2 from B4: B4, B2.
    assert s.piece_at(sp("B2")) is None and s.seats[1].tokens == ((2, 17),)
    assert s.seat_ext[1].cards == (1,)
    assert "tie on ring 2 broken by Directional Selection with card 7 (ccw 2)" in s.events[0]


def test_final_collects_in_player_order_of_the_last_round():
    board = {"C4": (1, LARGE), "C3": (0, LARGE)}
    # The last round's first player is seat 2 (index 1): she collects first.
    s = make(board, seats=(C, C), round=18, light=(0, 0), current=0, first=1)
    s = engine.apply(s, "end")
    assert s.seats[1].tokens == ((3, 19),) and s.seats[0].tokens == ((3, 18),)
    assert [e.split(" collects")[0] for e in s.events[:2]] == [
        "After the last round Cynthia (seat 2)",
        "After the last round Cynthia (seat 1)",
    ]
    s = make(board, seats=(C, C), round=18, light=(0, 0), current=1, first=0)
    s = engine.apply(s, "end")
    assert s.seats[0].tokens == ((3, 19),) and s.seats[1].tokens == ((3, 18),)


def test_easier_no_final_collect():
    s = engine.apply(_last_turn({"C4": (1, LARGE)}, easier_no_final_collect=True), "end")
    assert s.is_over and s.seats[1].tokens == () and s.piece_at(sp("C4")) == (1, LARGE)
    assert s.events == ("The game is over.",)


def test_harder_score_trees():
    board = {"C4": (1, LARGE), "A4": (1, SMALL), "B4": (1, MEDIUM), "G1": (1, SEED)}
    s = engine.apply(_last_turn(board, harder_score_trees=True), "end")
    assert engine.score_parts(s, 1) == {"tokens": 19, "trees": 3}
    s = engine.apply(
        _last_turn(board, harder_score_trees=True, easier_no_final_collect=True), "end"
    )
    assert engine.score_parts(s, 1) == {"tokens": 0, "trees": 6}
    s = engine.apply(_last_turn(board), "end")
    assert engine.score_parts(s, 1) == {"tokens": 19}


# -- whole games ------------------------------------------------------------------------------

GAMES = [
    ((H, C), 1),
    ((C, H), 2),
    ((H, C, C), 3),
    ((H, H, H, C), 4),
    ((C, C), 5),
]


@pytest.mark.parametrize(("seats", "seed"), GAMES)
def test_whole_game_is_deterministic_and_replays(seats, seed):
    cfg = Config(seats=seats)
    final, log = play(cfg, seed)
    again, log2 = play(cfg, seed)
    assert log == log2 and again == final
    assert final.is_over and final.round == 18
    assert engine.replay(cfg, seed, log) == final
    # A position saved mid-game and loaded again continues the same way.
    mid = engine.replay(cfg, seed, log[: len(log) // 2])
    loaded = GameState.from_dict(mid.to_dict())
    assert engine.replay(cfg, seed, log[: len(log) // 2]) == loaded
    for action in log[len(log) // 2 :]:
        loaded = engine.apply(loaded, action)
    assert loaded == final


def test_whole_game_results():
    """Exact results of fixed games (they change only when the rules or Cynthia change)."""
    results = {}
    for seats, seed in GAMES:
        final, log = play(Config(seats=seats), seed)
        results[seats, seed] = (engine.scores(final), len(log))
    assert results == EXPECTED_RESULTS


EXPECTED_RESULTS = {
    ((H, C), 1): ([17, 121], 114),
    ((C, H), 2): ([93, 14], 101),
    ((H, C, C), 3): ([30, 93, 87], 164),
    ((H, H, H, C), 4): ([0, 20, 27, 97], 220),
    ((C, C), 5): ([95, 77], 105),
}


def test_cynthia_beats_a_random_player():
    wins = 0
    for seed in range(20):
        final, _ = play(Config(seats=(H, C)), 100 + seed)
        wins += engine.winners(final) == [1]
    assert wins >= 18


def test_difficulty_options_play_whole_games():
    for option in (
        "easier_no_final_collect",
        "easier_grow_plus_one",
        "easier_two_small_start",
        "harder_grow_minus_one",
        "harder_score_trees",
    ):
        cfg = Config(seats=(H, C, C), shadow_rule=True, revolutions=4, **{option: True})
        final, log = play(cfg, 9)
        assert final.is_over and final.round == 24
        assert engine.replay(cfg, 9, log) == final
