"""The runnable examples of README.md, CONTRIBUTING.md and docs/*.md are run, and their output
checked: a doc that goes stale fails here.

What is extracted from the docs:

* commands: the lines of ```sh and ```console blocks and of indented code blocks, and the inline
  code spans that start like a command (`make `, `python -m `, `.venv/bin/...`, `pytest `,
  `sudo `, `bench/`). Each is either run (`RUN`: offline and quick, its exit code and its output
  checked) or has a reason not to be (`NOT_RUN`); a command that is neither fails
  `test_every_command_is_run_or_has_a_reason_not_to`, so that a new one gets a decision;
* the options of the terminal game that README.md lists (`--revolutions 4`, `--lang nl`, ...):
  each starts a game;
* ```python blocks, run as doctests (their output compared exactly);
* the notation: the tables with a `canonical` column of README.md and docs/notation.md, and the
  sentences "`koop zaad`, `acheter graine` and `קנה זרע` are `buy seed`", read by
  `engine.parse_action`; the order of the border's gaps;
* the example line of docs/export-format.md (```json), against a line the exporter writes.

Not extracted at all: Discord's slash commands (`/ps new`, `/ps play buy seed`: they need
Discord; tests/e2e/ plays them through the loopback fake), the ```ini block (a systemd unit), the
diagram of docs/architecture.md (not code), the API named in prose (`engine.apply(state,
action)`: its arguments are placeholders; the ```python example runs it), and word lists that
are not actions (the long forms of the abilities' names, the glossary's verbs).
"""

from __future__ import annotations

import asyncio
import doctest
import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import engine
from engine.config import CYNTHIA_DIFFICULTY
from engine.geometry import LABEL_INDEX, LABELS
from engine.players import CynthiaPlayer, play_until
from tests.bot_helpers import exported_games
from translation import LANGUAGES, _, _n, join, translate

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The docs whose tables and sentences give the notation.
NOTATION_DOCS = [ROOT / "README.md", ROOT / "docs" / "notation.md"]

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
INDENTED = re.compile(r"(?:^\n)((?:^    \S.*\n)+)", re.M)
INLINE = re.compile(r"`([^`\n]+)`")
COMMAND = re.compile(r"^(?:sudo |make |pytest |python3? |\.venv/bin/|bench/)")

#: The kinds of command the docs show that are not run here, and why (first match wins).
NOT_RUN: list[tuple[str, str]] = [
    (r"^make ", "make targets install .venv, start the bot (`make run`: it needs a Discord "
     "token and runs until stopped) or run the whole checks, demo or benchmarks (`make test` "
     "runs this file); the commands behind `make demo` and `make test` are run here"),
    (r"^sudo ", "installs system packages (root and the network)"),
    (r"^(pytest|python -m pytest)\b", "a pytest run of the suite this file belongs to"),
    (r"^(python )?bench/", "a benchmark: it prints figures over minutes, and figures are not "
     "asserted on (CONTRIBUTING.md)"),
    (r"^lint-imports$", "a static check of `make lint`"),
    (r"^pybabel init ", "a recipe for a new language: its code `xx` is a placeholder, and it "
     "writes into translation/catalogs/"),
    (r"^python -m tests\.perft$", "rewrites tests/data/perft.json after minutes of counting"),
    (r"^python -m bot\.web$", "the web companion's server: it runs until stopped (its pages are "
     "tested by tests/test_web.py and tests/e2e/test_web_browser.py)"),
    (r"^python -m bot\.web$", "the web companion's server: it runs until stopped (its pages are "
     "tested by tests/test_web.py and tests/e2e/test_web_browser.py)"),
]  # fmt: skip


def normalized(command: str) -> str:
    """The command without its `.venv/bin/` (the tests run in that interpreter)."""
    return command.removeprefix(".venv/bin/")


def doc_commands() -> dict[str, list[str]]:
    """Every command the docs show -> the docs that show it (normalized)."""
    found: dict[str, list[str]] = {}
    for doc in DOCS:
        text = doc.read_text()
        lines = [
            line
            for lang, body in FENCE.findall(text)
            if lang in ("sh", "console")
            for line in body.splitlines()
        ]
        for block in INDENTED.findall(FENCE.sub("", text)):
            lines += block.splitlines()
        commands = [line.split(" #")[0].strip().removeprefix("$ ") for line in lines]
        commands += INLINE.findall(text)  # in prose, and in the comments of the blocks
        for command in commands:
            if COMMAND.match(command):
                found.setdefault(normalized(command), []).append(doc.name)
    return found


