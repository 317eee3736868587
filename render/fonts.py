"""The fonts shipped in ``data/fonts`` (never system fonts), read with importlib.resources
so that an installed wheel finds them as a checkout does.

DejaVu Sans draws Latin, Greek, Cyrillic and the symbols; Noto Sans faces draw names in other
scripts (Hebrew, Arabic, Devanagari, Thai, Bengali, Armenian, Georgian, Ethiopic, Tamil) and a
subset of Noto Sans CJK the common Chinese, Japanese and Korean characters. ``runs`` splits a text
into pieces each drawn by the first face that has all its characters; a character that no face has
(an emoji, say) is drawn as a look-alike the main face has (``STAND_INS``: ★ for ⭐) or as ◇,
never as an empty box.

FreeType faces are not safe to share between threads, so each thread keeps its own loaded fonts;
loading is cheap and happens once per thread and size.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from functools import cache
from importlib import resources

from fontTools.ttLib import TTFont
from PIL import ImageFont, features

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
#: Fallback faces, in the order they are tried after DejaVu Sans.
FALLBACKS = (
    "NotoSansHebrew-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansBengali-Regular.ttf",
    "NotoSansArmenian-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf",
    "NotoSansEthiopic-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansCJKjp-Subset.otf",
)
#: Right-to-left and joined scripts need text shaping (libraqm, with FriBiDi for the
#: bidirectional algorithm) when Pillow has it; ``make test`` insists on it.
_SHAPED = features.check("raqm")

_RTL = ("R", "AL")
#: Direction marks and isolates (UAX #9): they steer the layout and are never drawn.
_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                                "\u2066\u2067\u2068\u2069"))  # fmt: skip
#: The right-to-left mark: a picture's label in a right-to-left language starts with it.
RLM = "\u200f"

#: Emoji no shipped face has, drawn as a look-alike the main face has (a name keeps its mark).
STAND_INS = {
    **dict.fromkeys("⭐🌟", "★"),
    **dict.fromkeys("✨💫", "✦"),
    **dict.fromkeys("💚💙💜🧡💛🖤🤍🤎💖💗💕", "♥"),
    **dict.fromkeys("🌳🌲🌴🌱🌿🍀🍃", "♣"),
    **dict.fromkeys("🌸🌺🌻🌼🌷🏵", "✿"),
    **dict.fromkeys("🎲", "⚀"),
    **dict.fromkeys("👑", "♛"),
    **dict.fromkeys("🌙🌛🌜", "☾"),
    **dict.fromkeys("🎵🎶", "♫"),
    **dict.fromkeys("🚩🏁🏳🏴", "⚑"),
}
#: Any other symbol no face has (an emoji, a flag): a white diamond, one for a run of them.
STAND_IN = "◇"

_local = threading.local()
_lock = threading.Lock()


def font_bytes(name: str) -> bytes:
    """The file of a shipped font."""
    return resources.files("photosynthesis_data").joinpath("fonts", name).read_bytes()


@cache
def _coverage(name: str) -> frozenset[int]:
    """The code points a shipped face has."""
    with _lock:
        tt = TTFont(io.BytesIO(font_bytes(name)), lazy=True, fontNumber=0)
        try:
            return frozenset(tt.getBestCmap())
        finally:
            tt.close()


def _load(name: str, size: int, shaped: bool) -> ImageFont.FreeTypeFont:
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (name, size, shaped)
    f = cache.get(key)
    if f is None:
        # The basic layout engine gives the same pixels whether or not libraqm is installed;
        # the fallback faces use libraqm when there is one, for right-to-left and joined text.
        engine = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
        f = ImageFont.truetype(io.BytesIO(font_bytes(name)), size, layout_engine=engine)
        cache[key] = f
    return f


def px(size: float) -> int:
    """The pixel size a font of ``size`` is drawn at."""
    return max(6, round(size))


def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at ``size`` pixels, cached for the calling thread."""
    return _load(BOLD if bold else REGULAR, px(size), False)


