"""The players' commands (issue 45) without Discord: `/ps replay` of an export, the pages'
and the questions' components, the names on a leaderboard."""

from __future__ import annotations

import pytest

from bot import embeds, export, i18n
from bot.cogs.board import export_record, read_record
from bot.cogs.players import identity_name
from bot.player_views import forget_view, history_view, leaderboard_view
from bot.services.base import UserError
from bot.views import unknown_component
from tests.test_export import _games


def test_replay_takes_the_chosen_or_first_game_of_an_export_and_says_which():
    games = _games()
    for text in (export.write_jsonl(games), export.write_csv(games)):
        data, which = export_record(text.encode(), None)
        assert read_record(data)[0] == games[0].record
        assert which == "Game #1 of an export of 3 games (the option `game` chooses another)."
        data, which = export_record(text.encode(), 3)
        assert read_record(data)[0] == games[2].record
        assert which is not None and which.startswith("Game #3 of")
    line = export.write_jsonl(games[1:2])
    data, which = export_record(line.encode(), None)
    assert read_record(data)[0] == games[1].record
    assert which == "Game #2 of an export of 1 game."
    record = games[0].record.to_text().encode()  # a record file is replayed as it is
    assert export_record(record, 2) == (record, None)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("jsonl", "the export has no game #7"),
        ("damaged", "line 2 of the export is damaged"),
        ("csv", "the export has no game #7"),
        ("header", "it is an export without games"),
    ],
)
def test_an_export_without_the_game_or_damaged_gets_one_sentence(text, reason):
    games = _games()
    lines = export.write_jsonl(games).splitlines(keepends=True)
    lines[1] = lines[1].replace('"version":1', '"version":9')
    files = {
        "jsonl": export.write_jsonl(games),
        "damaged": "".join(lines),
        "csv": export.write_csv(games),
        "header": export.write_csv([]),
    }
    with pytest.raises(UserError) as refused:
        export_record(files[text].encode(), 7)
    assert refused.value.args[0] == f"This file is not a game record I can replay: {reason}."


def _buttons(view) -> list:
    return [getattr(item, "item", item) for item in view.children]  # a DynamicItem's button


def _ids(view) -> list[tuple[str, bool]]:
    return [(button.custom_id, button.disabled) for button in _buttons(view)]


def test_history_pages_carry_their_player_and_page_and_each_game_a_replay_button():
    assert _ids(history_view(7, 1, 3, [5, 4])) == [
        ("ps:replay:open:5", False),
        ("ps:replay:open:4", False),
        ("ps:hist:7:0", False),
        ("ps:hist:7:2", False),
    ]
    assert _ids(history_view(7, 0, 2, [9])) == [
        ("ps:replay:open:9", False),
        ("ps:hist:7:0", True),  # Previous, on the first page
        ("ps:hist:7:1", False),
    ]
    assert [button.label for button in _buttons(history_view(7, 2, 3, []))] == ["Previous", "Next"]
    assert history_view(7, 0, 1, []) is None


def test_leaderboard_pages_and_forget_answers_are_the_bots_own_components():
    assert leaderboard_view("base", "server", 0, 1) is None
    assert _ids(leaderboard_view("moonlight", "all", 1, 2)) == [
        ("ps:lb:moonlight:all:0", False),
        ("ps:lb:moonlight:all:2", True),  # Next, on the last page
    ]
    assert _ids(forget_view()) == [("ps:forget:yes", False), ("ps:forget:no", False)]
    for custom_id in ("ps:lb:base:server:3", "ps:hist:12:0", "ps:forget:yes"):
        assert not unknown_component(custom_id)
    for custom_id in ("ps:lb:moon:server:3", "ps:lb:base:server:-1", "ps:forget:maybe"):
        assert unknown_component(custom_id)


def test_bots_are_named_on_a_leaderboard():
    assert identity_name("cynthia:harder") == "Cynthia (harder)"
    assert identity_name("cynthia:easier_grow_plus_one") == "Cynthia (own difficulty)"
    assert identity_name("expert:strong") == "Expert (strong)"
    assert identity_name("user:42") == "<@42>"
    with i18n.speaking("he"):
        assert identity_name("user:42") == "\u2068<@42>\u2069"


def test_help_lists_the_players_commands_last():
    fields = [field.name for field in embeds.help_embed().fields]
    assert fields[-3:] == [
        "/ps profile [player] [hide]",
        "/ps leaderboard, /ps history",
        "/ps export, /ps forget",
    ]
    assert len(fields) <= 25  # Discord's limit on an embed's fields
