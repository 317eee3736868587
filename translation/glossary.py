"""The glossary the catalogs are checked against (``glossary.json``, described in
``docs/translation-glossary.md``): for each language the one term to use for a thing, and the
variants that must not appear (another word for the same thing, a wrong capital or gender, the
wrong register, English punctuation in French, a sign on the wrong side of a Hebrew number).

:func:`problems` says what in one translated text breaks the glossary; ``tests/test_glossary.py``
runs it over every translation of the catalogs (and over sentences said with every animal).
Inline code (```use hunt 2```), placeholders (``{space}``) and Discord's tags (``<#123>``) are
not words of the language: they are left out before the check.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PATH = Path(__file__).with_name("glossary.json")

#: What is not a word of the language: inline code, a placeholder, a Discord tag, a link.
_NOT_WORDS = (
    (re.compile(r"`[^`\n]*`"), "``"),
    (re.compile(r"\{[^{}]*\}"), "{}"),
    (re.compile(r"<[^<>\s]*>"), "<>"),
    (re.compile(r"https?://\S+"), "url"),
)


@dataclass(frozen=True)
class Rule:
    """One entry of the glossary: the term to ``use`` (for the English ``en``), the literal
    variants to ``avoid`` and the regular expressions ``avoid_patterns`` that must not match;
    ``allow`` lists literal passages exempt from this rule (a notation example, say)."""

    lang: str
    en: str
    use: str
    avoid: tuple[str, ...]
    avoid_patterns: tuple[re.Pattern[str], ...]
    allow: tuple[str, ...]

    def found(self, text: str) -> list[str]:
        """The forbidden variants in ``text`` (already stripped of what is not words)."""
        for allowed in self.allow:
            text = text.replace(allowed, " ")
        hits = [variant for variant in self.avoid if variant in text]
        hits += [m.group(0) for p in self.avoid_patterns for m in p.finditer(text)]
        return hits


@cache
def rules() -> dict[str, tuple[Rule, ...]]:
    """The glossary's rules by language."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    out: dict[str, tuple[Rule, ...]] = {}
    for lang, entries in data["languages"].items():
        out[lang] = tuple(
            Rule(
                lang=lang,
                en=entry["en"],
                use=entry["use"],
                avoid=tuple(entry.get("avoid", ())),
                avoid_patterns=tuple(re.compile(p) for p in entry.get("avoid_patterns", ())),
                allow=tuple(entry.get("allow", ())),
            )
            for entry in entries
        )
    return out


def words(text: str) -> str:
    """``text`` without what is not words of its language (code, placeholders, tags, links)."""
    for pattern, stand_in in _NOT_WORDS:
        text = pattern.sub(stand_in, text)
    return text


def problems(lang: str, text: str) -> list[str]:
    """What in ``text`` (a translation into ``lang``) breaks the glossary, one line each:
    ``'Pleine Lune' (Full Moon: use 'pleine lune')``; empty when nothing does."""
    said = words(text)
    out = []
    for rule in rules().get(lang, ()):
        for hit in rule.found(said):
            out.append(f"{hit!r} ({rule.en}: use {rule.use!r})")
    return out
