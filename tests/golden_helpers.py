"""Golden pictures: where they are, how close is the same, and the comparison itself.

The comparison is local: for every ``WINDOW``×``WINDOW`` square of the picture (sliding, one pixel
at a time, the picture's edges extended), the mean over its pixels of each pixel's largest channel
difference (0..255) must stay within ``WINDOW_TOLERANCE``. So a change the size of a 20×20 square
anywhere fails (pasting one in any colour at least a quarter of the range away from what was
there), while antialiasing and font rasterisation that differ between Pillow/FreeType versions
pass: every edge of the picture redrawn half a pixel off in any direction comes to at most 45,
the whole picture one pixel to the side to at most 59 (tests/test_golden_comparison.py).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter, ImageStat

GOLDEN = Path(__file__).resolve().parent / "golden"
#: The side of the squares the goldens are compared over, in pixels.
WINDOW = 20
#: Largest mean, over any ``WINDOW``×``WINDOW`` square, of the per-pixel largest channel
#: difference (0..255) still counted as the same picture.
WINDOW_TOLERANCE = 64
#: ``UPDATE_GOLDEN=1`` rewrites the goldens instead of comparing (tests/golden/README.md).
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel over the whole picture (not the golden measure)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def worst_window_diff(a: Image.Image, b: Image.Image) -> int:
    """The golden measure: the largest mean, over every ``WINDOW``×``WINDOW`` square, of each
    pixel's largest channel difference between ``a`` and ``b`` (RGB pictures of one size)."""
    red, green, blue = ImageChops.difference(a, b).split()
    per_pixel = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    # A box blur of radius r averages a square of side 2r + 1 (fractional radii weigh the outer
    # row and column partly): radius 9.5 is a 20-pixel square.
    windows = per_pixel.filter(ImageFilter.BoxBlur((WINDOW - 1) / 2))
    return windows.getextrema()[1]


def load_golden(name: str) -> Image.Image:
    """The golden picture ``name`` as RGB, decoded once while its file stays the same (a test
    compares many pictures with one golden); not to be drawn on: copy it first."""
    path = GOLDEN / f"{name}.png"
    stat = path.stat()
    return _decoded(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _decoded(path: Path, mtime_ns: int, size: int) -> Image.Image:
    return Image.open(path).convert("RGB")


def check_golden(name: str, im: Image.Image) -> None:
    """``im`` is the golden picture ``name`` within the tolerance (AssertionError otherwise)."""
    path = GOLDEN / f"{name}.png"
    golden = load_golden(name)
    assert im.size == golden.size
    diff = worst_window_diff(im, golden)
    assert diff <= WINDOW_TOLERANCE, (
        f"{name}: a {WINDOW}x{WINDOW} square differs by {diff} on average (at most "
        f"{WINDOW_TOLERANCE}) from {path.name}"
    )


def assert_matches_golden(name: str, im: Image.Image) -> None:
    """``im`` is the golden picture ``name`` within the tolerance (or becomes it on update)."""
    if UPDATE:
        im.save(GOLDEN / f"{name}.png", optimize=True)
    check_golden(name, im)
