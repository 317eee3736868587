"""The test run's own setup: every test has a timeout, a warning fails it, the e2e tests carry
their marker, and a test module imports its helpers from helper modules, never from another test
module."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

from _pytest.assertion.rewrite import AssertionRewritingHook

from tests.conftest import ASSERTING_HELPERS

ROOT = Path(__file__).resolve().parent.parent


def pytest_run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=100,
    )


def collected(*args: str) -> tuple[list[str], int]:
    """The test ids a run would select, and how many it deselects."""
    out = pytest_run("--collect-only", *args).stdout
    deselected = re.search(r"(\d+) deselected", out)
    return [line for line in out.splitlines() if "::" in line], int(deselected[1])


def test_every_test_has_a_timeout(pytestconfig):
    assert pytestconfig.getini("timeout") == "120"


def test_a_warning_or_an_unexpected_pass_fails_the_test(pytestconfig):
    """Every third-party warning ignored is named by its message, category and module."""
    first, *ignored = pytestconfig.getini("filterwarnings")
    assert first == "error" and pytestconfig.getini("xfail_strict") is True
    for entry in ignored:
        action, message, category, module = entry.split(":")
        assert action == "ignore" and message and category.endswith("Warning") and module, entry


def test_a_hanging_test_is_stopped(tmp_path):
    (tmp_path / "test_hangs.py").write_text(
        "import threading\n\ndef test_hangs():\n    threading.Event().wait()\n"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 2\n")
    run = pytest_run(str(tmp_path / "test_hangs.py"), cwd=tmp_path)
    assert run.returncode == 1
    assert "Timeout (>2.0s) from pytest-timeout" in run.stdout
    assert "1 failed" in run.stdout


def test_the_e2e_tests_and_only_they_carry_the_e2e_marker():
    files = ["tests/e2e/test_fakediscord.py", "tests/test_golden_comparison.py"]
    e2e, not_selected = collected("-m", "e2e", *files)
    other, not_other = collected("-m", "not e2e", *files)
    assert e2e and other
    assert (not_selected, not_other) == (len(other), len(e2e))
    assert all(t.startswith("tests/e2e/") for t in e2e)
    assert not any(t.startswith("tests/e2e/") for t in other)


def imported_test_modules(source: Path) -> list[str]:
    """The `test_*` modules a Python file imports (`from tests.e2e.test_lobby import x`,
    `from tests import test_render`, `import tests.test_x`, `from .test_x import y`)."""
    found = []
    for node in ast.walk(ast.parse(source.read_text(), str(source))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            modules = [base] + [f"{base}.{alias.name}".lstrip(".") for alias in node.names]
        else:
            continue
        found += [m for m in modules if m.rsplit(".", 1)[-1].startswith("test_")]
    return found


def test_no_module_imports_from_a_test_module():
    """A helper lives in a helper module (tests/e2e/helpers.py, tests/bot_helpers.py, ...), not in
    a test module that others import: a test module is only collected."""
    offenders = {
        str(source.relative_to(ROOT)): imported
        for folder in ("tests", "bench")
        for source in sorted((ROOT / folder).rglob("*.py"))
        if (imported := imported_test_modules(source))
    }
    assert offenders == {}


def test_the_check_sees_every_way_of_importing_a_test_module(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        "from tests.e2e.test_lobby import answered\n"
        "from tests import test_render as base, golden_helpers\n"
        "import tests.test_export\n"
        "from .test_story import game_with\n"
        "from . import test_words\n"
        "from tests.e2e.helpers import answered\n"
        "import tests.e2e.gameplay\n"
    )
    assert imported_test_modules(source) == [
        "tests.e2e.test_lobby",
        "tests.test_render",
        "tests.test_export",
        ".test_story",
        "test_words",
    ]


def test_the_helpers_asserts_are_rewritten():
    """Their failed asserts show the values compared, as a test module's do (tests/conftest.py
    registers them before any test imports them)."""
    for name in ASSERTING_HELPERS:
        assert isinstance(importlib.import_module(name).__loader__, AssertionRewritingHook), name
