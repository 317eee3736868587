"""The export of finished games (issue 45): JSON lines and CSV, written and read back."""

from __future__ import annotations

import csv
import io
import json

import pytest

import engine
from bot.discord.cogs.board import read_record
from bot.services import export
from bot.services.export import ExportError
from tests.bot_helpers import exported_games as _games


def test_a_game_is_scored_and_ordered_by_the_engine():
    for game in _games():
        state = game.record.state()
        assert state.is_over
        assert [s.score for s in game.seats] == engine.scores(state)
        assert [dict(s.parts) for s in game.seats] == [
            engine.score_parts(state, i) for i in range(len(game.seats))
        ]
        assert [seat - 1 for seat in game.winners] == engine.winners(state)
    assert [g.rules for g in _games()] == ["base", "base", "moonlight"]
    cynthia = _games()[1].seats[1]
    assert "light" not in cynthia.parts and "trees" in cynthia.parts


def test_jsonl_round_trips_and_each_record_replays():
    text = export.write_jsonl(_games())
    assert text.count("\n") == 3
    assert tuple(export.read_jsonl(text)) == _games()
    first = json.loads(text.splitlines()[2])
    assert first["format"] == "photosynthesis-game" and first["version"] == 1
    assert first["server"] == "903"
    assert first["seats"][0]["user_id"] == str(10**18)  # ids as text: exact in any reader
    assert first["rules"] == "moonlight"
    assert first["winners"] == list(_games()[2].winners)
    assert "אורי" in text.splitlines()[1]
    for line, game in zip(text.splitlines(), _games()):
        record = export.record_of_line(line)
        assert record == game.record
        # `/ps replay` reads the record as it reads the file of `/ps log`
        parsed, frames = read_record(json.loads(line)["record"].encode())
        assert parsed == game.record
        assert engine.scores(frames[-1]) == [s.score for s in game.seats]


def test_csv_round_trips_with_one_row_per_game():
    text = export.write_csv(_games())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["game", "server", "created_at", "finished_at"]
    assert len(rows) == 4 and {len(r) for r in rows} == {len(export.COLUMNS)}
    second = dict(zip(rows[0], rows[2]))
    assert second["server"] == "" and second["seats"] == "3"
    assert second["seat1_kind"] == "expert-strong" and second["seat1_user_id"] == ""
    assert second["seat3_left"] == "yes" and second["seat4_kind"] == ""
    assert second["seat2_light"] == ""  # Cynthia scores no light
    assert second["record"] == _games()[1].record.to_text()
    assert tuple(export.read_csv(text)) == _games()


def test_ties_and_several_winners_are_kept():
    game = _games()[0]
    tied = type(game)(
        **{
            **game.__dict__,
            "seats": tuple(type(s)(**{**s.__dict__, "place": 1}) for s in game.seats),
        }
    )
    assert tied.winners == (1, 2)
    assert export.read_jsonl(export.write_jsonl([tied]))[0].winners == (1, 2)
    assert export.read_csv(export.write_csv([tied]))[0].winners == (1, 2)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: "not json", "line 1 is not JSON"),
        (lambda d: json.dumps({**d, "format": "chess"}), "line 1 is not a game of a"),
        (lambda d: json.dumps({**d, "version": 2}), "line 1 is of an export version"),
        (lambda d: json.dumps({**d, "record": "{}\ngrow D4"}), "line 1 is damaged"),
        (lambda d: json.dumps({**d, "seats": d["seats"][:1]}), "line 1 does not list one seat"),
        (lambda d: json.dumps({**d, "game": "7"}), "line 1 is damaged"),
        (
            lambda d: json.dumps(
                {**d, "seats": [{**d["seats"][0], "kind": "cynthia"}, *d["seats"][1:]]}
            ),
            "line 1 has a damaged seat 1",
        ),
    ],
)
def test_a_damaged_jsonl_line_says_where(damage, message):
    data = json.loads(export.write_jsonl(_games()[:1]))
    with pytest.raises(ExportError, match=f"^{message}"):
        export.read_jsonl(damage(data))


def test_a_damaged_csv_says_where():
    text = export.write_csv(_games()[:1])
    with pytest.raises(ExportError, match="^the first row is not the header"):
        export.read_csv("a,b\n1,2\n")
    with pytest.raises(ExportError, match="^row 2 is damaged"):
        export.read_csv(text.replace("yes", "maybe").replace(",no,", ",maybe,"))
    with pytest.raises(ExportError, match="^row 2 does not have"):
        export.read_csv(text.rstrip() + ",extra\r\n")


def test_a_score_part_without_a_column_is_refused_by_the_csv_writer():
    game = _games()[0]
    odd = type(game.seats[0])(**{**game.seats[0].__dict__, "parts": {"moon": 1}})
    with pytest.raises(ValueError, match="moon"):
        export.write_csv([type(game)(**{**game.__dict__, "seats": (odd, *game.seats[1:])})])


def test_an_exported_game_gives_the_ratings_its_result():
    game = _games()[1]  # the Expert, Cynthia (harder: scores her trees) and a person who left
    result = game.result()
    assert result.game_id == 2 and result.server_id is None and result.family == "base"
    assert result.finished_at == "2026-05-02T10:00:00+00:00" and result.status == "over"
    assert [(s.identity, s.place) for s in result.seats] == [
        ("expert:strong", game.seats[0].place),
        ("cynthia:harder_score_trees", game.seats[1].place),
        ("user:33", game.seats[2].place),
    ]
    assert _games()[2].result().family == "moonlight"


def test_an_export_in_parts_keeps_each_part_under_the_limit_and_every_game_once():
    """`PartWriter`: each part's two files together at most the limit, the games in order,
    each part a whole export of its games (both files read back to them)."""
    games = _games() * 4  # 12 games
    whole = len(export.write_jsonl(games).encode()) + len(export.write_csv(games).encode())
    one = max(
        len(export.write_jsonl([g]).encode()) + len(export.write_csv([g]).encode()) for g in games
    )
    limit = 2 * one + 100
    parts = export.write_parts(games, limit)
    assert len(parts) >= 4 and all(part.size <= limit for part in parts)
    assert [g for part in parts for g in part.games] == [g.game_id for g in games]
    at = 0
    for part in parts:
        mine = games[at : at + len(part.games)]
        assert tuple(export.read_jsonl(part.jsonl.decode())) == mine
        assert tuple(export.read_csv(part.csv.decode())) == mine
        at += len(part.games)
    # as few parts as the limit allows: no two neighbours would have fitted together
    for a, b in zip(parts, parts[1:]):
        header = len(export.write_csv([]).encode())
        assert a.size + b.size - header > limit
    # under a limit it fits, one part: the very files of the whole export
    (single,) = export.write_parts(games, whole)
    assert single.jsonl == export.write_jsonl(games).encode()
    assert single.csv == export.write_csv(games).encode()
    # a game larger than the limit is a part of its own (no error)
    assert [p.games for p in export.write_parts(games[:2], 10)] == [(1,), (2,)]
    assert export.write_parts([], 10) == []


def test_a_stored_game_is_the_replayed_game():
    """The export takes the scores and places stored at each game's end (`stored_game`): they
    are the ones a replay gives (`exported_game`)."""
    for game in _games():
        stored = export.stored_game(
            game.game_id,
            game.server_id,
            game.created_at,
            game.finished_at,
            game.options,
            game.record,
            [export.SeatInfo(s.kind, s.user_id, s.name, s.left) for s in game.seats],
            [(s.place, dict(s.parts)) for s in game.seats],
        )
        assert stored == game
