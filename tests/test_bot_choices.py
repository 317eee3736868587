"""The panel's labels: what each legal action costs and gives, read off the engine."""

from __future__ import annotations

import engine
from bot.present import choices


def position_with_a_large_tree() -> engine.GameState:
    """A 2-seat game where seat 0 has a large tree on D1 and enough light to act."""
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=3)
    while state.phase == "setup":
        state = engine.apply(state, engine.legal_actions(state)[0])
    d = state.to_dict()
    assert d["current_seat"] == 0
    d["board"] = {"D1": {"seat": 0, "size": 3}, "A1": {"seat": 0, "size": 1}}
    d["seats"][0]["light"] = 12
    return engine.GameState.from_dict(d)


def test_every_legal_action_is_labelled_with_its_cost_and_gain() -> None:
    state = position_with_a_large_tree()
    legal = [str(a) for a in engine.legal_actions(state)]
    labels = choices.describe_all(state, legal)
    assert labels["end"] == "end"
    top = state.piles[1][0]
    assert labels["collect D1"] == f"collect D1 · 4 light · takes a 1-leaf token worth {top}"
    assert labels["grow A1"] == "grow A1: small → medium · 2 light"
    assert labels["buy seed"].startswith("buy seed · ") and labels["buy seed"].endswith(" light")
    plants = [n for n in legal if n.startswith("plant ")]
    assert labels["plant D1 D4"] == "plant D1 D4 · 1 light · 4-leaf soil · in sunlight next round"
    assert labels["plant A1 B2"] == "plant A1 B2 · 1 light · 2-leaf soil · in sunlight next round"
    shadows = engine.shadow_map(state, engine.next_photosynthesis_sun(state))
    for n in plants:  # soil from the board's rings, shade from the next photosynthesis
        target = engine.parse_action(n).args[1]
        soil = 4 - engine.geometry.distance(target, engine.geometry.CENTRE)
        shade = "in shade" if shadows[target] else "in sunlight"
        assert labels[n] == f"{n} · 1 light · {soil}-leaf soil · {shade} next round"
    assert choices.spaces_of("plant D1 C2") == ["D1", "C2"]


def test_unknown_verbs_get_a_default_kind() -> None:
    assert choices.kind("plant").two_step and choices.kind("buy").button == "Buy..."
    assert choices.kind("fly").button == "Fly..." and not choices.kind("fly").two_step
    assert choices.kind("move").button == "Move animal..." and choices.kind("use").two_step
