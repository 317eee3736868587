"""Issue 13, item 13: a plain (not editable) install shipped no data: the first Cynthia move
failed with FileNotFoundError for the deck, and the fonts were missing. The game's data lives in
the top-level data/ folder, installed as the package photosynthesis_data (read with
importlib.resources); this builds the wheel, installs it on its own into a fresh directory, and
plays a game with the Expert and a picture from there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

GAME = """
import engine, photosynthesis_data, render, translation
from engine.players import AutopilotPlayer, CynthiaPlayer, play_until
for package in (engine, render, translation, photosynthesis_data):
    assert package.__file__.startswith(TARGET), package.__file__
config = engine.Config(seats=("human", "cynthia"))
state = engine.new_game(config, seed=7)
state, actions = play_until(state, [AutopilotPlayer(), CynthiaPlayer()])
# The Expert weighs a position of that game with its shipped weights.
assert engine.expert_action(engine.replay(config, 7, actions[:40]), budget_s=0.05, seed=1)
png = render.board_png(state, names=["Ana \\u0639\\u0644\\u064a", "Cynthia"])
assert state.is_over and png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
print(len(actions), engine.scores(state))
"""


def test_the_wheel_installs_and_plays_a_game_with_a_picture(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: building leaves build/ and egg-info behind
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("engine", "render", "bot", "translation", "data"):
        shutil.copytree(REPO / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v"]
        + ["--no-index", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    # (setuptools warns of a folder that holds data but is not listed: it would be left out)
    assert "is absent from the `packages` configuration" not in build.stderr + build.stdout
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "photosynthesis_data/cynthia-deck.json",
        "photosynthesis_data/expert_weights.json",
        "photosynthesis_data/fonts/DejaVuSans.ttf",
        "photosynthesis_data/fonts/NotoSansCJKjp-Subset.otf",
        "photosynthesis_data/fonts/NotoSansCJKjp-Bold-Subset.otf",
        "photosynthesis_data/fonts/NotoColorEmoji.ttf",
        "photosynthesis_data/fonts/LICENSE-Noto",
    } <= names
    # The translations, for the bot and the game in every language.
    catalogs = {
        str(path.relative_to(REPO))
        for path in (REPO / "translation" / "catalogs").rglob("*")
        if path.suffix in (".po", ".pot")
    }
    assert len(catalogs) == 8 and catalogs <= names
    # PEP 561: the packages say that they are typed.
    assert {"engine/py.typed", "render/py.typed", "bot/py.typed", "translation/py.typed"} <= names

    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q"]
        + ["--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    # The installed copy comes first on the path (the checkout's editable finder comes after),
    # and the game runs from a directory outside the checkout.
    env = {**os.environ, "PYTHONPATH": str(target)}
    game = subprocess.run(
        [sys.executable, "-c", f"TARGET = {str(target)!r}\n{GAME}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert game.returncode == 0, game.stderr
    plies, scores = game.stdout.split(" ", 1)
    assert int(plies) > 50 and scores.startswith("[")


def test_the_listed_packages_are_the_package_folders() -> None:
    """pyproject.toml lists the packages (the data folder is installed under another name): every
    folder with an ``__init__.py`` or a gettext catalog is listed, and nothing else."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"photosynthesis_data": "data"}
    folders = {
        ".".join(init.parent.relative_to(REPO).parts)
        for root in ("engine", "render", "bot", "translation")
        for init in (REPO / root).rglob("__init__.py")
    } | {
        ".".join(catalog.parent.relative_to(REPO).parts)
        for catalog in (REPO / "translation" / "catalogs").rglob("*.po*")
    }
    assert set(setuptools["packages"]) == folders | {
        "photosynthesis_data",
        "photosynthesis_data.fonts",
    }
