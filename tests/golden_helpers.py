"""Golden pictures: where they are, how close is the same, and the comparison itself."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).resolve().parent / "golden"
#: Largest mean absolute difference per channel (0..255) still counted as the same picture.
GOLDEN_TOLERANCE = 1.0
#: ``UPDATE_GOLDEN=1`` rewrites the goldens instead of comparing (tests/golden/README.md).
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def assert_matches_golden(name: str, im: Image.Image) -> None:
    """``im`` is the golden picture ``name`` within the tolerance (or becomes it on update)."""
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        im.save(path, optimize=True)
    golden = Image.open(path).convert("RGB")
    assert im.size == golden.size
    diff = mean_abs_diff(im, golden)
    assert diff <= GOLDEN_TOLERANCE, f"{name}: mean pixel difference {diff:.2f} from {path.name}"
