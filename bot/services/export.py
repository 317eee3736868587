"""The export of finished games (issue 45): JSON lines and CSV, written and read back.

The formats are documented in docs/export-format.md. Both hold, for each finished game: its id,
server, start and finish times, rule family and the lobby's options; each seat's kind, person
(user id and name), final score with its parts, finishing place (ties share a place, several
seats may win) and whether the person left (the autopilot finished their seat); and the game's
record, `engine.Record` as text: exactly the file `/ps log` gives, that `/ps replay` reads.

Pure: no storage, no Discord. `exported_game` builds a game from its record (replaying it to
score it, so the scores and places are the engine's); `write_jsonl`/`read_jsonl` and
`write_csv`/`read_csv` turn games into text and back, so that ``read(write(games)) == games``.
A file that is not an export raises `ExportError` saying what is wrong, in one sentence.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import engine
from bot.ratings.core import FINISHED, Family, GameResult, family_of, game_result, places_of

#: The name and version in each JSON line (a reader refuses any other).
FORMAT: Final = "photosynthesis-game"
VERSION: Final = 1
#: The parts a final score may have (`engine.score_parts`), in the CSV's column order.
PARTS: tuple[str, ...] = ("tokens", "light", "trees", "lunar", "baby turtle")
MAX_SEATS = 4
SEAT_KINDS = ("human", "cynthia", "expert", "expert-strong")


class ExportError(ValueError):
    """A file that is not an export of ours, or a damaged one: one sentence says where."""


@dataclass(frozen=True)
class ExportSeat:
    """One seat of a finished game. ``seat`` counts from 1 in turn order."""

    seat: int
    kind: str
    user_id: int | None
    name: str
    score: int
    parts: Mapping[str, int]
    place: int
    left: bool = False

    @property
    def winner(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class ExportGame:
    """One finished game, as exported."""

    game_id: int
    server_id: int | None
    created_at: str
    finished_at: str
    options: Mapping[str, object]
    record: engine.Record
    seats: tuple[ExportSeat, ...] = field(default=())

    @property
    def rules(self) -> Family:
        return family_of(self.record.config.to_dict())

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats (several when tied on score and on the tie-break)."""
        return tuple(s.seat for s in self.seats if s.winner)

    def result(self) -> GameResult:
        """What the ratings take of the game (an exported game is a finished one)."""
        return game_result(
            self.game_id,
            self.finished_at,
            self.server_id,
            FINISHED,
            self.record.config.to_dict(),
            [(s.kind, s.user_id) for s in self.seats],
            [s.place for s in self.seats],
        )


@dataclass(frozen=True)
class SeatInfo:
    """What the storage knows of a seat besides the record: its kind, person and whether the
    person left."""

    kind: str
    user_id: int | None
    name: str
    left: bool = False


def stored_game(
    game_id: int,
    server_id: int | None,
    created_at: str,
    finished_at: str,
    options: Mapping[str, object],
    record: engine.Record,
    seats: Sequence[SeatInfo],
    results: Sequence[tuple[int, Mapping[str, int]]],
) -> ExportGame:
    """A finished game for the export from its stored results (each seat's place and score
    parts, as the engine gave them at the game's end and as it was rated): no replay, so that
    an export of thousands of games takes a moment."""
    if not len(seats) == len(results) == len(record.config.seats):
        raise ValueError("one seat's information and result per seat of the record")
    return ExportGame(
        game_id,
        server_id,
        created_at,
        finished_at,
        dict(options),
        record,
        tuple(
            ExportSeat(
                seat=i + 1,
                kind=info.kind,
                user_id=info.user_id,
                name=info.name,
                score=sum(parts.values()),
                parts=dict(parts),
                place=place,
                left=info.left,
            )
            for i, (info, (place, parts)) in enumerate(zip(seats, results))
        ),
    )


def exported_game(
    game_id: int,
    server_id: int | None,
    created_at: str,
    finished_at: str,
    options: Mapping[str, object],
    record: engine.Record,
    seats: Sequence[SeatInfo],
) -> ExportGame:
    """A finished game for the export: the record is replayed to score it (pure CPU), then
    exported as from stored results (`stored_game`)."""
    if len(seats) != len(record.config.seats):
        raise ValueError("one seat's information per seat of the record")
    state = record.state()
    where = places_of(state)
    results = [(where[i], engine.score_parts(state, i)) for i in range(len(seats))]
    return stored_game(game_id, server_id, created_at, finished_at, options, record, seats, results)


# -- JSON lines ------------------------------------------------------------------------------


def _id(value: int | None) -> str | None:
    """A Discord id as text (JSON readers that use doubles would round it)."""
    return None if value is None else str(value)