def reason_not_to_run(command: str) -> str | None:
    return next((reason for pattern, reason in NOT_RUN if re.search(pattern, command)), None)


def run(
    command: str | list[str], *, cwd: Path = ROOT, stdin: str = "", env: dict | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command of the docs (`python` is this interpreter), offline, with `stdin`."""
    argv = shlex.split(command) if isinstance(command, str) else command
    if argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    return subprocess.run(
        argv, cwd=cwd, input=stdin, env={**base, **(env or {})}, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip


# --- the terminal game ------------------------------------------------------------------------


def game_of(argv: list[str]) -> tuple[engine.Config, str]:
    """The game `python -m engine.play` starts with these options (seed 1), and its language."""
    options = {"--seats": "human,human", "--revolutions": "3", "--cynthia": "normal"}
    options |= {"--lang": "en"}
    flags = set()
    args = iter(argv)
    for arg in args:
        if arg in ("--seats", "--revolutions", "--cynthia", "--lang"):
            options[arg] = next(args)
        else:
            flags.add(arg)
    kinds = options["--seats"].split(",")
    config = engine.Config(
        seats=tuple("cynthia" if kind == "cynthia" else "human" for kind in kinds),
        revolutions=int(options["--revolutions"]),
        shadow_rule="--shadow-rule" in flags,
        moon_animals="--moon-animals" in flags,
        elder_tree="--elder-tree" in flags,
        moonstones="--moonstones" in flags,
        **CYNTHIA_DIFFICULTY[options["--cynthia"]],
    )
    return config, options["--lang"]


def legal(state: engine.GameState) -> str:
    """What `?` prints: the legal actions."""
    return ", ".join(str(action) for action in engine.legal_actions(state))


def scripted_game(config: engine.Config) -> tuple[list[str], str, engine.GameState]:
    """The lines a person types to play the game to its end: the first offered decision in
    setup, then `end`, except at the first turn after setup: `buy seed`, `undo` and `?`.
    Returns the lines, the legal actions `?` should print then, and the final position."""
    state, typed, after_undo = engine.new_game(config, seed=1), [], ""
    while True:
        state, _decisions = play_until(state, cynthias(config))
        if state.is_over:
            return typed, after_undo, state
        if state.phase == "setup":
            line = str(engine.legal_actions(state)[0])
        elif not after_undo:
            assert engine.parse_action("buy seed") in engine.legal_actions(state)
            typed += ["buy seed", "undo", "?"]
            after_undo = legal(state)
            line = "end"
        else:
            line = "end"
        typed.append(line)
        state = engine.apply(state, line)


def cynthias(config: engine.Config) -> dict[int, CynthiaPlayer]:
    return {seat: CynthiaPlayer() for seat, kind in enumerate(config.seats) if kind == "cynthia"}


def winner_line(state: engine.GameState, lang: str) -> str:
    best = engine.winners(state)
    seats = join([_("seat {seat}", seat=w + 1) for w in best], ", ")
    return translate(_n("Winner: {seats}", "Winners: {seats}", len(best), seats=seats), lang)


def prompt(lang: str) -> str:
    return translate(_("Seat {seat}> ", seat=1), lang)


def play_a_whole_game(command: str, _tmp_path: Path) -> None:
    """The README's terminal game, typed to its end: `?` lists the legal actions, `help` gives
    the notation, `undo` takes back a buy; the final scores name the winner."""
    argv = shlex.split(command)[3:]  # after `python -m engine.play`
    config, lang = game_of(argv)
    typed, after_undo, final = scripted_game(config)
    done = run(command, stdin="\n".join(["?", "help", *typed]) + "\n")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    out = done.stdout
    start = engine.new_game(config, seed=1)
    assert f"{prompt(lang)}{legal(start)}\n" in out  # `?`
    assert "Several at once: grow D4; plant C3 E5; end\n" in out  # `help`
    assert f"{prompt(lang)}{after_undo}\n" in out  # `?` after `buy seed` and `undo`
    assert "There is nothing to undo" not in out
    assert out.splitlines()[-1] == winner_line(final, lang)


def terminal_options() -> list[str]:
    """The options README.md's "In the terminal" lists (`--revolutions 4`, `--lang he`, ...)."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### In the terminal\n", 1)[1].split("\n### ", 1)[0]
    return [span for span in INLINE.findall(section) if span.startswith("--")]


TERMINAL_GAME = "python -m engine.play --seats human,human,cynthia"


def test_the_terminal_games_options_in_the_readme_are_played():
    """All the options once, in one game played to its end (the README's seats; of an option
    given several values, the first); each other value starts a game, left at once."""
    options = [shlex.split(span) for span in terminal_options()]
    names = [option[0] for option in options]
    assert {"--revolutions", "--shadow-rule", "--cynthia", "--lang", "--seats"} <= set(names)
    first = [o for i, o in enumerate(options) if o[0] not in names[:i] and o[0] != "--seats"]
    whole = shlex.split(TERMINAL_GAME) + [arg for option in first for arg in option]
    config, lang = game_of(whole[3:])
    typed, after_undo, final = scripted_game(config)
    done = run(whole, stdin="\n".join(typed) + "\n")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert f"{prompt(lang)}{after_undo}\n" in done.stdout
    assert done.stdout.splitlines()[-1] == winner_line(final, lang)
    assert lang != "en" and config.revolutions == 4 and config.moon_animals

    for option in (o for o in options if o not in first):
        argv = [*shlex.split(TERMINAL_GAME), *option]
        if option[0] == "--seats":
            argv[3:5] = []
        config, lang = game_of(argv[3:])
        started = run(argv, stdin="?\n")  # then the input ends: the game is left (exit 1)
        assert started.returncode == 1, (option, started.stdout[-1000:], started.stderr)
        assert f"{prompt(lang)}{legal(engine.new_game(config, seed=1))}\n" in started.stdout


# --- the other commands ---------------------------------------------------------------------


def check_the_translations(command: str, _tmp_path: Path) -> None:
    done = run(command)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:-1]] == [[lang, "100%"] for lang in LANGUAGES]
    assert re.fullmatch(rf"i18n: ok, {len(LANGUAGES)} languages, \d+ strings each", lines[-1])


