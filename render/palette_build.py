"""Makes `render.png_palette.PALETTE` (see there): `python -m render.palette_build [--write]`."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from PIL import Image

import engine
from engine.config import SeatKind

from . import png_palette
from .demo import play_through, touched
from .draw import render_image


def build() -> bytes:
    """The palette of the reference pictures (deterministic: seeded games)."""
    four: tuple[SeatKind, ...] = ("human", "human", "cynthia", "cynthia")
    base, base_last = play_through(
        engine.Config(seats=four), seed=2024, rng_seed=2024, stop=lambda s: s.round >= 9
    )
    moon_config = engine.Config(seats=four, moon_animals=True, elder_tree=True, moonstones=True)
    moon, moon_last = play_through(moon_config, seed=7, rng_seed=7, stop=lambda s: s.round >= 6)
    pictures = [
        render_image(base, highlight=touched(base_last), viewer_seat=0),
        render_image(base, preview_sun=(base.sun + 1) % 6, viewer_seat=1),
        render_image(moon, highlight=touched(moon_last), viewer_seat=2),
        render_image(moon, preview_sun=(moon.sun + 1) % 6),
    ]
    mosaic = Image.new("RGB", (max(p.width for p in pictures), sum(p.height for p in pictures)))
    top = 0
    for picture in pictures:
        mosaic.paste(picture, (0, top))
        top += picture.height
    quantized = mosaic.quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    palette = bytes(quantized.getpalette() or [])[: 256 * 3]
    return palette + bytes(256 * 3 - len(palette))


def main() -> None:
    parser = argparse.ArgumentParser(description="Make the board pictures' palette again")
    parser.add_argument("--write", action="store_true", help="write it into render/png_palette.py")
    args = parser.parse_args()
    lines = textwrap.wrap(build().hex(), 88)
    literal = "PALETTE = bytes.fromhex(\n" + "".join(f'    "{x}"\n' for x in lines) + ")"
    if not args.write:
        print(literal)
        return
    path = Path(png_palette.__file__)
    source = path.read_text()
    start = source.index("PALETTE = bytes.fromhex(")
    end = source.index(")\n", start) + 1
    path.write_text(source[:start] + literal + source[end:])


if __name__ == "__main__":
    main()