def game_to_json(game: ExportGame) -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.game_id,
        "server": _id(game.server_id),
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "rules": game.rules,
        "options": dict(game.options),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "user_id": _id(s.user_id),
                "name": s.name,
                "score": s.score,
                "parts": dict(s.parts),
                "place": s.place,
                "winner": s.winner,
                "left": s.left,
            }
            for s in game.seats
        ],
        "winners": list(game.winners),
        "record": game.record.to_text(),
    }


def write_jsonl(games: Iterable[ExportGame]) -> str:
    """The games as JSON lines: one game per line."""
    return "".join(
        json.dumps(game_to_json(g), ensure_ascii=False, separators=(",", ":")) + "\n" for g in games
    )


def read_jsonl(text: str) -> list[ExportGame]:
    """The games of a JSON lines export (blank lines are skipped)."""
    result = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            raise ExportError(f"line {number} is not JSON") from None
        result.append(_game_from(data, f"line {number}"))
    return result


def record_of_line(line: str) -> engine.Record:
    """The record of one game of a JSON lines export (what `/ps replay` plays)."""
    games = read_jsonl(line)
    if len(games) != 1:
        raise ExportError("one game per line")
    return games[0].record


def _game_from(data: object, where: str) -> ExportGame:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(f"{where} is not a game of a Photosynthesis export")
    if data.get("version") != VERSION:
        raise ExportError(f"{where} is of an export version this bot does not read")
    try:
        record = engine.Record.from_text(_text(data["record"]))
        seats = tuple(_seat_from(s) for s in data["seats"])
        game = ExportGame(
            game_id=_int(data["game"]),
            server_id=_opt_int(data["server"]),
            created_at=_text(data["created_at"]),
            finished_at=_text(data["finished_at"]),
            options=_mapping(data["options"]),
            record=record,
            seats=seats,
        )
    except (KeyError, TypeError, ValueError, RecursionError, OverflowError):
        raise ExportError(f"{where} is damaged") from None
    _check(game, where)
    return game


def _seat_from(data: object) -> ExportSeat:
    if not isinstance(data, dict):
        raise TypeError("a seat is an object")
    parts = _mapping(data["parts"])
    return ExportSeat(
        seat=_int(data["seat"]),
        kind=_text(data["kind"]),
        user_id=_opt_int(data["user_id"]),
        name=_text(data["name"]),
        score=_int(data["score"]),
        parts={_text(k): _int(v) for k, v in parts.items()},
        place=_int(data["place"]),
        left=_bool(data["left"]),
    )


def _check(game: ExportGame, where: str) -> None:
    """The seats agree with the record: one per seat, in order, of a known kind."""
    n = len(game.record.config.seats)
    if [s.seat for s in game.seats] != list(range(1, n + 1)):
        raise ExportError(f"{where} does not list one seat per seat of its record")
    for s in game.seats:
        if s.kind not in SEAT_KINDS or not 1 <= s.place <= n:
            raise ExportError(f"{where} has a damaged seat {s.seat}")
        if (s.kind == "cynthia") != (game.record.config.seats[s.seat - 1] == "cynthia"):
            raise ExportError(f"{where} has a damaged seat {s.seat}")


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("a text")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("a whole number")
    return int(value)


def _opt_int(value: object) -> int | None:
    """An id: None, or a whole number written as text (or as a number)."""
    if value is None:
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return _int(value)


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("true or false")
    return value