def draw_the_demo(command: str, tmp_path: Path) -> None:
    """Two random players against two Cynthias: a PNG per round and game.gif in out/, the
    final scores."""
    done = run(command, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    first, *scores = done.stdout.splitlines()
    played = re.fullmatch(
        r"Played (\d+) rounds in [\d.]+ s; wrote (\d+) PNGs and game.gif to out/", first
    )
    assert played, first
    pngs = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert len(pngs) == int(played[2]) == int(played[1]) + 2  # each round, the start, the end
    assert (tmp_path / "out" / "game.gif").read_bytes()[:6] == b"GIF89a"
    assert [line.split("  ")[1].strip() for line in scores] == [
        "Random 1", "Random 2", "Cynthia 1", "Cynthia 2"
    ]  # fmt: skip
    assert sum(line.endswith("<- winner") for line in scores) >= 1


def rebuild_the_ratings(command: str, tmp_path: Path) -> None:
    """On a database with a game finished before results were kept: the first rebuild records
    it first; Alice and Cynthia have a rating each in the server and across servers; a second
    rebuild gives the same digest."""
    from tests.e2e.finished_game import write_finished_game

    database = tmp_path / "photosynthesis.db"
    asyncio.run(write_finished_game(str(database), 1, 2, 3))
    said = []
    for _time in range(2):
        done = run(command, cwd=tmp_path, env={"DATABASE_PATH": str(database)})
        assert done.returncode == 0, done.stdout + done.stderr
        said.append(done.stdout)
    pattern = r"ratings: rebuilt from 1 games \((\d) recorded first\): 4 ratings, digest (\w{16}) "
    first, again = (re.match(pattern, line) for line in said)
    assert first and again, said
    assert (first[1], again[1]) == ("1", "0") and first[2] == again[2]


#: The commands of the docs that are run, by what they check.
RUN: dict[str, Callable[[str, Path], None]] = {
    TERMINAL_GAME: play_a_whole_game,
    "python -m bot.present.i18n check": check_the_translations,
    "python -m render.demo --lang he": draw_the_demo,
    "python -m bot.ratings rebuild": rebuild_the_ratings,
}

COMMANDS = doc_commands()


def test_every_command_is_run_or_has_a_reason_not_to():
    undecided = {
        c: docs for c, docs in COMMANDS.items() if c not in RUN and not reason_not_to_run(c)
    }
    assert undecided == {}, "add each to RUN (and check its output) or to NOT_RUN (with why)"
    assert set(RUN) <= set(COMMANDS), "a command of RUN is no longer in the docs"


@pytest.mark.parametrize("command", sorted(c for c in COMMANDS if c in RUN))
def test_the_command_runs_as_the_docs_say(command: str, tmp_path: Path) -> None:
    RUN[command](command, tmp_path)


# --- the python examples ----------------------------------------------------------------------


def python_examples() -> list[tuple[str, str]]:
    return [
        (f"{doc.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}", m[2])
        for doc in DOCS
        for text in [doc.read_text()]
        for m in FENCE.finditer(text)
        if m[1] == "python"
    ]


@pytest.mark.parametrize(("where", "source"), python_examples())
def test_the_python_examples_run_as_shown(where: str, source: str) -> None:
    example = doctest.DocTestParser().get_doctest(source, {}, where, where, 0)
    assert example.examples, f"{where}: a ```python block shows its run as >>> lines"
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(example, out=report.write)
    assert runner.failures == 0, report.getvalue()


# --- the notation -----------------------------------------------------------------------------


def table_rows(text: str) -> list[dict[str, str]]:
    """The rows of every Markdown table with a `canonical` column: header -> cell."""
    rows, header = [], None
    for line in text.splitlines() + [""]:
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif "canonical" in header and not set(cells[0]) <= set("-: "):
            rows.append(dict(zip(header, cells, strict=True)))
    return rows


ALSO = re.compile(r"\balso ((?:`[^`]+`(?:,\s*|\s+or\s+)?)+)")
ARE = re.compile(r"((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)\s+(?:are|all mean)\s+`([^`]+)`")


def notation_problems(doc: Path) -> list[str]:
    """What the doc says of the notation that the parser does not do."""
    text = doc.read_text()
    problems = []

    def check(typed: str, meant: set[str]) -> None:
        try:
            got = str(engine.parse_action(typed))
        except engine.IllegalAction as refused:
            got = f"refused: {refused}"
        if got not in meant:
            problems.append(f"{typed!r} reads as {got!r}, not {' or '.join(sorted(meant))}")

    for row in table_rows(text):
        canonical = INLINE.findall(row["canonical"])
        for action in canonical:
            check(action, {action})
        accepted = INLINE.findall(row.get("also accepted", ""))
        for also in ALSO.findall(row.get("notes", "")):
            accepted += INLINE.findall(also)
        for typed in accepted:
            check(typed, set(canonical))
    for said, action in ARE.findall(" ".join(text.split())):
        for typed in INLINE.findall(said):
            check(typed, {action})
    return problems


@pytest.mark.parametrize("doc", NOTATION_DOCS, ids=lambda doc: doc.name)
def test_the_notation_reads_as_the_docs_say(doc: Path) -> None:
    assert table_rows(doc.read_text()), f"no notation table in {doc.name}"
    assert notation_problems(doc) == []


def test_the_gaps_of_the_border_and_the_dam_as_the_notation_says():
    text = " ".join((ROOT / "docs" / "notation.md").read_text().split())
    (border,) = re.findall(r"`((?:[A-G][1-7] ){17}[A-G][1-7])`", text)
    assert border.split() == [LABELS[space] for space in engine.moon.BORDER]
    dam = re.search(
        r"`use dam (\d+)` covers ([A-G]\d), ([A-G]\d) and the 2-leaf space ([A-G]\d)", text
    )
    assert dam, "the Dam's example"
    assert set(engine.moon.DAM[int(dam[1])]) == {LABEL_INDEX[label] for label in dam.groups()[1:]}


# --- the export's example line ------------------------------------------------------------------


def test_the_export_example_line_has_the_shape_of_an_exported_line():
    """Its keys in order, each seat's, the types of their values and the record's first line."""
    text = (ROOT / "docs" / "export-format.md").read_text()
    ((lang, body),) = [(lang, body) for lang, body in FENCE.findall(text) if lang == "json"]
    shown = json.loads(body)
    written = json.loads(export_line())

    def types(values: dict) -> dict[str, str]:
        return {key: type(value).__name__ for key, value in values.items()}

    assert list(shown) == list(written) and types(shown) == types(written)
    for seat in shown["seats"]:
        assert types(seat) | {"user_id": "str"} == types(written["seats"][0])
        assert set(seat["parts"]) <= set(written["seats"][0]["parts"])
    header, *actions = shown["record"].replace("{...}", "{}").split("\n")
    assert list(json.loads(header)) == list(json.loads(written["record"].split("\n")[0]))
    assert str(engine.parse_action(actions[0])) == actions[0]


def export_line() -> str:
    from bot.services import export

    return export.write_jsonl(exported_games()[:1]).splitlines()[0]
