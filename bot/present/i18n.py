"""The bot's languages: whom it speaks to in which language, and the catalogs' check.

Every text of `bot/` is written in English with `translation._` (a `translation.Text`) and
translated at the edge, where the message is built, by `tr` in the language of the moment:

- a private (ephemeral) answer speaks the reader's language (`reader_language`): their own
  `/ps language` setting, else the interaction's locale (Discord's `nl`, `fr`, `en-US`/`en-GB`),
  else the server's default (set by an admin), else English. Discord has no Hebrew locale:
  Hebrew comes only through the settings. `replies.answering` sets it for a handler's body;
- a channel message (the lobby, the game message, reminders, notices, the result) speaks the
  game's language, chosen by the host at `/ps new` (default: the server's): `speaking(lang)`.

Slash commands keep their English names (one notation, one set of commands); their
descriptions, option descriptions and choice names are localised for Discord's `nl` and `fr`
by `CommandTranslator`.

`python -m bot.present.i18n check` prints, per language, the share of the English source strings (every
domain) that the catalogs translate, checks that each translation keeps its source's
placeholders, and exits non-zero when anything is missing or wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import discord
from discord import app_commands

import translation
from translation import LANGUAGES, SOURCE, translate

if TYPE_CHECKING:  # babel is imported where the catalogs are read (`check`)
    from babel.messages.catalog import Catalog, Message

#: The language the texts being built speak (set per interaction and per channel message).
_LANGUAGE: ContextVar[str] = ContextVar("ps_language", default=SOURCE)

#: Discord's locales that have a language of ours (Discord has no Hebrew).
DISCORD_LOCALES: dict[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "nl": "nl",
    "fr": "fr",
}
#: The names of the languages, in their own language (the `/ps language` choices).
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "fr": "Français", "he": "עברית"}


def current() -> str:
    """The language the texts being built speak now."""
    return _LANGUAGE.get()


def tr(text: str) -> str:
    """`text` in the current language (a plain string, a name or a notation, as it is)."""
    return translate(text, _LANGUAGE.get())


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Build texts in `lang` (a known language; English otherwise) within the block."""
    lang = lang if lang in LANGUAGES else SOURCE
    token = _LANGUAGE.set(lang)
    try:
        yield lang
    finally:
        _LANGUAGE.reset(token)


def use(lang: str | None) -> str:
    """Speak `lang` from now on in this task (a handler's body; `speaking` for a block)."""
    lang = lang if lang in LANGUAGES else SOURCE
    _LANGUAGE.set(lang)
    return lang


def isolate(value: str) -> str:
    """A name (a player's) keeps its direction in a right-to-left sentence."""
    lang = _LANGUAGE.get()
    return translation.isolate(translate(value, lang), lang)  # an Expert's seat name: a Text


def notation(value: str) -> str:
    """Notation (`grow D4`) reads left to right inside a right-to-left sentence."""
    return translation.notation(value, _LANGUAGE.get())


def from_locale(locale: discord.Locale | str | None) -> str | None:
    """Our language for a Discord locale (`discord.Locale` or its value), None for others."""
    value = getattr(locale, "value", locale)
    if not value:
        return None
    return DISCORD_LOCALES.get(str(value))


def choose_language(
    setting: str | None, locale: discord.Locale | str | None = None, server: str | None = None
) -> str:
    """The reader's language, in this order: their own setting, the interaction's locale, the
    server's default, English."""
    for lang in (setting, from_locale(locale), server):
        if lang in LANGUAGES:
            return lang
    return SOURCE


# --- slash commands ---


class CommandTranslator(app_commands.Translator):
    """Localises the slash commands' descriptions, option descriptions and choice names for
    Discord's `nl` and `fr` from the `bot` catalogs; names stay English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ):
            return None  # one set of commands in every language
        lang = from_locale(locale)
        if lang is None or lang == SOURCE:
            return None
        text = translation.Text(string.message)
        translated = translate(text, lang)
        return translated if translated != string.message else None


# --- the catalogs' check ---


def _read(path: Path, lang: str, domain: str) -> Catalog:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang if lang != SOURCE else None, domain=domain)


def _key(message: Message) -> tuple[str, str | None]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return msgid, message.context


def check(catalogs: Path | None = None, out: TextIO | None = None) -> int:
    """Print one line per language (`nl 100% (N strings)`), the problems found, and a last line
    `i18n: ...`; return 0 when every language translates every source string of every domain
    with the same placeholders, else 1."""
    catalogs = catalogs or translation.CATALOGS
    out = out or sys.stdout
    sources: dict[tuple[str, tuple[str, str | None]], Message] = {}
    problems: list[str] = []
    for domain in translation.DOMAINS:
        template = catalogs / f"{domain}.pot"
        if not template.exists():
            problems.append(f"no template {template.name}")
            continue
        for message in _read(template, SOURCE, domain):
            if message.id:
                sources[(domain, _key(message))] = message
    if not sources:
        problems.append("no source strings")
    total = len(sources)
    for lang in LANGUAGES:
        if lang == SOURCE:
            print(f"{lang} 100% ({total} strings)", file=out)
            continue
        done = 0
        for domain in translation.DOMAINS:
            path = catalogs / lang / "LC_MESSAGES" / f"{domain}.po"
            catalog = _read(path, lang, domain) if path.exists() else None
            if catalog is None:
                problems.append(f"{lang}: no {domain} catalog")
            for (dom, key), source in sources.items():
                if dom != domain:
                    continue
                found = catalog.get(key[0], context=key[1]) if catalog is not None else None
                if found is None or not _translated(found) or found.fuzzy:
                    problems.append(f"{lang} {domain}: missing {key[0]!r}")
                    continue
                wrong = _placeholder_problem(source, found)
                if wrong:
                    problems.append(f"{lang} {domain}: {wrong} in {key[0]!r}")
                    continue
                done += 1
        share = 100 * done // total if total else 0
        print(f"{lang} {share}% ({done}/{total} strings)", file=out)
    for problem in problems:
        print(problem, file=out)
    if problems:
        print(f"i18n: FAILED, {len(problems)} problems", file=out)
        return 1
    print(f"i18n: ok, {len(LANGUAGES)} languages, {total} strings each", file=out)
    return 0


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(strings) and bool(strings)


def _placeholder_problem(source: Message, message: Message) -> str | None:
    """What is wrong with the translation's placeholders (each form against the English one),
    or None."""
    ids = source.id if isinstance(source.id, tuple | list) else (source.id,)
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    expected: set[str] = set()
    for msgid in ids:
        expected |= translation.placeholders(msgid)
    for string in strings:
        try:
            found = translation.placeholders(string or "")  # (`_translated`: never empty)
        except ValueError:
            return "a malformed placeholder"
        # a plural form may leave out {n} (Hebrew "one" says it in words): never add a name
        extra = found - expected
        missing = (expected - {"n"}) - found if len(ids) > 1 else expected - found
        if extra:
            return f"unknown placeholder {{{sorted(extra)[0]}}}"
        if missing:
            return f"missing placeholder {{{sorted(missing)[0]}}}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.present.i18n", description=__doc__)
    parser.add_argument("command", choices=["check"])
    parser.add_argument("--catalogs", type=Path, default=None, help="the catalogs' folder")
    args = parser.parse_args(argv)
    return check(args.catalogs)


if __name__ == "__main__":
    raise SystemExit(main())
