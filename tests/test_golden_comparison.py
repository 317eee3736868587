"""The golden comparison catches a change the size of a 20×20 square anywhere in a picture, and
lets through the antialiasing differences it is meant to tolerate (tests/golden_helpers.py)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from tests.golden_helpers import GOLDEN, check_golden, load_golden, mean_abs_diff

NAMES = sorted(p.stem for p in GOLDEN.glob("*.png"))
MAGENTA = (255, 0, 255)


def golden(name: str) -> Image.Image:
    return load_golden(name).copy()


def pasted(im: Image.Image, x: int, y: int, side: int = 20, colour=MAGENTA) -> Image.Image:
    changed = im.copy()
    changed.paste(colour, (x, y, x + side, y + side))
    return changed


def test_the_goldens_are_all_there():
    assert len(NAMES) == 15  # 9 wide pictures, 4 phone pictures and 2 with cards


@pytest.mark.parametrize("name", NAMES)
def test_a_20px_square_anywhere_fails(name):
    im = golden(name)
    w, h = im.size
    places = [
        (0, 0), (w - 20, 0), (0, h - 20), (w - 20, h - 20),  # the four corners
        (w // 2 - 10, 0), (0, h // 2 - 10), (w - 20, h // 2 - 10), (w // 2 - 10, h - 20),  # edges
        (w // 2 - 10, h // 2 - 10), (123, 457), (601, 99), (977, 311),  # inside
    ]  # fmt: skip
    for x, y in places:
        with pytest.raises(AssertionError, match="20x20 square differs"):
            check_golden(name, pasted(im, x, y))


def test_the_square_a_whole_picture_mean_let_through_now_fails():
    """A 60×60 magenta square on mid-4 (1180×766) moves the whole-picture mean by less than one
    level per channel: the old measure passed it."""
    im = golden("mid-4")
    changed = pasted(im, 560, 350, side=60)
    assert mean_abs_diff(changed, im) < 1.0
    with pytest.raises(AssertionError):
        check_golden("mid-4", changed)


@pytest.mark.parametrize("name", NAMES)
def test_antialias_like_noise_passes(name):
    im = golden(name)
    # Every edge of the picture redrawn half a pixel off, in each direction.
    for dx, dy in ((1, 0), (0, 1), (1, 1)):
        check_golden(name, Image.blend(im, ImageChops.offset(im, dx, dy), 0.5))
    # Every edge a whole pixel to the right (text whose advance widths round the other way).
    check_golden(name, ImageChops.offset(im, 1, 0))
    # Every colour a few levels lighter.
    check_golden(name, im.point(lambda v: min(255, v + 3)))