def _face_of(ch: str, primary: str) -> str | None:
    cp = ord(ch)
    # Right-to-left letters go to the Noto faces, which are drawn with text shaping.
    if cp in _coverage(primary) and unicodedata.bidirectional(ch) not in _RTL:
        return primary
    for name in FALLBACKS:
        if cp in _coverage(name):
            return name
    return None


def right_to_left(text: str) -> bool:
    """Whether ``text`` is a right-to-left paragraph: its first strong character (a letter, or
    a direction mark) is right to left (UAX #9, rules P2 and P3)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in _RTL:
            return True
        if kind == "L":
            return False
    return False


def strip_marks(text: str) -> str:
    """``text`` without direction marks and isolates."""
    return text.translate(_MARKS)


#: What libraqm lays out of a right-to-left line: the marks and isolates dropped but the
#: left-to-right mark, part of a Hebrew number's sign (Unicode CLDR's "\u200e-",
#: `translation.decimal`), which keeps the sign before the digits ("-1.8", "+2").
_SHAPED_MARKS = {k: v for k, v in _MARKS.items() if k != 0x200E}


def shaped_text(text: str) -> str:
    """``text`` as ``render.text.draw`` gives it to libraqm (a right-to-left line)."""
    return text.translate(_SHAPED_MARKS)


def rtl_font(text: str, size: float, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    """For a right-to-left paragraph (a label of a right-to-left language, which starts with
    ``RLM``, or a text whose first letter is Hebrew: a name such as "מומחה (מהיר)") that the
    main face draws whole (Hebrew with Latin names, numbers and notation), that face with
    libraqm's layout: FriBiDi orders the runs (Hebrew right to left, a label like ``D4`` or a
    number left to right) and mirrors brackets. None for any other text, one the main face
    lacks characters of, or without libraqm (then ``runs`` draws it)."""
    if not _SHAPED or not right_to_left(text):
        return None
    primary = BOLD if bold else REGULAR
    cover = _coverage(primary)
    if all(ord(ch) in cover or ch.isspace() for ch in strip_marks(text)):
        return _load(primary, px(size), True)
    return None


def _pieces(text: str, primary: str) -> list[tuple[str, str]]:
    """``text`` as ``(piece, face name)`` in logical order (``runs``)."""
    out: list[tuple[str, str]] = []
    for ch in unicodedata.normalize("NFC", strip_marks(text)):
        if ch.isspace():
            if not out:
                out.append((" ", primary))
            elif not out[-1][0].endswith(" "):
                out[-1] = (out[-1][0] + " ", out[-1][1])
            continue
        face = _face_of(ch, primary)
        if face is None:
            ch = STAND_INS.get(ch) or (STAND_IN if unicodedata.category(ch) == "So" else "")
            if not ch or (ch == STAND_IN and out and out[-1][0].endswith(STAND_IN)):
                continue
            face = primary
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + ch, face)
        else:
            out.append((ch, face))
    return out


def runs(text: str, size: float, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` as ``(piece, font)`` runs, each piece drawn by one face; a symbol no face has
    is drawn as its stand-in (``STAND_INS``, else ``STAND_IN``), other characters no face has
    are dropped (spaces and joiners go with the run they stand in). The pieces of a
    right-to-left paragraph come in visual order (the last piece first)."""
    primary = BOLD if bold else REGULAR
    size_px = px(size)
    fonts = []
    for piece, face in _pieces(text, primary):
        if not _SHAPED and any(unicodedata.bidirectional(c) in _RTL for c in piece):
            piece = piece[::-1]  # without libraqm: at least the letters in reading order
        fonts.append((piece, _load(face, size_px, bool(_SHAPED) and face != primary)))
    return fonts[::-1] if right_to_left(text) else fonts


def clean(text: str) -> str:
    """``text`` as the pictures draw it, in reading order: an emoji no shipped face has as its
    stand-in (``runs``), other characters no face has left out, runs of spaces squeezed."""
    kept = "".join(piece for piece, _face in _pieces(text, REGULAR))
    return " ".join(kept.split())
