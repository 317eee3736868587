"""The public API beside the facade: observations, hidden information, players, turns, undo,
and the refusal of every expansion verb in a base game."""

from __future__ import annotations

import json

import pytest

import engine
from engine import Config, IllegalAction
from engine.players import (
    AutopilotPlayer,
    CynthiaPlayer,
    Player,
    RandomPlayer,
    play_until,
    turn_over,
)

H, C = "human", "cynthia"
ALL = Config(seats=(H, H, C), moon_animals=True, elder_tree=True, moonstones=True)


def test_hidden_information_names_what_each_rule_set_hides():
    assert set(engine.hidden_information(Config())) == {"rng"}
    assert set(engine.hidden_information(Config(seats=(H, C)))) == {"rng", "cynthia.deck"}
    assert set(engine.hidden_information(ALL)) == {
        "rng",
        "cynthia.deck",
        "moonlight.seats.dealt",
        "moonlight.beach",
    }
    assert set(engine.hidden_information(Config(seats=(H, H), elder_tree=True))) == {"rng"}


def _first_turtle_game():
    """A game whose draft put the Turtle in play, after the draft: tokens lie on the beaches."""
    for seed in range(200):
        s = engine.new_game(ALL, seed)
        if 7 in s.ext.dealt[0]:  # the turtle
            s = engine.apply(s, "animal turtle")
            return engine.apply(s, engine.legal_actions(s)[0])
    raise AssertionError("no seed deals the Turtle to seat 1")


def test_an_observation_hides_other_seats_animals_tokens_decks_and_the_rng():
    s = engine.new_game(ALL, 5)
    full = s.to_dict()
    mine = engine.observation(s, 0)
    json.dumps(mine)  # plain data
    assert "seed" not in mine and "rng" not in mine and mine["viewer"] == 0
    assert mine["moonlight"]["seats"][0]["dealt"] == full["moonlight"]["seats"][0]["dealt"]
    assert mine["moonlight"]["seats"][1]["dealt"] == []
    assert mine["cynthia"][2] == {"cards_left": 14, "half": "early"}
    assert engine.observation(s, 1)["moonlight"]["seats"][0]["dealt"] == []
    assert engine.observation(s, None)["moonlight"]["seats"][0]["dealt"] == []
    turtle = _first_turtle_game()
    beach = turtle.to_dict()["moonlight"]["beach"]
    assert len(beach) == 6
    seen = engine.observation(turtle, 0)["moonlight"]["beach"]
    assert seen == sorted(beach)  # the spaces, not the tokens
    assert isinstance(seen, list) and all(label in engine.geometry.LABEL_INDEX for label in seen)
    with pytest.raises(ValueError):
        engine.observation(s, 3)


def test_a_kept_animal_shows_once_it_stands_on_the_board():
    s = engine.new_game(ALL, 5)
    s = engine.apply(s, engine.legal_actions(s)[0])
    s = engine.apply(s, engine.legal_actions(s)[0])  # both kept
    assert engine.observation(s, 1)["moonlight"]["seats"][0]["animal"] is None
    assert engine.observation(s, 0)["moonlight"]["seats"][0]["animal"] is not None
    while s.ext.at[0] < 0:
        s = engine.apply(s, engine.legal_actions(s)[0])
    seen = engine.observation(s, 1)["moonlight"]["seats"][0]
    assert seen["animal"] == engine.moonlight.ANIMALS[s.ext.animal[0]]


def test_turn_id_changes_exactly_when_the_turn_passes():
    s = engine.new_game(Config(), 1)
    assert engine.turn_id(s) == "setup:0:0"
    s = engine.apply(s, "place A1")
    assert engine.turn_id(s) == "setup:1:1"
    for text in ("place A4", "place D7", "place G4"):
        s = engine.apply(s, text)
    assert engine.turn_id(s) == "play:1:0"
    s2 = engine.apply(s, "buy seed")
    assert engine.turn_id(s2) == "play:1:0"
    assert engine.turn_id(engine.apply(s2, "end")) == "play:1:1"


@pytest.mark.parametrize(
    ("text", "undo"),
    [
        ("buy seed", True),
        ("plant C3 E5", True),
        ("grow D4", True),
        ("collect D4", True),
        ("move C3", True),
        ("end", False),
        ("place A1", False),
        ("use hunt 1", False),
        ("use hatch", False),
        ("animal fox", False),
        ("moonstone C2", False),
    ],
)
def test_can_undo(text, undo):
    assert engine.can_undo(text) is undo
    assert engine.can_undo(engine.parse_action(text)) is undo


@pytest.mark.parametrize(
    "text",
    [
        "move C3",
        "use hunt 1",
        "use baby seed E5",
        "use scare owl d 4",
        "use dig 2",
        "use dam 10",
        "animal fox",
        "settle C4",
        "elder D4",
        "moonstone C2",
    ],
)
@pytest.mark.parametrize("phase", ["setup", "play"])
def test_every_expansion_verb_in_a_base_game_is_refused_with_a_sentence(text, phase):
    s = engine.new_game(Config(), 2)
    if phase == "play":
        for label in ("A1", "A4", "D7", "G4"):
            s = engine.apply(s, f"place {label}")
    before = s.to_dict()
    with pytest.raises(IllegalAction, match=r"which this game does not use\.$"):
        engine.apply(s, text)
    assert engine.check(s, engine.parse_action(text)).endswith("which this game does not use.")
    assert s.to_dict() == before


