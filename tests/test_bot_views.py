"""The turn panel and the persistent components' custom_ids (no Discord connection needed)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.storage import GameRow, SeatRow
from bot.views import (
    LobbyButton,
    OptionsSelect,
    PanelButton,
    PanelSelect,
    TurnButton,
    lobby_view,
    options_from_values,
    panel,
)

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
        ("LobbyButton", "ps:lobby:addcyn:12:7"),
        ("LobbyButton", "ps:lobby:remcyn:12:7"),
        ("LobbyButton", "ps:lobby:start:12:7"),
        ("OptionsSelect", "ps:opts:12:7"),
    ]
    for cls, custom_id in (
        (LobbyButton, "ps:lobby:start:12:7"),
        (OptionsSelect, "ps:opts:12:7"),
        (TurnButton, "ps:turn:12:7"),
        (PanelButton, "ps:panel:12:7:play end"),
        (PanelButton, "ps:panel:12:7:menu plant"),
        (PanelSelect, "ps:pick:12:7:act:1"),
    ):
        assert cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert lobby_view(GameRow(**{**GAME.__dict__, "status": "active"})) is None


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


def test_play_panel_buttons_then_selects_split_at_25() -> None:
    spaces = [f"{row}{n}" for row in "ABCDEFG" for n in range(1, 5)]  # 28 labels
    plants = [f"plant D4 {s}" for s in spaces] + ["plant C3 C4"]
    legal = ["buy seed", "grow D4", *plants, "end"]
    content, view = panel(GAME, STATE, legal, can_undo=True)
    assert content == "Your turn: you have 9 light. Choose an action, or end your turn."
    assert [c.item.label for c in view.children] == [
        "Buy...",
        "Plant...",
        "Grow...",
        "Undo",
        "End turn",
    ]
    assert view.children[-1].custom_id == "ps:panel:12:7:play end"

    # 29 plantings: first the tree, then that tree's targets in selects of at most 25.
    content, view = panel(GAME, STATE, legal, menu="plant")
    assert content == ("Plant a seed: choose the tree to plant from (you have 9 light).")
    assert [o.value for o in view.children[0].item.options] == ["plant C3", "plant D4"]
    assert [o.label for o in view.children[0].item.options] == ["C3 · 1 choices", "D4 · 28 choices"]
    content, view = panel(GAME, STATE, legal, menu="plant", source="D4")
    selects = [c.item for c in view.children if isinstance(c, PanelSelect)]
    assert [len(s.options) for s in selects] == [25, 3]
    assert [s.custom_id for s in selects] == ["ps:pick:12:7:act:0", "ps:pick:12:7:act:1"]
    assert view.children[-1].item.label == "Back"

    content, view = panel(GAME, STATE, legal, menu="grow")
    assert content == "Grow a piece one size (you have 9 light): choose."
    assert [o.value for o in view.children[0].item.options] == ["grow D4"]


def test_final_scores_tie_sentence_comes_from_the_engines_winners(monkeypatch) -> None:
    """The breakdown names who won a tie on points as `engine.winners` says (shared or not);
    the light part shows the points the engine gives and the light they came from."""
    from bot import embeds, texts

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
    from bot import embeds, texts

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
    replay = embeds.replay_embed(["Ash", "Birch"], SimpleNamespace(is_over=False), 4)
    assert replay.description.splitlines()[1:] == [
        f"{embeds.SEAT_SWATCH[0]} Ash: 1 point",
        f"{embeds.SEAT_SWATCH[1]} Birch: 3 points",
    ]
