"""The project's documentation is its own: no file sends a reader outside the repository, and every
reference into `docs/` names a file and a heading that exist."""

from __future__ import annotations

import os
import re
from pathlib import Path

THIS_FILE = Path(__file__).resolve()
ROOT = THIS_FILE.parents[1]

#: Discord's OpenAPI description, vendored with its own files: not ours to rewrite.
VENDORED = Path("tests", "e2e", "discord_api")
SKIPPED_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".ruff_cache"}

#: The folder outside the repository the old references went to, spelt so that a plain grep for
#: it finds no file of the repository.
SHARED = "shared" + "/"
OUTSIDE = re.compile("|".join([SHARED, r"\bDESIGN(\.md|\s+(§|section|\d))", "RULES-DATA"]))
#: `docs/rules-data.md#1-board` anywhere, and `](rules-data.md#1-board)` links inside docs/.
DOCS_REF = re.compile(r"\bdocs/([\w.-]+\.md)(?:#([\w-]+))?")
RELATIVE_LINK = re.compile(r"\]\(([\w.-]+\.md)(?:#([\w-]+))?\)")


def project_files(root: Path) -> list[Path]:
    """Every `.py` and `.md` file of the tree at `root`, outside the vendored spec and tool dirs
    (and this file, whose examples break the rules on purpose)."""
    found = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIPPED_DIRS
            and not d.endswith(".egg-info")
            and (here / d).relative_to(root) != VENDORED
        )
        found += [here / f for f in files if f.endswith((".py", ".md")) and here / f != THIS_FILE]
    return sorted(found)


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown file's headings (code blocks skipped, repeats numbered)."""
    seen: dict[str, int] = {}
    result = set()
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or not match:
            continue
        base = slug(match.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def outside_references(root: Path) -> list[str]:
    """`file:line: text` of each line that cites the old documents outside the repository."""
    found = []
    for path in project_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def broken_doc_references(root: Path) -> list[str]:
    """`file:line: reference` of each reference to a missing docs/ file or heading."""
    docs = root / "docs"
    found = []
    for path in project_files(root):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            refs = [m.groups() for m in DOCS_REF.finditer(line)]
            if path.parent == docs:
                refs += [m.groups() for m in RELATIVE_LINK.finditer(line)]
            for name, anchor in refs:
                target = docs / name
                if not target.is_file():
                    found.append(f"{path.relative_to(root)}:{number}: docs/{name} is missing")
                elif anchor and anchor not in anchors(target.read_text(encoding="utf-8")):
                    found.append(
                        f"{path.relative_to(root)}:{number}: no heading #{anchor} in {name}"
                    )
    return found


def test_slug_follows_github() -> None:
    assert slug("7.3 Animals and abilities") == "73-animals-and-abilities"
    assert (
        slug("4. Pieces, player board and scoring piles")
        == "4-pieces-player-board-and-scoring-piles"
    )
    assert (
        slug("Worker processes: pictures and the Expert")
        == "worker-processes-pictures-and-the-expert"
    )
    assert slug("`moonlight` (Under the Moonlight)") == "moonlight-under-the-moonlight"
    assert anchors("# A\n```\n# not a heading\n```\n## A\n### B c\n") == {"a", "a-1", "b-c"}


def test_checks_catch_what_they_claim(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n\n## 1. Board\n", encoding="utf-8")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "geometry.py").write_text(
        '"""Board (docs/rules.md#1-board), sun (docs/rules.md#2-sun)."""\n'
        f"# see docs/gone.md and ../{SHARED}seeds\n"
        "# light: RULES-DATA 3; facade: DESIGN 2.1\n",
        encoding="utf-8",
    )
    vendored = tmp_path.joinpath(*VENDORED.parts)
    vendored.mkdir(parents=True)
    (vendored / "README.md").write_text(f"../{SHARED}discord-openapi.json\n", encoding="utf-8")
    assert broken_doc_references(tmp_path) == [
        "engine/geometry.py:1: no heading #2-sun in rules.md",
        "engine/geometry.py:2: docs/gone.md is missing",
    ]
    assert [ref.split(": ", 1)[0] for ref in outside_references(tmp_path)] == [
        "engine/geometry.py:2",
        "engine/geometry.py:3",
    ]


def test_nothing_points_outside_the_repository() -> None:
    assert outside_references(ROOT) == []


def test_every_docs_reference_resolves() -> None:
    assert broken_doc_references(ROOT) == []


def test_the_docs_this_project_promises_exist() -> None:
    for name in ("architecture.md", "rules-data.md", "expert.md"):
        assert (ROOT / "docs" / name).is_file(), name
    assert (ROOT / "CONTRIBUTING.md").is_file()
    assert len((ROOT / "docs" / "expert.md").read_text(encoding="utf-8").splitlines()) <= 200
