"""The players' commands (issue 45) without Discord: `/ps replay` of an export."""

from __future__ import annotations

import pytest

from bot import export
from bot.cogs.board import export_record, read_record
from bot.services.base import UserError
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
