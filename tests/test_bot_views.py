"""The turn panel and the persistent components' custom_ids (no Discord connection needed)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.discord.views import (
    BotSelect,
    GameMessageButton,
    LobbyButton,
    OptionsSelect,
    PanelButton,
    PanelSelect,
    TurnButton,
    game_view,
    lobby_view,
    options_from_values,
    panel,
)
from bot.storage import GameRow, SeatRow

GAME = GameRow(
    id=12, guild_id=1, channel_id=2, host_id=3, status="lobby", options={}, config=None,
    seed=5, version=7, created_at="", updated_at="",
    seats=(SeatRow(0, "human", 3, "host"),),
)  # fmt: skip
STATE = SimpleNamespace(current_seat=0, seats=[SimpleNamespace(light=9)])


def items(view: discord.ui.View) -> list[tuple[str, str]]:
    return [(type(i).__name__, i.custom_id) for i in view.children]


def test_custom_ids_carry_game_and_version_and_match_their_templates() -> None:
    view = lobby_view(GAME)
    assert items(view) == [
        ("LobbyButton", "ps:lobby:join:12:7"),
        ("LobbyButton", "ps:lobby:leave:12:7"),
        ("LobbyButton", "ps:lobby:rembot:12:7"),
        ("LobbyButton", "ps:lobby:start:12:7"),
        ("OptionsSelect", "ps:opts:12:7"),
        ("BotSelect", "ps:addbot:12:7"),
    ]
    bots = view.children[-1].item
    assert [(o.value, o.label) for o in bots.options] == [  # one Expert (issue 56)
        ("cynthia", "Cynthia"),
        ("expert", "Expert"),
    ]
    for cls, custom_id in (
        (LobbyButton, "ps:lobby:start:12:7"),
        (LobbyButton, "ps:lobby:addcyn:12:7"),  # on lobby messages drawn before "Add bot"
        (LobbyButton, "ps:lobby:remcyn:12:7"),
        (BotSelect, "ps:addbot:12:7"),
        (OptionsSelect, "ps:opts:12:7"),
        (TurnButton, "ps:turn:12:7"),
        (GameMessageButton, "ps:more:12:7"),
        (PanelButton, "ps:panel:12:7:play end"),
        (PanelButton, "ps:panel:12:7:menu plant"),
        (PanelSelect, "ps:pick:12:7:act:1"),
    ):
        assert cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert lobby_view(GameRow(**{**GAME.__dict__, "status": "active"})) is None


def test_the_game_message_offers_details_a_tap_away() -> None:
    """Issue 56: what each seat has and the whole story are behind Details, beside the
    next-sun preview and the Game log (and after the game, beside its endings)."""
    active = GameRow(**{**GAME.__dict__, "status": "active"})
    playing = SimpleNamespace(is_over=False, current_seat=0)
    assert [(i.custom_id, i.item.label) for i in game_view(active, playing).children] == [
        ("ps:turn:12:7", "Take my turn"),
        ("ps:sun:12:7", "Next-sun preview"),
        ("ps:more:12:7", "Details"),
        ("ps:log:12:7", "Game log"),
    ]
    over = GameRow(**{**GAME.__dict__, "status": "over"})
    ids = [i.custom_id for i in game_view(over, SimpleNamespace(is_over=True)).children]
    assert ids[:2] == ["ps:more:12:7", "ps:log:12:7"] and len(ids) == 5


def test_options_select_round_trip() -> None:
    options = options_from_values(["four_revolutions", "harder_score_trees"])
    assert options["revolutions"] == 4 and options["harder_score_trees"]
    assert not options["shadow_rule"]
    select = OptionsSelect(12, 7, options).item
    assert [o.value for o in select.options if o.default] == [
        "four_revolutions", "harder_score_trees",
    ]  # fmt: skip


def test_setup_panel_is_one_select_of_spaces() -> None:
    content, view = panel(GAME, STATE, ["place A1", "place A2"])
    assert content == "Setup: choose an empty outer space for a small tree."
    (select,) = [c.item for c in view.children]
    assert [(o.label, o.value) for o in select.options] == [("A1", "place A1"), ("A2", "place A2")]


def _labels(state, legal):
    from bot.present import choices

    return choices.describe_all(state, legal)


def test_first_screen_is_a_select_per_action_so_a_typical_turn_is_one_choice_each() -> None:
    import engine
    from engine.position import build

    # Seat 0: a small tree on A1 and a seed on D4, 5 light, a seed available (the start).
    state = build(engine.Config(), {"A1": (0, 1), "D4": (0, 0), "G4": (1, 1)}, light=[5, 0])
    legal = [str(a) for a in engine.legal_actions(state)]
    content, view = panel(GAME, state, legal, can_undo=True, labels=_labels(state, legal))
    assert content == (
        "Your turn: you have 5 light. Choose an action, or end your turn.\n"
        "Collect: not now. You have no large tree on the board."
    )
    buttons = [c.item for c in view.children if isinstance(c, PanelButton)]
    assert [(b.label, b.row) for b in buttons] == [("Undo", 0), ("End turn", 0)]
    selects = [c.item for c in view.children if isinstance(c, PanelSelect)]
    assert [s.custom_id for s in selects] == [
        "ps:pick:12:7:act:1", "ps:pick:12:7:act:2", "ps:pick:12:7:act:3",
    ]  # fmt: skip
    assert [s.placeholder for s in selects] == [
        "Buy from your player board", "Plant a seed", "Grow a piece one size",
    ]  # fmt: skip
    assert [o.value for o in selects[1].options] == ["plant A1 A2", "plant A1 B1", "plant A1 B2"]
    assert selects[1].options[2].label == (
        "plant A1 B2 · 1 light · 2-leaf soil · in sunlight next round"
    )
    assert [o.value for o in selects[2].options] == ["grow D4", "grow A1"]


def test_first_screen_lists_the_trees_first_when_the_plantings_pass_25() -> None:
    import engine
    from engine.position import build

    board = {"D4": (0, 3), "C3": (0, 1), "A1": (1, 1)}
    state = build(engine.Config(), board, light=[9, 0])
    legal = [str(a) for a in engine.legal_actions(state)]
    plants = [n for n in legal if n.startswith("plant ")]
    assert len(plants) == 34 + 5  # D4 reaches the 36 other spaces, two of them taken; C3 5
    content, view = panel(GAME, state, legal, labels=_labels(state, legal))
    selects = [c.item for c in view.children if isinstance(c, PanelSelect)]
    assert [s.custom_id for s in selects] == [
        "ps:pick:12:7:act:1", "ps:pick:12:7:src:2", "ps:pick:12:7:act:3", "ps:pick:12:7:act:4",
    ]  # fmt: skip
    assert [(o.label, o.value) for o in selects[1].options] == [
        ("C3 · 5 choices", "plant C3"), ("D4 · 34 choices", "plant D4"),
    ]  # fmt: skip
    # The tree chosen, its targets follow in selects of at most 25, with a way back.
    content, view = panel(GAME, state, legal, menu="plant", source="D4")
    assert content == "Plant a seed (you have 9 light): choose."
    selects = [c.item for c in view.children if isinstance(c, PanelSelect)]
    assert [len(s.options) for s in selects] == [25, 9]
    assert [s.custom_id for s in selects] == ["ps:pick:12:7:act:0", "ps:pick:12:7:act:1"]
    assert view.children[-1].item.label == "Back"


def test_a_kind_with_too_many_choices_gets_its_button_and_every_choice_stays_reachable() -> None:
    spaces = [f"{row}{n}" for row in "ABCDEFG" for n in range(1, 5)]  # 28 labels
    moves = [f"move {s}" for s in spaces]
    legal = ["buy seed", *moves, "end"]
    state = SimpleNamespace(current_seat=0, seats=[SimpleNamespace(light=9)], phase="setup")
    content, view = panel(GAME, state, legal)
    assert [(type(c).__name__, getattr(c.item, "label", None)) for c in view.children] == [
        ("PanelButton", "Move animal..."), ("PanelButton", "End turn"), ("PanelSelect", None),
    ]  # fmt: skip
    content, view = panel(GAME, state, legal, menu="move")
    selects = [c.item for c in view.children if isinstance(c, PanelSelect)]
    assert [len(s.options) for s in selects] == [25, 3]
    assert sorted(o.value for s in selects for o in s.options) == sorted(moves)


def test_final_scores_tie_sentence_comes_from_the_engines_winners(monkeypatch) -> None:
    """The breakdown names who won a tie on points as `engine.winners` says (shared or not);
    the light part shows the points the engine gives and the light they came from."""
    from bot.present import embeds, texts

    seats = (SeatRow(0, "human", 3, "Ash"), SeatRow(1, "human", 4, "Birch"))
    game = GameRow(**{**GAME.__dict__, "status": "over", "seats": seats})
    state = SimpleNamespace(
        seats=[SimpleNamespace(light=7, tokens=[]), SimpleNamespace(light=2, tokens=[])],
        board_count=lambda seat: 5 - seat,
    )
    monkeypatch.setattr(embeds.engine, "scores", lambda s: [12, 12])
    monkeypatch.setattr(embeds.engine, "score_parts", lambda s, i: {"tokens": 10, "light": 2})
    monkeypatch.setattr(embeds.engine, "winners", lambda s: [0])
    lines = embeds.score_breakdown(game, state).splitlines()
    assert "light 2 (from 7 light)" in lines[0]
    assert lines[2] == texts.TIE_BROKEN.format(names="Ash")
    monkeypatch.setattr(embeds.engine, "winners", lambda s: [0, 1])
    lines = embeds.score_breakdown(game, state).splitlines()
    assert lines[2] == texts.TIE_SHARED.format(names="Ash and Birch")
    monkeypatch.setattr(embeds.engine, "scores", lambda s: [12, 9])
    assert len(embeds.score_breakdown(game, state).splitlines()) == 2


def test_one_point_is_singular_and_an_unused_baby_turtle_part_is_not_shown(monkeypatch) -> None:
    """Issue 14's slips: "1 points" and "+ baby turtle 0" for a seat without the Turtle."""
    from bot.present import embeds, texts

    assert [texts.plural(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    seats = (SeatRow(0, "human", 3, "Ash"), SeatRow(1, "human", 4, "Birch"))
    state = SimpleNamespace(
        seats=[SimpleNamespace(light=0, tokens=[]), SimpleNamespace(light=0, tokens=[])],
        board_count=lambda seat: 3,
    )
    monkeypatch.setattr(embeds.engine, "scores", lambda s: [1, 3])
    monkeypatch.setattr(
        embeds.engine, "score_parts",
        lambda s, i: {"lunar": 1, "baby turtle": 0} if i == 0 else {"lunar": 0, "baby turtle": 3},
    )  # fmt: skip
    monkeypatch.setattr(embeds.engine, "winners", lambda s: [1])
    lines = embeds.score_breakdown(GameRow(**{**GAME.__dict__, "seats": seats}), state).splitlines()
    assert "baby turtle" not in lines[0]
    assert "baby turtle 3" in lines[1]
    replay = embeds.replay_result(["Ash", "Birch"], SimpleNamespace(is_over=False), 4)
    assert replay[1:] == [
        f"{embeds.SEAT_SWATCH[0]} Ash: 1 point",
        f"{embeds.SEAT_SWATCH[1]} Birch: 3 points",
    ]
    assert replay[0] == "Position after 4 moves (the game was not finished)."
    one = embeds.replay_result(["Ash", "Birch"], SimpleNamespace(is_over=False), 1)
    assert one[0] == "Position after 1 move (the game was not finished)."
