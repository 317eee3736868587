"""Under the Moonlight in the bot without Discord: the panel's kinds, labels and prompts for
animal moves and abilities (read off the engine), the draft's private text, the rules topics,
the hidden-information guard of the record and the test seed hook."""

from __future__ import annotations

import itertools

import pytest

import engine
from bot.config import ConfigError, fixed_seed_from_env
from bot.discord.cogs.board import hidden_by_the_seed
from bot.discord.views import PanelSelect, panel
from bot.present import animals, choices, embeds, texts
from bot.storage import GameRow, SeatRow
from engine import moonlight as ml
from tests.moon_positions import in_play

GAME = GameRow(
    id=3, guild_id=1, channel_id=2, host_id=3, status="active", options={}, config=None,
    seed=5, version=9, created_at="", updated_at="",
    seats=(SeatRow(0, "human", 3, "a"), SeatRow(1, "human", 4, "b")),
)  # fmt: skip


def legal(state: engine.GameState) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


def selects(view) -> list[PanelSelect]:
    return [c for c in view.children if isinstance(c, PanelSelect)]


def test_the_panel_offers_move_and_use_with_levels_costs_and_effects() -> None:
    state = in_play(animals={0: ("owl", "C3"), 1: ("fox", "E5")}, lunar=[9, 2])
    notations = legal(state)
    labels = choices.describe_all(state, notations)
    content, view = panel(GAME, state, notations, labels=labels)
    assert content == (
        "Your turn: you have 6 light and 9 lunar points; your Owl is on C3 (1 step left). "
        "Choose an action, or end your turn.\n"
        "Plant: not now. None of your trees has an empty space within reach.\n"
        "Grow: not now. You have no piece on the board that can grow.\n"
        "Collect: not now. You have no large tree on the board."
    )
    first = [
        (type(c).__name__, getattr(c.item, "placeholder", None) or c.item.label)
        for c in view.children
    ]
    assert first == [
        ("PanelButton", "End turn"),
        ("PanelSelect", "Buy from your player board"),
        ("PanelSelect", "Move your animal one step"),
        ("PanelSelect", "Use an ability"),
    ]
    use = selects(view)[2].item
    assert [o.value for o in use.options] == ["use hunt 1", "use hunt 2"]

    content, view = panel(GAME, state, notations, labels=labels, menu="use")
    assert content.startswith(
        "Use Nighttime Hunting (you have 6 light and 9 lunar points): choose.\n"
        "**Nighttime Hunting** (`use hunt 1/2/3`, 5/9/12 lunar points): gain 3/7/10 light"
    )
    (select,) = selects(view)
    assert [(o.value, o.label) for o in select.item.options] == [
        ("use hunt 1", "use hunt 1 · 5 lunar · +3 light"),
        ("use hunt 2", "use hunt 2 · 9 lunar · +7 light"),
    ]  # level 3 (12) is not affordable
    content, view = panel(GAME, state, notations, labels=labels, menu="move")
    options = [o.label for o in selects(view)[0].item.options]
    assert options and all(o.startswith("move ") for o in options)
    lit = ml.moonlit_next_photosynthesis(state)
    for label in options:
        space = engine.parse_action(label.split(" · ")[0]).args[0]
        assert label.endswith("in the moonlight next round") == bool(lit >> space & 1)


def test_two_step_abilities_and_board_changes_in_labels() -> None:
    board = {"C3": {"seat": 0, "size": 0}, "D4": {"seat": 1, "size": 1}}
    state = in_play(animals={0: ("fox", "C3"), 1: ("owl", "C4")}, lunar=[14, 0], board=board)
    notations = legal(state)
    labels = choices.describe_all(state, notations)
    content, view = panel(GAME, state, notations, labels=labels, menu="use")
    assert content == "Use an ability: choose which (you have 6 light and 14 lunar points)."
    (select,) = selects(view)
    assert [o.value for o in select.item.options] == ["use scare", "use steal", "use scratch"]
    assert select.item.options[0].label.startswith("Scaring · 1 lunar · ")
    assert (
        labels["use scratch C5"] == "use scratch C5 · 3 lunar · C3: seed removed · C5: seed placed"
    )
    assert labels["use steal owl"].startswith("use steal owl · 4 lunar")
    content, view = panel(GAME, state, notations, labels=labels, menu="use", source="scratch")
    assert content.startswith("Use Scratching the soil (you have 6 light and 14 lunar points)")
    assert all(o.value.startswith("use scratch ") for o in selects(view)[0].item.options)


def test_baby_seed_targets_are_split_over_selects_of_25() -> None:
    state = in_play(animals={0: ("turtle", "C3")}, lunar=[5, 0], babies={0: ["seed", "light"]})
    notations = legal(state)
    labels = choices.describe_all(state, notations)
    content, view = panel(GAME, state, notations, labels=labels, menu="use", source="baby")
    sizes = [len(s.item.options) for s in selects(view)]
    targets = [n for n in notations if n.startswith("use baby seed ")]
    assert len(targets) > 25 and sizes[0] == 25 and sum(sizes) == len(targets) + 1
    assert labels["use baby light"] == "use baby light · 1 lunar · +3 light"
    assert labels[targets[0]].endswith(f"{targets[0][-2:]}: seed placed")
    assert "**Seed** (`use baby seed E5`)" in content


def test_the_draft_shows_only_the_players_two_animals() -> None:
    config = engine.Config(seats=("human", "human", "cynthia"), moon_animals=True)
    state = engine.new_game(config, seed=46)
    notations = legal(state)
    content, view = panel(GAME, state, notations, labels=choices.describe_all(state, notations))
    dealt = [ml.ANIMALS[a] for a in state.ext.dealt[0]]
    assert content.startswith("Setup: choose your animal.\nYou were dealt these animals")
    for name in ml.ANIMALS:
        assert (f"**{name.capitalize()}**" in content) == (name in dealt)
    assert [o.value for o in selects(view)[0].item.options] == [f"animal {a}" for a in dealt]


