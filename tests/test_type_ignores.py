"""Every ``# type: ignore`` names its error code and says why on the same line."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "translation", "bot")
#: ``# type: ignore[code, ...]  # the reason``
EXPLAINED = re.compile(r"# type: ignore\[[a-z-]+(?:, ?[a-z-]+)*\]  # \S")


def unexplained(text: str) -> list[int]:
    """The numbers of the lines holding a ``# type: ignore`` without its code or its reason."""
    return [
        n
        for n, line in enumerate(text.splitlines(), 1)
        if "# type: ignore" in line and not EXPLAINED.search(line)
    ]


def test_an_ignore_without_its_code_or_its_reason_is_found() -> None:
    assert unexplained("x = f()  # type: ignore\n") == [1]
    assert unexplained("x = 1\nx = f()  # type: ignore[arg-type]\n") == [2]
    assert unexplained("x = f()  # type: ignore[arg-type]  # f is untyped\n") == []
    assert unexplained("x = f()  # type: ignore[union-attr,return-value]  # loaded\n") == []


def test_every_type_ignore_says_why() -> None:
    found = {
        str(path.relative_to(REPO)): lines
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        if (lines := unexplained(path.read_text(encoding="utf-8")))
    }
    assert found == {}
