"""The characters kept in NotoSansCJKjp-Subset.otf (a maintenance script, not used at run time).

    python data/fonts/cjk_chars.py gb1 jis kr   # writes chars.txt
    pyftsubset NotoSansCJK-Regular.ttc --font-number=0 --text-file=chars.txt \\
        --output-file=NotoSansCJKjp-Subset.otf --layout-features='*' --no-hinting

gb1: GB2312 level-1 hanzi; gb2: level 2; jis: JIS X 0208 level-1 kanji; big5: Big5 level 1;
kr: the 2,350 Hangul syllables of KS X 1001. CJK punctuation, kana, Hangul jamo and full-width
forms are always kept.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

#: Always kept: CJK punctuation, kana, Hangul compatibility jamo, kana extensions, full width.
RANGES = ((0x3000, 0x303F), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF), (0xFF00, 0xFFEF))
#: Double-byte character sets: (codec, lead bytes, trail bytes).
SETS = {
    "gb1": [("gb2312", (0xB0, 0xD7), (0xA1, 0xFE))],
    "gb2": [("gb2312", (0xD8, 0xF7), (0xA1, 0xFE))],
    "jis": [("euc_jp", (0xB0, 0xF4), (0xA1, 0xFE))],
    "big5": [("big5", (0xA4, 0xC6), (0x40, 0x7E)), ("big5", (0xA4, 0xC6), (0xA1, 0xFE))],
    "kr": [("euc_kr", (0xB0, 0xC8), (0xA1, 0xFE))],
}


def characters(which: list[str]) -> set[str]:
    chars = {chr(c) for a, b in RANGES for c in range(a, b + 1)}
    for name in which:
        for codec, (h0, h1), (t0, t1) in SETS[name]:
            for lead in range(h0, h1 + 1):
                for trail in range(t0, t1 + 1):
                    with contextlib.suppress(UnicodeDecodeError):
                        chars.add(bytes([lead, trail]).decode(codec))
    return {c for c in chars if len(c) == 1}


if __name__ == "__main__":
    kept = characters(sys.argv[1:])
    Path("chars.txt").write_text("".join(sorted(kept)), encoding="utf-8")
    print(f"{len(kept)} characters", file=sys.stderr)