def test_the_players_follow_the_protocol():
    for p in (CynthiaPlayer(), AutopilotPlayer(), RandomPlayer(3)):
        assert isinstance(p, Player)
    s = engine.new_game(Config(seats=(H, C)), 4)
    with pytest.raises(ValueError):
        CynthiaPlayer().step(s)  # seat 0 is human
    assert AutopilotPlayer().step(s) in engine.legal_actions(s)


def test_random_players_are_reproducible_by_seed():
    cfg = Config(seats=(H, H, C))
    a, acts_a = play_until(
        engine.new_game(cfg, 9), [RandomPlayer(1), RandomPlayer(2), CynthiaPlayer()]
    )
    b, acts_b = play_until(
        engine.new_game(cfg, 9), [RandomPlayer(1), RandomPlayer(2), CynthiaPlayer()]
    )
    assert a.is_over and a == b and acts_a == acts_b
    assert engine.replay(cfg, 9, acts_a) == a


def test_play_until_stops_at_a_seat_without_a_player_and_at_stop():
    cfg = Config(seats=(H, C))
    s = engine.new_game(cfg, 6)
    # Only Cynthia plays: nothing happens while seat 0 is to act.
    same, acts = play_until(s, {1: CynthiaPlayer()})
    assert same is s and acts == []
    s = engine.apply(s, "place A1")
    after, acts = play_until(s, {1: CynthiaPlayer()})
    assert len(acts) == 1 and after.current_seat == 0
    # The autopilot plays one turn of seat 0 and stops when it passes.
    s = after
    while s.phase == "setup":
        s, _ = play_until(s, [AutopilotPlayer(), CynthiaPlayer()], turn_over(s))
    turn = engine.turn_id(s)
    seen = []
    s2, acts = play_until(
        s, [AutopilotPlayer(), None], turn_over(s), on_action=lambda b, a, n: seen.append(a)
    )
    assert acts == seen and acts[-1].verb == "end" and engine.turn_id(s2) != turn
    assert all(a.verb != "end" for a in acts[:-1])


def test_play_until_gives_up_on_a_player_that_never_ends():
    class Buyer:
        def step(self, state):
            return engine.parse_action("buy seed")

    s = engine.new_game(Config(), 1)
    with pytest.raises(RuntimeError):
        play_until(s, [RandomPlayer(1), RandomPlayer(2)], max_steps=3)
    assert Buyer().step(s).verb == "buy"


def test_a_record_names_its_players_and_old_records_still_read() -> None:
    config = engine.Config()
    record = engine.Record(config, 5, ["place A1"], ("Ann", "Ben"))
    text = record.to_text()
    assert text.splitlines()[0].endswith('"players": ["Ann", "Ben"]}')
    assert engine.Record.from_text(text) == record
    old = engine.Record(config, 5, ["place A1"]).to_text()
    assert '"players"' not in old and engine.Record.from_text(old).players == ()
    wrong = text.replace('["Ann", "Ben"]', '["Ann"]')  # not one name per seat: unnamed
    assert engine.Record.from_text(wrong).players == ()


def test_action_words_tell_what_an_action_did() -> None:
    from engine.text import action_words

    state = engine.new_game(engine.Config(), 4)
    assert action_words(state, "place A1") == "placed a small tree on A1"
    for notation in ("place A1", "place G4", "place A4", "place D7"):
        state = engine.apply(state, notation)
    d = state.to_dict()
    d["board"]["D7"] = {"seat": d["board"]["A4"]["seat"], "size": 3}
    d["seats"][state.current_seat]["light"] = 9
    state = engine.GameState.from_dict(d)
    assert action_words(state, "buy seed") == "bought a seed"
    assert action_words(state, "buy medium") == "bought a medium tree"
    assert action_words(state, "plant A1 B2") == "planted B2 from A1"
    assert action_words(state, "grow A4") == "grew A4 to a medium tree"
    assert action_words(state, "collect D7") == "collected D7: a 1-leaf token worth 14"
    assert action_words(state, "end") == "ended the turn"


def test_a_config_as_data_is_every_field_in_order_and_reads_back():
    """`Config.to_dict` names each field, in the order `dataclasses.asdict` gives them (the stored
    JSON of every game), and `engine.ConfigDict` declares exactly those keys."""
    from dataclasses import asdict, fields

    config = Config(seats=(H, H, C), revolutions=4, moonstones=True, harder_score_trees=True)
    names = [f.name for f in fields(Config)]
    assert list(config.to_dict()) == names == list(engine.ConfigDict.__annotations__)
    assert config.to_dict() == {**asdict(config), "seats": list(config.seats)}
    assert Config.from_dict(config.to_dict()) == config
