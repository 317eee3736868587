"""The Expert's strength bench counts its games by the animal kept (``--by-animal``)."""

import engine
from bench.expert_bench import by_animal, kept_animal
from engine.expert.facade import ANIMAL_PREFERENCE

MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}


def _game(result, mine, theirs, margin):
    # (result, score, tokens, opponent's score, tokens, seat, cpu, decisions, animals kept)
    return (result, 90 + margin, 5, 90, 5, 0, 1.0, 50, (mine, theirs))


def test_by_animal_counts_each_side_in_the_engines_order_of_animals():
    results = [
        _game(1.0, "owl", "boar", 12),
        _game(1.0, "owl", "badger", 20),
        _game(0.5, "boar", "owl", 0),
        _game(0.0, "hedgehog", "owl", -7),
    ]
    assert by_animal(results) == [
        "  the Expert keeps the boar: won 0.5 of 1 (50%), margin +0.0",
        "  the Expert keeps the hedgehog: won 0 of 1 (0%), margin -7.0",
        "  the Expert keeps the owl: won 2 of 2 (100%), margin +16.0",
        "  the other seat keeps the boar: won 1 of 1 (100%), margin +12.0",
        "  the other seat keeps the owl: won 0.5 of 2 (25%), margin -3.5",
        "  the other seat keeps the badger: won 1 of 1 (100%), margin +20.0",
    ]


def test_a_cynthia_and_a_base_game_keep_no_animal():
    assert by_animal([_game(1.0, "owl", "", 3)]) == [
        "  the Expert keeps the owl: won 1 of 1 (100%), margin +3.0"
    ]
    base = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=1)
    assert (kept_animal(base, 0), kept_animal(base, 1)) == ("", "")
    state = engine.new_game(engine.Config(seats=("human", "cynthia"), **MOON), seed=1)
    while state.ext.animal[0] < 0:
        legal = engine.legal_actions(state)
        state = engine.apply(state, min(legal, key=lambda a: str(a)))
    assert kept_animal(state, 0) in ANIMAL_PREFERENCE
    assert kept_animal(state, 1) == ""
