"""Alt text of the board pictures (issue 14: every picture carries one)."""

from __future__ import annotations

import random

import engine
from engine.position import build
from render.alt import ALT_TEXT_LIMIT, alt_text


def test_a_position_in_words() -> None:
    state = build(engine.Config(), {"A1": (0, 1), "D4": (0, 3), "G4": (1, 1), "C3": (1, 0)},
                  light=[5, 2])  # fmt: skip
    assert alt_text(state, names=["Ann", "Ben"], highlight=["D4"]) == (
        "Photosynthesis board, round 1 of 18 (revolution 1 of 3). Sun at NE. Ann to play. "
        f"Ann (orange circle): {engine.scores(state)[0]} point"
        f"{'' if engine.scores(state)[0] == 1 else 's'}, 5 light; large D4, small A1. "
        f"Ben (blue square): {engine.scores(state)[1]} points, 2 light; small G4, seed C3. "
        "Outlined: D4."
    )


def test_a_crowded_four_seat_expansion_game_fits_and_hides_the_draft() -> None:
    config = engine.Config(seats=("human", "human", "cynthia", "human"), moon_animals=True,
                           moonstones=True, elder_tree=True)  # fmt: skip
    names = ["Ann", "Ben", "Cynthia", "Dee"]
    state, rnd = engine.new_game(config, 3), random.Random(1)
    dealt = engine.observation(state, 0)["moonlight"]["seats"][0]["dealt"]
    assert dealt and not any(a in alt_text(state, names=names).lower() for a in dealt)
    longest = 0
    while not state.is_over:
        state = engine.apply(state, rnd.choice(engine.legal_actions(state)))
        if state.phase == "play" and state.round % 4 == 0:
            text = alt_text(state, names=names)
            longest = max(longest, len(text))
            assert text.startswith(f"Photosynthesis board, round {state.round} of 18")
            assert "Great Elder Tree on " in text and "Moonstones on " in text
    assert 400 < longest <= ALT_TEXT_LIMIT


def test_alt_text_keeps_the_emoji_of_names():
    """A screen reader says the emoji: alt text has the names as given, not as drawn."""
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=4)
    said = alt_text(state, names=["Mo 🐢", "Cy 🌻"])
    assert "Mo 🐢" in said and "Cy 🌻" in said
    assert "◇" not in said and "✿" not in said
