"""The test run's own setup: every test has a timeout, and the e2e tests carry their marker."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