def _mapping(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise TypeError("an object")
    return dict(value)


# -- CSV -------------------------------------------------------------------------------------

GAME_COLUMNS = (
    "game",
    "server",
    "created_at",
    "finished_at",
    "rules",
    "seats",
    "winners",
    "options",
)
SEAT_FIELDS = ("kind", "user_id", "name", "score", *PARTS, "place", "winner", "left")
COLUMNS: tuple[str, ...] = (
    *GAME_COLUMNS,
    *(f"seat{n}_{name.replace(' ', '_')}" for n in range(1, MAX_SEATS + 1) for name in SEAT_FIELDS),
    "record",
)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def game_to_row(game: ExportGame) -> list[str]:
    """One CSV row: the game, then each seat's columns (empty for a seat the game lacks)."""
    row: list[object] = [
        game.game_id,
        game.server_id,
        game.created_at,
        game.finished_at,
        game.rules,
        len(game.seats),
        " ".join(str(s) for s in game.winners),
        json.dumps(dict(game.options), ensure_ascii=False, separators=(",", ":"), sort_keys=True),
    ]
    for n in range(MAX_SEATS):
        if n >= len(game.seats):
            row += [None] * len(SEAT_FIELDS)
            continue
        s = game.seats[n]
        unknown = set(s.parts) - set(PARTS)
        if unknown:
            raise ValueError(f"a score part the CSV has no column for: {sorted(unknown)}")
        row += [s.kind, s.user_id, s.name, s.score]
        row += [s.parts.get(part) for part in PARTS]
        row += [s.place, s.winner, s.left]
    row.append(game.record.to_text())
    return [_cell(v) for v in row]


def write_csv(games: Iterable[ExportGame]) -> str:
    """The games as CSV: a header, then one row per game (RFC 4180, CRLF line ends)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for game in games:
        writer.writerow(game_to_row(game))
    return out.getvalue()


@dataclass(frozen=True)
class ExportPart:
    """A part of an export: some games (their numbers, in order) in both files, UTF-8."""

    games: tuple[int, ...]
    jsonl: bytes
    csv: bytes

    @property
    def size(self) -> int:
        return len(self.jsonl) + len(self.csv)


class PartWriter:
    """An export written in parts, game after game (`add`, then `close`): each part's two
    files together at most ``limit`` bytes (each CSV with its header), as few parts as that
    allows (a game alone larger than the limit, which no stored game is, is a part of its own).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.header = _csv_text([COLUMNS]).encode()
        self._ids: list[int] = []
        self._lines: list[bytes] = []
        self._rows: list[bytes] = []
        self._size = len(self.header)

    def add(self, game: ExportGame) -> ExportPart | None:
        """Add a game; the part it did not fit in, now complete (else None)."""
        line = write_jsonl([game]).encode()
        row = _csv_text([game_to_row(game)]).encode()
        done = None
        if self._ids and self._size + len(line) + len(row) > self.limit:
            done = self.close()
        self._ids.append(game.game_id)
        self._lines.append(line)
        self._rows.append(row)
        self._size += len(line) + len(row)
        return done

    def close(self) -> ExportPart | None:
        """The part being written (None: no game since the last one), and start a new one."""
        if not self._ids:
            return None
        part = ExportPart(
            tuple(self._ids), b"".join(self._lines), self.header + b"".join(self._rows)
        )
        self._ids, self._lines, self._rows = [], [], []
        self._size = len(self.header)
        return part


def write_parts(games: Iterable[ExportGame], limit: int) -> list[ExportPart]:
    """The games as JSON lines and CSV in parts (`PartWriter`), in order."""
    writer = PartWriter(limit)
    parts = [part for game in games if (part := writer.add(game)) is not None]
    last = writer.close()
    return parts if last is None else [*parts, last]


def _csv_text(rows: Iterable[Sequence[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def read_csv(text: str) -> list[ExportGame]:
    """The games of a CSV export."""
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error:
        raise ExportError("the file is not CSV") from None
    if not rows or tuple(rows[0]) != COLUMNS:
        raise ExportError("the first row is not the header of a Photosynthesis export")
    games = []
    for number, row in enumerate(rows[1:], 2):
        if not row:
            continue
        games.append(_game_from_row(row, f"row {number}"))
    return games


def _game_from_row(row: list[str], where: str) -> ExportGame:
    if len(row) != len(COLUMNS):
        raise ExportError(f"{where} does not have {len(COLUMNS)} columns")
    cells = dict(zip(COLUMNS, row))
    try:
        n = int(cells["seats"])
        if not 2 <= n <= MAX_SEATS:
            raise ValueError("2 to 4 seats")
        seats = []
        for k in range(1, n + 1):
            seat = {name: cells[f"seat{k}_{name.replace(' ', '_')}"] for name in SEAT_FIELDS}
            seats.append(
                ExportSeat(
                    seat=k,
                    kind=seat["kind"],
                    user_id=int(seat["user_id"]) if seat["user_id"] else None,
                    name=seat["name"],
                    score=int(seat["score"]),
                    parts={part: int(seat[part]) for part in PARTS if seat[part] != ""},
                    place=int(seat["place"]),
                    left=_yes(seat["left"]),
                )
            )
        game = ExportGame(
            game_id=int(cells["game"]),
            server_id=int(cells["server"]) if cells["server"] else None,
            created_at=cells["created_at"],
            finished_at=cells["finished_at"],
            options=_mapping(json.loads(cells["options"])),
            record=engine.Record.from_text(cells["record"]),
            seats=tuple(seats),
        )
    except (KeyError, TypeError, ValueError, RecursionError, OverflowError):
        raise ExportError(f"{where} is damaged") from None
    _check(game, where)
    return game


def _yes(value: str) -> bool:
    if value not in ("yes", "no"):
        raise ValueError("yes or no")
    return value == "yes"