def test_every_draft_and_every_label_fits_discord() -> None:
    for pair in itertools.combinations(ml.ANIMALS, 2):
        text = choices.decision_details("animal", [f"animal {a}" for a in pair])
        assert len(texts.SINGLE_DECISION["animal"]) + 1 + len(text) <= 2000
        assert all(len(animals.short(a)) <= 100 for a in pair)
    for word in ml.ABILITIES:
        assert len(choices.choose_details("use", word)) < 1500
        assert animals.RECORDS[word].effect in animals.ability_line(word)


def test_rules_topics_fit_an_embed() -> None:
    for topic in texts.RULES_TOPICS:
        embed = embeds.rules_embed(topic)
        assert len(embed) <= 6000 and len(embed.description or "") <= 4096
        assert all(len(f.value) <= 1024 for f in embed.fields)
    assert [f.name for f in embeds.rules_embed("animals").fields][:2] == ["Boar", "Hedgehog"]


def test_the_record_waits_for_the_end_of_a_game_with_hidden_information() -> None:
    moon = {**engine.Config(seats=("human", "human"), moon_animals=True).to_dict()}
    assert hidden_by_the_seed(GameRow(**{**GAME.__dict__, "config": moon})) == [
        "the two animals dealt to each other seat",
        "which Baby Turtle token lies face down on each beach",
    ]
    assert hidden_by_the_seed(GameRow(**{**GAME.__dict__, "config": moon, "status": "over"})) == []
    stones = engine.Config(seats=("human", "human"), moonstones=True).to_dict()
    assert hidden_by_the_seed(GameRow(**{**GAME.__dict__, "config": stones})) == []
    # Cynthia's card order is hidden too: her seat's seed would reveal it.
    cynthia = engine.Config(seats=("human", "cynthia")).to_dict()
    assert hidden_by_the_seed(GameRow(**{**GAME.__dict__, "config": cynthia})) == [
        "the order of each Cynthia's action cards"
    ]


def test_the_fixed_seed_hook_is_off_unless_set() -> None:
    assert fixed_seed_from_env({}) is None
    assert fixed_seed_from_env({"PS_TEST_SEED": " 46 "}) == 46
    for bad in ("x", "-1", str(2**31)):
        with pytest.raises(ConfigError):
            fixed_seed_from_env({"PS_TEST_SEED": bad})


def test_setup_placements_say_their_soil_and_whether_the_moon_lights_them() -> None:
    config = engine.Config(moon_animals=True, moonstones=True, elder_tree=True)
    state = engine.new_game(config, seed=3)
    seen: set[str] = set()
    while state.phase == "setup":
        notations = legal(state)
        verb = notations[0].split()[0]
        labels = choices.describe_all(state, notations)
        if verb in ("moonstone", "elder", "settle"):
            seen.add(verb)
            for n in notations:
                space = engine.parse_action(n).args[0]
                after = engine.apply(state, n)
                lit = ml.moonlit_next_photosynthesis(after) >> space & 1
                soil = f" \N{MIDDLE DOT} {4 - engine.geometry.distance(space, engine.geometry.CENTRE)}-leaf soil"
                expected = {
                    "moonstone": n
                    + soil
                    + (" · shines at the first photosynthesis" if lit else ""),
                    "elder": n + soil,
                    "settle": n
                    + (" · in the moonlight at the first photosynthesis" if lit else ""),
                }[verb]
                assert labels[n] == expected
        state = engine.apply(state, notations[len(notations) // 2])
    assert seen == {"moonstone", "elder", "settle"}


def test_the_next_sun_preview_says_the_lunar_points_too() -> None:
    from render.model import view

    state = in_play(animals={0: ("owl", "C3"), 1: ("fox", "E5")}, lunar=[9, 2])
    sun = engine.next_photosynthesis_sun(state)
    lunar = [s.lunar_gain for s in view(state, preview_sun=sun).seats]
    lit = ml.moonlit_next_photosynthesis(state)
    full = ml.tracker(state)[1]
    expected = [
        (2 if full else 1) if lit >> engine.geometry.LABEL_INDEX[sp] & 1 else 0
        for sp in ("C3", "E5")
    ]
    assert lunar == expected
    gains = engine.light_for_sun(state, sun)
    embed = embeds.preview_embed(GAME, state, sun, gains, lunar)
    lines = embed.description.splitlines()[1:]
    assert lines[0].endswith(f"+{gains[0]} light (has 6), +{expected[0]} lunar (has 9)")
    assert lines[1].endswith(f", +{expected[1]} lunar (has 2)")


def test_an_engine_refusal_names_the_player_not_the_seat() -> None:
    from bot.discord.replies import refusal
    from bot.services.base import UserError
    from bot.services.plays import apply_all as _apply_all

    d = in_play(animals={0: ("fox", "C3"), 1: ("owl", "C4")}, lunar=[9, 0]).to_dict()
    d["seats"][1]["light"] = 0
    state = engine.GameState.from_dict(d)
    game = GameRow(
        **{**GAME.__dict__, "seats": (SeatRow(0, "human", 3, "Ann"), SeatRow(1, "human", 4, "Ben"))}
    )
    with pytest.raises(UserError) as refused:
        _apply_all(state, ["use steal owl"], 0, 10, 1, game)
    assert (
        refused.value.seats_of is game
    )  # the service says which game's seats; the answer names them
    assert refusal(refused.value) == "Ben (the owl) has no light points to steal."
